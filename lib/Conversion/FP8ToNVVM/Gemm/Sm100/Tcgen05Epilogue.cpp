//===- Tcgen05Epilogue.cpp - the sm_100a GEMM's epilogue warps ------------===//
//
// tcgen05.ld is warp-collective (.sync.aligned): every lane loads, rows
// past M included, and only the stores are masked. A 32x32b load gives
// lane l of the warp row 32 q + l of the accumulator, where q = warp % 4
// is the only lane quarter the warp may access. Each thread waits for its
// loads (tcgen05.wait::ld) and fences them before its arrival frees the
// accumulator: the barrier counts every epilogue thread.
//
// C leaves through TMA where each warp's columns are whole 128-byte
// segments: the warp's 32 rows x 128 bytes are staged with the 128-byte
// swizzle (16-byte chunk j of row r at chunk j ^ (r % 8): a quarter-warp's
// eight rows write eight distinct bank groups), every lane fences its
// writes for the async proxy, the warp syncs, and lane 0 issues the store
// and commits it; before rewriting the buffer lane 0 waits until the last
// store has read it.
//
// In a CTA pair each CTA's epilogue reads its own tensor memory (its 128
// rows of the pair's 256 x N tile: the caller passes the tile with its
// rows) and arrives on the leader's accumulator-empty barrier.
//
// Numerics (docs/Numerics.md): promoted, C += fl32(sa * sb) * P per
// 128-deep K-block, an FMA as on sm_90a; scales constant along K multiply
// the tile's sum once, as fl32(sa * sb) * sum. MXFP8's scales are applied
// by the MMA itself.
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Epilogue.h"

#include "../../Program/KernelUtils.h"
#include "../Common/LoopHints.h"
#include "../Common/ScaleLoads.h"
#include "../Common/ScaledTerm.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

static constexpr int64_t kLoad = Tcgen05GemmConfig::kEpilogueLoadColumns;

EpilogueThread Tcgen05Epilogue::buildThread(Value thread) {
  Value warp = b.divU(thread, kWarpSize);
  Value quarter = b.remU(warp, 4);
  Value lane = b.remU(thread, kWarpSize);
  Value epilogueWarp = b.sub(warp, Tcgen05GemmConfig::kFirstEpilogueWarp);
  Value group = b.divU(epilogueWarp, 4);
  return {quarter, b.add(b.mul(quarter, 32), lane),
          b.mul(group, config.groupColumns()), lane, epilogueWarp};
}

Value Tcgen05Epilogue::acquire(Value tmemBase, const EpilogueThread &thread,
                               Value counter) {
  RingSlot acc = pipeline.accumulator(counter);
  pipeline.wait(pipeline.accFullBarrier(acc.slot), acc.parity);
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  // Lane (32 q) in bits 16-31, the accumulator's first column in 0-15.
  Value lane = b.shl(b.mul(thread.quarter, 32), 16);
  Value column = b.add(b.mul(acc.slot, config.tileN), thread.colInTile);
  return b.add(b.add(tmemBase, lane), column);
}

void Tcgen05Epilogue::release(Value counter) {
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  RingSlot acc = pipeline.accumulator(counter);
  Value barrier = pipeline.accEmptyBarrier(acc.slot);
  if (!config.pair()) {
    NVVM::MBarrierArriveOp::create(b, Type(), barrier, Value());
    return;
  }
  // A pair's accumulator ring lives in the leader, whose MMA thread waits
  // for both CTAs' epilogues: a remote arrival, released cluster-wide.
  pipeline.arriveOnLeader(barrier);
}

SmallVector<Value> Tcgen05Epilogue::loadColumns(Value address, int64_t column,
                                                int64_t count) {
  Value pointer = LLVM::IntToPtrOp::create(
      b, b.ptrType(NVVM::NVVMMemorySpace::Tensor), b.add(address, column));
  auto type = VectorType::get({count}, b.getI32Type());
  Value loaded = NVVM::Tcgen05LdOp::create(b, type, /*pack=*/false,
                                           NVVM::Tcgen05LdStShape::SHAPE_32X32B,
                                           pointer, Value());
  NVVM::Tcgen05WaitOp::create(b, NVVM::Tcgen05WaitKind::LOAD);
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; ++i)
    values.push_back(b.bitcast(
        b.getF32Type(), vector::ExtractOp::create(b, loaded, i).getResult()));
  return values;
}

