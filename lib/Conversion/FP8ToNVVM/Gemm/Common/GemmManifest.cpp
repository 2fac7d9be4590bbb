//===- GemmManifest.cpp - a GEMM kernel's parameters and manifest ---------===//

#include "GemmManifest.h"

#include "../../Program/KernelUtils.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;
namespace schema = mlir::fp8::manifest;

/// Declares a, a_scale, b, b_scale (b as `bShape`, the others as the op
/// stores them, a as `aShape`) and binds them to the op's operands.
template <typename OpT>
static void declareOperands(KernelSignature &signature, OpT op,
                            const GemmProblem &problem,
                            ArrayRef<int64_t> aShape, ArrayRef<int64_t> bShape,
                            Type pointerType) {
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  signature.addBuffer("a", ParamRole::input, problem.aElement, aShape,
                      pointerType);
  signature.addBuffer("a_scale", ParamRole::input, aScaleType.getElementType(),
                      aScaleType.getShape(), pointerType);
  signature.addBuffer("b", ParamRole::input, problem.bElement, bShape,
                      pointerType);
  signature.addBuffer("b_scale", ParamRole::input, bScaleType.getElementType(),
                      bScaleType.getShape(), pointerType);
  signature.bindOperand("a", op.getAMutable());
  signature.bindOperand("a_scale", op.getAScaleMutable());
  signature.bindOperand("b", op.getBMutable());
  signature.bindOperand("b_scale", op.getBScaleMutable());
}

/// Declares c (m x n), bound to the op's result.
static void declareResult(KernelSignature &signature, Operation *op,
                          const GemmProblem &problem, Type pointerType) {
  signature.addBuffer("c", ParamRole::output, problem.resultElement,
                      {problem.m, problem.n}, pointerType);
  signature.bindResult("c", op->getResult(0));
}

KernelSignature gemm::declareGemmBuffers(ScaledMatmulOp op,
                                         const GemmProblem &problem,
                                         Type pointerType) {
  KernelSignature signature;
  declareOperands(signature, op, problem,
                  cast<RankedTensorType>(op.getA().getType()).getShape(),
                  cast<RankedTensorType>(op.getB().getType()).getShape(),
                  pointerType);
  declareResult(signature, op, problem, pointerType);
  return signature;
}

/// The `matmul` entries both scaled GEMMs share, up to `groups` (appended
/// by the caller), then out_dtype, tile and the target's pipeline entries
/// (appended by finishMatmul).
template <typename OpT>
static SmallVector<NamedAttribute>
matmulEntries(OpBuilder &b, OpT op, const GemmProblem &problem,
              ArrayRef<int64_t> contracting, ScaleLayout aLayout,
              ScaleLayout bLayout) {
  auto named = [&](StringRef key, Attribute value) {
    return b.getNamedAttr(key, value);
  };
  return {named(schema::kM, b.getI64IntegerAttr(problem.m)),
          named(schema::kN, b.getI64IntegerAttr(problem.n)),
          named(schema::kK, b.getI64IntegerAttr(problem.k)),
          named(schema::kContracting, b.getI64ArrayAttr(contracting)),
          named(schema::kAccumulate,
                b.getStringAttr(stringifyAccumulate(op.getAccumulate()))),
          named(schema::kAScaling, manifestScaling(b, op.getAScaling())),
          named(schema::kBScaling, manifestScaling(b, op.getBScaling())),
          named(schema::kAScaleLayout,
                b.getStringAttr(stringifyScaleLayout(aLayout))),
          named(schema::kBScaleLayout,
                b.getStringAttr(stringifyScaleLayout(bLayout)))};
}

/// Sets the manifest of a scaled GEMM from its `matmul` entries: the
/// quantization facts, shared memory, FLOPs (every row of C), and the bytes
/// of A, B (`bElements`), the scales, `extraBytes` and C.
template <typename OpT>
static void
finishManifest(OpBuilder &b, gpu::GPUFuncOp kernel, OpT op,
               const GemmProblem &problem, const KernelSignature &signature,
               const GemmLaunch &launch, SmallVector<NamedAttribute> entries,
               int64_t bElements, int64_t extraBytes) {
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
  entries.append({named(schema::kOutDType,
                        b.getStringAttr(dtypeName(problem.resultElement))),
                  named(schema::kTile, b.getI64ArrayAttr(launch.tile))});
  entries.append(launch.pipeline.begin(), launch.pipeline.end());
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, problem.aElement, op.getAScaling());
  extra.append(
      {named(schema::kSharedBytes, b.getI64IntegerAttr(launch.sharedBytes)),
       named(schema::kFlops, b.getI64IntegerAttr(2 * m * n * k)),
       named(schema::kMatmul, b.getDictionaryAttr(entries))});
  // For readers and fp8-run's checks (the launch is the grid as it is: the
  // kernel's .reqnctapercluster forms the clusters).
  if (llvm::any_of(launch.cluster, [](int64_t d) { return d > 1; }))
    extra.push_back(named(schema::kCluster, b.getI64ArrayAttr(launch.cluster)));
  if (launch.pdl)
    extra.push_back(named(schema::kPdl, b.getBoolAttr(true)));
  setManifest(b, kernel, signature, op->getName().getStringRef(),
              launch.gridSize, launch.threads,
              m * k + bElements + scaleBytes + extraBytes + m * n * resultBytes,
              extra);
}

