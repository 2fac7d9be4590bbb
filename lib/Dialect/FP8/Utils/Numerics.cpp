//===- Numerics.cpp - FP8 quantization numerics ---------------------------===//
//
// Scalar IR for scales, saturating and stochastic casts, and Philox random
// bits. docs/Numerics.md states each formula and where it comes from
// (torchao's amax_to_scale, NVIDIA's RCEIL, the OCP MX rule); the comments
// here say why the arithmetic is written the way it is.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Utils/Numerics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;

FP8Format fp8::getFP8Format(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return {/*mantissaBits=*/3,       /*bias=*/7,
            /*minNormalExponent=*/-6,
            /*maxExponent=*/8,        /*maxValue=*/448.0f,
            /*maxCode=*/0x7E,
            /*nanCode=*/0x7F};
  if (isa<Float8E5M2Type>(type))
    return {/*mantissaBits=*/2,        /*bias=*/15,
            /*minNormalExponent=*/-14,
            /*maxExponent=*/15,        /*maxValue=*/57344.0f,
            /*maxCode=*/0x7B,
            /*nanCode=*/0x7F};
  llvm_unreachable("not an FP8 data type");
}

//===----------------------------------------------------------------------===//
// Philox4x32-10
//===----------------------------------------------------------------------===//

// Random123's constants: round multipliers and the Weyl sequence that bumps
// the key between rounds.
static constexpr uint32_t kPhiloxM0 = 0xD2511F53, kPhiloxM1 = 0xCD9E8D57;
static constexpr uint32_t kPhiloxW0 = 0x9E3779B9, kPhiloxW1 = 0xBB67AE85;
static constexpr int kPhiloxRounds = 10;

std::array<uint32_t, 4> fp8::philox4x32x10(std::array<uint32_t, 4> c,
                                           std::array<uint32_t, 2> k) {
  for (int round = 0; round < kPhiloxRounds; ++round) {
    if (round > 0) {
      k[0] += kPhiloxW0;
      k[1] += kPhiloxW1;
    }
    uint64_t p0 = uint64_t(kPhiloxM0) * c[0];
    uint64_t p1 = uint64_t(kPhiloxM1) * c[2];
    c = {uint32_t(p1 >> 32) ^ c[1] ^ k[0], uint32_t(p1),
         uint32_t(p0 >> 32) ^ c[3] ^ k[1], uint32_t(p0)};
  }
  return c;
}

uint32_t fp8::philoxRandom32(uint64_t seed, uint64_t index) {
  uint64_t counter = index / 4;
  return philox4x32x10({uint32_t(counter), uint32_t(counter >> 32), 0, 0},
                       {uint32_t(seed), uint32_t(seed >> 32)})[index % 4];
}

uint32_t fp8::philoxRandom16(uint64_t seed, uint64_t index) {
  uint64_t counter = index / 8;
  uint32_t word =
      philox4x32x10({uint32_t(counter), uint32_t(counter >> 32), 0, 0},
                    {uint32_t(seed), uint32_t(seed >> 32)})[(index % 8) / 2];
  return (word >> (16 * (index % 2))) & 0xFFFF;
}

static Value constI32(OpBuilder &b, Location loc, uint32_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                      static_cast<int64_t>(value));
}

static Value constF32(OpBuilder &b, Location loc, float value) {
  return arith::ConstantOp::create(b, loc, b.getF32FloatAttr(value));
}

/// The low and high 32-bit words of an i64 value.
static std::pair<Value, Value> splitI64(OpBuilder &b, Location loc,
                                        Value value) {
  Type i32 = b.getI32Type();
  Value thirtyTwo = arith::ConstantIntOp::create(b, loc, b.getI64Type(), 32);
  Value lo = arith::TruncIOp::create(b, loc, i32, value);
  Value hi = arith::TruncIOp::create(
      b, loc, i32, arith::ShRUIOp::create(b, loc, value, thirtyTwo));
  return {lo, hi};
}