SmallVector<Value> Tcgen05Epilogue::bScales(Value col, Value k) {
  const OperandScaling &scaling = problem.bScaling;
  // Constant over the tile: spanning N, or blocks the tile never straddles.
  if (scaling.spansRows() || scaling.rowBlock % config.tileN == 0)
    return {loadOperandScale(b, args.bScale, scaling, col, k, problem.n)};
  SmallVector<Value> scales;
  // One f32 per column, contiguous along N (a transposed per-column scale
  // matrix) and never past its row (whole tiles along N): 16-byte loads.
  if (scaling.rowBlock == 1 && scaling.transposed && !scaling.e8m0 &&
      problem.n % config.tileN == 0) {
    Value first = b.add(b.mul(b.divU(k, scaling.kBlock), scaling.stride), col);
    auto quad = VectorType::get({4}, b.getF32Type());
    for (int64_t i = 0; i < kLoad; i += 4) {
      Value ptr = b.gep(NVVM::NVVMMemorySpace::Global, b.getF32Type(),
                        args.bScale, b.add(first, i));
      Value loaded = LLVM::LoadOp::create(b, quad, ptr, 16, false, false,
                                          /*isInvariant=*/true);
      for (int64_t e = 0; e < 4; ++e)
        scales.push_back(vector::ExtractOp::create(b, loaded, e));
    }
    return scales;
  }
  for (int64_t i = 0; i < kLoad; ++i)
    scales.push_back(
        loadOperandScale(b, args.bScale, scaling, b.add(col, i), k, problem.n));
  return scales;
}

void Tcgen05Epilogue::storeColumns(Value rowOffset, Value col,
                                   ArrayRef<Value> values) {
  bool bf16 = problem.resultElement.isBF16();
  Type elementType = bf16 ? Type(b.getBF16Type()) : Type(b.getF32Type());
  // 16-byte stores: 8 bf16 or 4 f32 columns. N is a multiple of 8, so a
  // group is inside the matrix when its first column is.
  int64_t width = bf16 ? 8 : 4;
  Value cGlobal = b.castTo(NVVM::NVVMMemorySpace::Global, args.c);
  auto vectorType = VectorType::get({width}, elementType);
  for (int64_t g = 0; g < kLoad / width; ++g) {
    SmallVector<Value> group;
    for (int64_t e = 0; e < width; ++e) {
      Value value = values[g * width + e];
      group.push_back(
          bf16 ? arith::TruncFOp::create(b, b.getBF16Type(), value).getResult()
               : value);
    }
    Value packed = vector::FromElementsOp::create(b, vectorType, group);
    Value groupCol = b.add(col, g * width);
    auto inside = scf::IfOp::create(b, b.ult(groupCol, problem.n));
    b.setInsertionPointToStart(&inside.getThenRegion().front());
    Value offset = b.add(rowOffset, b.extUI64(groupCol));
    Value ptr =
        b.gep(NVVM::NVVMMemorySpace::Global, elementType, cGlobal, offset);
    LLVM::StoreOp::create(b, packed, ptr, 16);
    b.setInsertionPointAfter(inside);
  }
}

void Tcgen05Epilogue::waitForStaging() {
  // The warp's previous store has read the buffer. Every lane waits: only
  // lane 0 has bulk groups, the others return at once.
  NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(0),
                                       b.getUnitAttr());
  NVVM::SyncWarpOp::create(b, b.i32(-1));
}

