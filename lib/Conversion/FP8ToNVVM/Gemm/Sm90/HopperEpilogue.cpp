//===- HopperEpilogue.cpp - storing the tile of C -------------------------===//
//
// Each consumer writes its 64 rows of C in 128-byte-wide column chunks into
// its one or two 128-byte-swizzled buffers in turn (conflict-free from the
// accumulator layout), fences the async proxy, and one thread stores the
// chunk with TMA, which clips rows and columns past the matrix; or, without
// TMA stores, each thread stores its pairs of columns itself, as does a
// grouped GEMM's consumer whose rows pass its group's end. A split tile's
// consumers first add their sums in the (then idle) stage buffers.
//
//===----------------------------------------------------------------------===//

#include "HopperEpilogue.h"

#include "../Common/GroupedTileScheduler.h"
#include "../Common/ScaledTerm.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

void HopperEpilogue::store(ArrayRef<Value> sums, const ThreadFragment &fragment,
                           TileCoord tile) {
  FragmentScales epilogueScales = scales.loadEpilogueScales(fragment, tile);
  bool bf16 = problem.resultElement.isBF16();
  Type elementType = bf16 ? Type(b.getBF16Type()) : Type(b.getF32Type());
  auto pairType = VectorType::get({2}, elementType);
  // Elements 4j + 2 half + {0, 1}: row `half` of the thread's pair, columns
  // 8j + laneCol + {0, 1}, with the epilogue's scales (A's by row, B's by
  // column) applied as the reference applies them (ScaledTerm.h) and
  // rounded to the output type.
  auto pairAt = [&](int64_t j, int64_t half) {
    SmallVector<Value> pair;
    for (int64_t e = 0; e < 2; ++e) {
      int64_t element = 4 * j + 2 * half + e;
      Value value =
          scaledTerm(b, sums[element],
                     epilogueScales.aScale(ThreadFragment::rowHalf(element)),
                     epilogueScales.bScale(ThreadFragment::columnPair(element),
                                           element % 2));
      if (bf16)
        value = arith::TruncFOp::create(b, b.getBF16Type(), value);
      pair.push_back(value);
    }
    return vector::FromElementsOp::create(b, pairType, pair).getResult();
  };
  if (!config.tmaStore)
    return storeDirect(pairAt, fragment, tile.rowEnd);
  if (!tile.rowEnd)
    return storeThroughShared(pairAt, fragment, tile);
  // A grouped GEMM's consumer whose 64 rows all lie in the tile's group
  // stores them by TMA; one whose rows pass the group's end (only in a
  // group's last row tile) stores each row below it itself, since the TMA
  // box would write the next group's rows. The test is the same in every
  // lane of the consumer, as its epilogue barrier needs.
  Value consumerEnd =
      b.add(tile.row, b.mul(b.add(fragment.rowGroup, 1), kConsumerRows));
  auto inside = scf::IfOp::create(
      b, b.cmp(arith::CmpIPredicate::ule, consumerEnd, tile.rowEnd),
      /*withElseRegion=*/true);
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  storeThroughShared(pairAt, fragment, tile);
  b.setInsertionPointToStart(&inside.getElseRegion().front());
  storeDirect(pairAt, fragment, tile.rowEnd);
  b.setInsertionPointAfter(inside);
}

void HopperEpilogue::storeDirect(PairFn pairAt, const ThreadFragment &fragment,
                                 Value rowEnd) {
  // A grouped GEMM's tile ends at its group's last row.
  if (!rowEnd)
    rowEnd = b.i32(problem.m);
  bool bf16 = problem.resultElement.isBF16();
  Type elementType = bf16 ? Type(b.getBF16Type()) : Type(b.getF32Type());
  Value cGlobal = b.castTo(NVVM::NVVMMemorySpace::Global, args.c);
  for (int64_t half = 0; half < 2; ++half) {
    Value row = half ? fragment.row1 : fragment.row0;
    auto rowInside = scf::IfOp::create(b, b.ult(row, rowEnd));
    b.setInsertionPointToStart(&rowInside.getThenRegion().front());
    Value rowOffset = b.mul(b.extUI64(row), problem.n);
    for (int64_t j = 0; j < config.tileN / 8; ++j) {
      Value col = b.add(fragment.laneCol, 8 * j);
      Value packed = pairAt(j, half);
      // N is even, so a pair is inside the matrix when its first column is.
      auto colInside = scf::IfOp::create(b, b.ult(col, problem.n));
      b.setInsertionPointToStart(&colInside.getThenRegion().front());
      Value offset = b.add(rowOffset, b.extUI64(col));
      Value ptr =
          b.gep(NVVM::NVVMMemorySpace::Global, elementType, cGlobal, offset);
      LLVM::StoreOp::create(b, packed, ptr, bf16 ? 4 : 8);
      b.setInsertionPointAfter(colInside);
    }
    b.setInsertionPointAfter(rowInside);
  }
}

