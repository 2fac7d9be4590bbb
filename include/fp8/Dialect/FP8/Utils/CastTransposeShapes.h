//===- CastTransposeShapes.h - what the cast-transposes take ---*- C++ -*-===//
//
// The matrices and scalings a cast-transpose kernel (one read of X giving
// X and Xᵀ quantized) computes: fp8-fuse-quantization fuses exactly these,
// and the kernel refuses anything else with a diagnostic. Kernel policy,
// not a fact about the chip, so not in fp8::Target. Header-only: the pass
// and the kernel include it.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_UTILS_CASTTRANSPOSESHAPES_H
#define FP8_DIALECT_FP8_UTILS_CASTTRANSPOSESHAPES_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::fp8 {

/// The 1 x 128 cast-transpose's tile: 128 x 128 elements.
inline constexpr int64_t kCastTransposeTile = 128;

/// Whether the cast-transpose kernel quantizes a matrix of `inputType` and
/// its transpose with `scaling`: static, 16-bit, both dims multiples of
/// kCastTransposeTile, 1 x kCastTransposeTile tiles.
inline bool fitsCastTranspose(Type inputType, ScalingAttr scaling) {
  auto tensor = dyn_cast<RankedTensorType>(inputType);
  return tensor && tensor.hasStaticShape() && tensor.getRank() == 2 &&
         tensor.getDimSize(0) % kCastTransposeTile == 0 &&
         tensor.getDimSize(1) % kCastTransposeTile == 0 &&
         tensor.getElementType().getIntOrFloatBitWidth() == 16 &&
         scaling.getTile() == ArrayRef<int64_t>{1, kCastTransposeTile};
}

/// The tensorwise cast-transpose's tile: 64 x 64 elements.
inline constexpr int64_t kTensorwiseCastTransposeTile = 64;

/// Whether the tensorwise cast-transpose kernel quantizes a matrix of
/// `inputType` and its transpose with one scale (`scaling` [*, *]):
/// static, 16-bit, both dims multiples of kTensorwiseCastTransposeTile.
inline bool fitsTensorwiseCastTranspose(Type inputType, ScalingAttr scaling) {
  auto tensor = dyn_cast<RankedTensorType>(inputType);
  return tensor && tensor.hasStaticShape() && tensor.getRank() == 2 &&
         tensor.getDimSize(0) % kTensorwiseCastTransposeTile == 0 &&
         tensor.getDimSize(1) % kTensorwiseCastTransposeTile == 0 &&
         tensor.getElementType().getIntOrFloatBitWidth() == 16 &&
         llvm::all_of(scaling.getTile(), ShapedType::isDynamic);
}

/// The rowwise cast-transpose's tile: 64 x 64 elements.
inline constexpr int64_t kRowwiseCastTransposeTile = 64;

/// Whether the rowwise cast-transpose kernel quantizes a matrix of
/// `inputType` and its transpose with `scaling`, a scale per row ([1, *]):
/// static, 16-bit, both dims multiples of kRowwiseCastTransposeTile.
inline bool fitsRowwiseCastTranspose(Type inputType, ScalingAttr scaling) {
  auto tensor = dyn_cast<RankedTensorType>(inputType);
  return tensor && tensor.hasStaticShape() && tensor.getRank() == 2 &&
         tensor.getDimSize(0) % kRowwiseCastTransposeTile == 0 &&
         tensor.getDimSize(1) % kRowwiseCastTransposeTile == 0 &&
         tensor.getNumElements() > 0 &&
         tensor.getElementType().getIntOrFloatBitWidth() == 16 &&
         scaling.getTile()[0] == 1 &&
         ShapedType::isDynamic(scaling.getTile()[1]);
}

/// Whether the block cast-transpose kernel quantizes a matrix of
/// `inputType` with `scaling`, square tiles of 64 or 128 (a CTA holds one
/// in registers), and writes the transpose's quantization too: static, of
/// bf16, f16 or f32, both dims multiples of the tile. The transpose of a
/// square-tiled quantization is exact, so the fused op is the
/// quantization and its fp8.transpose.
inline bool fitsBlockCastTranspose(Type inputType, ScalingAttr scaling) {
  auto tensor = dyn_cast<RankedTensorType>(inputType);
  ArrayRef<int64_t> tile = scaling.getTile();
  if (!tensor || !tensor.hasStaticShape() || tensor.getRank() != 2 ||
      tensor.getNumElements() == 0 || tile[0] != tile[1] ||
      (tile[0] != 64 && tile[0] != 128))
    return false;
  Type element = tensor.getElementType();
  return (element.isBF16() || element.isF16() || element.isF32()) &&
         tensor.getDimSize(0) % tile[0] == 0 &&
         tensor.getDimSize(1) % tile[0] == 0;
}

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_CASTTRANSPOSESHAPES_H
