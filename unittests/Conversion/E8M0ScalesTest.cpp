//===- E8M0ScalesTest.cpp - sm_100a's cvt.rp scales equal the reference ---===//
//
// sm_100a kernels round RCEIL scales up with cvt.rp.satfinite.ue8m0x2.f32
// (E8M0Scales.h). No Blackwell GPU exists here, so the equality with the
// CPU reference is proven in two steps:
// 1. cvtRpModel is the instruction as the PTX ISA defines it (cvt,
//    9.7.9.21): ".rp: rounding toward positive infinity" into E8M0 (the
//    powers 2^-127 .. 2^127; code 255 is NaN); ".satfinite: ... if the
//    input value is NaN, then the result is NaN ... If the absolute value
//    of input (ignoring sign) is greater than MAX_NORM ... a positive
//    MAX_NORM in .ue8m0x2"; "By default, subnormal numbers are supported."
//    It is written from those words, not from the reference's bit
//    arithmetic, and equals docs/Numerics.md's RCEIL on every class of f32
//    (every exponent with the boundary mantissas; all 2^32 values in the
//    disabled test, about 20 s here).
// 2. The scale IR of the sm_100a kernels, with the instruction evaluated by
//    that model, folds to the same bits as the reference's buildTileScales
//    for amax over every exponent and for the amax that reach the boundary
//    d, for e4m3 and e5m2, f32 and E8M0 scales, with and without a margin.
//
//===----------------------------------------------------------------------===//

#include "Quantize/E8M0Scales.h"

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <vector>

using namespace mlir;
using namespace mlir::fp8;

namespace {

//===----------------------------------------------------------------------===//
// The instruction and the rule on one f32
//===----------------------------------------------------------------------===//

/// cvt.rp.satfinite.ue8m0x2.f32 on one input `x` >= 0 (the kernels pass
/// |d|), as the PTX ISA words it: NaN stays NaN (255); above MAX_NORM =
/// 2^127 (+inf included) it saturates to 2^127 (254); otherwise the least
/// E8M0 value 2^(c - 127) >= x, which for 0 and every x <= 2^-127 is the
/// smallest, 2^-127 (code 0).
uint8_t cvtRpModel(float x) {
  if (std::isnan(x))
    return 0xFF;
  if (x > std::ldexp(1.0f, 127))
    return 0xFE;
  if (double(x) <= std::ldexp(1.0, -127))
    return 0;
  // x = m * 2^e with m in [1/2, 1): 2^e >= x, and 2^(e - 1) >= x only for
  // m = 1/2 (x a power of two).
  int e;
  double m = std::frexp(double(x), &e);
  return uint8_t((m == 0.5 ? e - 1 : e) + 127);
}

/// docs/Numerics.md's RCEIL(d), transcribed from the page.
uint8_t rceilFromDocs(uint32_t bits) {
  uint32_t magnitude = bits & 0x7FFFFFFF;
  if (magnitude > 0x7F800000)
    return 255;
  if (magnitude == 0x7F800000)
    return 254;
  uint32_t e = magnitude >> 23, f = magnitude & 0x7FFFFF;
  return uint8_t(e + (f != 0 && e != 254 && !(e == 0 && f <= 0x400000)));
}

float fromBits(uint32_t bits) { return llvm::bit_cast<float>(bits); }

/// Mantissas that every exponent is tried with: the edges (0, 1, all ones),
/// 2^-127's half-way mantissa 0x400000 and its neighbours, every single bit,
/// every run of low and of high ones, and a fixed pseudo-random spread.
std::vector<uint32_t> boundaryMantissas(int numRandom) {
  std::vector<uint32_t> mantissas = {0,        1,        2,        3,
                                     0x7FFFFF, 0x7FFFFE, 0x3FFFFF, 0x400000,
                                     0x400001, 0x200000, 0x600000};
  for (int i = 0; i < 23; ++i) {
    mantissas.push_back(1u << i);
    mantissas.push_back((1u << i) - 1);
    mantissas.push_back(0x7FFFFF & ~((1u << i) - 1));
  }
  uint32_t state = 0x12345678;
  for (int i = 0; i < numRandom; ++i) {
    state = state * 1664525u + 1013904223u;
    mantissas.push_back(state >> 9);
  }
  return mantissas;
}

/// Every sign and exponent with each of `mantissas`.
std::vector<uint32_t> everyExponent(const std::vector<uint32_t> &mantissas) {
  std::vector<uint32_t> patterns;
  for (uint32_t sign = 0; sign < 2; ++sign)
    for (uint32_t exponent = 0; exponent < 256; ++exponent)
      for (uint32_t mantissa : mantissas)
        patterns.push_back(sign << 31 | exponent << 23 | mantissa);
  return patterns;
}

// The model gives docs/Numerics.md's RCEIL of |d| on every exponent with
// the boundary mantissas (both signs: the kernels take |d|, the rule the
// magnitude), and the documented edge codes.
TEST(CvtRpE8M0, EqualsRceilOnEveryClass) {
  for (uint32_t bits : everyExponent(boundaryMantissas(256)))
    ASSERT_EQ(cvtRpModel(std::fabs(fromBits(bits))), rceilFromDocs(bits))
        << std::hex << "d = 0x" << bits;
  // 0 and the subnormals up to 2^-127 -> 0; just above -> 1; 2^127 -> 254;
  // above it and +inf saturate to 254; NaN -> 255.
  EXPECT_EQ(cvtRpModel(0.0f), 0);
  EXPECT_EQ(cvtRpModel(fromBits(0x00400000)), 0);
  EXPECT_EQ(cvtRpModel(fromBits(0x00400001)), 1);
  EXPECT_EQ(cvtRpModel(fromBits(0x00800000)), 1);
  EXPECT_EQ(cvtRpModel(fromBits(0x00800001)), 2);
  EXPECT_EQ(cvtRpModel(1.0f), 127);
  EXPECT_EQ(cvtRpModel(fromBits(0x3F800001)), 128);
  EXPECT_EQ(cvtRpModel(fromBits(0x7F000000)), 254);
  EXPECT_EQ(cvtRpModel(fromBits(0x7F000001)), 254);
  EXPECT_EQ(cvtRpModel(INFINITY), 254);
  EXPECT_EQ(cvtRpModel(NAN), 255);
}

// The same on all 2^32 f32 patterns: run with
// --gtest_also_run_disabled_tests.
TEST(CvtRpE8M0, DISABLED_EqualsRceilOnAllFloats) {
  uint64_t mismatches = 0;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; ++bits)
    mismatches += cvtRpModel(std::fabs(fromBits(uint32_t(bits)))) !=
                  rceilFromDocs(uint32_t(bits));
  EXPECT_EQ(mismatches, 0u);
}

