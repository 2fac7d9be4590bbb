//===- GemmKernel.cpp - fp8.scaled_matmul as a TMA + wgmma kernel ---------===//
//
// The Hopper (sm_90a) GEMM of two K-major FP8 operands, C = A * B^T with A
// stored M x K and B stored N x K (what fp8-legalize makes of every
// scaled_matmul). Persistent CTAs, one per SM, walk 128 x N tiles of C
// (N = 64, 128, 192 or 256) or 192 x 128 tiles (chooseConfig) with:
//
//  - a producer warpgroup, of which one thread issues the TMA loads
//    (cp.async.bulk.tensor, 128-byte swizzle) of each 128-deep K-block of A
//    and B into a ring of `stages` shared-memory buffers, each guarded by a
//    "full" mbarrier (transaction bytes) and an "empty" one (consumers done);
//    it runs ahead into the next tile while the consumers store this one;
//  - two or three consumer warpgroups, each multiplying 64 rows of A with
//    the B tile by wgmma.mma_async m64nNk32 on shared-memory descriptors,
//    then storing their rows of C through a swizzled shared-memory buffer
//    by TMA.
//
// With 192 x 128 tiles, a short last round (at most a third of the SMs'
// worth of tiles) is split: each of its tiles becomes three 64-row
// sub-tiles on three CTAs, whose consumers share the sub-tile's K-blocks
// round-robin and add their sums through shared memory.
//
// Accumulation follows DESIGN.md section 4: with `promoted`, each K-block
// (the finer operand's, or 128 when both span K) is accumulated by the tensor
// cores alone, then multiplied by its scales and added to f32 registers (the
// tensor cores' FP8 accumulator keeps too few bits for long sums); `fast`
// keeps one tensor-core accumulator over all of K. Scales that span K are
// applied once in the epilogue; the others come with each stage (TMA for
// col_major_tma per-row scales, a 16-byte bulk copy for B's 128x128 blocks)
// or are read from global memory (L2 resident) a K-block ahead of their use.
//
// Registers: the producer gives its registers back (setmaxnreg.dec) so that
// the consumers can hold an accumulator and the promoted sums; the kernel
// declares its entry count (.maxnreg), without which ptxas ignores
// setmaxnreg.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "Gemm/GemmConfig.h"
#include "KernelUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// The K of one FP8 wgmma.
static constexpr int64_t kMmaK = 32;
/// Rows of A per consumer warpgroup (wgmma's M).
static constexpr int64_t kMmaM = kConsumerRows;
/// mbarrier.try_wait suspend-time hint (ns).
static constexpr int64_t kWaitTicks = 0x989680;
/// M tiles that consecutive CTAs walk before moving along N (L2 reuse of B).
static constexpr int64_t kRasterGroup = 8;

namespace {
/// Emits the kernel body; holds the values every part of it uses.
class GemmBuilder {
public:
  GemmBuilder(OpBuilder &b, Location loc, ScaledMatmulOp op,
              const GemmConfig &config)
      : b(b), loc(loc), op(op), config(config), ctx(b.getContext()) {}

  FailureOr<gpu::GPUModuleOp> build(StringRef name, const Target &target);

private:
  // Scalars.
  Value i32(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
  }
  Value i64(int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 64).getResult();
  }
  Value f32(double v) {
    return arith::ConstantFloatOp::create(b, loc, b.getF32Type(),
                                          APFloat(float(v)))
        .getResult();
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(b, loc, x, y); }
  Value div(Value x, int64_t y) {
    return arith::DivUIOp::create(b, loc, x, i32(y));
  }
  Value rem(Value x, int64_t y) {
    return arith::RemUIOp::create(b, loc, x, i32(y));
  }
  Value ult(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, x, y);
  }
  Value eq(Value x, Value y) {
    return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, x, y);
  }
  Value minU(Value x, Value y) { return arith::MinUIOp::create(b, loc, x, y); }
  Value toI32(Value index) {
    return arith::IndexCastUIOp::create(b, loc, b.getI32Type(), index);
  }

  // Shared memory.
  Value sharedPtr(Value offset);
  /// The same address as shared::cluster (this CTA's own), the TMA
  /// destination space that PTX 8.0 has.
  Value clusterPtr(Value offset) {
    return LLVM::AddrSpaceCastOp::create(
        b, loc, LLVM::LLVMPointerType::get(ctx, 7), sharedPtr(offset));
  }
  Value fullBarrier(Value stage);
  Value emptyBarrier(Value stage);
  /// The descriptor's low word for a tile at shared address `address`.
  Value descriptorLow(Value address);
  /// The full descriptor from its low word (the high word is constant).
  Value descriptor(Value low);

  // Global memory.
  Value globalPtr(Value pointer);
  Value loadScale(Value scales, const OperandScaling &scaling, Value row,
                  Value k, int64_t rows);

  /// Sets tileRow and tileCol for linear tile index `tile`.
  void setTile(Value tile);
  /// An scf.for over this CTA's whole tiles carrying `counter`; the
  /// builder is left in its body with tileRow/tileCol set.
  scf::ForOp buildTileLoop(Value counter);
  /// This CTA's sub-tile of a split tile, if it has one inside the matrix:
  /// sets tileRow/tileCol and calls `body` with the sub-tile's index (its
  /// 64-row slice of the tile) and `counter`.
  void buildSplitTile(Value counter,
                      function_ref<void(Value part, Value counter)> body);
  /// The producer's loads of the current tile's K-blocks (of its 64-row
  /// slice `part` where that is non-null) from stage counter `counter`;
  /// returns the counter after them.
  Value buildTileLoads(Value counter, Value part);
  void buildProducer();
  void buildConsumer();
  /// Sets the rows of the current tile that this consumer thread holds:
  /// those of 64-row slice `group`.
  void setRowGroup(Value group);
  /// Adds the consumers' sums of a split sub-tile through shared memory;
  /// consumer 0 stores the result.
  void buildSplitEpilogue(ArrayRef<Value> sums);
  /// Whether the consumers take turns to issue their MMAs. It pays where
  /// promotion multiplies by per-block scales (+5% on the H200 for
  /// blockwise) and costs 5% where it only adds (tensorwise, rowwise).
  bool orderedTurns() const {
    return promotion >= kTileK && (!aScaling.spansK() || !bScaling.spansK());
  }
  /// What a consumer needs to issue the MMAs of K-block counter `it`: its
  /// stage, the full barrier's parity, and the stage's A and B descriptor
  /// low words.
  struct StageState {
    Value stage, parity, lowA, lowB;
  };
  StageState stageState(Value it);
  /// Waits until TMA has filled `state`'s stage.
  void waitForStage(const StageState &state);
  /// Queues `numSteps` wgmmas from K-step `firstStep` of `state`'s stage on
  /// `acc` as one group (the stage must have been waited for).
  Value issueBlock(const StageState &state, Value acc, bool zeroFirst,
                   int64_t firstStep, int64_t numSteps);
  /// Hands `stage` back to the producer, as `arrivals` consumers.
  void releaseStage(Value stage, int64_t arrivals = 1);
  /// The K-varying scales of this thread's elements for the K-slice at
  /// `kIndex` (loaded early, used by promote).
  struct Scales {
    SmallVector<Value> a, b;
  };
  Scales loadScales(Value kIndex);
  /// Adds the scales that TMA brought with `stage`, that of K-index
  /// `kIndex`.
  void readSharedScales(Value stage, Value kIndex, Scales &scales);
  /// Adds accumulator `acc`, times its scales, to `sums`.
  void promote(Value acc, const Scales &scales, MutableArrayRef<Value> sums);
  // The main loops over one tile's K-blocks; each returns the K-block
  // counter after the tile and leaves the f32 sums in `sums`.
  Value buildFastMainLoop(Value base, SmallVectorImpl<Value> &sums);
  /// With `split`, the consumers take turns at a sub-tile's K-blocks (the
  /// returned counter then means nothing).
  Value buildPromotedMainLoop(Value base, SmallVectorImpl<Value> &sums,
                              bool split = false);
  /// The scale factors of this thread's accumulator elements for the K-slice
  /// starting at `k`, from A (two rows) and B (its columns).
  void loadBlockScales(Value k, SmallVectorImpl<Value> &aScales,
                       SmallVectorImpl<Value> &bScales, bool kBlockOnly);
  Value scaleFactor(ArrayRef<Value> aScales, ArrayRef<Value> bScales,
                    int64_t element);
  void buildEpilogue(ArrayRef<Value> sums);
  void buildStoreThroughShared(function_ref<Value(int64_t, int64_t)> pairAt);

  OpBuilder &b;
  Location loc;
  ScaledMatmulOp op;
  GemmConfig config;
  MLIRContext *ctx;

  int64_t m = 0, n = 0, k = 0, numKBlocks = 0;
  int64_t promotion = 0; // Promotion interval; 0 for fast accumulation.
  OperandScaling aScaling{}, bScaling{};
  Type aElement, bElement, resultElement;

  // Kernel values.
  Value aScale, bScale, c, aMap, bMap, cMap, aScaleMap, bScaleMap, aSplitMap;
  Value thread, smemBase, smemAddress, firstTile, tileStride;
  int64_t numTiles = 0;
  /// The first split tile: whole tiles come before it.
  int64_t splitStart = 0;
  // The current tile's first row and column of C.
  Value tileRow, tileCol;
  // Consumer values: this thread's two rows (in C) and first column offset.
  Value consumer, lane, row0, row1, laneCol;
  // The tile's 64-row slice that this consumer's accumulator holds (its
  // own index, or the sub-tile's in a split tile), and this thread's first
  // row in it.
  Value rowGroup, groupRow;
  // This thread's first row and column within the tile.
  Value rowInTile, colInTile;
  Type accType;
};
} // namespace

