//===- DequantizeKernel.cpp - fp8.dequantize as a GPU kernel --------------===//
//
// Elementwise: every thread loads 16 FP8 bytes (one 16-byte load) and the
// scale of their tile, widens pairs with cvt.rn.f16x2.{e4m3,e5m2}x2 (exact),
// multiplies in f32 as the CPU reference does, rounds to the result type and
// stores 16 results with 16-byte stores.
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"

#include "../Program/KernelUtils.h"
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

FailureOr<gpu::GPUModuleOp>
kernels::buildDequantizeKernel(OpBuilder &builder, DequantizeOp op,
                               StringRef name, const Target &target) {
  auto dataType = cast<RankedTensorType>(op.getInput().getType());
  if (!dataType.hasStaticShape() || dataType.getRank() != 2)
    return op.emitOpError("convert-fp8-to-nvvm needs a static rank-2 input, "
                          "got ")
           << dataType;
  KernelBuilder b(op.getLoc(), builder);
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

  KernelSignature signature;
  signature.addBuffer("q", ParamRole::input, elementType, {rows, cols},
                      MemRefType::get({numElements}, b.getI8Type()));
  signature.addBuffer(
      "scale", ParamRole::input, scaleElement, {scaleRows, scaleCols},
      MemRefType::get({scaleRows * scaleCols}, storageType(scaleElement)));
  signature.addBuffer("out", ParamRole::output, resultElement, {rows, cols},
                      MemRefType::get({numElements}, resultElement));
  signature.bindOperand("q", op->getOpOperand(0));
  signature.bindOperand("scale", op->getOpOperand(1));
  signature.bindResult("out", op->getResult(0));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  int64_t scaleBytes =
      scaleRows * scaleCols * (isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4);
  setManifest(b, func, signature, "fp8.dequantize",
              llvm::divideCeil(numThreads, kThreadsPerBlock), kThreadsPerBlock,
              numElements * (1 + resultElement.getIntOrFloatBitWidth() / 8) +
                  scaleBytes,
              manifestQuantization(b, elementType, scaling));
  Value q = signature.getArgument(func, "q");
  Value scale = signature.getArgument(func, "scale");
  Value out = signature.getArgument(func, "out");

  Value thread = buildActiveThread(b, numThreads);
  Value offset = b.mul(thread, chunk);
  Value row = b.divU(offset, cols);
  Value col = b.remU(offset, cols);
  // A chunk never straddles a row, and a tile boundary only between chunks
  // when the tile width is a multiple of the chunk; otherwise each element
  // finds its own scale (partial edge tiles included).
  bool chunkInOneTile = tileCols % chunk == 0;
  auto scaleAt = [&](Value column) {
    Value tileCol = b.divU(column, tileCols);
    Value tileRow = b.divU(row, tileRows);
    Value index = b.add(b.mul(tileRow, scaleCols), tileCol);
    Value stored = memref::LoadOp::create(b, scale, index);
    if (isa<Float8E8M0FNUType>(scaleElement))
      stored = b.bitcast(scaleElement, stored);
    return buildScaleToF32(b, b.getLoc(), stored);
  };
  Value bytes;
  if (chunk > 1) {
    bytes = vector::LoadOp::create(b, VectorType::get({chunk}, b.getI8Type()),
                                   q, offset, /*nontemporal=*/false,
                                   llvm::Align(chunk));
  } else {
    // cvt converts pairs: the byte and a zero.
    Value byte = memref::LoadOp::create(b, q, offset);
    Value zero = arith::ConstantIntOp::create(b, 0, 8);
    bytes = vector::FromElementsOp::create(
        b, VectorType::get({2}, b.getI8Type()), ValueRange{byte, zero});
  }
  SmallVector<Value> values = convertFromBytes(b, bytes, elementType);
  Value chunkScale = chunkInOneTile ? scaleAt(col) : Value();
  SmallVector<Value> results;
  for (int64_t i = 0; i < chunk; ++i) {
    Value factor = chunkInOneTile ? chunkScale : scaleAt(b.add(col, i));
    Value x = b.mulF(values[i], factor);
    if (!resultElement.isF32())
      x = arith::TruncFOp::create(b, resultElement, x);
    results.push_back(x);
  }
  if (chunk == 1) {
    memref::StoreOp::create(b, results[0], out, offset);
  } else {
    Value outChunk = vector::FromElementsOp::create(
        b, VectorType::get({chunk}, resultElement), results);
    vector::StoreOp::create(
        b, outChunk, out, offset, /*nontemporal=*/false,
        llvm::Align(chunk * resultElement.getIntOrFloatBitWidth() / 8));
  }
  return finishKernel(b, func);
}
