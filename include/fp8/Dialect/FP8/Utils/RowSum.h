//===- RowSum.h - the row sums of norms and their order ---------*- C++ -*-===//
//
// A row sum is a linalg.generic that adds one f32 term per element of each
// row of a matrix (RMSNorm's sum of squares, LayerNorm's sum and sum of
// squared deviations). Its f32 additions are done in one fixed order that
// a warp computes at copy speed (docs/Numerics.md, "Row sums"): the CPU
// reference, the reduction kernel and the fused norm-quantize kernel all
// use it, so that fusing a norm into its quantization changes no bit.
// Header-only: the pass, the reference and the kernels include it.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_UTILS_ROWSUM_H
#define FP8_DIALECT_FP8_UTILS_ROWSUM_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"

#include <utility>

namespace mlir::fp8 {

/// The order: each chunk of kRowSumChunk consecutive elements is summed
/// from +0.0 in order; lane l of kRowSumLanes adds, from +0.0, the sums of
/// chunks l, l + 32, l + 64, ... in order (one per round); then the lanes'
/// sums are added pairwise, halving (lane l and l + 16 first, then l + 8,
/// ... as a warp's xor butterfly does). Chunk sums first, so that the
/// warps of a CTA may share a row's rounds.
inline constexpr int64_t kRowSumLanes = 32;
inline constexpr int64_t kRowSumChunk = 16;

/// The fused norm kernel's layout (RowNormQuantizeKernel.cpp) on rows of
/// `cols` elements with `numSums` row sums: W warps per row, a power of
/// two up to 8 so that a warp takes kRoundsPerWarp rounds where the row
/// has them, 8 / W rows per CTA of 256 threads; and its static shared
/// memory, each sum's chunk sums ([row in CTA][round][lane]) and the 8
/// warps' amax, which must fit in 48 KiB. The kernel and
/// fp8-fuse-quantization (which fuses a norm only where it fits) share it.
struct RowNormLayout {
  static constexpr int64_t kWarpsPerBlock = 8;
  static constexpr int64_t kRoundsPerWarp = 2;
  static constexpr int64_t kMaxSharedBytes = 48 * 1024;

  RowNormLayout(int64_t cols, int64_t numSums)
      : numSums(numSums),
        rounds(llvm::divideCeil(cols, kRowSumLanes * kRowSumChunk)) {
    while (warpsPerRow < kWarpsPerBlock &&
           warpsPerRow * kRoundsPerWarp < rounds)
      warpsPerRow *= 2;
    rowsPerBlock = kWarpsPerBlock / warpsPerRow;
  }
  /// The f32 slots of one sum's chunk sums in a CTA.
  int64_t chunkSumSlots() const { return rowsPerBlock * rounds * kRowSumLanes; }
  int64_t sharedBytes() const {
    return (numSums * chunkSumSlots() + kWarpsPerBlock) * 4;
  }
  bool fitsSharedMemory() const { return sharedBytes() <= kMaxSharedBytes; }

  int64_t numSums, rounds, warpsPerRow = 1, rowsPerBlock;
};

/// The `arith.addf %acc, %term` (either order) that ends the body of
/// reduction `op` and the term's operand number in it, where the body's
/// accumulator is read there only and the addition by the yield only (the
/// term is then the body without the addition); a null op otherwise.
inline std::pair<arith::AddFOp, unsigned> getRowSumStep(linalg::GenericOp op) {
  Block *body = op.getBlock();
  if (op.getNumDpsInits() != 1 || body->getNumArguments() == 0)
    return {};
  BlockArgument acc = body->getArguments().back();
  auto add =
      body->getTerminator()->getOperand(0).getDefiningOp<arith::AddFOp>();
  if (!add || add->getBlock() != body || !acc.hasOneUse() || !add->hasOneUse())
    return {};
  if (add.getLhs() == acc)
    return {add, 1};
  if (add.getRhs() == acc)
    return {add, 0};
  return {};
}

/// The term of row sum `op` (getRowSumStep) built at `b`'s insertion
/// point: the body cloned but its last addition, its input arguments
/// read through `mapping`. A value from outside the body (a constant) is
/// read as it is, or as `outside` makes it where the clone is isolated
/// from above (a kernel, a fused op).
inline Value buildRowSumTerm(OpBuilder &b, linalg::GenericOp op,
                             IRMapping &mapping,
                             function_ref<Value(Value)> outside = nullptr) {
  auto [add, termOperand] = getRowSumStep(op);
  Block *body = op.getBlock();
  auto take = [&](Value value) {
    if (outside && value.getParentBlock() != body && !mapping.contains(value))
      mapping.map(value, outside(value));
  };
  for (Operation &inner : body->without_terminator()) {
    if (&inner == add.getOperation())
      continue;
    for (Value operand : inner.getOperands())
      take(operand);
    b.clone(inner, mapping);
  }
  Value term = add->getOperand(termOperand);
  take(term);
  return mapping.lookupOrDefault(term);
}

/// Whether `op` is a row sum: static loops [parallel, reduction] over a
/// matrix, one f32 vector result indexed by the rows ((i, j) -> (i)),
/// inputs read through projected permutations of (i, j) (a transposed
/// read too: the order depends on (i, j), not on the memory layout), and
/// a body that ends in getRowSumStep.
inline bool isRowSum(linalg::GenericOp op) {
  if (!op.hasPureTensorSemantics() || op.getNumResults() != 1 ||
      op.getNumLoops() != 2 ||
      op.getIteratorTypesArray() !=
          ArrayRef<utils::IteratorType>{utils::IteratorType::parallel,
                                        utils::IteratorType::reduction})
    return false;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  MLIRContext *context = op.getContext();
  AffineMap rows = AffineMap::get(2, 0, getAffineDimExpr(0, context));
  if (!type || !type.hasStaticShape() || type.getRank() != 1 ||
      !type.getElementType().isF32() ||
      op.getMatchingIndexingMap(op.getDpsInitOperand(0)) != rows ||
      !getRowSumStep(op).first)
    return false;
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  if (llvm::any_of(loops, ShapedType::isDynamic))
    return false;
  return llvm::all_of(op.getDpsInputOperands(), [&](OpOperand *input) {
    auto inputType = dyn_cast<RankedTensorType>(input->get().getType());
    AffineMap map = op.getMatchingIndexingMap(input);
    return inputType && inputType.hasStaticShape() &&
           map.isProjectedPermutation(/*allowZeroInResults=*/false);
  });
}

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_ROWSUM_H
