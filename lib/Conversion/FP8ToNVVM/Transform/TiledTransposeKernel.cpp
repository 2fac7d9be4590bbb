//===- TiledTransposeKernel.cpp - a 2-D linalg.transpose at copy speed ----===//
//
// A [1, 0] transpose of a 2- or 4-byte matrix whose dims are multiples of
// 64: each CTA moves a 64x64 tile through shared memory. Threads read rows
// of the input with 16-byte loads and write rows of the output with
// 16-byte stores; the transposition happens between, in shared memory,
// whose rows are padded by one 4-byte word so that reading a column touches
// every bank once.
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"

#include "../Program/KernelUtils.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

static constexpr int64_t kTile = 64;

/// Elements of a 16-byte vector of `type`.
static int64_t vectorLength(Type type) {
  return 16 / (type.getIntOrFloatBitWidth() / 8);
}

bool kernels::fitsTiledTransposeKernel(linalg::TransposeOp op) {
  auto type = dyn_cast<RankedTensorType>(op.getInput().getType());
  if (!type || !type.hasStaticShape() || type.getRank() != 2 ||
      op.getPermutation() != ArrayRef<int64_t>{1, 0})
    return false;
  unsigned width = type.getElementType().getIntOrFloatBitWidth();
  return (width == 16 || width == 32) && type.getDimSize(0) % kTile == 0 &&
         type.getDimSize(1) % kTile == 0;
}

FailureOr<gpu::GPUModuleOp>
kernels::buildTiledTransposeKernel(OpBuilder &builder, linalg::TransposeOp op,
                                   StringRef name, const Target &target) {
  assert(fitsTiledTransposeKernel(op) && "see fitsTiledTransposeKernel");
  auto type = cast<RankedTensorType>(op.getInput().getType());
  Type element = type.getElementType();
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  int64_t vector = vectorLength(element);
  // One 4-byte word of padding per shared-memory row.
  int64_t stride = kTile + 4 / (element.getIntOrFloatBitWidth() / 8);
  KernelBuilder b(op.getLoc(), builder);

  KernelSignature signature;
  signature.addBuffer("input", ParamRole::input, element, {rows, cols},
                      MemRefType::get({rows * cols}, element));
  signature.addBuffer("out", ParamRole::output, element, {cols, rows},
                      MemRefType::get({rows * cols}, element));
  signature.bindOperand("input", op->getOpOperand(0));
  signature.bindResult("out", op->getResult(0));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock,
                   {b.workgroupMemRef({kTile, stride}, element)});
  int64_t tilesPerRow = cols / kTile;
  int64_t numBlocks = (rows / kTile) * tilesPerRow;
  setManifest(b, func, signature, "linalg.transpose", numBlocks,
              kThreadsPerBlock,
              2 * rows * cols * (element.getIntOrFloatBitWidth() / 8));
  Value input = signature.getArgument(func, "input");
  Value out = signature.getArgument(func, "out");
  Value tile = func.getWorkgroupAttributions()[0];

  Value block = b.blockIdX();
  Value tileRow = b.mul(b.divU(block, tilesPerRow), kTile);
  Value tileCol = b.mul(b.remU(block, tilesPerRow), kTile);
  Value thread = b.threadIdX();
  int64_t vectorsPerRow = kTile / vector;
  int64_t steps = kTile * vectorsPerRow / kThreadsPerBlock;
  auto vectorType = VectorType::get({vector}, element);

  // Input rows into shared memory.
  for (int64_t step = 0; step < steps; ++step) {
    Value index = b.add(thread, step * kThreadsPerBlock);
    Value row = b.divU(index, vectorsPerRow);
    Value col = b.mul(b.remU(index, vectorsPerRow), vector);
    Value offset = b.add(b.mul(b.add(tileRow, row), cols), b.add(tileCol, col));
    Value loaded =
        vector::LoadOp::create(b, vectorType, input, offset,
                               /*nontemporal=*/false, llvm::Align(16));
    for (int64_t i = 0; i < vector; ++i)
      memref::StoreOp::create(b, vector::ExtractOp::create(b, loaded, i), tile,
                              ValueRange{row, b.add(col, i)});
  }
  gpu::BarrierOp::create(b);
  // Output rows (input columns) out of it.
  for (int64_t step = 0; step < steps; ++step) {
    Value index = b.add(thread, step * kThreadsPerBlock);
    Value col = b.divU(index, vectorsPerRow);
    Value row = b.mul(b.remU(index, vectorsPerRow), vector);
    SmallVector<Value> values;
    for (int64_t i = 0; i < vector; ++i)
      values.push_back(
          memref::LoadOp::create(b, tile, ValueRange{b.add(row, i), col}));
    Value whole = vector::FromElementsOp::create(b, vectorType, values);
    Value offset = b.add(b.mul(b.add(tileCol, col), rows), b.add(tileRow, row));
    vector::StoreOp::create(b, whole, out, offset, /*nontemporal=*/false,
                            llvm::Align(16));
  }
  return finishKernel(b, func);
}
