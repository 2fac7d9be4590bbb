//===- StochasticCast.h - stochastic rounding in GPU kernels ----*- C++ -*-===//
//
// The stochastic cast of docs/Numerics.md as the quantize kernels compute
// it: the contract's random bits (Numerics.h's Philox stream, 16 bits an
// element, one call per eight elements) and its rounding, written as an
// integer adjustment of the f32 value that round-to-nearest then converts
// exactly (the cvt.rn.satfinite of the nearest-rounding kernels), with the
// CPU reference's bits.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_STOCHASTICCAST_H
#define FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_STOCHASTICCAST_H

#include "../Program/KernelBuilder.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fp8::kernels {

/// The FP8 byte of f32 `scaled`, element `index` (i64) of a quantization
/// seeded by `seed` (i64): a Philox call of its own (the scalar kernels).
Value buildStochasticByte(KernelBuilder &b, Value seed, Value index,
                          Value scaled, Type elementType);

/// The FP8 bytes (an i8 vector) of the f32 `scaled` values of elements
/// offset, offset + 1, ... of a tensor of `numElements` elements (`offset`
/// an index, a multiple of their count, which is 4 or a multiple of 8):
/// one Philox call per eight elements.
Value buildStochasticBytes(KernelBuilder &b, Value seed, Value offset,
                           ArrayRef<Value> scaled, Type elementType,
                           int64_t numElements);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_STOCHASTICCAST_H
