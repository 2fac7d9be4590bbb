//===- ExpExpansionTest.cpp - the kernels' exp equals MLIR's expansion ----===//
//
// The kernels expand f32 math.exp themselves (ExpToArith in
// MathExpansion.cpp) instead of by MLIR 22's polynomial approximation, and
// claim the same bits in fewer instructions. The two differ in three steps:
// the clamps (max/min instead of compare-and-select), n (the floor of the
// clamped argument by a rounding shift instead of the clamp of a floor
// through i32) and 2^n (bits of a float sum instead of a shifted i32). No
// GPU exists here, so this test checks that algebra on the host in f32
// arithmetic: `mlirExpansion` is MLIR's sequence, `kernelExpansion` the
// kernels'; they agree bit for bit (NaN as NaN: the GPU's arithmetic makes
// every NaN the canonical one) on dense sweeps of the arguments where n
// changes and on a sweep of every exponent. Those host copies could drift
// from the builders, so the last test also builds the IR itself: math.exp
// through the kernels' expandMathFunctions and through MLIR's polynomial
// approximation alone, each evaluated by folding its ops on constant
// inputs (fma as one rounding), must give the same bits, and the kernels'
// IR the host copy's.
//
//===----------------------------------------------------------------------===//

#include "Program/KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/bit.h"

#include "gtest/gtest.h"

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

using namespace mlir;
using namespace mlir::fp8;

namespace {

float fromBits(uint32_t bits) { return llvm::bit_cast<float>(bits); }
uint32_t bitsOf(float x) { return llvm::bit_cast<uint32_t>(x); }

/// MLIR's clampWithNormals: select(x uge low, x, low), then select(x ule
/// high, x, high); a NaN passes.
float clampBySelect(float x, float low, float high) {
  x = (std::isnan(x) || x >= low) ? x : low;
  return (std::isnan(x) || x <= high) ? x : high;
}

/// max.NaN.f32 then min.NaN.f32.
float clampByMaxMin(float x, float low, float high) {
  if (std::isnan(x))
    return x;
  return std::fmin(std::fmax(x, low), high);
}

/// e^(x - n ln 2) by the Cephes polynomial, times 2^n: the steps both
/// expansions share.
float finish(float x, float n, float pow2) {
  float r = std::fma(-0.693359375f, n, x);
  r = std::fma(2.12194440e-4f, n, r);
  float z = std::fma(r, 1.9875691500e-4f, 1.3981999507e-3f);
  for (float c :
       {8.3334519073e-3f, 4.1665795894e-2f, 1.6666665459e-1f, 5.0000001201e-1f})
    z = std::fma(z, r, c);
  z = std::fma(z, r * r, r);
  z = 1.0f + z;
  return z * pow2;
}

/// n and 2^n as MLIR's expansion computes them from a = x log2(e) + 1/2:
/// floor (FloorToArith: exact floorf), the clamp to [-127, 127], fptosi
/// (NaN -> 0 on the GPU), (n + 127) << 23.
void mlirExponent(float a, float &n, float &pow2) {
  n = clampBySelect(std::floor(a), -127.0f, 127.0f);
  int32_t i = std::isnan(n) ? 0 : int32_t(n);
  pow2 = fromBits(uint32_t(i + 127) << 23);
}

/// The kernels': the clamp, then floor by the rounding shift 1.5 * 2^23,
/// and 2^n from the bits of n + 1.5 * 2^23 + 127.
void kernelExponent(float a, float &n, float &pow2) {
  const float shift = 12582912.0f;
  float c = clampByMaxMin(a, -127.0f, 127.0f);
  float rounded = (c + shift) - shift;
  n = rounded > c ? rounded - 1.0f : rounded;
  pow2 = fromBits(bitsOf(n + (shift + 127.0f)) << 23);
}

float mlirExpansion(float x) {
  x = clampBySelect(x, -87.8f, 88.8f);
  float n, pow2;
  mlirExponent(std::fma(x, 1.44269504088896341f, 0.5f), n, pow2);
  return finish(x, n, pow2);
}

float kernelExpansion(float x) {
  x = clampByMaxMin(x, -87.8f, 88.8f);
  float n, pow2;
  kernelExponent(std::fma(x, 1.44269504088896341f, 0.5f), n, pow2);
  return finish(x, n, pow2);
}

bool sameBits(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || bitsOf(a) == bitsOf(b);
}

/// n and 2^n agree for every a near each integer and half-integer of
/// [-130, 130] (256 floats either side), for every 64th float of that
/// range, and for the special values.
TEST(ExpExpansion, ExponentMatchesFloorClampAndShift) {
  auto check = [](float a) {
    float mlirN, mlirPow2, kernelN, kernelPow2;
    mlirExponent(a, mlirN, mlirPow2);
    kernelExponent(a, kernelN, kernelPow2);
    if (std::isnan(a))
      return; // n is NaN either way, and so is the result (finish).
    if (bitsOf(a) == 0x80000000u)
      return; // floor(-0) = -0 but the shift gives +0; a = fma(x, log2(e),
              // 1/2) is never -0 (an exact zero sum rounds to +0).
    ASSERT_EQ(bitsOf(mlirN), bitsOf(kernelN)) << "a = " << a;
    ASSERT_EQ(bitsOf(mlirPow2), bitsOf(kernelPow2)) << "a = " << a;
  };
  for (int k = -260; k <= 260; ++k) {
    float center = 0.5f * float(k);
    uint32_t bits = bitsOf(center);
    for (int d = -256; d <= 256; ++d) {
      if (center == 0.0f) {
        check(fromBits(uint32_t(std::abs(d))));
        check(fromBits(0x80000000u | uint32_t(std::abs(d))));
      } else {
        check(fromBits(bits + uint32_t(d)));
      }
    }
  }
  for (uint32_t bits = 0; bits < 0x43020000u; bits += 64) { // |a| < 130
    check(fromBits(bits));
    check(fromBits(bits | 0x80000000u));
  }
  for (uint32_t bits : {0x7F800000u, 0xFF800000u, 0x7F7FFFFFu, 0xFF7FFFFFu,
                        0x7FC00000u, 0x00000001u, 0x80000001u})
    check(fromBits(bits));
}

/// The whole exp agrees on every 4096th f32 bit pattern (every exponent,
/// both signs, NaN and inf included) and densely where e^x is finite.
TEST(ExpExpansion, MatchesMlirExpansion) {
  uint64_t checked = 0;
  auto check = [&](float x) {
    float expected = mlirExpansion(x), actual = kernelExpansion(x);
    ASSERT_TRUE(sameBits(expected, actual))
        << "x = " << x << " (0x" << std::hex << bitsOf(x) << "): MLIR "
        << expected << ", kernels " << actual;
    ++checked;
  };
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 4096)
    check(fromBits(uint32_t(bits)));
  for (float x = -90.0f; x <= 90.0f; x += 1.0f / 1024.0f)
    check(x);
  EXPECT_GT(checked, 1000000u);
}

