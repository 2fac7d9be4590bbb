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
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_TCGEN05PIPELINE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_TCGEN05PIPELINE_H

#include "../KernelBuilder.h"
#include "GemmProblem.h"
#include "ProducerPipeline.h"
#include "Tcgen05GemmConfig.h"
#include "TileScheduler.h"

namespace mlir::fp8::kernels::gemm {

/// A position in a ring of `size` slots: the slot and the parity of the
/// phase a waiter for its next completion waits on.
struct RingSlot {
  Value slot, parity;
};

class Tcgen05Pipeline {
public:
  Tcgen05Pipeline(KernelBuilder &b, const Tcgen05GemmConfig &config,
                  const GemmProblem &problem, const GemmArguments &args,
                  SharedMemory smem)
      : b(b), config(config), problem(problem), args(args), smem(smem) {}

  /// Thread 0 initializes the barriers and prefetches the tensor maps (the
  /// kernel's CTA barrier after the tensor-memory allocation publishes
  /// them).
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

  /// The producer thread's loads of `tile`'s K-blocks from stage counter
  /// `counter`; returns the counter after them.
  Value buildTileLoads(TileCoord tile, Value counter);

private:
  Value barrier(int64_t first, Value index);
  Value stageOffset(Value stage);
  /// A TMA load of the box at `coords` (innermost first) of `map` to byte
  /// `offset`, completing on `barrier`.
  void loadBox(Value offset, Value map, ValueRange coords, Value barrier);
  /// The bulk copy of 512-byte scale chunk `chunk` of `scales` to `offset`.
  void loadScaleChunk(Value offset, Value scales, Value chunk, Value barrier);

  KernelBuilder &b;
  const Tcgen05GemmConfig &config;
  const GemmProblem &problem;
  const GemmArguments &args;
  SharedMemory smem;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_TCGEN05PIPELINE_H
