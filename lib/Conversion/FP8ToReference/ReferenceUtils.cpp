//===- ReferenceUtils.cpp - shared pieces of the CPU reference ------------===//
//
// Tensor builders that the lowerings of fp8 ops to the CPU reference share:
// empty and filled tensors, padding to whole tiles and splitting a dimension
// into (tile index, position in tile).
//
//===----------------------------------------------------------------------===//

#include "ReferenceUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fp8;

Value reference::emptyTensor(OpBuilder &b, Location loc,
                             ArrayRef<int64_t> shape, Type elementType) {
  return tensor::EmptyOp::create(b, loc, shape, elementType);
}

Value reference::filledTensor(OpBuilder &b, Location loc,
                              ArrayRef<int64_t> shape, Type elementType,
                              Attribute value) {
  Value init = emptyTensor(b, loc, shape, elementType);
  Value scalar = arith::ConstantOp::create(b, loc, cast<TypedAttr>(value));
  return linalg::FillOp::create(b, loc, scalar, init).getResult(0);
}

SmallVector<utils::IteratorType> reference::parallelIterators(unsigned count) {
  return SmallVector<utils::IteratorType>(count, utils::IteratorType::parallel);
}

Value reference::padWith(OpBuilder &b, Location loc, Value input,
                         ArrayRef<int64_t> shape, Value value) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getShape() == shape)
    return input;
  SmallVector<OpFoldResult> low(shape.size(), b.getIndexAttr(0)), high;
  for (auto [from, to] : llvm::zip(type.getShape(), shape))
    high.push_back(b.getIndexAttr(to - from));
  return tensor::PadOp::create(b, loc, type.clone(shape), input, low, high,
                               value);
}

Value reference::padWithZeros(OpBuilder &b, Location loc, Value input,
                              ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getShape() == shape)
    return input;
  Value zero =
      arith::ConstantOp::create(b, loc, b.getZeroAttr(type.getElementType()));
  return padWith(b, loc, input, shape, zero);
}

Value reference::splitDim(OpBuilder &b, Location loc, Value input, unsigned dim,
                          int64_t tileExtent) {
  auto type = cast<RankedTensorType>(input.getType());
  SmallVector<int64_t> shape;
  SmallVector<ReassociationIndices> reassociation;
  for (unsigned d = 0; d < type.getRank(); ++d) {
    if (d == dim) {
      reassociation.push_back({static_cast<int64_t>(shape.size()),
                               static_cast<int64_t>(shape.size() + 1)});
      shape.push_back(type.getDimSize(d) / tileExtent);
      shape.push_back(tileExtent);
      continue;
    }
    reassociation.push_back({static_cast<int64_t>(shape.size())});
    shape.push_back(type.getDimSize(d));
  }
  return tensor::ExpandShapeOp::create(b, loc, type.clone(shape), input,
                                       reassociation);
}