std::array<Value, 4> fp8::buildPhilox4x32x10(OpBuilder &b, Location loc,
                                             std::array<Value, 4> c,
                                             std::array<Value, 2> k) {
  Value m0 = constI32(b, loc, kPhiloxM0), m1 = constI32(b, loc, kPhiloxM1);
  Value w0 = constI32(b, loc, kPhiloxW0), w1 = constI32(b, loc, kPhiloxW1);
  for (int round = 0; round < kPhiloxRounds; ++round) {
    if (round > 0) {
      k[0] = arith::AddIOp::create(b, loc, k[0], w0);
      k[1] = arith::AddIOp::create(b, loc, k[1], w1);
    }
    // mulhi/mullo of a 32-bit constant: one wide multiply on the GPU.
    auto p0 = arith::MulUIExtendedOp::create(b, loc, m0, c[0]);
    auto p1 = arith::MulUIExtendedOp::create(b, loc, m1, c[2]);
    Value n0 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p1.getHigh(), c[1]), k[0]);
    Value n2 = arith::XOrIOp::create(
        b, loc, arith::XOrIOp::create(b, loc, p0.getHigh(), c[3]), k[1]);
    c = {n0, p1.getLow(), n2, p0.getLow()};
  }
  return c;
}

std::array<Value, 4> fp8::buildPhiloxRandom4x32(OpBuilder &b, Location loc,
                                                Value seed, Value counterLo,
                                                Value counterHi) {
  Value zero = constI32(b, loc, 0);
  auto [k0, k1] = splitI64(b, loc, seed);
  return buildPhilox4x32x10(b, loc, {counterLo, counterHi, zero, zero},
                            {k0, k1});
}

std::array<Value, 4> fp8::buildPhiloxRandom4x32(OpBuilder &b, Location loc,
                                                Value seed, Value counter) {
  auto [c0, c1] = splitI64(b, loc, counter);
  return buildPhiloxRandom4x32(b, loc, seed, c0, c1);
}

Value fp8::buildPhiloxRandom16(OpBuilder &b, Location loc, Value seed,
                               Value index) {
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  auto constI64 = [&](int64_t value) {
    return arith::ConstantIntOp::create(b, loc, i64, value);
  };
  Value counter = arith::ShRUIOp::create(b, loc, index, constI64(3));
  std::array<Value, 4> words = buildPhiloxRandom4x32(b, loc, seed, counter);
  // Word (index mod 8) / 2, by selects (a CPU reference computes the whole
  // call per element; only the GPU kernels share one call among eight).
  Value lane = arith::TruncIOp::create(
      b, loc, i32,
      arith::AndIOp::create(b, loc,
                            arith::ShRUIOp::create(b, loc, index, constI64(1)),
                            constI64(3)));
  Value word = words[0];
  for (uint32_t w = 1; w < 4; ++w)
    word = arith::SelectOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                              constI32(b, loc, w)),
        words[w], word);
  // The low half for an even index, the high half for an odd one.
  Value shift = arith::TruncIOp::create(
      b, loc, i32,
      arith::ShLIOp::create(b, loc,
                            arith::AndIOp::create(b, loc, index, constI64(1)),
                            constI64(4)));
  return arith::AndIOp::create(b, loc,
                               arith::ShRUIOp::create(b, loc, word, shift),
                               constI32(b, loc, 0xFFFF));
}

//===----------------------------------------------------------------------===//
// Scales
//===----------------------------------------------------------------------===//

static Value bitcastToI32(OpBuilder &b, Location loc, Value f32) {
  return arith::BitcastOp::create(b, loc, b.getI32Type(), f32);
}

static Value bitcastToF32(OpBuilder &b, Location loc, Value i32) {
  return arith::BitcastOp::create(b, loc, b.getF32Type(), i32);
}

static Value cmpI32(OpBuilder &b, Location loc, arith::CmpIPredicate pred,
                    Value lhs, uint32_t rhs) {
  return arith::CmpIOp::create(b, loc, pred, lhs, constI32(b, loc, rhs));
}

