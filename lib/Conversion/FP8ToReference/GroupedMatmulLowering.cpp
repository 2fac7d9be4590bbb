//===- GroupedMatmulLowering.cpp - grouped_scaled_matmul on the CPU -------===//
//
// The CPU reference of fp8.grouped_scaled_matmul is its definition: a loop
// over the G groups, each an fp8.scaled_matmul (lowered by MatmulLowering,
// so every group's numerics are scaled_matmul's to the bit) whose rows are
// kept where they belong to the group. The reference computes on static
// shapes, so a contiguous A is multiplied whole with every expert and the
// group's rows selected: G times the work of the GPU kernel, which only
// matters for the size of the inputs a test can afford.
//
//===----------------------------------------------------------------------===//

#include "ReferenceUtils.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::reference;

namespace {

/// `source[index]` of a rank-3 tensor, as the rank-2 tensor it holds.
Value sliceOuter(OpBuilder &b, Location loc, Value source, Value index) {
  auto type = cast<RankedTensorType>(source.getType());
  SmallVector<OpFoldResult> offsets = {index, b.getIndexAttr(0),
                                       b.getIndexAttr(0)};
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                     b.getIndexAttr(type.getDimSize(1)),
                                     b.getIndexAttr(type.getDimSize(2))};
  SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
  auto sliceType = RankedTensorType::get(type.getShape().drop_front(),
                                         type.getElementType());
  return tensor::ExtractSliceOp::create(b, loc, sliceType, source, offsets,
                                        sizes, strides);
}

/// The group of each row of a contiguous A: g(m) = #{g : group_rows[g] <=
/// m}, as i32 [M] (G where the row belongs to no group).
Value buildRowGroups(OpBuilder &b, Location loc, Value groupRows, int64_t m) {
  MLIRContext *ctx = b.getContext();
  Type i32 = b.getI32Type();
  Value init = filledTensor(b, loc, {m}, i32, b.getI32IntegerAttr(0));
  AffineExpr row = getAffineDimExpr(0, ctx), group = getAffineDimExpr(1, ctx);
  SmallVector<AffineMap> maps = {AffineMap::get(2, 0, {group}, ctx),
                                 AffineMap::get(2, 0, {row}, ctx)};
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{groupRows}, ValueRange{init},
             maps,
             {utils::IteratorType::parallel, utils::IteratorType::reduction},
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value index = linalg::IndexOp::create(nb, nloc, 0);
               Value rowI32 =
                   arith::IndexCastOp::create(nb, nloc, nb.getI32Type(), index);
               Value ended = arith::CmpIOp::create(
                   nb, nloc, arith::CmpIPredicate::sle, args[0], rowI32);
               Value one =
                   arith::ExtUIOp::create(nb, nloc, nb.getI32Type(), ended);
               linalg::YieldOp::create(
                   nb, nloc,
                   ValueRange{arith::AddIOp::create(nb, nloc, args[1], one)});
             })
      .getResult(0);
}

/// result[m][n] = keep(m) ? product[m][n] : fallback[m][n], where `keep`
/// compares row data `rowKey` (i32 [M], or the row index where null) with
/// `key` by `predicate` (rowKey == key, or row < key).
Value selectRows(OpBuilder &b, Location loc, Value product, Value fallback,
                 Value rowKey, arith::CmpIPredicate predicate, Value key) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(product.getType());
  AffineMap id = b.getMultiDimIdentityMap(2);
  SmallVector<Value> inputs = {product};
  SmallVector<AffineMap> maps = {id};
  if (rowKey) {
    inputs.push_back(rowKey);
    maps.push_back(AffineMap::get(2, 0, {getAffineDimExpr(0, ctx)}, ctx));
  }
  maps.push_back(id);
  return linalg::GenericOp::create(
             b, loc, type, inputs, ValueRange{fallback}, maps,
             parallelIterators(2),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value lhs = rowKey ? args[1] : Value();
               if (!lhs)
                 lhs = arith::IndexCastOp::create(
                     nb, nloc, nb.getI32Type(),
                     linalg::IndexOp::create(nb, nloc, 0));
               Value keep =
                   arith::CmpIOp::create(nb, nloc, predicate, lhs, key);
               linalg::YieldOp::create(
                   nb, nloc,
                   ValueRange{arith::SelectOp::create(nb, nloc, keep, args[0],
                                                      args.back())});
             })
      .getResult(0);
}

