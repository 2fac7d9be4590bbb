//===- QuantizeKernel.cpp - fp8.quantize as a GPU kernel ------------------===//
//
// Single-pass quantization kernels: one read of the input, one write of the
// FP8 data, so they are bound by memory bandwidth. Every thread loads 16
// consecutive elements with 16-byte vector loads and stores its 16 FP8 bytes
// at once.
//
// - Row tiles [1, c]: the c/16 threads of a tile reduce its amax with
//   butterfly shuffles; no shared memory, no barrier.
// - Block tiles [r, c] (e.g. 128x128 weights): one CTA per tile; warps
//   reduce with shuffles, then across warps through shared memory.
//
// The scales use the CPU reference's arithmetic (Numerics.h); rounding is
// cvt.rn.satfinite.{e4m3,e5m2}x2.f32, or stochastic with the reference's
// Philox stream keyed by (seed, element index).
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

namespace {
/// What the kernel shapes share: the tiling, the types and the buffers.
/// With a QuantizeOp the kernel quantizes; without one (fp8.amax) it stops
/// at the per-tile amax.
struct QuantizeKernelBuilder {
  QuantizeOp op;
  OpBuilder &b;
  Location loc;
  Type inputElement, elementType, scaleElement;
  int64_t rows, cols, tileRows, tileCols;
  bool stochastic = false;
  // A zero-initialized 16-byte scratch buffer (the tensorwise kernel's
  // grid-wide amax and arrival counters), last parameter.
  bool workspace = false;
  Value input, seed, data, scales, amaxOut, scratch;
  // A given amax per tile (delayed scaling), else null.
  Value givenAmax;

  QuantizeKernelBuilder(OpBuilder &b, Location loc, RankedTensorType type,
                        ArrayRef<int64_t> tile, QuantizeOp op = {})
      : op(op), b(b), loc(loc) {
    inputElement = type.getElementType();
    rows = type.getDimSize(0);
    cols = type.getDimSize(1);
    tileRows = ShapedType::isDynamic(tile[0]) ? rows : tile[0];
    tileCols = ShapedType::isDynamic(tile[1]) ? cols : tile[1];
    if (!op)
      return;
    elementType = op.getResult().getType().getElementType();
    scaleElement = op.getScaling().getScale();
    stochastic = op.getRounding() == Rounding::stochastic;
  }

  bool amaxOnly() const { return !op; }

  /// The amax kernel: parameters input and amax.
  gpu::GPUFuncOp createAmax(StringRef name, const Target &target, int64_t numBlocks) {
    int64_t numElements = rows * cols;
    SmallVector<int64_t> amaxShape = scaleShape();
    SmallVector<Type> arguments = {
        MemRefType::get({numElements}, inputElement),
        MemRefType::get({numScales()}, b.getF32Type())};
    SmallVector<Attribute> params = {
        manifestParam(b, "input", "input", dtypeName(inputElement),
                      {rows, cols}),
        manifestParam(b, "amax", "output", "f32", amaxShape)};
    addWorkspace(arguments, params);
    gpu::GPUFuncOp func =
        createKernel(b, loc, name, target, arguments, kThreadsPerBlock);
    SmallVector<int64_t> tile = {tileRows == rows ? -1 : tileRows,
                                 tileCols == cols ? -1 : tileCols};
    int64_t bytesMoved =
        numElements * (inputElement.getIntOrFloatBitWidth() / 8) +
        numScales() * 4;
    auto entries = b.getDictionaryAttr(
        {b.getNamedAttr("op", b.getStringAttr("fp8.amax")),
         b.getNamedAttr("grid", b.getI64ArrayAttr({numBlocks, 1, 1})),
         b.getNamedAttr("block", b.getI64ArrayAttr({kThreadsPerBlock, 1, 1})),
         b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(0)),
         b.getNamedAttr("params", b.getArrayAttr(params)),
         b.getNamedAttr("tile", b.getI64ArrayAttr(tile)),
         b.getNamedAttr("bytes_moved", b.getI64IntegerAttr(bytesMoved))});
    func->setAttr("fp8.manifest", entries);
    input = func.getArgument(0);
    amaxOut = func.getArgument(1);
    if (workspace)
      scratch = func.getArgument(2);
    return func;
  }

