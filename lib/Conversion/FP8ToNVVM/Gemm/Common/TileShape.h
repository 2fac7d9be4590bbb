//===- TileShape.h - the tiles of C a GEMM's scheduler walks ----*- C++ -*-===//
//
// What a chip's GEMM configuration tells the tile schedulers (Common/
// TileScheduler.h, GroupedTileScheduler.h): plain C++, so that each chip's
// configuration can say it without IR.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TILESHAPE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TILESHAPE_H

#include <cstdint>

namespace mlir::fp8::kernels::gemm {

/// The tiles a scheduler walks: tileM x tileN, of which the last
/// `splitTiles` are split `splitWays` ways (sm_90a only; 0 elsewhere).
struct TileShape {
  int64_t tileM, tileN;
  int64_t splitTiles = 0, splitWays = 1;
  /// Consecutive CTAs that share each tile (a cluster along x, as sm_100a's
  /// CTA pairs): they walk the same tiles, unit i taking tiles i, i +
  /// grid / ctasPerTile, ...
  int64_t ctasPerTile = 1;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TILESHAPE_H