/// The sign of an f32 as an FP8 sign bit (0 or 0x80) and its magnitude bits.
static std::pair<Value, Value> splitSign(OpBuilder &b, Location loc, Value x) {
  Value bits = bitcastToI32(b, loc, x);
  Value sign = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, constI32(b, loc, 24)),
      constI32(b, loc, 0x80));
  Value magnitude =
      arith::AndIOp::create(b, loc, bits, constI32(b, loc, 0x7FFFFFFF));
  return {sign, magnitude};
}

static Value selectI32(OpBuilder &b, Location loc, Value cond, uint32_t value,
                       Value otherwise) {
  return arith::SelectOp::create(b, loc, cond, constI32(b, loc, value),
                                 otherwise);
}

/// An E8M0 code (biased exponent, 255 = NaN) as an f32 power of two. Code 0
/// is 2^-127, an f32 subnormal; exact either way.
static Value e8m0CodeToF32(OpBuilder &b, Location loc, Value code) {
  Value normal = arith::ShLIOp::create(b, loc, code, constI32(b, loc, 23));
  Value isZero = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code,
                                       constI32(b, loc, 0));
  Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code,
                                      constI32(b, loc, 255));
  Value bits = selectI32(b, loc, isZero, 0x00400000, normal);
  bits = selectI32(b, loc, isNaN, 0x7FC00000, bits);
  return bitcastToF32(b, loc, bits);
}

/// The reciprocal 2^(127 - code) of an E8M0 code as f32: the quantization
/// multiplier of a power-of-two scale. It is exact for every finite code
/// (2^127 for code 0 is a normal f32; 2^-127 for code 254 is the subnormal
/// 0x00400000, which the exponent field alone cannot express); NaN for 255.
static Value e8m0CodeToReciprocalF32(OpBuilder &b, Location loc, Value code) {
  Value exponent = arith::SubIOp::create(b, loc, constI32(b, loc, 254), code);
  Value bits = arith::ShLIOp::create(b, loc, exponent, constI32(b, loc, 23));
  Value isTop = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code,
                                      constI32(b, loc, 254));
  bits = selectI32(b, loc, isTop, 0x00400000, bits);
  Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code,
                                      constI32(b, loc, 255));
  return bitcastToF32(b, loc, selectI32(b, loc, isNaN, 0x7FC00000, bits));
}