/// math.exp of an f32 argument, in a gpu.func, expanded either by the
/// kernels' expandMathFunctions or by MLIR's polynomial approximation
/// alone, and evaluated on constants by folding each op in order.
class ExpIR {
public:
  explicit ExpIR(bool kernels) {
    context.loadDialect<arith::ArithDialect, gpu::GPUDialect, LLVM::LLVMDialect,
                        math::MathDialect, NVVM::NVVMDialect>();
    OpBuilder b(&context);
    Location loc = b.getUnknownLoc();
    module = ModuleOp::create(loc);
    b.setInsertionPointToEnd(module->getBody());
    auto gpuModule = gpu::GPUModuleOp::create(b, loc, "exp");
    b.setInsertionPointToStart(gpuModule.getBody());
    Type f32 = b.getF32Type();
    func =
        gpu::GPUFuncOp::create(b, loc, "exp", b.getFunctionType({f32}, {f32}));
    b.setInsertionPointToStart(&func.getBody().front());
    Value e = math::ExpOp::create(b, loc, func.getArgument(0));
    gpu::ReturnOp::create(b, loc, e);
    if (kernels) {
      expanded = succeeded(kernels::expandMathFunctions(func));
    } else {
      RewritePatternSet patterns(&context);
      populateMathPolynomialApproximationPatterns(patterns);
      expanded = succeeded(applyPatternsGreedily(func, std::move(patterns)));
    }
  }

  bool isExpanded() {
    bool anyExp = false;
    func.walk([&](math::ExpOp) { anyExp = true; });
    return expanded && !anyExp;
  }

