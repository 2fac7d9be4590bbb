//===- StochasticCastTest.cpp - the GPU's stochastic cast equals the rule -===//
//
// Stochastic rounding (docs/Numerics.md) draws 16 random bits an element
// from Philox4x32-10, eight elements a call, and adds them to the top 16 of
// the mantissa bits the cast drops. The GPU kernels (StochasticCast.cpp)
// compute it as an integer adjustment of the f32 value followed by the
// round-to-nearest cvt.rn.satfinite of the nearest-rounding kernels, exact
// on the adjusted value. No GPU exists here, so this test proves the
// algebra: gpuModel is that adjustment with fma.rn.sat, fma.rz and the cvt
// as the PTX ISA defines them (the cvt as APFloat's round-to-nearest-even
// to the FP8 type, saturated to max finite, NaN kept); ruleFromDocs is the
// page's rule, transcribed. They agree on every sign and exponent with
// boundary mantissas and boundary random bits, for e4m3 and e5m2.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <vector>

using namespace mlir;
using namespace mlir::fp8;

namespace {

struct Format {
  unsigned m;
  int bias, emin;
  float max;
  uint8_t maxCode;
  const llvm::fltSemantics &semantics;
};

const Format kE4M3 = {3, 7, -6, 448.0f, 0x7E, llvm::APFloat::Float8E4M3FN()};
const Format kE5M2 = {2, 15, -14, 57344.0f, 0x7B, llvm::APFloat::Float8E5M2()};

float fromBits(uint32_t bits) { return llvm::bit_cast<float>(bits); }
uint32_t bitsOf(float x) { return llvm::bit_cast<uint32_t>(x); }

/// docs/Numerics.md's stochastic cast of f32 bits `x` with the element's
/// 16 random bits `r`, transcribed from the page.
uint8_t ruleFromDocs(uint32_t x, uint32_t r, const Format &f) {
  unsigned b = 23 - f.m;
  uint32_t sign = (x >> 24) & 0x80, a = x & 0x7FFFFFFF;
  uint32_t noise = (r & 0xFFFF) << (b - 16);
  if (a > 0x7F800000)
    return 0x7F | sign;
  if (a >= bitsOf(f.max))
    return f.maxCode | sign;
  if (a >= uint32_t(127 + f.emin) << 23)
    return uint8_t((((a + noise) >> b) - (uint32_t(127 - f.bias) << f.m)) |
                   sign);
  double fixedPoint = std::floor(std::ldexp(double(fromBits(a)), 23 - f.emin));
  return uint8_t(((uint32_t(fixedPoint) + noise) >> b) | sign);
}

/// fma.f32 with rounding `mode` (NaN as the GPU's 0x7FFFFFFF).
float fma(float a, float b, float c, llvm::RoundingMode mode) {
  llvm::APFloat result(a);
  result.fusedMultiplyAdd(llvm::APFloat(b), llvm::APFloat(c), mode);
  float value = result.convertToFloat();
  return std::isnan(value) ? fromBits(0x7FFFFFFF) : value;
}

/// fma.rn.sat.f32: the result clamped to [0, 1], NaN flushed to +0.
float fmaSat(float a, float b, float c) {
  float value = fma(a, b, c, llvm::RoundingMode::NearestTiesToEven);
  return std::isnan(value) ? 0.0f : std::min(std::max(value, 0.0f), 1.0f);
}

/// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 on one value: NaN -> 0x7F, beyond
/// max finite (inf included) -> max with the sign, else round to nearest
/// even.
uint8_t cvtRnSatfinite(float v, const Format &f) {
  if (std::isnan(v))
    return 0x7F;
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  if (std::fabs(v) > f.max)
    return f.maxCode | sign;
  llvm::APFloat value(v);
  bool lostInfo;
  value.convert(f.semantics, llvm::APFloat::rmNearestTiesToEven, &lostInfo);
  return uint8_t(value.bitcastToAPInt().getZExtValue());
}

/// StochasticCast.cpp's arithmetic on one element: the flag s (1 below
/// 2^emin, else 0) from a saturating fma, |x| + s 2^emin rounded toward
/// zero, NaN clamped to 0x7FC00000, the noise added and the dropped field
/// cleared, s 2^emin subtracted again, the sign put back, then the cvt.
/// `x` is the value as the GPU holds it (a NaN from the multiply by the
/// scale is 0x7FFFFFFF).
uint8_t gpuModel(uint32_t x, uint32_t r, const Format &f) {
  unsigned b = 23 - f.m;
  float magnitude = fromBits(x & 0x7FFFFFFF);
  float smallestNormal = std::ldexp(1.0f, f.emin);
  float flag =
      fmaSat(magnitude, -std::ldexp(1.0f, 64), std::ldexp(1.0f, f.emin + 64));
  EXPECT_TRUE(flag == 0.0f || flag == 1.0f);
  float based =
      fma(flag, smallestNormal, magnitude, llvm::RoundingMode::TowardZero);
  uint32_t bits = std::min(bitsOf(based), 0x7FC00000u);
  uint32_t rounded = (bits + ((r & 0xFFFF) << (b - 16))) & ~((1u << b) - 1);
  float value = fma(flag, -smallestNormal, fromBits(rounded),
                    llvm::RoundingMode::NearestTiesToEven);
  return cvtRnSatfinite(fromBits(bitsOf(value) | (x & 0x80000000)), f);
}

/// Mantissas near every rounding boundary of both formats: all low bits
/// clear or set below each position, single bits, and a pseudo-random
/// spread.
std::vector<uint32_t> boundaryMantissas() {
  std::vector<uint32_t> mantissas = {0, 1, 0x7FFFFF, 0x7FFFFE, 0x400000};
  for (int i = 0; i < 23; ++i) {
    mantissas.push_back(1u << i);
    mantissas.push_back((1u << i) - 1);
    mantissas.push_back(0x7FFFFF & ~((1u << i) - 1));
  }
  uint32_t state = 0x2545F491;
  for (int i = 0; i < 64; ++i) {
    state = state * 1664525u + 1013904223u;
    mantissas.push_back(state >> 9);
  }
  return mantissas;
}

// The GPU's arithmetic gives the page's codes on every exponent (f32
// subnormals, the FP8 subnormal range, saturation, inf) with every
// boundary mantissa and random bits 0, 1, half, all ones and a spread.
TEST(StochasticCast, GpuArithmeticEqualsRule) {
  std::vector<uint32_t> randoms = {0, 1, 0x7FFF, 0x8000, 0xFFFE, 0xFFFF};
  for (uint32_t i = 0; i < 10; ++i)
    randoms.push_back(philoxRandom16(1234, i));
  for (const Format *f : {&kE4M3, &kE5M2})
    for (uint32_t sign = 0; sign < 2; ++sign)
      for (uint32_t exponent = 0; exponent < 255; ++exponent)
        for (uint32_t mantissa : boundaryMantissas())
          for (uint32_t r : randoms) {
            uint32_t x = sign << 31 | exponent << 23 | mantissa;
            ASSERT_EQ(gpuModel(x, r, *f), ruleFromDocs(x, r, *f))
                << std::hex << "m = " << f->m << ", x = 0x" << x << ", r = 0x"
                << r;
          }
  // Inf saturates; the GPU's NaN gives the NaN code.
  for (const Format *f : {&kE4M3, &kE5M2}) {
    EXPECT_EQ(gpuModel(0x7F800000, 0xFFFF, *f), f->maxCode);
    EXPECT_EQ(gpuModel(0xFF800000, 0xFFFF, *f), f->maxCode | 0x80);
    EXPECT_EQ(gpuModel(0x7FFFFFFF, 0xFFFF, *f), 0x7F);
  }
}

// Element i takes the low (even i) or high (odd i) half of word
// (i mod 8) / 2 of the call at counter i / 8: the published words of
// Philox4x32-10 (seed 42, counter 0: 0x9CEAF053, 0x77F5493B, 0x12BF50AD,
// 0x5742B3D7; seed 0, counter 1, word 0: 0xF8E4CCA4, Triton's
// tl.randint(0, 1); seed 0x0123456789ABCDEF, counter 0: 0xB850222E).
TEST(StochasticCast, RandomBitsOfEightElementsACall) {
  const uint32_t seed42[8] = {0xF053, 0x9CEA, 0x493B, 0x77F5,
                              0x50AD, 0x12BF, 0xB3D7, 0x5742};
  for (uint64_t i = 0; i < 8; ++i)
    EXPECT_EQ(philoxRandom16(42, i), seed42[i]) << i;
  EXPECT_EQ(philoxRandom16(0, 8), 0xCCA4u);
  EXPECT_EQ(philoxRandom16(0, 9), 0xF8E4u);
  EXPECT_EQ(philoxRandom16(0x0123456789ABCDEF, 0), 0x222Eu);
  // The Hadamard signs keep the 32-bit words, four elements a call.
  EXPECT_EQ(philoxRandom32(42, 1), 0x77F5493Bu);
  EXPECT_EQ(philoxRandom32(42, 12345), 0x5BACED71u);
  // The counter is 64 bits wide: index 2^35 + 3 is counter 2^32, the high
  // half of word 1.
  uint64_t index = (uint64_t(1) << 35) + 3;
  EXPECT_EQ(philoxRandom16(7, index),
            philox4x32x10({0, 1, 0, 0}, {7, 0})[1] >> 16);
}

} // namespace
