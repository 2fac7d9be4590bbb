//===- QuantizeTensorwiseKernel.cpp - one scale for the whole tensor ------===//
//
// The kernel of fp8.quantize and fp8.amax with tensorwise scaling ([*, *])
// over more elements than one CTA holds in registers: a grid of resident
// CTAs reduces the amax, meets at a grid-wide barrier, and quantizes on a
// second pass with the one scale. QuantizeKernel.cpp picks it. Also the
// kernel of fp8.quantize_delayed: one pass with the history's amax where
// it is usable, those two passes where it is not.
//
//===----------------------------------------------------------------------===//

#include "GridBarrier.h"
#include "QuantizeKernel.h"

#include "../OpKernels.h"
#include "fp8/Dialect/FP8/Utils/CastTransposeShapes.h"
#include "fp8/Dialect/FP8/Utils/Target.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// The CTAs of the tensorwise kernel: two per SM of an H100 (132), few
/// enough to be resident together, which the grid-wide barrier needs.
static constexpr int64_t kTensorwiseBlocksPerSM = 2;
static constexpr int64_t kTensorwiseBlocks = 132 * kTensorwiseBlocksPerSM;
/// The chunks a thread loads per iteration of either pass (one where a
/// fused producer computes them: its registers, not the loads, bound it).
static constexpr int64_t kUnrolledChunks = 4;

namespace {
/// The grid of a tensorwise kernel and what its passes share: each thread
/// takes chunks `stride` apart from `first`, `unroll` of them an
/// iteration; `partials` holds the warps' maxima and one slot more, through
/// which the leader hands a global amax to its CTA. `scratch` (the
/// workspace, 4 x i32): slot 0 the max of the CTAs' amax bits, slot 1
/// arrivals or tickets, slot 2 departures.
struct TensorwiseGrid {
  QuantizeKernelBuilder &k;
  int64_t numChunks, numBlocks, unroll;
  Value partials, block, thread, first, stride, unrolledStride, isLeader, zero;

  Value atomic(arith::AtomicRMWKind kind, Value value, int64_t slot) {
    return scratchAtomic(k.b, k.scratch, kind, value, k.b.index(slot));
  }
  void fenceGpu() { kernels::fenceGpu(k.b); }
  /// Chunk `u` of the iteration at `iv`; past the end a thread reloads the
  /// last chunk, which cannot change a max.
  Value chunkOf(Value iv, int64_t u) {
    KernelBuilder &b = k.b;
    return b.minU(b.add(iv, b.mul(stride, b.index(u))), b.index(numChunks - 1));
  }
  Value gridAmax();
  Value quantize(Value quantScale, bool gather);
  void gatherAmax(Value threadMax, function_ref<void(Value)> last);
};
} // namespace

/// The grid of `k`'s kernel `func` of `numBlocks` CTAs (unrolled loads
/// unless a fused producer computes them).
static TensorwiseGrid getGrid(QuantizeKernelBuilder &k, gpu::GPUFuncOp func,
                              int64_t numChunks, int64_t numBlocks) {
  KernelBuilder &b = k.b;
  TensorwiseGrid g{k, numChunks, numBlocks, k.producer ? 1 : kUnrolledChunks};
  g.partials = k.addPartials(func, /*extra=*/1);
  g.block = b.blockIdX();
  g.thread = b.threadIdX();
  g.first = b.add(b.mul(g.block, kThreadsPerBlock), g.thread);
  g.stride = b.index(numBlocks * kThreadsPerBlock);
  // Each loop iteration takes `unroll` chunks, a stride apart, so that a
  // thread has that many loads in flight (2 CTAs per SM alone hold too few
  // bytes in flight to cover the memory latency).
  g.unrolledStride = b.index(g.unroll * numBlocks * kThreadsPerBlock);
  g.isLeader = b.eq(g.thread, 0);
  g.zero = b.f32(0.0);
  return g;
}

