//===- HadamardKernel.cpp - fp8.hadamard as a GPU kernel ------------------===//
//
// The block Hadamard rotation along the last dim, bit-identical to the CPU
// reference: each output is the in-order f32 sum over j of ±x_j (the sign
// from the Sylvester entry and the seed's random sign, baked into the kernel
// as a bit mask), times fl32(1/sqrt(n)). The products are exact (a sign
// flip), so a fused multiply-add could not change a bit either. A thread
// computes 16 outputs of one block; the block's inputs come through L1.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/ADT/bit.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

static constexpr int64_t kMaxSize = 256;

FailureOr<gpu::GPUModuleOp> fp8::buildHadamardKernel(OpBuilder &b,
                                                     HadamardOp op,
                                                     StringRef name,
                                                     const Target &target) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  int64_t n = op.getSize();
  if (!type.hasStaticShape() || type.getRank() != 2 || op.getDim() != 1 ||
      n < kChunk || n > kMaxSize)
    return op.emitOpError("convert-fp8-to-nvvm rotates the last dim of a "
                          "static matrix in blocks of 16 to 256 so far, got ")
           << type << " dim " << op.getDim() << " size " << n;
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Type element = type.getElementType();
  int64_t numElements = rows * cols;
  int64_t numThreads = numElements / kChunk;
  gpu::GPUFuncOp func = createKernel(b, loc, name, target,
                                     {MemRefType::get({numElements}, element),
                                      MemRefType::get({numElements}, element)},
                                     kThreadsPerBlock);
  SmallVector<NamedAttribute> extra = {
      b.getNamedAttr("dim", b.getI64IntegerAttr(1)),
      b.getNamedAttr("size", b.getI64IntegerAttr(n))};
  std::optional<uint64_t> seed = op.getSeed();
  if (seed)
    extra.push_back(b.getNamedAttr("seed", b.getI64IntegerAttr(*seed)));
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("op", b.getStringAttr("fp8.hadamard")),
      b.getNamedAttr(
          "grid",
          b.getI64ArrayAttr(
              {int64_t(llvm::divideCeil(numThreads, kThreadsPerBlock)), 1, 1})),
      b.getNamedAttr("block", b.getI64ArrayAttr({kThreadsPerBlock, 1, 1})),
      b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(0)),
      b.getNamedAttr(
          "params",
          b.getArrayAttr({manifestParam(b, "input", "input", dtypeName(element),
                                        {rows, cols}),
                          manifestParam(b, "out", "output", dtypeName(element),
                                        {rows, cols})})),
      b.getNamedAttr("bytes_moved",
                     b.getI64IntegerAttr(2 * numElements *
                                         element.getIntOrFloatBitWidth() / 8))};
  entries.append(extra.begin(), extra.end());
  func->setAttr("fp8.manifest", b.getDictionaryAttr(entries));

  // The random signs, one bit per position in the block (same as the
  // reference: bit 0 of Philox(seed, j)), in 32-bit words.
  SmallVector<uint32_t> signWords(n / 32 + 1, 0);
  for (int64_t j = 0; j < n; ++j)
    if (seed && (philoxRandom32(*seed, j) & 1))
      signWords[j / 32] |= 1u << (j % 32);

  Value thread = buildActiveThread(b, loc, numThreads);
  Value offset =
      arith::MulIOp::create(b, loc, thread, constIndex(b, loc, kChunk));
  // Start of this thread's block, and its first output's position in it.
  Value position =
      arith::RemUIOp::create(b, loc, offset, constIndex(b, loc, n));
  Value blockStart = arith::SubIOp::create(b, loc, offset, position);
  Value firstI = arith::IndexCastOp::create(b, loc, b.getI32Type(), position);
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  auto i32 = [&](uint32_t v) {
    return arith::ConstantIntOp::create(b, loc, b.getI32Type(), int64_t(v))
        .getResult();
  };
  SmallVector<Value> sums(kChunk, zero);
  // In order of j: sums[k] += (-1)^(popcount((i0 + k) & j) + sign_j) x_j.
  for (int64_t j = 0; j < n; ++j) {
    Value index =
        arith::AddIOp::create(b, loc, blockStart, constIndex(b, loc, j));
    Value x = memref::LoadOp::create(b, loc, func.getArgument(0), index);
    if (!element.isF32())
      x = arith::ExtFOp::create(b, loc, b.getF32Type(), x);
    bool negate = signWords[j / 32] >> (j % 32) & 1;
    Value bitsX = arith::BitcastOp::create(b, loc, b.getI32Type(), x);
    for (int64_t k = 0; k < kChunk; ++k) {
      Value i = arith::AddIOp::create(b, loc, firstI, i32(k));
      Value parity = arith::AndIOp::create(
          b, loc,
          LLVM::CtPopOp::create(b, loc, b.getI32Type(),
                                arith::AndIOp::create(b, loc, i, i32(j))),
          i32(1));
      if (negate)
        parity = arith::XOrIOp::create(b, loc, parity, i32(1));
      // Flip the sign bit when the entry is -1: exact, like the reference's
      // multiplication by -1.
      Value flipped = arith::XOrIOp::create(
          b, loc, bitsX, arith::ShLIOp::create(b, loc, parity, i32(31)));
      sums[k] = arith::AddFOp::create(
          b, loc, sums[k],
          arith::BitcastOp::create(b, loc, b.getF32Type(), flipped));
    }
  }
  float norm = static_cast<float>(1.0 / std::sqrt(static_cast<double>(n)));
  Value factor = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(norm));
  SmallVector<Value> results;
  for (Value sum : sums) {
    Value y = arith::MulFOp::create(b, loc, sum, factor);
    if (!element.isF32())
      y = arith::TruncFOp::create(b, loc, element, y);
    results.push_back(y);
  }
  Value out = vector::FromElementsOp::create(
      b, loc, VectorType::get({kChunk}, element), results);
  vector::StoreOp::create(b, loc, out, func.getArgument(1), offset,
                          /*nontemporal=*/false, llvm::Align(16));
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}
