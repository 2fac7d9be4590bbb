//===- InitAllPasses.cpp - fp8-mlir pass registration ---------------------===//
//
// The fp8 passes, and the groups of upstream passes the fp8 pipelines are
// built from, so that every stage can also be run by hand in fp8-opt.
//
//===----------------------------------------------------------------------===//

#include "fp8/InitAllPasses.h"

#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Pipeline.h"

#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Affine/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/Passes.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/Transforms/Passes.h"
#include "mlir/Dialect/GPU/Pipelines/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/NVGPU/Transforms/Passes.h"
#include "mlir/Dialect/SCF/Transforms/Passes.h"
#include "mlir/Dialect/Tensor/Transforms/Passes.h"
#include "mlir/Dialect/Vector/Transforms/Passes.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void fp8::registerFP8Passes() {
  registerFP8TransformsPasses();
  registerFP8Pipeline();
  registerFP8ConversionPasses();
  registerFP8ReferencePipeline();
  registerFP8ToPTXPipeline();
}

void fp8::registerAllPasses() {
  registerFP8Passes();

  registerTransformsPasses();
  registerConversionPasses();
  affine::registerAffinePasses();
  arith::registerArithPasses();
  bufferization::registerBufferizationPasses();
  bufferization::registerBufferizationPipelines();
  func::registerFuncPasses();
  registerGPUPasses();
  gpu::registerGPUToNVVMPipeline();
  LLVM::registerLLVMPasses();
  registerLinalgPasses();
  math::registerMathPasses();
  memref::registerMemRefPasses();
  registerNVGPUPasses();
  registerSCFPasses();
  tensor::registerTensorPasses();
  vector::registerVectorPasses();
}