/// Pass 1: the amax of the whole tensor, in every thread: this thread's
/// chunks, the CTA's amax, then an integer atomic max on its non-negative
/// f32 bits and a grid-wide barrier (an arrival counter). The last CTA to
/// read the amax zeroes slots 0 to 2 for the next launch.
Value TensorwiseGrid::gridAmax() {
  KernelBuilder &b = k.b;
  auto scan = scf::ForOp::create(b, first, b.index(numChunks), unrolledStride,
                                 ValueRange{zero});
  b.setInsertionPointToStart(scan.getBody());
  SmallVector<Value> loaded;
  for (int64_t u = 0; u < unroll; ++u)
    loaded.push_back(k.load(b.mul(chunkOf(scan.getInductionVar(), u), kChunk)));
  Value chunkMax = scan.getRegionIterArgs()[0];
  for (Value values : loaded)
    chunkMax = b.maxF(chunkMax, k.maxAbs(values));
  scf::YieldOp::create(b, ValueRange{chunkMax});
  b.setInsertionPointAfter(scan);
  Value blockMax = k.ctaMax(scan.getResult(0), partials, thread);

  // The leader publishes the CTA's amax and waits for every CTA.
  auto publish = scf::IfOp::create(b, isLeader, /*withElseRegion=*/false);
  b.setInsertionPointToStart(publish.thenBlock());
  Value bits = b.andI(b.bitcast(b.getI32Type(), blockMax), 0x7FFFFFFF);
  atomic(arith::AtomicRMWKind::maxs, bits, 0);
  fenceGpu();
  arriveAndWait(b, k.scratch, /*slot=*/1, numBlocks);
  Value total = atomic(arith::AtomicRMWKind::addi, b.i32(0), 0);
  int64_t broadcastSlot = kThreadsPerBlock / kWarpSize;
  memref::StoreOp::create(b, b.bitcast(b.getF32Type(), total), partials,
                          b.index(broadcastSlot));
  // The last CTA to get here resets the scratch for the next launch.
  Value done = atomic(arith::AtomicRMWKind::addi, b.i32(1), 2);
  auto last = scf::IfOp::create(b, b.eq(done, numBlocks - 1),
                                /*withElseRegion=*/false);
  b.setInsertionPointToStart(last.thenBlock());
  for (int64_t slot = 0; slot < 3; ++slot)
    atomic(arith::AtomicRMWKind::assign, b.i32(0), slot);
  b.setInsertionPointAfter(publish);
  gpu::BarrierOp::create(b);
  return memref::LoadOp::create(b, partials, b.index(broadcastSlot));
}

/// Pass 2: quantizes every chunk with `quantScale`; with `gather`, returns
/// this thread's max |x| of the chunks it loads (else null).
Value TensorwiseGrid::quantize(Value quantScale, bool gather) {
  KernelBuilder &b = k.b;
  // A vector, not a braced ValueRange: that would point into a temporary
  // initializer list (clang's -Wdangling).
  SmallVector<Value, 1> init;
  if (gather)
    init.push_back(zero);
  auto loop =
      scf::ForOp::create(b, first, b.index(numChunks), unrolledStride, init);
  b.setInsertionPointToStart(loop.getBody());
  Value iv = loop.getInductionVar();
  SmallVector<Value> offsets, loaded;
  for (int64_t u = 0; u < unroll; ++u) {
    offsets.push_back(b.mul(chunkOf(iv, u), kChunk));
    loaded.push_back(k.load(offsets.back()));
  }
  // Only chunks before the end are stored (and counted).
  for (int64_t u = 0; u < unroll; ++u) {
    OpBuilder::InsertionGuard guard(b);
    Value inRange = b.ult(b.add(iv, b.mul(stride, b.index(u))), numChunks);
    auto ifInRange = scf::IfOp::create(b, inRange, /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifInRange.thenBlock());
    k.quantizeAndStore(loaded[u], quantScale, offsets[u]);
  }
  if (gather) {
    Value threadMax = loop.getRegionIterArgs()[0];
    for (Value values : loaded)
      threadMax = b.maxF(threadMax, k.maxAbs(values));
    scf::YieldOp::create(b, ValueRange{threadMax});
  }
  b.setInsertionPointAfter(loop);
  return gather ? loop.getResult(0) : Value();
}

/// The data's amax gathered by ticket after one pass (no barrier): each
/// CTA's leader adds its amax bits to slot 0 and takes a ticket (slot 1);
/// the last one calls `last` with the total and zeroes both slots.
void TensorwiseGrid::gatherAmax(Value threadMax,
                                function_ref<void(Value)> last) {
  KernelBuilder &b = k.b;
  Value blockMax = k.ctaMax(threadMax, partials, thread);
  auto publish = scf::IfOp::create(b, isLeader, /*withElseRegion=*/false);
  b.setInsertionPointToStart(publish.thenBlock());
  Value bits = b.andI(b.bitcast(b.getI32Type(), blockMax), 0x7FFFFFFF);
  atomic(arith::AtomicRMWKind::maxs, bits, 0);
  fenceGpu();
  Value ticket = atomic(arith::AtomicRMWKind::addi, b.i32(1), 1);
  auto ifLast = scf::IfOp::create(b, b.eq(ticket, numBlocks - 1),
                                  /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifLast.thenBlock());
  fenceGpu();
  Value total = atomic(arith::AtomicRMWKind::addi, b.i32(0), 0);
  for (int64_t slot = 0; slot < 2; ++slot)
    atomic(arith::AtomicRMWKind::assign, b.i32(0), slot);
  last(b.bitcast(b.getF32Type(), total));
  b.setInsertionPointAfter(publish);
}

