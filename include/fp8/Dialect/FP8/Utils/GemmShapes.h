//===- GemmShapes.h - what the sm_90a GEMM kernel takes --------*- C++ -*-===//
//
// The sm_90a GEMM kernel's K-block and the scales it loads by TMA beside
// each K-block: fp8-legalize lays exactly these scales out for TMA
// (col_major_tma), and the kernel's configuration
// (lib/Conversion/FP8ToNVVM/Gemm/Sm90/HopperGemmConfig.h) reads them so.
// Kernel policy, not a fact about the chip, so not in fp8::Target.
// Header-only: the pass and the kernel include it.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_UTILS_GEMMSHAPES_H
#define FP8_DIALECT_FP8_UTILS_GEMMSHAPES_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::fp8 {

/// The K-block of the sm_90a GEMM: one pipeline stage holds this many
/// elements of K of each operand (128 FP8 bytes: one 128-byte swizzle row).
inline constexpr int64_t kHopperGemmTileK = 128;

/// Whether `target`'s GEMM loads the scales of a K-major operand scaled by
/// `scaling` with TMA, beside each K-block, once they are in the
/// col_major_tma layout: on sm_90a, one f32 scale per row and per K-block
/// of a multiple of kHopperGemmTileK (DeepSeek-V3's 1x128).
/// fp8-legalize{chip=sm_90a} puts exactly these in that layout.
inline bool hasTmaLoadableScales(const Target &target, ScalingAttr scaling) {
  if (!target.isHopper())
    return false;
  int64_t rowBlock = scaling.getTile()[0], kBlock = scaling.getTile()[1];
  return rowBlock == 1 && !ShapedType::isDynamic(kBlock) &&
         kBlock % kHopperGemmTileK == 0 && scaling.getScale().isF32();
}

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_GEMMSHAPES_H
