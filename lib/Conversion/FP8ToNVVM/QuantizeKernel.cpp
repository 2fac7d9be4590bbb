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
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
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
namespace schema = mlir::fp8::manifest;

namespace mlir::fp8::kernels {

/// The most 4096-element steps a single-row tile may take in one CTA (its
/// chunks stay in registers: 8 x 16 values per thread).
inline constexpr int64_t kMaxBlockSteps = 8;

/// What the kernel shapes share: the tiling, the types and the buffers.
/// With a QuantizeOp the kernel quantizes; without one (fp8.amax) it stops
/// at the per-tile amax.
struct QuantizeKernelBuilder {
  QuantizeOp op;
  KernelBuilder &b;
  Type inputElement, elementType, scaleElement;
  int64_t rows, cols, tileRows, tileCols;
  bool stochastic = false;
  // The kernel's buffers, bound by create (null where the kernel has none):
  // the seed is already loaded, `scratch` is the workspace.
  Value input, seed, data, scales, amaxOut, scratch;
  // A given amax per tile (delayed scaling), else null.
  Value givenAmax;

  QuantizeKernelBuilder(KernelBuilder &b, RankedTensorType type,
                        ArrayRef<int64_t> tile, QuantizeOp op = {});

  bool amaxOnly() const { return !op; }

  /// Tiles per column and per row; edge tiles may be partial.
  SmallVector<int64_t> scaleShape() const;
  int64_t numScales() const;

  /// The kernel, its manifest and its bound buffers. A quantize kernel's
  /// parameters are input, [seed], [amax], q and scale; an amax kernel's
  /// input and amax; either ends with the workspace if it has one.
  gpu::GPUFuncOp create(StringRef name, const Target &target, int64_t numBlocks,
                        bool workspace = false);

  /// The 16 elements at `offset`, in f32, from a 16-byte aligned load.
  Value load(Value offset);
  /// The element at `offset`, in f32.
  Value loadScalar(Value offset);

  /// max |x| over a vector, NaN-propagating (|x| as max(x, -x): no
  /// libdevice call).
  Value maxAbs(Value values);
  /// Butterfly max over `lanes` lanes of a warp.
  Value shuffleMax(Value value, int64_t lanes);
  /// Shared memory for ctaMax: a slot per warp, and `extra` more.
  Value addPartials(gpu::GPUFuncOp func, int64_t extra = 0);
  /// The max of every thread's `value`, in every thread: warp shuffles, then
  /// the warps' partials through shared memory.
  Value ctaMax(Value value, Value partials, Value thread);

  /// The scales of a tile of amax `amax`.
  TileScales tileScales(Value amax);
  /// The FP8 byte of f32 `scaled` by stochastic rounding with the random
  /// number of i64 element index `index`.
  Value stochasticByte(Value scaled, Value index);
  /// Quantizes the 16 f32 `values` of elements offset..offset+15 with
  /// `quantScale` and stores their bytes.
  void quantizeAndStore(Value values, Value quantScale, Value offset);

  /// The amax the scales of tile `index` derive from: the given one under
  /// delayed scaling, else `computed`.
  Value tileAmax(Value computed, Value index);
  /// Stores a tile's result: its amax, or its scale.
  void storeTile(Value amax, const TileScales &result, Value index);

private:
  KernelSignature getSignature(bool workspace);
  void setManifestOf(gpu::GPUFuncOp func, const KernelSignature &signature,
                     int64_t numBlocks);
};

// The kernel shapes. Each returns the kernel's module.
gpu::GPUModuleOp buildRowTileKernel(QuantizeKernelBuilder &k, StringRef name,
                                    const Target &target);
gpu::GPUModuleOp buildBlockTileKernel(QuantizeKernelBuilder &k, StringRef name,
                                      const Target &target);
gpu::GPUModuleOp buildColumnTileKernel(QuantizeKernelBuilder &k, StringRef name,
                                       const Target &target);
gpu::GPUModuleOp buildGenericTileKernel(QuantizeKernelBuilder &k,
                                        StringRef name, const Target &target);
gpu::GPUModuleOp buildTensorwiseKernel(QuantizeKernelBuilder &k, StringRef name,
                                       const Target &target);

} // namespace mlir::fp8::kernels