Value GemmBuilder::sharedPtr(Value offset) {
  return LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 3),
                             b.getI8Type(), smemBase, ValueRange{offset});
}

Value GemmBuilder::fullBarrier(Value stage) {
  return sharedPtr(add(i32(config.barrierOffset()), mul(stage, i32(8))));
}

Value GemmBuilder::emptyBarrier(Value stage) {
  int64_t base = config.barrierOffset() + 8 * config.stages;
  return sharedPtr(add(i32(base), mul(stage, i32(8))));
}

/// The wgmma shared-memory matrix descriptor of a K-major tile with 128-byte
/// swizzle: start address >> 4 in bits 0-13, leading byte offset 16 (unused
/// by K-major swizzled tiles) in 16-29, stride byte offset 1024 (eight
/// 128-byte rows) in 32-45, swizzle mode 1 (128 B) in 62-63. The low word
/// is computed once per stage: a K-step inside the swizzled row adds
/// step * 32 / 16 to it, which never carries out of the 14-bit field
/// (shared addresses stay below 2^18).
Value GemmBuilder::descriptorLow(Value address) {
  Value start = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, address, i32(4)), i32(0x3FFF));
  return arith::OrIOp::create(b, loc, start, i32(1 << 16));
}

Value GemmBuilder::descriptor(Value low) {
  uint64_t high = (uint64_t(kSwizzleAtom >> 4) << 32) | (uint64_t(1) << 62);
  return arith::OrIOp::create(
      b, loc, arith::ExtUIOp::create(b, loc, b.getI64Type(), low),
      i64(int64_t(high)));
}

/// Asks LLVM not to unroll `loop`: unrolled, a short K loop (K = 384 on
/// 192 x 128 tiles) overlaps its blocks' accumulators and spills. The
/// attribute is llvm.br's own `loop_annotation`: scf-to-cf forwards it to
/// the loop's latch branch, and the translation makes it !llvm.loop.
static void keepRolled(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {},
                                          {}, {}, {}, {}, {});
  loop->setAttr("loop_annotation",
                LLVM::LoopAnnotationAttr::get(ctx, {}, {}, {}, unroll, {}, {},
                                              {}, {}, {}, {}, {}, {}, {}, {},
                                              {}));
}

Value GemmBuilder::globalPtr(Value pointer) {
  return LLVM::AddrSpaceCastOp::create(
      b, loc, LLVM::LLVMPointerType::get(ctx, 1), pointer);
}

/// scale[min(row, rows - 1) / rowBlock][k / kBlock] as f32. Rows past the
/// matrix are clamped: their products are never stored.
Value GemmBuilder::loadScale(Value scales, const OperandScaling &scaling,
                             Value row, Value kIndex, int64_t rows) {
  Value scaleRow = scaling.spansRows()
                       ? i32(0)
                       : div(minU(row, i32(rows - 1)), scaling.rowBlock);
  Value scaleCol = scaling.spansK() ? i32(0) : div(kIndex, scaling.kBlock);
  Value index = scaling.transposed
                    ? add(mul(scaleCol, i32(scaling.stride)), scaleRow)
                    : add(mul(scaleRow, i32(scaling.stride)), scaleCol);
  Type storage = scaling.e8m0 ? Type(b.getI8Type()) : Type(b.getF32Type());
  Value ptr = LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 1),
                                  storage, scales, ValueRange{index});
  Value stored = LLVM::LoadOp::create(b, loc, storage, ptr,
                                      scaling.e8m0 ? 1 : 4, false, false,
                                      /*isInvariant=*/true);
  if (scaling.e8m0)
    stored = arith::BitcastOp::create(b, loc, b.getType<Float8E8M0FNUType>(),
                                      stored);
  return buildScaleToF32(b, loc, stored);
}

void GemmBuilder::buildProducer() {
  NVVM::SetMaxRegisterOp::create(b, loc, config.producerRegisters(),
                                 NVVM::SetMaxRegisterAction::decrease);
  auto leader = scf::IfOp::create(b, loc, eq(thread, i32(0)));
  b.setInsertionPointToStart(&leader.getThenRegion().front());
  scf::ForOp tiles = buildTileLoop(i32(0));
  scf::YieldOp::create(
      b, loc, buildTileLoads(tiles.getRegionIterArgs()[0], Value()));
  b.setInsertionPointAfter(tiles);
  if (config.splitTiles)
    buildSplitTile(tiles.getResult(0),
                   [&](Value part, Value it) { buildTileLoads(it, part); });
}

