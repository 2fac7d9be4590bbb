//===- BlockCastTransposeKernel.cpp - square tiles and their transpose ----===//
//
// Blockwise training quantizes W in 128x128 tiles for Fprop and needs Wᵀ
// for Dgrad. A square tile's transpose is a tile of Wᵀ with the same amax,
// so Wᵀ quantized is W quantized, transposed, bit for bit (fp8-derive-
// scaling makes it an fp8.transpose of the quantization, which re-read
// every FP8 byte). This kernel writes both from one read of W: a CTA per
// tile holds the tile in registers (16 consecutive elements of a row per
// thread and step, as the block-tile quantize kernel), reduces its amax,
// stores the quantized rows to q and, through shared memory, the columns
// to qt, 16 bytes a thread (a 16-row piece of a tile column). The bytes are
// the block-tile kernel's and the scale is stored twice, at the tile's
// place in scale and in scale_t.
//
//===----------------------------------------------------------------------===//

#include "QuantizeKernel.h"

#include "../OpKernels.h"
#include "fp8/Dialect/FP8/Utils/CastTransposeShapes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

FailureOr<gpu::GPUModuleOp>
kernels::buildBlockCastTransposeKernel(OpBuilder &builder,
                                       QuantizeTransposeOp op, StringRef name,
                                       const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (!fitsBlockCastTranspose(inputType, op.getScaling()))
    return op.emitOpError("convert-fp8-to-nvvm: the block cast-transpose "
                          "needs square tiles of 64 or 128 and dims "
                          "multiples of them, got ")
           << inputType << " and tile "
           << formatTile(op.getScaling().getTile());
  if (op.getScaleLayout() != ScaleLayout::row_major ||
      op.getScaleTLayout() != ScaleLayout::row_major)
    return op.emitOpError("convert-fp8-to-nvvm: the block cast-transpose "
                          "stores row-major scales only");
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getScaling().getTile(), op);
  int64_t tile = k.tileRows;
  // Rows of the staged tile, padded by 16 bytes (aligned 16-byte row
  // stores, fewer bank conflicts in the column reads).
  int64_t stride = tile + kChunk;
  int64_t steps = tile * tile / (kChunk * kThreadsPerBlock);
  int64_t tilesPerRow = k.cols / tile, tilesPerColumn = k.rows / tile;
  gpu::GPUFuncOp func = k.create(name, target, k.numScales());
  Value partials = k.addPartials(func);
  Value staged = func.addWorkgroupAttribution(
      b.workgroupMemRef({tile * stride}, b.getI8Type()), b.getLoc());
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));

  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value tileRow = b.divU(block, tilesPerRow);
  Value tileCol = b.remU(block, tilesPerRow);
  Value rowBase = b.mul(tileRow, tile);
  Value colBase = b.mul(tileCol, tile);
  // Step s: element e = (t + 256 s) * 16 of the tile, row-major.
  SmallVector<Value> rowsOf, colsOf, chunks;
  Value amax = b.f32(0.0);
  for (int64_t step = 0; step < steps; ++step) {
    Value e = b.mul(b.add(thread, step * kThreadsPerBlock), kChunk);
    rowsOf.push_back(b.divU(e, tile));
    colsOf.push_back(b.remU(e, tile));
    Value offset = b.add(b.mul(b.add(rowBase, rowsOf.back()), k.cols),
                         b.add(colBase, colsOf.back()));
    chunks.push_back(k.load(offset));
    amax = b.maxF(amax, k.maxAbs(chunks.back()));
  }
  Value dataAmax = k.ctaMax(amax, partials, thread);
  TileScales scales = k.tileScales(dataAmax);
  for (int64_t step = 0; step < steps; ++step) {
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < kChunk; ++i)
      scaled.push_back(b.mulF(vector::ExtractOp::create(b, chunks[step], i),
                              scales.quantScale));
    Value bytes = convertToBytes(b, scaled, k.elementType);
    Value offset = b.add(b.mul(b.add(rowBase, rowsOf[step]), k.cols),
                         b.add(colBase, colsOf[step]));
    vector::StoreOp::create(b, bytes, k.data, offset, false, llvm::Align(16));
    vector::StoreOp::create(
        b, bytes, staged,
        ValueRange{b.add(b.mul(rowsOf[step], stride), colsOf[step])}, false,
        llvm::Align(16));
  }
  gpu::BarrierOp::create(b);
  // Thread t gathers, per step, column c = (t + 256 s) % tile of the tile,
  // rows 16 ((t + 256 s) / tile) .. +15: 16 bytes of a row of qt.
  for (int64_t step = 0; step < steps; ++step) {
    Value piece = b.add(thread, step * kThreadsPerBlock);
    Value column = b.remU(piece, tile);
    Value firstRow = b.mul(b.divU(piece, tile), kChunk);
    Value bytes =
        gatherColumnBytes(b, staged, Value(), firstRow, column, stride);
    Value offset =
        b.add(b.mul(b.add(colBase, column), k.rows), b.add(rowBase, firstRow));
    vector::StoreOp::create(b, bytes, k.dataT, offset, false, llvm::Align(16));
  }
  // The tile's scale, at its place in scale and (transposed) in scale_t.
  auto ifFirst = scf::IfOp::create(b, b.eq(thread, 0), false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  Value stored = toScaleStorage(b, scales.storedScale);
  k.storeScale(stored, block);
  memref::StoreOp::create(b, stored, k.scalesT,
                          b.add(b.mul(tileCol, tilesPerColumn), tileRow));
  b.setInsertionPointAfter(ifFirst);
  return k.finish(func);
}