QuantizeKernelBuilder::QuantizeKernelBuilder(KernelBuilder &b,
                                             RankedTensorType type,
                                             ArrayRef<int64_t> tile,
                                             QuantizeOp op)
    : op(op), b(b) {
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

SmallVector<int64_t> QuantizeKernelBuilder::scaleShape() const {
  return {int64_t(llvm::divideCeil(rows, tileRows)),
          int64_t(llvm::divideCeil(cols, tileCols))};
}

int64_t QuantizeKernelBuilder::numScales() const {
  return scaleShape()[0] * scaleShape()[1];
}

KernelSignature QuantizeKernelBuilder::getSignature(bool workspace) {
  Type f32 = b.getF32Type();
  int64_t numElements = rows * cols;
  auto scaleBuffer = [&](Type element) {
    return MemRefType::get({numScales()}, storageType(element));
  };
  KernelSignature signature;
  signature.addBuffer("input", ParamRole::input, inputElement, {rows, cols},
                      MemRefType::get({numElements}, inputElement));
  if (amaxOnly()) {
    signature.addBuffer("amax", ParamRole::output, f32, scaleShape(),
                        scaleBuffer(f32));
  } else {
    if (stochastic)
      signature.addBuffer("seed", ParamRole::input, b.getI64Type(), {1},
                          MemRefType::get({1}, b.getI64Type()));
    if (op.getAmax())
      signature.addBuffer("amax", ParamRole::input, f32, scaleShape(),
                          scaleBuffer(f32));
    signature.addBuffer("q", ParamRole::output, elementType, {rows, cols},
                        MemRefType::get({numElements}, b.getI8Type()));
    signature.addBuffer("scale", ParamRole::output, scaleElement, scaleShape(),
                        scaleBuffer(scaleElement));
  }
  // The scratch parameter: 4 x i32, declared to fp8-run as 2 x i64 (it
  // zero-fills parameters of role "workspace" once; the kernel leaves them
  // zero again).
  if (workspace)
    signature.addBuffer("workspace", ParamRole::workspace, b.getI64Type(), {2},
                        MemRefType::get({4}, b.getI32Type()));
  return signature;
}

void QuantizeKernelBuilder::setManifestOf(gpu::GPUFuncOp func,
                                          const KernelSignature &signature,
                                          int64_t numBlocks) {
  int64_t numElements = rows * cols;
  int64_t inputBytes = inputElement.getIntOrFloatBitWidth() / 8;
  if (amaxOnly()) {
    SmallVector<int64_t> tile = {tileRows == rows ? -1 : tileRows,
                                 tileCols == cols ? -1 : tileCols};
    setManifest(b, func, signature, "fp8.amax", numBlocks, kThreadsPerBlock,
                numElements * inputBytes + numScales() * 4,
                {b.getNamedAttr(schema::kTile, b.getI64ArrayAttr(tile))});
    return;
  }
  int64_t scaleBytes =
      numScales() * (isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4);
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, elementType, op.getScaling());
  if (stochastic)
    extra.push_back(b.getNamedAttr(
        schema::kRounding, b.getStringAttr(schema::kRoundingStochastic)));
  // The checker recomputes the scales: it needs the margin.
  if (op.getMargin() != 0)
    extra.push_back(
        b.getNamedAttr(schema::kMargin, b.getI64IntegerAttr(op.getMargin())));
  setManifest(b, func, signature, "fp8.quantize", numBlocks, kThreadsPerBlock,
              numElements * (inputBytes + 1) + scaleBytes, extra);
}

