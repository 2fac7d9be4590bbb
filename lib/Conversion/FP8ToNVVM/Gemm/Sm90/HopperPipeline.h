//===- HopperPipeline.h - TMA loads into an mbarrier ring ----- -*- C++ -*-===//
//
// The sm_90a GEMM's stage ring in shared memory (Common/SharedMemory.h):
// the K-blocks of A and B (and of the scales that come with them) that one
// producer thread loads by TMA, each stage guarded by a "full" mbarrier
// (transaction bytes) and an "empty" one (its consumers are done with it).
// The sm_100a kernel has its own rings (Sm100/Tcgen05Pipeline.h).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERPIPELINE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERPIPELINE_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/SharedMemory.h"
#include "../Common/TileScheduler.h"
#include "HopperContext.h"
#include "HopperGemmConfig.h"

namespace mlir::fp8::kernels::gemm {

class HopperPipeline : HopperContext {
public:
  explicit HopperPipeline(const HopperContext &context)
      : HopperContext(context) {}

  /// Thread 0 initializes the barriers and prefetches the tensor maps; then
  /// the CTA waits for it.
  void buildInit(Value thread);

  /// The producer's loads of `tile`'s K-blocks (of its 64-row slice `part`
  /// where that is non-null) from stage counter `counter`, which counts the
  /// K-blocks loaded so far; returns the counter after them.
  Value buildTileLoads(TileCoord tile, Value part, Value counter);

  // The consumer's side of the ring. Stages are used round-robin across
  // tiles: K-block counter `counter` uses stage counter % stages.
  Value stageOf(Value counter);
  /// The parity of the fill of the full barrier that K-block `counter` waits
  /// for.
  Value fullParity(Value counter);
  /// Waits until TMA has filled `stage` (fill parity `parity`).
  void waitFull(Value stage, Value parity);
  /// Hands `stage` back to the producer: lane 0 of each consumer warp
  /// arrives on its empty barrier as `arrivals` consumers.
  void release(Value stage, Value lane, int64_t arrivals = 1);

  /// Byte offsets in shared memory of `stage`'s A tile, of rows
  /// 64 * `group` of that tile from its start, and of `stage`'s B tile.
  Value aTileOffset(Value stage);
  Value aRowsOffset(Value group);
  Value bTileOffset(Value stage);

private:
  Value fullBarrier(Value stage);
  Value emptyBarrier(Value stage);
  /// The address of byte `offset` as shared::cluster (this CTA's own), the
  /// TMA destination space that PTX 8.0 has.
  Value clusterPtr(Value offset);
  /// A TMA load of the box at `coords` (innermost first) of `map` to byte
  /// `offset`, completing on `barrier`.
  /// Loads `rows` rows of M or N of one operand's K-block at `kCoord`,
  /// from row (column) `first`, as `layout` lays them out.
  void loadOperand(const WgmmaOperandLayout &layout, Value offset, Value map,
                   Value kCoord, Value first, int64_t rows, Value barrier);
  void loadTile(Value offset, Value map, ValueRange coords, Value barrier);
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERPIPELINE_H
