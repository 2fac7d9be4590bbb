//===- TileScheduler.h - the tiles a persistent CTA takes -------*- C++ -*-===//
//
// The GEMM's persistent CTAs walk the tiles of C in a grouped raster order,
// then the sub-tiles of a split last round (TileShape::splitTiles; sm_90a
// only). The scheduler builds those loops and hands each body the tile's
// coordinates; it knows nothing of the MMA, so that both chips' kernels use
// it.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TILESCHEDULER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TILESCHEDULER_H

#include "../../Program/KernelBuilder.h"
#include "TileShape.h"

#include <utility>

namespace mlir::fp8::kernels::gemm {

/// The first row and column of C of one tile (i32).
struct TileCoord {
  Value row, col;
  /// A grouped GEMM's tile (null otherwise): the first row past its group
  /// (its rows at or past it are the next group's), B's row of the tile's
  /// first column in B's (groups * n) x k view, and the index of the
  /// group's first B scale; in the masked layout with one A scale row per
  /// group (`*` rows), the index of the group's first A scale.
  Value rowEnd, bRow, bScaleBase, aScaleBase;

  /// B's row of the tile's first column, grouped or not.
  Value bFirstRow() const { return bRow ? bRow : col; }
};

/// Builds the loop over a CTA's tiles carrying `counter`: `body` builds one
/// tile's work and returns the counter after it; returns the counter after
/// the loop, the builder left after it.
using TileLoopBody = function_ref<Value(TileCoord tile, Value counter)>;

/// The grouped raster order of C's tiles: tile `tile` of a grid of `tilesM`
/// x `tilesN` tiles walks bands of kRasterGroup M tiles, down the band's
/// rows for each N tile, so that CTAs running together share B tiles (and
/// A tiles) in L2. Returns the tile's (M, N) indices. Shared by the plain
/// and the grouped scheduler (whose tilesM is a group's, known at run time).
std::pair<Value, Value> rasterTileIndex(KernelBuilder &b, Value tile,
                                        Value tilesM, int64_t tilesN);

class TileScheduler {
public:
  /// Reads this CTA's index and the grid size at the builder's insertion
  /// point.
  TileScheduler(KernelBuilder &b, TileShape shape, int64_t m, int64_t n);

  /// An scf.for over this CTA's whole tiles carrying the i32 `counter`:
  /// `body` builds one tile's work from its coordinates and the counter and
  /// returns the counter after it. Returns the counter after the loop; the
  /// builder is left after it.
  Value buildTileLoop(Value counter,
                      function_ref<Value(TileCoord tile, Value counter)> body);
  /// The same loop carrying several counters.
  SmallVector<Value> buildTileLoop(
      ValueRange counters,
      function_ref<SmallVector<Value>(TileCoord tile, ValueRange counters)>
          body);

  /// This CTA's sub-tile of a split tile, if it has one inside the matrix:
  /// calls `body` with the tile's coordinates, the sub-tile's index (its
  /// 64-row slice of the tile) and `counter`. The builder is left after it.
  void buildSplitTile(
      Value counter,
      function_ref<void(TileCoord tile, Value part, Value counter)> body);

private:
  /// The coordinates of linear tile index `tile`, in grouped raster order.
  TileCoord tileAt(Value tile);

  KernelBuilder &b;
  TileShape shape;
  int64_t m, n;
  /// The whole tiles, then the split ones: whole tiles come before
  /// `splitStart`.
  int64_t numTiles, splitStart;
  /// This CTA's first tile and the stride to its next (the grid size).
  Value firstTile, tileStride;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TILESCHEDULER_H