Value GemmBuilder::buildTileLoads(Value counter, Value part) {
  auto loop = scf::ForOp::create(b, loc, i32(0), i32(numKBlocks), i32(1),
                                 ValueRange{counter});
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  // Stages are used round-robin across tiles: `it` counts K-blocks loaded.
  Value it = loop.getRegionIterArgs()[0];
  Value stage = rem(it, config.stages);
  Value round = div(it, config.stages);
  // A fresh barrier counts as having completed the phase of parity 1, so the
  // first round of waits on "empty" passes at once.
  Value parity = arith::XOrIOp::create(
      b, loc, arith::AndIOp::create(b, loc, round, i32(1)), i32(1));
  NVVM::MBarrierTryWaitParityOp::create(b, loc, emptyBarrier(stage), parity,
                                        i32(kWaitTicks));
  Value full = fullBarrier(stage);
  NVVM::MBarrierArriveExpectTxOp::create(
      b, loc, Type(), full,
      i32(part ? config.splitStageBytes() : config.stageBytes()),
      NVVM::MemScopeKind::CTA, false, Value());
  Value kCoord = mul(kb, i32(kTileK));
  Value aOffset = mul(stage, i32(config.tileM * kTileK));
  Value bOffset = add(i32(config.stages * config.tileM * kTileK),
                      mul(stage, i32(config.tileN * kTileK)));
  // A sub-tile's 64 rows of A go where its consumer would find them in a
  // whole tile.
  Value aRow = tileRow;
  if (part) {
    aRow = add(tileRow, mul(part, i32(kMmaM)));
    aOffset = add(aOffset, mul(part, i32(kMmaM * kTileK)));
  }
  // Coordinates innermost first: (k, row). Rows past M or N read as zeros.
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, clusterPtr(aOffset), part ? aSplitMap : aMap,
      ValueRange{kCoord, aRow}, full, ValueRange{}, Value(), Value(),
      NVVM::TMALoadMode::TILE, false, nullptr, Value());
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, loc, clusterPtr(bOffset), bMap, ValueRange{kCoord, tileCol}, full,
      ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false, nullptr,
      Value());
  // Per-row scales in the col_major_tma layout: the K-block's row of the
  // transposed scale tensor, at the tile's first row (or column).
  auto loadScales = [&](const OperandScaling &scaling, Value map,
                        int64_t regionOffset, int64_t bytes, Value first) {
    Value scaleK = div(kCoord, scaling.kBlock);
    Value offset = add(i32(regionOffset), mul(stage, i32(bytes)));
    NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
        b, loc, clusterPtr(offset), map, ValueRange{first, scaleK}, full,
        ValueRange{}, Value(), Value(), NVVM::TMALoadMode::TILE, false,
        nullptr, Value());
  };
  if (config.aScaleBytes)
    loadScales(aScaling, aScaleMap, config.aScaleOffset(), config.aScaleBytes,
               tileRow);
  if (config.bScaleBytes && !config.bScalePerTile)
    loadScales(bScaling, bScaleMap, config.bScaleOffset(), config.bScaleStride(),
               tileCol);
  if (config.bScalePerTile) {
    // The 16 bytes of the tile's scale row that hold this K-block's scale.
    Value scaleK = div(kCoord, bScaling.kBlock);
    Value index = add(mul(div(tileCol, bScaling.rowBlock), i32(bScaling.stride)),
                      arith::AndIOp::create(b, loc, scaleK, i32(~3)));
    Value source = LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 1),
                                       b.getF32Type(), bScale, ValueRange{index});
    Value offset =
        add(i32(config.bScaleOffset()), mul(stage, i32(config.bScaleStride())));
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b, loc, clusterPtr(offset), source, full, i32(config.bScaleBytes),
        Value(), Value());
  }
  scf::YieldOp::create(b, loc, ValueRange{add(it, i32(1))});
  b.setInsertionPointAfter(loop);
  return loop.getResult(0);
}

void GemmBuilder::setTile(Value tile) {
  // Grouped raster order: consecutive tiles take kRasterGroup M tiles for
  // each N tile, so the B tile they share is read from L2.
  int64_t tilesM = llvm::divideCeil(m, config.tileM);
  int64_t tilesN = llvm::divideCeil(n, config.tileN);
  int64_t groupTiles = kRasterGroup * tilesN;
  Value group = div(tile, groupTiles);
  Value firstM = mul(group, i32(kRasterGroup));
  Value groupRows = minU(sub(i32(tilesM), firstM), i32(kRasterGroup));
  Value inGroup = rem(tile, groupTiles);
  Value tileMIndex =
      add(firstM, arith::RemUIOp::create(b, loc, inGroup, groupRows));
  Value tileNIndex = arith::DivUIOp::create(b, loc, inGroup, groupRows);
  tileRow = mul(tileMIndex, i32(config.tileM));
  tileCol = mul(tileNIndex, i32(config.tileN));
}

scf::ForOp GemmBuilder::buildTileLoop(Value counter) {
  // Persistent CTAs: CTA i takes tiles i, i + grid, ...; the producer runs
  // ahead into the next tile while the consumers store this one.
  auto tiles = scf::ForOp::create(b, loc, firstTile, i32(splitStart),
                                  tileStride, ValueRange{counter});
  b.setInsertionPointToStart(tiles.getBody());
  setTile(tiles.getInductionVar());
  return tiles;
}

void GemmBuilder::buildSplitTile(
    Value counter, function_ref<void(Value part, Value counter)> body) {
  // A consumer waits for fill f of a stage without having waited for fill
  // f - 1, another consumer's: the parity wait is only exact once that one
  // has completed. The issue turns see to it: the other consumer waited for
  // fill f - 1 (K-block it - stages) before its turn, which came before
  // this consumer's turn at K-block it - consumers.
  assert(orderedTurns() && config.stages >= config.splitWays() &&
         promotion >= kTileK && "a split needs issue turns and whole blocks");
  // The sub-tiles come after every whole tile: CTA i takes sub-tile i, so
  // the grid (the manifest's) must cover them all, and the three CTAs of a
  // tile run side by side and share its B tile in L2. One sub-tile per CTA
  // at most: the sums exchange in the stage buffers, which a next task's
  // loads would overwrite.
  int64_t ways = config.splitWays();
  auto has = scf::IfOp::create(
      b, loc, ult(firstTile, i32(ways * config.splitTiles)));
  b.setInsertionPointToStart(&has.getThenRegion().front());
  setTile(add(i32(splitStart), div(firstTile, ways)));
  Value part = rem(firstTile, ways);
  // A sub-tile wholly past M (of a tile on the last rows) has no work.
  auto inside =
      scf::IfOp::create(b, loc, ult(add(tileRow, mul(part, i32(kMmaM))), i32(m)));
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  body(part, counter);
  b.setInsertionPointAfter(has);
}

