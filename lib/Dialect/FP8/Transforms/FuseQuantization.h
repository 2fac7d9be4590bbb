//===- FuseQuantization.h - fp8-fuse-quantization's fusions -----*- C++ -*-===//
//
// fp8-fuse-quantization (FuseQuantization.cpp) runs four fusions, one file
// each: the cast-transpose (FuseCastTranspose.cpp), producers into the
// quantization that reads them (FuseProducers.cpp), the delayed recipe's
// amax (FuseDelayedAmax.cpp) and the scale re-layout (FuseScaleLayout.cpp).
// This header declares them and the checks on what a quantize kernel loads
// that they share.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_DIALECT_FP8_TRANSFORMS_FUSEQUANTIZATION_H
#define FP8_LIB_DIALECT_FP8_TRANSFORMS_FUSEQUANTIZATION_H

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Matchers.h"

namespace mlir::fp8::fusion {

//===----------------------------------------------------------------------===//
// The fusions, in the order the pass runs them
//===----------------------------------------------------------------------===//

/// Whether a cast-transpose kernel takes a matrix of a type and scaling
/// (fitsCastTranspose, fitsRowwiseCastTranspose).
using KernelFit = bool (*)(Type, ScalingAttr);

/// The quantization of %x among `candidates` that the cast-transpose that
/// `fits` describes can compute together with `transposed`, a quantization
/// of `linalg.transpose %x`; null where none fits (FuseCastTranspose.cpp).
QuantizeOp *findRowsPartner(QuantizeOp transposed,
                            MutableArrayRef<QuantizeOp> candidates,
                            KernelFit fits);

/// Replaces `rows` (of %x) and `transposed` (of its transpose) by one
/// fp8.quantize_transpose (FuseCastTranspose.cpp).
void fuseCastTranspose(QuantizeOp rows, QuantizeOp transposed);

/// Replaces `transpose` of a quantization whose transpose is exact (one
/// scale, or square tiles) and that quantization by one
/// fp8.quantize_transpose, where the tensorwise or the block cast-transpose
/// kernel takes them; returns whether it did (FuseCastTranspose.cpp).
bool fuseExactTranspose(TransposeOp transpose);

/// Fuses the producer of `quantize`'s input (an fp8.quantize or
/// fp8.quantize_transpose) into it where it can: an elementwise producer,
/// a norm's row sums, a Hadamard rotation. Returns whether it did
/// (FuseProducers.cpp).
bool fuseProducerOf(Operation *quantize);

/// Fuses the delayed recipe's quantization `q` with the data's amax and the
/// history's into one fp8.quantize_delayed, also where `q` quantizes the
/// transpose (or the rotated transpose) of the value whose amax the history
/// holds; returns whether it did (FuseDelayedAmax.cpp).
bool fuseDelayedAmax(QuantizeOp q);

/// Makes the quantization that produced the scales of `relayout` store
/// them in its layout: col_major_tma for an fp8.tma_align_scales, tcgen05
/// for an fp8.tcgen05_scales; returns whether it did (FuseScaleLayout.cpp).
bool fuseScaleLayout(Operation *relayout);

/// A plain round-to-nearest quantization of a static matrix as the
/// fp8.quantize_elementwise of the identity, the one quantize op whose
/// scale layout is an attribute; null (and `q` unchanged) where it is not
/// one (FuseScaleLayout.cpp).
QuantizeElementwiseOp asElementwise(QuantizeOp q);

/// The input an fp8.quantize_elementwise quantizes as it is (its body
/// yields an argument read through an identity map: a plain quantization
/// that became one to store its scales in another layout), else null
/// (FuseScaleLayout.cpp).
Value getIdentityInput(QuantizeElementwiseOp fused);

//===----------------------------------------------------------------------===//
// The rules, for --explain (ExplainFusion.cpp)
//===----------------------------------------------------------------------===//

/// Why `op` is not an elementwise producer that a quantization can fuse;
/// empty where it is one (FuseProducers.cpp).
StringRef producerRefusal(Operation *op);

/// Whether `op` (or a body it holds) computes a math function that kernels
/// expand into a polynomial (erf, tanh, exp, log, ...), which a tensorwise
/// quantization does not fuse: its kernel would compute it twice.
bool computesPolynomialMath(Operation *op);

/// `producer` and the producers its fused body would inline with it: those
/// of its identity-read inputs that are fusible, read by nothing else and in
/// its block, recursively (FuseProducers.cpp's BodyBuilder rule).
void collectInlinedProducers(Operation *producer,
                             SmallVectorImpl<Operation *> &chain);

/// Whether `op` is a norm's row sum that a quantization can take over as a
/// `reduce` region.
bool isFusibleRowSum(Operation *op);

/// Whether the norm kernel (a warp per row) quantizes a `type` matrix with
/// `scaling` and `numSums` row sums.
bool fitsRowKernel(RankedTensorType type, ScalingAttr scaling,
                   int64_t numSums = 1);

/// Whether the row-tile kernel can rotate (Hadamard, blocks of `n`) a
/// `type` matrix in registers before quantizing it with `scaling`.
bool fitsRotatedRowTiles(RankedTensorType type, ScalingAttr scaling, int64_t n);

/// Remarks at every quantization, transpose and elementwise op of `module`
/// after the fusions: what each fused, or the rule that kept it apart
/// (fp8-fuse-quantization{explain=true}); `producers` is the pass's option.
void explainFusions(ModuleOp module, bool producers);

//===----------------------------------------------------------------------===//
// Shared checks
//===----------------------------------------------------------------------===//

/// Element types a quantize kernel loads (16-byte vectors of 16- or 32-bit
/// floats).
inline bool isLoadableElement(Type type) {
  return type.isF32() || type.isBF16() || type.isF16();
}

/// A static, non-empty matrix of elements a quantize kernel loads.
inline bool isStaticMatrixOfLoadable(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  // Not empty: the ops the kernels would refuse keep their own diagnostics.
  return tensor && tensor.hasStaticShape() && tensor.getRank() == 2 &&
         tensor.getNumElements() > 0 &&
         isLoadableElement(tensor.getElementType());
}

/// Whether `value` is +0.0 everywhere: a splat constant or a linalg.fill
/// of the constant.
inline bool isPositiveZeros(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    value = fill.getInputs()[0];
  FloatAttr scalar;
  DenseFPElementsAttr dense;
  if (matchPattern(value, m_Constant(&scalar)))
    return scalar.getValue().isPosZero();
  return matchPattern(value, m_Constant(&dense)) && dense.isSplat() &&
         dense.getSplatValue<APFloat>().isPosZero();
}

} // namespace mlir::fp8::fusion

#endif // FP8_LIB_DIALECT_FP8_TRANSFORMS_FUSEQUANTIZATION_H