/// The CTAs of a tensorwise kernel over `numChunks` chunks.
static int64_t getNumBlocks(int64_t numChunks) {
  return std::min<int64_t>(kTensorwiseBlocks,
                           llvm::divideCeil(numChunks, kThreadsPerBlock));
}

/// The grid-wide barrier needs every CTA resident: two an SM, so at most
/// 128 registers a thread (ptxas spills rather than exceed it). A heavy
/// fused producer went past that (GELU with a bias row at 8192x14336: 162
/// registers, one CTA an SM, and the barrier never opened).
static void keepResident(KernelBuilder &b, gpu::GPUFuncOp func) {
  func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                b.getI32IntegerAttr(kTensorwiseBlocksPerSM));
}

/// Tensorwise scaling ([*, *]): one scale from the amax of the whole tensor.
/// A grid of resident CTAs reduces the amax (warp shuffles, shared memory,
/// then an integer atomic max on the non-negative f32 bits in a scratch
/// buffer, where NaN's bits order above inf's), meets at a grid-wide
/// barrier (an arrival counter), and quantizes with the common scale on a
/// second pass over the input. The last CTA to read the amax zeroes the
/// scratch for the next launch.
///
/// With a given amax (delayed scaling) there is no barrier: one pass
/// quantizes. Monitoring then takes the data's amax from the chunks that
/// pass loads; each CTA adds its amax to the scratch and takes a ticket,
/// and the last one writes the tile's amax and scale and zeroes the
/// scratch. (A grid-wide barrier needs every CTA resident at once, which
/// nothing guarantees beside other work or with a kernel's registers
/// limiting CTAs per SM; the pass that needs the amax first has no choice,
/// the delayed one has.)
gpu::GPUModuleOp kernels::buildTensorwiseKernel(QuantizeKernelBuilder &k,
                                                StringRef name,
                                                const Target &target) {
  KernelBuilder &b = k.b;
  int64_t numChunks = k.rows * k.cols / kChunk;
  int64_t numBlocks = getNumBlocks(numChunks);
  // A given amax needs no grid-wide reduction before quantizing; the
  // data's amax (monitoring) is then gathered by ticket after it.
  bool reduce = !k.amaxOperand;
  bool gather = !reduce && k.monitor;
  gpu::GPUFuncOp func =
      k.create(name, target, numBlocks, /*workspace=*/reduce || gather);
  if (reduce)
    keepResident(b, func);
  TensorwiseGrid g = getGrid(k, func, numChunks, numBlocks);
  Value amax, dataAmax;
  if (!reduce) {
    amax = k.tileAmax(Value(), b.index(0));
  } else {
    dataAmax = g.gridAmax();
    amax = k.givenAmax ? k.tileAmax(dataAmax, b.index(0)) : dataAmax;
  }

  // Pass 2: quantize with the one scale (gathering the data's amax of the
  // chunks it loads, where there was no pass 1).
  TileScales scales;
  Value threadMax;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    threadMax = g.quantize(scales.quantScale, gather);
  }
  if (gather) {
    g.gatherAmax(threadMax, [&](Value total) {
      k.storeTile(amax, scales, b.index(0), total);
    });
    return k.finish(func);
  }
  Value writer = b.andI(g.isLeader, b.eq(g.block, 0));
  auto store = scf::IfOp::create(b, writer, /*withElseRegion=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  k.storeTile(amax, scales, b.index(0), dataAmax);
  b.setInsertionPointAfter(store);
  return k.finish(func);
}

/// The history's amax in every thread, the same in every CTA: its last
/// entry, or its max from +0.0 (NaN-propagating, as linalg.reduce of
/// arith.maximumf: the order cannot change a max, and any NaN gives NaN),
/// each thread's entries then the CTA's through shared memory of its own.
static Value historyAmax(QuantizeKernelBuilder &k, gpu::GPUFuncOp func,
                         const TensorwiseGrid &g) {
  KernelBuilder &b = k.b;
  int64_t length =
      cast<ShapedType>(k.historyOperand->get().getType()).getNumElements();
  if (k.mostRecent)
    return memref::LoadOp::create(b, k.history, b.index(length - 1));
  auto loop = scf::ForOp::create(b, g.thread, b.index(length),
                                 b.index(kThreadsPerBlock), ValueRange{g.zero});
  b.setInsertionPointToStart(loop.getBody());
  Value entry = memref::LoadOp::create(b, k.history, loop.getInductionVar());
  scf::YieldOp::create(b,
                       ValueRange{b.maxF(loop.getRegionIterArgs()[0], entry)});
  b.setInsertionPointAfter(loop);
  return k.ctaMax(loop.getResult(0), k.addPartials(func), g.thread);
}

/// fp8.quantize_delayed: the scale from the history's amax where it is
/// positive and finite, else from the data's; the data's amax out either
/// way. Every CTA reduces the same history (a few KB from L2), so the
/// branch is uniform across the grid:
/// - usable: one pass quantizes and gathers the data's amax by ticket (no
///   barrier), the last CTA writes the scale and the amax;
/// - not (the first step, after an inf or NaN): the tensorwise kernel's
///   two passes, the grid-wide amax then the quantization.
/// The kernel keeps every CTA resident (`.minnctapersm`) for the second
/// path's barrier; both paths zero the slots of the workspace they use.
static gpu::GPUModuleOp buildDelayedTensorwiseKernel(QuantizeKernelBuilder &k,
                                                     StringRef name,
                                                     const Target &target) {
  KernelBuilder &b = k.b;
  int64_t numChunks = k.rows * k.cols / kChunk;
  int64_t numBlocks = getNumBlocks(numChunks);
  gpu::GPUFuncOp func = k.create(name, target, numBlocks, /*workspace=*/true);
  keepResident(b, func);
  TensorwiseGrid g = getGrid(k, func, numChunks, numBlocks);
  Value fromHistory = historyAmax(k, func, g);
  Value usable = b.andI(
      arith::CmpFOp::create(b, arith::CmpFPredicate::OGT, fromHistory, g.zero),
      arith::CmpFOp::create(b, arith::CmpFPredicate::OLT, fromHistory,
                            b.f32(std::numeric_limits<float>::infinity())));
  auto branch = scf::IfOp::create(b, usable, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.thenBlock());
    TileScales scales = k.tileScales(fromHistory);
    Value threadMax = g.quantize(scales.quantScale, /*gather=*/true);
    g.gatherAmax(threadMax, [&](Value total) {
      k.storeScale(toScaleStorage(b, scales.storedScale), b.index(0));
      memref::StoreOp::create(b, total, k.amaxOut, b.index(0));
    });
  }
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(branch.elseBlock());
    Value dataAmax = g.gridAmax();
    TileScales scales = k.tileScales(dataAmax);
    g.quantize(scales.quantScale, /*gather=*/false);
    auto store = scf::IfOp::create(b, b.andI(g.isLeader, b.eq(g.block, 0)),
                                   /*withElseRegion=*/false);
    b.setInsertionPointToStart(store.thenBlock());
    k.storeScale(toScaleStorage(b, scales.storedScale), b.index(0));
    memref::StoreOp::create(b, dataAmax, k.amaxOut, b.index(0));
  }
  return k.finish(func);
}

