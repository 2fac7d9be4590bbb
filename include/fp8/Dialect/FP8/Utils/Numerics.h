//===- Numerics.h - FP8 quantization numerics -------------------*- C++ -*-===//
//
// The scalar arithmetic of docs/Design.md §4 as IR builders (arith ops on
// scalars, usable on the CPU reference and inside GPU kernels alike) and as
// plain C++ for compile-time constants. Keeping one implementation is what
// makes the CPU reference and the kernels agree bit for bit.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_UTILS_NUMERICS_H
#define FP8_DIALECT_FP8_UTILS_NUMERICS_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/IR/Builders.h"

#include <array>
#include <cstdint>

namespace mlir::fp8 {

/// The parameters of an FP8 element format that quantization needs.
struct FP8Format {
  /// Explicit mantissa bits (3 for e4m3, 2 for e5m2).
  unsigned mantissaBits;
  /// Exponent bias (7, 15).
  int bias;
  /// Unbiased exponent of the smallest normal number (-6, -14).
  int minNormalExponent;
  /// floor(log2(max finite)), the `emax` of the OCP MX rule (8, 15).
  int maxExponent;
  /// The largest finite value (448, 57344).
  float maxValue;
  /// Encoding of +max (0x7E, 0x7B) and of NaN (0x7F).
  uint8_t maxCode, nanCode;

  /// The magnitude above which the clamp to ±max changes a value's
  /// rounding (464, 61440): max plus half its ulp. Below it, rounding alone
  /// gives max; the monitor counts saturations above it.
  float saturationThreshold() const {
    return maxValue + float(1 << (maxExponent - int(mantissaBits) - 1));
  }
  /// Whether a value exactly at the threshold saturates too: round to
  /// nearest even takes the tie away from max where max's last mantissa
  /// bit is odd (e5m2's 57344: 61440 would round to 65536, which the clamp
  /// changes), towards it where even (e4m3's 448: 464 rounds to 448).
  bool tieSaturates() const { return maxCode & 1; }
};

/// The format of `type`, which must be f8E4M3FN or f8E5M2.
FP8Format getFP8Format(Type type);

//===----------------------------------------------------------------------===//
// Philox4x32-10
//===----------------------------------------------------------------------===//

/// Philox4x32-10 (Salmon et al., SC'11) on a 128-bit counter and 64-bit key.
std::array<uint32_t, 4> philox4x32x10(std::array<uint32_t, 4> counter,
                                      std::array<uint32_t, 2> key);

/// The 32-bit random word of element `index` under `seed`: word
/// `index mod 4` of Philox with counter (lo(index / 4), hi(index / 4), 0, 0)
/// and key (lo(seed), hi(seed)). For index < 2^34 this is Triton's
/// `tl.randint4x(seed, index / 4)[index % 4]` on a uint32 offset. The signs
/// of a seeded Hadamard rotation take bit 0 of it.
uint32_t philoxRandom32(uint64_t seed, uint64_t index);

/// The random bits stochastic rounding adds per element.
inline constexpr unsigned kStochasticBits = 16;

/// The 16 random bits of element `index` for stochastic rounding: the low
/// half (even `index`) or the high half (odd) of word `(index mod 8) / 2`
/// of Philox with counter (lo(index / 8), hi(index / 8), 0, 0) and key
/// (lo(seed), hi(seed)). Eight consecutive elements share one Philox call,
/// which is what lets a GPU kernel round stochastically at copy speed.
uint32_t philoxRandom16(uint64_t seed, uint64_t index);

/// IR for philox4x32x10 on i32 values.
std::array<Value, 4> buildPhilox4x32x10(OpBuilder &b, Location loc,
                                        std::array<Value, 4> counter,
                                        std::array<Value, 2> key);

/// IR for the four words of the Philox call at `counter` (an i64 value, or
/// the pair of its i32 halves) under `seed` (i64): the random bits of
/// elements 8 * counter .. 8 * counter + 7, two a word, low half first.
/// GPU kernels call this once per eight elements.
std::array<Value, 4> buildPhiloxRandom4x32(OpBuilder &b, Location loc,
                                           Value seed, Value counter);
std::array<Value, 4> buildPhiloxRandom4x32(OpBuilder &b, Location loc,
                                           Value seed, Value counterLo,
                                           Value counterHi);

/// IR for philoxRandom16 of one element: `seed` and `index` are i64 values;
/// returns an i32 holding the 16 bits in its low half. A whole Philox call
/// per element (the CPU reference's way).
Value buildPhiloxRandom16(OpBuilder &b, Location loc, Value seed, Value index);

//===----------------------------------------------------------------------===//
// Scales
//===----------------------------------------------------------------------===//

/// The scales of one tile, from its amax.
struct TileScales {
  /// The f32 multiplier applied to the data before the cast (`qscale`).
  Value quantScale;
  /// The dequantization scale as stored, of the scaling's scale type.
  Value storedScale;
};

/// IR computing the scales of a tile with amax `amax` (f32) for quantizing to
/// `elementType` with `scaling` and `margin`, exactly as docs/Design.md §4 and
/// docs/Numerics.md define them.
TileScales buildTileScales(OpBuilder &b, Location loc, Value amax,
                           Type elementType, ScalingAttr scaling,
                           int64_t margin);

/// IR converting a stored scale (f32 or f8E8M0FNU) to f32 (exact).
Value buildScaleToF32(OpBuilder &b, Location loc, Value scale);

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

/// IR for `RNE(clamp(x, -max, max))` to `elementType`; NaN stays NaN.
Value buildSaturatingCast(OpBuilder &b, Location loc, Value x,
                          Type elementType);

/// IR converting a scalar to f32 exactly: FP8 by decoding its bits (no f8
/// arithmetic), other floats by extension.
Value buildFP8ToF32(OpBuilder &b, Location loc, Value value);

/// IR rounding f32 `x` to `elementType` (f32: `x`; bf16 as c10 does, RNE on
/// the bits with every NaN 0x7FC0, on any host; f16 by arith.truncf). A
/// plain truncf to bf16 is host-dependent on the CPU: x86 AVX512-BF16's
/// conversion keeps NaN payloads and flushes subnormals.
Value buildRoundF32To(OpBuilder &b, Location loc, Value x, Type elementType);

/// IR for the stochastic rounding of f32 `x` to `elementType` with the
/// element's 16 random bits `random` (an i32 holding them in its low half;
/// higher bits are ignored): the bits are added to the top 16 of the bits
/// the cast drops and the sum is truncated; saturating, NaN-preserving,
/// sign-preserving (docs/Numerics.md).
Value buildStochasticCast(OpBuilder &b, Location loc, Value x, Value random,
                          Type elementType);
/// The same as an i8 holding the FP8 encoding.
Value buildStochasticCastBits(OpBuilder &b, Location loc, Value x, Value random,
                              Type elementType);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_NUMERICS_H