  /// The kernel of either kind.
  gpu::GPUFuncOp createAny(StringRef name, const Target &target, int64_t numBlocks) {
    return amaxOnly() ? createAmax(name, target, numBlocks)
                      : create(name, target, numBlocks);
  }

  /// Tiles per column and per row; edge tiles may be partial.
  SmallVector<int64_t> scaleShape() const {
    return {int64_t(llvm::divideCeil(rows, tileRows)),
            int64_t(llvm::divideCeil(cols, tileCols))};
  }
  int64_t numScales() const { return scaleShape()[0] * scaleShape()[1]; }

  /// The kernel with parameters input, [seed], q, scale, and its manifest.
  gpu::GPUFuncOp create(StringRef name, const Target &target, int64_t numBlocks) {
    int64_t numElements = rows * cols;
    SmallVector<Type> arguments = {
        MemRefType::get({numElements}, inputElement)};
    SmallVector<Attribute> params = {manifestParam(
        b, "input", "input", dtypeName(inputElement), {rows, cols})};
    if (stochastic) {
      arguments.push_back(MemRefType::get({1}, b.getI64Type()));
      params.push_back(manifestParam(b, "seed", "input", "i64", {1}));
    }
    if (op.getAmax()) {
      arguments.push_back(MemRefType::get({numScales()}, b.getF32Type()));
      params.push_back(manifestParam(b, "amax", "input", "f32", scaleShape()));
    }
    arguments.push_back(MemRefType::get({numElements}, b.getI8Type()));
    arguments.push_back(
        MemRefType::get({numScales()}, storageType(scaleElement)));
    params.push_back(
        manifestParam(b, "q", "output", dtypeName(elementType), {rows, cols}));
    params.push_back(manifestParam(b, "scale", "output",
                                   dtypeName(scaleElement), scaleShape()));
    addWorkspace(arguments, params);
    gpu::GPUFuncOp func =
        createKernel(b, loc, name, target, arguments, kThreadsPerBlock);
    int64_t scaleBytes =
        numScales() * (isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4);
    int64_t bytesMoved =
        numElements * (inputElement.getIntOrFloatBitWidth() / 8 + 1) +
        scaleBytes;
    SmallVector<NamedAttribute> extra;
    if (stochastic)
      extra.push_back(
          b.getNamedAttr("rounding", b.getStringAttr("stochastic")));
    // The checker recomputes the scales: it needs the margin.
    if (op.getMargin() != 0)
      extra.push_back(
          b.getNamedAttr("margin", b.getI64IntegerAttr(op.getMargin())));
    setManifest(b, func, "fp8.quantize", {numBlocks, 1, 1}, kThreadsPerBlock,
                params, dtypeName(elementType), op.getScaling(), bytesMoved,
                extra);
    unsigned arg = 0;
    input = func.getArgument(arg++);
    if (stochastic) {
      Value zero = constIndex(b, loc, 0);
      seed = memref::LoadOp::create(b, loc, func.getArgument(arg++), zero);
    }
    if (op.getAmax())
      givenAmax = func.getArgument(arg++);
    data = func.getArgument(arg++);
    scales = func.getArgument(arg++);
    if (workspace)
      scratch = func.getArgument(arg++);
    return func;
  }

  /// The scratch parameter: 4 x i32, declared to fp8-run as 2 x i64 (it
  /// zero-fills parameters of role "workspace" once; the kernel leaves them
  /// zero again).
  void addWorkspace(SmallVectorImpl<Type> &arguments,
                    SmallVectorImpl<Attribute> &params) {
    if (!workspace)
      return;
    arguments.push_back(MemRefType::get({4}, b.getI32Type()));
    params.push_back(manifestParam(b, "workspace", "workspace", "i64", {2}));
  }

  /// The 16 elements at `offset`, in f32, from a 16-byte aligned load.
  Value load(Value offset) {
    auto vectorType = VectorType::get({kChunk}, inputElement);
    Value loaded =
        vector::LoadOp::create(b, loc, vectorType, input, offset,
                               /*nontemporal=*/false, llvm::Align(16));
    if (inputElement.isF32())
      return loaded;
    return arith::ExtFOp::create(
        b, loc, VectorType::get({kChunk}, b.getF32Type()), loaded);
  }

