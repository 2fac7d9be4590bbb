//===- Tcgen05MainLoop.h - the sm_100a GEMM's MMA issuer --------*- C++ -*-===//
//
// The single thread that issues a tile's tcgen05 MMAs: per K-block, it waits
// for the stage, copies MXFP8 scale chunks into tensor memory
// (tcgen05.cp.32x128b.warpx4), issues four MMAs of K = 32 on shared-memory
// descriptors (kind::mxf8f6f4.block_scale.block32, or kind::f8f6f4) into an
// accumulator in tensor memory, and frees the stage with tcgen05.commit; a
// commit on the accumulator ring tells the epilogue when an accumulator (a
// tile's, or a K-block's partial sum where promoted) is complete.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05MAINLOOP_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05MAINLOOP_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "Tcgen05Context.h"
#include "Tcgen05GemmConfig.h"
#include "Tcgen05Pipeline.h"

namespace mlir::fp8::kernels::gemm {

/// The .cta_group of every tcgen05 instruction of the kernel (PTX allows
/// one per kernel): ::2 for a CTA pair.
NVVM::CTAGroupKind getCtaGroupKind(const Tcgen05GemmConfig &config);

/// The counters the MMA issuer and the epilogue carry across tiles: K-blocks
/// through the stage ring, and accumulators through the accumulator ring.
struct Tcgen05Counters {
  Value stage, accumulator;
};

class Tcgen05MainLoop : Tcgen05Context {
public:
  Tcgen05MainLoop(const Tcgen05Context &context, Tcgen05Pipeline &pipeline)
      : Tcgen05Context(context), pipeline(pipeline) {}

  /// One tile's MMAs into tensor memory at `tmemBase` (the address
  /// tcgen05.alloc returned); returns the counters after them.
  Tcgen05Counters buildTile(Value tmemBase, Tcgen05Counters counters);
  /// A pair's MMA issuer after its last tile: waits until both CTAs'
  /// epilogues have freed every accumulator (their arrivals on the leader's
  /// barriers have landed before the leader may exit).
  void buildDrain(Value accCounter);

private:
  /// Waits until the epilogue has read accumulator `counter`'s slot;
  /// returns the slot.
  Value acquireAccumulator(Value counter);
  /// The four MMAs of one stage into the accumulator at column `accColumn`;
  /// the first adds to it where `accumulate` (i1) is true.
  void issueStage(Value tmemBase, Value stage, Value accColumn,
                  Value accumulate);
  /// The 64-bit shared-memory descriptor of the operand tile at `address`,
  /// K-step `step` into it.
  Value operandDescriptor(Value address, bool mnMajor, int64_t step);
  /// A tensor-memory address (i32 lane << 16 | column) as a pointer.
  Value tmemPointer(Value address);
  /// tcgen05.commit of the MMAs so far to `barrier`: a pair's reaches the
  /// barrier at the same offset in both CTAs (.multicast::cluster).
  void commit(Value barrier);

  Tcgen05Pipeline &pipeline;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05MAINLOOP_H
