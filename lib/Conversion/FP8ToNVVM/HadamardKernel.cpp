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
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
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
namespace schema = mlir::fp8::manifest;

static constexpr int64_t kMaxSize = 256;

FailureOr<gpu::GPUModuleOp> fp8::buildHadamardKernel(OpBuilder &builder,
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
  KernelBuilder b(op.getLoc(), builder);
  int64_t rows = type.getDimSize(0), cols = type.getDimSize(1);
  Type element = type.getElementType();
  int64_t numElements = rows * cols;
  int64_t numThreads = numElements / kChunk;
  KernelSignature signature;
  signature.addBuffer("input", ParamRole::input, element, {rows, cols},
                      MemRefType::get({numElements}, element));
  signature.addBuffer("out", ParamRole::output, element, {rows, cols},
                      MemRefType::get({numElements}, element));
  signature.bindOperand("input", op->getOpOperand(0));
  signature.bindResult("out", op->getResult(0));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  SmallVector<NamedAttribute> extra = {
      b.getNamedAttr(schema::kDim, b.getI64IntegerAttr(1)),
      b.getNamedAttr(schema::kSize, b.getI64IntegerAttr(n))};
  std::optional<uint64_t> seed = op.getSeed();
  if (seed)
    extra.push_back(b.getNamedAttr(schema::kSeed, b.getI64IntegerAttr(*seed)));
  setManifest(b, func, signature, "fp8.hadamard",
              llvm::divideCeil(numThreads, kThreadsPerBlock), kThreadsPerBlock,
              2 * numElements * element.getIntOrFloatBitWidth() / 8, extra);
  Value input = signature.getArgument(func, "input");
  Value out = signature.getArgument(func, "out");

  // The random signs, one bit per position in the block (same as the
  // reference: bit 0 of Philox(seed, j)), in 32-bit words.
  SmallVector<uint32_t> signWords(n / 32 + 1, 0);
  for (int64_t j = 0; j < n; ++j)
    if (seed && (philoxRandom32(*seed, j) & 1))
      signWords[j / 32] |= 1u << (j % 32);

  Value thread = buildActiveThread(b, numThreads);
  Value offset = b.mul(thread, kChunk);
  // Start of this thread's block, and its first output's position in it.
  Value position = b.remU(offset, n);
  Value blockStart = b.sub(offset, position);
  Value firstI = arith::IndexCastOp::create(b, b.getI32Type(), position);
  Value zero = b.f32(0.0);
  SmallVector<Value> sums(kChunk, zero);
  // In order of j: sums[k] += (-1)^(popcount((i0 + k) & j) + sign_j) x_j.
  for (int64_t j = 0; j < n; ++j) {
    Value index = b.add(blockStart, j);
    Value x = memref::LoadOp::create(b, input, index);
    if (!element.isF32())
      x = arith::ExtFOp::create(b, b.getF32Type(), x);
    bool negate = signWords[j / 32] >> (j % 32) & 1;
    Value bitsX = b.bitcast(b.getI32Type(), x);
    for (int64_t k = 0; k < kChunk; ++k) {
      Value i = b.add(firstI, k);
      Value ones = LLVM::CtPopOp::create(b, b.getI32Type(), b.andI(i, j));
      Value parity = b.andI(ones, 1);
      if (negate)
        parity = b.xorI(parity, 1);
      // Flip the sign bit when the entry is -1: exact, like the reference's
      // multiplication by -1.
      Value flipped = b.xorI(bitsX, b.shl(parity, 31));
      sums[k] =
          arith::AddFOp::create(b, sums[k], b.bitcast(b.getF32Type(), flipped));
    }
  }
  float norm = static_cast<float>(1.0 / std::sqrt(static_cast<double>(n)));
  Value factor = b.f32(norm);
  SmallVector<Value> results;
  for (Value sum : sums) {
    Value y = b.mulF(sum, factor);
    if (!element.isF32())
      y = arith::TruncFOp::create(b, element, y);
    results.push_back(y);
  }
  Value outChunk = vector::FromElementsOp::create(
      b, VectorType::get({kChunk}, element), results);
  vector::StoreOp::create(b, outChunk, out, offset,
                          /*nontemporal=*/false, llvm::Align(16));
  return finishKernel(b, func);
}
