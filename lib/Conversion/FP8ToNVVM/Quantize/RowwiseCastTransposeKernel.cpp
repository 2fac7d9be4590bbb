//===- RowwiseCastTransposeKernel.cpp - rows and columns, one kernel ------===//
//
// Rowwise training quantizes X along its rows (Fprop) and along the rows of
// Xᵀ, X's columns (Wgrad), each row with the scale of its own amax; the same
// for W and dY. A column's amax needs every row first, so the kernel reads
// X twice, with a grid-wide barrier of resident CTAs between the passes:
//
//  1. Each CTA takes a contiguous run of 64x64 tiles, in column-strip
//     order (down each strip of 64 columns). Thread t holds row t / 4 of a
//     tile, 16 columns from 16 (t % 4). A row's partial amax is reduced over
//     its 4 lanes per tile; a column's stays in the thread's registers down
//     the strip and is reduced over the CTA when the strip or the run ends.
//     Both go into the workspace by integer atomic max on the non-negative
//     f32 bits (NaN's bits order above inf's, so NaN wins as in the
//     reference's max).
//  2. After the barrier, the same run backwards (the tiles read last are
//     the likeliest to be in L2), two tiles at a time: 64 threads derive the
//     rows' scales and 64 the columns', into shared memory; each thread
//     casts its 16 values of a row with the row's scale (stored to q) and
//     with the columns' scales (stored to the tile in shared memory), and
//     after a barrier gathers 16 bytes of a tile column (stored to qt).
//
// Traffic: the input read twice, each FP8 byte written once (6 bytes per
// bf16 element), where the unfused program transposes in bf16 (4 bytes)
// and quantizes twice (6). The scales come from the same amaxes by the same
// code (QuantizeKernelBuilder::tileScales) and the cast is the same
// multiply and conversion, so fusing changes no bit.
//
//===----------------------------------------------------------------------===//

#include "GridBarrier.h"
#include "QuantizeKernel.h"

#include "../OpKernels.h"
#include "fp8/Dialect/FP8/Utils/CastTransposeShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

static constexpr int64_t kTile = kRowwiseCastTransposeTile;
/// Lanes per tile row: each holds kChunk columns.
static constexpr int64_t kLanesPerRow = kTile / kChunk;
/// Shared tile rows, padded by 16 bytes (aligned 16-byte row stores, fewer
/// bank conflicts in the column reads), as the tensorwise cast-transpose.
static constexpr int64_t kTileStride = kTile + kChunk;
/// Two CTAs an SM, resident together (the barrier needs every one).
static constexpr int64_t kBlocksPerSM = 2;
static constexpr int64_t kMaxBlocks = 132 * kBlocksPerSM;
/// Workspace words: 1 the arrivals, 2 the departures; the rows' amax bits
/// from kAmaxBase, then the columns'.
static constexpr int64_t kArrivals = 1, kDepartures = 2, kAmaxBase = 4;

namespace {
/// The kernel under construction and what its passes share.
struct RowwiseCastTranspose {
  QuantizeKernelBuilder &k;
  KernelBuilder &b;
  int64_t rowTiles, numTiles, numBlocks;
  // Thread t: its tile row and first column; the CTA's run of tiles.
  Value thread, row, segment, lane, warp, first, last;
  // Shared memory: the column maxima of the warps, two tiles of FP8 bytes,
  // and the quantization scales of two tiles' rows and columns.
  Value columnPartials, tiles, rowScales, columnScales;

  /// Tile `index` of the column-strip order: its first row and column.
  std::pair<Value, Value> origin(Value index) {
    return {b.mul(b.remU(index, rowTiles), kTile),
            b.mul(b.divU(index, rowTiles), kTile)};
  }
  /// This thread's first element of tile `index`.
  Value offsetOf(Value index) {
    auto [rowBase, colBase] = origin(index);
    return b.add(b.mul(b.add(rowBase, row), k.cols), b.add(colBase, segment));
  }
  /// Word `word` of the workspace, in index units.
  Value amaxWord(Value word) { return b.add(word, kAmaxBase); }
  void atomicMax(Value amax, Value word) {
    Value bits = b.andI(b.bitcast(b.getI32Type(), amax), 0x7FFFFFFF);
    scratchAtomic(b, k.scratch, arith::AtomicRMWKind::maxs, bits,
                  amaxWord(word));
  }
  /// The amax at `word`, read from L2 (volatile: never a stale L1 line).
  Value loadAmax(Value word) {
    Value address =
        globalByteAddress(b, k.scratch, b.mul(amaxWord(word), int64_t(4)));
    Value bits = LLVM::LoadOp::create(b, b.getI32Type(), address, 4,
                                      /*isVolatile=*/true);
    return b.bitcast(b.getF32Type(), bits);
  }

