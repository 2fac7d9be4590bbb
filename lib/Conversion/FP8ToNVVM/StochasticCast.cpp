//===- StochasticCast.cpp - stochastic rounding in GPU kernels ------------===//
//
// See StochasticCast.h. docs/Numerics.md defines the rounding and the
// random stream; the comments here say why the GPU arithmetic gives the
// reference's bits.
//
//===----------------------------------------------------------------------===//

#include "StochasticCast.h"

#include "fp8/Dialect/FP8/Utils/Numerics.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// buildStochasticCastBits (Numerics.h, the contract's stochastic cast) in
/// fewer GPU instructions, with the same bits:
/// - Target-subnormal |x| < 2^emin: the reference truncates
///   |x| 2^(23 - emin) to an integer F (cvt.rzi). fma.rz(|x|, 1/2,
///   2^(emin - 1)) is |x|/2 + 2^(emin - 1) truncated to its ulp,
///   2^(emin - 24): its bits are those of 2^(emin - 1) plus F, so the
///   normal path's arithmetic on them gives (F + noise) >> dropped, the
///   reference's subnormal code. One select of the magnitude replaces the
///   second path.
/// - The rebias is subtracted before the shift (a multiple of 2^dropped,
///   below every magnitude that reaches it).
/// - Saturation as a minimum: the code grows with the magnitude, reaches
///   maxCode exactly at max (a multiple of 2^dropped), and cannot pass it
///   below; inf and above are clamped. NaN still selects its code.
Value kernels::buildStochasticCastBitsFast(KernelBuilder &b, Value x,
                                           Value random, Type elementType) {
  FP8Format format = getFP8Format(elementType);
  unsigned m = format.mantissaBits;
  unsigned dropped = 23 - m;
  Type i32 = b.getI32Type(), f32 = b.getF32Type();
  Value bits = b.bitcast(i32, x);
  Value sign = b.andI(b.shrU(bits, 24), 0x80);
  Value magnitude = b.andI(bits, 0x7FFFFFFF);
  Value halfQuanta =
      LLVM::CallIntrinsicOp::create(
          b, f32, b.getStringAttr("llvm.nvvm.fma.rz.f"),
          ValueRange{b.bitcast(f32, magnitude), b.f32(0.5),
                     b.f32(std::ldexp(1.0f, format.minNormalExponent - 1))})
          .getResult(0);
  Value isNormal = b.cmp(arith::CmpIPredicate::uge, magnitude,
                         b.i32(int64_t(127 + format.minNormalExponent) << 23));
  Value base = arith::SelectOp::create(b, isNormal, magnitude,
                                       b.bitcast(i32, halfQuanta));
  Value noise = b.andI(random, (int64_t(1) << dropped) - 1);
  int64_t rebias = int64_t(127 - format.bias) << 23;
  Value code = b.shrU(b.sub(b.add(base, noise), rebias), dropped);
  code = b.minU(code, b.i32(format.maxCode));
  code = arith::SelectOp::create(b, b.ugt(magnitude, b.i32(0x7F800000)),
                                 b.i32(format.nanCode), code);
  return arith::TruncIOp::create(b, b.getI8Type(), b.orI(code, sign));
}

Value kernels::buildStochasticByte(KernelBuilder &b, Value seed, Value index,
                                   Value scaled, Type elementType) {
  Value random = buildPhiloxRandom32(b, b.getLoc(), seed, index);
  return buildStochasticCastBitsFast(b, scaled, random, elementType);
}

SmallVector<Value> kernels::buildStochasticBytes(KernelBuilder &b, Value seed,
                                                 Value offset,
                                                 ArrayRef<Value> scaled,
                                                 Type elementType) {
  // One Philox call per four elements: `offset` is a multiple of the
  // width, so element offset + i draws word i % 4 of counter
  // (offset + i) / 4.
  SmallVector<Value> codes;
  Value counter =
      b.divU(arith::IndexCastOp::create(b, b.getI64Type(), offset), int64_t(4));
  for (int64_t i = 0; i < int64_t(scaled.size()); i += 4) {
    std::array<Value, 4> words =
        buildPhiloxRandom4x32(b, b.getLoc(), seed, b.add(counter, i / 4));
    for (int64_t w = 0; w < 4; ++w)
      codes.push_back(
          buildStochasticCastBitsFast(b, scaled[i + w], words[w], elementType));
  }
  return codes;
}