gpu::GPUFuncOp QuantizeKernelBuilder::create(StringRef name,
                                             const Target &target,
                                             int64_t numBlocks,
                                             bool workspace) {
  KernelSignature signature = getSignature(workspace);
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifestOf(func, signature, numBlocks);
  input = signature.getArgument(func, "input");
  if (signature.has("seed"))
    seed = memref::LoadOp::create(b, signature.getArgument(func, "seed"),
                                  b.index(0));
  if (amaxOnly())
    amaxOut = signature.getArgument(func, "amax");
  else if (signature.has("amax"))
    givenAmax = signature.getArgument(func, "amax");
  if (!amaxOnly()) {
    data = signature.getArgument(func, "q");
    scales = signature.getArgument(func, "scale");
  }
  if (workspace)
    scratch = signature.getArgument(func, "workspace");
  return func;
}

Value QuantizeKernelBuilder::load(Value offset) {
  auto vectorType = VectorType::get({kChunk}, inputElement);
  Value loaded = vector::LoadOp::create(b, vectorType, input, offset,
                                        /*nontemporal=*/false, llvm::Align(16));
  if (inputElement.isF32())
    return loaded;
  return arith::ExtFOp::create(b, VectorType::get({kChunk}, b.getF32Type()),
                               loaded);
}

Value QuantizeKernelBuilder::loadScalar(Value offset) {
  Value loaded = memref::LoadOp::create(b, input, offset);
  if (inputElement.isF32())
    return loaded;
  return arith::ExtFOp::create(b, b.getF32Type(), loaded);
}

Value QuantizeKernelBuilder::maxAbs(Value values) {
  return vector::ReductionOp::create(b, vector::CombiningKind::MAXIMUMF,
                                     b.absF(values));
}

Value QuantizeKernelBuilder::shuffleMax(Value value, int64_t lanes) {
  for (int64_t stride = lanes / 2; stride >= 1; stride /= 2)
    value = b.maxF(value, gpu::ShuffleOp::create(b, value, stride, kWarpSize,
                                                 gpu::ShuffleMode::XOR)
                              .getShuffleResult());
  return value;
}

Value QuantizeKernelBuilder::addPartials(gpu::GPUFuncOp func, int64_t extra) {
  return func.addWorkgroupAttribution(
      b.workgroupMemRef({kThreadsPerBlock / kWarpSize + extra}, b.getF32Type()),
      b.getLoc());
}

Value QuantizeKernelBuilder::ctaMax(Value value, Value partials, Value thread) {
  value = shuffleMax(value, kWarpSize);
  Value warp = b.divU(thread, kWarpSize);
  memref::StoreOp::create(b, value, partials, warp);
  gpu::BarrierOp::create(b);
  Value max = b.f32(0.0);
  for (int64_t w = 0; w < kThreadsPerBlock / kWarpSize; ++w)
    max = b.maxF(max, memref::LoadOp::create(b, partials, b.index(w)));
  return max;
}

TileScales QuantizeKernelBuilder::tileScales(Value amax) {
  return buildTileScales(b, b.getLoc(), amax, elementType, op.getScaling(),
                         op.getMargin());
}

Value QuantizeKernelBuilder::stochasticByte(Value scaled, Value index) {
  Value random = buildPhiloxRandom32(b, b.getLoc(), seed, index);
  return buildStochasticCastBits(b, b.getLoc(), scaled, random, elementType);
}

void QuantizeKernelBuilder::quantizeAndStore(Value values, Value quantScale,
                                             Value offset) {
  SmallVector<Value> scaled;
  for (int64_t i = 0; i < kChunk; ++i)
    scaled.push_back(
        b.mulF(vector::ExtractOp::create(b, values, i), quantScale));
  Value bytes;
  if (!stochastic) {
    bytes = convertToBytes(b, scaled, elementType);
  } else {
    SmallVector<Value> codes;
    Value base = arith::IndexCastOp::create(b, b.getI64Type(), offset);
    for (int64_t i = 0; i < kChunk; ++i)
      codes.push_back(stochasticByte(scaled[i], b.add(base, i)));
    bytes = vector::FromElementsOp::create(
        b, VectorType::get({kChunk}, b.getI8Type()), codes);
  }
  vector::StoreOp::create(b, bytes, data, offset,
                          /*nontemporal=*/false, llvm::Align(16));
}