/// NVIDIA's RCEIL (the software definition of cvt.rp.satfinite.ue8m0x2.f32):
/// the E8M0 code of the smallest power of two >= |d|, saturated to
/// [2^-127, 2^127]; NaN -> 255, +Inf -> 254.
static Value buildRoundUpToE8M0(OpBuilder &b, Location loc, Value d) {
  Value magnitude = arith::AndIOp::create(b, loc, bitcastToI32(b, loc, d),
                                          constI32(b, loc, 0x7FFFFFFF));
  Value exponent =
      arith::ShRUIOp::create(b, loc, magnitude, constI32(b, loc, 23));
  Value mantissa =
      arith::AndIOp::create(b, loc, magnitude, constI32(b, loc, 0x7FFFFF));
  // Round up unless d is a power of two already, is at the top code, or is
  // a subnormal at most 2^-127 (which code 0 represents).
  Value inexact = cmpI32(b, loc, arith::CmpIPredicate::ugt, mantissa, 0);
  Value belowTop = cmpI32(b, loc, arith::CmpIPredicate::ne, exponent, 254);
  Value tinySubnormal = arith::AndIOp::create(
      b, loc, cmpI32(b, loc, arith::CmpIPredicate::eq, exponent, 0),
      cmpI32(b, loc, arith::CmpIPredicate::ule, mantissa, 0x400000));
  Value notTiny = arith::XOrIOp::create(
      b, loc, tinySubnormal,
      arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  Value bump = arith::AndIOp::create(
      b, loc, arith::AndIOp::create(b, loc, inexact, belowTop), notTiny);
  Value code = arith::AddIOp::create(
      b, loc, exponent, arith::ExtUIOp::create(b, loc, b.getI32Type(), bump));
  Value isNaN =
      cmpI32(b, loc, arith::CmpIPredicate::ugt, magnitude, 0x7F800000);
  Value isInf = cmpI32(b, loc, arith::CmpIPredicate::eq, magnitude, 0x7F800000);
  code = selectI32(b, loc, isInf, 254, code);
  return selectI32(b, loc, isNaN, 255, code);
}

/// The OCP MX rule: code = clamp(floor(log2(amax)) - emax + margin, -127, 127)
/// + 127 from the exponent field of amax (0 and subnormals count as 2^-127);
/// NaN -> 255.
static Value buildOCPFloorE8M0(OpBuilder &b, Location loc, Value amax,
                               int maxExponent, int64_t margin) {
  Value magnitude = arith::AndIOp::create(b, loc, bitcastToI32(b, loc, amax),
                                          constI32(b, loc, 0x7FFFFFFF));
  Value exponent =
      arith::ShRUIOp::create(b, loc, magnitude, constI32(b, loc, 23));
  // biased code = exponent - emax + margin, clamped to [0, 254].
  Value code = arith::AddIOp::create(
      b, loc, exponent,
      constI32(b, loc, static_cast<uint32_t>(margin - maxExponent)));
  code = arith::MaxSIOp::create(b, loc, code, constI32(b, loc, 0));
  code = arith::MinSIOp::create(b, loc, code, constI32(b, loc, 254));
  Value isNaN = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ugt,
                                      magnitude, constI32(b, loc, 0x7F800000));
  return selectI32(b, loc, isNaN, 255, code);
}

/// The stored form of a power-of-two scale with E8M0 code `code` (i32).
static Value storeE8M0Code(OpBuilder &b, Location loc, Value code,
                           Type scaleType) {
  if (isa<Float32Type>(scaleType))
    return e8m0CodeToF32(b, loc, code);
  Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), code);
  return arith::BitcastOp::create(b, loc, scaleType, byte);
}

TileScales fp8::buildTileScales(OpBuilder &b, Location loc, Value amax,
                                Type elementType, ScalingAttr scaling,
                                int64_t margin) {
  FP8Format format = getFP8Format(elementType);
  Type scaleType = scaling.getScale();
  float marginFactor = std::ldexp(1.0f, static_cast<int>(margin));
  switch (scaling.getRound()) {
  case ScaleRound::exact: {
    // torchao's amax_to_scale: fmax / max(amax, 1e-12) in f64, rounded to
    // f32. For every f32 amax above the clamp this equals the correctly
    // rounded f32 division; at or below fl32(1e-12) it is the constant
    // fl32(fmax / 1e-12). The margin divides fmax first, as TE does.
    float scaledMax = format.maxValue / marginFactor;
    float clampQuantScale = static_cast<float>(double(scaledMax) / 1e-12);
    Value tiny = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLE, amax,
                                       constF32(b, loc, 1e-12f));
    Value divided =
        arith::DivFOp::create(b, loc, constF32(b, loc, scaledMax), amax);
    Value quantScale = arith::SelectOp::create(
        b, loc, tiny, constF32(b, loc, clampQuantScale), divided);
    // The stored dequantization scale is 1/qscale, correctly rounded, as
    // torch._scaled_mm takes it.
    Value stored =
        arith::DivFOp::create(b, loc, constF32(b, loc, 1.0f), quantScale);
    return {quantScale, stored};
  }
  case ScaleRound::pow2_ceil: {
    // RCEIL: d = amax * fl32(1/fmax) (a multiply, as TE and the PTX path
    // do), rounded up to a power of two.
    Value d = arith::MulFOp::create(b, loc, amax,
                                    constF32(b, loc, 1.0f / format.maxValue));
    if (margin != 0)
      d = arith::MulFOp::create(b, loc, d, constF32(b, loc, marginFactor));
    Value code = buildRoundUpToE8M0(b, loc, d);
    return {e8m0CodeToReciprocalF32(b, loc, code),
            storeE8M0Code(b, loc, code, scaleType)};
  }
  case ScaleRound::pow2_floor: {
    Value code = buildOCPFloorE8M0(b, loc, amax, format.maxExponent, margin);
    return {e8m0CodeToReciprocalF32(b, loc, code),
            storeE8M0Code(b, loc, code, scaleType)};
  }
  }
  llvm_unreachable("unknown scale rounding");
}

