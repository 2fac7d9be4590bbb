//===- CastTransposeKernel.cpp - fused quantize + transpose kernel --------===//
//
// Wgrad contracts X along its rows, and Hopper's FP8 wgmma wants K-major
// operands, so training needs X quantized twice: 1xc tiles along its rows
// (Fprop) and 1xc tiles along the rows of Xᵀ, stored transposed. Doing both
// from one read of X is the cast-transpose kernel: each CTA stages a 128x128
// tile in shared memory, quantizes its rows on the way in, and its columns
// on the way out. Fused with an elementwise producer
// (fp8.quantize_elementwise with `transpose`), the tile is computed on the
// way in instead of loaded (FusedProducer).
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"
#include "QuantizeKernel.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

static constexpr int64_t kTile = Target::kCastTransposeTile;
// Shared rows are padded by 16 bytes: 16-byte stores stay aligned, and the
// column pass (a warp reads 32 consecutive columns of one row) is
// conflict-free either way.
static constexpr int64_t kSharedStride = kTile + 8;

FailureOr<gpu::GPUModuleOp>
fp8::buildCastTransposeKernel(OpBuilder &builder, QuantizeTransposeOp op,
                              StringRef name, const Target &target) {
  return kernels::buildCastTransposeKernel(
      builder, op, cast<RankedTensorType>(op.getInput().getType()),
      op.getResult().getType().getElementType(), op.getScaling(),
      op.getMargin(), {op.getScaleLayout(), op.getScaleTLayout()}, name, target,
      /*producer=*/nullptr);
}