  /// max |x| over a vector, NaN-propagating (|x| as max(x, -x): no
  /// libdevice call).
  Value maxAbs(Value values) {
    Value magnitudes = buildAbs(b, loc, values);
    return vector::ReductionOp::create(b, loc, vector::CombiningKind::MAXIMUMF,
                                       magnitudes);
  }

  /// Butterfly max over `lanes` lanes of a warp.
  Value shuffleMax(Value value, int64_t lanes) {
    for (int64_t stride = lanes / 2; stride >= 1; stride /= 2)
      value = arith::MaximumFOp::create(
          b, loc, value,
          gpu::ShuffleOp::create(b, loc, value, stride, kWarpSize,
                                 gpu::ShuffleMode::XOR)
              .getShuffleResult());
    return value;
  }

  /// Shared memory for ctaMax: a slot per warp, and `extra` more.
  Value addPartials(gpu::GPUFuncOp func, int64_t extra = 0) {
    auto workgroup = gpu::AddressSpaceAttr::get(
        b.getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    return func.addWorkgroupAttribution(
        MemRefType::get({kThreadsPerBlock / kWarpSize + extra}, b.getF32Type(),
                        nullptr, workgroup),
        loc);
  }

  /// The max of every thread's `value`, in every thread: warp shuffles, then
  /// the warps' partials through shared memory.
  Value ctaMax(Value value, Value partials, Value thread) {
    value = shuffleMax(value, kWarpSize);
    Value warp =
        arith::DivUIOp::create(b, loc, thread, constIndex(b, loc, kWarpSize));
    memref::StoreOp::create(b, loc, value, partials, warp);
    gpu::BarrierOp::create(b, loc);
    Value max = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
    for (int64_t w = 0; w < kThreadsPerBlock / kWarpSize; ++w)
      max = arith::MaximumFOp::create(
          b, loc, max,
          memref::LoadOp::create(b, loc, partials, constIndex(b, loc, w)));
    return max;
  }

  /// Quantizes the 16 f32 `values` of elements offset..offset+15 with
  /// `quantScale` and stores their bytes.
  void quantizeAndStore(Value values, Value quantScale, Value offset) {
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < kChunk; ++i)
      scaled.push_back(arith::MulFOp::create(
          b, loc, vector::ExtractOp::create(b, loc, values, i), quantScale));
    Value bytes;
    if (!stochastic) {
      bytes = convertToBytes(b, loc, scaled, elementType);
    } else {
      SmallVector<Value> codes;
      Value base = arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
      for (int64_t i = 0; i < kChunk; ++i) {
        Value index = arith::AddIOp::create(
            b, loc, base,
            arith::ConstantIntOp::create(b, loc, b.getI64Type(), i));
        Value random = buildPhiloxRandom32(b, loc, seed, index);
        codes.push_back(
            buildStochasticCastBits(b, loc, scaled[i], random, elementType));
      }
      bytes = vector::FromElementsOp::create(
          b, loc, VectorType::get({kChunk}, b.getI8Type()), codes);
    }
    vector::StoreOp::create(b, loc, bytes, data, offset,
                            /*nontemporal=*/false, llvm::Align(16));
  }

  /// The amax the scales of tile `index` derive from: the given one under
  /// delayed scaling, else `computed`.
  Value tileAmax(Value computed, Value index) {
    if (!givenAmax)
      return computed;
    return memref::LoadOp::create(b, loc, givenAmax, index);
  }

  /// Stores a tile's result: its amax, or its scale.
  void storeTile(Value amax, const TileScales &scales, Value index) {
    if (amaxOnly()) {
      memref::StoreOp::create(b, loc, amax, amaxOut, index);
      return;
    }
    storeScale(scales.storedScale, index);
  }

  void storeScale(Value stored, Value index) {
    if (isa<Float8E8M0FNUType>(scaleElement))
      stored = arith::BitcastOp::create(b, loc, b.getI8Type(), stored);
    memref::StoreOp::create(b, loc, stored, scales, index);
  }
};
} // namespace

