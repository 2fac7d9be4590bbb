//===- RowNormQuantizeKernel.cpp - norms fused into row quantization ------===//
//
// The kernel of an fp8.quantize_elementwise with `reduce` regions (RMSNorm,
// LayerNorm and their kind, fused by fp8-fuse-quantization): W warps per
// row (1, 2, 4 or 8, so that a lane holds at most 4 chunks of 16 elements
// up to 16384 columns), 8 / W rows per CTA. The row's chunk 32 r + l is
// lane l's in round r, and warp w takes rounds w, w + W, ...: the
// row-sum order of docs/Numerics.md (a lane's chunk sums folded in round
// order) and the row-tile quantize layout (a 1 x c tile is c / 16
// consecutive lanes of one round) at once. Per row: each `reduce`
// region's sum (every chunk's sum into shared memory, then each warp folds
// its lane's in order and runs the butterfly: every warp gets the row's
// sum), then the body per element, the tile's amax by shuffles (the whole
// row's through shared memory), the scales of Numerics.h, the FP8 bytes
// (and the produced value where the op keeps it). A lane keeps its loads
// in registers between the passes; rows past 16384 columns loop and read
// again. One read of the inputs from memory, one write. Two CTAs an SM
// at least: ptxas spills rather than take more than 128 registers.
//
//===----------------------------------------------------------------------===//

#include "../Elementwise/WarpRowSum.h"
#include "QuantizeKernel.h"

#include "../OpKernels.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
namespace schema = mlir::fp8::manifest;

/// The most rounds a warp keeps in registers (4 chunks of 16 per lane; up
/// to 16384 columns at RowNormLayout's 2 rounds a warp), past which it
/// loads again. Measured with ptxas: one warp keeping 8 rounds of a
/// 4096-column RMSNorm took 209 registers (the f32 x stays live across
/// the butterfly), 4 rounds 105.
static constexpr int64_t kMaxCachedRounds = 4;

/// The most 32-bit registers of cached loads a lane may hold for its body
/// pass's inputs to be loaded early (below): x and an RMSNorm's weight in
/// bf16 over 4 rounds; ptxas then takes 125 of its 128.
static constexpr int64_t kMaxHeldWords = 64;

/// How many CTAs ahead a CTA asks the L2 for its x rows
/// (cp.async.bulk.prefetch, one instruction by thread 0), so that the CTA
/// that loads them waits on the L2, not on DRAM: about a CTA's lifetime
/// ahead on an H100 (2 CTAs on each of 132 SMs) for a kernel that loads
/// its body's inputs early, half that for the others, whose CTAs live
/// longer before their loads. H100, 8192x14336 (bench/results/
/// 2026-11-26-h100-issue15-close.md): RMSNorm 1x128 at 256 98.9% of copy
/// (with TMA scales 99.0%; at 128 99.7% and 95.6%, at 512 82-90%); the
/// kept and rowwise norms at 128 98.2-100.7% (was 93.2-94.7% without),
/// at 256 92.9-97.3%, at 512 63-76%.
static constexpr int64_t kL2PrefetchBlocksAheadEarly = 256;
static constexpr int64_t kL2PrefetchBlocksAhead = 128;

/// Warps per CTA.
static constexpr int64_t kWarpsPerBlock = kThreadsPerBlock / kWarpSize;
static_assert(kWarpsPerBlock == RowNormLayout::kWarpsPerBlock,
              "fp8-fuse-quantization's shared-memory bound assumes it");

/// CTAs an SM the kernel keeps resident (`.minnctapersm`): ptxas then
/// stays within 128 registers a thread. Rows of 14336 f32 (4 cached
/// rounds of 16 f32 a lane) took 137 registers, one CTA of 8 warps an SM;
/// held to 128 (6 bytes of spills), LayerNorm rowwise on them went from
/// 73% to 93% of copy on the H100
/// (bench/results/2026-11-26-h100-latency-kernels.md). The other norms
/// of the benchmark were within 128 already.
static constexpr int64_t kBlocksPerSM = 2;

/// A shared-memory array of f32, 16-byte aligned.
static Value addSharedF32(KernelBuilder &b, gpu::GPUFuncOp func, int64_t size) {
  Value array = func.addWorkgroupAttribution(
      b.workgroupMemRef({size}, b.getF32Type()), b.getLoc());
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  return array;
}

