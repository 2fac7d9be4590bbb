//===- StochasticCast.cpp - stochastic rounding in GPU kernels ------------===//
//
// See StochasticCast.h. docs/Numerics.md defines the rounding and the
// random stream; the comments here say why the GPU arithmetic gives the
// reference's bits (buildStochasticCastBits, Numerics.cpp).
//
//===----------------------------------------------------------------------===//

#include "StochasticCast.h"

#include "../Program/KernelUtils.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// An f32 intrinsic of NVVM (the rounding or saturating forms of add and
/// fma).
static Value callF32(KernelBuilder &b, StringRef name, ValueRange operands) {
  return LLVM::CallIntrinsicOp::create(b, b.getF32Type(), b.getStringAttr(name),
                                       operands)
      .getResult(0);
}

/// f32 `x` moved onto the FP8 grid as the contract's stochastic rounding
/// with `noise` (i32: the element's 16 random bits shifted to the top of
/// the `dropped` field) moves it, so that cvt.rn.satfinite, exact on it,
/// gives the contract's code. Every step is on |x|; the sign is put back
/// last.
/// - Target-normal |x|: add the noise to the bits and clear the dropped
///   field: the truncation of the reference, a carry moving into the
///   exponent. Values at or above max stay there and saturate in the cvt;
///   below max the sum can reach max at most (a multiple of 2^dropped).
/// - Target-subnormal |x| < 2^emin: |x| + 2^emin rounded toward zero lies
///   in [2^emin, 2^(emin+1)), where the f32 ulp is 2^(emin - 23): its
///   mantissa is the reference's F = floor(|x| 2^(23 - emin)), so the same
///   add-and-clear gives 2^emin + code * 2^(emin - m), and subtracting
///   2^emin again (exact) leaves the FP8 value (2^emin itself for code
///   2^m, the smallest normal). 0 goes through this path too, and stays 0.
/// - Which path: the flag s = sat(2^64 (2^emin - |x|)) is 1.0 below 2^emin
///   (the difference is at least 2^(emin - 24) there) and 0.0 at and above
///   it, for inf, and for NaN (.sat flushes NaN to +0): one fma.rn.sat, so
///   the offset s 2^emin is added by an fma.rz and taken off by an fma,
///   all on the FMA pipe, with no compare and select.
/// - NaN: the GPU's arithmetic NaN is 0x7FFFFFFF, which the noise would
///   carry into the sign; it is clamped to 0x7FC00000 first, a NaN that
///   stays one. Inf takes the normal path: the noise stays below its
///   mantissa and the cvt saturates it.
/// Integer work per element: the min, the add, the mask and the sign.
static Value buildPrerounded(KernelBuilder &b, Value x, Value noise,
                             const FP8Format &format) {
  unsigned dropped = 23 - format.mantissaBits;
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  // abs.f32: ptxas folds it into its users' operands.
  Value magnitude = callF32(b, "llvm.nvvm.fabs", {x});
  float smallestNormal = std::ldexp(1.0f, format.minNormalExponent);
  Value isSubnormal =
      callF32(b, "llvm.nvvm.fma.rn.sat.f",
              {magnitude, b.f32(-std::ldexp(1.0, 64)),
               b.f32(std::ldexp(1.0, format.minNormalExponent + 64))});
  Value based = callF32(b, "llvm.nvvm.fma.rz.f",
                        {isSubnormal, b.f32(smallestNormal), magnitude});
  Value bits = arith::MinUIOp::create(b, b.bitcast(i32, based),
                                      b.i32(int64_t(0x7FC00000)));
  Value rounded = b.andI(b.add(bits, noise), ~((int64_t(1) << dropped) - 1));
  Value value =
      callF32(b, "llvm.nvvm.fma.rn.f",
              {isSubnormal, b.f32(-smallestNormal), b.bitcast(f32, rounded)});
  Value sign = b.andI(b.bitcast(i32, x), int64_t(0x80000000));
  return b.bitcast(f32, b.orI(b.bitcast(i32, value), sign));
}

Value kernels::buildStochasticByte(KernelBuilder &b, Value seed, Value index,
                                   Value scaled, Type elementType) {
  // The scalar kernels (generic tiles, scalar column tiles) are not
  // bandwidth-critical: the reference's own cast.
  Value random = buildPhiloxRandom16(b, b.getLoc(), seed, index);
  return buildStochasticCastBits(b, b.getLoc(), scaled, random, elementType);
}

Value kernels::buildStochasticBytes(KernelBuilder &b, Value seed, Value offset,
                                    ArrayRef<Value> scaled, Type elementType,
                                    int64_t numElements) {
  FP8Format format = getFP8Format(elementType);
  unsigned shift = 23 - format.mantissaBits - kStochasticBits;
  int64_t noiseMask = int64_t(0xFFFF) << shift;
  int64_t width = scaled.size();
  assert((width == 4 || width % 8 == 0) && "4 or a multiple of 8 elements");
  Value index = arith::IndexCastOp::create(b, b.getI64Type(), offset);
  Value counter = b.shrU(index, 3);
  // Below 2^35 elements the counter's high word is 0: a constant, which
  // folds Philox's first round.
  bool narrowCounter = numElements <= (int64_t(1) << 35);
  SmallVector<Value> prerounded;
  for (int64_t i = 0; i < width; i += 8) {
    Value at = b.add(counter, i / 8);
    Value lo = arith::TruncIOp::create(b, b.getI32Type(), at);
    Value hi = narrowCounter
                   ? b.i32(0)
                   : arith::TruncIOp::create(b, b.getI32Type(), b.shrU(at, 32))
                         .getResult();
    std::array<Value, 4> words =
        buildPhiloxRandom4x32(b, b.getLoc(), seed, lo, hi);
    SmallVector<Value> used(words.begin(), words.end());
    if (width == 4) {
      // Elements offset .. offset + 3 are the first or second half of the
      // call's eight: words 0, 1 or 2, 3.
      Value second = b.ne(b.andI(b.shrU(index, 2), 1), b.i64(0));
      used = {arith::SelectOp::create(b, second, words[2], words[0]),
              arith::SelectOp::create(b, second, words[3], words[1])};
    }
    for (auto [w, word] : llvm::enumerate(used)) {
      // Element 2w takes the low half, 2w + 1 the high half, each moved to
      // the top of the dropped field.
      Value even = b.andI(b.shl(word, shift), noiseMask);
      Value odd = b.andI(b.shrU(word, kStochasticBits - shift), noiseMask);
      int64_t e = i + 2 * int64_t(w);
      prerounded.push_back(buildPrerounded(b, scaled[e], even, format));
      prerounded.push_back(buildPrerounded(b, scaled[e + 1], odd, format));
    }
  }
  return convertToBytes(b, prerounded, elementType);
}
