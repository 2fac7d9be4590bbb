//===- Tcgen05Epilogue.cpp - the sm_100a GEMM's epilogue warps ------------===//
//
// tcgen05.ld is warp-collective (.sync.aligned): every lane loads, rows
// past M included, and only the stores are masked. A 32x32b load gives
// lane l of the warp row 32 q + l of the accumulator, where q = warp % 4
// is the only lane quarter the warp may access. Each thread waits for its
// loads (tcgen05.wait::ld) and fences them before its arrival frees the
// accumulator: the barrier counts every epilogue thread.
//
// Numerics (docs/Numerics.md): promoted, C += fl32(sa * sb) * P per
// 128-deep K-block, an FMA as on sm_90a; scales constant along K multiply
// the tile's sum once, as fl32(sa * sb) * sum. MXFP8's scales are applied
// by the MMA itself.
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Epilogue.h"

#include "../KernelUtils.h"
#include "Fragment.h"
#include "LoopHints.h"
#include "ScaledTerm.h"
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
  Value group = b.divU(b.sub(warp, Tcgen05GemmConfig::kFirstEpilogueWarp), 4);
  return {quarter, b.add(b.mul(quarter, 32), lane),
          b.mul(group, config.groupColumns())};
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
  NVVM::MBarrierArriveOp::create(b, Type(), pipeline.accEmptyBarrier(acc.slot),
                                 Value());
}

SmallVector<Value> Tcgen05Epilogue::loadColumns(Value address, int64_t column) {
  Value pointer = LLVM::IntToPtrOp::create(
      b, b.ptrType(NVVM::NVVMMemorySpace::Tensor), b.add(address, column));
  auto type = VectorType::get({kLoad}, b.getI32Type());
  Value loaded = NVVM::Tcgen05LdOp::create(b, type, /*pack=*/false,
                                           NVVM::Tcgen05LdStShape::SHAPE_32X32B,
                                           pointer, Value());
  NVVM::Tcgen05WaitOp::create(b, NVVM::Tcgen05WaitKind::LOAD);
  SmallVector<Value> values;
  for (int64_t i = 0; i < kLoad; ++i)
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

Value Tcgen05Epilogue::buildTile(Value tmemBase, const EpilogueThread &thread,
                                 TileCoord tile, Value counter) {
  Value row = b.add(tile.row, thread.rowInTile);
  Value firstCol = b.add(tile.col, thread.colInTile);
  Value rowOffset = b.mul(b.extUI64(row), problem.n);
  int64_t chunks = config.groupColumns() / kLoad;
  auto storeRow = [&](int64_t chunk, ArrayRef<Value> values) {
    auto inside = scf::IfOp::create(b, b.ult(row, problem.m));
    b.setInsertionPointToStart(&inside.getThenRegion().front());
    storeColumns(rowOffset, b.add(firstCol, chunk * kLoad), values);
    b.setInsertionPointAfter(inside);
  };

  if (!config.promoted()) {
    Value address = acquire(tmemBase, thread, counter);
    // Scales constant along K (none for MXFP8, whose MMA applied them).
    Value aScale;
    if (!config.blockScaled())
      aScale = loadOperandScale(b, args.aScale, problem.aScaling, row, b.i32(0),
                                problem.m);
    for (int64_t chunk = 0; chunk < chunks; ++chunk) {
      SmallVector<Value> values = loadColumns(address, chunk * kLoad);
      if (chunk == chunks - 1)
        release(counter);
      if (aScale) {
        SmallVector<Value> bScale =
            bScales(b.add(firstCol, chunk * kLoad), b.i32(0));
        for (int64_t i = 0; i < kLoad; ++i)
          values[i] = scaledTerm(b, values[i], aScale,
                                 bScale[bScale.size() == 1 ? 0 : i]);
      }
      storeRow(chunk, values);
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
    SmallVector<Value> partial = loadColumns(address, chunk * kLoad);
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
  for (int64_t chunk = 0; chunk < chunks; ++chunk)
    storeRow(chunk,
             SmallVector<Value>(results.begin() + 1 + chunk * kLoad,
                                results.begin() + 1 + (chunk + 1) * kLoad));
  return loop.getResult(0);
}
