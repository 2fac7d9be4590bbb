//===- fp8-opt.cpp - fp8-mlir optimizer driver ----------------------------===//
//
// mlir-opt for fp8-mlir: the fp8 dialect and passes, plus the upstream
// dialects, passes and translations the fp8 pipelines lower through.
//
//===----------------------------------------------------------------------===//

#include "fp8/InitAllDialects.h"
#include "fp8/InitAllPasses.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::fp8::registerAllDialects(registry);
  mlir::fp8::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "fp8-mlir optimizer driver\n", registry));
}