/// Row tiles: thread t quantizes elements 16t..16t+15.
static gpu::GPUModuleOp buildRowTileKernel(QuantizeKernelBuilder &k,
                                           StringRef name, const Target &target) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  int64_t lanesPerTile = k.tileCols / kChunk;
  int64_t numThreads = k.rows * k.cols / kChunk;
  gpu::GPUFuncOp func =
      k.createAny(name, target, llvm::divideCeil(numThreads, kThreadsPerBlock));
  Value thread = gpu::GlobalIdOp::create(b, loc, gpu::Dimension::x);
  Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       thread, constIndex(b, loc, numThreads));
  // Threads past the end (whole tiles of them) still join the shuffles, on
  // a clamped index, but store nothing.
  Value safeThread =
      arith::SelectOp::create(b, loc, active, thread, constIndex(b, loc, 0));
  Value offset =
      arith::MulIOp::create(b, loc, safeThread, constIndex(b, loc, kChunk));
  Value values = k.load(offset);
  Value amax =
      k.tileAmax(k.shuffleMax(k.maxAbs(values), lanesPerTile),
                 arith::DivUIOp::create(b, loc, safeThread,
                                        constIndex(b, loc, lanesPerTile)));
  TileScales scales;
  if (!k.amaxOnly())
    scales = buildTileScales(b, loc, amax, k.elementType, k.op.getScaling(),
                             k.op.getMargin());
  auto ifActive = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifActive.thenBlock());
  if (!k.amaxOnly())
    k.quantizeAndStore(values, scales.quantScale, offset);
  Value lane =
      arith::RemUIOp::create(b, loc, thread, constIndex(b, loc, lanesPerTile));
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                      constIndex(b, loc, 0));
  auto ifFirst = scf::IfOp::create(b, loc, first, false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  // Tiles are contiguous along rows, rows are contiguous: tile = t / lanes.
  k.storeTile(
      amax, scales,
      arith::DivUIOp::create(b, loc, thread, constIndex(b, loc, lanesPerTile)));
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}

/// The most 4096-element steps a single-row tile may take in one CTA (its
/// chunks stay in registers: 8 x 16 values per thread).
static constexpr int64_t kMaxBlockSteps = 8;

/// Block tiles: CTA b quantizes tile b; its threads walk the tile in steps
/// of 256 chunks of 16 elements.
static gpu::GPUModuleOp buildBlockTileKernel(QuantizeKernelBuilder &k,
                                             StringRef name, const Target &target) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  int64_t tileElements = k.tileRows * k.tileCols;
  int64_t steps = tileElements / (kChunk * kThreadsPerBlock);
  int64_t tilesPerRow = k.cols / k.tileCols;
  gpu::GPUFuncOp func = k.createAny(name, target, k.numScales());
  Value partials = k.addPartials(func);

  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value rowBase = arith::MulIOp::create(
      b, loc,
      arith::DivUIOp::create(b, loc, block, constIndex(b, loc, tilesPerRow)),
      constIndex(b, loc, k.tileRows));
  Value colBase = arith::MulIOp::create(
      b, loc,
      arith::RemUIOp::create(b, loc, block, constIndex(b, loc, tilesPerRow)),
      constIndex(b, loc, k.tileCols));
  SmallVector<Value> offsets, chunks;
  Value amax = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  for (int64_t step = 0; step < steps; ++step) {
    // Element e of the tile, row-major within the tile.
    Value e = arith::MulIOp::create(
        b, loc,
        arith::AddIOp::create(b, loc, thread,
                              constIndex(b, loc, step * kThreadsPerBlock)),
        constIndex(b, loc, kChunk));
    Value row = arith::AddIOp::create(
        b, loc, rowBase,
        arith::DivUIOp::create(b, loc, e, constIndex(b, loc, k.tileCols)));
    Value col = arith::AddIOp::create(
        b, loc, colBase,
        arith::RemUIOp::create(b, loc, e, constIndex(b, loc, k.tileCols)));
    Value offset = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, constIndex(b, loc, k.cols)),
        col);
    Value values = k.load(offset);
    amax = arith::MaximumFOp::create(b, loc, amax, k.maxAbs(values));
    offsets.push_back(offset);
    chunks.push_back(values);
  }
  amax = k.tileAmax(k.ctaMax(amax, partials, thread), block);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = buildTileScales(b, loc, amax, k.elementType, k.op.getScaling(),
                             k.op.getMargin());
    for (auto [values, offset] : llvm::zip(chunks, offsets))
      k.quantizeAndStore(values, scales.quantScale, offset);
  }
  Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread,
                                      constIndex(b, loc, 0));
  auto ifFirst = scf::IfOp::create(b, loc, first, false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  k.storeTile(amax, scales, block);
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}

