//===- FusedProducer.cpp - an elementwise producer inside a kernel --------===//
//
// Loads a fused producer's inputs (in one vector where they are consecutive)
// and clones its body per element, as the elementwise kernel does, so that
// the fused and the unfused program compute the same bits.
//
//===----------------------------------------------------------------------===//

#include "FusedProducer.h"

#include "../Program/KernelUtils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// The widest load of one input: 16 bytes, as in the elementwise kernel.
static constexpr int64_t kVectorBytes = 16;

static int64_t elementBytes(Type type) {
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

void FusedProducer::declare(KernelSignature &signature) {
  for (OpOperand &input : op.getInputsMutable()) {
    auto type = cast<RankedTensorType>(input.get().getType());
    std::string name = ("in" + Twine(input.getOperandNumber())).str();
    signature.addBuffer(
        name, ParamRole::input, type.getElementType(), type.getShape(),
        MemRefType::get({type.getNumElements()}, type.getElementType()));
    signature.bindOperand(name, input);
  }
  if (auto value = op.getKept()) {
    auto type = value.getType();
    signature.addBuffer(
        "kept", ParamRole::output, type.getElementType(), type.getShape(),
        MemRefType::get({type.getNumElements()}, type.getElementType()));
    signature.bindResult("kept", cast<OpResult>(value));
  }
}

void FusedProducer::bind(const KernelSignature &signature,
                         gpu::GPUFuncOp func) {
  inputs.clear();
  for (unsigned i = 0, e = op.getInputs().size(); i < e; ++i)
    inputs.push_back(signature.getArgument(func, ("in" + Twine(i)).str()));
  if (op.getKept())
    kept = signature.getArgument(func, "kept");
}

int64_t FusedProducer::bytesMoved() {
  int64_t bytes = 0;
  for (Value input : op.getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    bytes += type.getNumElements() * elementBytes(type.getElementType());
  }
  if (auto value = op.getKept())
    bytes += value.getType().getNumElements() *
             elementBytes(value.getType().getElementType());
  return bytes;
}

/// Loads `width` elements (a vector, or a scalar for width 1) at `offset`.
static Value loadElements(KernelBuilder &b, Value memref, Value offset,
                          int64_t width) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  if (width == 1)
    return memref::LoadOp::create(b, memref, offset);
  return vector::LoadOp::create(
      b, VectorType::get({width}, element), memref, offset,
      /*nontemporal=*/false,
      llvm::Align(std::min(width * elementBytes(element), kVectorBytes)));
}

static SmallVector<Value> splitElements(KernelBuilder &b, Value loaded,
                                        int64_t width) {
  if (width == 1)
    return {loaded};
  SmallVector<Value> elements;
  for (int64_t lane = 0; lane < width; ++lane)
    elements.push_back(vector::ExtractOp::create(b, loaded, lane));
  return elements;
}

FusedProducer::Inputs FusedProducer::load(KernelBuilder &b, Value offset,
                                          int64_t width,
                                          VectorLoader vectorLoad) {
  ArrayRef<int64_t> shape = op.getProducedType().getShape();
  int64_t cols = shape[1];
  MLIRContext *context = b.getContext();
  AffineMap row = AffineMap::get(2, 0, getAffineDimExpr(1, context));
  AffineMap column = AffineMap::get(2, 0, getAffineDimExpr(0, context));
  // Each input's `width` elements: one load where they are consecutive in
  // it (read in loop order, or a bias row whose vectors stay in one row),
  // one element for all where they are one (a per-row value: the `width`
  // elements lie in one row), else element by element through the indexing
  // map. A per-row value shared by the lanes also lets CSE compute the
  // body's work on it once, not once an element (the same ops on the same
  // value: the same bits). Only inputs read once go through `vectorLoad`:
  // a bias row is read again by every row, from L1.
  Inputs loaded;
  for (auto [input, attr] : llvm::zip(inputs, op.getIndexingMaps())) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    if (map.isIdentity()) {
      Type element = cast<MemRefType>(input.getType()).getElementType();
      loaded.push_back(splitElements(
          b,
          width == 1 || !vectorLoad
              ? loadElements(b, input, offset, width)
              : vectorLoad(b, VectorType::get({width}, element), input, offset),
          width));
      continue;
    }
    if (map == row && cols % width == 0) {
      loaded.push_back(splitElements(
          b, loadElements(b, input, b.remU(offset, cols), width), width));
      continue;
    }
    if (map == column && cols % width == 0) {
      Value element = memref::LoadOp::create(b, input, b.divU(offset, cols));
      loaded.push_back(SmallVector<Value>(width, element));
      continue;
    }
    auto inputShape =
        cast<RankedTensorType>(op.getInputs()[loaded.size()].getType())
            .getShape();
    SmallVector<Value> elements;
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> indices = delinearize(b, b.add(offset, lane), shape);
      elements.push_back(memref::LoadOp::create(
          b, input, mapOffset(b, map, inputShape, indices)));
    }
    loaded.push_back(std::move(elements));
  }
  return loaded;
}

int64_t FusedProducer::loadedWords(int64_t width) {
  // A per-row value counts as `width` elements though load reads it once:
  // an upper bound, which leaves room for the body's work on it (the exact
  // count had ptxas spill 4 bytes in RMSNorm's cast-transpose).
  int64_t bits = 0;
  for (Value input : op.getInputs())
    bits += width * cast<RankedTensorType>(input.getType())
                        .getElementType()
                        .getIntOrFloatBitWidth();
  return llvm::divideCeil(bits, 32);
}

Value FusedProducer::apply(KernelBuilder &b, const Inputs &loaded, Value offset,
                           int64_t width) {
  Block *body = &op.getBody().front();
  SmallVector<Value> produced;
  for (int64_t lane = 0; lane < width; ++lane) {
    IRMapping mapping;
    for (auto [argument, elements] : llvm::zip(body->getArguments(), loaded))
      mapping.map(argument, elements[lane]);
    produced.push_back(cloneBody(b, body, mapping).front());
  }
  Value result = width == 1
                     ? produced.front()
                     : vector::FromElementsOp::create(
                           b, VectorType::get({width}, getElement()), produced)
                           .getResult();
  if (kept) {
    if (width == 1)
      memref::StoreOp::create(b, result, kept, offset);
    else
      vector::StoreOp::create(
          b, result, kept, offset, /*nontemporal=*/false,
          llvm::Align(
              std::min(width * elementBytes(getElement()), kVectorBytes)));
  }
  return result;
}

Value FusedProducer::compute(KernelBuilder &b, Value offset, int64_t width) {
  return apply(b, load(b, offset, width), offset, width);
}
