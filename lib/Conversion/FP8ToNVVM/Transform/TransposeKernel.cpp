//===- TransposeKernel.cpp - fp8.transpose as a GPU kernel ----------------===//
//
// A lossless transpose of FP8 data and its (symmetric) scales: the K-major
// copy Hopper's wgmma needs of an operand quantized with square tiles. Each
// CTA moves a 64x64 byte tile through shared memory: 16-byte loads of its
// rows, 16-byte stores of its columns. Dims need only be multiples of 16 (the
// GEMM's own rule): the last tile of a row or column is partial, and its
// threads whose 16 bytes lie outside load or store nothing. The scale tensor,
// small, is transposed by a grid-stride loop over the same threads.
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"

#include "../Program/KernelUtils.h"
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

FailureOr<gpu::GPUModuleOp>
kernels::buildTransposeKernel(OpBuilder &builder, TransposeOp op,
                              StringRef name, const Target &target) {
  auto dataType = cast<RankedTensorType>(op.getInput().getType());
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  if (!dataType.hasStaticShape() || dataType.getRank() != 2 ||
      dataType.getDimSize(0) % kChunk != 0 ||
      dataType.getDimSize(1) % kChunk != 0)
    return op.emitOpError("convert-fp8-to-nvvm transposes static rank-2 "
                          "data whose dims are multiples of 16 (16-byte "
                          "rows, as the GEMMs need), got ")
           << dataType;
  KernelBuilder b(op.getLoc(), builder);
  int64_t rows = dataType.getDimSize(0), cols = dataType.getDimSize(1);
  int64_t scaleRows = scaleType.getDimSize(0),
          scaleCols = scaleType.getDimSize(1);
  int64_t numScales = scaleRows * scaleCols;
  Type dataElement = dataType.getElementType();
  Type scaleElement = scaleType.getElementType();
  Type scaleStorage = storageType(scaleElement);
  int64_t tilesPerRow = llvm::divideCeil(cols, kTile);
  int64_t numBlocks = llvm::divideCeil(rows, kTile) * tilesPerRow;
  // Partial tiles predicate their loads and stores; whole ones need no test
  // (and keep the code they had before partial tiles were allowed).
  bool partialTiles = rows % kTile != 0 || cols % kTile != 0;

  KernelSignature signature;
  signature.addBuffer("q", ParamRole::input, dataElement, {rows, cols},
                      MemRefType::get({rows * cols}, b.getI8Type()));
  signature.addBuffer("scale", ParamRole::input, scaleElement,
                      {scaleRows, scaleCols},
                      MemRefType::get({numScales}, scaleStorage));
  signature.addBuffer("qt", ParamRole::output, dataElement, {cols, rows},
                      MemRefType::get({rows * cols}, b.getI8Type()));
  signature.addBuffer("scale_t", ParamRole::output, scaleElement,
                      {scaleCols, scaleRows},
                      MemRefType::get({numScales}, scaleStorage));
  signature.bindOperand("q", op->getOpOperand(0));
  signature.bindOperand("scale", op->getOpOperand(1));
  signature.bindResult("qt", op->getResult(0));
  signature.bindResult("scale_t", op->getResult(1));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock,
                   {b.workgroupMemRef({kTile, kStride}, b.getI8Type())});
  func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  int64_t scaleBytes = isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4;
  setManifest(b, func, signature, "fp8.transpose", numBlocks, kThreadsPerBlock,
              2 * (rows * cols + numScales * scaleBytes),
              manifestQuantization(b, dataElement, op.getScaling()));

  Value q = signature.getArgument(func, "q");
  Value scale = signature.getArgument(func, "scale");
  Value qt = signature.getArgument(func, "qt");
  Value scaleT = signature.getArgument(func, "scale_t");
  Value tile = func.getWorkgroupAttributions()[0];
  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value rowBase = b.mul(b.divU(block, tilesPerRow), kTile);
  Value colBase = b.mul(b.remU(block, tilesPerRow), kTile);
  // Row pass: thread t loads bytes 16 (t % 4) .. +15 of tile row t / 4.
  Value row = b.divU(thread, kTile / kChunk);
  Value segment = b.mul(b.remU(thread, kTile / kChunk), kChunk);
  auto bytesType = VectorType::get({kChunk}, b.getI8Type());
  Value globalCol = b.add(colBase, segment);
  // Whether the 16 bytes at (r, c) of an extentR x extentC tensor lie inside
  // it: partial tiles run their loads and stores only there.
  auto inside = [&](Value r, Value c, int64_t extentR, int64_t extentC) {
    return b.andI(b.ult(r, extentR), b.ult(c, extentC));
  };
  auto predicated = [&](Value condition, function_ref<void()> body) {
    if (!condition)
      return body();
    OpBuilder::InsertionGuard guard(b);
    auto ifInside = scf::IfOp::create(b, condition, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifInside.thenBlock());
    body();
  };
  Value rowInside = partialTiles
                        ? inside(b.add(rowBase, row), globalCol, rows, cols)
                        : Value();
  predicated(rowInside, [&] {
    Value rowOffset = b.add(b.mul(b.add(rowBase, row), cols), globalCol);
    Value loaded = vector::LoadOp::create(b, bytesType, q, rowOffset, false,
                                          llvm::Align(16));
    vector::StoreOp::create(b, loaded, tile, ValueRange{row, segment}, false,
                            llvm::Align(16));
  });
  gpu::BarrierOp::create(b);
  // Column pass: thread t gathers tile column t / 4, rows 16 (t % 4) .. +15:
  // 16 consecutive bytes of a row of the transpose.
  Value columnInside =
      partialTiles
          ? inside(b.add(colBase, row), b.add(rowBase, segment), cols, rows)
          : Value();
  predicated(columnInside, [&] {
    SmallVector<Value> column;
    for (int64_t i = 0; i < kChunk; ++i)
      column.push_back(
          memref::LoadOp::create(b, tile, ValueRange{b.add(segment, i), row}));
    Value gathered = vector::FromElementsOp::create(b, bytesType, column);
    Value transposedCol = b.add(rowBase, segment);
    Value columnOffset = b.add(b.mul(b.add(colBase, row), rows), transposedCol);
    vector::StoreOp::create(b, gathered, qt, columnOffset, false,
                            llvm::Align(16));
  });

  // Scales: a grid-stride loop, scale[r][c] -> scale_t[c][r].
  Value start = b.globalIdX();
  auto loop = scf::ForOp::create(b, start, b.index(numScales),
                                 b.index(numBlocks * kThreadsPerBlock));
  b.setInsertionPointToStart(loop.getBody());
  Value e = loop.getInductionVar();
  Value r = b.divU(e, scaleCols);
  Value c = b.remU(e, scaleCols);
  Value value = memref::LoadOp::create(b, scale, e);
  memref::StoreOp::create(b, value, scaleT, b.add(b.mul(c, scaleRows), r));
  return finishKernel(b, func);
}
