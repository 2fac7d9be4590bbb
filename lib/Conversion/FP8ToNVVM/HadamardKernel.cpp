//===- HadamardKernel.cpp - fp8.hadamard as a GPU kernel ------------------===//
//
// The block Hadamard rotation along the last dim as the fast Walsh-Hadamard
// butterfly of docs/Numerics.md, bit-identical to the CPU reference: signs,
// then log2 n stages of f32 adds and subtracts, stride 1 first, then the
// scale. A thread holds 16 consecutive elements of a block in registers
// (one or more 16-byte loads); the strides 1..8 pair registers of one
// thread, the strides 16..n/2 pair the same register of two lanes of a warp
// (one shuffle per element and stage). Every element is read and written
// once, so the kernel runs at copy speed, where the former one (n loads and
// n adds per output) reached 12% of it.
//
//===----------------------------------------------------------------------===//

#include "HadamardKernel.h"

#include "KernelUtils.h"
#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
namespace schema = mlir::fp8::manifest;

static constexpr int64_t kMaxSize = 256;
static constexpr uint32_t kSignBit = 0x80000000u;

HadamardRotation HadamardRotation::get(int64_t size,
                                       std::optional<uint64_t> seed) {
  HadamardRotation rotation;
  rotation.size = size;
  rotation.signMasks.assign(kChunk, 0);
  for (int64_t j = 0; seed && j < size; ++j)
    if (philoxRandom32(*seed, j) & 1)
      rotation.signMasks[j % kChunk] |= 1u << (j / kChunk);
  rotation.norm =
      static_cast<float>(1.0 / std::sqrt(static_cast<double>(size)));
  return rotation;
}

int64_t HadamardRotation::lanesPerBlock() const { return size / kChunk; }

bool HadamardRotation::hasSigns() const {
  return llvm::any_of(signMasks, [](uint32_t mask) { return mask != 0; });
}

/// `x` with its sign bit flipped where `flip` (i32, 0 or the sign bit) says:
/// an exact negation, like the reference's product with -1.
static Value flipSign(KernelBuilder &b, Value x, Value flip) {
  Type i32 = b.getI32Type();
  return b.bitcast(b.getF32Type(), b.xorI(b.bitcast(i32, x), flip));
}

void kernels::rotateInRegisters(KernelBuilder &b,
                                const HadamardRotation &rotation, Value segment,
                                MutableArrayRef<Value> values) {
  assert(static_cast<int64_t>(values.size()) == kChunk && "one chunk");
  Value segment32 = b.toI32(segment);
  // x_j s_j: bit `segment` of each position's mask, moved to the sign bit.
  if (rotation.hasSigns()) {
    for (int64_t k = 0; k < kChunk; ++k) {
      if (!rotation.signMasks[k])
        continue;
      Value mask = b.i32(rotation.signMasks[k]);
      Value bit = b.andI(arith::ShRUIOp::create(b, mask, segment32), 1);
      values[k] = flipSign(b, values[k], b.shl(bit, 31));
    }
  }
  // Strides within the thread: (a, b) -> (a + b, a - b).
  for (int64_t h = 1; h < kChunk && h < rotation.size; h *= 2) {
    for (int64_t k = 0; k < kChunk; ++k) {
      if (k & h)
        continue;
      Value lo = values[k], hi = values[k + h];
      values[k] = arith::AddFOp::create(b, lo, hi);
      values[k + h] = arith::SubFOp::create(b, lo, hi);
    }
  }
  // Strides across lanes: the partner holds the same register. The lower
  // lane (own = a) keeps partner + own = a + b; the upper lane (own = b)
  // keeps partner + (-own) = a - b, the same IEEE operation as a - b.
  for (int64_t lanes = 1; lanes < rotation.lanesPerBlock(); lanes *= 2) {
    Value upper = b.ne(b.andI(segment32, lanes), 0);
    Value flip = arith::SelectOp::create(b, upper, b.i32(kSignBit), b.i32(0));
    for (int64_t k = 0; k < kChunk; ++k) {
      Value partner = gpu::ShuffleOp::create(b, values[k], lanes, kWarpSize,
                                             gpu::ShuffleMode::XOR)
                          .getShuffleResult();
      values[k] =
          arith::AddFOp::create(b, partner, flipSign(b, values[k], flip));
    }
  }
  Value norm = b.f32(rotation.norm);
  for (Value &value : values)
    value = b.mulF(value, norm);
}

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

  HadamardRotation rotation = HadamardRotation::get(n, seed);
  // Threads past the end join the shuffles on a clamped index (a thread of
  // the first block with the same segment) and store nothing. Blocks are
  // n / 16 <= 16 consecutive threads, so they never straddle a warp.
  Value thread = b.globalIdX();
  Value active = b.ult(thread, numThreads);
  Value segment = b.remU(thread, rotation.lanesPerBlock());
  Value safeThread = arith::SelectOp::create(b, active, thread, segment);
  Value offset = b.mul(safeThread, kChunk);
  Value loaded = vector::LoadOp::create(b, VectorType::get({kChunk}, element),
                                        input, offset,
                                        /*nontemporal=*/false, llvm::Align(16));
  if (!element.isF32())
    loaded = arith::ExtFOp::create(b, VectorType::get({kChunk}, b.getF32Type()),
                                   loaded);
  SmallVector<Value> values;
  for (int64_t k = 0; k < kChunk; ++k)
    values.push_back(vector::ExtractOp::create(b, loaded, k));
  rotateInRegisters(b, rotation, segment, values);
  Value result = vector::FromElementsOp::create(
      b, VectorType::get({kChunk}, b.getF32Type()), values);
  if (!element.isF32())
    result =
        arith::TruncFOp::create(b, VectorType::get({kChunk}, element), result);
  auto ifActive = scf::IfOp::create(b, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifActive.thenBlock());
  vector::StoreOp::create(b, result, out, offset,
                          /*nontemporal=*/false, llvm::Align(16));
  b.setInsertionPointAfter(ifActive);
  return finishKernel(b, func);
}
