//===- ConstantQuantization.cpp - quantize constants at compile time ------===//
//
// A C++ model of fp8.quantize + fp8.dequantize for constant operands. It
// follows lib/Dialect/FP8/Utils/Numerics.cpp operation for operation (the f32
// roundings included) so that what a pass reports is what the program
// computes; test/Integration/CPU checks both against the same values.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Utils/ConstantQuantization.h"

#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "llvm/ADT/APFloat.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;

static uint32_t bitsOf(float x) { return llvm::bit_cast<uint32_t>(x); }
static float floatOf(uint32_t bits) { return llvm::bit_cast<float>(bits); }

/// 2^(code - 127) and its reciprocal for an E8M0 code; NaN for 255.
static float e8m0ToFloat(uint32_t code) {
  if (code == 255)
    return std::nanf("");
  return code == 0 ? floatOf(0x00400000) : floatOf(code << 23);
}
static float e8m0Reciprocal(uint32_t code) {
  if (code == 255)
    return std::nanf("");
  return code == 254 ? floatOf(0x00400000) : floatOf((254 - code) << 23);
}

/// NVIDIA's RCEIL code of d (see buildRoundUpToE8M0).
static uint32_t roundUpToE8M0(float d) {
  uint32_t magnitude = bitsOf(d) & 0x7FFFFFFF;
  if (magnitude > 0x7F800000)
    return 255;
  if (magnitude == 0x7F800000)
    return 254;
  uint32_t exponent = magnitude >> 23, mantissa = magnitude & 0x7FFFFF;
  bool tiny = exponent == 0 && mantissa <= 0x400000;
  if (mantissa > 0 && exponent != 254 && !tiny)
    ++exponent;
  return exponent;
}

/// The (quantization multiplier, dequantization scale as f32) of a tile.
static std::pair<float, float> tileScales(float amax, const FP8Format &format,
                                          ScalingAttr scaling) {
  switch (scaling.getRound()) {
  case ScaleRound::exact: {
    float clampQuantScale = static_cast<float>(double(format.maxValue) / 1e-12);
    float quantScale =
        amax <= 1e-12f ? clampQuantScale : format.maxValue / amax;
    return {quantScale, 1.0f / quantScale};
  }
  case ScaleRound::pow2_ceil: {
    uint32_t code = roundUpToE8M0(amax * (1.0f / format.maxValue));
    return {e8m0Reciprocal(code), e8m0ToFloat(code)};
  }
  case ScaleRound::pow2_floor: {
    uint32_t magnitude = bitsOf(amax) & 0x7FFFFFFF;
    uint32_t code;
    if (magnitude > 0x7F800000) {
      code = 255;
    } else {
      int64_t biased = int64_t(magnitude >> 23) - format.maxExponent;
      code = static_cast<uint32_t>(std::clamp<int64_t>(biased, 0, 254));
    }
    return {e8m0Reciprocal(code), e8m0ToFloat(code)};
  }
  }
  llvm_unreachable("unknown scale rounding");
}

static const llvm::fltSemantics &semanticsOf(Type elementType) {
  return isa<Float8E4M3FNType>(elementType) ? llvm::APFloat::Float8E4M3FN()
                                            : llvm::APFloat::Float8E5M2();
}

/// RNE(clamp(x)) to the FP8 format, back in f32.
static float saturatingCast(float x, Type elementType,
                            const FP8Format &format) {
  if (std::isnan(x))
    return x;
  x = std::clamp(x, -format.maxValue, format.maxValue);
  llvm::APFloat value(x);
  bool lostInfo;
  value.convert(semanticsOf(elementType), llvm::APFloat::rmNearestTiesToEven,
                &lostInfo);
  value.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
                &lostInfo);
  return value.convertToFloat();
}

/// Stochastic rounding (see buildStochasticCast), back in f32.
static float stochasticCast(float x, uint32_t random, Type elementType,
                            const FP8Format &format) {
  unsigned m = format.mantissaBits, dropped = 23 - m;
  uint32_t bits = bitsOf(x);
  uint32_t sign = (bits >> 24) & 0x80, magnitude = bits & 0x7FFFFFFF;
  // The 16 random bits at the top of the dropped field.
  uint32_t noise = (random & 0xFFFF) << (dropped - kStochasticBits);
  uint32_t code;
  if (magnitude > 0x7F800000) {
    code = format.nanCode;
  } else if (magnitude >= bitsOf(format.maxValue)) {
    code = format.maxCode;
  } else if (magnitude >= uint32_t(127 + format.minNormalExponent) << 23) {
    code =
        ((magnitude + noise) >> dropped) - (uint32_t(127 - format.bias) << m);
  } else {
    float toQuanta =
        std::ldexp(1.0f, int(m) - format.minNormalExponent + int(dropped));
    auto fixedPoint = static_cast<uint32_t>(floatOf(magnitude) * toQuanta);
    code = (fixedPoint + noise) >> dropped;
  }
  llvm::APFloat value(semanticsOf(elementType),
                      llvm::APInt(8, (code | sign) & 0xFF));
  bool lostInfo;
  value.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
                &lostInfo);
  return value.convertToFloat();
}

HostMatrix fp8::quantizeDequantize(const HostMatrix &input, Type elementType,
                                   ScalingAttr scaling, bool stochastic,
                                   uint64_t seed) {
  FP8Format format = getFP8Format(elementType);
  int64_t tileRows = ShapedType::isDynamic(scaling.getTile()[0])
                         ? input.rows
                         : scaling.getTile()[0];
  int64_t tileCols = ShapedType::isDynamic(scaling.getTile()[1])
                         ? input.cols
                         : scaling.getTile()[1];
  HostMatrix output = input;
  for (int64_t r0 = 0; r0 < input.rows; r0 += tileRows) {
    for (int64_t c0 = 0; c0 < input.cols; c0 += tileCols) {
      int64_t r1 = std::min(r0 + tileRows, input.rows);
      int64_t c1 = std::min(c0 + tileCols, input.cols);
      float amax = 0.0f;
      for (int64_t r = r0; r < r1; ++r)
        for (int64_t c = c0; c < c1; ++c) {
          float v = std::fabs(input.values[r * input.cols + c]);
          amax = std::isnan(v) || std::isnan(amax) ? std::nanf("")
                                                   : std::max(amax, v);
        }
      auto [quantScale, scale] = tileScales(amax, format, scaling);
      for (int64_t r = r0; r < r1; ++r)
        for (int64_t c = c0; c < c1; ++c) {
          int64_t index = r * input.cols + c;
          float scaled = input.values[index] * quantScale;
          float q = stochastic
                        ? stochasticCast(scaled, philoxRandom16(seed, index),
                                         elementType, format)
                        : saturatingCast(scaled, elementType, format);
          output.values[index] = q * scale;
        }
    }
  }
  return output;
}

ErrorStats fp8::measureError(const HostMatrix &exact,
                             const HostMatrix &approx) {
  ErrorStats stats;
  double squaredError = 0, squaredNorm = 0;
  for (size_t i = 0; i < exact.values.size(); ++i) {
    double diff = double(approx.values[i]) - double(exact.values[i]);
    stats.maxAbs = std::max(stats.maxAbs, std::fabs(diff));
    squaredError += diff * diff;
    squaredNorm += double(exact.values[i]) * double(exact.values[i]);
  }
  stats.relativeRms =
      squaredNorm > 0 ? std::sqrt(squaredError / squaredNorm) : 0.0;
  return stats;
}
