//===- HadamardKernel.cpp - fp8.hadamard as a GPU kernel ------------------===//
//
// The block Hadamard rotation of a matrix along either dim as the fast
// Walsh-Hadamard butterfly of docs/Numerics.md, bit-identical to the CPU
// reference: signs, then log2 n stages of f32 adds and subtracts, stride 1
// first, then the scale. A thread holds 16 consecutive elements of a block
// in registers; the strides 1..8 pair registers of one thread, the strides
// 16..n/2 pair the same register of two lanes of a warp (one shuffle per
// element and stage). Along the last dim the 16 elements are one or more
// 16-byte loads. Along dim 0 they are a column's, so a CTA moves a tile of
// whole row blocks through shared memory: rows in and out with 16-byte
// accesses (the seed's signs applied on the way in), a column piece of 16
// rows (32 for n = 256) per thread in between, rotated a 4-byte word at a
// time (a swizzle and a word order per block of lanes keep both sides free
// of bank conflicts). Every element is read and written once: the dim-1
// kernel runs at copy speed, dim 0 at 95-97% of it (n = 128 and 256 bf16,
// H100), where the former one (n loads and n adds per output) reached
// 12%.
//
//===----------------------------------------------------------------------===//

#include "HadamardKernel.h"

#include "../OpKernels.h"
#include "../Program/KernelUtils.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>
#include <cmath>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
namespace schema = mlir::fp8::manifest;

static constexpr int64_t kMaxSize = 256;
static constexpr uint32_t kSignBit = 0x80000000u;

HadamardRotation HadamardRotation::get(int64_t size,
                                       std::optional<uint64_t> seed,
                                       int64_t chunk) {
  HadamardRotation rotation;
  rotation.size = size;
  rotation.chunk = chunk;
  rotation.signMasks.assign(chunk, 0);
  for (int64_t j = 0; seed && j < size; ++j)
    if (philoxRandom32(*seed, j) & 1)
      rotation.signMasks[j % chunk] |= 1u << (j / chunk);
  rotation.norm =
      static_cast<float>(1.0 / std::sqrt(static_cast<double>(size)));
  return rotation;
}

int64_t HadamardRotation::lanesPerBlock() const { return size / chunk; }

bool HadamardRotation::negates(int64_t j) const {
  return (signMasks[j % chunk] >> (j / chunk)) & 1;
}

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
  assert(static_cast<int64_t>(values.size()) == rotation.chunk && "one chunk");
  Value segment32 = b.toI32(segment);
  // x_j s_j: bit `segment` of each position's mask, moved to the sign bit.
  for (int64_t k = 0; k < rotation.chunk; ++k) {
    if (!rotation.signMasks[k])
      continue;
    Value mask = b.i32(rotation.signMasks[k]);
    Value bit = b.andI(arith::ShRUIOp::create(b, mask, segment32), 1);
    values[k] = flipSign(b, values[k], b.shl(bit, 31));
  }
  butterflyInRegisters(b, rotation, segment, values);
}

