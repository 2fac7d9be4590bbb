//===- QuantizeTileKernels.cpp - quantize kernels with a scale per tile ---===//
//
// The kernel shapes of fp8.quantize and fp8.amax that reduce each tile
// within one CTA: row tiles (the lanes of a warp), block tiles (a CTA per
// tile, its chunks held in registers), column tiles (16-byte row pieces of
// 64 columns per CTA, or a thread per column where the width does not
// allow), and the generic kernel for any other tiling, partial edge tiles
// included. QuantizeKernel.cpp picks among them.
//
//===----------------------------------------------------------------------===//

#include "QuantizeKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// Row tiles: thread t quantizes elements chunk t .. chunk t + chunk - 1
/// (a chunk is 16 elements, or 32 under a wide rotation).
gpu::GPUModuleOp kernels::buildRowTileKernel(QuantizeKernelBuilder &k,
                                             StringRef name,
                                             const Target &target) {
  KernelBuilder &b = k.b;
  int64_t lanesPerTile = k.tileCols / k.chunk;
  int64_t numThreads = k.rows * k.cols / k.chunk;
  gpu::GPUFuncOp func =
      k.create(name, target, llvm::divideCeil(numThreads, kThreadsPerBlock));
  Value thread = b.globalIdX();
  Value active = b.ult(thread, numThreads);
  // Threads past the end (whole tiles of them) still join the shuffles, on
  // a clamped index, but store nothing.
  Value safeThread = arith::SelectOp::create(b, active, thread, b.index(0));
  Value offset = b.mul(safeThread, k.chunk);
  Value values = k.load(offset);
  Value safeTile = b.divU(safeThread, lanesPerTile);
  Value dataAmax = k.shuffleMax(k.maxAbs(values), lanesPerTile);
  Value amax = k.tileAmax(dataAmax, safeTile);
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
  k.storeTile(amax, scales, b.divU(thread, lanesPerTile), dataAmax);
  return k.finish(func);
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
  Value dataAmax = k.ctaMax(amax, partials, thread);
  amax = k.tileAmax(dataAmax, block);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    for (auto [values, offset] : llvm::zip(chunks, offsets))
      k.quantizeAndStore(values, scales.quantScale, offset);
  }
  Value first = b.eq(thread, 0);
  auto ifFirst = scf::IfOp::create(b, first, false);
  b.setInsertionPointToStart(ifFirst.thenBlock());
  k.storeTile(amax, scales, block, dataAmax);
  return k.finish(func);
}

/// The columns a CTA of the vectorized column-tile kernel covers, and the
/// bytes of a row its threads load at a time.
static constexpr int64_t kColumnBlock = 64;
static constexpr int64_t kLoadBytes = 16;