//===----------------------------------------------------------------------===//
// The kernels' scale IR against the reference's
//===----------------------------------------------------------------------===//

/// Builds scale IR for constant amax values and evaluates it by folding
/// each op on its operands' constants, in order (the IR is straight-line).
class ScaleIR {
public:
  ScaleIR() {
    context.loadDialect<arith::ArithDialect, FP8Dialect, func::FuncDialect,
                        NVVM::NVVMDialect>();
  }

  MLIRContext *getContext() { return &context; }

  /// The (qscale, stored scale) bits of each of `amaxes`: the reference's
  /// buildTileScales, or with `cvtRp` the sm_100a kernels' IR
  /// (buildRceilScales with buildCvtRpE8M0), whose instruction evaluates
  /// to cvtRpModel of each of its operands.
  std::vector<std::pair<uint32_t, uint32_t>>
  evaluate(const std::vector<float> &amaxes, Type elementType,
           ScalingAttr scaling, int64_t margin, bool cvtRp) {
    OpBuilder b(&context);
    Location loc = b.getUnknownLoc();
    OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    auto func =
        func::FuncOp::create(b, loc, "scales", b.getFunctionType({}, {}));
    b.setInsertionPointToStart(func.addEntryBlock());
    SmallVector<Value> results;
    for (float amax : amaxes) {
      Value value = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(amax));
      TileScales scales =
          cvtRp
              ? kernels::buildRceilScales(
                    b, loc, value, elementType, scaling, margin,
                    [&](Value d) { return kernels::buildCvtRpE8M0(b, loc, d); })
              : buildTileScales(b, loc, value, elementType, scaling, margin);
      results.push_back(scales.quantScale);
      results.push_back(scales.storedScale);
    }

    DenseMap<Value, Attribute> constants;
    for (Operation &op : func.getBody().front()) {
      SmallVector<Attribute> operands;
      for (Value operand : op.getOperands())
        operands.push_back(constants.lookup(operand));
      if (auto cvt = dyn_cast<NVVM::ConvertF32x2ToF8x2Op>(op)) {
        constants[cvt.getResult()] = evaluateCvt(cvt, operands);
        continue;
      }
      SmallVector<OpFoldResult> folded;
      if (failed(op.fold(operands, folded)) ||
          folded.size() != op.getNumResults())
        continue;
      for (auto [result, value] : llvm::zip(op.getResults(), folded))
        constants[result] = isa<Attribute>(value)
                                ? cast<Attribute>(value)
                                : constants.lookup(cast<Value>(value));
    }

    std::vector<std::pair<uint32_t, uint32_t>> bits;
    for (size_t i = 0; i < results.size(); i += 2)
      bits.push_back({constantBits(constants.lookup(results[i])),
                      constantBits(constants.lookup(results[i + 1]))});
    return bits;
  }

