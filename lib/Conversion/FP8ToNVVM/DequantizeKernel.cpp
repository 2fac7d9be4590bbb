//===- DequantizeKernel.cpp - fp8.dequantize as a GPU kernel --------------===//
//
// Elementwise: every thread loads 16 FP8 bytes (one 16-byte load) and the
// scale of their tile, widens pairs with cvt.rn.f16x2.{e4m3,e5m2}x2 (exact),
// multiplies in f32 as the CPU reference does, rounds to the result type and
// stores 16 results with 16-byte stores.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

FailureOr<gpu::GPUModuleOp> fp8::buildDequantizeKernel(OpBuilder &b,
                                                       DequantizeOp op,
                                                       StringRef name,
                                                       const Target &target) {
  auto dataType = cast<RankedTensorType>(op.getInput().getType());
  if (!dataType.hasStaticShape() || dataType.getRank() != 2)
    return op.emitOpError("convert-fp8-to-nvvm needs a static rank-2 input, "
                          "got ")
           << dataType;
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  int64_t rows = dataType.getDimSize(0), cols = dataType.getDimSize(1);
  ScalingAttr scaling = op.getScaling();
  int64_t tileRows =
      ShapedType::isDynamic(scaling.getTile()[0]) ? rows : scaling.getTile()[0];
  int64_t tileCols =
      ShapedType::isDynamic(scaling.getTile()[1]) ? cols : scaling.getTile()[1];
  int64_t scaleRows = llvm::divideCeil(rows, tileRows);
  int64_t scaleCols = llvm::divideCeil(cols, tileCols);
  Type elementType = dataType.getElementType();
  Type scaleElement = scaling.getScale();
  Type resultElement = op.getResult().getType().getElementType();
  int64_t numElements = rows * cols;
  // Elements per thread: 16 (16-byte loads) where rows allow, else 2 or 1.
  int64_t chunk = cols % kChunk == 0 ? kChunk : (cols % 2 == 0 ? 2 : 1);
  int64_t numThreads = numElements / chunk;

  gpu::GPUFuncOp func = createKernel(
      b, loc, name, target,
      {MemRefType::get({numElements}, b.getI8Type()),
       MemRefType::get({scaleRows * scaleCols}, storageType(scaleElement)),
       MemRefType::get({numElements}, resultElement)},
      kThreadsPerBlock);
  int64_t scaleBytes =
      scaleRows * scaleCols * (isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4);
  setManifest(
      b, func, "fp8.dequantize",
      {int64_t(llvm::divideCeil(numThreads, kThreadsPerBlock)), 1, 1},
      kThreadsPerBlock,
      {manifestParam(b, "q", "input", dtypeName(elementType), {rows, cols}),
       manifestParam(b, "scale", "input", dtypeName(scaleElement),
                     {scaleRows, scaleCols}),
       manifestParam(b, "out", "output", dtypeName(resultElement),
                     {rows, cols})},
      dtypeName(elementType), scaling,
      numElements * (1 + resultElement.getIntOrFloatBitWidth() / 8) +
          scaleBytes);

  Value thread = buildActiveThread(b, loc, numThreads);
  Value offset =
      arith::MulIOp::create(b, loc, thread, constIndex(b, loc, chunk));
  Value row = arith::DivUIOp::create(b, loc, offset, constIndex(b, loc, cols));
  Value col = arith::RemUIOp::create(b, loc, offset, constIndex(b, loc, cols));
  // A chunk never straddles a row, and a tile boundary only between chunks
  // when the tile width is a multiple of the chunk; otherwise each element
  // finds its own scale (partial edge tiles included).
  bool chunkInOneTile = tileCols % chunk == 0;
  auto scaleAt = [&](Value column) {
    Value index = arith::AddIOp::create(
        b, loc,
        arith::MulIOp::create(
            b, loc,
            arith::DivUIOp::create(b, loc, row, constIndex(b, loc, tileRows)),
            constIndex(b, loc, scaleCols)),
        arith::DivUIOp::create(b, loc, column, constIndex(b, loc, tileCols)));
    Value stored = memref::LoadOp::create(b, loc, func.getArgument(1), index);
    if (isa<Float8E8M0FNUType>(scaleElement))
      stored = arith::BitcastOp::create(b, loc, scaleElement, stored);
    return buildScaleToF32(b, loc, stored);
  };
  Value bytes;
  if (chunk > 1) {
    bytes = vector::LoadOp::create(
        b, loc, VectorType::get({chunk}, b.getI8Type()), func.getArgument(0),
        offset, /*nontemporal=*/false, llvm::Align(chunk));
  } else {
    // cvt converts pairs: the byte and a zero.
    Value byte = memref::LoadOp::create(b, loc, func.getArgument(0), offset);
    Value zero = arith::ConstantIntOp::create(b, loc, 0, 8);
    bytes = vector::FromElementsOp::create(
        b, loc, VectorType::get({2}, b.getI8Type()), ValueRange{byte, zero});
  }
  SmallVector<Value> values = convertFromBytes(b, loc, bytes, elementType);
  Value chunkScale = chunkInOneTile ? scaleAt(col) : Value();
  SmallVector<Value> results;
  for (int64_t i = 0; i < chunk; ++i) {
    Value scale = chunkInOneTile ? chunkScale
                                 : scaleAt(arith::AddIOp::create(
                                       b, loc, col, constIndex(b, loc, i)));
    Value x = arith::MulFOp::create(b, loc, values[i], scale);
    if (!resultElement.isF32())
      x = arith::TruncFOp::create(b, loc, resultElement, x);
    results.push_back(x);
  }
  if (chunk == 1) {
    memref::StoreOp::create(b, loc, results[0], func.getArgument(2), offset);
  } else {
    Value out = vector::FromElementsOp::create(
        b, loc, VectorType::get({chunk}, resultElement), results);
    vector::StoreOp::create(
        b, loc, out, func.getArgument(2), offset, /*nontemporal=*/false,
        llvm::Align(chunk * resultElement.getIntOrFloatBitWidth() / 8));
  }
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}