Value fp8::buildScaleToF32(OpBuilder &b, Location loc, Value scale) {
  if (isa<Float32Type>(scale.getType()))
    return scale;
  Value byte = arith::BitcastOp::create(b, loc, b.getI8Type(), scale);
  return e8m0CodeToF32(b, loc,
                       arith::ExtUIOp::create(b, loc, b.getI32Type(), byte));
}

//===----------------------------------------------------------------------===//
// Casts
//===----------------------------------------------------------------------===//

/// Round-to-nearest-even of an f32 with |x| <= fmax (or NaN) to FP8 bits, in
/// integer arithmetic (PyTorch's c10 algorithm): no f8 arithmetic, so the CPU
/// reference needs no software floating point, and NaN keeps its sign.
static Value buildRoundToNearestBits(OpBuilder &b, Location loc, Value x,
                                     Type elementType) {
  FP8Format format = getFP8Format(elementType);
  unsigned m = format.mantissaBits, dropped = 23 - m;
  auto [sign, magnitude] = splitSign(b, loc, x);

  // Normal targets: add half an FP8 ulp minus one, plus the kept lsb (ties
  // to even), rebias the exponent and drop the low bits.
  Value odd = arith::AndIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc, magnitude, constI32(b, loc, dropped)),
      constI32(b, loc, 1));
  uint32_t rebias = uint32_t(format.bias - 127) << 23;
  Value normal = arith::AddIOp::create(
      b, loc, magnitude, constI32(b, loc, rebias + (1u << (dropped - 1)) - 1));
  normal = arith::AddIOp::create(b, loc, normal, odd);
  normal = arith::ShRUIOp::create(b, loc, normal, constI32(b, loc, dropped));

  // Subnormal targets: adding 2^(emin - m + 23) makes the f32 adder round
  // |x| to a multiple of the FP8 quantum in its low mantissa bits.
  uint32_t magicBits = uint32_t(127 + format.minNormalExponent - int(m) + 23)
                       << 23;
  Value magic = bitcastToF32(b, loc, constI32(b, loc, magicBits));
  Value sum =
      arith::AddFOp::create(b, loc, bitcastToF32(b, loc, magnitude), magic);
  Value subnormal = arith::SubIOp::create(b, loc, bitcastToI32(b, loc, sum),
                                          constI32(b, loc, magicBits));

  Value isNormal = cmpI32(b, loc, arith::CmpIPredicate::uge, magnitude,
                          uint32_t(127 + format.minNormalExponent) << 23);
  Value code = arith::SelectOp::create(b, loc, isNormal, normal, subnormal);
  code = selectI32(
      b, loc, cmpI32(b, loc, arith::CmpIPredicate::ugt, magnitude, 0x7F800000),
      format.nanCode, code);
  code = arith::OrIOp::create(b, loc, code, sign);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), code);
}

Value fp8::buildSaturatingCast(OpBuilder &b, Location loc, Value x,
                               Type elementType) {
  float maxValue = getFP8Format(elementType).maxValue;
  // maximumf/minimumf propagate NaN, so NaN reaches the cast and stays NaN;
  // after the clamp the round-to-nearest-even cast cannot overflow.
  Value clamped =
      arith::MaximumFOp::create(b, loc, x, constF32(b, loc, -maxValue));
  clamped =
      arith::MinimumFOp::create(b, loc, clamped, constF32(b, loc, maxValue));
  Value byte = buildRoundToNearestBits(b, loc, clamped, elementType);
  return arith::BitcastOp::create(b, loc, elementType, byte);
}

