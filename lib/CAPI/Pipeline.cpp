//===- Pipeline.cpp - the one-call fp8 pipeline from C --------------------===//
//
// fp8BuildPipeline and fp8BuildPipelineWithMonitor: fp8::buildPipeline
// behind the C API.
//
//===----------------------------------------------------------------------===//

#include "fp8-c/Pipeline.h"

#include "fp8/Dialect/FP8/Transforms/Pipeline.h"
#include "mlir/CAPI/Pass.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

MlirLogicalResult fp8BuildPipeline(MlirOpPassManager passManager,
                                   MlirStringRef recipe, MlirStringRef chip) {
  return fp8BuildPipelineWithMonitor(passManager, recipe, chip,
                                     /*monitor=*/false);
}

MlirLogicalResult fp8BuildPipelineWithMonitor(MlirOpPassManager passManager,
                                              MlirStringRef recipe,
                                              MlirStringRef chip,
                                              bool monitor) {
  OpPassManager *pm = unwrap(passManager);
  // The passes run on modules; adding them to a pass manager anchored on
  // another op would abort the process instead of failing.
  StringRef anchor = pm->getOpAnchorName();
  if (anchor != ModuleOp::getOperationName() &&
      anchor != OpPassManager::getAnyOpAnchorName())
    return mlirLogicalResultFailure();
  fp8::PipelineOptions options;
  options.recipe = unwrap(recipe).str();
  options.chip = unwrap(chip).str();
  options.monitor = monitor;
  fp8::buildPipeline(*pm, options);
  return mlirLogicalResultSuccess();
}
