//===- GroupedTileScheduler.h - a grouped GEMM's tiles ----------*- C++ -*-===//
//
// The tiles of a grouped GEMM (fp8.grouped_scaled_matmul) depend on the
// group sizes, which the kernel reads at run time: group g has
// ceil(rows_g / tileM) x ceil(n / tileN) tiles, and the tiles of all
// groups are numbered one group after another. A persistent CTA takes
// tiles i, i + grid, ... as the plain scheduler does, and finds each one's
// group by walking forward through the groups (its tiles only grow, so the
// walk is G steps over the CTA's whole loop, not per tile). Within a group,
// tiles follow the plain GEMM's grouped raster: bands of 8 row tiles, each
// walked down its rows for one column after another, so that CTAs that run
// together share a few A and B tiles in L2.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GROUPEDTILESCHEDULER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GROUPEDTILESCHEDULER_H

#include "GemmProblem.h"
#include "TileScheduler.h"

namespace mlir::fp8::kernels::gemm {

/// Group `group`'s first row and the row past its last (i32), read from
/// `groupRows` (a global pointer) and clamped to the rows that exist, so
/// that any group_rows keeps the kernel inside A and C.
std::pair<Value, Value> loadGroupBounds(KernelBuilder &b,
                                        const GemmProblem &problem,
                                        Value groupRows, Value group);

class GroupedTileScheduler {
public:
  /// Reads this CTA's index and the grid size at the builder's insertion
  /// point; `groupRows` is the kernel's group_rows (a global pointer).
  GroupedTileScheduler(KernelBuilder &b, TileShape shape,
                       const GemmProblem &problem, Value groupRows);

  /// An scf.while over this CTA's tiles of every group, carrying `counter`.
  Value buildTileLoop(Value counter, TileLoopBody body);

private:
  /// Group `group`'s tiles, and its row tiles (i32).
  std::pair<Value, Value> tilesOf(Value group);

  KernelBuilder &b;
  TileShape shape;
  const GemmProblem &problem;
  Value groupRows;
  Value firstTile, tileStride;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GROUPEDTILESCHEDULER_H
