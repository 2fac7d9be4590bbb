//===- SubBlockScales.cpp - MXFP8 scales in shared memory, as f32 ---------===//
//
// A buffer holds one K-block's f32 scales for one consumer: A's as
// [sub-block][64 rows], each row r = 16w + 8h + q at 16w + 2q + h so that a
// thread's rows q and q + 8 are one 8-byte load; B's as
// [sub-block][4 x 20 floats], column c = 8j + 2p + e at 20p + 2j + e so that
// the sixteen columns of the threads with lane % 4 == p are four 16-byte
// loads. The four floats of padding per p put the four addresses a quarter
// warp reads in different banks: at 16p, p = 0 and 2 (and 1 and 3) met in the
// same banks, and each 16-byte load took 8 shared wavefronts instead of 4
// (Nsight Compute: the kernel was bound by the shared-memory pipe, 94%).
//
//===----------------------------------------------------------------------===//

#include "SubBlockScales.h"

#include "../../Program/KernelUtils.h"

#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

static constexpr int64_t kSubBlocks = HopperGemmConfig::kSubBlocks;
static constexpr int64_t kColumns = HopperGemmConfig::kSubBlockTileN;
/// Floats per lane quad's sixteen columns, padding included.
static constexpr int64_t kQuadStride = 20;
/// Bytes of one sub-block's A (B) scales in a buffer.
static constexpr int64_t kABytes = kConsumerRows * 4;
static constexpr int64_t kBBytes = 4 * kQuadStride * 4;
static_assert(kSubBlocks * (kABytes + kBBytes) ==
                  HopperGemmConfig::kSubBlockBufferBytes,
              "the buffer's layout");
static_assert(kConsumerRows + kColumns == kWarpgroup,
              "one word per thread of the warpgroup");

Value SubBlockScales::bufferOffset(Value buffer,
                                   const ThreadFragment &fragment) {
  Value index = b.add(b.mul(fragment.consumer, 2), buffer);
  return b.add(b.i32(config.subBlockScaleOffset()),
               b.mul(index, HopperGemmConfig::kSubBlockBufferBytes));
}

Value SubBlockScales::loadWord(Value kIndex, const ThreadFragment &fragment,
                               TileCoord tile) {
  const OperandScaling &aScaling = problem.aScaling;
  const OperandScaling &bScaling = problem.bScaling;
  Value local = fragment.localThread(b);
  Value isA = b.ult(local, kConsumerRows);
  // The consumer's first row, then this thread's row or column (clamped:
  // rows and columns past the matrix are computed but never stored).
  Value firstRow = b.sub(fragment.row0, fragment.groupRow);
  Value aRow = b.minU(b.add(firstRow, local), b.i32(problem.m - 1));
  Value bCol = b.minU(b.add(tile.col, b.sub(local, kConsumerRows)),
                      b.i32(problem.n - 1));
  Value aScales = groupScales(b, args.aScale, aScaling, tile.aScaleBase);
  Value bScales = groupScales(b, args.bScale, bScaling, tile.bScaleBase);
  Value base = arith::SelectOp::create(b, isA, aScales, bScales);
  Value row = arith::SelectOp::create(b, isA, aRow, bCol);
  Value stride = arith::SelectOp::create(b, isA, b.i32(aScaling.stride),
                                         b.i32(bScaling.stride));
  // Codes kIndex / 32 .. + 3 of the row: 4-byte aligned (strides are
  // multiples of 4, HopperGemmConfig).
  Value index = b.add(b.mul(row, stride), b.divU(kIndex, aScaling.kBlock));
  Value ptr = b.gep(NVVM::NVVMMemorySpace::Global, b.getI8Type(), base, index);
  return LLVM::LoadOp::create(b, b.getI32Type(), ptr, 4, false, false,
                              /*isInvariant=*/true);
}

void SubBlockScales::storeConverted(Value word, Value buffer,
                                    const ThreadFragment &fragment) {
  Value local = fragment.localThread(b);
  Value isA = b.ult(local, kConsumerRows);
  // A's row r = 16w + 8h + q at 16w + 2q + h.
  Value r = local;
  Value aPos = b.add(b.add(b.mul(b.divU(r, 16), 16), b.mul(b.remU(r, 8), 2)),
                     b.divU(b.remU(r, 16), 8));
  // B's column c = 8j + 2p + e at 20p + 2j + e, after A's region.
  Value c = b.sub(local, kConsumerRows);
  Value bPos = b.add(b.add(b.mul(b.divU(b.remU(c, 8), 2), kQuadStride),
                           b.mul(b.divU(c, 8), 2)),
                     b.remU(c, 2));
  Value offset = arith::SelectOp::create(
      b, isA, b.mul(aPos, 4), b.add(b.mul(bPos, 4), kSubBlocks * kABytes));
  offset = b.add(bufferOffset(buffer, fragment), offset);
  Value regionBytes =
      arith::SelectOp::create(b, isA, b.i32(kABytes), b.i32(kBBytes));
  for (int64_t sub = 0; sub < kSubBlocks; ++sub) {
    // Little-endian: the code of sub-block `sub` is byte `sub` of the word.
    Value code =
        arith::TruncIOp::create(b, b.getI8Type(), b.shrU(word, 8 * sub));
    Value scale = buildScaleToF32(
        b, b.getLoc(),
        arith::BitcastOp::create(b, b.getType<Float8E8M0FNUType>(), code));
    Value at = b.add(offset, b.mul(regionBytes, sub));
    LLVM::StoreOp::create(b, scale, smem.ptr(b, at), 4);
  }
}

void SubBlockScales::sync(const ThreadFragment &fragment) {
  NVVM::BarrierOp::create(b, Type(),
                          b.add(fragment.consumer, kFirstSubBlockBarrier),
                          b.i32(kWarpgroup), nullptr, Value());
}

FragmentScales SubBlockScales::read(Value buffer, int64_t sub,
                                    const ThreadFragment &fragment) {
  Value base = bufferOffset(buffer, fragment);
  FragmentScales scales;
  // Rows q and q + 8 of warp w: 16w + 2q, one 8-byte load.
  Value q = b.remU(fragment.groupRow, 8);
  Value aPos = b.add(b.mul(b.divU(fragment.groupRow, 16), 16), b.mul(q, 2));
  Value aAt = b.add(base, b.add(b.i32(sub * kABytes), b.mul(aPos, 4)));
  auto pair = VectorType::get({2}, b.getF32Type());
  Value rows = LLVM::LoadOp::create(b, pair, smem.ptr(b, aAt), 8);
  for (int64_t h = 0; h < 2; ++h)
    scales.a.push_back(vector::ExtractOp::create(b, rows, h));
  // Columns 8j + colInTile + e (colInTile = 2p): 16 floats from 20p.
  Value bAt = b.add(base, b.add(b.i32(kSubBlocks * kABytes + sub * kBBytes),
                                b.mul(fragment.colInTile, kQuadStride * 2)));
  auto quad = VectorType::get({4}, b.getF32Type());
  for (int64_t part = 0; part < 4; ++part) {
    Value values =
        LLVM::LoadOp::create(b, quad, smem.ptr(b, b.add(bAt, 16 * part)), 16);
    for (int64_t e = 0; e < 4; ++e)
      scales.b.push_back(vector::ExtractOp::create(b, values, e));
  }
  return scales;
}
