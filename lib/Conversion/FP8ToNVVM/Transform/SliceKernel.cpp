//===- SliceKernel.cpp - tensor slices as GPU kernels ---------------------===//
//
// tensor.extract_slice copies a strided box out of its source;
// tensor.insert_slice writes a new tensor that is its destination with a box
// replaced by the source (so no buffer is written in place, and the launch
// plan stays a list of values). One element per thread: these move the
// small tensors of a step's bookkeeping (the shift of an amax history).
// tensor.pad with zeros writes its source into a larger zeroed tensor: what
// fp8-pad-contraction puts before a matmul whose contracted extent is not a
// multiple of 16 (rare token counts; a quantization could read it fused).
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"

#include "../Program/KernelUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// Declares a buffer parameter of tensor `value`.
static void declare(KernelSignature &signature, StringRef name, ParamRole role,
                    Value value, int64_t &bytesMoved) {
  auto type = cast<RankedTensorType>(value.getType());
  Type element = type.getElementType();
  signature.addBuffer(
      name, role, element, type.getShape(),
      MemRefType::get({type.getNumElements()}, storageType(element)));
  bytesMoved += type.getNumElements() *
                llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
}

/// Checks what the kernels take: static shapes, offsets, sizes and
/// strides. A rank-reducing slice is fine: dropping unit dims keeps the
/// row-major order, so the box is indexed by its full-rank sizes.
static LogicalResult checkSlice(OffsetSizeAndStrideOpInterface op,
                                RankedTensorType sliceType,
                                RankedTensorType wholeType) {
  auto isDynamic = [](ArrayRef<int64_t> values) {
    return llvm::any_of(values, ShapedType::isDynamic);
  };
  if (!sliceType.hasStaticShape() || !wholeType.hasStaticShape() ||
      isDynamic(op.getStaticOffsets()) || isDynamic(op.getStaticSizes()) ||
      isDynamic(op.getStaticStrides()))
    return op->emitOpError("convert-fp8-to-nvvm: a slice needs static "
                           "shapes, offsets, sizes and strides");
  return success();
}

/// tensor.pad with a constant zero: out[i] = source[i - low] inside the
/// source's box, 0 outside.
static FailureOr<gpu::GPUModuleOp> buildPadKernel(OpBuilder &builder,
                                                  tensor::PadOp pad,
                                                  StringRef name,
                                                  const Target &target) {
  RankedTensorType sourceType = pad.getSourceType();
  RankedTensorType resultType = pad.getResultType();
  Value padding = pad.getConstantPaddingValue();
  if (!sourceType.hasStaticShape() || !resultType.hasStaticShape() ||
      llvm::any_of(pad.getStaticLow(), ShapedType::isDynamic) || !padding ||
      !(matchPattern(padding, m_AnyZeroFloat()) ||
        matchPattern(padding, m_Zero())))
    return pad.emitOpError("convert-fp8-to-nvvm: a pad needs static shapes "
                           "and offsets and a constant zero padding value");
  KernelBuilder b(pad.getLoc(), builder);
  KernelSignature signature;
  int64_t bytesMoved = 0;
  declare(signature, "source", ParamRole::input, pad.getSource(), bytesMoved);
  signature.bindOperand("source", pad.getSourceMutable());
  declare(signature, "out", ParamRole::output, pad.getResult(), bytesMoved);
  signature.bindResult("out", pad->getResult(0));
  int64_t numOutputs = resultType.getNumElements();
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, pad->getName().getStringRef(),
              llvm::divideCeil(numOutputs, kThreadsPerBlock), kThreadsPerBlock,
              bytesMoved);
  Value source = signature.getArgument(func, "source");
  Value out = signature.getArgument(func, "out");
  Value thread = buildActiveThread(b, numOutputs);
  SmallVector<Value> indices = delinearize(b, thread, resultType.getShape());
  Value inside = arith::ConstantIntOp::create(b, 1, 1);
  SmallVector<Value> sourceIndices;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    // Unsigned: an index before the box wraps around and fails `< size`.
    Value shifted = b.sub(index, pad.getStaticLow()[dim]);
    inside = b.andI(inside, b.ult(shifted, sourceType.getDimSize(dim)));
    sourceIndices.push_back(shifted);
  }
  Type storage = storageType(resultType.getElementType());
  auto ifInside = scf::IfOp::create(b, TypeRange{storage}, inside,
                                    /*withElseRegion=*/true);
  b.setInsertionPointToStart(ifInside.thenBlock());
  Value value = memref::LoadOp::create(
      b, source, linearize(b, sourceIndices, sourceType.getShape()));
  scf::YieldOp::create(b, value);
  b.setInsertionPointToStart(ifInside.elseBlock());
  Value zero =
      arith::ConstantOp::create(b, cast<TypedAttr>(b.getZeroAttr(storage)));
  scf::YieldOp::create(b, zero);
  b.setInsertionPointAfter(ifInside);
  memref::StoreOp::create(b, ifInside.getResult(0), out, thread);
  return finishKernel(b, func);
}

