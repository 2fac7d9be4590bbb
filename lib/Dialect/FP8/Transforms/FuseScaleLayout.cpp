//===- FuseScaleLayout.cpp - the scale re-layout into the scale store ----===//
//
// fp8.tma_align_scales (or fp8.tcgen05_scales) of a quantization's scales,
// where nothing else reads them row-major, becomes the quantization's own
// col_major_tma (or tcgen05) scale store (its `scale_layout` or
// `scale_t_layout`; docs/Passes.md).
//
//===----------------------------------------------------------------------===//

#include "FuseQuantization.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::fusion;

/// The attribute that says how scale result `scale` of a fused
/// quantization is stored in `layout`, or none where it has no such
/// attribute or cannot store that layout: tcgen05 is only the scale of an
/// fp8.quantize_elementwise without the transpose.
static std::optional<StringRef> getLayoutAttrName(OpResult scale,
                                                  ScaleLayout layout) {
  Operation *op = scale.getOwner();
  unsigned index = scale.getResultNumber();
  auto fused = dyn_cast<QuantizeElementwiseOp>(op);
  if (layout == ScaleLayout::tcgen05) {
    if (fused && index == 1 && !fused.getTranspose())
      return StringRef("scale_layout");
    return std::nullopt;
  }
  if (!isa<QuantizeTransposeOp>(op) && !fused)
    return std::nullopt;
  if (index == 1)
    return StringRef("scale_layout");
  if (index == 3 && (!fused || fused.getTranspose()))
    return StringRef("scale_t_layout");
  return std::nullopt;
}

/// Whether the quantization `op` has the scaling a tcgen05 scale store
/// needs: MX, E8M0 scales of 1x32 tiles along the rows.
static bool hasTcgen05Scaling(Operation *op) {
  auto scaling = op->getAttrOfType<ScalingAttr>("scaling");
  return scaling && isa<Float8E8M0FNUType>(scaling.getScale()) &&
         scaling.getTile() == ArrayRef<int64_t>{1, kTcgen05ScaleBlock};
}

/// The input an fp8.quantize_elementwise quantizes as it is (its body
/// yields an argument read through an identity map: a plain quantization
/// that became one to store its scales in a TMA or tcgen05 layout), else
/// null.
Value fusion::getIdentityInput(QuantizeElementwiseOp fused) {
  Block &body = fused.getBody().front();
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || &body.front() != yield.getOperation() ||
      yield->getNumOperands() != 1)
    return {};
  auto arg = dyn_cast<BlockArgument>(yield->getOperand(0));
  if (!arg || arg.getOwner() != &body ||
      arg.getArgNumber() >= fused.getIndexingMaps().size())
    return {};
  auto map = cast<AffineMapAttr>(fused.getIndexingMaps()[arg.getArgNumber()])
                 .getValue();
  if (!map.isIdentity())
    return {};
  return fused->getOperand(arg.getArgNumber());
}

/// A plain round-to-nearest quantization of a static matrix as the
/// fp8.quantize_elementwise of the identity, the one quantize op whose
/// scale layout is an attribute; null where it is not one.
QuantizeElementwiseOp fusion::asElementwise(QuantizeOp q) {
  if (q.getRounding() != Rounding::nearest || q.getAmax() || q.getSeed() ||
      !isStaticMatrixOfLoadable(q.getInput().getType()))
    return {};
  OpBuilder b(q);
  auto fused = QuantizeElementwiseOp::create(
      b, q.getLoc(), q->getResultTypes(), ValueRange{q.getInput()},
      b.getAffineMapArrayAttr({b.getMultiDimIdentityMap(2)}), q.getScaling(),
      q.getMargin(), /*transpose=*/false, ScaleLayout::row_major,
      ScaleLayout::row_major, /*hadamard_size=*/nullptr,
      /*hadamard_seed=*/nullptr, /*reductionsCount=*/0);
  Block *body = new Block();
  fused.getBody().push_back(body);
  Value element = body->addArgument(
      getElementTypeOrSelf(q.getInput().getType()), q.getLoc());
  b.setInsertionPointToEnd(body);
  YieldOp::create(b, q.getLoc(), element);
  if (Attribute role = q->getAttr(FP8Dialect::getRoleAttrName()))
    fused->setAttr(FP8Dialect::getRoleAttrName(), role);
  q->replaceAllUsesWith(fused->getResults());
  q.erase();
  return fused;
}

/// Makes the quantization that produced the scales of `relayout` (an
/// fp8.tma_align_scales or fp8.tcgen05_scales) store them in its layout,
/// where nothing else reads them row-major and it is in the same block;
/// returns whether it did.
bool fusion::fuseScaleLayout(Operation *relayout) {
  ScaleLayout target = isa<Tcgen05ScalesOp>(relayout)
                           ? ScaleLayout::tcgen05
                           : ScaleLayout::col_major_tma;
  auto scale = dyn_cast<OpResult>(relayout->getOperand(0));
  if (!scale || !scale.hasOneUse() ||
      scale.getOwner()->getBlock() != relayout->getBlock() ||
      scale.getOwner()->hasAttr(kKernelAttrName))
    return false;
  if (target == ScaleLayout::tcgen05 && !hasTcgen05Scaling(scale.getOwner()))
    return false;
  if (auto q = dyn_cast<QuantizeOp>(scale.getOwner())) {
    QuantizeElementwiseOp fused = asElementwise(q);
    if (!fused)
      return false;
    scale = cast<OpResult>(fused.getScale());
  }
  std::optional<StringRef> name = getLayoutAttrName(scale, target);
  if (!name)
    return false;
  Operation *quantize = scale.getOwner();
  auto layout = quantize->getAttrOfType<ScaleLayoutAttr>(*name);
  if (layout && layout.getValue() != ScaleLayout::row_major)
    return false;
  quantize->setAttr(*name,
                    ScaleLayoutAttr::get(quantize->getContext(), target));
  Value relaid = relayout->getResult(0);
  scale.setType(relaid.getType());
  relaid.replaceAllUsesWith(scale);
  relayout->erase();
  return true;
}