  SmallVector<Value> accumulate(Value values, Value index,
                                ArrayRef<Value> columnMax);
  void flushColumns(Value strip, ArrayRef<Value> columnMax);
  void findAmaxes();
  Value amaxWordOf(Value index);
  void deriveScales(Value index, Value slot, Value amax);
  void castTile(Value values, Value index, Value slot);
  void gatherColumn(Value index, Value slot);
  void quantizeTiles();
  void resetWorkspace();
};
} // namespace

/// Pass 1 for one tile: its rows' partial amaxes into the workspace, its
/// columns' into `columnMax`; the strip's columns flushed where it ends.
/// Returns the column maxima to carry on.
SmallVector<Value> RowwiseCastTranspose::accumulate(Value values, Value index,
                                                    ArrayRef<Value> columnMax) {
  SmallVector<Value> carried;
  for (int64_t i = 0; i < kChunk; ++i)
    carried.push_back(
        b.maxF(columnMax[i], b.absF(vector::ExtractOp::create(b, values, i))));
  Value rowMax = k.shuffleMax(k.maxAbs(values), kLanesPerRow);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifFirst = scf::IfOp::create(b, b.eq(lane, 0), false);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    atomicMax(rowMax, b.add(origin(index).first, row));
  }
  // The strip ends with the run or at the next tile's strip (the same in
  // every thread: the barriers inside are uniform).
  Value next = b.add(index, 1);
  Value strip = b.divU(index, rowTiles);
  Value ends = b.orI(b.eq(next, last), b.ne(b.divU(next, rowTiles), strip));
  SmallVector<Type> types(kChunk, b.getF32Type());
  auto ifEnds = scf::IfOp::create(b, types, ends, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifEnds.thenBlock());
    flushColumns(strip, carried);
    scf::YieldOp::create(b, SmallVector<Value>(kChunk, b.f32(0.0)));
    b.setInsertionPointToStart(ifEnds.elseBlock());
    scf::YieldOp::create(b, carried);
  }
  return SmallVector<Value>(ifEnds.getResults());
}

/// The CTA's maxima of the strip's 64 columns into the workspace: over the
/// 8 rows of a warp by shuffles, over the warps through shared memory.
void RowwiseCastTranspose::flushColumns(Value strip,
                                        ArrayRef<Value> columnMax) {
  SmallVector<Value> reduced;
  for (Value value : columnMax) {
    for (int64_t stride = kLanesPerRow; stride < kWarpSize; stride *= 2)
      value = b.maxF(value, gpu::ShuffleOp::create(b, value, stride, kWarpSize,
                                                   gpu::ShuffleMode::XOR)
                                .getShuffleResult());
    reduced.push_back(value);
  }
  Value warpLane = b.remU(thread, kWarpSize);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifRowZero = scf::IfOp::create(b, b.ult(warpLane, kLanesPerRow), false);
    b.setInsertionPointToStart(ifRowZero.thenBlock());
    Value base = b.add(b.mul(warp, kTile), segment);
    for (int64_t i = 0; i < kChunk; ++i)
      memref::StoreOp::create(b, reduced[i], columnPartials,
                              b.add(base, b.index(i)));
  }
  gpu::BarrierOp::create(b);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifColumn = scf::IfOp::create(b, b.ult(thread, kTile), false);
    b.setInsertionPointToStart(ifColumn.thenBlock());
    Value max = b.f32(0.0);
    for (int64_t w = 0; w < kThreadsPerBlock / kWarpSize; ++w)
      max = b.maxF(max,
                   memref::LoadOp::create(b, columnPartials,
                                          b.add(thread, b.index(w * kTile))));
    atomicMax(max, b.add(b.add(b.mul(strip, kTile), thread), k.rows));
  }
  // The partials are written again at the next strip.
  gpu::BarrierOp::create(b);
}

