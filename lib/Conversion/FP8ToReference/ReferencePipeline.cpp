//===- ReferencePipeline.cpp - fp8 IR down to runnable LLVM ---------------===//
//
// `fp8-reference-pipeline`: from tensor-level fp8 IR to the LLVM dialect, so
// that `mlir-runner` executes the reference. The reference never does f8
// arithmetic (Numerics.h converts FP8 with integer operations), so f32 math
// runs natively and only bitcasts touch f8 values.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToReference/FP8ToReference.h"

#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

static void buildReferencePipeline(OpPassManager &pm) {
  pm.addPass(fp8::createFP8LowerToReference());
  // Tests and users may write elementwise arith on tensors (e.g. bitcasts to
  // print raw FP8 bits); make it bufferizable.
  pm.addPass(createConvertElementwiseToLinalgPass());
  pm.addPass(createCanonicalizerPass());

  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  bufferization::buildBufferDeallocationPipeline(pm);
  // Deallocation inserts clones where buffers cross function boundaries.
  pm.addPass(createConvertBufferizationToMemRefPass());

  pm.addPass(createConvertLinalgToLoopsPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
}

void fp8::registerFP8ReferencePipeline() {
  // Not PassPipelineRegistration<>: it refuses options without a word (exit
  // status 1 and nothing printed).
  registerPassPipeline(
      "fp8-reference-pipeline",
      "Lower tensor-level fp8 IR to the LLVM dialect for mlir-runner",
      [](OpPassManager &pm, StringRef options,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        if (failed(fp8::checkPipelineAnchor("fp8-reference-pipeline", pm,
                                            options, errorHandler)))
          return failure();
        if (!options.empty())
          return errorHandler("fp8-reference-pipeline takes no options, got '" +
                              options +
                              "' (the recipe is fp8-quantize-matmuls' option)");
        buildReferencePipeline(pm);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)>) {});
}
