//===- DeriveScaling.cpp - tiles from the rule, one quantization each -----===//
//
// fp8-derive-scaling: every scaled_matmul operand gets the tile its role's
// policy yields for the dimension the matmul contracts, and every
// (value, scaling) is quantized once. A value reached through a transpose of
// a symmetrically scaled one is the fp8.transpose of its quantization,
// because transposing data and square tiles together loses nothing.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8DERIVESCALING
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// A quantization like `q` of `input` with `scaling`, placed before `q`.
static QuantizeOp cloneQuantize(OpBuilder &b, QuantizeOp q, Value input,
                                ScalingAttr scaling) {
  auto type = cast<RankedTensorType>(input.getType());
  auto scaleType = RankedTensorType::get(scaling.getScaleShape(type.getShape()),
                                         scaling.getScale());
  auto clone = QuantizeOp::create(
      b, q.getLoc(), type.clone(q.getResult().getType().getElementType()),
      scaleType, input, q.getAmax(), q.getSeed(), scaling, q.getRounding(),
      q.getMargin());
  clone->setDiscardableAttrs(q->getDiscardableAttrDictionary());
  return clone;
}

/// Step 1: the tile of each operand from its role's policy.
static void assignTiles(FunctionOpInterface func, RecipeAttr recipe) {
  func->walk([&](ScaledMatmulOp mm) {
    for (MatmulSide side : kMatmulSides) {
      auto q = mm.getData(side).getDefiningOp<QuantizeOp>();
      auto role =
          q ? q->getAttrOfType<StringAttr>(FP8Dialect::getRoleAttrName())
            : StringAttr();
      if (!role)
        continue;
      int64_t dim = mm.getContractingDim(side);
      ScalingAttr expected =
          recipe.getPolicy(*symbolizeRole(role.getValue())).getScaling(dim);
      if (expected == mm.getScaling(side))
        continue;
      OpBuilder b(mm);
      QuantizeOp fresh = cloneQuantize(b, q, q.getInput(), expected);
      mm.setData(side, fresh.getResult());
      mm.setScale(side, fresh.getScale());
      mm.setScaling(side, expected);
      if (q->use_empty())
        q->erase();
    }
  });
}

/// Two quantizations that compute the same data and scales.
static bool isSameQuantization(QuantizeOp a, QuantizeOp b) {
  return a.getInput() == b.getInput() && a.getAmax() == b.getAmax() &&
         a.getSeed() == b.getSeed() && a.getScaling() == b.getScaling() &&
         a.getRounding() == b.getRounding() && a.getMargin() == b.getMargin() &&
         a.getResult().getType() == b.getResult().getType();
}

/// Step 2: one quantize per (value, scaling); later duplicates reuse the
/// first one that dominates them.
static void shareQuantizations(FunctionOpInterface func) {
  DominanceInfo dominance(func);
  SmallVector<QuantizeOp> kept;
  SmallVector<QuantizeOp> quantizations;
  func->walk([&](QuantizeOp q) { quantizations.push_back(q); });
  for (QuantizeOp q : quantizations) {
    auto it = llvm::find_if(kept, [&](QuantizeOp k) {
      return isSameQuantization(k, q) && dominance.dominates(k, q);
    });
    if (it == kept.end()) {
      kept.push_back(q);
      continue;
    }
    q.getResult().replaceAllUsesWith(it->getResult());
    q.getScale().replaceAllUsesWith(it->getScale());
    q->erase();
  }
}

/// Step 3: quantize(transpose(v)) with a symmetric scaling becomes
/// fp8.transpose(quantize(v)). Random bits depend on element positions, so
/// only round-to-nearest quantizations commute with the transpose.
static void transposeSymmetricQuantizations(FunctionOpInterface func) {
  SmallVector<QuantizeOp> candidates;
  func->walk([&](QuantizeOp q) {
    auto transpose = q.getInput().getDefiningOp<linalg::TransposeOp>();
    if (transpose && isMatrixTransposition(transpose.getPermutation()) &&
        q.getScaling().isSquare() && !q.getAmax() &&
        q.getRounding() == Rounding::nearest)
      candidates.push_back(q);
  });
  for (QuantizeOp q : candidates) {
    auto transpose = q.getInput().getDefiningOp<linalg::TransposeOp>();
    OpBuilder b(q);
    QuantizeOp source =
        cloneQuantize(b, q, transpose.getInput(), q.getScaling());
    auto t = TransposeOp::create(b, q.getLoc(), q.getResult().getType(),
                                 q.getScale().getType(), source.getResult(),
                                 source.getScale(), q.getScaling());
    q.getResult().replaceAllUsesWith(t.getResult());
    q.getScale().replaceAllUsesWith(t.getResultScale());
    q->erase();
  }
}

namespace {
struct FP8DeriveScalingPass
    : fp8::impl::FP8DeriveScalingBase<FP8DeriveScalingPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<FunctionOpInterface>()) {
      auto recipe =
          func->getAttrOfType<RecipeAttr>(FP8Dialect::getRecipeAttrName());
      if (!recipe)
        continue;
      assignTiles(func, recipe);
      transposeSymmetricQuantizations(func);
      shareQuantizations(func);
    }
  }
};
} // namespace
