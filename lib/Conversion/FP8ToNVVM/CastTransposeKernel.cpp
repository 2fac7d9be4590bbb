//===- CastTransposeKernel.cpp - fused quantize + transpose kernel --------===//
//
// Wgrad contracts X along its rows, and Hopper's FP8 wgmma wants K-major
// operands, so training needs X quantized twice: 1xc tiles along its rows
// (Fprop) and 1xc tiles along the rows of Xᵀ, stored transposed. Doing both
// from one read of X is the cast-transpose kernel: each CTA stages a 128x128
// tile in shared memory, quantizes its rows on the way in, and its columns
// on the way out.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using kernels::kThreadsPerBlock;

static constexpr int64_t kTile = 128;
// Shared rows are padded by 16 bytes: 16-byte stores stay aligned, and the
// column pass (a warp reads 32 consecutive columns of one row) is
// conflict-free either way.
static constexpr int64_t kSharedStride = kTile + 8;

static Value idx(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

static Value maxAbs(OpBuilder &b, Location loc, Value acc, Value v) {
  return arith::MaximumFOp::create(b, loc, acc, kernels::buildAbs(b, loc, v));
}

static Value storeScale(OpBuilder &b, Location loc, Value scale) {
  if (isa<Float8E8M0FNUType>(scale.getType()))
    return arith::BitcastOp::create(b, loc, b.getI8Type(), scale);
  return scale;
}

bool fp8::fitsCastTransposeKernel(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getRank() == 2 &&
         tensor.getDimSize(0) % kTile == 0 &&
         tensor.getDimSize(1) % kTile == 0 &&
         tensor.getElementType().getIntOrFloatBitWidth() == 16;
}

FailureOr<gpu::GPUModuleOp>
fp8::buildCastTransposeKernel(OpBuilder &b, QuantizeOp rowsOp,
                              QuantizeOp transposedOp, StringRef name,
                              const Target &target) {
  auto inputType = cast<RankedTensorType>(rowsOp.getInput().getType());
  int64_t rows = inputType.getDimSize(0), cols = inputType.getDimSize(1);
  Type inputElement = inputType.getElementType();
  ScalingAttr scaling = rowsOp.getScaling();
  Type elementType = rowsOp.getResult().getType().getElementType();
  if (!fitsCastTransposeKernel(inputType))
    return rowsOp.emitOpError("the fused quantize+transpose kernel needs a "
                              "16-bit input with both dims multiples of 128");

  MLIRContext *ctx = b.getContext();
  Location loc = rowsOp.getLoc();
  Type f32 = b.getF32Type();
  Type scaleElement = scaling.getScale();
  Type scaleStorage =
      isa<Float8E8M0FNUType>(scaleElement) ? Type(b.getI8Type()) : scaleElement;
  int64_t tileRows = rows / kTile, tileCols = cols / kTile;

  OpBuilder::InsertionGuard guard(b);
  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  auto tileType =
      MemRefType::get({kTile, kSharedStride}, inputElement, nullptr, workgroup);
  auto partialType = MemRefType::get({2, kTile}, f32, nullptr, workgroup);
  gpu::GPUFuncOp func =
      kernels::createKernel(b, loc, name, target,
                            {MemRefType::get({rows * cols}, inputElement),
                             MemRefType::get({rows * cols}, b.getI8Type()),
                             MemRefType::get({rows * tileCols}, scaleStorage),
                             MemRefType::get({rows * cols}, b.getI8Type()),
                             MemRefType::get({cols * tileRows}, scaleStorage)},
                            kThreadsPerBlock, {tileType, partialType});
  // The staged tile takes 16-byte vector stores.
  func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  StringRef inputName = kernels::dtypeName(inputElement);
  StringRef dataName = kernels::dtypeName(elementType);
  StringRef scaleName = kernels::dtypeName(scaleElement);
  int64_t scaleBytes = isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4;
  int64_t bytesMoved =
      rows * cols * (2 + 2) + (rows * tileCols + cols * tileRows) * scaleBytes;
  kernels::setManifest(
      b, func, "fp8.quantize+transpose", {tileRows * tileCols, 1, 1},
      kThreadsPerBlock,
      {kernels::manifestParam(b, "input", "input", inputName, {rows, cols}),
       kernels::manifestParam(b, "q", "output", dataName, {rows, cols}),
       kernels::manifestParam(b, "scale", "output", scaleName,
                              {rows, tileCols}),
       kernels::manifestParam(b, "qt", "output", dataName, {cols, rows}),
       kernels::manifestParam(b, "scale_t", "output", scaleName,
                              {cols, tileRows})},
      dataName, scaling, bytesMoved);

  Value input = func.getArgument(0), q = func.getArgument(1),
        scale = func.getArgument(2), qt = func.getArgument(3),
        scaleT = func.getArgument(4);
  Value tile = func.getWorkgroupAttributions()[0];
  Value partial = func.getWorkgroupAttributions()[1];
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value tileRow = arith::DivUIOp::create(b, loc, block, idx(b, loc, tileCols));
  Value tileCol = arith::RemUIOp::create(b, loc, block, idx(b, loc, tileCols));
  Value rowBase = arith::MulIOp::create(b, loc, tileRow, idx(b, loc, kTile));
  Value colBase = arith::MulIOp::create(b, loc, tileCol, idx(b, loc, kTile));
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y).getResult();
  };
  auto mul = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, idx(b, loc, y)).getResult();
  };

  // Row pass: a warp covers two rows per step (16 lanes x 8 elements each).
  Value warp = arith::DivUIOp::create(b, loc, thread, idx(b, loc, 32));
  Value lane = arith::RemUIOp::create(b, loc, thread, idx(b, loc, 32));
  Value rowInPair = arith::DivUIOp::create(b, loc, lane, idx(b, loc, 16));
  Value segment = mul(arith::RemUIOp::create(b, loc, lane, idx(b, loc, 16)), 8);
  auto vec8 = VectorType::get({8}, inputElement);
  auto vec8f = VectorType::get({8}, f32);
  for (int64_t step = 0; step < 8; ++step) {
    Value row = add(add(mul(warp, 16), idx(b, loc, 2 * step)), rowInPair);
    Value globalRow = add(rowBase, row);
    Value offset = add(mul(globalRow, cols), add(colBase, segment));
    Value loaded = vector::LoadOp::create(b, loc, vec8, input, offset, false,
                                          llvm::Align(16));
    vector::StoreOp::create(b, loc, loaded, tile, ValueRange{row, segment},
                            false, llvm::Align(16));
    Value values = arith::ExtFOp::create(b, loc, vec8f, loaded);
    Value amax =
        vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXIMUMF,
                                    kernels::buildAbs(b, loc, values));
    for (int64_t stride = 8; stride >= 1; stride /= 2)
      amax = arith::MaximumFOp::create(
          b, loc, amax,
          gpu::ShuffleOp::create(b, loc, amax, stride, 32,
                                 gpu::ShuffleMode::XOR)
              .getShuffleResult());
    TileScales scales =
        buildTileScales(b, loc, amax, elementType, scaling, rowsOp.getMargin());
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < 8; ++i)
      scaled.push_back(arith::MulFOp::create(
          b, loc, vector::ExtractOp::create(b, loc, values, i),
          scales.quantScale));
    vector::StoreOp::create(
        b, loc, kernels::convertToBytes(b, loc, scaled, elementType), q, offset,
        false, llvm::Align(8));
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        segment, idx(b, loc, 0));
    auto ifFirst = scf::IfOp::create(b, loc, first, false);
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    memref::StoreOp::create(b, loc, storeScale(b, loc, scales.storedScale),
                            scale, add(mul(globalRow, tileCols), tileCol));
  }
  gpu::BarrierOp::create(b, loc);

  // Column pass: thread t reads column t % 128, rows (t / 128) * 64 + 0..63;
  // a warp reads 32 consecutive columns of one row at a time.
  Value column = arith::RemUIOp::create(b, loc, thread, idx(b, loc, kTile));
  Value half = arith::DivUIOp::create(b, loc, thread, idx(b, loc, kTile));
  Value firstRow = mul(half, 64);
  SmallVector<Value> values;
  Value amax = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  for (int64_t i = 0; i < 64; ++i) {
    Value v = memref::LoadOp::create(
        b, loc, tile, ValueRange{add(firstRow, idx(b, loc, i)), column});
    Value wide = arith::ExtFOp::create(b, loc, f32, v);
    values.push_back(wide);
    amax = maxAbs(b, loc, amax, wide);
  }
  memref::StoreOp::create(b, loc, amax, partial, ValueRange{half, column});
  gpu::BarrierOp::create(b, loc);
  Value other = memref::LoadOp::create(
      b, loc, partial,
      ValueRange{arith::SubIOp::create(b, loc, idx(b, loc, 1), half), column});
  amax = arith::MaximumFOp::create(b, loc, amax, other);
  TileScales scales =
      buildTileScales(b, loc, amax, elementType, scaling, rowsOp.getMargin());
  Value globalCol = add(colBase, column);
  Value rowStart = add(mul(globalCol, rows), add(rowBase, firstRow));
  for (int64_t chunk = 0; chunk < 4; ++chunk) {
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < 16; ++i)
      scaled.push_back(arith::MulFOp::create(b, loc, values[chunk * 16 + i],
                                             scales.quantScale));
    vector::StoreOp::create(
        b, loc, kernels::convertToBytes(b, loc, scaled, elementType), qt,
        add(rowStart, idx(b, loc, chunk * 16)), false, llvm::Align(16));
  }
  Value isFirstHalf = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                            half, idx(b, loc, 0));
  auto ifFirstHalf = scf::IfOp::create(b, loc, isFirstHalf, false);
  b.setInsertionPointToStart(ifFirstHalf.thenBlock());
  memref::StoreOp::create(b, loc, storeScale(b, loc, scales.storedScale),
                          scaleT, add(mul(globalCol, tileRows), tileRow));
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}