/// Column tiles [r, 1]: thread t of CTA b owns one column of one block of r
/// rows; a warp reads 32 consecutive elements of a row at a time (coalesced),
/// once for the amax and once more (from L2) to quantize, two rows per cvt.
static gpu::GPUModuleOp buildColumnTileKernel(QuantizeKernelBuilder &k,
                                              StringRef name, const Target &target) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  int64_t colBlocks = llvm::divideCeil(k.cols, kThreadsPerBlock);
  gpu::GPUFuncOp func =
      k.createAny(name, target, (k.rows / k.tileRows) * colBlocks);
  auto idx = [&](int64_t v) { return constIndex(b, loc, v); };
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value rowBlock = arith::DivUIOp::create(b, loc, block, idx(colBlocks));
  Value col = arith::AddIOp::create(
      b, loc,
      arith::MulIOp::create(
          b, loc, arith::RemUIOp::create(b, loc, block, idx(colBlocks)),
          idx(kThreadsPerBlock)),
      thread);
  Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, col,
                                       idx(k.cols));
  auto ifActive = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifActive.thenBlock());
  Value rowBase = arith::MulIOp::create(b, loc, rowBlock, idx(k.tileRows));
  auto offsetOf = [&](Value i) {
    return arith::AddIOp::create(
               b, loc,
               arith::MulIOp::create(b, loc,
                                     arith::AddIOp::create(b, loc, rowBase, i),
                                     idx(k.cols)),
               col)
        .getResult();
  };
  auto loadF32 = [&](Value i) {
    Value v = memref::LoadOp::create(b, loc, k.input, offsetOf(i));
    return k.inputElement.isF32()
               ? v
               : arith::ExtFOp::create(b, loc, b.getF32Type(), v).getResult();
  };
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  auto amaxLoop = scf::ForOp::create(b, loc, idx(0), idx(k.tileRows), idx(1),
                                     ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(amaxLoop.getBody());
    Value v = loadF32(amaxLoop.getInductionVar());
    Value magnitude = buildAbs(b, loc, v);
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::MaximumFOp::create(
            b, loc, amaxLoop.getRegionIterArgs()[0], magnitude)});
  }
  Value tileIndex = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, rowBlock, idx(k.cols)), col);
  Value amax = k.tileAmax(amaxLoop.getResult(0), tileIndex);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = buildTileScales(b, loc, amax, k.elementType, k.op.getScaling(),
                             k.op.getMargin());
    auto loop = scf::ForOp::create(b, loc, idx(0), idx(k.tileRows), idx(2));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value next = arith::AddIOp::create(b, loc, i, idx(1));
    SmallVector<Value> pair = {
        arith::MulFOp::create(b, loc, loadF32(i), scales.quantScale),
        arith::MulFOp::create(b, loc, loadF32(next), scales.quantScale)};
    Value bytes;
    if (!k.stochastic) {
      bytes = convertToBytes(b, loc, pair, k.elementType);
    } else {
      SmallVector<Value> codes;
      for (auto [row, value] : llvm::zip(ValueRange{i, next}, pair)) {
        Value index =
            arith::IndexCastOp::create(b, loc, b.getI64Type(), offsetOf(row));
        codes.push_back(buildStochasticCastBits(
            b, loc, value, buildPhiloxRandom32(b, loc, k.seed, index),
            k.elementType));
      }
      bytes = vector::FromElementsOp::create(
          b, loc, VectorType::get({2}, b.getI8Type()), codes);
    }
    memref::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, bytes, 0),
                            k.data, offsetOf(i));
    memref::StoreOp::create(b, loc, vector::ExtractOp::create(b, loc, bytes, 1),
                            k.data, offsetOf(next));
  }
  k.storeTile(amax, scales, tileIndex);
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}

/// The CTAs of the tensorwise kernel: two per SM of an H100 (132), few
/// enough to be resident together, which the grid-wide barrier needs.
static constexpr int64_t kTensorwiseBlocks = 264;

