//===- Registration.cpp - fp8-mlir C API registration ---------------------===//
//
// The C entry points of fp8-c/Registration.h, as thin wrappers over the C++
// registration functions so that C and C++ hosts see the same dialects and
// passes.
//
//===----------------------------------------------------------------------===//

#include "fp8-c/Registration.h"

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/InitAllDialects.h"
#include "fp8/InitAllPasses.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(FP8, fp8, mlir::fp8::FP8Dialect)

void fp8RegisterAllDialects(MlirDialectRegistry registry) {
  mlir::fp8::registerAllDialects(*unwrap(registry));
}

void fp8RegisterAllPasses(void) { mlir::fp8::registerAllPasses(); }
