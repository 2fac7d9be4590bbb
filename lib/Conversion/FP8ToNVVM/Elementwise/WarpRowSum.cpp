//===- WarpRowSum.cpp - a warp's walk over one row ------------------------===//
//
// The rounds of a warp over its row and the row sum in the row-sum order
// (WarpRowSum.h, docs/Numerics.md).
//
//===----------------------------------------------------------------------===//

#include "WarpRowSum.h"

#include "../Program/KernelUtils.h"
#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

int64_t kernels::getRowRounds(int64_t cols) {
  return llvm::divideCeil(cols, kRowSumLanes * kRowSumChunk);
}

SmallVector<Value> kernels::walkRow(KernelBuilder &b, Value lane, int64_t cols,
                                    int64_t maxUnrolled, ValueRange init,
                                    RoundBody body) {
  int64_t chunks = llvm::divideCeil(cols, kRowSumChunk);
  int64_t rounds = getRowRounds(cols);
  auto chunkOf = [&](Value round) -> std::pair<Value, Value> {
    Value chunk = b.add(b.mul(round, kRowSumLanes), lane);
    if (chunks % kRowSumLanes == 0)
      return {chunk, Value()};
    Value valid = b.ult(chunk, chunks);
    return {arith::SelectOp::create(b, valid, chunk, b.index(0)), valid};
  };
  SmallVector<Value> carried(init);
  if (rounds <= maxUnrolled) {
    for (int64_t round = 0; round < rounds; ++round) {
      auto [chunk, valid] = chunkOf(b.index(round));
      carried = body(chunk, valid, round, carried);
    }
    return carried;
  }
  auto loop =
      scf::ForOp::create(b, b.index(0), b.index(rounds), b.index(1), carried);
  OpBuilder::InsertionGuard guard(b);
  // The builder ends a loop without carried values with its yield; the
  // body makes its own.
  Block *loopBody = loop.getBody();
  if (!loopBody->empty())
    loopBody->back().erase();
  b.setInsertionPointToEnd(loopBody);
  auto [chunk, valid] = chunkOf(loop.getInductionVar());
  scf::YieldOp::create(
      b, body(chunk, valid, std::nullopt, loop.getRegionIterArgs()));
  return loop.getResults();
}

Value kernels::buildWarpRowSum(KernelBuilder &b, Value lane, int64_t cols,
                               int64_t maxUnrolled, ChunkTerms terms) {
  Value zero = b.f32(0.0);
  Value sum =
      walkRow(b, lane, cols, maxUnrolled, ValueRange{zero},
              [&](Value chunk, Value valid, std::optional<int64_t> round,
                  ValueRange carried) -> SmallVector<Value> {
                return {addChunkSum(b, carried[0], chunk, valid, cols,
                                    terms(chunk, round))};
              })
          .front();
  return butterflySum(b, sum);
}

/// A lane's step: `partial` plus a chunk's sum, or `partial` where `valid`
/// (i1, or null: always) is false (a chunk past the row adds nothing).
static Value addToLaneSum(KernelBuilder &b, Value partial, Value chunkSum,
                          Value valid) {
  Value next = arith::AddFOp::create(b, partial, chunkSum);
  return valid ? arith::SelectOp::create(b, valid, next, partial).getResult()
               : next;
}

Value kernels::addChunkSum(KernelBuilder &b, Value partial, Value chunk,
                           Value valid, int64_t cols, ArrayRef<Value> terms) {
  // The chunk's own sum from +0.0; an element past the end of a partial
  // last chunk adds nothing.
  Value sum = b.f32(0.0);
  Value first = b.mul(chunk, kRowSumChunk);
  for (auto [r, term] : llvm::enumerate(terms)) {
    Value next = arith::AddFOp::create(b, sum, term);
    sum = cols % kRowSumChunk == 0
              ? next
              : arith::SelectOp::create(
                    b, b.ult(b.add(first, int64_t(r)), cols), next, sum)
                    .getResult();
  }
  return addToLaneSum(b, partial, sum, valid);
}

Value kernels::foldLaneSums(KernelBuilder &b, Value lane, int64_t cols,
                            function_ref<Value(int64_t round)> chunkSum) {
  int64_t chunks = llvm::divideCeil(cols, kRowSumChunk);
  Value sum = b.f32(0.0);
  for (int64_t round = 0, e = getRowRounds(cols); round < e; ++round) {
    // The last round's lanes past the row hold no chunk.
    Value valid = (round + 1) * kRowSumLanes <= chunks
                      ? Value()
                      : b.ult(b.add(lane, round * kRowSumLanes), chunks);
    sum = addToLaneSum(b, sum, chunkSum(round), valid);
  }
  return butterflySum(b, sum);
}

Value kernels::butterflySum(KernelBuilder &b, Value sum) {
  // The xor butterfly: every lane ends with the same sum (addition
  // commutes), the lanes' sums added pairwise, halving.
  for (int64_t stride = kRowSumLanes / 2; stride >= 1; stride /= 2)
    sum = arith::AddFOp::create(
        b, sum,
        gpu::ShuffleOp::create(b, sum, stride, kWarpSize, gpu::ShuffleMode::XOR)
            .getShuffleResult());
  return sum;
}
