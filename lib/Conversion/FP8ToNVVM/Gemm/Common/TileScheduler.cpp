//===- TileScheduler.cpp - which tiles of C a persistent CTA takes --------===//
//
// Persistent CTAs, one per SM: CTA i takes whole tiles i, i + grid, ... in a
// grouped raster order that keeps the B tiles of CTAs running together in
// L2, then at most one sub-tile of a split tile. Dynamic scheduling through
// a global counter was 2-6% slower on every shape
// (docs/gpu/gemm-sm90a.md).
//
//===----------------------------------------------------------------------===//

#include "TileScheduler.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// M tiles that consecutive CTAs walk before moving along N (L2 reuse of B).
static constexpr int64_t kRasterGroup = 8;

TileScheduler::TileScheduler(KernelBuilder &b, TileShape shape, int64_t m,
                             int64_t n)
    : b(b), shape(shape), m(m), n(n),
      numTiles(llvm::divideCeil(m, shape.tileM) *
               llvm::divideCeil(n, shape.tileN)),
      splitStart(numTiles - shape.splitTiles) {
  firstTile = b.toI32(gpu::BlockIdOp::create(b, gpu::Dimension::x));
  // Whole tiles take any grid size; the manifest's (one CTA per SM, or
  // one per task) also covers every sub-tile of the split tiles.
  tileStride = b.toI32(gpu::GridDimOp::create(b, gpu::Dimension::x));
  if (shape.ctasPerTile > 1) {
    firstTile = b.divU(firstTile, shape.ctasPerTile);
    tileStride = b.divU(tileStride, shape.ctasPerTile);
  }
}

std::pair<Value, Value> gemm::rasterTileIndex(KernelBuilder &b, Value tile,
                                              Value tilesM, int64_t tilesN) {
  int64_t groupTiles = kRasterGroup * tilesN;
  Value group = b.divU(tile, groupTiles);
  Value firstM = b.mul(group, kRasterGroup);
  Value groupRows = b.minU(b.sub(tilesM, firstM), b.i32(kRasterGroup));
  Value inGroup = b.remU(tile, groupTiles);
  return {b.add(firstM, b.remU(inGroup, groupRows)),
          b.divU(inGroup, groupRows)};
}

TileCoord TileScheduler::tileAt(Value tile) {
  int64_t tilesM = llvm::divideCeil(m, shape.tileM);
  int64_t tilesN = llvm::divideCeil(n, shape.tileN);
  auto [tileMIndex, tileNIndex] =
      rasterTileIndex(b, tile, b.i32(tilesM), tilesN);
  Value row = b.mul(tileMIndex, shape.tileM);
  Value col = b.mul(tileNIndex, shape.tileN);
  return {row, col};
}

Value TileScheduler::buildTileLoop(
    Value counter, function_ref<Value(TileCoord tile, Value counter)> body) {
  return buildTileLoop(ValueRange{counter},
                       [&](TileCoord tile, ValueRange counters) {
                         return SmallVector<Value>{body(tile, counters[0])};
                       })[0];
}

SmallVector<Value> TileScheduler::buildTileLoop(
    ValueRange counters,
    function_ref<SmallVector<Value>(TileCoord tile, ValueRange counters)>
        body) {
  // Persistent CTAs: CTA i takes tiles i, i + grid, ...; the producer runs
  // ahead into the next tile while the consumers store this one.
  auto tiles =
      scf::ForOp::create(b, firstTile, b.i32(splitStart), tileStride, counters);
  b.setInsertionPointToStart(tiles.getBody());
  TileCoord tile = tileAt(tiles.getInductionVar());
  SmallVector<Value> next = body(tile, tiles.getRegionIterArgs());
  scf::YieldOp::create(b, next);
  b.setInsertionPointAfter(tiles);
  return SmallVector<Value>(tiles.getResults());
}

void TileScheduler::buildSplitTile(
    Value counter,
    function_ref<void(TileCoord tile, Value part, Value counter)> body) {
  // The sub-tiles come after every whole tile: CTA i takes sub-tile i, so
  // the grid (the manifest's) must cover them all, and the three CTAs of a
  // tile run side by side and share its B tile in L2. One sub-tile per CTA
  // at most: the sums exchange in the stage buffers, which a next task's
  // loads would overwrite.
  int64_t ways = shape.splitWays;
  auto has =
      scf::IfOp::create(b, b.ult(firstTile, b.i32(ways * shape.splitTiles)));
  b.setInsertionPointToStart(&has.getThenRegion().front());
  TileCoord tile = tileAt(b.add(b.i32(splitStart), b.divU(firstTile, ways)));
  Value part = b.remU(firstTile, ways);
  // A sub-tile wholly past M (of a tile on the last rows) has no work.
  Value partRow = b.add(tile.row, b.mul(part, shape.tileM / shape.splitWays));
  auto inside = scf::IfOp::create(b, b.ult(partRow, m));
  b.setInsertionPointToStart(&inside.getThenRegion().front());
  body(tile, part, counter);
  b.setInsertionPointAfter(has);
}