void GemmBuilder::loadBlockScales(Value kIndex, SmallVectorImpl<Value> &aScales,
                                  SmallVectorImpl<Value> &bScales,
                                  bool kBlockOnly) {
  // Only scales that vary along K are applied per block; the others wait
  // for the epilogue (kBlockOnly) or are the epilogue's (!kBlockOnly).
  auto wanted = [&](const OperandScaling &s) {
    return kBlockOnly ? !s.spansK() : s.spansK();
  };
  aScales.clear();
  bScales.clear();
  // Scales that TMA brings with the tile are read by readSharedScales.
  if (wanted(aScaling) && !(kBlockOnly && config.aScaleBytes)) {
    aScales.push_back(loadScale(aScale, aScaling, row0, kIndex, m));
    if (aScaling.rowBlock == 1)
      aScales.push_back(loadScale(aScale, aScaling, row1, kIndex, m));
  }
  if (wanted(bScaling) && !(kBlockOnly && config.bScaleBytes)) {
    if (bScaling.rowBlock == 1) {
      // One scale per column this thread holds: 8j + laneCol + {0, 1}.
      for (int64_t j = 0; j < config.tileN / 8; ++j)
        for (int64_t e = 0; e < 2; ++e)
          bScales.push_back(loadScale(bScale, bScaling,
                                      add(laneCol, i32(8 * j + e)), kIndex, n));
    } else {
      // One scale for the tile's columns: tiles of 64 or 128 columns, or
      // a scale constant along the rows of B (wider tiles).
      bScales.push_back(loadScale(bScale, bScaling, tileCol, kIndex, n));
    }
  }
}

/// The product of the A and B scales of accumulator element `element`
/// (null when there are none). Element i is at row 8 * ((i / 2) % 2) of the
/// thread's pair and column 8 * (i / 4) + i % 2 of its own.
Value GemmBuilder::scaleFactor(ArrayRef<Value> aScales, ArrayRef<Value> bScales,
                               int64_t element) {
  Value factor;
  if (!aScales.empty())
    factor = aScales.size() == 1 ? aScales[0] : aScales[(element / 2) % 2];
  if (!bScales.empty()) {
    Value bValue = bScales.size() == 1
                       ? bScales[0]
                       : bScales[2 * (element / 4) + element % 2];
    factor = factor ? arith::MulFOp::create(b, loc, factor, bValue).getResult()
                    : bValue;
  }
  return factor;
}

GemmBuilder::StageState GemmBuilder::stageState(Value it) {
  Value stage = rem(it, config.stages);
  Value aBase = add(smemAddress, add(mul(stage, i32(config.tileM * kTileK)),
                                     mul(rowGroup, i32(kMmaM * kTileK))));
  Value bBase = add(smemAddress, add(i32(config.stages * config.tileM * kTileK),
                                     mul(stage, i32(config.tileN * kTileK))));
  return {stage, arith::AndIOp::create(b, loc, div(it, config.stages), i32(1)),
          descriptorLow(aBase), descriptorLow(bBase)};
}

void GemmBuilder::waitForStage(const StageState &state) {
  NVVM::MBarrierTryWaitParityOp::create(b, loc, fullBarrier(state.stage),
                                        state.parity, i32(kWaitTicks));
}

Value GemmBuilder::issueBlock(const StageState &state, Value acc,
                              bool zeroFirst, int64_t firstStep,
                              int64_t numSteps) {
  auto shape = NVVM::MMAShapeAttr::get(ctx, kMmaM, config.tileN, kMmaK);
  auto wgmmaType = [&](Type t) {
    return isa<Float8E4M3FNType>(t) ? NVVM::WGMMATypes::e4m3
                                    : NVVM::WGMMATypes::e5m2;
  };
  NVVM::WgmmaFenceAlignedOp::create(b, loc);
  for (int64_t step = firstStep; step < firstStep + numSteps; ++step) {
    // Advancing along K inside the swizzled row moves the start address:
    // the hardware applies the swizzle to the full address.
    Value descA = descriptor(add(state.lowA, i32(step * kMmaK >> 4)));
    Value descB = descriptor(add(state.lowB, i32(step * kMmaK >> 4)));
    auto scaleD = (zeroFirst && step == firstStep) ? NVVM::WGMMAScaleOut::zero
                                                   : NVVM::WGMMAScaleOut::one;
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, loc, accType, acc, descA, descB, shape, wgmmaType(aElement),
        wgmmaType(bElement), NVVM::WGMMATypes::f32, scaleD,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, NVVM::MMALayout::row,
        NVVM::MMALayout::col, nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b, loc);
  return acc;
}

void GemmBuilder::releaseStage(Value stage, int64_t arrivals) {
  // One arrival per consumer warp and consumer it stands for: this warp's
  // MMAs are done with the stage.
  auto first = scf::IfOp::create(b, loc, eq(lane, i32(0)));
  b.setInsertionPointToStart(&first.getThenRegion().front());
  NVVM::MBarrierArriveOp::create(b, loc, Type(), emptyBarrier(stage),
                                 arrivals == 1 ? Value() : i32(arrivals));
  b.setInsertionPointAfter(first);
}

void GemmBuilder::readSharedScales(Value stage, Value kIndex, Scales &scales) {
  auto read = [&](int64_t regionOffset, int64_t bytes, Value index,
                  int64_t width) -> SmallVector<Value> {
    Value offset = add(add(i32(regionOffset), mul(stage, i32(bytes))),
                       mul(index, i32(4)));
    Type type = width == 1 ? Type(b.getF32Type())
                           : Type(VectorType::get({width}, b.getF32Type()));
    Value value = LLVM::LoadOp::create(b, loc, type, sharedPtr(offset), 4 * width);
    if (width == 1)
      return {value};
    SmallVector<Value> elements;
    for (int64_t e = 0; e < width; ++e)
      elements.push_back(vector::ExtractOp::create(b, loc, value, e));
    return elements;
  };
  if (config.aScaleBytes) {
    // The scales of this thread's two rows.
    scales.a = read(config.aScaleOffset(), config.aScaleBytes, rowInTile, 1);
    scales.a.append(read(config.aScaleOffset(), config.aScaleBytes,
                         add(rowInTile, i32(8)), 1));
  }
  if (config.bScalePerTile) {
    // The tile's one scale, at its place in the copied 16 bytes (the same
    // address in every thread: a broadcast).
    Value scaleK = div(kIndex, bScaling.kBlock);
    scales.b = read(config.bScaleOffset(), config.bScaleStride(),
                    arith::AndIOp::create(b, loc, scaleK, i32(3)), 1);
  } else if (config.bScaleBytes) {
    // One scale per column this thread holds: 8j + colInTile + {0, 1}.
    scales.b.clear();
    for (int64_t j = 0; j < config.tileN / 8; ++j)
      scales.b.append(read(config.bScaleOffset(), config.bScaleStride(),
                           add(colInTile, i32(8 * j)), 2));
  }
}

GemmBuilder::Scales GemmBuilder::loadScales(Value kIndex) {
  Scales scales;
  loadBlockScales(kIndex, scales.a, scales.b, /*kBlockOnly=*/true);
  return scales;
}

void GemmBuilder::promote(Value acc, const Scales &scales,
                          MutableArrayRef<Value> sums) {
  // sums += scales * partial, in f32 FMAs (adds where the scales span K).
  for (int64_t i = 0, e = sums.size(); i < e; ++i) {
    Value partial = LLVM::ExtractValueOp::create(b, loc, acc, i);
    Value factor = scaleFactor(scales.a, scales.b, i);
    sums[i] =
        factor
            ? LLVM::FMAOp::create(b, loc, partial, factor, sums[i]).getResult()
            : arith::AddFOp::create(b, loc, partial, sums[i]).getResult();
  }
}

