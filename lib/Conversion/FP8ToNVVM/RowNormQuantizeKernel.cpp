//===- RowNormQuantizeKernel.cpp - norms fused into row quantization ------===//
//
// The kernel of an fp8.quantize_elementwise with `reduce` regions (RMSNorm,
// LayerNorm and their kind, fused by fp8-fuse-quantization): a warp per
// row. Its lanes take the row's chunks of 16 elements in rounds (chunk
// 32 r + lane), which is both the row-sum order of docs/Numerics.md (so
// every row sum is the unfused reduction kernel's, bit for bit) and the
// row-tile quantize kernel's layout (a 1 x c tile is c / 16 consecutive
// lanes of one round). Per row: each `reduce` region's sum (lane sums,
// then a butterfly), then the body per element, the tile's amax by
// shuffles, the scales of Numerics.h, the FP8 bytes (and the produced
// value where the op keeps it). Up to 2048 elements per row a lane keeps
// its loads in registers between the passes; longer rows are read again,
// from L1/L2. One read of the inputs from memory, one write: copy speed.
//
//===----------------------------------------------------------------------===//

#include "QuantizeKernel.h"
#include "WarpRowSum.h"

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
namespace schema = mlir::fp8::manifest;

/// Rounds a lane keeps in registers (4 chunks: 2048 elements per row);
/// past that every pass loads again (from L1 or L2). Measured with ptxas:
/// keeping 8 rounds of a 4096-column RMSNorm takes 209 registers (the f32
/// x stays live across the butterfly), 8 warps per SM.
static constexpr int64_t kMaxCachedRounds = 4;

/// Warps (rows) per CTA.
static constexpr int64_t kRowsPerBlock = kThreadsPerBlock / kWarpSize;

namespace {
/// How a chunk's elements of one input are read.
enum class Read { chunk, row, scalar };

/// One round of a lane, loaded: per input, its 16 elements (the same
/// value 16 times for a value per row or a rank-0 input).
using ChunkValues = SmallVector<SmallVector<Value>>;

/// The kernel under construction: the op, the warp's row, the inputs.
struct RowNormKernel {
  QuantizeElementwiseOp op;
  KernelBuilder &b;
  int64_t cols;
  Value row, lane, rowBase;
  SmallVector<Value> inputs;
  SmallVector<Read> reads;
  /// Loads of values per row and rank-0 inputs: once per row.
  SmallVector<Value> rowValues;
  /// Each unrolled round's loads of each input, made in the first pass
  /// that reads them.
  DenseMap<std::pair<int64_t, unsigned>, SmallVector<Value>> cache;

  /// The chunk's elements of the inputs `block` reads (the others are
  /// left empty): loaded once per round where unrolled.
  ChunkValues load(Value chunk, std::optional<int64_t> round, Block &block);
  /// Region `block` on element r of `values`, with the row sums `sums`
  /// (those not yet computed are unread: the verifier sees to it).
  Value compute(Block &block, const ChunkValues &values, int64_t r,
                ArrayRef<Value> sums);
};
} // namespace

ChunkValues RowNormKernel::load(Value chunk, std::optional<int64_t> round,
                                Block &block) {
  Value first = b.mul(chunk, kChunk);
  ChunkValues values;
  for (auto [index, input] : llvm::enumerate(inputs)) {
    if (reads[index] != Read::chunk) {
      values.push_back(SmallVector<Value>(kChunk, rowValues[index]));
      continue;
    }
    if (block.getArgument(index).use_empty()) {
      values.push_back({});
      continue;
    }
    if (round)
      if (auto it = cache.find({*round, unsigned(index)}); it != cache.end()) {
        values.push_back(it->second);
        continue;
      }
    // The identity reads the row, (i, j) -> (j) the vector of columns.
    AffineMap map = cast<AffineMapAttr>(op.getIndexingMaps()[index]).getValue();
    Value offset = map.isIdentity() ? b.add(rowBase, first) : first;
    Type element = cast<MemRefType>(input.getType()).getElementType();
    int64_t bytes = kChunk * element.getIntOrFloatBitWidth() / 8;
    Value loaded = vector::LoadOp::create(
        b, VectorType::get({kChunk}, element), input, offset,
        /*nontemporal=*/false, llvm::Align(std::min<int64_t>(bytes, 16)));
    SmallVector<Value> elements;
    for (int64_t r = 0; r < kChunk; ++r)
      elements.push_back(vector::ExtractOp::create(b, loaded, r));
    if (round)
      cache[{*round, unsigned(index)}] = elements;
    values.push_back(std::move(elements));
  }
  return values;
}

Value RowNormKernel::compute(Block &block, const ChunkValues &values, int64_t r,
                             ArrayRef<Value> sums) {
  IRMapping mapping;
  unsigned numInputs = inputs.size();
  for (unsigned i = 0; i < numInputs; ++i)
    if (!values[i].empty())
      mapping.map(block.getArgument(i), values[i][r]);
  for (auto [k, sum] : llvm::enumerate(sums))
    mapping.map(block.getArgument(numInputs + k), sum);
  return cloneBody(b, &block, mapping).front();
}

