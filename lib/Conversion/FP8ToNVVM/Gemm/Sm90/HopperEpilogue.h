//===- HopperEpilogue.h - storing the tile of C --------------- -*- C++ -*-===//
//
// The consumers' epilogue: the scales that span K, conversion to the output
// type, and the stores of a thread's fragment of C, either directly or
// through a swizzled shared-memory buffer and a TMA store; and, for a split
// tile, the exchange that adds the consumers' sums first. It knows the
// accumulator only by the fragment layout it is handed (ThreadFragment).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPEREPILOGUE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPEREPILOGUE_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/TileScheduler.h"
#include "Fragment.h"
#include "HopperContext.h"
#include "HopperGemmConfig.h"
#include "HopperPipeline.h"

namespace mlir::fp8::kernels::gemm {

class HopperEpilogue : HopperContext {
public:
  /// `thread` is the CTA's thread index.
  HopperEpilogue(const HopperContext &context, ScaleReader &scales,
                 Value thread)
      : HopperContext(context), scales(scales), thread(thread) {}

  /// Applies the scales that span K (tensorwise, rowwise) to the thread's
  /// `sums` of `tile` and stores them, by TMA or two adjacent columns at a
  /// time, skipping rows and columns past the matrix (a grouped GEMM's:
  /// rows past the tile's group, which only direct stores skip).
  void store(ArrayRef<Value> sums, const ThreadFragment &fragment,
             TileCoord tile);
  /// Adds the consumers' sums of a split sub-tile through shared memory;
  /// consumer 0 stores the result.
  void storeSplit(ArrayRef<Value> sums, const ThreadFragment &fragment,
                  TileCoord tile);
  /// A grouped GEMM's rows of no group are 0 (the op's definition): after
  /// its tiles, each CTA's consumers store zeros into a share of them (the
  /// rows past the last group, or each masked group's rows past its count).
  void zeroRowsOutsideGroups();
  /// At the consumers' end: shared memory must outlive the last TMA
  /// stores' reads.
  void buildFinish();

private:
  /// The pair of output elements 4j + 2 half + {0, 1}.
  using PairFn = function_ref<Value(int64_t j, int64_t half)>;
  /// Each thread's pairs, in rows before `rowEnd` (i32; problem.m where
  /// null) and columns before n.
  void storeDirect(PairFn pairAt, const ThreadFragment &fragment, Value rowEnd);
  void storeThroughShared(PairFn pairAt, const ThreadFragment &fragment,
                          TileCoord tile);

  ScaleReader &scales;
  Value thread;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPEREPILOGUE_H
