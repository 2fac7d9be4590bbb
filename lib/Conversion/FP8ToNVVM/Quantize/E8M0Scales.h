//===- E8M0Scales.h - RCEIL scales with sm_100a's cvt.rp --------*- C++ -*-===//
//
// Blackwell rounds an f32 up to an E8M0 scale in one instruction,
// cvt.rp.satfinite.ue8m0x2.f32 (PTX 8.6, sm_100a). For every f32 it gives
// the code of the reference's RCEIL (docs/Numerics.md "round = pow2_ceil"),
// so sm_100a quantization kernels use it where the reference rounds on the
// bits; unittests/Conversion/E8M0ScalesTest.cpp proves the equality against
// the instruction as the PTX ISA defines it.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_E8M0SCALES_H
#define FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_E8M0SCALES_H

#include "fp8/Dialect/FP8/Utils/Numerics.h"

namespace mlir::fp8::kernels {

/// The E8M0 code (i32) of f32 `d` from sm_100a's
/// cvt.rp.satfinite.ue8m0x2.f32 on |d|: the smallest power of two >= |d|
/// (code 0 for 0 and for |d| <= 2^-127), 2^127 (code 254) for anything
/// above it and +inf, 255 for NaN. The magnitude is taken first because the
/// ISA leaves a negative input to an unsigned format unspecified.
Value buildCvtRpE8M0(OpBuilder &b, Location loc, Value d);

/// The scales of a tile of amax `amax` under `scaling` with round =
/// pow2_ceil: the reference's d = amax * fl32(1/fmax) * 2^margin, its code
/// from `roundUp` (f32 d -> i32 E8M0 code), and the quantization multiplier
/// and stored scale of that code as buildTileScales computes them. The
/// kernels pass buildCvtRpE8M0; the unit test passes the ISA's definition.
TileScales buildRceilScales(OpBuilder &b, Location loc, Value amax,
                            Type elementType, ScalingAttr scaling,
                            int64_t margin, function_ref<Value(Value)> roundUp);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_E8M0SCALES_H