Value fp8::buildRoundF32To(OpBuilder &b, Location loc, Value x,
                           Type elementType) {
  if (elementType.isF32())
    return x;
  if (!elementType.isBF16())
    return arith::TruncFOp::create(b, loc, elementType, x);
  Value bits = bitcastToI32(b, loc, x);
  // c10::round_to_nearest_even: add 0x7FFF plus the kept part's lowest bit.
  Value lowestKept = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, bits, constI32(b, loc, 16)),
      constI32(b, loc, 1));
  Value rounded = arith::ShRUIOp::create(
      b, loc,
      arith::AddIOp::create(
          b, loc, bits,
          arith::AddIOp::create(b, loc, lowestKept, constI32(b, loc, 0x7FFF))),
      constI32(b, loc, 16));
  Value isNaN = arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value result = selectI32(b, loc, isNaN, 0x7FC0, rounded);
  return arith::BitcastOp::create(
      b, loc, elementType,
      arith::TruncIOp::create(b, loc, b.getIntegerType(16), result));
}

Value fp8::buildFP8ToF32(OpBuilder &b, Location loc, Value value) {
  Type elementType = value.getType();
  if (!isFP8DataType(elementType))
    return elementType.isF32()
               ? value
               : arith::ExtFOp::create(b, loc, b.getF32Type(), value)
                     .getResult();
  FP8Format format = getFP8Format(elementType);
  unsigned m = format.mantissaBits;
  unsigned exponentBits = 7 - m;
  Value byte = arith::ExtUIOp::create(
      b, loc, b.getI32Type(),
      arith::BitcastOp::create(b, loc, b.getI8Type(), value));
  Value sign = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, byte, constI32(b, loc, 0x80)),
      constI32(b, loc, 24));
  Value exponent = arith::AndIOp::create(
      b, loc, arith::ShRUIOp::create(b, loc, byte, constI32(b, loc, m)),
      constI32(b, loc, (1u << exponentBits) - 1));
  Value mantissa =
      arith::AndIOp::create(b, loc, byte, constI32(b, loc, (1u << m) - 1));
  // Normal: rebias the exponent, widen the mantissa.
  Value normal = arith::OrIOp::create(
      b, loc,
      arith::ShLIOp::create(
          b, loc,
          arith::AddIOp::create(b, loc, exponent,
                                constI32(b, loc, uint32_t(127 - format.bias))),
          constI32(b, loc, 23)),
      arith::ShLIOp::create(b, loc, mantissa, constI32(b, loc, 23 - m)));
  // Subnormal: mantissa times the quantum 2^(emin - m), exact in f32.
  Value subnormal = bitcastToI32(
      b, loc,
      arith::MulFOp::create(
          b, loc, arith::UIToFPOp::create(b, loc, b.getF32Type(), mantissa),
          constF32(b, loc,
                   std::ldexp(1.0f, format.minNormalExponent - int(m)))));
  Value magnitude = arith::SelectOp::create(
      b, loc, cmpI32(b, loc, arith::CmpIPredicate::eq, exponent, 0), subnormal,
      normal);
  // Specials keep their mantissa bits in the top of the f32 mantissa, as a
  // widening conversion does (PyTorch's too: e4m3fn NaN is 0x7FF00000);
  // e5m2 NaNs come out quiet. e4m3fn has only NaN (S.1111.111); e5m2 has
  // Inf and NaNs.
  uint32_t topExponent = (1u << exponentBits) - 1;
  Value payload =
      arith::ShLIOp::create(b, loc, mantissa, constI32(b, loc, 23 - m));
  Value special =
      arith::OrIOp::create(b, loc, constI32(b, loc, 0x7F800000), payload);
  if (isa<Float8E5M2Type>(elementType))
    special = selectI32(
        b, loc, cmpI32(b, loc, arith::CmpIPredicate::eq, mantissa, 0),
        0x7F800000,
        arith::OrIOp::create(b, loc, constI32(b, loc, 0x7FC00000), payload));
  Value isSpecial =
      cmpI32(b, loc, arith::CmpIPredicate::eq, exponent, topExponent);
  if (isa<Float8E4M3FNType>(elementType))
    isSpecial = arith::AndIOp::create(
        b, loc, isSpecial,
        cmpI32(b, loc, arith::CmpIPredicate::eq, mantissa, 7));
  magnitude = arith::SelectOp::create(b, loc, isSpecial, special, magnitude);
  return bitcastToF32(b, loc, arith::OrIOp::create(b, loc, magnitude, sign));
}