/// Pass 1 over the CTA's run, two tiles loaded at a time; then the
/// grid-wide barrier.
void RowwiseCastTranspose::findAmaxes() {
  SmallVector<Value> init(kChunk, b.f32(0.0));
  auto loop = scf::ForOp::create(b, first, last, b.index(2), init);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value index = loop.getInductionVar();
    Value second = b.add(index, 1);
    Value hasSecond = b.ult(second, last);
    // Past the run's end the first tile is loaded again, and not used.
    Value secondIndex = arith::SelectOp::create(b, hasSecond, second, index);
    Value values = k.load(offsetOf(index));
    Value secondValues = k.load(offsetOf(secondIndex));
    SmallVector<Value> columnMax =
        accumulate(values, index, SmallVector<Value>(loop.getRegionIterArgs()));
    SmallVector<Type> types(kChunk, b.getF32Type());
    auto ifSecond =
        scf::IfOp::create(b, types, hasSecond, /*withElseRegion=*/true);
    b.setInsertionPointToStart(ifSecond.thenBlock());
    scf::YieldOp::create(b, accumulate(secondValues, second, columnMax));
    b.setInsertionPointToStart(ifSecond.elseBlock());
    scf::YieldOp::create(b, columnMax);
    b.setInsertionPointAfter(ifSecond);
    scf::YieldOp::create(b, ifSecond.getResults());
  }
  // Every thread's atomics are issued before the leader arrives.
  gpu::BarrierOp::create(b);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifLeader = scf::IfOp::create(b, b.eq(thread, 0), false);
    b.setInsertionPointToStart(ifLeader.thenBlock());
    fenceGpu(b);
    arriveAndWait(b, k.scratch, kArrivals, numBlocks);
  }
  gpu::BarrierOp::create(b);
}

/// The workspace word of the amax this thread derives a scale from for
/// tile `index`: threads 0-63 a row's, 64-127 a column's (the others load
/// the first column's again and derive nothing).
Value RowwiseCastTranspose::amaxWordOf(Value index) {
  auto [rowBase, colBase] = origin(index);
  Value isRow = b.ult(thread, kTile);
  Value column = b.remU(thread, kTile);
  Value columnWord = b.add(b.add(colBase, column), k.rows);
  return arith::SelectOp::create(b, isRow, b.add(rowBase, thread), columnWord);
}

/// The scales of tile `index`'s 64 rows (threads 0-63, from `amax`) and 64
/// columns (threads 64-127) into shared-memory slot `slot`; the tiles of
/// the first strip store their rows' scales, those of the first row band
/// their columns'.
void RowwiseCastTranspose::deriveScales(Value index, Value slot, Value amax) {
  auto [rowBase, colBase] = origin(index);
  OpBuilder::InsertionGuard guard(b);
  auto ifDerives = scf::IfOp::create(b, b.ult(thread, 2 * kTile), false);
  b.setInsertionPointToStart(ifDerives.thenBlock());
  TileScales scales = k.tileScales(amax);
  Value stored = toScaleStorage(b, scales.storedScale);
  auto ifRow = scf::IfOp::create(b, b.ult(thread, kTile),
                                 /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifRow.thenBlock());
  {
    memref::StoreOp::create(b, scales.quantScale, rowScales,
                            b.add(b.mul(slot, kTile), thread));
    auto ifStore = scf::IfOp::create(b, b.eq(colBase, 0), false);
    b.setInsertionPointToStart(ifStore.thenBlock());
    k.storeScale(stored, b.add(rowBase, thread));
  }
  b.setInsertionPointToStart(ifRow.elseBlock());
  Value column = b.sub(thread, b.index(kTile));
  memref::StoreOp::create(b, scales.quantScale, columnScales,
                          b.add(b.mul(slot, kTile), column));
  auto ifStore = scf::IfOp::create(b, b.eq(rowBase, 0), false);
  b.setInsertionPointToStart(ifStore.thenBlock());
  memref::StoreOp::create(b, stored, k.scalesT, b.add(colBase, column));
}