namespace {
/// How a chunk's elements of one input are read.
enum class Read { chunk, row, scalar };

/// One round of a lane, loaded: per input, its 16 elements (the same
/// value 16 times for a value per row or a rank-0 input).
using ChunkValues = SmallVector<SmallVector<Value>>;

/// One step of a warp over its rounds: the lane's chunk (index, clamped
/// into the row), whether it lies in the row (i1; null where every step's
/// does), the round, and the step where unrolled (else in an scf.for).
struct Step {
  Value chunk, valid, round;
  std::optional<int64_t> index;
};

/// The kernel under construction: the op, the thread's row (clamped into
/// the matrix: threads of a row past the end still reach the barriers,
/// storing nothing), its warp's place in the row, the inputs.
struct RowNormKernel {
  RowNormKernel(QuantizeElementwiseOp op, KernelBuilder &b, int64_t cols,
                int64_t rounds, int64_t warpsPerRow)
      : op(op), b(b), cols(cols), rounds(rounds), warpsPerRow(warpsPerRow) {}

  QuantizeElementwiseOp op;
  KernelBuilder &b;
  int64_t cols, rounds, warpsPerRow;
  Value row, active, lane, warpInRow, rowInBlock, rowBase;
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

  /// The steps of the warp over rounds warpInRow, + W, ...: unrolled up to
  /// kMaxCachedRounds (a round's loads then made once), else an scf.for;
  /// `init` is carried through `body`'s results. Every lane runs every
  /// step.
  SmallVector<Value>
  walk(ValueRange init,
       function_ref<SmallVector<Value>(const Step &, ValueRange)> body);
  int64_t steps() const { return llvm::divideCeil(rounds, warpsPerRow); }
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

SmallVector<Value> RowNormKernel::walk(
    ValueRange init,
    function_ref<SmallVector<Value>(const Step &, ValueRange)> body) {
  int64_t chunks = cols / kChunk;
  auto stepOf = [&](Value step) {
    Step out;
    out.round = b.add(b.mul(step, warpsPerRow), warpInRow);
    Value chunk = b.add(b.mul(out.round, kWarpSize), lane);
    if (chunks % (kWarpSize * warpsPerRow) == 0) {
      out.chunk = chunk;
      return out;
    }
    // Past the last round, or the last round's lanes past the row.
    out.valid = b.ult(chunk, chunks);
    out.chunk = arith::SelectOp::create(b, out.valid, chunk, b.index(0));
    return out;
  };
  SmallVector<Value> carried(init);
  if (steps() <= kMaxCachedRounds) {
    for (int64_t step = 0; step < steps(); ++step) {
      Step at = stepOf(b.index(step));
      at.index = step;
      carried = body(at, carried);
    }
    return carried;
  }
  auto loop =
      scf::ForOp::create(b, b.index(0), b.index(steps()), b.index(1), carried);
  OpBuilder::InsertionGuard guard(b);
  // The builder ends a loop without carried values with its yield.
  Block *loopBody = loop.getBody();
  if (!loopBody->empty())
    loopBody->back().erase();
  b.setInsertionPointToEnd(loopBody);
  scf::YieldOp::create(
      b, body(stepOf(loop.getInductionVar()), loop.getRegionIterArgs()));
  return loop.getResults();
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

  // W warps per row, so that a warp takes 2 rounds, up to 8; the chunk
  // sums of each reduction and the warps' amax of a whole row in shared
  // memory (fp8-fuse-quantization makes no op past its limit).
  int64_t numReductions = op.getReductions().size();
  RowNormLayout layout(cols, numReductions);
  int64_t rounds = layout.rounds, warpsPerRow = layout.warpsPerRow,
          rowsPerBlock = layout.rowsPerBlock;
  if (!layout.fitsSharedMemory())
    return op.emitOpError("convert-fp8-to-nvvm: rows of ")
           << cols << " elements with " << numReductions
           << " row sums need more than 48 KiB of chunk sums per CTA";

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
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(kBlocksPerSM));
  int64_t scaleBytes =
      stored[0] * stored[1] * (isa<Float8E8M0FNUType>(k.scaleElement) ? 1 : 4);
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, k.elementType, op.getScaling());
  if (k.margin != 0)
    extra.push_back(
        b.getNamedAttr(schema::kMargin, b.getI64IntegerAttr(k.margin)));
  setManifest(b, func, signature, op->getName().getStringRef(),
              llvm::divideCeil(rows, rowsPerBlock), kThreadsPerBlock,
              rows * cols + scaleBytes + producer.bytesMoved(), extra);
  k.data = signature.getArgument(func, "q");
  k.scales = signature.getArgument(func, "scale");
  Value kept;
  if (op.getKept())
    kept = signature.getArgument(func, "kept");
  SmallVector<Value> chunkSums;
  for (int64_t i = 0; i < numReductions; ++i)
    chunkSums.push_back(addSharedF32(b, func, layout.chunkSumSlots()));
  Value warpAmax = wholeRow ? addSharedF32(b, func, kWarpsPerBlock) : Value();

