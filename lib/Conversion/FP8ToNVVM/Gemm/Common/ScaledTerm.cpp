//===- ScaledTerm.cpp - applying a pair of scales to a partial sum --------===//

#include "ScaledTerm.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// The f32 bits of 2^e.
static int64_t powerOfTwoBits(int64_t e) { return (e + 127) << 23; }

/// The bits of |s|.
static Value magnitudeBits(KernelBuilder &b, Value s) {
  return b.andI(b.bitcast(b.getI32Type(), s), b.i32(0x7FFFFFFF));
}

/// Whether |s| lies in [2^lo, 2^hi] (by its bits: NaN and inf fall
/// outside). The sign does not matter: scales are positive in practice, but
/// a negative one (fp8-run's seeded scales have both signs) must not send
/// every K-block down the slow path (it cost blockwise a quarter of its
/// speed).
static Value inPowerRange(KernelBuilder &b, Value s, int64_t lo, int64_t hi) {
  return b.ult(b.sub(magnitudeBits(b, s), powerOfTwoBits(lo)),
               powerOfTwoBits(hi) - powerOfTwoBits(lo) + 1);
}

Value gemm::isNormal(KernelBuilder &b, Value s) {
  // [0x00800000, 0x7F7FFFFF]: the smallest normal up to max f32.
  return b.ult(b.sub(magnitudeBits(b, s), 0x00800000), 0x7F000000);
}

namespace {
/// The scaled term as fl32(fl32(P·first)·second): (sa·sb, 1) where the
/// product is a normal f32, else (sa, sb). One form for both cases keeps
/// the per-element work to a multiply and an FMA without extra registers.
struct ScaleFactors {
  Value first, second;
};
} // namespace

static ScaleFactors splitScales(KernelBuilder &b, Value sa, Value sb) {
  // sb * sa: not the instruction the cheap branch starts with, which LLVM
  // would hoist above the branch and keep live across it.
  Value product = b.mulF(sb, sa);
  Value normal = isNormal(b, product);
  return {arith::SelectOp::create(b, normal, product, sa),
          arith::SelectOp::create(b, normal, b.f32(1.0), sb)};
}

Value gemm::scaledTerm(KernelBuilder &b, Value partial, Value sa, Value sb) {
  if (!sa || !sb) {
    Value single = sa ? sa : sb;
    return single ? b.mulF(single, partial) : partial;
  }
  ScaleFactors factors = splitScales(b, sa, sb);
  return b.mulF(b.mulF(partial, factors.first), factors.second);
}

/// sum + the scaled term, with an FMA for its last multiply.
static Value addScaledTerm(KernelBuilder &b, Value partial,
                           const ScaleFactors &factors, Value sum) {
  Value first = b.mulF(partial, factors.first);
  return LLVM::FMAOp::create(b, first, factors.second, sum);
}

/// sum + partial times a single scale (or none).
static Value addSingleScaled(KernelBuilder &b, Value partial, Value scale,
                             Value sum) {
  return scale ? LLVM::FMAOp::create(b, partial, scale, sum).getResult()
               : arith::AddFOp::create(b, partial, sum).getResult();
}

// A partial sum of FP8 products is 0 or at least 2^-32 (e5m2's smallest
// subnormal squared) and below 2^39 (a chunk of at most 128 products of
// 57344^2 is 2^38.61; e4m3 is smaller): times a scale in [2^-94, 2^88] it
// stays a normal f32 (or 0). (2^90 overflowed for 128 e5m2 maxima.)
static constexpr int64_t kSafeScaleLog2Min = -94, kSafeScaleLog2Max = 88;
// Two scales within [2^-63, 2^63] have a normal f32 product.
static constexpr int64_t kNormalProductLog2 = 63;
static_assert(-kNormalProductLog2 >= kSafeScaleLog2Min &&
                  kNormalProductLog2 <= kSafeScaleLog2Max,
              "isCheapScale must imply both cheap forms' tests");

Value gemm::isCheapScale(KernelBuilder &b, Value s) {
  return inPowerRange(b, s, -kNormalProductLog2, kNormalProductLog2);
}