/// Column tiles [r, 1] with 16-byte rows of columns: CTA b owns 64 columns
/// of one block of r rows. Its threads hold 16 bytes of a row (8 bf16 or 4
/// f32 columns) for r / 32 (bf16) or r / 16 (f32) rows, all loaded before
/// anything is stored; the columns' amax reduce across the lanes of a warp
/// that share them (shuffles), then across warps through shared memory,
/// where 64 threads derive the scales; then every thread casts and stores
/// its rows. One read of the input, coalesced and vectorized both ways.
static gpu::GPUModuleOp buildVectorColumnTileKernel(QuantizeKernelBuilder &k,
                                                    StringRef name,
                                                    const Target &target) {
  KernelBuilder &b = k.b;
  Type f32 = b.getF32Type();
  int64_t width = kLoadBytes / (k.inputElement.getIntOrFloatBitWidth() / 8);
  int64_t lanesPerRow = kColumnBlock / width;
  int64_t rowsPerPass = kThreadsPerBlock / lanesPerRow;
  int64_t passes = k.tileRows / rowsPerPass;
  int64_t colBlocks = k.cols / kColumnBlock;
  constexpr int64_t numWarps = kThreadsPerBlock / kWarpSize;
  gpu::GPUFuncOp func =
      k.create(name, target, (k.rows / k.tileRows) * colBlocks);
  // The warps' partial amax per column, then the columns' quantization
  // scales.
  Value partials = func.addWorkgroupAttribution(
      b.workgroupMemRef({(numWarps + 1) * kColumnBlock}, f32), b.getLoc());
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value rowBlock = b.divU(block, colBlocks);
  Value colBase = b.mul(b.remU(block, colBlocks), kColumnBlock);
  Value group = b.remU(thread, lanesPerRow);
  Value rowInPass = b.divU(thread, lanesPerRow);
  Value colInBlock = b.mul(group, width);
  Value rowBase = b.mul(rowBlock, k.tileRows);
  auto vecType = VectorType::get({width}, k.inputElement);
  auto vecF32 = VectorType::get({width}, f32);
  SmallVector<Value> offsets;
  SmallVector<SmallVector<Value>> values;
  for (int64_t pass = 0; pass < passes; ++pass) {
    Value row = b.add(rowBase, b.add(rowInPass, pass * rowsPerPass));
    Value offset = b.add(b.mul(row, k.cols), b.add(colBase, colInBlock));
    offsets.push_back(offset);
    Value loaded = k.producer
                       ? k.producer->compute(b, offset, width)
                       : vector::LoadOp::create(b, vecType, k.input, offset,
                                                /*nontemporal=*/false,
                                                llvm::Align(kLoadBytes))
                             .getResult();
    if (!k.inputElement.isF32())
      loaded = arith::ExtFOp::create(b, vecF32, loaded);
    SmallVector<Value> elements;
    for (int64_t i = 0; i < width; ++i)
      elements.push_back(vector::ExtractOp::create(b, loaded, i));
    values.push_back(std::move(elements));
  }
  // This thread's columns, then the lanes of the warp that share them.
  Value warp = b.divU(thread, kWarpSize);
  SmallVector<Value> columnMax;
  for (int64_t i = 0; i < width; ++i) {
    Value amax = b.f32(0.0);
    for (int64_t pass = 0; pass < passes; ++pass)
      amax = b.maxF(amax, b.absF(values[pass][i]));
    for (int64_t stride = lanesPerRow; stride < kWarpSize; stride *= 2)
      amax = b.maxF(amax, gpu::ShuffleOp::create(b, amax, stride, kWarpSize,
                                                 gpu::ShuffleMode::XOR)
                              .getShuffleResult());
    columnMax.push_back(amax);
  }
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifFirstRow = scf::IfOp::create(
        b, b.ult(b.remU(thread, kWarpSize), lanesPerRow), false);
    b.setInsertionPointToStart(ifFirstRow.thenBlock());
    vector::StoreOp::create(
        b, vector::FromElementsOp::create(b, vecF32, columnMax), partials,
        ValueRange{b.add(b.mul(warp, kColumnBlock), colInBlock)},
        /*nontemporal=*/false, llvm::Align(16));
  }
  gpu::BarrierOp::create(b);
  // Threads 0..63: column t's amax over the warps, its scales.
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifColumn = scf::IfOp::create(b, b.ult(thread, kColumnBlock), false);
    b.setInsertionPointToStart(ifColumn.thenBlock());
    Value dataAmax = b.f32(0.0);
    for (int64_t w = 0; w < numWarps; ++w)
      dataAmax = b.maxF(
          dataAmax,
          memref::LoadOp::create(b, partials, b.add(thread, w * kColumnBlock)));
    Value tileIndex = b.add(b.mul(rowBlock, k.cols), b.add(colBase, thread));
    Value amax = k.tileAmax(dataAmax, tileIndex);
    TileScales scales;
    if (!k.amaxOnly()) {
      scales = k.tileScales(amax);
      memref::StoreOp::create(b, scales.quantScale, partials,
                              b.add(thread, numWarps * kColumnBlock));
    }
    k.storeTile(amax, scales, tileIndex, dataAmax);
  }
  if (k.amaxOnly())
    return k.finish(func);
  gpu::BarrierOp::create(b);
  Value quantScales = vector::LoadOp::create(
      b, vecF32, partials,
      ValueRange{b.add(colInBlock, numWarps * kColumnBlock)},
      /*nontemporal=*/false, llvm::Align(16));
  SmallVector<Value> quantScale;
  for (int64_t i = 0; i < width; ++i)
    quantScale.push_back(vector::ExtractOp::create(b, quantScales, i));
  for (int64_t pass = 0; pass < passes; ++pass) {
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < width; ++i)
      scaled.push_back(b.mulF(values[pass][i], quantScale[i]));
    k.storeScaled(values[pass], scaled, offsets[pass]);
  }
  return k.finish(func);
}

/// Column tiles [r, 1] of any width: thread t of CTA b owns one column of
/// one block of r rows; a warp reads 32 consecutive elements of a row at a
/// time (coalesced), once for the amax and once more (from L2) to quantize,
/// two rows per cvt.
static gpu::GPUModuleOp buildScalarColumnTileKernel(QuantizeKernelBuilder &k,
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
  Value dataAmax = amaxLoop.getResult(0);
  Value amax = k.tileAmax(dataAmax, tileIndex);
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
    if (k.monitor)
      k.count({k.loadScalar(offsetOf(i)), k.loadScalar(offsetOf(next))}, pair,
              bytes);
  }
  k.storeTile(amax, scales, tileIndex, dataAmax);
  b.setInsertionPointAfter(ifActive);
  return k.finish(func);
}

gpu::GPUModuleOp kernels::buildColumnTileKernel(QuantizeKernelBuilder &k,
                                                StringRef name,
                                                const Target &target) {
  // The vectorized kernel: 16-bit or f32 input, whole blocks of 64 columns,
  // and at most 64 values held per thread (a tile of 32 .. 256 rows).
  int64_t bytes = k.inputElement.getIntOrFloatBitWidth() / 8;
  if (bytes == 2 || bytes == 4) {
    int64_t width = kLoadBytes / bytes;
    int64_t rowsPerPass = kThreadsPerBlock / (kColumnBlock / width);
    if (k.cols % kColumnBlock == 0 && k.tileRows % rowsPerPass == 0 &&
        k.tileRows / rowsPerPass * width <= 64)
      return buildVectorColumnTileKernel(k, name, target);
  }
  return buildScalarColumnTileKernel(k, name, target);
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
  Value dataAmax = k.ctaMax(scan.getResult(0), partials, thread);
  Value amax = k.tileAmax(dataAmax, tile);
  TileScales scales;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    auto loop = scf::ForOp::create(b, thread, count, b.index(kThreadsPerBlock));
    b.setInsertionPointToStart(loop.getBody());
    Value offset = offsetOf(loop.getInductionVar());
    Value x = k.loadScalar(offset);
    Value scaled = b.mulF(x, scales.quantScale);
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
    if (k.monitor)
      k.count({x}, {scaled},
              vector::FromElementsOp::create(
                  b, VectorType::get({1}, b.getI8Type()), ValueRange{byte}));
    b.setInsertionPointAfter(loop);
  }
  auto first = scf::IfOp::create(b, b.eq(thread, 0),
                                 /*withElseRegion=*/false);
  b.setInsertionPointToStart(first.thenBlock());
  k.storeTile(amax, scales, tile, dataAmax);
  return k.finish(func);
}