/// This thread's 16 values of tile `index` cast with their row's scale
/// (to q) and with their columns' (to shared tile `slot`).
void RowwiseCastTranspose::castTile(Value values, Value index, Value slot) {
  Value scaleBase = b.mul(slot, kTile);
  Value rowScale = memref::LoadOp::create(b, rowScales, b.add(scaleBase, row));
  Value scalesOfColumns = vector::LoadOp::create(
      b, VectorType::get({kChunk}, b.getF32Type()), columnScales,
      ValueRange{b.add(scaleBase, segment)}, /*nontemporal=*/false,
      llvm::Align(16));
  SmallVector<Value> byRow, byColumn;
  for (int64_t i = 0; i < kChunk; ++i) {
    Value x = vector::ExtractOp::create(b, values, i);
    byRow.push_back(b.mulF(x, rowScale));
    byColumn.push_back(
        b.mulF(x, vector::ExtractOp::create(b, scalesOfColumns, i)));
  }
  vector::StoreOp::create(b, convertToBytes(b, byRow, k.elementType), k.data,
                          offsetOf(index), false, llvm::Align(16));
  Value tileOffset = b.add(b.mul(slot, kTile * kTileStride),
                           b.add(b.mul(row, kTileStride), segment));
  vector::StoreOp::create(b, convertToBytes(b, byColumn, k.elementType), tiles,
                          ValueRange{tileOffset}, false, llvm::Align(16));
}

/// Column t / 4 of shared tile `slot`, rows 16 (t % 4) .. +15: 16 bytes of
/// a row of qt.
void RowwiseCastTranspose::gatherColumn(Value index, Value slot) {
  auto [rowBase, colBase] = origin(index);
  Value bytes = gatherColumnBytes(b, tiles, b.mul(slot, kTile * kTileStride),
                                  segment, row, kTileStride);
  Value offset =
      b.add(b.mul(b.add(colBase, row), k.rows), b.add(rowBase, segment));
  vector::StoreOp::create(b, bytes, k.dataT, offset, false, llvm::Align(16));
}

/// Pass 2: the run backwards, two tiles an iteration: both tiles' scales
/// derived (barrier), both cast (barrier), both gathered. The next
/// iteration's tiles and amaxes are loaded before this one's work, so that
/// their latency hides behind it. The next iteration's scale and tile stores
/// come after its first barrier, which every thread reaches only after its
/// gathers.
void RowwiseCastTranspose::quantizeTiles() {
  Value count = b.sub(last, first);
  // The iteration at `step`'s two tiles (the first again where the run has
  // one left) and what it loads: their values and this thread's amaxes.
  auto tilesOf = [&](Value step) -> std::pair<Value, Value> {
    Value index = b.sub(b.sub(last, step), b.index(1));
    Value hasSecond = b.ult(b.add(step, b.index(1)), count);
    return {index, arith::SelectOp::create(b, hasSecond,
                                           b.sub(index, b.index(1)), index)};
  };
  auto loadsOf = [&](Value step) -> SmallVector<Value> {
    auto [index, second] = tilesOf(step);
    return {k.load(offsetOf(index)), k.load(offsetOf(second)),
            loadAmax(amaxWordOf(index)), loadAmax(amaxWordOf(second))};
  };
  auto loop =
      scf::ForOp::create(b, b.index(0), count, b.index(2), loadsOf(b.index(0)));
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(loop.getBody());
  Value step = loop.getInductionVar();
  auto [index, second] = tilesOf(step);
  Value hasSecond = b.ult(b.add(step, b.index(1)), count);
  // The next iteration's loads (this one's again after the last).
  Value next = b.add(step, b.index(2));
  SmallVector<Value> prefetched =
      loadsOf(arith::SelectOp::create(b, b.ult(next, count), next, step));
  auto current = loop.getRegionIterArgs();
  Value slot0 = b.index(0), slot1 = b.index(1);
  deriveScales(index, slot0, current[2]);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifSecond = scf::IfOp::create(b, hasSecond, false);
    b.setInsertionPointToStart(ifSecond.thenBlock());
    deriveScales(second, slot1, current[3]);
  }
  gpu::BarrierOp::create(b);
  castTile(current[0], index, slot0);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifSecond = scf::IfOp::create(b, hasSecond, false);
    b.setInsertionPointToStart(ifSecond.thenBlock());
    castTile(current[1], second, slot1);
  }
  gpu::BarrierOp::create(b);
  gatherColumn(index, slot0);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifSecond = scf::IfOp::create(b, hasSecond, false);
    b.setInsertionPointToStart(ifSecond.thenBlock());
    gatherColumn(second, slot1);
  }
  scf::YieldOp::create(b, prefetched);
}