/// Tensorwise scaling ([*, *]): one scale from the amax of the whole tensor.
/// A grid of resident CTAs reduces the amax (warp shuffles, shared memory,
/// then an integer atomic max on the non-negative f32 bits in a scratch
/// buffer, where NaN's bits order above inf's), meets at a grid-wide
/// barrier (an arrival counter), and quantizes with the common scale on a
/// second pass over the input. The last CTA to read the amax zeroes the
/// scratch for the next launch.
static gpu::GPUModuleOp buildTensorwiseKernel(QuantizeKernelBuilder &k,
                                              StringRef name, const Target &target) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  int64_t numChunks = k.rows * k.cols / kChunk;
  int64_t numBlocks = std::min<int64_t>(
      kTensorwiseBlocks, llvm::divideCeil(numChunks, kThreadsPerBlock));
  // A given amax needs no grid-wide reduction.
  bool reduce = !(k.op && k.op.getAmax());
  k.workspace = reduce;
  gpu::GPUFuncOp func = k.createAny(name, target, numBlocks);
  // The warps' partial maxima, then one slot through which the leader hands
  // the global amax to its CTA.
  Value partials = k.addPartials(func, /*extra=*/1);
  int64_t broadcastSlot = kThreadsPerBlock / kWarpSize;
  auto idx = [&](int64_t v) { return constIndex(b, loc, v); };
  auto i32 = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, v, 32).getResult();
  };
  auto atomic = [&](arith::AtomicRMWKind kind, Value value, int64_t slot) {
    return memref::AtomicRMWOp::create(b, loc, kind, value, k.scratch,
                                       ValueRange{idx(slot)})
        .getResult();
  };
  Value block = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value first = arith::AddIOp::create(
      b, loc, arith::MulIOp::create(b, loc, block, idx(kThreadsPerBlock)),
      thread);
  Value stride = idx(numBlocks * kThreadsPerBlock);
  Value isLeader =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, idx(0));
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  Value amax;
  if (!reduce) {
    amax = k.tileAmax(Value(), idx(0));
  } else {
    // Pass 1: this thread's chunks, then the CTA's amax.
    auto scan = scf::ForOp::create(b, loc, first, idx(numChunks), stride,
                                   ValueRange{zero});
    b.setInsertionPointToStart(scan.getBody());
    Value chunkMax = k.maxAbs(k.load(
        arith::MulIOp::create(b, loc, scan.getInductionVar(), idx(kChunk))));
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::MaximumFOp::create(
                       b, loc, scan.getRegionIterArgs()[0], chunkMax)
                       .getResult()});
    b.setInsertionPointAfter(scan);
    Value blockMax = k.ctaMax(scan.getResult(0), partials, thread);

    // The leader publishes the CTA's amax and waits for every CTA.
    auto publish =
        scf::IfOp::create(b, loc, isLeader, /*withElseRegion=*/false);
    b.setInsertionPointToStart(publish.thenBlock());
    Value bits = arith::AndIOp::create(
        b, loc, arith::BitcastOp::create(b, loc, b.getI32Type(), blockMax),
        i32(0x7FFFFFFF));
    atomic(arith::AtomicRMWKind::maxs, bits, 0);
    NVVM::MembarOp::create(
        b, loc,
        NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::GPU));
    atomic(arith::AtomicRMWKind::addi, i32(1), 1);
    auto spin = scf::WhileOp::create(b, loc, TypeRange{}, ValueRange{});
    {
      Block *before = b.createBlock(&spin.getBefore());
      b.setInsertionPointToStart(before);
      Value arrived = atomic(arith::AtomicRMWKind::addi, i32(0), 1);
      Value waiting = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                            arrived, i32(numBlocks));
      scf::ConditionOp::create(b, loc, waiting, ValueRange{});
      Block *after = b.createBlock(&spin.getAfter());
      b.setInsertionPointToStart(after);
      scf::YieldOp::create(b, loc);
    }
    b.setInsertionPointAfter(spin);
    NVVM::MembarOp::create(
        b, loc,
        NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::GPU));
    Value total = atomic(arith::AtomicRMWKind::addi, i32(0), 0);
    memref::StoreOp::create(
        b, loc, arith::BitcastOp::create(b, loc, b.getF32Type(), total),
        partials, idx(broadcastSlot));
    // The last CTA to get here resets the scratch for the next launch.
    Value done = atomic(arith::AtomicRMWKind::addi, i32(1), 2);
    auto last = scf::IfOp::create(
        b, loc,
        arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, done,
                              i32(numBlocks - 1)),
        /*withElseRegion=*/false);
    b.setInsertionPointToStart(last.thenBlock());
    for (int64_t slot = 0; slot < 3; ++slot)
      atomic(arith::AtomicRMWKind::assign, i32(0), slot);
    b.setInsertionPointAfter(publish);
    gpu::BarrierOp::create(b, loc);
    amax = memref::LoadOp::create(b, loc, partials, idx(broadcastSlot));
  }

  // Pass 2: quantize with the one scale.
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = buildTileScales(b, loc, amax, k.elementType, k.op.getScaling(),
                             k.op.getMargin());
    auto quantize = scf::ForOp::create(b, loc, first, idx(numChunks), stride);
    b.setInsertionPointToStart(quantize.getBody());
    Value offset =
        arith::MulIOp::create(b, loc, quantize.getInductionVar(), idx(kChunk));
    k.quantizeAndStore(k.load(offset), scales.quantScale, offset);
    b.setInsertionPointAfter(quantize);
  }
  Value writer = arith::AndIOp::create(
      b, loc, isLeader,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, block, idx(0)));
  auto store = scf::IfOp::create(b, loc, writer, /*withElseRegion=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  k.storeTile(amax, scales, idx(0));
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}

/// Any other tiling, partial edge tiles included (any shape, no alignment):
/// a CTA per tile, strided scalar loads for the amax (warp shuffles, then
/// shared memory), the scales, and a second strided pass that quantizes
/// element by element. Correct everywhere; the shapes above are the fast
/// paths.
static gpu::GPUModuleOp buildGenericTileKernel(QuantizeKernelBuilder &k,
                                               StringRef name, const Target &target) {
  OpBuilder &b = k.b;
  Location loc = k.loc;
  SmallVector<int64_t> tiles = k.scaleShape();
  gpu::GPUFuncOp func = k.createAny(name, target, k.numScales());
  Value partials = k.addPartials(func);
  auto idx = [&](int64_t v) { return constIndex(b, loc, v); };
  auto mul = [&](Value x, Value y) {
    return arith::MulIOp::create(b, loc, x, y).getResult();
  };
  auto add = [&](Value x, Value y) {
    return arith::AddIOp::create(b, loc, x, y).getResult();
  };
  Value tile = gpu::BlockIdOp::create(b, loc, gpu::Dimension::x);
  Value thread = gpu::ThreadIdOp::create(b, loc, gpu::Dimension::x);
  Value rowStart =
      mul(arith::DivUIOp::create(b, loc, tile, idx(tiles[1])), idx(k.tileRows));
  Value colStart =
      mul(arith::RemUIOp::create(b, loc, tile, idx(tiles[1])), idx(k.tileCols));
  // The tile's extent, partial at the bottom and right edges.
  Value height = arith::MinUIOp::create(
      b, loc, idx(k.tileRows),
      arith::SubIOp::create(b, loc, idx(k.rows), rowStart));
  Value width = arith::MinUIOp::create(
      b, loc, idx(k.tileCols),
      arith::SubIOp::create(b, loc, idx(k.cols), colStart));
  Value count = mul(height, width);
  auto offsetOf = [&](Value e) {
    return add(mul(add(rowStart, arith::DivUIOp::create(b, loc, e, width)),
                   idx(k.cols)),
               add(colStart, arith::RemUIOp::create(b, loc, e, width)));
  };
  auto loadF32 = [&](Value offset) {
    Value v = memref::LoadOp::create(b, loc, k.input, offset);
    return k.inputElement.isF32()
               ? v
               : arith::ExtFOp::create(b, loc, b.getF32Type(), v).getResult();
  };
  Value zero = arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f));
  auto scan = scf::ForOp::create(b, loc, thread, count, idx(kThreadsPerBlock),
                                 ValueRange{zero});
  b.setInsertionPointToStart(scan.getBody());
  Value magnitude = buildAbs(b, loc, loadF32(offsetOf(scan.getInductionVar())));
  scf::YieldOp::create(
      b, loc,
      ValueRange{arith::MaximumFOp::create(b, loc, scan.getRegionIterArgs()[0],
                                           magnitude)
                     .getResult()});
  b.setInsertionPointAfter(scan);
  Value amax = k.tileAmax(k.ctaMax(scan.getResult(0), partials, thread), tile);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = buildTileScales(b, loc, amax, k.elementType, k.op.getScaling(),
                             k.op.getMargin());
    auto loop =
        scf::ForOp::create(b, loc, thread, count, idx(kThreadsPerBlock));
    b.setInsertionPointToStart(loop.getBody());
    Value offset = offsetOf(loop.getInductionVar());
    Value scaled =
        arith::MulFOp::create(b, loc, loadF32(offset), scales.quantScale);
    Value byte;
    if (!k.stochastic) {
      // cvt converts pairs: the element and a zero, keeping the first byte.
      byte = vector::ExtractOp::create(
          b, loc, convertToBytes(b, loc, {scaled, zero}, k.elementType), 0);
    } else {
      Value index = arith::IndexCastOp::create(b, loc, b.getI64Type(), offset);
      byte = buildStochasticCastBits(b, loc, scaled,
                                     buildPhiloxRandom32(b, loc, k.seed, index),
                                     k.elementType);
    }
    memref::StoreOp::create(b, loc, byte, k.data, offset);
    b.setInsertionPointAfter(loop);
  }
  auto first = scf::IfOp::create(
      b, loc,
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, thread, idx(0)),
      /*withElseRegion=*/false);
  b.setInsertionPointToStart(first.thenBlock());
  k.storeTile(amax, scales, tile);
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}

