//===- TransposeKernel.cpp - fp8.transpose as a GPU kernel ----------------===//
//
// A lossless transpose of FP8 data and its (symmetric) scales: the K-major
// copy Hopper's wgmma needs of an operand quantized with square tiles. Each
// CTA moves a 64x64 byte tile through shared memory: 16-byte loads of its
// rows, 16-byte stores of its columns. The scale tensor, small, is
// transposed by a grid-stride loop over the same threads.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

static constexpr int64_t kTile = 64;
// Rows padded by 16 bytes: aligned 16-byte stores, fewer bank conflicts in
// the column reads.
static constexpr int64_t kStride = kTile + 16;

FailureOr<gpu::GPUModuleOp> fp8::buildTransposeKernel(OpBuilder &b,
                                                      TransposeOp op,
                                                      StringRef name,
                                                      const Target &target) {
  auto dataType = cast<RankedTensorType>(op.getInput().getType());
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  if (!dataType.hasStaticShape() || dataType.getRank() != 2 ||
      dataType.getDimSize(0) % kTile != 0 ||
      dataType.getDimSize(1) % kTile != 0)
    return op.emitOpError("convert-fp8-to-nvvm transposes static rank-2 "
                          "data whose dims are multiples of 64 so far, got ")
           << dataType;
  OpBuilder::InsertionGuard guard(b);
  MLIRContext *ctx = b.getContext();
  Location loc = op.getLoc();
  int64_t rows = dataType.getDimSize(0), cols = dataType.getDimSize(1);
  int64_t scaleRows = scaleType.getDimSize(0),
          scaleCols = scaleType.getDimSize(1);
  int64_t numScales = scaleRows * scaleCols;
  Type scaleStorage = storageType(scaleType.getElementType());
  int64_t tilesPerRow = cols / kTile;
  int64_t numBlocks = (rows / kTile) * tilesPerRow;

  auto workgroup = gpu::AddressSpaceAttr::get(
      ctx, gpu::GPUDialect::getWorkgroupAddressSpace());
  gpu::GPUFuncOp func = createKernel(
      b, loc, name, target,
      {MemRefType::get({rows * cols}, b.getI8Type()),
       MemRefType::get({numScales}, scaleStorage),
       MemRefType::get({rows * cols}, b.getI8Type()),
       MemRefType::get({numScales}, scaleStorage)},
      kThreadsPerBlock,
      {MemRefType::get({kTile, kStride}, b.getI8Type(), nullptr, workgroup)});
  func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  StringRef dataName = dtypeName(dataType.getElementType());
  StringRef scaleName = dtypeName(scaleType.getElementType());
  int64_t scaleBytes =
      isa<Float8E8M0FNUType>(scaleType.getElementType()) ? 1 : 4;
  setManifest(
      b, func, "fp8.transpose", {numBlocks, 1, 1}, kThreadsPerBlock,
      {manifestParam(b, "q", "input", dataName, {rows, cols}),
       manifestParam(b, "scale", "input", scaleName, {scaleRows, scaleCols}),
       manifestParam(b, "qt", "output", dataName, {cols, rows}),
       manifestParam(b, "scale_t", "output", scaleName,
                     {scaleCols, scaleRows})},
      dataName, op.getScaling(), 2 * (rows * cols + numScales * scaleBytes));

  Value q = func.getArgument(0), scale = func.getArgument(1),
        qt = func.getArgument(2), scaleT = func.getArgument(3);
  Value tile = func.getWorkgroupAttributions()[0];
  auto idx = [&](int64_t v) { return constIndex(b, loc, v); };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y).getResult();
  };
  auto mul = [&](Value x, int64_t y) {
    return arith::MulIOp::create(b, loc, x, idx(y)).getResult();
  };
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value rowBase =
      mul(arith::DivUIOp::create(b, loc, block, idx(tilesPerRow)), kTile);
  Value colBase =
      mul(arith::RemUIOp::create(b, loc, block, idx(tilesPerRow)), kTile);
  // Row pass: thread t loads bytes 16 (t % 4) .. +15 of tile row t / 4.
  Value row = arith::DivUIOp::create(b, loc, thread, idx(kTile / kChunk));
  Value segment =
      mul(arith::RemUIOp::create(b, loc, thread, idx(kTile / kChunk)), kChunk);
  auto bytesType = VectorType::get({kChunk}, b.getI8Type());
  Value loaded = vector::LoadOp::create(
      b, loc, bytesType, q,
      add(mul(add(rowBase, row), cols), add(colBase, segment)), false,
      llvm::Align(16));
  vector::StoreOp::create(b, loc, loaded, tile, ValueRange{row, segment}, false,
                          llvm::Align(16));
  gpu::BarrierOp::create(b, loc);
  // Column pass: thread t gathers tile column t / 4, rows 16 (t % 4) .. +15:
  // 16 consecutive bytes of a row of the transpose.
  SmallVector<Value> column;
  for (int64_t i = 0; i < kChunk; ++i)
    column.push_back(memref::LoadOp::create(
        b, loc, tile, ValueRange{add(segment, idx(i)), row}));
  Value gathered = vector::FromElementsOp::create(b, loc, bytesType, column);
  vector::StoreOp::create(
      b, loc, gathered, qt,
      add(mul(add(colBase, row), rows), add(rowBase, segment)), false,
      llvm::Align(16));

  // Scales: a grid-stride loop, scale[r][c] -> scale_t[c][r].
  Value start = gpu::GlobalIdOp::create(b, loc, gpu::Dimension::x);
  auto loop = scf::ForOp::create(b, loc, start, idx(numScales),
                                 idx(numBlocks * kThreadsPerBlock));
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value r = arith::DivUIOp::create(b, loc, e, idx(scaleCols));
  Value c = arith::RemUIOp::create(b, loc, e, idx(scaleCols));
  Value value = memref::LoadOp::create(b, loc, scale, e);
  memref::StoreOp::create(b, loc, value, scaleT, add(mul(c, scaleRows), r));
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}
