//===- Fragment.cpp - a consumer thread's part of the accumulator ---------===//
//
// The rows and columns of a consumer thread's elements, and the scales that
// go with them: per-row and per-column scales from global memory (either
// layout, L2 resident), and those that TMA brought into the stage with the
// operands, which every thread reads from shared memory while its MMAs run.
//
//===----------------------------------------------------------------------===//

#include "Fragment.h"

#include "../../Program/KernelUtils.h"

#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

ThreadFragment ThreadFragment::forGroup(KernelBuilder &b, Value group) const {
  ThreadFragment result = *this;
  result.rowGroup = group;
  result.rowInTile = b.add(b.mul(group, kConsumerRows), groupRow);
  return result;
}

ThreadFragment ThreadFragment::atTile(KernelBuilder &b, TileCoord tile) const {
  ThreadFragment result = *this;
  result.row0 = b.add(tile.row, rowInTile);
  result.row1 = b.add(result.row0, 8);
  result.laneCol = b.add(tile.col, colInTile);
  return result;
}

Value ThreadFragment::localThread(KernelBuilder &b) const {
  // groupRow = 16 * warp + lane / 4.
  return b.add(b.mul(b.divU(groupRow, 16), kWarpSize), lane);
}

Value ScaleReader::loadScale(Value scales, const OperandScaling &scaling,
                             Value row, Value kIndex, int64_t rows) {
  return loadOperandScale(b, scales, scaling, row, kIndex, rows);
}

FragmentScales ScaleReader::load(Value kIndex, const ThreadFragment &fragment,
                                 TileCoord tile, bool kBlockOnly) {
  // Where a scale varies along K, every K-block's partial sum takes both
  // scales at once (docs/Numerics.md's term, which a scale that spans K
  // applied later in the epilogue would break: P * sa can overflow where sb
  // brings the result back); where both span K, the epilogue applies them.
  const OperandScaling &aScaling = problem.aScaling;
  const OperandScaling &bScaling = problem.bScaling;
  bool perBlock = !aScaling.spansK() || !bScaling.spansK();
  FragmentScales scales;
  if (problem.unscaled || kBlockOnly != perBlock)
    return scales;
  // Scales that TMA brings with the tile are read by readFromStage.
  if (!(kBlockOnly && config.aScaleBytes)) {
    Value aScales = groupScales(b, args.aScale, aScaling, tile.aScaleBase);
    scales.a.push_back(
        loadScale(aScales, aScaling, fragment.row0, kIndex, problem.m));
    if (aScaling.rowBlock == 1)
      scales.a.push_back(
          loadScale(aScales, aScaling, fragment.row1, kIndex, problem.m));
  }
  if (!(kBlockOnly && config.bScaleBytes)) {
    Value bScales = groupScales(b, args.bScale, bScaling, tile.bScaleBase);
    if (kBlockOnly && straddlesBScales()) {
      // A tile that straddles two of B's row blocks: the scales of its first
      // and last columns' blocks (clamped to B's last row: columns past N
      // are never stored), which readFromStage spreads over the columns. Two
      // loads instead of one per column, few enough to be loaded a block
      // ahead.
      scales.b.push_back(
          loadScale(bScales, bScaling, tile.col, kIndex, problem.n));
      scales.b.push_back(loadScale(bScales, bScaling,
                                   b.add(tile.col, config.tileN - 1), kIndex,
                                   problem.n));
    } else if (bScaling.rowBlock == 1 || config.bScalePerColumn) {
      // One scale per column this thread holds: 8j + laneCol + {0, 1}
      // (also the epilogue's, where the tile straddles two of B's row
      // blocks).
      for (int64_t j = 0; j < config.tileN / 8; ++j)
        for (int64_t e = 0; e < 2; ++e)
          scales.b.push_back(loadScale(bScales, bScaling,
                                       b.add(fragment.laneCol, 8 * j + e),
                                       kIndex, problem.n));
    } else {
      // One scale for the tile's columns: tiles of 64 or 128 columns, or
      // a scale constant along the rows of B (wider tiles).
      scales.b.push_back(
          loadScale(bScales, bScaling, tile.col, kIndex, problem.n));
    }
  }
  return scales;
}

