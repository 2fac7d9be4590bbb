//===- E8M0Scales.cpp - RCEIL scales with sm_100a's cvt.rp ----------------===//
//
// The RCEIL scales of docs/Numerics.md with the round-up to E8M0 done by
// cvt.rp.satfinite.ue8m0x2.f32 on sm_100a. Only the code comes from the
// instruction; d and what a code becomes are the reference's arithmetic,
// written once more here because Numerics.cpp keeps them to itself, and
// checked against it bit for bit (unittests/Conversion/E8M0ScalesTest.cpp).
//
//===----------------------------------------------------------------------===//

#include "E8M0Scales.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

static Value constI32(OpBuilder &b, Location loc, uint32_t value) {
  return arith::ConstantIntOp::create(b, loc, b.getI32Type(),
                                      static_cast<int32_t>(value));
}

static Value selectI32(OpBuilder &b, Location loc, Value cond, uint32_t value,
                       Value otherwise) {
  return arith::SelectOp::create(b, loc, cond, constI32(b, loc, value),
                                 otherwise);
}

static Value isCode(OpBuilder &b, Location loc, Value code, uint32_t value) {
  return arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, code,
                               constI32(b, loc, value));
}

static Value bitsToF32(OpBuilder &b, Location loc, Value bits) {
  return arith::BitcastOp::create(b, loc, b.getF32Type(), bits);
}

Value kernels::buildCvtRpE8M0(OpBuilder &b, Location loc, Value d) {
  Value bits = arith::BitcastOp::create(b, loc, b.getI32Type(), d);
  Value magnitude = bitsToF32(
      b, loc,
      arith::AndIOp::create(b, loc, bits, constI32(b, loc, 0x7FFFFFFF)));
  // Both halves of the pair convert |d|: the low byte is the code.
  Value pair = NVVM::ConvertF32x2ToF8x2Op::create(
      b, loc, b.getI16Type(), magnitude, magnitude, NVVM::FPRoundingMode::RP,
      NVVM::SaturationMode::SATFINITE, /*relu=*/false,
      b.getType<Float8E8M0FNUType>());
  Value wide = arith::ExtUIOp::create(b, loc, b.getI32Type(), pair);
  return arith::AndIOp::create(b, loc, wide, constI32(b, loc, 0xFF));
}

TileScales kernels::buildRceilScales(OpBuilder &b, Location loc, Value amax,
                                     Type elementType, ScalingAttr scaling,
                                     int64_t margin,
                                     function_ref<Value(Value)> roundUp) {
  FP8Format format = getFP8Format(elementType);
  // d = amax * fl32(1/fmax), then the exact power-of-two margin, as the
  // reference multiplies (not divides).
  Value d = arith::MulFOp::create(
      b, loc, amax,
      arith::ConstantOp::create(b, loc,
                                b.getF32FloatAttr(1.0f / format.maxValue)));
  if (margin != 0)
    d = arith::MulFOp::create(
        b, loc, d,
        arith::ConstantOp::create(
            b, loc,
            b.getF32FloatAttr(std::ldexp(1.0f, static_cast<int>(margin)))));
  Value code = roundUp(d);

  // qscale = 2^(127 - code): exact for every finite code, 2^-127 (code 254)
  // only as the subnormal 0x00400000; NaN for 255.
  Value reciprocal = arith::ShLIOp::create(
      b, loc, arith::SubIOp::create(b, loc, constI32(b, loc, 254), code),
      constI32(b, loc, 23));
  reciprocal =
      selectI32(b, loc, isCode(b, loc, code, 254), 0x00400000, reciprocal);
  reciprocal =
      selectI32(b, loc, isCode(b, loc, code, 255), 0x7FC00000, reciprocal);
  Value quantScale = bitsToF32(b, loc, reciprocal);

  Type scaleType = scaling.getScale();
  if (!isa<Float32Type>(scaleType)) {
    Value byte = arith::TruncIOp::create(b, loc, b.getI8Type(), code);
    return {quantScale, arith::BitcastOp::create(b, loc, scaleType, byte)};
  }
  // 2^(code - 127) as f32: code 0 is the subnormal 2^-127.
  Value scale =
      arith::ShLIOp::create(b, loc, code, constI32(b, loc, 23)).getResult();
  scale = selectI32(b, loc, isCode(b, loc, code, 0), 0x00400000, scale);
  scale = selectI32(b, loc, isCode(b, loc, code, 255), 0x7FC00000, scale);
  return {quantScale, bitsToF32(b, loc, scale)};
}
