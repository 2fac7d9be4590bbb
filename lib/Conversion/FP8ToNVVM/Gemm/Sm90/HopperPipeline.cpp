//===- HopperPipeline.cpp - TMA loads into an mbarrier ring ---------------===//
//
// One producer thread waits for a free stage, arms its full barrier with the
// bytes to come and issues the TMA loads of a 128-deep K-block of A and B
// (128-byte swizzle) and of the scales that come with the stage; the
// consumers wait on the full barrier and release the stage on the empty
// one. The ring runs across tiles, so the producer runs ahead into the next
// tile while the consumers store this one.
//
//===----------------------------------------------------------------------===//

#include "HopperPipeline.h"

#include "../../Program/KernelUtils.h"
#include "../Common/ScaleLoads.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// mbarrier.try_wait suspend-time hint (ns).
static constexpr int64_t kWaitTicks = 0x989680;
Value HopperPipeline::fullBarrier(Value stage) {
  return smem.ptr(b, b.add(b.i32(config.barrierOffset()), b.mul(stage, 8)));
}

Value HopperPipeline::emptyBarrier(Value stage) {
  int64_t base = config.barrierOffset() + 8 * config.stages;
  return smem.ptr(b, b.add(b.i32(base), b.mul(stage, 8)));
}

Value HopperPipeline::clusterPtr(Value offset) {
  return b.castTo(NVVM::NVVMMemorySpace::SharedCluster, smem.ptr(b, offset));
}

void HopperPipeline::buildInit(Value thread) {
  auto setup = scf::IfOp::create(b, b.eq(thread, b.i32(0)));
  b.setInsertionPointToStart(&setup.getThenRegion().front());
  for (int64_t s = 0; s < config.stages; ++s) {
    NVVM::MBarrierInitOp::create(b, fullBarrier(b.i32(s)), b.i32(1), Value());
    NVVM::MBarrierInitOp::create(
        b, emptyBarrier(b.i32(s)),
        b.i32(config.consumers * kWarpgroup / kWarpSize), Value());
  }
  for (Value map :
       {args.aMap, args.bMap, args.aScaleMap, args.bScaleMap, args.aSplitMap})
    if (map)
      NVVM::PrefetchOp::create(b, nullptr, nullptr, map, Value(),
                               /*tensormap=*/true);
  b.setInsertionPointAfter(setup);
  gpu::BarrierOp::create(b);
}

Value HopperPipeline::aTileOffset(Value stage) {
  return b.mul(stage, config.tileM * kTileK);
}

Value HopperPipeline::aRowsOffset(Value group) {
  return b.mul(group, kConsumerRows * kTileK);
}

Value HopperPipeline::bTileOffset(Value stage) {
  return b.add(b.i32(config.bTileOffset()),
               b.mul(stage, config.tileN * kTileK));
}

void HopperPipeline::loadTile(Value offset, Value map, ValueRange coords,
                              Value barrier) {
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, clusterPtr(offset), map, coords, barrier, ValueRange{}, Value(),
      Value(), NVVM::TMALoadMode::TILE, false, nullptr, Value());
}

void HopperPipeline::loadOperand(const WgmmaOperandLayout &layout, Value offset,
                                 Value map, Value kCoord, Value first,
                                 int64_t rows, Value barrier) {
  // Coordinates innermost first. K-major: (k, row), one box; rows past M or
  // N read as zeros.
  if (!layout.mnMajor)
    return loadTile(offset, map, {kCoord, first}, barrier);
  // MN-major (stored K x M): one box of 64 elements of M (N) by the
  // K-block's rows per atom, the atoms a K-block of rows apart.
  int64_t atomBytes = layout.kBlockElements() * kSwizzleBytes;
  for (int64_t atom = 0; atom < rows / layout.boxInner(); ++atom)
    loadTile(b.add(offset, atom * atomBytes), map,
             {b.add(first, atom * layout.boxInner()), kCoord}, barrier);
}