/// The last CTA to leave zeroes the amaxes and the counters for the next
/// launch: every CTA has read its amaxes before it leaves.
void RowwiseCastTranspose::resetWorkspace() {
  // Every thread's reads of the amaxes come before the leader leaves.
  gpu::BarrierOp::create(b);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifLeader = scf::IfOp::create(b, b.eq(thread, 0), false);
    b.setInsertionPointToStart(ifLeader.thenBlock());
    fenceGpu(b);
    Value departed = scratchAtomic(b, k.scratch, arith::AtomicRMWKind::addi,
                                   b.i32(1), b.index(kDepartures));
    Value isLast = b.eq(departed, numBlocks - 1);
    memref::StoreOp::create(
        b, arith::SelectOp::create(b, isLast, b.f32(1.0), b.f32(0.0)),
        columnPartials, b.index(0));
  }
  gpu::BarrierOp::create(b);
  Value isLast = arith::CmpFOp::create(
      b, arith::CmpFPredicate::OEQ,
      memref::LoadOp::create(b, columnPartials, b.index(0)), b.f32(1.0));
  OpBuilder::InsertionGuard guard(b);
  auto ifLast = scf::IfOp::create(b, isLast, false);
  b.setInsertionPointToStart(ifLast.thenBlock());
  auto zero = scf::ForOp::create(b, thread, b.index(k.workspaceWords),
                                 b.index(kThreadsPerBlock));
  b.setInsertionPointToStart(zero.getBody());
  memref::StoreOp::create(b, b.i32(0), k.scratch, zero.getInductionVar());
}

FailureOr<gpu::GPUModuleOp>
kernels::buildRowwiseCastTransposeKernel(OpBuilder &builder,
                                         QuantizeTransposeOp op, StringRef name,
                                         const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (!fitsRowwiseCastTranspose(inputType, op.getScaling()))
    return op.emitOpError("convert-fp8-to-nvvm: the rowwise cast-transpose "
                          "needs a 16-bit input with both dims multiples of ")
           << kTile << ", got " << inputType;
  if (op.getScaleLayout() != ScaleLayout::row_major ||
      op.getScaleTLayout() != ScaleLayout::row_major)
    return op.emitOpError("convert-fp8-to-nvvm: the rowwise cast-transpose "
                          "stores row-major scales only");
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getScaling().getTile(), op);
  k.workspaceWords = kAmaxBase + k.rows + k.cols;
  int64_t rowTiles = k.rows / kTile;
  int64_t numTiles = rowTiles * (k.cols / kTile);
  int64_t numBlocks = std::min(kMaxBlocks, numTiles);
  gpu::GPUFuncOp func = k.create(name, target, numBlocks, /*workspace=*/true);
  // Resident together: at most 128 registers a thread.
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(kBlocksPerSM));
  auto shared = [&](int64_t size, Type element) {
    Value array = func.addWorkgroupAttribution(
        b.workgroupMemRef({size}, element), b.getLoc());
    func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                     LLVM::LLVMDialect::getAlignAttrName(),
                                     b.getI64IntegerAttr(16));
    return array;
  };
  RowwiseCastTranspose g{k, b, rowTiles, numTiles, numBlocks};
  g.columnPartials =
      shared(kThreadsPerBlock / kWarpSize * kTile, b.getF32Type());
  g.tiles = shared(2 * kTile * kTileStride, b.getI8Type());
  g.rowScales = shared(2 * kTile, b.getF32Type());
  g.columnScales = shared(2 * kTile, b.getF32Type());
  g.thread = b.threadIdX();
  g.row = b.divU(g.thread, kLanesPerRow);
  g.lane = b.remU(g.thread, kLanesPerRow);
  g.segment = b.mul(g.lane, kChunk);
  g.warp = b.divU(g.thread, kWarpSize);
  Value block = b.blockIdX();
  g.first = b.divU(b.mul(block, numTiles), numBlocks);
  g.last = b.divU(b.mul(b.add(block, b.index(1)), numTiles), numBlocks);
  g.findAmaxes();
  g.quantizeTiles();
  g.resetWorkspace();
  return k.finish(func);
}