FailureOr<gpu::GPUModuleOp>
kernels::buildQuantizeDelayedKernel(OpBuilder &builder, QuantizeDelayedOp op,
                                    StringRef name, const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (!inputType.hasStaticShape() ||
      !op.getHistory().getType().hasStaticShape() ||
      inputType.getNumElements() % kChunk != 0 ||
      inputType.getNumElements() == 0)
    return op.emitOpError("convert-fp8-to-nvvm needs a static input of whole "
                          "16-element chunks and a static history, got ")
           << inputType << " and " << op.getHistory().getType();
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getScaling().getTile(), op);
  return buildDelayedTensorwiseKernel(k, name, target);
}

/// The tile of the tensorwise cast-transpose's second pass, and its shared
/// memory rows: 16 bytes of padding, for aligned 16-byte row stores and
/// fewer bank conflicts in the column reads (as fp8.transpose's kernel).
static constexpr int64_t kCastTile = kTensorwiseCastTransposeTile;
static constexpr int64_t kCastStride = kCastTile + kChunk;
/// Tiles a CTA loads before it stores any: 2 CTAs an SM hold too few bytes
/// in flight with one.
static constexpr int64_t kUnrolledTiles = 2;

/// fp8.quantize_transpose with one scale: pass 1 is the tensorwise
/// kernel's grid-wide amax. Pass 2 takes 64x64 tiles, a grid-stride loop
/// over them, two at a time: thread t loads row t / 4, elements
/// 16 (t % 4) .. +15 of each (32 bytes of bf16), quantizes them with the one
/// scale, stores the 16 bytes to q and to the tile in shared memory, and
/// after a barrier gathers tile column t / 4, rows 16 (t % 4) .. +15: 16
/// bytes of a row of qt. The bytes are the tensorwise kernel's and the
/// transpose's, so the fused kernel changes no bit.
FailureOr<gpu::GPUModuleOp> kernels::buildTensorwiseCastTransposeKernel(
    OpBuilder &builder, QuantizeTransposeOp op, StringRef name,
    const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (!fitsTensorwiseCastTranspose(inputType, op.getScaling()))
    return op.emitOpError("convert-fp8-to-nvvm: the tensorwise "
                          "cast-transpose needs a 16-bit input with both "
                          "dims multiples of 64, got ")
           << inputType;
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getScaling().getTile(), op);
  int64_t numChunks = k.rows * k.cols / kChunk;
  int64_t tilesPerRow = k.cols / kCastTile;
  int64_t numTiles = k.rows / kCastTile * tilesPerRow;
  int64_t numBlocks = getNumBlocks(numChunks);
  gpu::GPUFuncOp func = k.create(name, target, numBlocks, /*workspace=*/true);
  keepResident(b, func);
  Value tile = func.addWorkgroupAttribution(
      b.workgroupMemRef({kCastTile * kCastStride}, b.getI8Type()), b.getLoc());
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  TensorwiseGrid g = getGrid(k, func, numChunks, numBlocks);
  Value amax = g.gridAmax();
  TileScales scales = k.tileScales(amax);

  Value row = b.divU(g.thread, kCastTile / kChunk);
  Value segment = b.mul(b.remU(g.thread, kCastTile / kChunk), kChunk);
  auto loop = scf::ForOp::create(b, g.block, b.index(numTiles),
                                 b.index(kUnrolledTiles * numBlocks));
  b.setInsertionPointToStart(loop.getBody());
  // Tile u of the iteration; past the end, the last tile is loaded again
  // (uniform per CTA) and nothing is stored.
  SmallVector<Value> tiles, loaded;
  for (int64_t u = 0; u < kUnrolledTiles; ++u) {
    tiles.push_back(b.add(loop.getInductionVar(), b.index(u * numBlocks)));
    Value index = b.minU(tiles.back(), b.index(numTiles - 1));
    Value rowBase = b.mul(b.divU(index, tilesPerRow), kCastTile);
    Value colBase = b.mul(b.remU(index, tilesPerRow), kCastTile);
    loaded.push_back(k.load(
        b.add(b.mul(b.add(rowBase, row), k.cols), b.add(colBase, segment))));
  }
  for (int64_t u = 0; u < kUnrolledTiles; ++u) {
    OpBuilder::InsertionGuard guard(b);
    auto ifTile = scf::IfOp::create(b, b.ult(tiles[u], numTiles),
                                    /*withElseRegion=*/false);
    b.setInsertionPointToStart(ifTile.thenBlock());
    Value rowBase = b.mul(b.divU(tiles[u], tilesPerRow), kCastTile);
    Value colBase = b.mul(b.remU(tiles[u], tilesPerRow), kCastTile);
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < kChunk; ++i)
      scaled.push_back(b.mulF(vector::ExtractOp::create(b, loaded[u], i),
                              scales.quantScale));
    Value bytes = convertToBytes(b, scaled, k.elementType);
    Value offset =
        b.add(b.mul(b.add(rowBase, row), k.cols), b.add(colBase, segment));
    vector::StoreOp::create(b, bytes, k.data, offset, false, llvm::Align(16));
    vector::StoreOp::create(b, bytes, tile,
                            ValueRange{b.add(b.mul(row, kCastStride), segment)},
                            false, llvm::Align(16));
    gpu::BarrierOp::create(b);
    Value gathered =
        gatherColumnBytes(b, tile, Value(), segment, row, kCastStride);
    Value columnOffset =
        b.add(b.mul(b.add(colBase, row), k.rows), b.add(rowBase, segment));
    vector::StoreOp::create(b, gathered, k.dataT, columnOffset, false,
                            llvm::Align(16));
    // The next tile overwrites the shared tile.
    gpu::BarrierOp::create(b);
  }
  b.setInsertionPointAfter(loop);

  Value writer = b.andI(g.isLeader, b.eq(g.block, 0));
  auto store = scf::IfOp::create(b, writer, /*withElseRegion=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  k.storeTile(amax, scales, b.index(0), amax);
  memref::StoreOp::create(b, toScaleStorage(b, scales.storedScale), k.scalesT,
                          b.index(0));
  b.setInsertionPointAfter(store);
  return k.finish(func);
}