FragmentScales ScaleReader::loadBlockScales(Value kIndex,
                                            const ThreadFragment &fragment,
                                            TileCoord tile) {
  return load(kIndex, fragment, tile, /*kBlockOnly=*/true);
}

FragmentScales ScaleReader::loadEpilogueScales(const ThreadFragment &fragment,
                                               TileCoord tile) {
  return load(b.i32(0), fragment, tile, /*kBlockOnly=*/false);
}

SmallVector<Value> ScaleReader::readStage(Value stage, int64_t regionOffset,
                                          int64_t bytes, Value index,
                                          int64_t width) {
  Value indexOffset = b.mul(index, 4);
  Value stageOffset = b.add(b.i32(regionOffset), b.mul(stage, bytes));
  Value offset = b.add(stageOffset, indexOffset);
  Type type = width == 1 ? Type(b.getF32Type())
                         : Type(VectorType::get({width}, b.getF32Type()));
  Value value = LLVM::LoadOp::create(b, type, smem.ptr(b, offset), 4 * width);
  if (width == 1)
    return {value};
  SmallVector<Value> elements;
  for (int64_t e = 0; e < width; ++e)
    elements.push_back(vector::ExtractOp::create(b, value, e));
  return elements;
}

void ScaleReader::readFromStage(Value stage, Value kIndex,
                                const ThreadFragment &fragment, TileCoord tile,
                                FragmentScales &scales) {
  if (straddlesBScales() && !scales.b.empty()) {
    // The straddled blocks' two scales, one per column again (so that the
    // promotion multiplies as it did with a load per column): column
    // 8j + c + e (c < 8) lies in the second block where the tile's column
    // 8j is past the first block's end, the same in every thread.
    assert(scales.b.size() == 2 && "a straddling tile loads two B scales");
    Value first = scales.b[0], second = scales.b[1];
    int64_t rowBlock = problem.bScaling.rowBlock;
    Value inBlock = b.remU(tile.col, rowBlock);
    scales.b.clear();
    for (int64_t j = 0; j < config.tileN / 8; ++j) {
      Value past = b.ugt(b.add(inBlock, 8 * j), rowBlock - 1);
      for (int64_t e = 0; e < 2; ++e)
        scales.b.push_back(arith::SelectOp::create(b, past, second, first));
    }
  }
  if (config.aScaleBytes) {
    // The scales of this thread's two rows, behind the rows the box brings
    // before the tile's first (HopperPipeline::buildTileLoads).
    Value row = fragment.rowInTile;
    if (config.aScaleSlack) {
      Value tileRow = b.sub(fragment.row0, fragment.rowInTile);
      row = b.add(row, b.andI(tileRow, config.aScaleSlack - 1));
    }
    scales.a =
        readStage(stage, config.aScaleOffset(), config.aScaleStride(), row, 1);
    scales.a.append(readStage(stage, config.aScaleOffset(),
                              config.aScaleStride(), b.add(row, 8), 1));
  }
  if (config.bScalePerTile) {
    // The tile's one scale, at its place in the copied 16 bytes (the same
    // address in every thread: a broadcast).
    Value scaleK = b.divU(kIndex, problem.bScaling.kBlock);
    scales.b = readStage(stage, config.bScaleOffset(), config.bScaleStride(),
                         b.andI(scaleK, 3), 1);
  } else if (config.bScaleBytes) {
    // One scale per column this thread holds: 8j + colInTile + {0, 1}.
    scales.b.clear();
    for (int64_t j = 0; j < config.tileN / 8; ++j)
      scales.b.append(readStage(stage, config.bScaleOffset(),
                                config.bScaleStride(),
                                b.add(fragment.colInTile, 8 * j), 2));
  }
}