  /// The result's bits for input x, or nullopt with `culprit` printing the
  /// first op that did not fold.
  std::optional<uint32_t> evaluate(float x, std::string &culprit) {
    DenseMap<Value, Attribute> constants;
    constants[func.getArgument(0)] =
        FloatAttr::get(Float32Type::get(&context), APFloat(x));
    for (Operation &op : func.getBody().front()) {
      SmallVector<Attribute> operands;
      for (Value operand : op.getOperands())
        operands.push_back(constants.lookup(operand));
      if (isa<gpu::ReturnOp>(op)) {
        auto value = dyn_cast_or_null<FloatAttr>(operands[0]);
        if (!value)
          return std::nullopt;
        return uint32_t(value.getValue().bitcastToAPInt().getZExtValue());
      }
      // fma.rn: one rounding, whichever op spells it.
      if (isa<LLVM::FMAOp, math::FmaOp>(op)) {
        float v[3];
        for (int i = 0; i < 3; ++i) {
          auto a = dyn_cast_or_null<FloatAttr>(operands[i]);
          if (!a) {
            culprit = op.getName().getStringRef().str();
            return std::nullopt;
          }
          v[i] = a.getValue().convertToFloat();
        }
        constants[op.getResult(0)] = FloatAttr::get(
            op.getResult(0).getType(), APFloat(std::fma(v[0], v[1], v[2])));
        continue;
      }
      // fptosi of NaN (MLIR's expansion floors a NaN argument to NaN) has
      // no folder; the GPU's cvt.rzi.s32.f32 gives 0.
      if (auto convert = dyn_cast<arith::FPToSIOp>(op)) {
        auto a = dyn_cast_or_null<FloatAttr>(operands[0]);
        if (a && a.getValue().isNaN()) {
          constants[convert.getResult()] =
              IntegerAttr::get(convert.getType(), 0);
          continue;
        }
      }
      SmallVector<OpFoldResult> folded;
      if (failed(op.fold(operands, folded)) ||
          folded.size() != op.getNumResults()) {
        llvm::raw_string_ostream os(culprit);
        op.print(os);
        return std::nullopt;
      }
      for (auto [result, value] : llvm::zip(op.getResults(), folded))
        constants[result] = isa<Attribute>(value)
                                ? cast<Attribute>(value)
                                : constants.lookup(cast<Value>(value));
    }
    return std::nullopt;
  }

private:
  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  gpu::GPUFuncOp func;
  bool expanded = false;
};

/// The IR the kernels emit equals MLIR's expansion's IR, and the host
/// copy above, on every 2^20th bit pattern and on [-90, 90] in steps of
/// 1/16, and on the special values.
TEST(ExpExpansion, KernelIRMatchesMlirIR) {
  ExpIR kernelIR(true), mlirIR(false);
  ASSERT_TRUE(kernelIR.isExpanded());
  ASSERT_TRUE(mlirIR.isExpanded());
  std::vector<float> inputs;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 1 << 20)
    inputs.push_back(fromBits(uint32_t(bits)));
  for (float x = -90.0f; x <= 90.0f; x += 1.0f / 16.0f)
    inputs.push_back(x);
  for (uint32_t bits : {0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x00000001u,
                        0x80000000u, 0x42AF3333u, 0xC2AF999Au})
    inputs.push_back(fromBits(bits));
  size_t finite = 0;
  for (float x : inputs) {
    std::string culprit;
    std::optional<uint32_t> kernel = kernelIR.evaluate(x, culprit);
    ASSERT_TRUE(kernel) << "kernels' IR: " << culprit << " did not fold";
    std::optional<uint32_t> reference = mlirIR.evaluate(x, culprit);
    ASSERT_TRUE(reference) << "MLIR's IR: " << culprit << " did not fold";
    EXPECT_TRUE(sameBits(fromBits(*kernel), fromBits(*reference)))
        << "x = " << x << ": kernels' IR " << fromBits(*kernel)
        << ", MLIR's IR " << fromBits(*reference);
    EXPECT_TRUE(sameBits(fromBits(*kernel), kernelExpansion(x)))
        << "x = " << x << ": kernels' IR " << fromBits(*kernel)
        << ", host copy " << kernelExpansion(x);
    finite += std::isfinite(fromBits(*kernel)) && fromBits(*kernel) != 0.0f;
  }
  // Most inputs give a finite, non-zero e^x: the IR was evaluated, not
  // left as NaNs that compare equal.
  EXPECT_GT(finite, inputs.size() / 2);
}

} // namespace
