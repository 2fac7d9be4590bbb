//===- StochasticCast.h - stochastic rounding in GPU kernels ----*- C++ -*-===//
//
// The stochastic cast of docs/Numerics.md as the quantize kernels compute
// it: the contract's random bits (Numerics.h's Philox stream) and its
// rounding, written in fewer GPU instructions than the CPU reference's
// buildStochasticCastBits, with the same bits.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_STOCHASTICCAST_H
#define FP8_LIB_CONVERSION_FP8TONVVM_STOCHASTICCAST_H

#include "KernelBuilder.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::fp8::kernels {

/// The FP8 byte (i8) of f32 `x` rounded stochastically to `elementType`
/// with the element's random bits `random` (i32).
Value buildStochasticCastBitsFast(KernelBuilder &b, Value x, Value random,
                                  Type elementType);

/// The FP8 byte of f32 `scaled`, element `index` (i64) of a quantization
/// seeded by `seed` (i64): a Philox call of its own.
Value buildStochasticByte(KernelBuilder &b, Value seed, Value index,
                          Value scaled, Type elementType);

/// The FP8 bytes of the f32 `scaled` values of elements offset,
/// offset + 1, ... (`offset` an index, a multiple of their count, which is
/// a multiple of 4): one Philox call per four elements.
SmallVector<Value> buildStochasticBytes(KernelBuilder &b, Value seed,
                                        Value offset, ArrayRef<Value> scaled,
                                        Type elementType);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_STOCHASTICCAST_H