void GemmBuilder::buildConsumer() {
  NVVM::SetMaxRegisterOp::create(b, loc, config.consumerRegisters(),
                                 NVVM::SetMaxRegisterAction::increase);
  int64_t numValues = config.tileN / 2;
  accType = LLVM::LLVMStructType::getLiteral(
      ctx, SmallVector<Type>(numValues, b.getF32Type()));
  Value local = rem(thread, kWarpgroup);
  Value warp = div(local, kWarpSize);
  lane = rem(thread, kWarpSize);
  // Lane 0's warpgroup index, broadcast: ptxas then knows it is the same in
  // every lane and keeps the A descriptors in uniform registers.
  consumer = NVVM::ShflOp::create(
      b, loc, b.getI32Type(), i32(-1), sub(div(thread, kWarpgroup), i32(1)),
      i32(0), i32(0x1f),
      NVVM::ShflKindAttr::get(ctx, NVVM::ShflKind::idx), nullptr);
  groupRow = add(mul(warp, i32(16)), div(lane, 4));
  rowGroup = consumer;
  rowInTile = add(mul(consumer, i32(kMmaM)), groupRow);
  colInTile = mul(rem(lane, 4), i32(2));
  if (orderedTurns()) {
    // The last consumer gives consumer 0 the first issue turn.
    auto second =
        scf::IfOp::create(b, loc, eq(consumer, i32(config.consumers - 1)));
    b.setInsertionPointToStart(&second.getThenRegion().front());
    NVVM::BarrierArriveOp::create(b, loc, i32(kFirstTurnBarrier),
                                  i32(2 * kWarpgroup));
    b.setInsertionPointAfter(second);
  }
  // What setRowGroup(consumer) sets, its tile-invariant part above the
  // loop: computed in the loop, it changes the PTX of every GEMM.
  scf::ForOp tiles = buildTileLoop(i32(0));
  row0 = add(tileRow, rowInTile);
  row1 = add(row0, i32(8));
  laneCol = add(tileCol, colInTile);
  Value base = tiles.getRegionIterArgs()[0];

  SmallVector<Value> sums;
  Value end;
  if (promotion == 0)
    end = buildFastMainLoop(base, sums);
  else
    end = buildPromotedMainLoop(base, sums);
  buildEpilogue(sums);
  scf::YieldOp::create(b, loc, ValueRange{end});
  b.setInsertionPointAfter(tiles);
  if (config.splitTiles) {
    buildSplitTile(tiles.getResult(0), [&](Value part, Value it) {
      setRowGroup(part);
      SmallVector<Value> splitSums;
      buildPromotedMainLoop(it, splitSums, /*split=*/true);
      buildSplitEpilogue(splitSums);
    });
  }
  if (config.tmaStore) {
    // Shared memory must outlive the last stores' reads.
    auto last = scf::IfOp::create(b, loc, eq(rem(thread, kWarpgroup), i32(0)));
    b.setInsertionPointToStart(&last.getThenRegion().front());
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         nullptr);
    b.setInsertionPointAfter(last);
  }
}

void GemmBuilder::setRowGroup(Value group) {
  rowGroup = group;
  rowInTile = add(mul(group, i32(kMmaM)), groupRow);
  row0 = add(tileRow, rowInTile);
  row1 = add(row0, i32(8));
  laneCol = add(tileCol, colInTile);
}

void GemmBuilder::buildSplitEpilogue(ArrayRef<Value> sums) {
  int64_t numValues = sums.size();
  auto allConsumers = [&] {
    NVVM::BarrierOp::create(b, loc, Type(), i32(kSplitBarrier),
                            i32(config.consumers * kWarpgroup), nullptr,
                            Value());
  };
  // Value i of consumer w's thread t at word ((w - 1) * values + i) * 128 + t
  // of the stage buffers: consecutive threads, consecutive banks. Once all
  // consumers have passed the barrier, no MMA reads them any more, and no
  // load writes them: each was waited for, and the sub-tile is this CTA's
  // last task.
  Value local = rem(thread, kWarpgroup);
  auto slot = [&](Value owner, int64_t i) {
    Value word = add(mul(add(mul(sub(owner, i32(1)), i32(numValues)), i32(i)),
                         i32(kWarpgroup)),
                     local);
    return sharedPtr(mul(word, i32(4)));
  };
  allConsumers();
  auto others = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, consumer,
                            i32(0)));
  b.setInsertionPointToStart(&others.getThenRegion().front());
  for (int64_t i = 0; i < numValues; ++i)
    LLVM::StoreOp::create(b, loc, sums[i], slot(consumer, i), 4);
  b.setInsertionPointAfter(others);
  allConsumers();
  // Consumer 0 adds the others' sums in consumer order and stores the tile.
  auto first = scf::IfOp::create(b, loc, eq(consumer, i32(0)));
  b.setInsertionPointToStart(&first.getThenRegion().front());
  SmallVector<Value> total(sums);
  for (int64_t w = 1; w < config.consumers; ++w)
    for (int64_t i = 0; i < numValues; ++i)
      total[i] = arith::AddFOp::create(
          b, loc, total[i],
          LLVM::LoadOp::create(b, loc, b.getF32Type(), slot(i32(w), i), 4));
  buildEpilogue(total);
  b.setInsertionPointAfter(first);
}

/// One accumulator over all of K: each K-block's MMAs are queued behind the
/// previous block's, whose stage is released once they are done.
Value GemmBuilder::buildFastMainLoop(Value base, SmallVectorImpl<Value> &sums) {
  SmallVector<Value> init = {base, LLVM::ZeroOp::create(b, loc, accType)};
  auto loop = scf::ForOp::create(b, loc, i32(0), i32(numKBlocks), i32(1), init);
  b.setInsertionPointToStart(loop.getBody());
  Value it = loop.getRegionIterArgs()[0];
  StageState current = stageState(it);
  waitForStage(current);
  Value acc = issueBlock(current, loop.getRegionIterArgs()[1],
                         /*zeroFirst=*/false, 0, kTileK / kMmaK);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 1);
  auto previous =
      scf::IfOp::create(b, loc,
                        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                              loop.getInductionVar(), i32(0)));
  b.setInsertionPointToStart(&previous.getThenRegion().front());
  releaseStage(rem(sub(it, i32(1)), config.stages));
  b.setInsertionPointAfter(previous);
  scf::YieldOp::create(b, loc, ValueRange{add(it, i32(1)), acc});
  b.setInsertionPointAfter(loop);
  NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
  Value end = loop.getResult(0);
  releaseStage(rem(sub(end, i32(1)), config.stages));
  for (int64_t i = 0, e = config.tileN / 2; i < e; ++i)
    sums.push_back(LLVM::ExtractValueOp::create(b, loc, loop.getResult(1), i));
  return end;
}

