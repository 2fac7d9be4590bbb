//===- GridBarrier.h - resident CTAs meeting through a workspace -*- C++
//-*-===//
//
// Kernels whose second pass needs what every CTA of the first pass found
// (the tensorwise amax, the rowwise cast-transpose's column amaxes) keep
// every CTA resident and meet at a grid-wide barrier: integer atomics on
// a zero-initialized workspace (i32 words) that the last CTA to leave
// zeroes again for the next launch.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_GRIDBARRIER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_GRIDBARRIER_H

#include "../Program/KernelBuilder.h"

namespace mlir::fp8::kernels {

/// An atomic `kind` of i32 `value` on word `index` of the workspace
/// `scratch`; returns the old word.
Value scratchAtomic(KernelBuilder &b, Value scratch, arith::AtomicRMWKind kind,
                    Value value, Value index);

/// A GPU-scope memory fence (membar.gl).
void fenceGpu(KernelBuilder &b);

/// The leader's part of the grid-wide barrier: it arrives on counter word
/// `slot` of `scratch`, spins until `numBlocks` CTAs have, then fences.
/// What its CTA wrote before (ordered by a CTA barrier) is visible to every
/// CTA after the barrier.
void arriveAndWait(KernelBuilder &b, Value scratch, int64_t slot,
                   int64_t numBlocks);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_GRIDBARRIER_H