SmallVector<Value> Tcgen05Epilogue::packChunks(ArrayRef<Value> values) {
  bool bf16 = problem.resultElement.isBF16();
  int64_t perChunk = 16 / config.resultBytes;
  Type element = bf16 ? Type(b.getBF16Type()) : Type(b.getF32Type());
  auto chunkType = VectorType::get({perChunk}, element);
  SmallVector<Value> chunks;
  for (int64_t first = 0; first < static_cast<int64_t>(values.size());
       first += perChunk) {
    SmallVector<Value> group;
    for (Value value : values.slice(first, perChunk))
      group.push_back(
          bf16 ? arith::TruncFOp::create(b, b.getBF16Type(), value).getResult()
               : value);
    chunks.push_back(vector::FromElementsOp::create(b, chunkType, group));
  }
  return chunks;
}

void Tcgen05Epilogue::storeSegment(const EpilogueThread &thread, TileCoord tile,
                                   int64_t column, ArrayRef<Value> chunks,
                                   bool waitFirst) {
  constexpr int64_t kRowBytes = Tcgen05GemmConfig::kStagingRowBytes;
  assert(static_cast<int64_t>(chunks.size()) == kRowBytes / 16 &&
         "one 128-byte segment of the row, in 16-byte chunks");
  Value lane = thread.lane;
  Value leader = b.eq(lane, 0);
  Value buffer = b.add(
      b.i32(config.stagingOffset()),
      b.mul(thread.epilogueWarp, Tcgen05GemmConfig::kStagingBytesPerWarp));
  if (waitFirst)
    waitForStaging();
  // The row's eight 16-byte chunks, swizzled: chunk j at j ^ (row % 8).
  Value rowStart = b.add(buffer, b.mul(lane, kRowBytes));
  Value phase = b.remU(lane, 8);
  for (int64_t chunk = 0; chunk < kRowBytes / 16; ++chunk) {
    Value at = b.add(rowStart, b.shl(b.xorI(phase, chunk), 4));
    LLVM::StoreOp::create(b, chunks[chunk], pipeline.sharedPtr(at), 16);
  }
  // Generic-proxy writes become visible to the TMA (async proxy).
  NVVM::FenceProxyOp::create(
      b, NVVM::ProxyKind::async_shared,
      NVVM::SharedSpaceAttr::get(b.getContext(),
                                 NVVM::SharedSpace::shared_cta));
  NVVM::SyncWarpOp::create(b, b.i32(-1));
  auto store = scf::IfOp::create(b, leader);
  b.setInsertionPointToStart(&store.getThenRegion().front());
  Value colCoord = b.add(b.add(tile.col, thread.colInTile), column);
  Value rowCoord = b.add(tile.row, b.mul(thread.quarter, 32));
  NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
      b, args.cMap, pipeline.sharedPtr(buffer), ValueRange{colCoord, rowCoord},
      Value(), NVVM::TMAStoreMode::TILE, Value());
  NVVM::CpAsyncBulkCommitGroupOp::create(b);
  b.setInsertionPointAfter(store);
}

void Tcgen05Epilogue::storeRow(const EpilogueThread &thread, TileCoord tile,
                               int64_t column, ArrayRef<Value> values) {
  if (config.tmaStore) {
    int64_t width = config.storeColumns();
    for (int64_t first = 0; first < static_cast<int64_t>(values.size());
         first += width)
      storeSegment(thread, tile, column + first,
                   packChunks(values.slice(first, width)));
    return;
  }
  Value row = b.add(tile.row, thread.rowInTile);
  Value rowOffset = b.mul(b.extUI64(row), problem.n);
  Value firstCol = b.add(tile.col, thread.colInTile);
  auto inside = scf::IfOp::create(b, b.ult(row, problem.m));
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  for (int64_t first = 0; first < static_cast<int64_t>(values.size());
       first += kLoad)
    storeColumns(rowOffset, b.add(firstCol, column + first),
                 values.slice(first, kLoad));
  b.setInsertionPointAfter(inside);
}

void Tcgen05Epilogue::buildFinish(const EpilogueThread &thread) {
  if (!config.tmaStore)
    return;
  auto last = scf::IfOp::create(b, b.eq(thread.lane, 0));
  b.setInsertionPointToStart(&last.getThenRegion().front());
  NVVM::CpAsyncBulkWaitGroupOp::create(b, b.getI32IntegerAttr(0), nullptr);
  b.setInsertionPointAfter(last);
}

