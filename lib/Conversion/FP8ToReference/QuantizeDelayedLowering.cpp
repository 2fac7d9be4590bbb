//===- QuantizeDelayedLowering.cpp - fp8.quantize_delayed on the CPU ------===//
//
// The CPU reference of fp8.quantize_delayed: by definition the ops it
// replaces (the data's amax, the history's max or last entry, the choice
// between them, the quantization with the chosen amax), so that fusing
// never changes a bit.
//
//===----------------------------------------------------------------------===//

#include "ReferenceUtils.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::reference;

namespace {

struct QuantizeDelayedLowering : OpRewritePattern<QuantizeDelayedOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeDelayedOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto single = RankedTensorType::get({1, 1}, rewriter.getF32Type());
    Value data =
        AmaxOp::create(rewriter, loc, single, op.getInput(),
                       TileAttr::get(getContext(), op.getScaling().getTile()));
    Value history = op.getHistory();
    int64_t length = op.getHistory().getType().getDimSize(0);
    Value fromHistory;
    if (op.getMostRecent()) {
      SmallVector<OpFoldResult> offsets = {rewriter.getIndexAttr(length - 1),
                                           rewriter.getIndexAttr(0),
                                           rewriter.getIndexAttr(0)};
      SmallVector<OpFoldResult> ones(3, rewriter.getIndexAttr(1));
      fromHistory = tensor::ExtractSliceOp::create(
          rewriter, loc, single, history, offsets, ones, ones);
    } else {
      // max over the steps from +0.0, NaN-propagating (arith.maximumf).
      Value init = filledTensor(rewriter, loc, {1, 1}, rewriter.getF32Type(),
                                rewriter.getF32FloatAttr(0.0f));
      fromHistory = linalg::ReduceOp::create(
                        rewriter, loc, history, init, /*dimensions=*/{0},
                        [](OpBuilder &b, Location bodyLoc, ValueRange args) {
                          Value max = arith::MaximumFOp::create(
                              b, bodyLoc, args[0], args[1]);
                          linalg::YieldOp::create(b, bodyLoc, max);
                        })
                        .getResult(0);
    }
    // Usable: positive and finite (ordered comparisons reject NaN).
    auto splat = [&](float value) {
      return arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(single, rewriter.getF32FloatAttr(value)));
    };
    Value usable = arith::AndIOp::create(
        rewriter, loc,
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OGT,
                              fromHistory, splat(0.0f)),
        arith::CmpFOp::create(rewriter, loc, arith::CmpFPredicate::OLT,
                              fromHistory,
                              splat(std::numeric_limits<float>::infinity())));
    Value used =
        arith::SelectOp::create(rewriter, loc, usable, fromHistory, data);
    auto quantize = QuantizeOp::create(rewriter, loc, op.getResult().getType(),
                                       op.getScale().getType(), op.getInput(),
                                       used, /*seed=*/Value(), op.getScaling(),
                                       Rounding::nearest, op.getMargin());
    rewriter.replaceOp(op, {quantize.getResult(), quantize.getScale(), data});
    return success();
  }
};

} // namespace

void reference::populateQuantizeDelayedLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<QuantizeDelayedLowering>(patterns.getContext());
}