Value QuantizeKernelBuilder::tileAmax(Value computed, Value index) {
  if (!givenAmax)
    return computed;
  return memref::LoadOp::create(b, givenAmax, index);
}

void QuantizeKernelBuilder::storeTile(Value amax, const TileScales &result,
                                      Value index) {
  if (amaxOnly()) {
    memref::StoreOp::create(b, amax, amaxOut, index);
    return;
  }
  memref::StoreOp::create(b, toScaleStorage(b, result.storedScale), scales,
                          index);
}

/// Row tiles: thread t quantizes elements 16t..16t+15.
gpu::GPUModuleOp kernels::buildRowTileKernel(QuantizeKernelBuilder &k,
                                             StringRef name,
                                             const Target &target) {
  KernelBuilder &b = k.b;
  int64_t lanesPerTile = k.tileCols / kChunk;
  int64_t numThreads = k.rows * k.cols / kChunk;
  gpu::GPUFuncOp func =
      k.create(name, target, llvm::divideCeil(numThreads, kThreadsPerBlock));
  Value thread = b.globalIdX();
  Value active = b.ult(thread, numThreads);
  // Threads past the end (whole tiles of them) still join the shuffles, on
  // a clamped index, but store nothing.
  Value safeThread = arith::SelectOp::create(b, active, thread, b.index(0));
  Value offset = b.mul(safeThread, kChunk);
  Value values = k.load(offset);
  Value safeTile = b.divU(safeThread, lanesPerTile);
  Value amax =
      k.tileAmax(k.shuffleMax(k.maxAbs(values), lanesPerTile), safeTile);
  TileScales scales;
  if (!k.amaxOnly())
    scales = k.tileScales(amax);
  auto ifActive = scf::IfOp::create(b, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifActive.thenBlock());
  if (!k.amaxOnly())
    k.quantizeAndStore(values, scales.quantScale, offset);
  Value lane = b.remU(thread, lanesPerTile);
  Value first = b.eq(lane, 0);
  auto ifFirst = scf::IfOp::create(b, first, false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  // Tiles are contiguous along rows, rows are contiguous: tile = t / lanes.
  k.storeTile(amax, scales, b.divU(thread, lanesPerTile));
  return finishKernel(b, func);
}

/// Block tiles: CTA b quantizes tile b; its threads walk the tile in steps
/// of 256 chunks of 16 elements.
gpu::GPUModuleOp kernels::buildBlockTileKernel(QuantizeKernelBuilder &k,
                                               StringRef name,
                                               const Target &target) {
  KernelBuilder &b = k.b;
  int64_t tileElements = k.tileRows * k.tileCols;
  int64_t steps = tileElements / (kChunk * kThreadsPerBlock);
  int64_t tilesPerRow = k.cols / k.tileCols;
  gpu::GPUFuncOp func = k.create(name, target, k.numScales());
  Value partials = k.addPartials(func);

  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value rowBase = b.mul(b.divU(block, tilesPerRow), k.tileRows);
  Value colBase = b.mul(b.remU(block, tilesPerRow), k.tileCols);
  SmallVector<Value> offsets, chunks;
  Value amax = b.f32(0.0);
  for (int64_t step = 0; step < steps; ++step) {
    // Element e of the tile, row-major within the tile.
    Value e = b.mul(b.add(thread, step * kThreadsPerBlock), kChunk);
    Value row = b.add(rowBase, b.divU(e, k.tileCols));
    Value col = b.add(colBase, b.remU(e, k.tileCols));
    Value offset = b.add(b.mul(row, k.cols), col);
    Value values = k.load(offset);
    amax = b.maxF(amax, k.maxAbs(values));
    offsets.push_back(offset);
    chunks.push_back(values);
  }
  amax = k.tileAmax(k.ctaMax(amax, partials, thread), block);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    for (auto [values, offset] : llvm::zip(chunks, offsets))
      k.quantizeAndStore(values, scales.quantScale, offset);
  }
  Value first = b.eq(thread, 0);
  auto ifFirst = scf::IfOp::create(b, first, false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  k.storeTile(amax, scales, block);
  return finishKernel(b, func);
}

/// Column tiles [r, 1]: thread t of CTA b owns one column of one block of r
/// rows; a warp reads 32 consecutive elements of a row at a time (coalesced),
/// once for the amax and once more (from L2) to quantize, two rows per cvt.
gpu::GPUModuleOp kernels::buildColumnTileKernel(QuantizeKernelBuilder &k,
                                                StringRef name,
                                                const Target &target) {
  KernelBuilder &b = k.b;
  int64_t colBlocks = llvm::divideCeil(k.cols, kThreadsPerBlock);
  gpu::GPUFuncOp func =
      k.create(name, target, (k.rows / k.tileRows) * colBlocks);
  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value rowBlock = b.divU(block, colBlocks);
  Value col = b.add(b.mul(b.remU(block, colBlocks), kThreadsPerBlock), thread);
  Value active = b.ult(col, k.cols);
  auto ifActive = scf::IfOp::create(b, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifActive.thenBlock());
  Value rowBase = b.mul(rowBlock, k.tileRows);
  auto offsetOf = [&](Value i) {
    return b.add(b.mul(b.add(rowBase, i), k.cols), col);
  };
  Value zero = b.f32(0.0);
  auto amaxLoop = scf::ForOp::create(b, b.index(0), b.index(k.tileRows),
                                     b.index(1), ValueRange{zero});
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(amaxLoop.getBody());
    Value v = k.loadScalar(offsetOf(amaxLoop.getInductionVar()));
    Value magnitude = b.absF(v);
    scf::YieldOp::create(
        b, ValueRange{b.maxF(amaxLoop.getRegionIterArgs()[0], magnitude)});
  }
  Value tileIndex = b.add(b.mul(rowBlock, k.cols), col);
  Value amax = k.tileAmax(amaxLoop.getResult(0), tileIndex);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    auto loop =
        scf::ForOp::create(b, b.index(0), b.index(k.tileRows), b.index(2));
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(loop.getBody());
    Value i = loop.getInductionVar();
    Value next = b.add(i, 1);
    SmallVector<Value> pair = {
        b.mulF(k.loadScalar(offsetOf(i)), scales.quantScale),
        b.mulF(k.loadScalar(offsetOf(next)), scales.quantScale)};
    Value bytes;
    if (!k.stochastic) {
      bytes = convertToBytes(b, pair, k.elementType);
    } else {
      SmallVector<Value> codes;
      for (auto [row, value] : llvm::zip(ValueRange{i, next}, pair)) {
        Value index =
            arith::IndexCastOp::create(b, b.getI64Type(), offsetOf(row));
        codes.push_back(k.stochasticByte(value, index));
      }
      bytes = vector::FromElementsOp::create(
          b, VectorType::get({2}, b.getI8Type()), codes);
    }
    for (auto [j, row] : llvm::enumerate(ValueRange{i, next})) {
      Value offset = offsetOf(row);
      Value byte = vector::ExtractOp::create(b, bytes, int64_t(j));
      memref::StoreOp::create(b, byte, k.data, offset);
    }
  }
  k.storeTile(amax, scales, tileIndex);
  return finishKernel(b, func);
}

