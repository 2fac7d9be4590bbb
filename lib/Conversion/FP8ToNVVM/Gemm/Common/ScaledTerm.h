//===- ScaledTerm.h - a pair of scales on a partial sum --------*- C++ -*-===//
//
// docs/Numerics.md fixes how a GEMM multiplies a partial sum P by its two
// scales: fl32(sa·sb)·P where the product of the scales is a normal f32,
// else (P·sa)·sb. No fixed order of three f32 factors is safe near the
// limits of f32: the product of two scales can overflow (inf times a zero
// sum is NaN) or be subnormal (losing bits of a result that is normal),
// and P·sa can overflow where sb brings the result back. When the product
// overflows, both scales exceed 1, so P·sa stays below the result; when it
// underflows, both are below 1.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SCALEDTERM_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SCALEDTERM_H

#include "../../Program/KernelBuilder.h"

namespace mlir::fp8::kernels::gemm {

/// Whether f32 `s` is a normal number (2^-126 <= |s| <= max f32).
Value isNormal(KernelBuilder &b, Value s);

/// The scaled term of docs/Numerics.md: fl32(sa·sb)·P where sa·sb is a
/// normal f32, else (P·sa)·sb. Either scale may be null (no scale).
Value scaledTerm(KernelBuilder &b, Value partial, Value sa, Value sb);

/// Whether |s| lies in [2^-63, 2^63]. A thread whose scales all do passes
/// promoteScaled's test of either kind (below), whatever the pairs: that
/// range lies inside both.
Value isCheapScale(KernelBuilder &b, Value s);

/// Promotion: `sums[i] += partials[i]` scaled by the pair (aScale(i),
/// bScale(i)) (either may be null), in FMAs. Where the scales of the thread
/// are safe for a cheap form (below), that form runs; otherwise every
/// element takes the scaled term's choice. The branch is per thread and
/// almost always the cheap one. With `scalesChecked` (the caller has seen
/// that every scale is an isCheapScale) the cheap form runs without the
/// test: the same bits in fewer instructions. The cheap forms:
///  - few distinct pairs (a scale per row against one per tile, say): where
///    every |scale| lies in [2^-63, 2^63] (so every product is a normal f32),
///    the products and one FMA per element;
///  - a scale per row and per column (MXFP8, blockwise Wgrad): one side's
///    |scales| all within [2^-94, 2^88], where P·s neither overflows nor
///    leaves the normal range for any partial sum of FP8 products (at most
///    2^39 in magnitude, and 0 or at least 2^-32), and fma(P·s, s', sum):
///    a multiply and an FMA per element.
void promoteScaled(KernelBuilder &b, ArrayRef<Value> partials,
                   function_ref<Value(int64_t)> aScale,
                   function_ref<Value(int64_t)> bScale,
                   MutableArrayRef<Value> sums, bool scalesChecked = false);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SCALEDTERM_H