  RowNormKernel kernel(op, b, cols, rounds, warpsPerRow);
  Value thread = b.threadIdX();
  Value warp = b.divU(thread, kWarpSize);
  kernel.lane = b.remU(thread, kWarpSize);
  kernel.warpInRow = b.remU(warp, warpsPerRow);
  kernel.rowInBlock = b.divU(warp, warpsPerRow);
  Value row = b.add(b.mul(b.blockIdX(), rowsPerBlock), kernel.rowInBlock);
  // Every thread reaches the barriers: a row past the end computes on the
  // last row and stores nothing.
  kernel.active = b.ult(row, rows);
  kernel.row = b.minU(row, b.index(rows - 1));
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
  // Stores only where the row is the thread's and the chunk in it.
  auto storing = [&](Value valid) {
    return valid ? b.andI(kernel.active, valid) : kernel.active;
  };
  auto ifThen = [&](Value condition) {
    auto ifOp = scf::IfOp::create(b, condition, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifOp.thenBlock());
  };

  // The row sums, in order. Every chunk's sum from +0.0 into shared memory
  // (slot [row in CTA][round][lane]; a chunk past the row's end is none);
  // then each warp folds its lane's chunk sums in round order from +0.0
  // and runs the butterfly, so every warp of the row has the sum; each
  // from +0.0 as the unfused reduction's zero init.
  SmallVector<Value> sums;
  Value rowSlots = b.mul(kernel.rowInBlock, rounds * kWarpSize);
  Block &body = op.getBody().front();
  // The body's other inputs (a norm's weights) loaded with the first sum's
  // rows, before its barrier, rather than step by step in the body's pass,
  // where each step's loads waited behind the previous step's stores (the
  // compiler does not move a load above a store it cannot tell apart).
  // Only where the registers allow: a 1 x c tile (the whole row's pass
  // computes the body twice), no kept result, every cached load in at most
  // kMaxHeldWords registers. H100, 8192x14336 RMSNorm 1x128 (x and the
  // weight, 106 -> 125 registers): 86.5% -> 88.3% of copy, with TMA scales
  // 84.9% -> 87.5% (bench/results/2026-11-26-h100-rmsnorm-hadamard256.md);
  // loading them after the sums instead lost 3 points, and the LayerNorms
  // and rowwise kernels spilled.
  int64_t heldWords = 0;
  for (auto [index, input] : llvm::enumerate(kernel.inputs))
    if (kernel.reads[index] == Read::chunk)
      heldWords += kernel.steps() * kChunk *
                   cast<MemRefType>(input.getType()).getElementTypeBitWidth() /
                   32;
  bool loadBodyEarly = kernel.steps() <= kMaxCachedRounds && !wholeRow &&
                       !kept && heldWords <= kMaxHeldWords;
  // The rows of a CTA further on, asked of the L2 now: they are there
  // when that CTA loads them.
  {
    Value ahead =
        b.add(b.blockIdX(), loadBodyEarly ? kL2PrefetchBlocksAheadEarly
                                          : kL2PrefetchBlocksAhead);
    Value inRange = b.ult(ahead, rows / rowsPerBlock);
    auto ifOp = scf::IfOp::create(b, b.andI(b.eq(thread, 0), inRange),
                                  /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value firstElement = b.mul(ahead, rowsPerBlock * cols);
    for (auto [index, input] : llvm::enumerate(kernel.inputs)) {
      AffineMap map =
          cast<AffineMapAttr>(op.getIndexingMaps()[index]).getValue();
      if (kernel.reads[index] != Read::chunk || !map.isIdentity())
        continue;
      int64_t bytes =
          cast<MemRefType>(input.getType()).getElementTypeBitWidth() / 8;
      NVVM::CpAsyncBulkPrefetchOp::create(
          b, globalByteAddress(b, input, b.mul(firstElement, bytes)),
          b.i32(rowsPerBlock * cols * bytes), /*l2CacheHint=*/Value());
    }
  }
  bool firstRegion = true;
  for (auto [region, slots] : llvm::zip(op.getReductions(), chunkSums)) {
    kernel.walk({}, [&](const Step &at, ValueRange) -> SmallVector<Value> {
      ChunkValues values = kernel.load(at.chunk, at.index, region.front());
      SmallVector<Value> terms;
      for (int64_t r = 0; r < kChunk; ++r)
        terms.push_back(kernel.compute(region.front(), values, r, sums));
      Value sum = addChunkSum(b, b.f32(0.0), at.chunk, Value(), cols, terms);
      OpBuilder::InsertionGuard guard(b);
      if (at.valid)
        ifThen(at.valid);
      memref::StoreOp::create(
          b, sum, slots,
          b.add(rowSlots, b.add(b.mul(at.round, kWarpSize), kernel.lane)));
      return {};
    });
    if (firstRegion && loadBodyEarly)
      kernel.walk({}, [&](const Step &at, ValueRange) -> SmallVector<Value> {
        kernel.load(at.chunk, at.index, body);
        return {};
      });
    firstRegion = false;
    gpu::BarrierOp::create(b);
    Value sum = foldLaneSums(b, kernel.lane, cols, [&](int64_t round) -> Value {
      return memref::LoadOp::create(
          b, slots, b.add(rowSlots, b.add(kernel.lane, round * kWarpSize)));
    });
    sums.push_back(arith::AddFOp::create(b, b.f32(0.0), sum));
  }

  // The produced chunk in f32 (and stored where the op keeps it).
  Type produced = producedType.getElementType();
  auto produce = [&](const Step &at, bool store) {
    ChunkValues values = kernel.load(at.chunk, at.index, body);
    SmallVector<Value> elements;
    for (int64_t r = 0; r < kChunk; ++r)
      elements.push_back(kernel.compute(body, values, r, sums));
    Value vector = vector::FromElementsOp::create(
        b, VectorType::get({kChunk}, produced), elements);
    if (store && kept) {
      OpBuilder::InsertionGuard guard(b);
      ifThen(storing(at.valid));
      vector::StoreOp::create(
          b, vector, kept, b.add(kernel.rowBase, b.mul(at.chunk, kChunk)),
          /*nontemporal=*/false,
          llvm::Align(std::min<int64_t>(
              kChunk * produced.getIntOrFloatBitWidth() / 8, 16)));
    }
    auto f32Type = VectorType::get({kChunk}, b.getF32Type());
    return produced.isF32()
               ? vector
               : arith::ExtFOp::create(b, f32Type, vector).getResult();
  };
  // The FP8 bytes of a chunk scaled by `quantScale`.
  auto quantize = [&](Value values, const Step &at, Value quantScale) {
    OpBuilder::InsertionGuard guard(b);
    ifThen(storing(at.valid));
    k.quantizeAndStore(values, quantScale,
                       b.add(kernel.rowBase, b.mul(at.chunk, kChunk)));
  };
  auto storeScale = [&](Value amax, const TileScales &scales, Value index,
                        Value first) {
    OpBuilder::InsertionGuard guard(b);
    ifThen(first);
    k.storeTile(amax, scales, index);
  };

  if (!wholeRow) {
    // A 1 x c tile is lanesPerTile consecutive lanes of one round: their
    // amax by shuffles, then every lane quantizes its chunk.
    kernel.walk({}, [&](const Step &at, ValueRange) -> SmallVector<Value> {
      Value values = produce(at, /*store=*/true);
      Value amax = k.shuffleMax(k.maxAbs(values), lanesPerTile);
      TileScales scales = k.tileScales(amax);
      quantize(values, at, scales.quantScale);
      Value first =
          b.andI(storing(at.valid), b.eq(b.remU(kernel.lane, lanesPerTile), 0));
      Value tileIndex = b.add(b.mul(kernel.row, cols / tileCols),
                              b.divU(at.chunk, lanesPerTile));
      storeScale(amax, scales, tileIndex, first);
      return {};
    });
  } else {
    // The whole row is one tile: its amax first (the produced values
    // computed twice rather than kept; the warps' through shared memory),
    // then the casts.
    Value amax = kernel
                     .walk({b.f32(0.0)},
                           [&](const Step &at,
                               ValueRange carried) -> SmallVector<Value> {
                             Value values = produce(at, /*store=*/false);
                             Value next = b.maxF(carried[0], k.maxAbs(values));
                             if (at.valid)
                               next = arith::SelectOp::create(b, at.valid, next,
                                                              carried[0]);
                             return {next};
                           })
                     .front();
    amax = k.shuffleMax(amax, kWarpSize);
    {
      OpBuilder::InsertionGuard guard(b);
      ifThen(b.eq(kernel.lane, 0));
      memref::StoreOp::create(b, amax, warpAmax, warp);
    }
    gpu::BarrierOp::create(b);
    Value firstWarp = b.mul(kernel.rowInBlock, warpsPerRow);
    for (int64_t w = 0; w < warpsPerRow; ++w)
      amax = b.maxF(amax,
                    memref::LoadOp::create(b, warpAmax, b.add(firstWarp, w)));
    TileScales scales = k.tileScales(amax);
    kernel.walk({}, [&](const Step &at, ValueRange) -> SmallVector<Value> {
      Value values = produce(at, /*store=*/true);
      quantize(values, at, scales.quantScale);
      return {};
    });
    storeScale(
        amax, scales, kernel.row,
        b.andI(kernel.active, b.eq(thread, b.mul(firstWarp, kWarpSize))));
  }
  gpu::GPUModuleOp module = finishKernel(b, func);
  // The regions' math functions as arith ops, as in the unfused kernels.
  if (failed(expandMathFunctions(func)))
    return op.emitOpError("convert-fp8-to-nvvm: cannot expand the body's "
                          "math functions");
  return module;
}