private:
  /// The i16 of cvt.rp.satfinite.ue8m0x2.f32 d, a, b: "the value converted
  /// from input a is stored in the upper 8 bits of d and the value
  /// converted from input b is stored in the lower 8 bits". Null (a
  /// failure) for any other form, and for a negative input, which the ISA
  /// does not define for this unsigned format.
  static Attribute evaluateCvt(NVVM::ConvertF32x2ToF8x2Op cvt,
                               ArrayRef<Attribute> operands) {
    EXPECT_EQ(cvt.getRnd(), NVVM::FPRoundingMode::RP);
    EXPECT_EQ(cvt.getSat(), NVVM::SaturationMode::SATFINITE);
    EXPECT_FALSE(cvt.getRelu());
    EXPECT_TRUE(isa<Float8E8M0FNUType>(cvt.getDstTy()));
    EXPECT_TRUE(cvt.getResult().getType().isInteger(16));
    uint32_t pair = 0;
    for (Attribute operand : operands) {
      auto value = dyn_cast_or_null<FloatAttr>(operand);
      if (!value)
        return {};
      float x = value.getValue().convertToFloat();
      EXPECT_FALSE(std::signbit(x) && !std::isnan(x)) << "cvt.rp of " << x;
      pair = pair << 8 | cvtRpModel(x);
    }
    return IntegerAttr::get(cvt.getResult().getType(), pair);
  }

  /// The bits of a float constant; anything else (an op that did not fold)
  /// gives 0xDEADBEEF, which no expected scale has.
  static uint32_t constantBits(Attribute attr) {
    auto value = dyn_cast_or_null<FloatAttr>(attr);
    if (!value)
      return 0xDEADBEEF;
    return uint32_t(value.getValue().bitcastToAPInt().getZExtValue());
  }

  MLIRContext context;
};

/// amax values whose d = fl32(fl32(amax * fl32(1/fmax)) * 2^margin) hits
/// the boundary patterns of RCEIL: 0, the subnormal 2^-127 and its
/// neighbours, and 2^k, its successor and its predecessor for every k.
std::vector<float> amaxReachingBoundaries(float fmax, int64_t margin) {
  float reciprocal = 1.0f / fmax;
  float factor = std::ldexp(1.0f, int(margin));
  std::vector<uint32_t> targets = {0, 0x003FFFFF, 0x00400000, 0x00400001,
                                   0x007FFFFF};
  for (uint32_t exponent = 1; exponent < 255; ++exponent)
    for (int32_t delta : {-1, 0, 1})
      targets.push_back((exponent << 23) + delta);
  std::vector<float> amaxes;
  for (uint32_t target : targets) {
    float wanted = fromBits(target);
    // d grows with amax: look around wanted / reciprocal / factor.
    float guess = wanted / reciprocal / factor;
    if (!std::isfinite(guess))
      continue;
    float amax = guess;
    for (int step = 0; step < 8; ++step)
      amax = std::nextafter(amax, 0.0f);
    for (int step = 0; step < 16; ++step, amax = std::nextafter(amax, INFINITY))
      if (amax * reciprocal * factor == wanted) {
        amaxes.push_back(amax);
        break;
      }
  }
  return amaxes;
}

// For every exponent of amax (both signs: a delayed amax operand may be
// negative), inf, NaN and the amax reaching RCEIL's boundaries, the sm_100a
// scales with the instruction's ISA model have the reference's bits: the
// quantization multiplier and the stored scale, for e4m3 and e5m2, f32 and
// E8M0 scales, margins 0 and 12.
TEST(CvtRpE8M0, KernelScalesEqualReference) {
  ScaleIR ir;
  MLIRContext *ctx = ir.getContext();
  // d's every mantissa pattern is step 1's; here every exponent of amax
  // with the edge mantissas shows the arithmetic around the instruction.
  std::vector<float> everyAmax;
  for (uint32_t bits : everyExponent({0, 1, 2, 0x3FFFFF, 0x400000, 0x400001,
                                      0x7FFFFE, 0x7FFFFF, 0x2A5A5A, 0x555555}))
    everyAmax.push_back(fromBits(bits));
  for (Type element :
       {Type(Float8E4M3FNType::get(ctx)), Type(Float8E5M2Type::get(ctx))}) {
    float fmax = getFP8Format(element).maxValue;
    for (Type scale :
         {Type(Float32Type::get(ctx)), Type(Float8E8M0FNUType::get(ctx))}) {
      auto scaling =
          ScalingAttr::get(ctx, {1, 32}, scale, ScaleRound::pow2_ceil);
      for (int64_t margin : {0, 12}) {
        std::vector<float> amaxes = everyAmax;
        std::vector<float> boundaries = amaxReachingBoundaries(fmax, margin);
        // About two thirds of the 767 boundary d are some amax's d (a step
        // of amax moves d by about 1.1 ulp; the top exponents need a
        // margin).
        EXPECT_GT(boundaries.size(), 450u);
        amaxes.insert(amaxes.end(), boundaries.begin(), boundaries.end());
        auto reference = ir.evaluate(amaxes, element, scaling, margin, false);
        auto kernel = ir.evaluate(amaxes, element, scaling, margin, true);
        ASSERT_EQ(reference.size(), amaxes.size());
        ASSERT_EQ(kernel.size(), amaxes.size());
        for (size_t i = 0; i < amaxes.size(); ++i) {
          ASSERT_NE(reference[i].first, 0xDEADBEEFu);
          ASSERT_EQ(kernel[i], reference[i])
              << std::hex << "amax = 0x" << llvm::bit_cast<uint32_t>(amaxes[i])
              << " margin " << std::dec << margin;
        }
      }
    }
  }
}

} // namespace