/// Each consumer stages its 64 rows of C in 128-byte-wide column chunks
/// (64 bf16 or 32 f32 columns) in a 128-byte-swizzled buffer (conflict-free
/// writes from the accumulator layout), and one of its threads stores the
/// chunk with TMA, which clips rows and columns past the matrix. With two
/// buffers per consumer (HopperGemmConfig::epilogueBuffers) the chunks
/// alternate, so a chunk is written while TMA still reads the one before; a
/// buffer is rewritten once the store that last used it has read it.
void HopperEpilogue::storeThroughShared(PairFn pairAt,
                                        const ThreadFragment &fragment,
                                        TileCoord tile) {
  int64_t outBytes = problem.resultElement.isBF16() ? 2 : 4;
  int64_t chunkCols = kSwizzleBytes / outBytes;
  Value local = b.remU(thread, kWarpgroup);
  Value leader = b.eq(local, 0);
  Value barrierId = b.add(fragment.consumer, kFirstEpilogueBarrier);
  auto consumerBarrier = [&] {
    NVVM::BarrierOp::create(b, Type(), barrierId, b.i32(kWarpgroup), nullptr,
                            Value());
  };
  int64_t buffers = config.epilogueBuffers;
  Value consumerBuffers =
      b.add(b.i32(config.epilogueOffset()),
            b.mul(fragment.consumer,
                  buffers * HopperGemmConfig::kEpilogueBufferBytes));
  Value rowInGroup = b.remU(fragment.rowInTile, kConsumerRows);
  for (int64_t chunk = 0; chunk < config.tileN / chunkCols; ++chunk) {
    Value buffer =
        b.add(consumerBuffers,
              (chunk % buffers) * HopperGemmConfig::kEpilogueBufferBytes);
    // The store that last used the buffer has read it: the previous one
    // with one buffer; with two, all but the latest, which used the other
    // buffer, but at a tile's first chunk (the last tile's last chunk may
    // have used this one).
    int64_t pending = buffers == 2 && chunk > 0 ? 1 : 0;
    auto wait = scf::IfOp::create(b, leader);
    b.setInsertionPointToStart(&wait.getThenRegion().front());
    NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(pending),
                                         b.getUnitAttr());
    b.setInsertionPointAfter(wait);
    consumerBarrier();
    for (int64_t jj = 0; jj < chunkCols / 8; ++jj) {
      int64_t j = chunk * chunkCols / 8 + jj;
      for (int64_t half = 0; half < 2; ++half) {
        Value row = b.add(rowInGroup, 8 * half);
        Value colByte =
            b.mul(b.add(b.i32(8 * jj), fragment.colInTile), outBytes);
        // 128-byte swizzle: the 16-byte chunk index XOR the row (mod 8).
        // (Each operand is named so that the ops keep the order the PTX
        // was measured with.)
        Value rowPhase = b.remU(row, 8);
        Value swizzled = b.xorI(b.shrU(colByte, 4), rowPhase);
        Value byteInChunk = b.remU(colByte, 16);
        Value inRow = b.add(b.shl(swizzled, 4), byteInChunk);
        Value rowStart = b.add(buffer, b.mul(row, kSwizzleBytes));
        Value address = smem.ptr(b, b.add(rowStart, inRow));
        LLVM::StoreOp::create(b, pairAt(j, half), address, 2 * outBytes);
      }
    }
    // Generic-proxy writes become visible to the TMA (async proxy).
    NVVM::FenceProxyOp::create(
        b, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(b.getContext(),
                                   NVVM::SharedSpace::shared_cta));
    consumerBarrier();
    auto store = scf::IfOp::create(b, leader);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    Value colCoord = b.add(tile.col, chunk * chunkCols);
    Value rowCoord = b.add(tile.row, b.mul(fragment.rowGroup, kConsumerRows));
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, args.cMap, smem.ptr(b, buffer), ValueRange{colCoord, rowCoord},
        Value(), NVVM::TMAStoreMode::TILE, Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(b);
    b.setInsertionPointAfter(store);
  }
}