/// Promotion: each group of K-steps (a K-block, or less for 1x32 and 1x64
/// scales) is accumulated alone, waited for and added with its scales. Two
/// or three consumer warpgroups share the tensor cores, so one's MMAs run
/// while another promotes. A few scales per block are loaded one block
/// ahead, so their L2 latency never stalls the promotion.
Value GemmBuilder::buildPromotedMainLoop(Value base,
                                         SmallVectorImpl<Value> &sums,
                                         bool split) {
  int64_t steps = std::min(promotion, kTileK) / kMmaK;
  bool singlePromotion = steps == kTileK / kMmaK;
  // A split sub-tile: consumer w of c takes K-blocks w, w + c, ... (none
  // where K has fewer blocks; its first scales are then never used).
  Value firstBlock = split ? consumer : i32(0);
  int64_t blockStep = split ? config.splitWays() : 1;
  Scales firstScales = loadScales(
      split ? mul(minU(consumer, i32(numKBlocks - 1)), i32(kTileK)) : i32(0));
  bool prefetch =
      singlePromotion && firstScales.a.size() + firstScales.b.size() <= 4;
  SmallVector<Value> init = {split ? add(base, consumer) : base};
  init.append(config.tileN / 2, f32(0.0));
  if (prefetch) {
    init.append(firstScales.a);
    init.append(firstScales.b);
  }
  auto loop = scf::ForOp::create(b, loc, firstBlock, i32(numKBlocks),
                                 i32(blockStep), init);
  keepRolled(loop);
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  Value it = loop.getRegionIterArgs()[0];
  auto carried = loop.getRegionIterArgs().drop_front();
  SmallVector<Value> state(carried.take_front(config.tileN / 2));
  StageState current = stageState(it);
  Value kStart = mul(kb, i32(kTileK));
  Scales nextScales;
  if (prefetch) {
    // Next block's scales (this block's again on the last one).
    Value nextK = minU(add(kb, i32(blockStep)), i32(numKBlocks - 1));
    nextScales = loadScales(mul(nextK, i32(kTileK)));
  }
  Value undef = LLVM::UndefOp::create(b, loc, accType);
  for (int64_t first = 0; first < kTileK / kMmaK; first += steps) {
    Scales scales;
    if (prefetch) {
      auto values = carried.drop_front(config.tileN / 2);
      scales.a.assign(values.begin(), values.begin() + firstScales.a.size());
      scales.b.assign(values.begin() + firstScales.a.size(), values.end());
    } else {
      scales = loadScales(add(kStart, i32(first * kMmaK)));
    }
    // The stage's data first, then the turn: a consumer that waits for its
    // turn has its operands ready when it comes.
    if (first == 0)
      waitForStage(current);
    // Issue turns alternate between the consumers, so that one's MMAs run
    // while the other promotes instead of both promoting at once.
    if (orderedTurns())
      NVVM::BarrierOp::create(b, loc, Type(),
                              add(consumer, i32(kFirstTurnBarrier)),
                              i32(2 * kWarpgroup), nullptr, Value());
    Value acc = issueBlock(current, undef, /*zeroFirst=*/true, first, steps);
    if (orderedTurns())
      NVVM::BarrierArriveOp::create(
          b, loc,
          add(rem(add(consumer, i32(1)), config.consumers),
              i32(kFirstTurnBarrier)),
          i32(2 * kWarpgroup));
    // Read while the MMAs run; the stage is released after the promotion.
    readSharedScales(current.stage, kStart, scales);
    NVVM::WgmmaWaitGroupSyncOp::create(b, loc, 0);
    promote(acc, scales, state);
  }
  // A sub-tile's stage is this consumer's alone: it arrives for all.
  releaseStage(current.stage, split ? config.consumers : 1);
  SmallVector<Value> yielded = {add(it, i32(blockStep))};
  yielded.append(state);
  yielded.append(nextScales.a);
  yielded.append(nextScales.b);
  scf::YieldOp::create(b, loc, yielded);
  b.setInsertionPointAfter(loop);
  sums.assign(loop.getResults().begin() + 1,
              loop.getResults().begin() + 1 + config.tileN / 2);
  return loop.getResult(0);
}

/// Applies the scales that span K (tensorwise, rowwise) and stores this
/// thread's elements of C, two adjacent columns at a time, skipping rows and
/// columns past the matrix.
void GemmBuilder::buildEpilogue(ArrayRef<Value> sums) {
  SmallVector<Value> aScales, bScales;
  loadBlockScales(i32(0), aScales, bScales, /*kBlockOnly=*/false);
  bool bf16 = resultElement.isBF16();
  Type elementType = bf16 ? Type(b.getBF16Type()) : Type(b.getF32Type());
  auto pairType = VectorType::get({2}, elementType);
  // Elements 4j + 2 half + {0, 1}: row `half` of the thread's pair, columns
  // 8j + laneCol + {0, 1}, with the epilogue's scales (A's by row, B's by
  // column) applied and rounded to the output type.
  auto pairAt = [&](int64_t j, int64_t half) {
    SmallVector<Value> pair;
    for (int64_t e = 0; e < 2; ++e) {
      Value value = sums[4 * j + 2 * half + e];
      if (!aScales.empty())
        value = arith::MulFOp::create(
            b, loc, value, aScales.size() == 1 ? aScales[0] : aScales[half]);
      if (!bScales.empty())
        value = arith::MulFOp::create(b, loc, value,
                                      bScales.size() == 1 ? bScales[0]
                                                          : bScales[2 * j + e]);
      if (bf16)
        value = arith::TruncFOp::create(b, loc, b.getBF16Type(), value);
      pair.push_back(value);
    }
    return vector::FromElementsOp::create(b, loc, pairType, pair).getResult();
  };
  if (config.tmaStore)
    return buildStoreThroughShared(pairAt);

  Value cGlobal = globalPtr(c);
  for (int64_t half = 0; half < 2; ++half) {
    Value row = half ? row1 : row0;
    auto rowInside = scf::IfOp::create(b, loc, ult(row, i32(m)));
    b.setInsertionPointToStart(&rowInside.getThenRegion().front());
    Value rowOffset = arith::MulIOp::create(
        b, loc, arith::ExtUIOp::create(b, loc, b.getI64Type(), row), i64(n));
    for (int64_t j = 0; j < config.tileN / 8; ++j) {
      Value col = add(laneCol, i32(8 * j));
      Value packed = pairAt(j, half);
      // N is even, so a pair is inside the matrix when its first column is.
      auto colInside = scf::IfOp::create(b, loc, ult(col, i32(n)));
      b.setInsertionPointToStart(&colInside.getThenRegion().front());
      Value offset = arith::AddIOp::create(
          b, loc, rowOffset,
          arith::ExtUIOp::create(b, loc, b.getI64Type(), col));
      Value ptr =
          LLVM::GEPOp::create(b, loc, LLVM::LLVMPointerType::get(ctx, 1),
                              elementType, cGlobal, ValueRange{offset});
      LLVM::StoreOp::create(b, loc, packed, ptr, bf16 ? 4 : 8);
      b.setInsertionPointAfter(colInside);
    }
    b.setInsertionPointAfter(rowInside);
  }
}