struct GroupedScaledMatmulLowering : OpRewritePattern<GroupedScaledMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(GroupedScaledMatmulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto resultType = cast<RankedTensorType>(op.getResult().getType());
    Type element = resultType.getElementType();
    bool masked = op.getLayout() == GroupLayout::masked;
    ArrayRef<int64_t> shape = resultType.getShape();
    // One group's product: [M, N] (A's rows of one group in masked layout).
    SmallVector<int64_t> groupShape(shape.take_back(2));

    Value zeros = filledTensor(rewriter, loc, shape, element,
                               rewriter.getZeroAttr(element));
    Value rowGroups;
    if (!masked)
      rowGroups = buildRowGroups(rewriter, loc, op.getGroupRows(), shape[0]);

    Value lower = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value upper =
        arith::ConstantIndexOp::create(rewriter, loc, op.getGroupCount());
    Value step = arith::ConstantIndexOp::create(rewriter, loc, 1);
    auto loop = scf::ForOp::create(
        rewriter, loc, lower, upper, step, ValueRange{zeros},
        [&](OpBuilder &b, Location nloc, Value g, ValueRange acc) {
          // A contiguous A's scales go whole to every group's matmul, in
          // their layout (col_major_tma included), which reads them back
          // row-major.
          Value a = op.getA(), aScale = op.getAScale();
          if (masked) {
            a = sliceOuter(b, nloc, a, g);
            aScale = sliceOuter(b, nloc, aScale, g);
          }
          Value product = ScaledMatmulOp::create(
              b, nloc, RankedTensorType::get(groupShape, element), a, aScale,
              sliceOuter(b, nloc, op.getB(), g),
              sliceOuter(b, nloc, op.getBScale(), g),
              b.getDenseI64ArrayAttr({1, 1}), op.getAScaling(),
              op.getBScaling(), op.getAccumulate(), op.getAScaleLayout(),
              ScaleLayout::row_major);
          Value rows = tensor::ExtractOp::create(b, nloc, op.getGroupRows(),
                                                 ValueRange{g});
          Value next;
          if (masked) {
            // Rows m < group_rows[g] of group g, the others 0.
            Value groupZeros = filledTensor(b, nloc, groupShape, element,
                                            b.getZeroAttr(element));
            Value kept = selectRows(b, nloc, product, groupZeros, Value(),
                                    arith::CmpIPredicate::slt, rows);
            SmallVector<OpFoldResult> offsets = {g, b.getIndexAttr(0),
                                                 b.getIndexAttr(0)};
            SmallVector<OpFoldResult> sizes = {b.getIndexAttr(1),
                                               b.getIndexAttr(groupShape[0]),
                                               b.getIndexAttr(groupShape[1])};
            SmallVector<OpFoldResult> strides(3, b.getIndexAttr(1));
            next = tensor::InsertSliceOp::create(b, nloc, kept, acc[0], offsets,
                                                 sizes, strides);
          } else {
            Value gI32 = arith::IndexCastOp::create(b, nloc, b.getI32Type(), g);
            next = selectRows(b, nloc, product, acc[0], rowGroups,
                              arith::CmpIPredicate::eq, gI32);
          }
          scf::YieldOp::create(b, nloc, next);
        });
    rewriter.replaceOp(op, loop.getResult(0));
    return success();
  }
};

} // namespace

void reference::populateGroupedMatmulLoweringPatterns(
    RewritePatternSet &patterns) {
  patterns.add<GroupedScaledMatmulLowering>(patterns.getContext());
}