void HopperEpilogue::storeSplit(ArrayRef<Value> sums,
                                const ThreadFragment &fragment,
                                TileCoord tile) {
  int64_t numValues = sums.size();
  Value consumer = fragment.consumer;
  auto allConsumers = [&] {
    NVVM::BarrierOp::create(b, Type(), b.i32(kSplitBarrier),
                            b.i32(config.consumers * kWarpgroup), nullptr,
                            Value());
  };
  // Value i of consumer w's thread t at word ((w - 1) * values + i) * 128 + t
  // of the stage buffers: consecutive threads, consecutive banks. Once all
  // consumers have passed the barrier, no MMA reads them any more, and no
  // load writes them: each was waited for, and the sub-tile is this CTA's
  // last task.
  Value local = b.remU(thread, kWarpgroup);
  auto slot = [&](Value owner, int64_t i) {
    Value word = b.add(
        b.mul(b.add(b.mul(b.sub(owner, 1), numValues), i), kWarpgroup), local);
    return smem.ptr(b, b.mul(word, 4));
  };
  allConsumers();
  auto others = scf::IfOp::create(b, b.ne(consumer, 0));
  b.setInsertionPointToStart(&others.getThenRegion().front());
  for (int64_t i = 0; i < numValues; ++i)
    LLVM::StoreOp::create(b, sums[i], slot(consumer, i), 4);
  b.setInsertionPointAfter(others);
  allConsumers();
  // Consumer 0 adds the others' sums in consumer order and stores the tile.
  auto first = scf::IfOp::create(b, b.eq(consumer, 0));
  b.setInsertionPointToStart(&first.getThenRegion().front());
  SmallVector<Value> total(sums);
  for (int64_t w = 1; w < config.consumers; ++w)
    for (int64_t i = 0; i < numValues; ++i)
      total[i] = arith::AddFOp::create(
          b, total[i],
          LLVM::LoadOp::create(b, b.getF32Type(), slot(b.i32(w), i), 4));
  store(total, fragment, tile);
  b.setInsertionPointAfter(first);
}

void HopperEpilogue::zeroRowsOutsideGroups() {
  // 16-byte stores of zeros: N is a multiple of 8, so a row of bf16 or f32
  // is a whole number of them.
  int64_t perStore = 16 / (problem.resultElement.isBF16() ? 2 : 4);
  int64_t storesPerRow = problem.n / perStore;
  int64_t consumerThreads = config.consumers * kWarpgroup;
  Value cGlobal = b.castTo(NVVM::NVVMMemorySpace::Global, args.c);
  Value zeros = LLVM::ZeroOp::create(b, VectorType::get({4}, b.getI32Type()));
  Value cta = b.toI32(gpu::BlockIdOp::create(b, gpu::Dimension::x));
  Value grid = b.toI32(gpu::GridDimOp::create(b, gpu::Dimension::x));
  // Stores i = first, first + step, ... of rows [lo, hi), all CTAs' consumer
  // threads side by side (64-bit: rows x stores can pass 2^31).
  Value first =
      b.extUI64(b.add(b.mul(cta, consumerThreads), b.sub(thread, kWarpgroup)));
  Value step = b.extUI64(b.mul(grid, consumerThreads));
  auto zeroRows = [&](Value lo, Value hi) {
    Value count = b.mul(b.extUI64(b.sub(hi, lo)), storesPerRow);
    auto loop = scf::ForOp::create(b, first, count, step);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value row = b.add(b.extUI64(lo), b.divU(i, storesPerRow));
    Value column = b.mul(b.remU(i, storesPerRow), perStore);
    Value offset = b.add(b.mul(row, problem.n), column);
    Value ptr = b.gep(NVVM::NVVMMemorySpace::Global, problem.resultElement,
                      cGlobal, offset);
    LLVM::StoreOp::create(b, zeros, ptr, 16);
    b.setInsertionPointAfter(loop);
  };
  if (!problem.groups.masked) {
    Value last = b.i32(problem.groups.count - 1);
    Value end = loadGroupBounds(b, problem, args.groupRows, last).second;
    zeroRows(end, b.i32(problem.m));
    return;
  }
  auto groups =
      scf::ForOp::create(b, b.i32(0), b.i32(problem.groups.count), b.i32(1));
  b.setInsertionPointToStart(groups.getBody());
  Value group = groups.getInductionVar();
  Value end = loadGroupBounds(b, problem, args.groupRows, group).second;
  Value capacityEnd = b.mul(b.add(group, 1), problem.groups.capacity);
  zeroRows(end, capacityEnd);
  b.setInsertionPointAfter(groups);
}

void HopperEpilogue::buildFinish() {
  if (!config.tmaStore)
    return;
  auto last = scf::IfOp::create(b, b.eq(b.remU(thread, kWarpgroup), 0));
  b.setInsertionPointToStart(&last.getThenRegion().front());
  NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(0), nullptr);
  b.setInsertionPointAfter(last);
}