/// Picks the kernel shape for the tiling, or fails with a diagnostic at
/// `op`.
static FailureOr<gpu::GPUModuleOp> buildTileKernel(QuantizeKernelBuilder &k,
                                                   Operation *op,
                                                   StringRef name,
                                                   const Target &target) {
  bool tilesDivide = k.rows % k.tileRows == 0 && k.cols % k.tileCols == 0 &&
                     k.tileCols % kChunk == 0;
  // One tile over more than a CTA's registers: the whole tensor.
  if (k.tileRows == k.rows && k.tileCols == k.cols &&
      (k.rows * k.cols) % kChunk == 0 &&
      k.rows * k.cols > kMaxBlockSteps * kChunk * kThreadsPerBlock)
    return buildTensorwiseKernel(k, name, target);
  int64_t lanesPerTile = k.tileCols / kChunk;
  if (tilesDivide && k.tileRows == 1 && llvm::isPowerOf2_64(lanesPerTile) &&
      lanesPerTile <= kWarpSize)
    return buildRowTileKernel(k, name, target);
  // A CTA per tile, holding its chunks in registers between the amax and
  // the casts: also rows of 4096 .. 32768 elements (rowwise [1, *]).
  int64_t tileSteps = k.tileRows * k.tileCols / (kChunk * kThreadsPerBlock);
  if (tilesDivide && (k.tileRows > 1 || tileSteps <= kMaxBlockSteps) &&
      (k.tileRows * k.tileCols) % (kChunk * kThreadsPerBlock) == 0)
    return buildBlockTileKernel(k, name, target);
  if (k.tileCols == 1 && k.tileRows % 2 == 0 && k.rows % k.tileRows == 0)
    return buildColumnTileKernel(k, name, target);
  return buildGenericTileKernel(k, name, target);
}

/// Kernels are specialized to static matrices.
static LogicalResult checkStaticMatrix(Operation *op, RankedTensorType type) {
  if (type.hasStaticShape() && type.getRank() == 2)
    return success();
  return op->emitOpError("convert-fp8-to-nvvm needs a static rank-2 input, "
                         "got ")
         << type;
}

FailureOr<gpu::GPUModuleOp> fp8::buildQuantizeKernel(OpBuilder &b,
                                                     QuantizeOp op,
                                                     StringRef name,
                                                     const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (failed(checkStaticMatrix(op, inputType)))
    return failure();
  OpBuilder::InsertionGuard guard(b);
  QuantizeKernelBuilder k(b, op.getLoc(), inputType, op.getScaling().getTile(),
                          op);
  return buildTileKernel(k, op, name, target);
}

FailureOr<gpu::GPUModuleOp>
fp8::buildAmaxKernel(OpBuilder &b, AmaxOp op, StringRef name, const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (failed(checkStaticMatrix(op, inputType)))
    return failure();
  OpBuilder::InsertionGuard guard(b);
  QuantizeKernelBuilder k(b, op.getLoc(), inputType, op.getTile().getExtents());
  return buildTileKernel(k, op, name, target);
}
