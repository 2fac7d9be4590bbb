//===- Tcgen05Pipeline.h - the sm_100a GEMM's rings and loads ---*- C++ -*-===//
//
// The shared memory of the sm_100a GEMM and the two mbarrier pipelines in
// it: the stage ring (TMA fills a stage's A and B K-block, and for MXFP8 the
// K-block's 512-byte scale chunks, then the MMA issuer's tcgen05.commit
// frees it) and the accumulator ring (the MMA issuer's commit says an
// accumulator in tensor memory is complete, the epilogue warps' arrivals
// say it has been read). Also the producer warp's loads, which know the
// operands' majorness but nothing of the MMA.
//
// A CTA pair (cta_group::2) keeps both rings in the even CTA (the leader,
// whose thread issues the MMAs): each CTA's producer loads its own part of
// the stage (its 128 rows of A, its half of B's N, its A scale chunk, and
// half of each B scale chunk multicast to both CTAs) by TMA with
// .cta_group::2, completing on the leader's full barrier, which the leader
// alone arms with both CTAs' bytes. The leader's commits reach both CTAs'
// empty and accumulator-full barriers (.multicast::cluster), and both CTAs'
// epilogue threads arrive on the leader's accumulator-empty barrier.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05PIPELINE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05PIPELINE_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/SharedMemory.h"
#include "../Common/TileScheduler.h"
#include "Tcgen05Context.h"
#include "Tcgen05GemmConfig.h"

namespace mlir::fp8::kernels::gemm {

/// A position in a ring of `size` slots: the slot and the parity of the
/// phase a waiter for its next completion waits on.
struct RingSlot {
  Value slot, parity;
};

class Tcgen05Pipeline : Tcgen05Context {
public:
  /// `ctaRank` is the CTA's rank in its cluster (%cluster_ctarank) for a
  /// CTA pair, null otherwise.
  explicit Tcgen05Pipeline(const Tcgen05Context &context,
                           Value ctaRank = Value())
      : Tcgen05Context(context), ctaRank(ctaRank) {}

  /// Thread 0 initializes the barriers (a pair: and fences the
  /// initialization for the cluster) and prefetches the tensor maps (the
  /// kernel's CTA or cluster barrier publishes them).
  void buildInit(Value thread);

  /// Stage `counter % stages` of the ring, with the parity that its
  /// consumer (the MMA issuer) waits on for the fill.
  RingSlot stage(Value counter);
  /// Accumulator `counter % accumulators`, with the parity that the
  /// epilogue waits on for its completion.
  RingSlot accumulator(Value counter);
  /// The producer's (the MMA issuer's) wait for a free stage (accumulator):
  /// a fresh barrier counts as having completed the phase of parity 1.
  static Value freeParity(KernelBuilder &b, RingSlot slot) {
    return b.xorI(slot.parity, 1);
  }

  Value fullBarrier(Value stage);
  Value emptyBarrier(Value stage);
  Value accFullBarrier(Value acc);
  Value accEmptyBarrier(Value acc);
  /// Where tcgen05.alloc writes the tensor-memory address.
  Value tmemSlot();
  /// The leader CTA's (cluster rank 0's) barrier at the offset of this
  /// CTA's `barrier`, as a shared::cluster pointer (mapa).
  Value leaderBarrier(Value barrier);
  /// One arrival (release, cluster scope) on the leader's barrier at the
  /// offset of this CTA's `barrier`, its address mapped and used in 32
  /// bits where the arrival is (a 64-bit address hoisted out of the
  /// epilogue's loop made ptxas spill).
  void arriveOnLeader(Value barrier);
  /// A pointer (shared space) to byte `offset` of the kernel's shared memory.
  Value sharedPtr(Value offset) { return smem.ptr(b, offset); }
  /// mbarrier.try_wait.parity in a loop until `barrier` completes the
  /// phase of `parity`.
  void wait(Value barrier, Value parity);

  /// Shared addresses (i32) of a stage's A tile, B tile, A scale chunk
  /// and B scale chunks.
  Value aTileAddress(Value stage);
  Value bTileAddress(Value stage);
  Value aScaleAddress(Value stage);
  Value bScaleAddress(Value stage);

  /// The producer thread's loads of `tile`'s K-blocks (a pair's tile: of
  /// its 256 rows) from stage counter `counter`; returns the counter after
  /// them.
  Value buildTileLoads(TileCoord tile, Value counter);
  /// A pair's producer, after its last load: waits until the leader's
  /// commits have freed every stage, so that no commit arrives on this
  /// CTA's barriers after it exits.
  void buildDrain(Value counter);

private:
  Value barrier(int64_t first, Value index);
  Value stageOffset(Value stage);
  /// A TMA load of the box at `coords` (innermost first) of `map` to byte
  /// `offset`, completing on `barrier`.
  void loadBox(Value offset, Value map, ValueRange coords, Value barrier);
  /// The bulk copy of 512-byte scale chunk `chunk` of `scales` to `offset`.
  void loadScaleChunk(Value offset, Value scales, Value chunk, Value barrier);
  /// A pair's TMA load (.cta_group::2) of the box at `coords` of `map` to
  /// byte `offset` of this CTA (and of every CTA in `multicastMask`, if
  /// not 0), completing on `leaderBarrier` (a shared::cluster pointer).
  void loadPairBox(Value offset, Value map, ValueRange coords,
                   Value leaderBarrier, uint16_t multicastMask = 0);
  /// A pair's stage loads: A's and B's parts of this CTA, its A scale chunk
  /// and its half of each B scale chunk, multicast to both CTAs.
  void loadPairStage(TileCoord tile, Value kb, Value aOffset, Value full);

  Value ctaRank;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05PIPELINE_H
