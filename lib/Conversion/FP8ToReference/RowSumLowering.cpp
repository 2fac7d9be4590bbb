//===- RowSumLowering.cpp - row sums in their fixed order -----------------===//
//
// The CPU reference of a row sum (fp8/Dialect/FP8/Utils/RowSum.h): instead
// of linalg's loop, which adds a row's terms one after the other, the
// order the GPU kernels add them in, spelled in linalg on tensors: the
// terms, padded with +0.0 to whole rounds of 32 chunks of 16, split into
// (round, lane, element); each chunk's sum from +0.0; each lane's sum from
// +0.0 of its chunks' sums, round by round; the 32 lane sums added
// pairwise, halving; then the init added. The reference, the reduction
// kernel and the fused norm kernel thus agree to the bit.
//
//===----------------------------------------------------------------------===//

#include "ReferenceUtils.h"

#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::fp8;

/// A generic adding `lhs` and `rhs` elementwise (f32 tensors of one
/// shape), `lhs + rhs`.
static Value addTensors(OpBuilder &b, Location loc, Value lhs, Value rhs) {
  auto type = cast<RankedTensorType>(lhs.getType());
  AffineMap id = b.getMultiDimIdentityMap(type.getRank());
  return linalg::GenericOp::create(
             b, loc, TypeRange{type}, ValueRange{lhs, rhs},
             ValueRange{reference::emptyTensor(b, loc, type.getShape(),
                                               type.getElementType())},
             ArrayRef<AffineMap>{id, id, id},
             reference::parallelIterators(type.getRank()),
             [](OpBuilder &nb, Location nloc, ValueRange args) {
               linalg::YieldOp::create(
                   nb, nloc,
                   ValueRange{arith::AddFOp::create(nb, nloc, args[0], args[1])
                                  .getResult()});
             })
      ->getResult(0);
}

Value reference::buildRowSum(OpBuilder &b, Location loc, ValueRange inputs,
                             ArrayRef<AffineMap> inputMaps, Value init,
                             int64_t cols, const RowTermBuilder &term) {
  Type f32 = b.getF32Type();
  int64_t rows = cast<RankedTensorType>(init.getType()).getDimSize(0);
  // The terms, one per element.
  SmallVector<AffineMap> maps(inputMaps);
  maps.push_back(b.getMultiDimIdentityMap(2));
  Value terms = linalg::GenericOp::create(
                    b, loc, TypeRange{RankedTensorType::get({rows, cols}, f32)},
                    inputs, ValueRange{emptyTensor(b, loc, {rows, cols}, f32)},
                    maps, parallelIterators(2),
                    [&](OpBuilder &nb, Location bodyLoc, ValueRange args) {
                      linalg::YieldOp::create(
                          nb, bodyLoc, ValueRange{term(nb, args.drop_back())});
                    })
                    ->getResult(0);
  // Whole rounds of 32 chunks of 16, padded with +0.0 (which changes no
  // sum: one started at +0.0 is never -0.0), as (round, lane, element).
  int64_t round = kRowSumLanes * kRowSumChunk;
  int64_t rounds = llvm::divideCeil(cols, round);
  terms = padWithZeros(b, loc, terms, {rows, rounds * round});
  terms = tensor::ExpandShapeOp::create(
      b, loc,
      RankedTensorType::get({rows, rounds, kRowSumLanes, kRowSumChunk}, f32),
      terms, ArrayRef<ReassociationIndices>{{0}, {1, 2, 3}});
  MLIRContext *context = b.getContext();
  auto dim = [&](unsigned position) {
    return getAffineDimExpr(position, context);
  };
  auto addInto = [](OpBuilder &nb, Location bodyLoc, ValueRange args) {
    linalg::YieldOp::create(
        nb, bodyLoc,
        ValueRange{
            arith::AddFOp::create(nb, bodyLoc, args[1], args[0]).getResult()});
  };
  using utils::IteratorType;

  // Each chunk's sum from +0.0: loops (i, round, lane, element), the
  // element innermost.
  Value chunks =
      linalg::GenericOp::create(
          b, loc,
          TypeRange{RankedTensorType::get({rows, rounds, kRowSumLanes}, f32)},
          ValueRange{terms},
          ValueRange{filledTensor(b, loc, {rows, rounds, kRowSumLanes}, f32,
                                  b.getF32FloatAttr(0.0))},
          ArrayRef<AffineMap>{
              b.getMultiDimIdentityMap(4),
              AffineMap::get(4, 0, {dim(0), dim(1), dim(2)}, context)},
          ArrayRef<IteratorType>{IteratorType::parallel, IteratorType::parallel,
                                 IteratorType::parallel,
                                 IteratorType::reduction},
          addInto)
          ->getResult(0);

  // Each lane's sum from +0.0 of its chunks' sums, round by round: loops
  // (i, round, lane), the round the reduction.
  Value lanes =
      linalg::GenericOp::create(
          b, loc, TypeRange{RankedTensorType::get({rows, kRowSumLanes}, f32)},
          ValueRange{chunks},
          ValueRange{filledTensor(b, loc, {rows, kRowSumLanes}, f32,
                                  b.getF32FloatAttr(0.0))},
          ArrayRef<AffineMap>{b.getMultiDimIdentityMap(3),
                              AffineMap::get(3, 0, {dim(0), dim(2)}, context)},
          ArrayRef<IteratorType>{IteratorType::parallel,
                                 IteratorType::reduction,
                                 IteratorType::parallel},
          addInto)
          ->getResult(0);

  // The lanes pairwise, halving: lane l + lane l + width / 2.
  auto sliceType = [&](int64_t width) {
    return RankedTensorType::get({rows, width}, f32);
  };
  for (int64_t width = kRowSumLanes; width > 1; width /= 2) {
    int64_t half = width / 2;
    auto slice = [&](int64_t offset) -> Value {
      return tensor::ExtractSliceOp::create(
          b, loc, sliceType(half), lanes, ValueRange{}, ValueRange{},
          ValueRange{}, b.getDenseI64ArrayAttr({0, offset}),
          b.getDenseI64ArrayAttr({rows, half}), b.getDenseI64ArrayAttr({1, 1}));
    };
    lanes = addTensors(b, loc, slice(0), slice(half));
  }
  Value total = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({rows}, f32), lanes,
      ArrayRef<ReassociationIndices>{{0, 1}});
  // The init, then the row's sum.
  return addTensors(b, loc, init, total);
}

LogicalResult reference::lowerRowSum(RewriterBase &rewriter,
                                     linalg::GenericOp op) {
  if (!isRowSum(op))
    return failure();
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(op);
  Block *body = op.getBlock();
  SmallVector<AffineMap> maps;
  for (OpOperand *input : op.getDpsInputOperands())
    maps.push_back(op.getMatchingIndexingMap(input));
  Value sum = buildRowSum(
      rewriter, op.getLoc(), op.getDpsInputs(), maps, op.getDpsInits()[0],
      op.getStaticLoopRanges()[1], [&](OpBuilder &b, ValueRange args) {
        IRMapping mapping;
        for (auto [from, to] : llvm::zip(body->getArguments(), args))
          mapping.map(from, to);
        return buildRowSumTerm(b, op, mapping);
      });
  rewriter.replaceOp(op, sum);
  return success();
}

void reference::lowerRowSums(Operation *root) {
  SmallVector<linalg::GenericOp> sums;
  root->walk([&](linalg::GenericOp op) {
    if (isRowSum(op))
      sums.push_back(op);
  });
  IRRewriter rewriter(root->getContext());
  for (linalg::GenericOp op : sums)
    (void)lowerRowSum(rewriter, op);
}