void kernels::butterflyInRegisters(KernelBuilder &b,
                                   const HadamardRotation &rotation,
                                   Value segment,
                                   MutableArrayRef<Value> values) {
  int64_t chunk = rotation.chunk;
  assert(static_cast<int64_t>(values.size()) == chunk && "one chunk");
  Value segment32 = b.toI32(segment);
  // Strides within the thread: (a, b) -> (a + b, a - b).
  for (int64_t h = 1; h < chunk && h < rotation.size; h *= 2) {
    for (int64_t k = 0; k < chunk; ++k) {
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
    for (int64_t k = 0; k < chunk; ++k) {
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

/// The kernel's buffers, the same for both dims: `input` and `out`, the
/// matrix flattened.
static KernelSignature hadamardSignature(HadamardOp op) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  Type element = type.getElementType();
  KernelSignature signature;
  signature.addBuffer("input", ParamRole::input, element, type.getShape(),
                      MemRefType::get({type.getNumElements()}, element));
  signature.addBuffer("out", ParamRole::output, element, type.getShape(),
                      MemRefType::get({type.getNumElements()}, element));
  signature.bindOperand("input", op->getOpOperand(0));
  signature.bindResult("out", op->getResult(0));
  return signature;
}

/// The manifest entries that say which rotation a kernel computes.
static SmallVector<NamedAttribute> rotationEntries(OpBuilder &b,
                                                   HadamardOp op) {
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr(schema::kDim, b.getI64IntegerAttr(op.getDim())),
      b.getNamedAttr(schema::kSize, b.getI64IntegerAttr(op.getSize()))};
  if (std::optional<uint64_t> seed = op.getSeed())
    entries.push_back(
        b.getNamedAttr(schema::kSeed, b.getI64IntegerAttr(*seed)));
  return entries;
}

/// Along the last dim: a thread's 16 elements are consecutive in memory.
static FailureOr<gpu::GPUModuleOp> buildRowKernel(OpBuilder &builder,
                                                  HadamardOp op, StringRef name,
                                                  const Target &target) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  KernelBuilder b(op.getLoc(), builder);
  Type element = type.getElementType();
  int64_t numElements = type.getNumElements();
  int64_t numThreads = numElements / kChunk;
  KernelSignature signature = hadamardSignature(op);
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, "fp8.hadamard",
              llvm::divideCeil(numThreads, kThreadsPerBlock), kThreadsPerBlock,
              2 * numElements * element.getIntOrFloatBitWidth() / 8,
              rotationEntries(b, op));
  Value input = signature.getArgument(func, "input");
  Value out = signature.getArgument(func, "out");

  HadamardRotation rotation = HadamardRotation::get(op.getSize(), op.getSeed());
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

namespace {
/// How a CTA rotates along dim 0 (plain C++). It owns a tile of whole
/// blocks of rows and a band of columns, kept in shared memory as rows of
/// 16-byte chunks. Global memory is read and written row by row (a warp
/// covers whole 128-byte lines); in between, thread (segment, column
/// piece) reads the rows R segment .. R segment + R - 1 of its block (R =
/// rowsPerThread) in its piece of 16 bytes (R = 16) or 8 bytes (R = 32),
/// so that rotateInRegisters sees, for each column of the piece, the R
/// consecutive elements it expects, and the n / R threads of a block are
/// consecutive lanes.
struct ColumnTiling {
  static constexpr int64_t kThreads = 128;
  /// Shared memory: 16 chunks of 16 bytes per thread, 32 KiB.
  static constexpr int64_t kTileChunks = kChunk * kThreads;

  int64_t rows, cols;
  /// The block size n.
  int64_t size;
  /// Elements of a 16-byte chunk: 8 (bf16, f16) or 4 (f32).
  int64_t chunkElements;
  /// Elements of one global load or store: a chunk where the rows are
  /// 16-byte aligned, else the largest power of two dividing `cols`.
  int64_t pieceElements;
  /// Rows of a tile: whole blocks, 128 where the row count allows (n = 256:
  /// one block), so that no tile runs past the last row.
  int64_t tileRows;
  /// 16-byte chunks of a tile row, 8 to 128: the tile is always 32 KiB.
  int64_t chunksPerRow;
  /// Rows of a thread's piece: 16, or 32 for n = 256, so that a block is
  /// 8 lanes and one of its four lane stages runs in the thread.
  int64_t rowsPerThread;
  /// 32-bit words of a row in a thread's piece: 4 (16 rows), 2 (32 rows).
  int64_t wordsPerThread;

  static ColumnTiling get(int64_t rows, int64_t cols, int64_t size,
                          int64_t elementBytes) {
    ColumnTiling tiling;
    tiling.rows = rows;
    tiling.cols = cols;
    tiling.size = size;
    tiling.chunkElements = 16 / elementBytes;
    tiling.pieceElements = tiling.chunkElements;
    while (cols % tiling.pieceElements)
      tiling.pieceElements /= 2;
    int64_t blocks = std::max<int64_t>(1, 128 / size);
    while ((rows / size) % blocks)
      blocks /= 2;
    tiling.tileRows = blocks * size;
    tiling.chunksPerRow = kTileChunks / tiling.tileRows;
    tiling.rowsPerThread = size > 128 ? 2 * kChunk : kChunk;
    tiling.wordsPerThread = 4 * kChunk / tiling.rowsPerThread;
    return tiling;
  }
  /// Threads of a rotation block.
  int64_t segments() const { return size / rowsPerThread; }
  /// log2 rowsPerThread.
  int64_t rowsPerThreadShift() const { return llvm::Log2_64(rowsPerThread); }
  int64_t tileColumns() const { return chunksPerRow * chunkElements; }
  int64_t columnTiles() const { return llvm::divideCeil(cols, tileColumns()); }
  int64_t numBlocks() const { return rows / tileRows * columnTiles(); }
  int64_t piecesPerRow() const { return tileColumns() / pieceElements; }
  /// Global loads (and stores) per thread.
  int64_t steps() const { return tileRows * piecesPerRow() / kThreads; }
  /// Piece thread + step * kThreads is at tile row threadRow + stepRow(step)
  /// and column threadCol + stepCol(step), where threadRow = thread /
  /// piecesPerRow and threadCol = thread % piecesPerRow (in pieces) do not
  /// depend on the step (all are powers of two).
  int64_t stepRow(int64_t step) const {
    return step * kThreads / piecesPerRow();
  }
  /// Rows of one step: the threads' rows are 0 .. rowsPerStep() - 1.
  int64_t rowsPerStep() const {
    return std::max<int64_t>(1, kThreads / piecesPerRow());
  }
  int64_t stepCol(int64_t step) const {
    return step * kThreads % piecesPerRow() * pieceElements;
  }
  int64_t sharedElements() const { return tileRows * tileColumns(); }
  /// Chunk c of tile row r lives at chunk c ^ swizzle(r) of that row. A
  /// quarter warp's 16-byte accesses are free of bank conflicts when their
  /// chunks differ modulo 8: along a row (the global side) any XOR keeps
  /// them so; down the rows (the rotation side) the 8 lanes are (segment,
  /// chunk) pairs whose rows are R = rowsPerThread apart, and the swizzle
  /// spreads their segments over the 8 bank groups. It depends on row / R
  /// alone: one value for a thread's R rows of a block, and a constant for
  /// each step of the global side (at most 16 rows a step, from a multiple
  /// of their count).
  int64_t swizzle(int64_t row) const {
    return (row / rowsPerThread * swizzleMultiplier()) & 7;
  }
  int64_t swizzleMultiplier() const {
    return std::max<int64_t>(1, 8 / segments());
  }
};
} // namespace

/// Rotates the columns of one 32-bit word of a thread's rows: `packed`
/// holds the word of each row (one f32 or two 16-bit elements); hands each
/// row's rotated word, rounded back to the element type, to `use` as soon
/// as it is rounded.
static void rotateWord(KernelBuilder &b, const HadamardRotation &rotation,
                       Value segment, ArrayRef<Value> packed,
                       llvm::function_ref<void(int64_t, Value)> use) {
  auto wordType = cast<VectorType>(packed.front().getType());
  Type element = wordType.getElementType();
  Type f32 = b.getF32Type();
  int64_t perWord = wordType.getNumElements();
  SmallVector<SmallVector<Value>> rotated(packed.size());
  for (int64_t e = 0; e < perWord; ++e) {
    SmallVector<Value> values;
    for (Value word : packed) {
      Value value = vector::ExtractOp::create(b, word, e);
      values.push_back(element.isF32() ? value
                                       : arith::ExtFOp::create(b, f32, value));
    }
    butterflyInRegisters(b, rotation, segment, values);
    for (auto [k, value] : llvm::enumerate(values))
      rotated[k].push_back(value);
  }
  for (auto [k, row] : llvm::enumerate(rotated)) {
    Value result =
        vector::FromElementsOp::create(b, VectorType::get({perWord}, f32), row);
    if (!element.isF32())
      result = arith::TruncFOp::create(b, wordType, result);
    use(k, result);
  }
}

/// The thread's piece of the tile: `rows` rows `rowStride` elements apart
/// from `base`, `words` 32-bit words each.
struct TilePiece {
  Value tile, base;
  int64_t rowStride, rows, words;
  Value rowOffset(KernelBuilder &b, int64_t row, Value word) const {
    return b.add(word ? b.add(base, word) : base, row * rowStride);
  }
};

/// Rotates a piece one word at a time: each word's rows are read from
/// shared memory (4-byte accesses), rotated and written back over them.
/// `group` picks the order of the words (group + step mod words): it must
/// be the same for every lane of a rotation block (the shuffles pair the
/// same word), and where it differs between the blocks of a warp, their
/// 4-byte accesses fall on different banks.
static void rotateByWords(KernelBuilder &b, const HadamardRotation &rotation,
                          Value segment, const TilePiece &piece, Type element,
                          Value group) {
  int64_t perWord = 32 / element.getIntOrFloatBitWidth();
  auto wordType = VectorType::get({perWord}, element);
  for (int64_t step = 0; step < piece.words; ++step) {
    Value word =
        b.mul(b.andI(b.add(group, step), int64_t(piece.words - 1)), perWord);
    SmallVector<Value> offsets, packed;
    for (int64_t k = 0; k < piece.rows; ++k) {
      offsets.push_back(piece.rowOffset(b, k, word));
      packed.push_back(
          vector::LoadOp::create(b, wordType, piece.tile, offsets.back(),
                                 /*nontemporal=*/false, llvm::Align(4)));
    }
    rotateWord(b, rotation, segment, packed, [&](int64_t k, Value result) {
      vector::StoreOp::create(b, result, piece.tile, offsets[k],
                              /*nontemporal=*/false, llvm::Align(4));
    });
  }
}

/// Along dim 0: load a tile by rows, rotate its columns in registers,
/// store it by rows.
static FailureOr<gpu::GPUModuleOp> buildColumnKernel(OpBuilder &builder,
                                                     HadamardOp op,
                                                     StringRef name,
                                                     const Target &target) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  KernelBuilder b(op.getLoc(), builder);
  Type element = type.getElementType();
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;
  ColumnTiling tiling = ColumnTiling::get(
      type.getDimSize(0), type.getDimSize(1), op.getSize(), elementBytes);
  KernelSignature signature = hadamardSignature(op);
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, ColumnTiling::kThreads,
                   {b.workgroupMemRef({tiling.sharedElements()}, element)});
  setManifest(b, func, signature, "fp8.hadamard", tiling.numBlocks(),
              ColumnTiling::kThreads, 2 * type.getNumElements() * elementBytes,
              rotationEntries(b, op));
  // 16-byte shared accesses: the tile must be 16-byte aligned, more than
  // its element type asks for.
  func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  Value input = signature.getArgument(func, "input");
  Value out = signature.getArgument(func, "out");
  Value tile = func.getWorkgroupAttributions()[0];

  Value block = b.blockIdX();
  Value rowBase = b.mul(b.divU(block, tiling.columnTiles()), tiling.tileRows);
  Value colBase =
      b.mul(b.remU(block, tiling.columnTiles()), tiling.tileColumns());
  Value thread = b.threadIdX();
  auto pieceType = VectorType::get({tiling.pieceElements}, element);
  llvm::Align pieceAlign(tiling.pieceElements * elementBytes);

  // The pieces of the tile this thread moves, row-major: a warp's accesses
  // are consecutive along a row. Every address is a per-thread base plus a
  // constant of the step, so that the stores find them again from a few
  // registers instead of keeping one per piece through the rotation. Past
  // the last column a thread reads the last piece of the row (so every
  // lane rotates real values) and stores nothing.
  Value threadRow = b.divU(thread, tiling.piecesPerRow());
  Value threadCol =
      b.mul(b.remU(thread, tiling.piecesPerRow()), tiling.pieceElements);
  Value threadChunk = b.divU(threadCol, tiling.chunkElements);
  Value sharedBase = b.add(b.mul(threadRow, tiling.tileColumns()),
                           b.remU(threadCol, tiling.chunkElements));
  Value globalRowBase = b.mul(b.add(rowBase, threadRow), tiling.cols);
  Value globalCol = b.add(colBase, threadCol);
  struct Piece {
    Value sharedOffset, globalOffset, valid;
  };
  auto piece = [&](int64_t step) {
    int64_t stepRow = tiling.stepRow(step), stepCol = tiling.stepCol(step);
    Value chunk = b.xorI(threadChunk, tiling.swizzle(stepRow));
    Value shared = b.add(b.add(sharedBase, b.mul(chunk, tiling.chunkElements)),
                         stepRow * tiling.tileColumns() + stepCol);
    Value col = b.add(globalCol, stepCol);
    Value valid = b.ult(col, tiling.cols);
    Value safeCol = b.minU(col, b.index(tiling.cols - tiling.pieceElements));
    Value global = b.add(b.add(globalRowBase, stepRow * tiling.cols), safeCol);
    return Piece{shared, global, valid};
  };

  // The seed's signs go on as the rows come in: s_j depends on the row
  // alone (j = row mod n), so a step's rows need one bit each, a constant
  // mask shifted by the thread's row, and no register holds them through
  // the rotation (at n = 256 the rotation's 32 sign bits, one per row of
  // its piece, stayed live across its word steps: 128 registers). The
  // sign bit flipped in the element type is the f32 one flipped after the
  // widening: the same value, and a NaN gives a NaN block either way.
  HadamardRotation rotation =
      HadamardRotation::get(tiling.size, op.getSeed(), tiling.rowsPerThread);
  int64_t elementBits = element.getIntOrFloatBitWidth();
  auto pieceBits =
      VectorType::get({tiling.pieceElements}, b.getIntegerType(elementBits));
  Value threadRow32 = b.toI32(threadRow);
  auto applySigns = [&](Value loaded, int64_t step) -> Value {
    if (!rotation.hasSigns())
      return loaded;
    int64_t stepRow = tiling.stepRow(step);
    uint32_t mask = 0;
    for (int64_t r = 0; r < tiling.rowsPerStep(); ++r)
      if (rotation.negates((stepRow + r) % tiling.size))
        mask |= 1u << r;
    if (!mask)
      return loaded;
    Value bit = b.andI(arith::ShRUIOp::create(b, b.i32(mask), threadRow32), 1);
    Value flip = b.shl(bit, 31);
    if (elementBits != 32)
      flip = arith::TruncIOp::create(b, pieceBits.getElementType(),
                                     b.shrU(flip, 32 - elementBits));
    Value bits = vector::BitCastOp::create(b, pieceBits, loaded);
    bits = arith::XOrIOp::create(
        b, bits, vector::BroadcastOp::create(b, pieceBits, flip));
    return vector::BitCastOp::create(b, loaded.getType(), bits);
  };
  for (int64_t step = 0; step < tiling.steps(); ++step) {
    Piece p = piece(step);
    Value loaded = vector::LoadOp::create(b, pieceType, input, p.globalOffset,
                                          /*nontemporal=*/false, pieceAlign);
    vector::StoreOp::create(b, applySigns(loaded, step), tile, p.sharedOffset,
                            /*nontemporal=*/false, pieceAlign);
  }
  gpu::BarrierOp::create(b);

  // Thread (segment, column piece, block of the tile): segments vary
  // fastest, so the n / R threads of a block are consecutive lanes of one
  // warp (R = rowsPerThread). The thread owns an R-row piece of the tile:
  // a 16-byte chunk (R = 16) or one half of one (R = 32).
  int64_t piecesPerChunk = 4 / tiling.wordsPerThread;
  int64_t piecesPerTileRow = tiling.chunksPerRow * piecesPerChunk;
  Value segment = b.remU(thread, tiling.segments());
  Value rest = b.divU(thread, tiling.segments());
  Value firstRow = b.add(b.mul(b.divU(rest, piecesPerTileRow), tiling.size),
                         b.mul(segment, tiling.rowsPerThread));
  Value swizzle = b.andI(b.mul(b.shrU(firstRow, tiling.rowsPerThreadShift()),
                               tiling.swizzleMultiplier()),
                         int64_t(7));
  Value columnPiece = b.remU(rest, piecesPerTileRow);
  Value chunk =
      piecesPerChunk == 1 ? columnPiece : b.divU(columnPiece, piecesPerChunk);
  Value columnBase = b.add(b.mul(firstRow, tiling.tileColumns()),
                           b.mul(b.xorI(chunk, swizzle), tiling.chunkElements));
  if (piecesPerChunk > 1)
    columnBase =
        b.add(columnBase, b.mul(b.remU(columnPiece, piecesPerChunk),
                                tiling.chunkElements / piecesPerChunk));
  TilePiece tilePiece{tile, columnBase, tiling.tileColumns(),
                      tiling.rowsPerThread, tiling.wordsPerThread};
  // A word at a time: 74-96 registers where the whole piece took 164-168
  // for bf16 (5-6 CTAs an SM instead of 3). The lanes of a block take the
  // same word; the blocks of a warp take the words in different orders, so
  // that the warp's 4-byte accesses fall on 32 banks. n <= 128: a block is
  // at most a quarter warp, 8 lanes on 8 bank groups (the swizzle), and the
  // quarters start at words 0..3. n = 256: 32 rows a thread keep a block
  // to 8 lanes (three shuffle stages, not four, and no 2-way conflicts
  // between the lanes 8 apart of a 16-lane block); the quarter warps hold
  // the two halves of two chunks, and the two that share a half start at
  // its two words. H100, 8192^2 bf16 (bench/results/
  // 2026-11-26-h100-rmsnorm-hadamard256.md): n = 256 from 76% to 95% of
  // copy, n = 128 from 90.5% to 97.5% (with the signs moved to the loads).
  Value group = tiling.wordsPerThread == 4
                    ? b.andI(b.shrU(thread, 3), int64_t(3))
                    : b.andI(b.shrU(thread, 4), int64_t(1));
  rotateByWords(b, rotation, segment, tilePiece, element, group);
  gpu::BarrierOp::create(b);

  for (int64_t step = 0; step < tiling.steps(); ++step) {
    Piece p = piece(step);
    Value rotated = vector::LoadOp::create(b, pieceType, tile, p.sharedOffset,
                                           /*nontemporal=*/false, pieceAlign);
    auto ifValid = scf::IfOp::create(b, p.valid, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifValid.thenBlock());
    vector::StoreOp::create(b, rotated, out, p.globalOffset,
                            /*nontemporal=*/false, pieceAlign);
    b.setInsertionPointAfter(ifValid);
  }
  return finishKernel(b, func);
}

FailureOr<gpu::GPUModuleOp> kernels::buildHadamardKernel(OpBuilder &builder,
                                                         HadamardOp op,
                                                         StringRef name,
                                                         const Target &target) {
  auto type = cast<RankedTensorType>(op.getInput().getType());
  int64_t n = op.getSize();
  if (!type.hasStaticShape() || type.getRank() != 2 || n < kChunk ||
      n > kMaxSize)
    return op.emitOpError("convert-fp8-to-nvvm rotates a static matrix in "
                          "blocks of 16 to 256 so far, got ")
           << type << " dim " << op.getDim() << " size " << n;
  if (op.getDim() == 0)
    return buildColumnKernel(builder, op, name, target);
  return buildRowKernel(builder, op, name, target);
}
