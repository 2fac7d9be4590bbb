//===- GemmManifest.cpp - a GEMM kernel's parameters and manifest ---------===//

#include "GemmManifest.h"

#include "../KernelUtils.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;
namespace schema = mlir::fp8::manifest;

KernelSignature gemm::declareGemmBuffers(ScaledMatmulOp op,
                                         const GemmProblem &problem,
                                         Type pointerType) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  KernelSignature signature;
  signature.addBuffer("a", ParamRole::input, problem.aElement, aType.getShape(),
                      pointerType);
  signature.addBuffer("a_scale", ParamRole::input, aScaleType.getElementType(),
                      aScaleType.getShape(), pointerType);
  signature.addBuffer("b", ParamRole::input, problem.bElement, bType.getShape(),
                      pointerType);
  signature.addBuffer("b_scale", ParamRole::input, bScaleType.getElementType(),
                      bScaleType.getShape(), pointerType);
  signature.addBuffer("c", ParamRole::output, problem.resultElement,
                      {problem.m, problem.n}, pointerType);
  signature.bindOperand("a", op.getAMutable());
  signature.bindOperand("a_scale", op.getAScaleMutable());
  signature.bindOperand("b", op.getBMutable());
  signature.bindOperand("b_scale", op.getBScaleMutable());
  signature.bindResult("c", op->getResult(0));
  return signature;
}

void gemm::setGemmManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                           ScaledMatmulOp op, const GemmProblem &problem,
                           const KernelSignature &signature,
                           const GemmLaunch &launch) {
  int64_t m = problem.m, n = problem.n, k = problem.k;
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  int64_t scaleBytes =
      aScaleType.getNumElements() * (problem.aScaling.e8m0 ? 1 : 4) +
      bScaleType.getNumElements() * (problem.bScaling.e8m0 ? 1 : 4);
  int64_t resultBytes = problem.resultElement.isBF16() ? 2 : 4;
  auto named = [&](StringRef key, Attribute value) {
    return b.getNamedAttr(key, value);
  };
  SmallVector<NamedAttribute> entries = {
      named("m", b.getI64IntegerAttr(m)),
      named("n", b.getI64IntegerAttr(n)),
      named("k", b.getI64IntegerAttr(k)),
      named("contracting", b.getI64ArrayAttr(op.getContracting())),
      named("accumulate",
            b.getStringAttr(stringifyAccumulate(op.getAccumulate()))),
      named("a_scaling", manifestScaling(b, op.getAScaling())),
      named("b_scaling", manifestScaling(b, op.getBScaling())),
      named("a_scale_layout",
            b.getStringAttr(stringifyScaleLayout(op.getAScaleLayout()))),
      named("b_scale_layout",
            b.getStringAttr(stringifyScaleLayout(op.getBScaleLayout()))),
      named("out_dtype", b.getStringAttr(dtypeName(problem.resultElement))),
      named(schema::kTile, b.getI64ArrayAttr(launch.tile))};
  entries.append(launch.pipeline.begin(), launch.pipeline.end());
  NamedAttribute matmul = named(schema::kMatmul, b.getDictionaryAttr(entries));
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, problem.aElement, op.getAScaling());
  extra.append(
      {named(schema::kSharedBytes, b.getI64IntegerAttr(launch.sharedBytes)),
       named(schema::kFlops, b.getI64IntegerAttr(2 * m * n * k)), matmul});
  setManifest(b, kernel, signature, "fp8.scaled_matmul", launch.gridSize,
              launch.threads, m * k + n * k + scaleBytes + m * n * resultBytes,
              extra);
}

KernelSignature gemm::declareHighPrecisionBuffers(linalg::LinalgOp op,
                                                  const GemmProblem &problem,
                                                  Type pointerType) {
  OpOperand *a = op.getDpsInputOperand(0);
  OpOperand *b = op.getDpsInputOperand(1);
  KernelSignature signature;
  signature.addBuffer("a", ParamRole::input, problem.aElement,
                      cast<RankedTensorType>(a->get().getType()).getShape(),
                      pointerType);
  signature.addBuffer("b", ParamRole::input, problem.bElement,
                      cast<RankedTensorType>(b->get().getType()).getShape(),
                      pointerType);
  signature.addBuffer("c", ParamRole::output, problem.resultElement,
                      {problem.m, problem.n}, pointerType);
  signature.bindOperand("a", *a);
  signature.bindOperand("b", *b);
  signature.bindResult("c", op->getResult(0));
  return signature;
}

void gemm::setHighPrecisionManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                                    linalg::LinalgOp op,
                                    const GemmProblem &problem,
                                    const KernelSignature &signature,
                                    const GemmLaunch &launch) {
  int64_t m = problem.m, n = problem.n, k = problem.k;
  int64_t inBytes = problem.aLayout().elementBytes;
  int64_t resultBytes = problem.resultElement.isBF16() ? 2 : 4;
  auto named = [&](StringRef key, Attribute value) {
    return b.getNamedAttr(key, value);
  };
  // The contracted dim of each operand as stored: 1 K-major, 0 MN-major.
  SmallVector<int64_t> contracting = {problem.aMnMajor ? 0 : 1,
                                      problem.bMnMajor ? 0 : 1};
  SmallVector<NamedAttribute> entries = {
      named("m", b.getI64IntegerAttr(m)),
      named("n", b.getI64IntegerAttr(n)),
      named("k", b.getI64IntegerAttr(k)),
      named("contracting", b.getI64ArrayAttr(contracting)),
      named("accumulate", b.getStringAttr("f32")),
      named("out_dtype", b.getStringAttr(dtypeName(problem.resultElement))),
      named(schema::kTile, b.getI64ArrayAttr(launch.tile))};
  entries.append(launch.pipeline.begin(), launch.pipeline.end());
  SmallVector<NamedAttribute> extra = {
      named(schema::kSharedBytes, b.getI64IntegerAttr(launch.sharedBytes)),
      named(schema::kFlops, b.getI64IntegerAttr(2 * m * n * k)),
      named(schema::kMatmul, b.getDictionaryAttr(entries))};
  setManifest(b, kernel, signature, op->getName().getStringRef(),
              launch.gridSize, launch.threads,
              (m * k + n * k) * inBytes + m * n * resultBytes, extra);
}