Value fp8::buildStochasticCast(OpBuilder &b, Location loc, Value x,
                               Value random, Type elementType) {
  Value byte = buildStochasticCastBits(b, loc, x, random, elementType);
  return arith::BitcastOp::create(b, loc, elementType, byte);
}

Value fp8::buildStochasticCastBits(OpBuilder &b, Location loc, Value x,
                                   Value random, Type elementType) {
  FP8Format format = getFP8Format(elementType);
  unsigned m = format.mantissaBits;
  // Bits of an f32 mantissa that a cast to a normal FP8 value drops.
  unsigned dropped = 23 - m;

  auto [sign, magnitude] = splitSign(b, loc, x);
  // The 16 random bits at the top of the dropped field.
  Value noise = arith::ShLIOp::create(
      b, loc, arith::AndIOp::create(b, loc, random, constI32(b, loc, 0xFFFF)),
      constI32(b, loc, dropped - kStochasticBits));

  // Target-normal range: add the noise to the dropped bits and truncate; a
  // carry moves into the exponent, which is the correct next FP8 value.
  Value rebias = constI32(b, loc, uint32_t(127 - format.bias) << m);
  Value normalCode = arith::SubIOp::create(
      b, loc,
      arith::ShRUIOp::create(b, loc,
                             arith::AddIOp::create(b, loc, magnitude, noise),
                             constI32(b, loc, dropped)),
      rebias);

  // Target-subnormal range: the FP8 quantum is 2^(emin - m); scale |x| by its
  // inverse (exact, a power of two), keep `dropped` fraction bits, and round
  // the same way. A result of 2^m is the smallest normal code.
  float toQuanta =
      std::ldexp(1.0f, static_cast<int>(m) - format.minNormalExponent +
                           static_cast<int>(dropped));
  Value scaled = arith::MulFOp::create(b, loc, bitcastToF32(b, loc, magnitude),
                                       constF32(b, loc, toQuanta));
  Value fixedPoint = arith::FPToUIOp::create(b, loc, b.getI32Type(), scaled);
  Value subnormalCode = arith::ShRUIOp::create(
      b, loc, arith::AddIOp::create(b, loc, fixedPoint, noise),
      constI32(b, loc, dropped));

  Value isNormal = cmpI32(b, loc, arith::CmpIPredicate::uge, magnitude,
                          uint32_t(127 + format.minNormalExponent) << 23);
  Value code =
      arith::SelectOp::create(b, loc, isNormal, normalCode, subnormalCode);
  uint32_t maxBits = llvm::bit_cast<uint32_t>(format.maxValue);
  code = selectI32(
      b, loc, cmpI32(b, loc, arith::CmpIPredicate::uge, magnitude, maxBits),
      format.maxCode, code);
  code = selectI32(
      b, loc, cmpI32(b, loc, arith::CmpIPredicate::ugt, magnitude, 0x7F800000),
      format.nanCode, code);
  code = arith::OrIOp::create(b, loc, code, sign);
  return arith::TruncIOp::create(b, loc, b.getI8Type(), code);
}