void gemm::setGemmManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                           ScaledMatmulOp op, const GemmProblem &problem,
                           const KernelSignature &signature,
                           const GemmLaunch &launch) {
  finishManifest(b, kernel, op, problem, signature, launch,
                 matmulEntries(b, op, problem, op.getContracting(),
                               op.getAScaleLayout(), op.getBScaleLayout()),
                 problem.n * problem.k, /*extraBytes=*/0);
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
  int64_t inBytes = problem.aElement.getIntOrFloatBitWidth() / 8;
  int64_t resultBytes = problem.resultElement.isBF16() ? 2 : 4;
  auto named = [&](StringRef key, Attribute value) {
    return b.getNamedAttr(key, value);
  };
  // The contracted dim of each operand as stored: 1 K-major, 0 MN-major.
  SmallVector<int64_t> contracting = {problem.aMnMajor ? 0 : 1,
                                      problem.bMnMajor ? 0 : 1};
  SmallVector<NamedAttribute> entries = {
      named(schema::kM, b.getI64IntegerAttr(m)),
      named(schema::kN, b.getI64IntegerAttr(n)),
      named(schema::kK, b.getI64IntegerAttr(k)),
      named(schema::kContracting, b.getI64ArrayAttr(contracting)),
      named(schema::kAccumulate, b.getStringAttr(schema::kAccumulateF32)),
      named(schema::kOutDType,
            b.getStringAttr(dtypeName(problem.resultElement))),
      named(schema::kTile, b.getI64ArrayAttr(launch.tile))};
  entries.append(launch.pipeline.begin(), launch.pipeline.end());
  SmallVector<NamedAttribute> extra = {
      named(schema::kSharedBytes, b.getI64IntegerAttr(launch.sharedBytes)),
      named(schema::kFlops, b.getI64IntegerAttr(2 * m * n * k)),
      named(schema::kMatmul, b.getDictionaryAttr(entries))};
  if (launch.pdl)
    extra.push_back(named(schema::kPdl, b.getBoolAttr(true)));
  setManifest(b, kernel, signature, op->getName().getStringRef(),
              launch.gridSize, launch.threads,
              (m * k + n * k) * inBytes + m * n * resultBytes, extra);
}

KernelSignature gemm::declareGroupedGemmBuffers(GroupedScaledMatmulOp op,
                                                const GemmProblem &problem,
                                                Type pointerType) {
  // The matrices as the kernel reads them (their tensor maps are 2-D).
  int64_t groups = problem.groups.count;
  KernelSignature signature;
  declareOperands(signature, op, problem, {problem.m, problem.k},
                  {groups * problem.n, problem.k}, pointerType);
  signature.addBuffer("group_rows", ParamRole::input,
                      IntegerType::get(op.getContext(), 32), {groups},
                      pointerType);
  signature.bindOperand("group_rows", op.getGroupRowsMutable());
  declareResult(signature, op, problem, pointerType);
  return signature;
}

void gemm::setGroupedGemmManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                                  GroupedScaledMatmulOp op,
                                  const GemmProblem &problem,
                                  const KernelSignature &signature,
                                  const GemmLaunch &launch) {
  int64_t groups = problem.groups.count;
  auto named = [&](StringRef key, Attribute value) {
    return b.getNamedAttr(key, value);
  };
  StringRef layout =
      problem.groups.masked ? schema::kLayoutMasked : schema::kLayoutContiguous;
  SmallVector<NamedAttribute> entries = matmulEntries(
      b, op, problem, {1, 1}, op.getAScaleLayout(), ScaleLayout::row_major);
  entries.push_back(
      named(schema::kGroups,
            b.getDictionaryAttr(
                {named(schema::kCount, b.getI64IntegerAttr(groups)),
                 named(schema::kLayout, b.getStringAttr(layout)),
                 named(schema::kCapacity,
                       b.getI64IntegerAttr(problem.groups.capacity))})));
  // Each group's rows are bounded by all of M (contiguous) or by its
  // capacity (masked).
  int64_t rowsBound =
      problem.groups.masked ? problem.groups.capacity : problem.m;
  KernelSignature withBounds = signature;
  withBounds.addManifestKey(
      "group_rows",
      named(schema::kGroupRows,
            b.getDictionaryAttr(
                {named(schema::kLayout, b.getStringAttr(layout)),
                 named(schema::kRows, b.getI64IntegerAttr(rowsBound))})));
  // FLOPs and bytes as if every row were in a group (the most the kernel
  // does); the run's group sizes decide the real count.
  finishManifest(b, kernel, op, problem, withBounds, launch, std::move(entries),
                 groups * problem.n * problem.k, 4 * groups);
}