FailureOr<gpu::GPUModuleOp> kernels::buildSliceKernel(OpBuilder &builder,
                                                      Operation *op,
                                                      StringRef name,
                                                      const Target &target) {
  if (auto pad = dyn_cast<tensor::PadOp>(op))
    return buildPadKernel(builder, pad, name, target);
  auto extract = dyn_cast<tensor::ExtractSliceOp>(op);
  auto insert = dyn_cast<tensor::InsertSliceOp>(op);
  if (!extract && !insert)
    return op->emitOpError("convert-fp8-to-nvvm: not a slice");
  auto slice = cast<OffsetSizeAndStrideOpInterface>(op);
  auto sliceType = extract ? extract.getType() : insert.getSourceType();
  auto wholeType = extract ? extract.getSourceType() : insert.getDestType();
  if (failed(checkSlice(slice, sliceType, wholeType)))
    return failure();
  ArrayRef<int64_t> offsets = slice.getStaticOffsets();
  ArrayRef<int64_t> strides = slice.getStaticStrides();
  ArrayRef<int64_t> sliceShape = slice.getStaticSizes();
  ArrayRef<int64_t> wholeShape = wholeType.getShape();

  KernelBuilder b(op->getLoc(), builder);
  KernelSignature signature;
  int64_t bytesMoved = 0;
  // An insert into a tensor.empty leaves the rest undefined: no need to
  // read it.
  bool readsDest = insert && !insert.getDest().getDefiningOp<tensor::EmptyOp>();
  declare(signature, "source", ParamRole::input, op->getOperand(0), bytesMoved);
  signature.bindOperand("source", op->getOpOperand(0));
  if (readsDest) {
    declare(signature, "dest", ParamRole::input, insert.getDest(), bytesMoved);
    signature.bindOperand("dest", insert.getDestMutable());
  }
  declare(signature, "out", ParamRole::output, op->getResult(0), bytesMoved);
  signature.bindResult("out", op->getResult(0));
  int64_t numOutputs =
      cast<RankedTensorType>(op->getResult(0).getType()).getNumElements();
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, op->getName().getStringRef(),
              llvm::divideCeil(numOutputs, kThreadsPerBlock), kThreadsPerBlock,
              bytesMoved);
  Value source = signature.getArgument(func, "source");
  Value out = signature.getArgument(func, "out");

  Value thread = buildActiveThread(b, numOutputs);
  if (extract) {
    // out[i] = source[offset + i * stride]
    SmallVector<Value> indices = delinearize(b, thread, sliceShape);
    for (size_t dim = 0; dim < indices.size(); ++dim)
      indices[dim] = b.add(b.mul(indices[dim], strides[dim]), offsets[dim]);
    Value value =
        memref::LoadOp::create(b, source, linearize(b, indices, wholeShape));
    memref::StoreOp::create(b, value, out, thread);
    return finishKernel(b, func);
  }
  // out[i] = source[(i - offset) / stride] inside the box, dest[i] outside.
  SmallVector<Value> indices = delinearize(b, thread, wholeShape);
  Value inside = arith::ConstantIntOp::create(b, 1, 1);
  SmallVector<Value> sourceIndices;
  for (auto [dim, index] : llvm::enumerate(indices)) {
    // Unsigned: an index before the box wraps around and fails `< size`.
    Value shifted = b.sub(index, offsets[dim]);
    Value step = b.divU(shifted, strides[dim]);
    inside = b.andI(inside, b.ult(step, sliceShape[dim]));
    inside = b.andI(inside, b.eq(b.remU(shifted, strides[dim]), 0));
    sourceIndices.push_back(step);
  }
  auto ifInside = scf::IfOp::create(b, inside, /*withElseRegion=*/readsDest);
  b.setInsertionPointToStart(ifInside.thenBlock());
  Value value = memref::LoadOp::create(b, source,
                                       linearize(b, sourceIndices, sliceShape));
  memref::StoreOp::create(b, value, out, thread);
  if (readsDest) {
    b.setInsertionPointToStart(ifInside.elseBlock());
    Value kept =
        memref::LoadOp::create(b, signature.getArgument(func, "dest"), thread);
    memref::StoreOp::create(b, kept, out, thread);
  }
  return finishKernel(b, func);
}