FailureOr<gpu::GPUModuleOp>
kernels::buildRowNormQuantizeKernel(OpBuilder &builder,
                                    QuantizeElementwiseOp op, StringRef name,
                                    const Target &target) {
  RankedTensorType producedType = op.getProducedType();
  if (!producedType.hasStaticShape() ||
      llvm::any_of(op.getInputs().getTypes(), [](Type type) {
        return !cast<RankedTensorType>(type).hasStaticShape();
      }))
    return op.emitOpError("convert-fp8-to-nvvm needs static shapes");
  int64_t rows = producedType.getDimSize(0), cols = producedType.getDimSize(1);
  ArrayRef<int64_t> tile = op.getScaling().getTile();
  int64_t tileCols = ShapedType::isDynamic(tile[1]) ? cols : tile[1];
  int64_t lanesPerTile = tileCols / kChunk;
  bool wholeRow = tileCols == cols;
  if (tile[0] != 1 || cols % kChunk != 0 || tileCols % kChunk != 0 ||
      cols % tileCols != 0 ||
      (!wholeRow &&
       (!llvm::isPowerOf2_64(lanesPerTile) || lanesPerTile > kWarpSize)))
    return op.emitOpError("convert-fp8-to-nvvm: row sums need tiles of one "
                          "row and 16 to 512 columns (a power of two of 16) "
                          "or the whole row, dividing rows of a multiple of "
                          "16 elements");

  KernelBuilder b(op.getLoc(), builder);
  // The tile quantize kernels' pieces: the scales, the casts and the
  // stores (scales row-major or in the TMA layout).
  QuantizeKernelBuilder k(b, producedType, tile, op);
  KernelSignature signature;
  FusedProducer producer(op);
  producer.declare(signature);
  SmallVector<int64_t> stored = k.storedScaleShape();
  signature.addBuffer("q", ParamRole::output, k.elementType, {rows, cols},
                      MemRefType::get({rows * cols}, b.getI8Type()));
  signature.addBuffer(
      "scale", ParamRole::output, k.scaleElement, stored,
      MemRefType::get({stored[0] * stored[1]}, storageType(k.scaleElement)));
  signature.bindResult("q", cast<OpResult>(op.getQuantized()));
  signature.bindResult("scale", cast<OpResult>(op.getScale()));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  int64_t scaleBytes =
      stored[0] * stored[1] * (isa<Float8E8M0FNUType>(k.scaleElement) ? 1 : 4);
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, k.elementType, op.getScaling());
  if (k.margin != 0)
    extra.push_back(
        b.getNamedAttr(schema::kMargin, b.getI64IntegerAttr(k.margin)));
  setManifest(b, func, signature, op->getName().getStringRef(),
              llvm::divideCeil(rows, kRowsPerBlock), kThreadsPerBlock,
              rows * cols + scaleBytes + producer.bytesMoved(), extra);
  k.data = signature.getArgument(func, "q");
  k.scales = signature.getArgument(func, "scale");
  Value kept;
  if (op.getKept())
    kept = signature.getArgument(func, "kept");

  RowNormKernel kernel{op, b, cols, {}, {}, {}, {}, {}, {}, {}};
  Value thread = b.threadIdX();
  kernel.lane = b.remU(thread, kWarpSize);
  kernel.row =
      b.add(b.mul(b.blockIdX(), kRowsPerBlock), b.divU(thread, kWarpSize));
  // A warp past the last row does nothing (all its lanes alike, so the
  // shuffles of the others stay whole).
  auto ifRow = scf::IfOp::create(b, b.ult(kernel.row, rows), false);
  b.setInsertionPointToStart(ifRow.thenBlock());
  kernel.rowBase = b.mul(kernel.row, cols);
  for (auto [index, input] : llvm::enumerate(op.getInputs())) {
    Value memref = signature.getArgument(func, ("in" + Twine(index)).str());
    kernel.inputs.push_back(memref);
    AffineMap map = cast<AffineMapAttr>(op.getIndexingMaps()[index]).getValue();
    bool readsColumns =
        map.getNumResults() > 0 &&
        map.getResults().back() == getAffineDimExpr(1, b.getContext());
    if (readsColumns) {
      kernel.reads.push_back(Read::chunk);
      kernel.rowValues.push_back({});
      continue;
    }
    // A value per row (i, j) -> (i), or a rank-0 input.
    bool perRow = map.getNumResults() == 1;
    kernel.reads.push_back(perRow ? Read::row : Read::scalar);
    kernel.rowValues.push_back(
        memref::LoadOp::create(b, memref, perRow ? kernel.row : b.index(0)));
  }

  // The row sums, in order; each from +0.0 as the unfused reduction's
  // zero init.
  SmallVector<Value> sums;
  for (Region &region : op.getReductions()) {
    Value total = buildWarpRowSum(
        b, kernel.lane, cols, kMaxCachedRounds,
        [&](Value chunk, std::optional<int64_t> round) {
          ChunkValues values = kernel.load(chunk, round, region.front());
          SmallVector<Value> terms;
          for (int64_t r = 0; r < kChunk; ++r)
            terms.push_back(kernel.compute(region.front(), values, r, sums));
          return terms;
        });
    sums.push_back(arith::AddFOp::create(b, b.f32(0.0), total));
  }

  // The produced chunk in f32 (and stored where the op keeps it).
  Block &body = op.getBody().front();
  Type produced = producedType.getElementType();
  auto produce = [&](Value chunk, std::optional<int64_t> round, Value valid,
                     bool store) {
    ChunkValues values = kernel.load(chunk, round, body);
    SmallVector<Value> elements;
    for (int64_t r = 0; r < kChunk; ++r)
      elements.push_back(kernel.compute(body, values, r, sums));
    Value vector = vector::FromElementsOp::create(
        b, VectorType::get({kChunk}, produced), elements);
    if (store && kept) {
      OpBuilder::InsertionGuard guard(b);
      if (valid) {
        auto ifValid = scf::IfOp::create(b, valid, false);
        b.setInsertionPointToStart(ifValid.thenBlock());
      }
      vector::StoreOp::create(
          b, vector, kept, b.add(kernel.rowBase, b.mul(chunk, kChunk)),
          /*nontemporal=*/false,
          llvm::Align(std::min<int64_t>(
              kChunk * produced.getIntOrFloatBitWidth() / 8, 16)));
    }
    auto f32Type = VectorType::get({kChunk}, b.getF32Type());
    return produced.isF32()
               ? vector
               : arith::ExtFOp::create(b, f32Type, vector).getResult();
  };
  // The FP8 bytes of a chunk scaled by `quantScale`, where it lies in the
  // row.
  auto quantize = [&](Value values, Value chunk, Value valid,
                      Value quantScale) {
    OpBuilder::InsertionGuard guard(b);
    if (valid) {
      auto ifValid = scf::IfOp::create(b, valid, false);
      b.setInsertionPointToStart(ifValid.thenBlock());
    }
    k.quantizeAndStore(values, quantScale,
                       b.add(kernel.rowBase, b.mul(chunk, kChunk)));
  };
  auto storeScale = [&](Value amax, const TileScales &scales, Value index,
                        Value first) {
    OpBuilder::InsertionGuard guard(b);
    auto ifFirst = scf::IfOp::create(b, first, false);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    k.storeTile(amax, scales, index);
  };

  if (!wholeRow) {
    // A 1 x c tile is lanesPerTile consecutive lanes of one round: their
    // amax by shuffles, then every lane quantizes its chunk.
    walkRow(b, kernel.lane, cols, kMaxCachedRounds, {},
            [&](Value chunk, Value valid, std::optional<int64_t> round,
                ValueRange) -> SmallVector<Value> {
              Value values = produce(chunk, round, valid, /*store=*/true);
              Value amax = k.shuffleMax(k.maxAbs(values), lanesPerTile);
              TileScales scales = k.tileScales(amax);
              quantize(values, chunk, valid, scales.quantScale);
              Value first = b.eq(b.remU(kernel.lane, lanesPerTile), 0);
              if (valid)
                first = b.andI(first, valid);
              Value tileIndex = b.add(b.mul(kernel.row, cols / tileCols),
                                      b.divU(chunk, lanesPerTile));
              storeScale(amax, scales, tileIndex, first);
              return {};
            });
  } else {
    // The whole row is one tile: its amax first (the produced values
    // computed twice rather than kept), then the casts.
    Value amax =
        walkRow(b, kernel.lane, cols, kMaxCachedRounds, {b.f32(0.0)},
                [&](Value chunk, Value valid, std::optional<int64_t> round,
                    ValueRange carried) -> SmallVector<Value> {
                  Value values = produce(chunk, round, valid, false);
                  Value next = b.maxF(carried[0], k.maxAbs(values));
                  if (valid)
                    next = arith::SelectOp::create(b, valid, next, carried[0]);
                  return {next};
                })
            .front();
    amax = k.shuffleMax(amax, kWarpSize);
    TileScales scales = k.tileScales(amax);
    walkRow(b, kernel.lane, cols, kMaxCachedRounds, {},
            [&](Value chunk, Value valid, std::optional<int64_t> round,
                ValueRange) -> SmallVector<Value> {
              Value values = produce(chunk, round, valid, /*store=*/true);
              quantize(values, chunk, valid, scales.quantScale);
              return {};
            });
    storeScale(amax, scales, kernel.row, b.eq(kernel.lane, 0));
  }
  b.setInsertionPointAfter(ifRow);
  gpu::GPUModuleOp module = finishKernel(b, func);
  // The regions' math functions as arith ops, as in the unfused kernels.
  if (failed(expandMathFunctions(func)))
    return op.emitOpError("convert-fp8-to-nvvm: cannot expand the body's "
                          "math functions");
  return module;
}
