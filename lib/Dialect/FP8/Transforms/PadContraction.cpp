//===- PadContraction.cpp - contracted dims padded for the GEMMs ----------===//
//
// fp8-pad-contraction: a matmul whose contracted dimension is not a multiple
// of 16 gets both operands zero-padded along it to the next one. The FP8
// GEMMs load their operands K-major through TMA, which needs 16-byte row
// strides; Wgrad contracts the token dimension, so without this a batch of
// 1000 tokens could not train. The padding is exact: the added products are
// zero, and no recipe's scale changes (a zero never raises an amax, and a
// padded block still has the real elements' amax).
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Roles.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8PADCONTRACTION
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// The multiple every contracted extent is padded to: 16 bytes of FP8.
static constexpr int64_t kContractionMultiple = 16;

/// `value` zero-padded at the end of dim `dim` to `extent`.
static Value padAlong(OpBuilder &b, Location loc, Value value, unsigned dim,
                      int64_t extent) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> shape(type.getShape());
  SmallVector<OpFoldResult> low(type.getRank(), b.getIndexAttr(0));
  SmallVector<OpFoldResult> high(type.getRank(), b.getIndexAttr(0));
  high[dim] = b.getIndexAttr(extent - shape[dim]);
  shape[dim] = extent;
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return tensor::PadOp::create(b, loc, type.clone(shape), value, low, high,
                               zero);
}

namespace {
struct PadContractionPass
    : public fp8::impl::FP8PadContractionBase<PadContractionPass> {
  void runOnOperation() override {
    SmallVector<MatmulView> views;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (std::optional<MatmulView> view = getMatmulView(op))
        views.push_back(*view);
    });
    for (MatmulView &view : views) {
      linalg::LinalgOp op = view.op;
      FailureOr<linalg::ContractionDimensions> dims =
          linalg::inferContractionDims(op);
      if (failed(dims))
        continue;
      int64_t k = op.getStaticLoopRanges()[dims->k[0]];
      if (ShapedType::isDynamic(k) || k % kContractionMultiple == 0)
        continue;
      // Static operands of integer or float elements (a zero to pad with).
      if (llvm::any_of(op.getDpsInputOperands(), [](OpOperand *operand) {
            auto type = cast<ShapedType>(operand->get().getType());
            return !type.hasStaticShape() ||
                   !type.getElementType().isIntOrFloat();
          }))
        continue;
      int64_t padded = llvm::alignTo(k, kContractionMultiple);
      OpBuilder b(op);
      for (OpOperand *operand : op.getDpsInputOperands()) {
        AffineMap map = op.getMatchingIndexingMap(operand);
        std::optional<unsigned> dim = map.getResultPosition(
            getAffineDimExpr(dims->k[0], op.getContext()));
        if (!dim)
          continue;
        operand->set(padAlong(b, op.getLoc(), operand->get(), *dim, padded));
      }
    }
  }
};
} // namespace
