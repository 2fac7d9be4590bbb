//===- GroupedTileScheduler.cpp - a grouped GEMM's tiles ------------------===//

#include "GroupedTileScheduler.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

GroupedTileScheduler::GroupedTileScheduler(KernelBuilder &b, TileShape shape,
                                           const GemmProblem &problem,
                                           Value groupRows)
    : b(b), shape(shape), problem(problem), groupRows(groupRows) {
  firstTile = b.toI32(gpu::BlockIdOp::create(b, gpu::Dimension::x));
  tileStride = b.toI32(gpu::GridDimOp::create(b, gpu::Dimension::x));
}

std::pair<Value, Value> gemm::loadGroupBounds(KernelBuilder &b,
                                              const GemmProblem &problem,
                                              Value groupRows, Value group) {
  auto load = [&](Value index) {
    Value ptr =
        b.gep(NVVM::NVVMMemorySpace::Global, b.getI32Type(), groupRows, index);
    return LLVM::LoadOp::create(b, b.getI32Type(), ptr, 4, false, false,
                                /*isInvariant=*/true)
        .getResult();
  };
  // Signed clamps: group_rows is data, and a negative or too large entry
  // must not send a tile outside A or C.
  auto clamp = [&](Value v, Value lo, Value hi) {
    return arith::MinSIOp::create(b, arith::MaxSIOp::create(b, v, lo), hi)
        .getResult();
  };
  Value rows = load(group);
  if (problem.groups.masked) {
    Value start = b.mul(group, problem.groups.capacity);
    Value count = clamp(rows, b.i32(0), b.i32(problem.groups.capacity));
    return {start, b.add(start, count)};
  }
  // Contiguous: from the previous group's end (0 for the first).
  Value previous = b.sub(arith::MaxSIOp::create(b, group, b.i32(1)), 1);
  Value start =
      arith::SelectOp::create(b, b.eq(group, 0), b.i32(0), load(previous));
  start = clamp(start, b.i32(0), b.i32(problem.m));
  return {start, clamp(rows, start, b.i32(problem.m))};
}

std::pair<Value, Value> GroupedTileScheduler::tilesOf(Value group) {
  auto [start, end] = loadGroupBounds(b, problem, groupRows, group);
  Value rowTiles =
      b.divU(b.add(b.sub(end, start), shape.tileM - 1), shape.tileM);
  return {b.mul(rowTiles, llvm::divideCeil(problem.n, shape.tileN)), rowTiles};
}

Value GroupedTileScheduler::buildTileLoop(Value counter, TileLoopBody body) {
  Type i32 = b.getI32Type();
  int64_t groups = problem.groups.count;
  // State: the tile, its group, the tiles of the groups before it, the
  // counter.
  SmallVector<Value> init = {firstTile, b.i32(0), b.i32(0), counter};
  SmallVector<Type> types(4, i32);
  auto loop = scf::WhileOp::create(b, types, init);
  Block *before = b.createBlock(&loop.getBefore(), {}, types,
                                SmallVector<Location>(4, b.getLoc()));
  {
    // Walk forward to the group that holds the tile: past the groups whose
    // tiles end at or before it (an empty group has none).
    Value tile = before->getArgument(0);
    auto walk = scf::WhileOp::create(
        b, TypeRange{i32, i32, i32},
        ValueRange{before->getArgument(1), before->getArgument(2)});
    Block *test = b.createBlock(&walk.getBefore(), {}, {i32, i32},
                                {b.getLoc(), b.getLoc()});
    Value group = test->getArgument(0), passed = test->getArgument(1);
    // The last group's bounds stand in once the walk is past it; the
    // comparison with G ends the walk there.
    Value inRange = b.ult(group, groups);
    Value clamped = b.minU(group, b.i32(groups - 1));
    Value end = b.add(passed, tilesOf(clamped).first);
    Value pastIt = b.andI(inRange, b.cmp(arith::CmpIPredicate::sge, tile, end));
    scf::ConditionOp::create(b, pastIt, ValueRange{group, passed, end});
    Block *step = b.createBlock(&walk.getAfter(), {}, {i32, i32, i32},
                                {b.getLoc(), b.getLoc(), b.getLoc()});
    scf::YieldOp::create(
        b, ValueRange{b.add(step->getArgument(0), 1), step->getArgument(2)});
    b.setInsertionPointAfter(walk);
    // Past the last group: this CTA has no tile left.
    Value found = walk.getResult(0);
    scf::ConditionOp::create(
        b, b.ult(found, groups),
        ValueRange{tile, found, walk.getResult(1), before->getArgument(3)});
  }
  Block *after = b.createBlock(&loop.getAfter(), {}, types,
                               SmallVector<Location>(4, b.getLoc()));
  {
    Value tile = after->getArgument(0), group = after->getArgument(1);
    Value tilesBefore = after->getArgument(2);
    auto [start, end] = loadGroupBounds(b, problem, groupRows, group);
    Value rowTiles = tilesOf(group).second;
    // The plain GEMM's raster order within the group.
    Value local = b.sub(tile, tilesBefore);
    auto [rowTile, colTile] = rasterTileIndex(
        b, local, rowTiles, llvm::divideCeil(problem.n, shape.tileN));
    TileCoord coord;
    coord.row = b.add(start, b.mul(rowTile, shape.tileM));
    coord.col = b.mul(colTile, shape.tileN);
    coord.rowEnd = end;
    coord.bRow = b.add(b.mul(group, problem.n), coord.col);
    coord.bScaleBase = b.mul(group, problem.groups.bScalesPerGroup);
    if (problem.groups.aScalesPerGroup)
      coord.aScaleBase = b.mul(group, problem.groups.aScalesPerGroup);
    Value next = body(coord, after->getArgument(3));
    scf::YieldOp::create(
        b, ValueRange{b.add(tile, tileStride), group, tilesBefore, next});
  }
  b.setInsertionPointAfter(loop);
  return loop.getResult(3);
}
