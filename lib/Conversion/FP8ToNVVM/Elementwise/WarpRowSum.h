//===- WarpRowSum.h - a warp's walk over one row ----------------*- C++ -*-===//
//
// A warp per row, its lanes taking the row's chunks of 16 elements in
// rounds (chunk 32 r + lane in round r), and the row sum of
// fp8/Dialect/FP8/Utils/RowSum.h in the order docs/Numerics.md fixes: each
// chunk summed from +0.0, each lane adding its chunks' sums from +0.0, then
// an xor butterfly over the lanes. The reduction kernel (a row sum alone:
// buildWarpRowSum) and the fused norm kernel (RowNormQuantizeKernel.cpp:
// chunk sums through shared memory, then foldLaneSums) add through the
// same steps here, so that they add alike.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_ELEMENTWISE_WARPROWSUM_H
#define FP8_LIB_CONVERSION_FP8TONVVM_ELEMENTWISE_WARPROWSUM_H

#include "../Program/KernelBuilder.h"

#include <optional>

namespace mlir::fp8::kernels {

/// Rounds of 32 chunks of 16 a row of `cols` elements takes.
int64_t getRowRounds(int64_t cols);

/// One round of a lane: its chunk (index), whether the chunk lies in the
/// row (i1; null where every round's does), the round where the walk is
/// unrolled (else in an scf.for), and the values carried from the round
/// before; returns the values to carry on.
using RoundBody = function_ref<SmallVector<Value>(Value chunk, Value valid,
                                                  std::optional<int64_t> round,
                                                  ValueRange carried)>;

/// Walks the rounds of a row of `cols` elements for `lane` (index),
/// unrolled up to `maxUnrolled` rounds (then a caller may keep a round's
/// loads in registers), else in an scf.for; `init` is carried into the
/// first round. Returns what the last round carries out. Every lane runs
/// every round (shuffles inside are safe); a chunk past the row is
/// clamped to chunk 0 of it.
SmallVector<Value> walkRow(KernelBuilder &b, Value lane, int64_t cols,
                           int64_t maxUnrolled, ValueRange init,
                           RoundBody body);

/// The f32 terms of elements 16 chunk .. 16 chunk + 15 (those past the
/// row are never added).
using ChunkTerms =
    function_ref<SmallVector<Value>(Value chunk, std::optional<int64_t> round)>;

/// The row sum of the terms of a row of `cols` elements in the row-sum
/// order, in every lane: each chunk's sum from +0.0, the lane's sum from
/// +0.0 of its chunks' sums in order, then lane + lane ^ 16, ^ 8, ..., ^ 1.
Value buildWarpRowSum(KernelBuilder &b, Value lane, int64_t cols,
                      int64_t maxUnrolled, ChunkTerms terms);

/// `partial` plus the sum from +0.0 of chunk `chunk`'s f32 `terms` (those
/// past the end of a row of `cols` skipped), or `partial` itself where
/// `valid` (i1, or null: always) is false.
Value addChunkSum(KernelBuilder &b, Value partial, Value chunk, Value valid,
                  int64_t cols, ArrayRef<Value> terms);

/// The row sum of a row of `cols` elements in every lane from the lane's
/// chunk sums, `chunkSum(round)` being chunk 32 round + lane's (read for
/// every round; not added where the chunk lies past the row): the lane's
/// sums from +0.0 in round order, then the butterfly.
Value foldLaneSums(KernelBuilder &b, Value lane, int64_t cols,
                   function_ref<Value(int64_t round)> chunkSum);

/// The xor butterfly over the 32 lanes' sums: every lane gets their sum
/// added pairwise, halving.
Value butterflySum(KernelBuilder &b, Value sum);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_ELEMENTWISE_WARPROWSUM_H