/// Each consumer stages its 64 rows of C in 128-byte-wide column chunks
/// (64 bf16 or 32 f32 columns) in a 128-byte-swizzled buffer (conflict-free
/// writes from the accumulator layout), and one of its threads stores the
/// chunk with TMA, which clips rows and columns past the matrix. The buffer
/// is rewritten once the previous store has read it.
void GemmBuilder::buildStoreThroughShared(
    function_ref<Value(int64_t, int64_t)> pairAt) {
  int64_t outBytes = resultElement.isBF16() ? 2 : 4;
  int64_t chunkCols = kSwizzleBytes / outBytes;
  Value local = rem(thread, kWarpgroup);
  Value leader = eq(local, i32(0));
  Value barrierId = add(consumer, i32(kFirstEpilogueBarrier));
  auto consumerBarrier = [&] {
    NVVM::BarrierOp::create(b, loc, Type(), barrierId, i32(kWarpgroup), nullptr,
                            Value());
  };
  int64_t bufferBase = config.epilogueOffset();
  Value buffer =
      add(i32(bufferBase), mul(consumer, i32(kMmaM * kSwizzleBytes)));
  Value rowInGroup = rem(rowInTile, kMmaM);
  for (int64_t chunk = 0; chunk < config.tileN / chunkCols; ++chunk) {
    // The previous store (of this tile or the last) has read the buffer.
    auto wait = scf::IfOp::create(b, loc, leader);
    b.setInsertionPointToStart(&wait.getThenRegion().front());
    NVVM::CpAsyncBulkWaitGroupOp::create(b, loc, b.getI32IntegerAttr(0),
                                         b.getUnitAttr());
    b.setInsertionPointAfter(wait);
    consumerBarrier();
    for (int64_t jj = 0; jj < chunkCols / 8; ++jj) {
      int64_t j = chunk * chunkCols / 8 + jj;
      for (int64_t half = 0; half < 2; ++half) {
        Value row = add(rowInGroup, i32(8 * half));
        Value colByte = mul(add(i32(8 * jj), colInTile), i32(outBytes));
        // 128-byte swizzle: the 16-byte chunk index XOR the row (mod 8).
        Value swizzled = arith::XOrIOp::create(
            b, loc, arith::ShRUIOp::create(b, loc, colByte, i32(4)),
            rem(row, 8));
        Value offset = add(add(buffer, mul(row, i32(kSwizzleBytes))),
                           add(arith::ShLIOp::create(b, loc, swizzled, i32(4)),
                               rem(colByte, 16)));
        LLVM::StoreOp::create(b, loc, pairAt(j, half), sharedPtr(offset),
                              2 * outBytes);
      }
    }
    // Generic-proxy writes become visible to the TMA (async proxy).
    NVVM::FenceProxyOp::create(
        b, loc, NVVM::ProxyKind::async_shared,
        NVVM::SharedSpaceAttr::get(ctx, NVVM::SharedSpace::shared_cta));
    consumerBarrier();
    auto store = scf::IfOp::create(b, loc, leader);
    b.setInsertionPointToStart(&store.getThenRegion().front());
    Value colCoord = add(tileCol, i32(chunk * chunkCols));
    Value rowCoord = add(tileRow, mul(rowGroup, i32(kMmaM)));
    NVVM::CpAsyncBulkTensorSharedCTAToGlobalOp::create(
        b, loc, cMap, sharedPtr(buffer), ValueRange{colCoord, rowCoord},
        Value(), NVVM::TMAStoreMode::TILE, Value());
    NVVM::CpAsyncBulkCommitGroupOp::create(b, loc);
    b.setInsertionPointAfter(store);
  }
}