void gemm::promoteScaled(KernelBuilder &b, ArrayRef<Value> partials,
                         function_ref<Value(int64_t)> aScale,
                         function_ref<Value(int64_t)> bScale,
                         MutableArrayRef<Value> sums, bool scalesChecked) {
  int64_t n = partials.size();
  llvm::SetVector<Value> aValues, bValues;
  llvm::SetVector<std::pair<Value, Value>> pairs;
  for (int64_t i = 0; i < n; ++i) {
    Value sa = aScale(i), sb = bScale(i);
    if (!sa || !sb)
      continue;
    aValues.insert(sa);
    bValues.insert(sb);
    pairs.insert({sa, sb});
  }
  auto single = [&](int64_t i) {
    Value sa = aScale(i), sb = bScale(i);
    return addSingleScaled(b, partials[i], sa ? sa : sb, sums[i]);
  };
  if (pairs.empty()) {
    for (int64_t i = 0; i < n; ++i)
      sums[i] = single(i);
    return;
  }

  // The cheap form's condition, and its term per element.
  Value safe;
  auto andSafe = [&](Value condition) {
    safe = safe ? b.andI(safe, condition) : condition;
  };
  // The test of a scale: none where the caller checked them all.
  auto testScale = [&](Value s, int64_t lo, int64_t hi) {
    if (!scalesChecked)
      andSafe(inPowerRange(b, s, lo, hi));
  };
  // Elements without a pair (none here today) take the plain form.
  std::function<Value(int64_t)> cheapPair;
  auto cheap = [&](int64_t i) {
    if (!aScale(i) || !bScale(i))
      return single(i);
    return cheapPair(i);
  };
  constexpr size_t kFewPairs = 4;
  llvm::DenseMap<std::pair<Value, Value>, Value> products;
  if (pairs.size() <= kFewPairs) {
    // Each scale within [2^-63, 2^63], so that every product is a normal
    // f32. The test reads the scales, not their products: the products are
    // made inside the branch, so the branch keeps only the scales live (the
    // 128-register blockwise kernels have not one register to spare).
    for (Value s : llvm::concat<const Value>(aValues, bValues))
      testScale(s, -kNormalProductLog2, kNormalProductLog2);
    cheapPair = [&](int64_t i) {
      Value &product = products[{aScale(i), bScale(i)}];
      if (!product)
        product = b.mulF(aScale(i), bScale(i));
      return LLVM::FMAOp::create(b, partials[i], product, sums[i]).getResult();
    };
  } else {
    bool byA = aValues.size() <= bValues.size();
    for (Value s : byA ? aValues : bValues)
      testScale(s, kSafeScaleLog2Min, kSafeScaleLog2Max);
    cheapPair = [&, byA](int64_t i) {
      Value first = byA ? aScale(i) : bScale(i);
      Value second = byA ? bScale(i) : aScale(i);
      return LLVM::FMAOp::create(b, b.mulF(partials[i], first), second, sums[i])
          .getResult();
    };
  }

  if (scalesChecked) {
    for (int64_t i = 0; i < n; ++i)
      sums[i] = cheap(i);
    return;
  }

  SmallVector<Type> types(n, b.getF32Type());
  auto branch = scf::IfOp::create(b, types, safe, /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(&branch.getThenRegion().front());
  SmallVector<Value> results;
  for (int64_t i = 0; i < n; ++i)
    results.push_back(cheap(i));
  scf::YieldOp::create(b, results);
  // The other branch, one pair at a time: its factors, then its elements
  // (so that only one pair's factors are live: the 128-register blockwise
  // kernels have no register to spare), then the elements without a pair.
  b.setInsertionPointToStart(&branch.getElseRegion().front());
  results.assign(n, Value());
  for (auto [sa, sb] : pairs) {
    ScaleFactors factors = splitScales(b, sa, sb);
    for (int64_t i = 0; i < n; ++i)
      if (aScale(i) == sa && bScale(i) == sb)
        results[i] = addScaledTerm(b, partials[i], factors, sums[i]);
  }
  for (int64_t i = 0; i < n; ++i)
    if (!results[i])
      results[i] = single(i);
  scf::YieldOp::create(b, results);
  for (int64_t i = 0; i < n; ++i)
    sums[i] = branch.getResult(i);
}