KernelSignature gemm::declareGroupedGemmBuffers(GroupedScaledMatmulOp op,
                                                const GemmProblem &problem,
                                                Type pointerType) {
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  int64_t groups = problem.groups.count;
  // The matrices as the kernel reads them (their tensor maps are 2-D); the
  // scales as the op stores them.
  KernelSignature signature;
  signature.addBuffer("a", ParamRole::input, problem.aElement,
                      {problem.m, problem.k}, pointerType);
  signature.addBuffer("a_scale", ParamRole::input, aScaleType.getElementType(),
                      aScaleType.getShape(), pointerType);
  signature.addBuffer("b", ParamRole::input, problem.bElement,
                      {groups * problem.n, problem.k}, pointerType);
  signature.addBuffer("b_scale", ParamRole::input, bScaleType.getElementType(),
                      bScaleType.getShape(), pointerType);
  signature.addBuffer("group_rows", ParamRole::input,
                      IntegerType::get(op.getContext(), 32), {groups},
                      pointerType);
  signature.addBuffer("c", ParamRole::output, problem.resultElement,
                      {problem.m, problem.n}, pointerType);
  signature.bindOperand("a", op.getAMutable());
  signature.bindOperand("a_scale", op.getAScaleMutable());
  signature.bindOperand("b", op.getBMutable());
  signature.bindOperand("b_scale", op.getBScaleMutable());
  signature.bindOperand("group_rows", op.getGroupRowsMutable());
  signature.bindResult("c", op->getResult(0));
  return signature;
}

void gemm::setGroupedGemmManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                                  GroupedScaledMatmulOp op,
                                  const GemmProblem &problem,
                                  const KernelSignature &signature,
                                  const GemmLaunch &launch) {
  int64_t m = problem.m, n = problem.n, k = problem.k;
  int64_t groups = problem.groups.count;
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  int64_t scaleBytes =
      aScaleType.getNumElements() * (problem.aScaling.e8m0 ? 1 : 4) +
      bScaleType.getNumElements() * (problem.bScaling.e8m0 ? 1 : 4);
  int64_t resultBytes = problem.resultElement.isBF16() ? 2 : 4;
  auto named = [&](StringRef key, Attribute value) {
    return b.getNamedAttr(key, value);
  };
  StringRef layout =
      problem.groups.masked ? schema::kLayoutMasked : schema::kLayoutContiguous;
  // Each group's rows are bounded by all of M (contiguous) or by its
  // capacity (masked).
  int64_t rowsBound = problem.groups.masked ? problem.groups.capacity : m;
  SmallVector<NamedAttribute> entries = {
      named("m", b.getI64IntegerAttr(m)),
      named("n", b.getI64IntegerAttr(n)),
      named("k", b.getI64IntegerAttr(k)),
      named("contracting", b.getI64ArrayAttr({1, 1})),
      named("accumulate",
            b.getStringAttr(stringifyAccumulate(op.getAccumulate()))),
      named("a_scaling", manifestScaling(b, op.getAScaling())),
      named("b_scaling", manifestScaling(b, op.getBScaling())),
      named("a_scale_layout", b.getStringAttr("row_major")),
      named("b_scale_layout", b.getStringAttr("row_major")),
      named("groups", b.getDictionaryAttr(
                          {named("count", b.getI64IntegerAttr(groups)),
                           named(schema::kLayout, b.getStringAttr(layout)),
                           named("capacity", b.getI64IntegerAttr(
                                                 problem.groups.capacity))})),
      named("out_dtype", b.getStringAttr(dtypeName(problem.resultElement))),
      named(schema::kTile, b.getI64ArrayAttr(launch.tile))};
  entries.append(launch.pipeline.begin(), launch.pipeline.end());
  NamedAttribute matmul = named(schema::kMatmul, b.getDictionaryAttr(entries));
  KernelSignature withBounds = signature;
  withBounds.addManifestKey(
      "group_rows",
      named(schema::kGroupRows,
            b.getDictionaryAttr(
                {named(schema::kLayout, b.getStringAttr(layout)),
                 named(schema::kRows, b.getI64IntegerAttr(rowsBound))})));
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, problem.aElement, op.getAScaling());
  // FLOPs and bytes as if every row were in a group (the most the kernel
  // does); the run's group sizes decide the real count.
  extra.append(
      {named(schema::kSharedBytes, b.getI64IntegerAttr(launch.sharedBytes)),
       named(schema::kFlops, b.getI64IntegerAttr(2 * m * n * k)), matmul});
  setManifest(b, kernel, withBounds, "fp8.grouped_scaled_matmul",
              launch.gridSize, launch.threads,
              m * k + groups * n * k + scaleBytes + 4 * groups +
                  m * n * resultBytes,
              extra);
}