Value Tcgen05Epilogue::buildTile(Value tmemBase, const EpilogueThread &thread,
                                 TileCoord tile, Value counter) {
  Value row = b.add(tile.row, thread.rowInTile);
  Value firstCol = b.add(tile.col, thread.colInTile);
  int64_t chunks = config.groupColumns() / kLoad;
  // The columns a store takes at once: a 128-byte segment through TMA, or
  // one load's 32.
  int64_t storeWidth = config.tmaStore ? config.storeColumns() : kLoad;

  if (!config.promoted()) {
    Value address = acquire(tmemBase, thread, counter);
    // Scales constant along K (none for MXFP8, whose MMA applied them).
    Value aScale;
    if (!config.blockScaled())
      aScale = loadOperandScale(b, args.aScale, problem.aScaling, row, b.i32(0),
                                problem.m);
    // Through TMA, 64 columns per load (tcgen05.ld x64: a bf16 segment, or
    // two f32 ones): with a segment's values live across another load,
    // ptxas spilled.
    int64_t loadWidth =
        config.tmaStore && config.groupColumns() % 64 == 0 ? 64 : storeWidth;
    for (int64_t first = 0; first < config.groupColumns(); first += loadWidth) {
      if (config.tmaStore)
        waitForStaging();
      SmallVector<Value> values = loadColumns(address, first, loadWidth);
      if (first + loadWidth == config.groupColumns())
        release(counter);
      if (aScale) {
        for (int64_t part = 0; part < loadWidth; part += kLoad) {
          SmallVector<Value> bScale =
              bScales(b.add(firstCol, first + part), b.i32(0));
          for (int64_t i = 0; i < kLoad; ++i)
            values[part + i] = scaledTerm(b, values[part + i], aScale,
                                          bScale[bScale.size() == 1 ? 0 : i]);
        }
      }
      for (int64_t part = 0; part < loadWidth; part += storeWidth) {
        ArrayRef<Value> segment =
            ArrayRef<Value>(values).slice(part, storeWidth);
        if (config.tmaStore)
          storeSegment(thread, tile, first + part, packChunks(segment),
                       /*waitFirst=*/part > 0);
        else
          storeRow(thread, tile, first + part, segment);
      }
    }
    return b.add(counter, 1);
  }

  // Promoted: a K-block's partial sum per accumulator, added with its
  // scales to the row's f32 sums.
  SmallVector<Value> init = {counter};
  init.append(config.groupColumns(), b.f32(0.0));
  auto loop = scf::ForOp::create(b, b.i32(0), b.i32(problem.numKBlocks),
                                 b.i32(1), init);
  keepRolled(loop);
  b.setInsertionPointToStart(loop.getBody());
  Value it = loop.getRegionIterArgs()[0];
  SmallVector<Value> sums(loop.getRegionIterArgs().drop_front());
  Value k = b.mul(loop.getInductionVar(), Tcgen05GemmConfig::kTileK);
  Value aScale =
      loadOperandScale(b, args.aScale, problem.aScaling, row, k, problem.m);
  Value address = acquire(tmemBase, thread, it);
  for (int64_t chunk = 0; chunk < chunks; ++chunk) {
    SmallVector<Value> partial = loadColumns(address, chunk * kLoad, kLoad);
    if (chunk == chunks - 1)
      release(it);
    SmallVector<Value> bScale = bScales(b.add(firstCol, chunk * kLoad), k);
    promoteScaled(
        b, partial, [&](int64_t) { return aScale; },
        [&](int64_t i) { return bScale[bScale.size() == 1 ? 0 : i]; },
        MutableArrayRef<Value>(sums).slice(chunk * kLoad, kLoad));
  }
  SmallVector<Value> yielded = {b.add(it, 1)};
  yielded.append(sums);
  scf::YieldOp::create(b, yielded);
  b.setInsertionPointAfter(loop);
  auto results = loop.getResults();
  for (int64_t first = 0; first < config.groupColumns(); first += storeWidth)
    storeRow(thread, tile, first,
             SmallVector<Value>(results.begin() + 1 + first,
                                results.begin() + 1 + first + storeWidth));
  return loop.getResult(0);
}
