//===- TileScaleCheck.h - a tile's scales, tested once ----------*- C++ -*-===//
//
// Promotion tests a thread's scales at every K-block (ScaledTerm.h) so that
// the cheap form runs only where it gives the contract's bits: about 10 of
// the ~143 instructions a consumer warp issues per blockwise K-block. Where
// each CTA has one tile (small M), a consumer instead tests every scale its
// tile will use once, before the K loop, while the producer's first loads
// are in flight, and runs a K loop without the test where all pass
// (isCheapScale); a tile with any other scale takes the tested loop. Either
// way the results are the same bits.
//
// Each consumer checks the scales of its own 64 rows of A and of the tile's
// columns of B over all of K: its 128 threads load a share each (at most
// HopperGemmConfig::kMaxScaleCheckLoads, all in flight at once), and one
// barrier reduction over the warpgroup gives them all the same answer, as the
// wgmma of either loop needs.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_TILESCALECHECK_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_TILESCALECHECK_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/TileScheduler.h"
#include "Fragment.h"
#include "HopperContext.h"
#include "HopperGemmConfig.h"

namespace mlir::fp8::kernels::gemm {

class TileScaleCheck : HopperContext {
public:
  explicit TileScaleCheck(const HopperContext &context)
      : HopperContext(context) {
    assert(config.checkTileScales && !problem.grouped() &&
           "only chooseTileScaleCheck's configurations check tiles");
  }

  /// Whether every scale that the K loop of `tile` multiplies the thread's
  /// consumer's partial sums by is an isCheapScale: an i1, the same in
  /// every thread of the consumer warpgroup.
  Value build(const ThreadFragment &fragment, TileCoord tile);

private:
  /// Whether this thread's share of the scales of `scaling` (at `scales`) is
  /// all cheap: those of `span` rows of the operand from row `first`, of
  /// `rows` rows in all, over all of K.
  Value checkOperand(Value scales, const OperandScaling &scaling, Value first,
                     int64_t span, int64_t rows, Value localThread);
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_TILESCALECHECK_H