Value HopperPipeline::buildTileLoads(TileCoord tile, Value part,
                                     Value counter) {
  auto loop = scf::ForOp::create(b, b.i32(0), b.i32(problem.numKBlocks),
                                 b.i32(1), ValueRange{counter});
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  // Stages are used round-robin across tiles: `it` counts K-blocks loaded.
  Value it = loop.getRegionIterArgs()[0];
  Value stage = stageOf(it);
  Value round = b.divU(it, config.stages);
  // A fresh barrier counts as having completed the phase of parity 1, so the
  // first round of waits on "empty" passes at once.
  Value parity = b.xorI(b.andI(round, 1), 1);
  NVVM::MBarrierTryWaitParityOp::create(b, emptyBarrier(stage), parity,
                                        b.i32(kWaitTicks));
  Value full = fullBarrier(stage);
  NVVM::MBarrierArriveExpectTxOp::create(
      b, Type(), full,
      b.i32(part ? config.splitStageBytes() : config.stageBytes()),
      NVVM::MemScopeKind::CTA, false, Value());
  Value kCoord = b.mul(kb, aOperandLayout(problem).kBlockElements());
  Value aOffset = aTileOffset(stage);
  Value bOffset = bTileOffset(stage);
  // A sub-tile's 64 rows of A go where its consumer would find them in a
  // whole tile.
  Value aRow = tile.row;
  if (part) {
    aRow = b.add(tile.row, b.mul(part, kConsumerRows));
    aOffset = b.add(aOffset, aRowsOffset(part));
  }
  loadOperand(aOperandLayout(problem), aOffset,
              part ? args.aSplitMap : args.aMap, kCoord, aRow,
              part ? kConsumerRows : config.tileM, full);
  loadOperand(bOperandLayout(problem), bOffset, args.bMap, kCoord,
              tile.bFirstRow(), config.tileN, full);
  // Per-row scales in the col_major_tma layout: the K-block's row of the
  // transposed scale tensor, at the tile's first row (or column).
  auto loadScales = [&](const OperandScaling &scaling, Value map,
                        int64_t regionOffset, int64_t bytes, Value first) {
    Value scaleK = b.divU(kCoord, scaling.kBlock);
    Value offset = b.add(b.i32(regionOffset), b.mul(stage, bytes));
    loadTile(offset, map, {first, scaleK}, full);
  };
  // A box starts at a 16-byte-aligned row: a grouped GEMM's tile at the
  // one at or before its first row (its slack covers the difference).
  if (config.aScaleBytes)
    loadScales(problem.aScaling, args.aScaleMap, config.aScaleOffset(),
               config.aScaleStride(),
               config.aScaleSlack ? b.andI(tile.row, ~(config.aScaleSlack - 1))
                                  : tile.row);
  if (config.bScaleMapped())
    loadScales(problem.bScaling, args.bScaleMap, config.bScaleOffset(),
               config.bScaleStride(), tile.col);
  if (config.bScalePerTile) {
    // The 16 bytes of the tile's scale row that hold this K-block's scale.
    const OperandScaling &scaling = problem.bScaling;
    Value scaleK = b.divU(kCoord, scaling.kBlock);
    Value alignedK = b.andI(scaleK, ~3);
    Value scaleRow = b.divU(tile.col, scaling.rowBlock);
    Value index = b.add(b.mul(scaleRow, scaling.stride), alignedK);
    Value source =
        b.gep(NVVM::NVVMMemorySpace::Global, b.getF32Type(),
              groupScales(b, args.bScale, scaling, tile.bScaleBase), index);
    Value offset = b.add(b.i32(config.bScaleOffset()),
                         b.mul(stage, config.bScaleStride()));
    NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
        b, clusterPtr(offset), source, full, b.i32(config.bScaleBytes), Value(),
        Value());
  }
  scf::YieldOp::create(b, ValueRange{b.add(it, 1)});
  b.setInsertionPointAfter(loop);
  return loop.getResult(0);
}

Value HopperPipeline::stageOf(Value counter) {
  return b.remU(counter, config.stages);
}

Value HopperPipeline::fullParity(Value counter) {
  return b.andI(b.divU(counter, config.stages), 1);
}

void HopperPipeline::waitFull(Value stage, Value parity) {
  NVVM::MBarrierTryWaitParityOp::create(b, fullBarrier(stage), parity,
                                        b.i32(kWaitTicks));
}

void HopperPipeline::release(Value stage, Value lane, int64_t arrivals) {
  // One arrival per consumer warp and consumer it stands for: this warp's
  // MMAs are done with the stage.
  auto first = scf::IfOp::create(b, b.eq(lane, 0));
  b.setInsertionPointToStart(&first.getThenRegion().front());
  NVVM::MBarrierArriveOp::create(b, Type(), emptyBarrier(stage),
                                 arrivals == 1 ? Value() : b.i32(arrivals));
  b.setInsertionPointAfter(first);
}