FailureOr<gpu::GPUModuleOp> GemmBuilder::build(StringRef name, const Target &target) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  m = aType.getDimSize(0);
  k = aType.getDimSize(1);
  n = bType.getDimSize(0);
  numKBlocks = llvm::divideCeil(k, kTileK);
  aElement = aType.getElementType();
  bElement = bType.getElementType();
  resultElement = resultType.getElementType();
  // `fast` skips promotion only where no scale varies along K; otherwise it
  // is `promoted` (docs/Numerics.md).
  promotion = op.getPromotionInterval();
  if (ShapedType::isDynamic(promotion))
    promotion = op.getAccumulate() == Accumulate::fast ? 0 : kTileK;
  aScaling = describeScaling(op.getAScaling(), aScaleType,
                             op.getAScaleLayout(), target);
  bScaling = describeScaling(op.getBScaling(), bScaleType,
                             op.getBScaleLayout(), target);
  OpBuilder::InsertionGuard guard(b);
  auto ptrType = LLVM::LLVMPointerType::get(ctx);
  gpu::GPUFuncOp func = createKernel(
      b, loc, name, target,
      SmallVector<Type>(7 + config.tmaStore + bool(config.aScaleBytes) +
                            config.bScaleMapped() + bool(config.splitTiles),
                        ptrType),
      config.threads());
  // A fixed register count at entry (65536 / threads), without which
  // ptxas ignores setmaxnreg (warning C7508) whenever it allocates fewer.
  func->setAttr("nvvm.maxnreg",
               b.getI32IntegerAttr(config.entryRegisters()));
  // The dynamic shared memory, declared 1024-aligned for the swizzle.
  {
    OpBuilder::InsertionGuard moduleGuard(b);
    b.setInsertionPoint(func);
    LLVM::GlobalOp::create(b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                           /*isConstant=*/false, LLVM::Linkage::External,
                           "fp8_gemm_shared", Attribute(),
                           /*alignment=*/kSwizzleAtom, /*addrSpace=*/3);
  }

  StringRef aName = dtypeName(aElement), bName = dtypeName(bElement);
  auto mapParam = [&](StringRef mapName, StringRef tensor, int64_t rows,
                      int64_t cols, StringRef swizzle = "128B") {
    return b.getDictionaryAttr(
        {b.getNamedAttr("name", b.getStringAttr(mapName)),
         b.getNamedAttr("role", b.getStringAttr("tensormap")),
         b.getNamedAttr("tensor", b.getStringAttr(tensor)),
         b.getNamedAttr("box", b.getI64ArrayAttr({rows, cols})),
         b.getNamedAttr("swizzle", b.getStringAttr(swizzle))});
  };
  numTiles = config.tileCount(m, n);
  splitStart = numTiles - config.splitTiles;
  int64_t scaleBytes = aScaleType.getNumElements() * (aScaling.e8m0 ? 1 : 4) +
                       bScaleType.getNumElements() * (bScaling.e8m0 ? 1 : 4);
  int64_t resultBytes = resultElement.isBF16() ? 2 : 4;
  NamedAttribute matmul = b.getNamedAttr(
      "matmul",
      b.getDictionaryAttr(
          {b.getNamedAttr("m", b.getI64IntegerAttr(m)),
           b.getNamedAttr("n", b.getI64IntegerAttr(n)),
           b.getNamedAttr("k", b.getI64IntegerAttr(k)),
           b.getNamedAttr("contracting", b.getI64ArrayAttr({1, 1})),
           b.getNamedAttr("accumulate", b.getStringAttr(stringifyAccumulate(
                                            op.getAccumulate()))),
           b.getNamedAttr("a_scaling", manifestScaling(b, op.getAScaling())),
           b.getNamedAttr("b_scaling", manifestScaling(b, op.getBScaling())),
           b.getNamedAttr("a_scale_layout", b.getStringAttr(stringifyScaleLayout(
                                                op.getAScaleLayout()))),
           b.getNamedAttr("b_scale_layout", b.getStringAttr(stringifyScaleLayout(
                                                op.getBScaleLayout()))),
           b.getNamedAttr("out_dtype",
                          b.getStringAttr(dtypeName(resultElement))),
           b.getNamedAttr(
               "tile", b.getI64ArrayAttr({config.tileM, config.tileN, kTileK})),
           b.getNamedAttr("stages", b.getI64IntegerAttr(config.stages)),
           b.getNamedAttr("split_tiles",
                          b.getI64IntegerAttr(config.splitTiles))}));
  SmallVector<Attribute> params = {
      manifestParam(b, "a", "input", aName, {m, k}),
      manifestParam(b, "a_scale", "input",
                    dtypeName(aScaleType.getElementType()),
                    aScaleType.getShape()),
      manifestParam(b, "b", "input", bName, {n, k}),
      manifestParam(b, "b_scale", "input",
                    dtypeName(bScaleType.getElementType()),
                    bScaleType.getShape()),
      manifestParam(b, "c", "output", dtypeName(resultElement), {m, n}),
      mapParam("a_map", "a", config.tileM, kTileK),
      mapParam("b_map", "b", config.tileN, kTileK)};
  if (config.tmaStore)
    params.push_back(
        mapParam("c_map", "c", kMmaM, kSwizzleBytes / resultBytes));
  // One K-block's row of a transposed scale tensor per stage.
  if (config.aScaleBytes)
    params.push_back(mapParam("a_scale_map", "a_scale", 1, config.tileM, "none"));
  if (config.bScaleMapped())
    params.push_back(mapParam("b_scale_map", "b_scale", 1, config.tileN, "none"));
  // A split tile's 64 rows of A per stage.
  if (config.splitTiles)
    params.push_back(mapParam("a_split_map", "a", kMmaM, kTileK));

  setManifest(
      b, func, "fp8.scaled_matmul", {config.gridSize, 1, 1}, config.threads(),
      params, aName, op.getAScaling(), m * k + n * k + scaleBytes + m * n * resultBytes,
      {b.getNamedAttr("shared_bytes",
                      b.getI64IntegerAttr(config.sharedBytes())),
       b.getNamedAttr("flops", b.getI64IntegerAttr(2 * m * n * k)), matmul});

  Value a = func.getArgument(0);
  (void)a; // Read through its tensor map.
  aScale = globalPtr(func.getArgument(1));
  bScale = globalPtr(func.getArgument(3));
  c = func.getArgument(4);
  aMap = func.getArgument(5);
  bMap = func.getArgument(6);
  unsigned nextArgument = 7;
  if (config.tmaStore)
    cMap = func.getArgument(nextArgument++);
  if (config.aScaleBytes)
    aScaleMap = func.getArgument(nextArgument++);
  if (config.bScaleMapped())
    bScaleMap = func.getArgument(nextArgument++);
  if (config.splitTiles)
    aSplitMap = func.getArgument(nextArgument++);

  thread = toI32(gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x));
  firstTile = toI32(gpu::BlockIdOp::create(b, loc, gpu::Dimension::x));
  // Whole tiles take any grid size; the manifest's (one CTA per SM, or
  // one per task) also covers every sub-tile of the split tiles.
  tileStride = toI32(gpu::GridDimOp::create(b, loc, gpu::Dimension::x));

  // Shared memory base, aligned up to the swizzle atom.
  auto ptrShared = LLVM::LLVMPointerType::get(ctx, 3);
  Value raw = LLVM::AddressOfOp::create(b, loc, ptrShared, "fp8_gemm_shared");
  Value rawAddress =
      LLVM::PtrToIntOp::create(b, loc, b.getI32Type(), raw).getResult();
  Value padding = arith::AndIOp::create(b, loc, sub(i32(0), rawAddress),
                                        i32(kSwizzleAtom - 1));
  smemBase = LLVM::GEPOp::create(b, loc, ptrShared, b.getI8Type(), raw,
                                 ValueRange{padding});
  smemAddress = add(rawAddress, padding);

  // Thread 0 sets up the barriers and prefetches the tensor maps.
  auto setup = scf::IfOp::create(b, loc, eq(thread, i32(0)));
  b.setInsertionPointToStart(&setup.getThenRegion().front());
  for (int64_t s = 0; s < config.stages; ++s) {
    NVVM::MBarrierInitOp::create(b, loc, fullBarrier(i32(s)), i32(1), Value());
    NVVM::MBarrierInitOp::create(b, loc, emptyBarrier(i32(s)),
                                 i32(config.consumers * kWarpgroup / kWarpSize),
                                 Value());
  }
  for (Value map : {aMap, bMap, aScaleMap, bScaleMap, aSplitMap})
    if (map)
      NVVM::PrefetchOp::create(b, loc, nullptr, nullptr, map, Value(),
                             /*tensormap=*/true);
  b.setInsertionPointAfter(setup);
  gpu::BarrierOp::create(b, loc);

  auto role = scf::IfOp::create(b, loc, ult(thread, i32(kWarpgroup)),
                                /*withElseRegion=*/true);
  b.setInsertionPointToStart(&role.getThenRegion().front());
  buildProducer();
  b.setInsertionPointToStart(&role.getElseRegion().front());
  buildConsumer();
  b.setInsertionPointAfter(role);
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}

FailureOr<gpu::GPUModuleOp> fp8::buildGemmKernel(OpBuilder &builder,
                                                 ScaledMatmulOp op,
                                                 StringRef name,
                                                 const Target &target) {
  if (!target.hasGemmKernel())
    return op.emitOpError("convert-fp8-to-nvvm has a scaled_matmul kernel "
                          "for sm_90a only so far, not ")
           << target.getName();
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  if (aType.getRank() != 2 || !aType.hasStaticShape() ||
      !bType.hasStaticShape() ||
      !cast<ShapedType>(op.getAScale().getType()).hasStaticShape() ||
      !cast<ShapedType>(op.getBScale().getType()).hasStaticShape())
    return op.emitOpError("convert-fp8-to-nvvm needs static rank-2 operands "
                          "for a GEMM kernel");
  if (op.getContracting() != ArrayRef<int64_t>{1, 1})
    return op.emitOpError("wgmma needs both operands K-major (contracting = "
                          "[1, 1]); run fp8-legalize{chip=")
           << target.getName() << "} first";
  int64_t k = aType.getDimSize(1), n = bType.getDimSize(0);
  if (k % 16 != 0)
    return op.emitOpError("K = ")
           << k << " must be a multiple of 16: TMA needs 16-byte row strides";
  if (n % 8 != 0)
    return op.emitOpError("N = ") << n << " must be a multiple of 8";
  // The scales of one row (column) group must be constant over a CTA's
  // 128 rows (its columns) unless they are per row.
  for (auto [scaling, which] :
       {std::pair{op.getAScaling(), "a"}, std::pair{op.getBScaling(), "b"}}) {
    int64_t rowBlock = scaling.getTile()[0];
    if (!ShapedType::isDynamic(rowBlock) && rowBlock != 1 &&
        rowBlock % 128 != 0)
      return op.emitOpError()
             << which << "_scaling tile " << formatTile(scaling.getTile())
             << ": the GEMM kernel takes 1, a multiple of 128 or '*' rows "
                "per scale";
  }
  bool fast = op.getAccumulate() == Accumulate::fast &&
              ShapedType::isDynamic(op.getPromotionInterval());
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  GemmConfig config = chooseConfig(
      target, aType.getDimSize(0), n, fast, op.getPromotionInterval(),
      describeScaling(op.getAScaling(), aScaleType, op.getAScaleLayout(),
                      target),
      describeScaling(op.getBScaling(), bScaleType, op.getBScaleLayout(),
                      target));
  return GemmBuilder(builder, op.getLoc(), op, config).build(name, target);
}