/// Any other tiling, partial edge tiles included (any shape, no alignment):
/// a CTA per tile, strided scalar loads for the amax (warp shuffles, then
/// shared memory), the scales, and a second strided pass that quantizes
/// element by element. Correct everywhere; the shapes above are the fast
/// paths.
gpu::GPUModuleOp kernels::buildGenericTileKernel(QuantizeKernelBuilder &k,
                                                 StringRef name,
                                                 const Target &target) {
  KernelBuilder &b = k.b;
  SmallVector<int64_t> tiles = k.scaleShape();
  gpu::GPUFuncOp func = k.create(name, target, k.numScales());
  Value partials = k.addPartials(func);
  Value tile = b.blockIdX();
  Value thread = b.threadIdX();
  Value rowStart = b.mul(b.divU(tile, tiles[1]), k.tileRows);
  Value colStart = b.mul(b.remU(tile, tiles[1]), k.tileCols);
  // The tile's extent, partial at the bottom and right edges.
  Value height = b.minU(b.index(k.tileRows), b.sub(b.index(k.rows), rowStart));
  Value width = b.minU(b.index(k.tileCols), b.sub(b.index(k.cols), colStart));
  Value count = b.mul(height, width);
  auto offsetOf = [&](Value e) {
    Value col = b.add(colStart, b.remU(e, width));
    Value row = b.add(rowStart, b.divU(e, width));
    return b.add(b.mul(row, k.cols), col);
  };
  Value zero = b.f32(0.0);
  auto scan = scf::ForOp::create(b, thread, count, b.index(kThreadsPerBlock),
                                 ValueRange{zero});
  b.setInsertionPointToStart(scan.getBody());
  Value magnitude = b.absF(k.loadScalar(offsetOf(scan.getInductionVar())));
  scf::YieldOp::create(
      b, ValueRange{b.maxF(scan.getRegionIterArgs()[0], magnitude)});
  b.setInsertionPointAfter(scan);
  Value amax = k.tileAmax(k.ctaMax(scan.getResult(0), partials, thread), tile);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    auto loop = scf::ForOp::create(b, thread, count, b.index(kThreadsPerBlock));
    b.setInsertionPointToStart(loop.getBody());
    Value offset = offsetOf(loop.getInductionVar());
    Value scaled = b.mulF(k.loadScalar(offset), scales.quantScale);
    Value byte;
    if (!k.stochastic) {
      // cvt converts pairs: the element and a zero, keeping the first byte.
      byte = vector::ExtractOp::create(
          b, convertToBytes(b, {scaled, zero}, k.elementType), 0);
    } else {
      Value index = arith::IndexCastOp::create(b, b.getI64Type(), offset);
      byte = k.stochasticByte(scaled, index);
    }
    memref::StoreOp::create(b, byte, k.data, offset);
    b.setInsertionPointAfter(loop);
  }
  auto first = scf::IfOp::create(b, b.eq(thread, 0),
                                 /*withElseRegion=*/false);
  b.setInsertionPointToStart(first.thenBlock());
  k.storeTile(amax, scales, tile);
  return finishKernel(b, func);
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
gpu::GPUModuleOp kernels::buildTensorwiseKernel(QuantizeKernelBuilder &k,
                                                StringRef name,
                                                const Target &target) {
  KernelBuilder &b = k.b;
  int64_t numChunks = k.rows * k.cols / kChunk;
  int64_t numBlocks = std::min<int64_t>(
      kTensorwiseBlocks, llvm::divideCeil(numChunks, kThreadsPerBlock));
  // A given amax needs no grid-wide reduction.
  bool reduce = !(k.op && k.op.getAmax());
  gpu::GPUFuncOp func = k.create(name, target, numBlocks, /*workspace=*/reduce);
  // The warps' partial maxima, then one slot through which the leader hands
  // the global amax to its CTA.
  Value partials = k.addPartials(func, /*extra=*/1);
  int64_t broadcastSlot = kThreadsPerBlock / kWarpSize;
  auto atomic = [&](arith::AtomicRMWKind kind, Value value, int64_t slot) {
    return memref::AtomicRMWOp::create(b, kind, value, k.scratch,
                                       ValueRange{b.index(slot)})
        .getResult();
  };
  auto fenceGpu = [&] {
    NVVM::MembarOp::create(b, NVVM::MemScopeKindAttr::get(
                                  b.getContext(), NVVM::MemScopeKind::GPU));
  };
  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value first = b.add(b.mul(block, kThreadsPerBlock), thread);
  Value stride = b.index(numBlocks * kThreadsPerBlock);
  Value isLeader = b.eq(thread, 0);
  Value zero = b.f32(0.0);
  Value amax;
  if (!reduce) {
    amax = k.tileAmax(Value(), b.index(0));
  } else {
    // Pass 1: this thread's chunks, then the CTA's amax.
    auto scan = scf::ForOp::create(b, first, b.index(numChunks), stride,
                                   ValueRange{zero});
    b.setInsertionPointToStart(scan.getBody());
    Value chunkMax = k.maxAbs(k.load(b.mul(scan.getInductionVar(), kChunk)));
    scf::YieldOp::create(
        b, ValueRange{b.maxF(scan.getRegionIterArgs()[0], chunkMax)});
    b.setInsertionPointAfter(scan);
    Value blockMax = k.ctaMax(scan.getResult(0), partials, thread);

    // The leader publishes the CTA's amax and waits for every CTA.
    auto publish = scf::IfOp::create(b, isLeader, /*withElseRegion=*/false);
    b.setInsertionPointToStart(publish.thenBlock());
    Value bits = b.andI(b.bitcast(b.getI32Type(), blockMax), 0x7FFFFFFF);
    atomic(arith::AtomicRMWKind::maxs, bits, 0);
    fenceGpu();
    atomic(arith::AtomicRMWKind::addi, b.i32(1), 1);
    auto spin = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
    {
      Block *before = b.createBlock(&spin.getBefore());
      b.setInsertionPointToStart(before);
      Value arrived = atomic(arith::AtomicRMWKind::addi, b.i32(0), 1);
      Value waiting = b.ult(arrived, numBlocks);
      scf::ConditionOp::create(b, waiting, ValueRange{});
      Block *after = b.createBlock(&spin.getAfter());
      b.setInsertionPointToStart(after);
      scf::YieldOp::create(b);
    }
    b.setInsertionPointAfter(spin);
    fenceGpu();
    Value total = atomic(arith::AtomicRMWKind::addi, b.i32(0), 0);
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
    amax = memref::LoadOp::create(b, partials, b.index(broadcastSlot));
  }

  // Pass 2: quantize with the one scale.
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    auto quantize = scf::ForOp::create(b, first, b.index(numChunks), stride);
    b.setInsertionPointToStart(quantize.getBody());
    Value offset = b.mul(quantize.getInductionVar(), kChunk);
    k.quantizeAndStore(k.load(offset), scales.quantScale, offset);
    b.setInsertionPointAfter(quantize);
  }
  Value writer = b.andI(isLeader, b.eq(block, 0));
  auto store = scf::IfOp::create(b, writer, /*withElseRegion=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  k.storeTile(amax, scales, b.index(0));
  return finishKernel(b, func);
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

FailureOr<gpu::GPUModuleOp> fp8::buildQuantizeKernel(OpBuilder &builder,
                                                     QuantizeOp op,
                                                     StringRef name,
                                                     const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (failed(checkStaticMatrix(op, inputType)))
    return failure();
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getScaling().getTile(), op);
  return buildTileKernel(k, op, name, target);
}

FailureOr<gpu::GPUModuleOp> fp8::buildAmaxKernel(OpBuilder &builder, AmaxOp op,
                                                 StringRef name,
                                                 const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (failed(checkStaticMatrix(op, inputType)))
    return failure();
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getTile().getExtents());
  return buildTileKernel(k, op, name, target);
}