FailureOr<gpu::GPUModuleOp> kernels::buildCastTransposeKernel(
    OpBuilder &builder, Operation *op, RankedTensorType inputType,
    Type elementType, ScalingAttr scaling, int64_t margin,
    std::array<ScaleLayout, 2> layouts, StringRef name, const Target &target,
    FusedProducer *producer) {
  int64_t rows = inputType.getDimSize(0), cols = inputType.getDimSize(1);
  Type inputElement = inputType.getElementType();
  if (!Target::fitsCastTranspose(inputType, scaling))
    return op->emitOpError("convert-fp8-to-nvvm: the cast-transpose kernel "
                           "needs a 16-bit input with both dims multiples of "
                           "128 and 1x128 tiles, got ")
           << inputType << " and tile " << formatTile(scaling.getTile());

  // Line info points at the first of the fused ops (X's quantization).
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    loc = fused.getLocations().front();
  KernelBuilder b(loc, builder);
  Type f32 = b.getF32Type();
  Type scaleElement = scaling.getScale();
  Type scaleStorage = storageType(scaleElement);
  int64_t tileRows = rows / kTile, tileCols = cols / kTile;

  KernelSignature signature;
  if (producer)
    producer->declare(signature);
  else
    signature.addBuffer("input", ParamRole::input, inputElement, {rows, cols},
                        MemRefType::get({rows * cols}, inputElement));
  signature.addBuffer("q", ParamRole::output, elementType, {rows, cols},
                      MemRefType::get({rows * cols}, b.getI8Type()));
  // col_major_tma scales are the row-major ones transposed; the dims are
  // multiples of 128, so their rows need no padding.
  bool tmaScales = layouts[0] == ScaleLayout::col_major_tma;
  bool tmaScalesT = layouts[1] == ScaleLayout::col_major_tma;
  signature.addBuffer("scale", ParamRole::output, scaleElement,
                      tmaScales ? SmallVector<int64_t>{tileCols, rows}
                                : SmallVector<int64_t>{rows, tileCols},
                      MemRefType::get({rows * tileCols}, scaleStorage));
  signature.addBuffer("qt", ParamRole::output, elementType, {cols, rows},
                      MemRefType::get({rows * cols}, b.getI8Type()));
  signature.addBuffer("scale_t", ParamRole::output, scaleElement,
                      tmaScalesT ? SmallVector<int64_t>{tileRows, cols}
                                 : SmallVector<int64_t>{cols, tileRows},
                      MemRefType::get({cols * tileRows}, scaleStorage));
  if (!producer)
    signature.bindOperand("input", op->getOpOperand(0));
  signature.bindResult("q", op->getResult(0));
  signature.bindResult("scale", op->getResult(1));
  signature.bindResult("qt", op->getResult(2));
  signature.bindResult("scale_t", op->getResult(3));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock,
                   {b.workgroupMemRef({kTile, kSharedStride}, inputElement),
                    b.workgroupMemRef({2, kTile}, f32)});
  // The staged tile takes 16-byte vector stores.
  func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  int64_t scaleBytes = isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4;
  // The input (or the producer's inputs and kept value), both FP8 copies
  // and the scales.
  int64_t bytesMoved = rows * cols * 2 +
                       (rows * tileCols + cols * tileRows) * scaleBytes +
                       (producer ? producer->bytesMoved() : rows * cols * 2);
  setManifest(b, func, signature,
              producer ? "fp8.quantize_elementwise+transpose"
                       : "fp8.quantize+transpose",
              tileRows * tileCols, kThreadsPerBlock, bytesMoved,
              manifestQuantization(b, elementType, scaling));

  Value input;
  if (producer)
    producer->bind(signature, func);
  else
    input = signature.getArgument(func, "input");
  Value q = signature.getArgument(func, "q");
  Value scale = signature.getArgument(func, "scale");
  Value qt = signature.getArgument(func, "qt");
  Value scaleT = signature.getArgument(func, "scale_t");
  Value tile = func.getWorkgroupAttributions()[0];
  Value partial = func.getWorkgroupAttributions()[1];
  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value tileRow = b.divU(block, tileCols);
  Value tileCol = b.remU(block, tileCols);
  Value rowBase = b.mul(tileRow, kTile);
  Value colBase = b.mul(tileCol, kTile);

  // Row pass: a warp covers two rows per step (16 lanes x 8 elements each).
  Value warp = b.divU(thread, kWarpSize);
  Value lane = b.remU(thread, kWarpSize);
  Value rowInPair = b.divU(lane, 16);
  Value segment = b.mul(b.remU(lane, 16), 8);
  auto vec8 = VectorType::get({8}, inputElement);
  auto vec8f = VectorType::get({8}, f32);
  for (int64_t step = 0; step < 8; ++step) {
    Value row = b.add(b.add(b.mul(warp, 16), 2 * step), rowInPair);
    Value globalRow = b.add(rowBase, row);
    Value segmentCol = b.add(colBase, segment);
    Value offset = b.add(b.mul(globalRow, cols), segmentCol);
    Value loaded = producer ? producer->compute(b, offset, 8)
                            : vector::LoadOp::create(b, vec8, input, offset,
                                                     false, llvm::Align(16))
                                  .getResult();
    vector::StoreOp::create(b, loaded, tile, ValueRange{row, segment}, false,
                            llvm::Align(16));
    Value values = arith::ExtFOp::create(b, vec8f, loaded);
    Value amax = vector::ReductionOp::create(b, vector::CombiningKind::MAXIMUMF,
                                             b.absF(values));
    for (int64_t stride = 8; stride >= 1; stride /= 2)
      amax = b.maxF(amax, gpu::ShuffleOp::create(b, amax, stride, kWarpSize,
                                                 gpu::ShuffleMode::XOR)
                              .getShuffleResult());
    TileScales scales =
        buildTileScales(b, b.getLoc(), amax, elementType, scaling, margin);
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < 8; ++i)
      scaled.push_back(
          b.mulF(vector::ExtractOp::create(b, values, i), scales.quantScale));
    vector::StoreOp::create(b, convertToBytes(b, scaled, elementType), q,
                            offset, false, llvm::Align(8));
    Value first = b.eq(segment, 0);
    auto ifFirst = scf::IfOp::create(b, first, false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    Value scaleIndex = tmaScales ? b.add(b.mul(tileCol, rows), globalRow)
                                 : b.add(b.mul(globalRow, tileCols), tileCol);
    memref::StoreOp::create(b, toScaleStorage(b, scales.storedScale), scale,
                            scaleIndex);
  }
  gpu::BarrierOp::create(b);

  // Column pass: thread t reads column t % 128, rows (t / 128) * 64 + 0..63;
  // a warp reads 32 consecutive columns of one row at a time.
  Value column = b.remU(thread, kTile);
  Value half = b.divU(thread, kTile);
  Value firstRow = b.mul(half, 64);
  SmallVector<Value> values;
  Value amax = b.f32(0.0);
  for (int64_t i = 0; i < 64; ++i) {
    Value v =
        memref::LoadOp::create(b, tile, ValueRange{b.add(firstRow, i), column});
    Value wide = arith::ExtFOp::create(b, f32, v);
    values.push_back(wide);
    amax = b.maxF(amax, b.absF(wide));
  }
  memref::StoreOp::create(b, amax, partial, ValueRange{half, column});
  gpu::BarrierOp::create(b);
  Value other = memref::LoadOp::create(
      b, partial, ValueRange{b.sub(b.index(1), half), column});
  amax = b.maxF(amax, other);
  TileScales scales =
      buildTileScales(b, b.getLoc(), amax, elementType, scaling, margin);
  Value globalCol = b.add(colBase, column);
  Value globalFirstRow = b.add(rowBase, firstRow);
  Value rowStart = b.add(b.mul(globalCol, rows), globalFirstRow);
  for (int64_t chunk = 0; chunk < 4; ++chunk) {
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < 16; ++i)
      scaled.push_back(b.mulF(values[chunk * 16 + i], scales.quantScale));
    Value offset = b.add(rowStart, chunk * 16);
    vector::StoreOp::create(b, convertToBytes(b, scaled, elementType), qt,
                            offset, false, llvm::Align(16));
  }
  Value isFirstHalf = b.eq(half, 0);
  auto ifFirstHalf = scf::IfOp::create(b, isFirstHalf, false);
  b.setInsertionPointToStart(ifFirstHalf.thenBlock());
  Value scaleIndex = tmaScalesT ? b.add(b.mul(tileRow, cols), globalCol)
                                : b.add(b.mul(globalCol, tileRows), tileRow);
  memref::StoreOp::create(b, toScaleStorage(b, scales.storedScale), scaleT,
                          scaleIndex);
  return finishKernel(b, func);
}
