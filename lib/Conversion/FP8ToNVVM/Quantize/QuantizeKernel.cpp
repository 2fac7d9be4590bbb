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
// The scales use the CPU reference's arithmetic (QuantizeScales.cpp);
// rounding is cvt.rn.satfinite.{e4m3,e5m2}x2.f32, or stochastic with the
// reference's Philox stream keyed by (seed, element index)
// (StochasticCast.h).
//
// This file holds what the kernel shapes share (QuantizeKernelBuilder) and
// picks the shape for a tiling; the shapes are in QuantizeTileKernels.cpp
// and QuantizeTensorwiseKernel.cpp.
//
//===----------------------------------------------------------------------===//

#include "QuantizeKernel.h"

#include "../OpKernels.h"
#include "StochasticCast.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
namespace schema = mlir::fp8::manifest;

/// The attributes and optional operands of a quantization op `op`, the
/// same for the plain and the monitored one.
template <typename OpTy>
static void bindQuantization(QuantizeKernelBuilder &k, OpTy op) {
  k.elementType = op.getResult().getType().getElementType();
  k.scaleElement = op.getScaling().getScale();
  k.stochastic = op.getRounding() == Rounding::stochastic;
  k.scaling = op.getScaling();
  k.margin = op.getMargin();
  if (op.getAmax())
    k.amaxOperand = &op.getAmaxMutable()[0];
  if (op.getSeed())
    k.seedOperand = &op.getSeedMutable()[0];
}

QuantizeKernelBuilder::QuantizeKernelBuilder(KernelBuilder &b,
                                             RankedTensorType type,
                                             ArrayRef<int64_t> tile,
                                             Operation *op)
    : op(op), b(b) {
  inputElement = type.getElementType();
  rows = type.getDimSize(0);
  cols = type.getDimSize(1);
  tileRows = ShapedType::isDynamic(tile[0]) ? rows : tile[0];
  tileCols = ShapedType::isDynamic(tile[1]) ? cols : tile[1];
  if (auto quantize = dyn_cast_or_null<QuantizeOp>(op)) {
    bindQuantization(*this, quantize);
  } else if (auto monitored = dyn_cast_or_null<QuantizeMonitoredOp>(op)) {
    bindQuantization(*this, monitored);
    monitor = true;
  } else if (auto delayed = dyn_cast_or_null<QuantizeDelayedOp>(op)) {
    // Round-to-nearest; the amax comes from the history or the data.
    elementType = delayed.getResult().getType().getElementType();
    scaling = delayed.getScaling();
    scaleElement = scaling.getScale();
    margin = delayed.getMargin();
    historyOperand = &delayed.getHistoryMutable();
    mostRecent = delayed.getMostRecent();
  } else if (auto both = dyn_cast_or_null<QuantizeTransposeOp>(op)) {
    // Round-to-nearest with its own amax, and the transpose's buffers.
    elementType = both.getResult().getType().getElementType();
    scaling = both.getScaling();
    scaleElement = scaling.getScale();
    margin = both.getMargin();
    scaleLayout = both.getScaleLayout();
    transposed = true;
  } else if (auto fused = dyn_cast_or_null<QuantizeElementwiseOp>(op)) {
    // Round-to-nearest with its own amax: the op has neither amax nor seed.
    elementType = fused.getQuantized().getType().getElementType();
    scaling = fused.getScaling();
    scaleElement = scaling.getScale();
    margin = fused.getMargin();
    scaleLayout = fused.getScaleLayout();
    producer.emplace(fused);
    if (std::optional<uint64_t> size = fused.getHadamardSize()) {
      if (*size >= 2 * kChunk && tileCols % (2 * kChunk) == 0)
        chunk = 2 * kChunk;
      rotation =
          HadamardRotation::get(int64_t(*size), fused.getHadamardSeed(), chunk);
    }
  }
}

SmallVector<int64_t> QuantizeKernelBuilder::scaleShape() const {
  return {int64_t(llvm::divideCeil(rows, tileRows)),
          int64_t(llvm::divideCeil(cols, tileCols))};
}

SmallVector<int64_t> QuantizeKernelBuilder::storedScaleShape() const {
  if (scaleLayout == ScaleLayout::row_major)
    return scaleShape();
  if (scaleLayout == ScaleLayout::tcgen05)
    return getTcgen05ScaleShape(scaleShape());
  return getTmaAlignedScaleShape(scaleShape(), scaleElement);
}

SmallVector<int64_t> QuantizeKernelBuilder::storedScaleTShape() const {
  ArrayRef<int64_t> tile = scaling.getTile();
  if (llvm::all_of(tile, ShapedType::isDynamic))
    return storedScaleShape();
  int64_t tileRowsT = ShapedType::isDynamic(tile[0]) ? cols : tile[0];
  int64_t tileColsT = ShapedType::isDynamic(tile[1]) ? rows : tile[1];
  return {int64_t(llvm::divideCeil(cols, tileRowsT)),
          int64_t(llvm::divideCeil(rows, tileColsT))};
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
  if (producer)
    producer->declare(signature);
  else
    signature.addBuffer("input", ParamRole::input, inputElement, {rows, cols},
                        MemRefType::get({numElements}, inputElement));
  if (amaxOnly()) {
    signature.addBuffer("amax", ParamRole::output, f32, scaleShape(),
                        scaleBuffer(f32));
  } else {
    if (stochastic)
      signature.addBuffer("seed", ParamRole::input, b.getI64Type(), {1},
                          MemRefType::get({1}, b.getI64Type()));
    if (amaxOperand)
      signature.addBuffer("amax", ParamRole::input, f32, scaleShape(),
                          scaleBuffer(f32));
    if (historyOperand) {
      auto type = cast<RankedTensorType>(historyOperand->get().getType());
      signature.addBuffer("history", ParamRole::input, f32, type.getShape(),
                          MemRefType::get({type.getNumElements()}, f32));
    }
    signature.addBuffer("q", ParamRole::output, elementType, {rows, cols},
                        MemRefType::get({numElements}, b.getI8Type()));
    SmallVector<int64_t> stored = storedScaleShape();
    signature.addBuffer(
        "scale", ParamRole::output, scaleElement, stored,
        MemRefType::get({stored[0] * stored[1]}, storageType(scaleElement)));
    if (transposed) {
      signature.addBuffer("qt", ParamRole::output, elementType, {cols, rows},
                          MemRefType::get({numElements}, b.getI8Type()));
      SmallVector<int64_t> storedT = storedScaleTShape();
      signature.addBuffer("scale_t", ParamRole::output, scaleElement, storedT,
                          MemRefType::get({storedT[0] * storedT[1]},
                                          storageType(scaleElement)));
    }
    // The data's amax, which the caller rolls into the history.
    if (historyOperand)
      signature.addBuffer("amax", ParamRole::output, f32, scaleShape(),
                          scaleBuffer(f32));
    if (monitor) {
      signature.addBuffer("tile_amax", ParamRole::output, f32, scaleShape(),
                          scaleBuffer(f32));
      signature.addBuffer("counts", ParamRole::output, b.getI64Type(), {2},
                          MemRefType::get({2}, b.getI64Type()));
    }
  }
  // A zero-initialized scratch buffer (the tensorwise kernel's grid-wide
  // amax and arrival counters: 4 x i32), last parameter, of
  // `workspaceWords` i32 declared to fp8-run as i64 (it zero-fills
  // parameters of role "workspace" once; the kernel leaves them zero
  // again).
  Operation *source = op ? op : amaxSource;
  if (!producer)
    signature.bindOperand("input", source->getOpOperand(0));
  if (amaxOnly()) {
    signature.bindResult("amax", source->getResult(0));
  } else {
    if (stochastic)
      signature.bindOperand("seed", *seedOperand);
    if (amaxOperand)
      signature.bindOperand("amax", *amaxOperand);
    if (historyOperand)
      signature.bindOperand("history", *historyOperand);
    signature.bindResult("q", op->getResult(0));
    signature.bindResult("scale", op->getResult(1));
    if (transposed) {
      signature.bindResult("qt", op->getResult(2));
      signature.bindResult("scale_t", op->getResult(3));
    }
    if (historyOperand)
      signature.bindResult("amax", op->getResult(2));
    if (monitor) {
      signature.bindResult("tile_amax", op->getResult(2));
      signature.bindResult("counts", op->getResult(3));
    }
  }
  if (workspace)
    signature.addBuffer("workspace", ParamRole::workspace, b.getI64Type(),
                        {(workspaceWords + 1) / 2},
                        MemRefType::get({workspaceWords}, b.getI32Type()));
  // The counts' own workspace: saturated, flushed, and the ticket that
  // tells the last CTA; left zero like the tensorwise scratch.
  if (monitor)
    signature.addBuffer("monitor_workspace", ParamRole::workspace,
                        b.getI64Type(), {3},
                        MemRefType::get({3}, b.getI64Type()));
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
  SmallVector<int64_t> stored = storedScaleShape();
  int64_t scaleBytes =
      stored[0] * stored[1] * (isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4);
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, elementType, scaling);
  if (stochastic)
    extra.push_back(b.getNamedAttr(
        schema::kRounding, b.getStringAttr(schema::kRoundingStochastic)));
  // The checker recomputes the scales: it needs the margin.
  if (margin != 0)
    extra.push_back(
        b.getNamedAttr(schema::kMargin, b.getI64IntegerAttr(margin)));
  // A fused producer's inputs and kept value replace the input.
  int64_t bytesMoved =
      numElements * (producer ? 1 : inputBytes + 1) + scaleBytes;
  if (producer)
    bytesMoved += producer->bytesMoved();
  if (transposed) {
    SmallVector<int64_t> storedT = storedScaleTShape();
    bytesMoved +=
        numElements + storedT[0] * storedT[1] *
                          (isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4);
  }
  // Every CTA reads the history; one writes the data's amax.
  if (historyOperand)
    bytesMoved +=
        cast<ShapedType>(historyOperand->get().getType()).getNumElements() * 4 +
        4;
  if (monitor) {
    extra.push_back(b.getNamedAttr(schema::kMonitor, b.getBoolAttr(true)));
    bytesMoved += numScales() * 4 + 2 * 8;
  }
  setManifest(b, func, signature, op->getName().getStringRef(), numBlocks,
              kThreadsPerBlock, bytesMoved, extra);
}

gpu::GPUFuncOp QuantizeKernelBuilder::create(StringRef name,
                                             const Target &target,
                                             int64_t numBlocks,
                                             bool workspace) {
  KernelSignature signature = getSignature(workspace);
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifestOf(func, signature, numBlocks);
  if (producer)
    producer->bind(signature, func);
  else
    input = signature.getArgument(func, "input");
  if (signature.has("seed"))
    seed = memref::LoadOp::create(b, signature.getArgument(func, "seed"),
                                  b.index(0));
  if (amaxOnly() || historyOperand)
    amaxOut = signature.getArgument(func, "amax");
  else if (signature.has("amax"))
    givenAmax = signature.getArgument(func, "amax");
  if (historyOperand)
    history = signature.getArgument(func, "history");
  if (!amaxOnly()) {
    data = signature.getArgument(func, "q");
    scales = signature.getArgument(func, "scale");
    if (transposed) {
      dataT = signature.getArgument(func, "qt");
      scalesT = signature.getArgument(func, "scale_t");
    }
  }
  if (workspace)
    scratch = signature.getArgument(func, "workspace");
  if (monitor) {
    tileAmaxOut = signature.getArgument(func, "tile_amax");
    countsOut = signature.getArgument(func, "counts");
    monitorScratch = signature.getArgument(func, "monitor_workspace");
    this->numBlocks = numBlocks;
    counters =
        memref::AllocaOp::create(b, MemRefType::get({2}, b.getI32Type()));
    for (int64_t i = 0; i < 2; ++i)
      memref::StoreOp::create(b, b.i32(0), counters, b.index(i));
  }
  return func;
}

Value QuantizeKernelBuilder::load(Value offset) {
  auto vectorType = VectorType::get({chunk}, inputElement);
  Value loaded =
      producer ? producer->compute(b, offset, chunk)
               : vector::LoadOp::create(b, vectorType, input, offset,
                                        /*nontemporal=*/false, llvm::Align(16))
                     .getResult();
  auto f32Type = VectorType::get({chunk}, b.getF32Type());
  Value values = inputElement.isF32()
                     ? loaded
                     : arith::ExtFOp::create(b, f32Type, loaded).getResult();
  if (!rotation)
    return values;
  // Rotate in registers; then round to the produced type and back, as
  // fp8.hadamard's result is (HadamardKernel.h), so that the bits are the
  // unfused program's. The chunk's segment of its block: chunk mod n/chunk.
  SmallVector<Value> elements;
  for (int64_t i = 0; i < chunk; ++i)
    elements.push_back(vector::ExtractOp::create(b, values, i));
  Value segment = b.remU(b.divU(offset, chunk), rotation->lanesPerBlock());
  rotateInRegisters(b, *rotation, segment, elements);
  if (!inputElement.isF32())
    for (Value &element : elements)
      element = arith::ExtFOp::create(
          b, b.getF32Type(),
          arith::TruncFOp::create(b, inputElement, element).getResult());
  return vector::FromElementsOp::create(b, f32Type, elements);
}

Value QuantizeKernelBuilder::loadScalar(Value offset) {
  Value loaded = producer
                     ? producer->compute(b, offset, 1)
                     : memref::LoadOp::create(b, input, offset).getResult();
  if (inputElement.isF32())
    return loaded;
  return arith::ExtFOp::create(b, b.getF32Type(), loaded);
}

Value kernels::gatherColumnBytes(KernelBuilder &b, Value tile, Value base,
                                 Value firstRow, Value column, int64_t stride) {
  SmallVector<Value> bytes;
  for (int64_t i = 0; i < kChunk; ++i) {
    Value offset = b.add(b.mul(b.add(firstRow, i), stride), column);
    bytes.push_back(
        memref::LoadOp::create(b, tile, base ? b.add(base, offset) : offset));
  }
  return vector::FromElementsOp::create(
      b, VectorType::get({kChunk}, b.getI8Type()), bytes);
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

/// A shared-memory array of the kernel, 16-byte aligned: LLVM reads the
/// partials back with 16-byte vector loads, and a second array of a kernel
/// (the monitored quantize's counts) would otherwise start wherever the
/// first ends (36 bytes in: a misaligned-address fault).
static Value addSharedArray(KernelBuilder &b, gpu::GPUFuncOp func, int64_t size,
                            Type element) {
  Value array = func.addWorkgroupAttribution(b.workgroupMemRef({size}, element),
                                             b.getLoc());
  func.setWorkgroupAttributionAttr(func.getNumWorkgroupAttributions() - 1,
                                   LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  return array;
}

Value QuantizeKernelBuilder::addPartials(gpu::GPUFuncOp func, int64_t extra) {
  return addSharedArray(b, func, kThreadsPerBlock / kWarpSize + extra,
                        b.getF32Type());
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

Value QuantizeKernelBuilder::stochasticByte(Value scaled, Value index) {
  return buildStochasticByte(b, seed, index, scaled, elementType);
}

void QuantizeKernelBuilder::quantizeAndStore(Value values, Value quantScale,
                                             Value offset) {
  SmallVector<Value> elements, scaled;
  for (int64_t i = 0; i < chunk; ++i) {
    elements.push_back(vector::ExtractOp::create(b, values, i));
    scaled.push_back(b.mulF(elements.back(), quantScale));
  }
  storeScaled(elements, scaled, offset);
}

void QuantizeKernelBuilder::storeScaled(ArrayRef<Value> values,
                                        ArrayRef<Value> scaled, Value offset) {
  int64_t width = scaled.size();
  Value bytes;
  if (!stochastic) {
    bytes = convertToBytes(b, scaled, elementType);
  } else {
    bytes =
        buildStochasticBytes(b, seed, offset, scaled, elementType, rows * cols);
  }
  vector::StoreOp::create(b, bytes, data, offset,
                          /*nontemporal=*/false,
                          llvm::Align(std::min<int64_t>(width, 16)));
  if (monitor)
    count(values, scaled, bytes);
}

void QuantizeKernelBuilder::count(ArrayRef<Value> values,
                                  ArrayRef<Value> scaled, Value bytes) {
  FP8Format format = getFP8Format(elementType);
  Value threshold = b.f32(format.saturationThreshold());
  arith::CmpFPredicate above = format.tieSaturates()
                                   ? arith::CmpFPredicate::OGE
                                   : arith::CmpFPredicate::OGT;
  Value saturated = b.i32(0), flushed = b.i32(0);
  for (auto [i, x] : llvm::enumerate(values)) {
    // Ordered compares: a NaN neither saturates nor flushes.
    Value isSaturated =
        arith::CmpFOp::create(b, above, b.absF(scaled[i]), threshold);
    Value code = vector::ExtractOp::create(b, bytes, int64_t(i));
    Value isZero = b.eq(b.andI(code, 0x7F), 0);
    Value isNonzero =
        arith::CmpFOp::create(b, arith::CmpFPredicate::ONE, x, b.f32(0.0));
    saturated = b.add(saturated,
                      arith::ExtUIOp::create(b, b.getI32Type(), isSaturated));
    flushed = b.add(flushed, arith::ExtUIOp::create(b, b.getI32Type(),
                                                    b.andI(isNonzero, isZero)));
  }
  for (auto [slot, value] : llvm::enumerate(ValueRange{saturated, flushed})) {
    Value index = b.index(slot);
    Value total = memref::LoadOp::create(b, counters, index);
    memref::StoreOp::create(b, b.add(total, value), counters, index);
  }
}

gpu::GPUModuleOp QuantizeKernelBuilder::finish(gpu::GPUFuncOp func) {
  if (!monitor)
    return finishKernel(b, func);
  b.setInsertionPointToEnd(&func.getBody().front());
  constexpr int64_t numWarps = kThreadsPerBlock / kWarpSize;
  Value partials = addSharedArray(b, func, 2 * numWarps, b.getI32Type());
  Value thread = b.threadIdX();
  Value warp = b.divU(thread, kWarpSize);
  Value isLaneZero = b.eq(b.remU(thread, kWarpSize), 0);
  SmallVector<Value> sums;
  for (int64_t slot = 0; slot < 2; ++slot) {
    Value value = memref::LoadOp::create(b, counters, b.index(slot));
    for (int64_t stride = kWarpSize / 2; stride >= 1; stride /= 2)
      value = b.add(value, gpu::ShuffleOp::create(b, value, stride, kWarpSize,
                                                  gpu::ShuffleMode::XOR)
                               .getShuffleResult());
    sums.push_back(value);
  }
  auto ifLane = scf::IfOp::create(b, isLaneZero, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifLane.thenBlock());
  for (int64_t slot = 0; slot < 2; ++slot)
    memref::StoreOp::create(b, sums[slot], partials,
                            b.add(warp, slot * numWarps));
  b.setInsertionPointAfter(ifLane);
  gpu::BarrierOp::create(b);
  auto ifLeader = scf::IfOp::create(b, b.eq(thread, 0), false);
  b.setInsertionPointToStart(ifLeader.thenBlock());
  auto atomic = [&](arith::AtomicRMWKind kind, Value value, int64_t slot) {
    return memref::AtomicRMWOp::create(b, kind, value, monitorScratch,
                                       ValueRange{b.index(slot)})
        .getResult();
  };
  auto fenceGpu = [&] {
    NVVM::MembarOp::create(b, NVVM::MemScopeKindAttr::get(
                                  b.getContext(), NVVM::MemScopeKind::GPU));
  };
  for (int64_t slot = 0; slot < 2; ++slot) {
    Value total = b.i32(0);
    for (int64_t w = 0; w < numWarps; ++w)
      total = b.add(total, memref::LoadOp::create(
                               b, partials, b.index(slot * numWarps + w)));
    atomic(arith::AtomicRMWKind::addi, b.extUI64(total), slot);
  }
  // The classic last-block reduction: counts before ticket, and the last
  // CTA to take a ticket sees every CTA's counts.
  fenceGpu();
  Value ticket = atomic(arith::AtomicRMWKind::addi, b.i64(1), 2);
  auto ifLast = scf::IfOp::create(b, b.eq(ticket, numBlocks - 1),
                                  /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifLast.thenBlock());
  fenceGpu();
  for (int64_t slot = 0; slot < 2; ++slot) {
    Value total = atomic(arith::AtomicRMWKind::addi, b.i64(0), slot);
    memref::StoreOp::create(b, total, countsOut, b.index(slot));
  }
  // Every launch leaves its workspace zero.
  for (int64_t slot = 0; slot < 3; ++slot)
    atomic(arith::AtomicRMWKind::assign, b.i64(0), slot);
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

template <typename OpTy>
static FailureOr<gpu::GPUModuleOp>
buildQuantizationKernel(OpBuilder &builder, OpTy op, StringRef name,
                        const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (failed(checkStaticMatrix(op, inputType)))
    return failure();
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getScaling().getTile(), op);
  return buildTileKernel(k, op, name, target);
}

FailureOr<gpu::GPUModuleOp> kernels::buildQuantizeKernel(OpBuilder &builder,
                                                         QuantizeOp op,
                                                         StringRef name,
                                                         const Target &target) {
  return buildQuantizationKernel(builder, op, name, target);
}

FailureOr<gpu::GPUModuleOp>
kernels::buildQuantizeMonitoredKernel(OpBuilder &builder,
                                      QuantizeMonitoredOp op, StringRef name,
                                      const Target &target) {
  return buildQuantizationKernel(builder, op, name, target);
}

FailureOr<gpu::GPUModuleOp>
kernels::buildQuantizeElementwiseKernel(OpBuilder &builder,
                                        QuantizeElementwiseOp op,
                                        StringRef name, const Target &target) {
  RankedTensorType producedType = op.getProducedType();
  if (failed(checkStaticMatrix(op, producedType)))
    return failure();
  for (Value input : op.getInputs())
    if (!cast<RankedTensorType>(input.getType()).hasStaticShape())
      return op.emitOpError("convert-fp8-to-nvvm needs static inputs, got ")
             << input.getType();
  FusedProducer producer(op);
  FailureOr<gpu::GPUModuleOp> module = failure();
  if (op.getTranspose()) {
    module = buildCastTransposeOfMatrix(
        builder, op, producedType, op.getQuantized().getType().getElementType(),
        op.getScaling(), op.getMargin(),
        {op.getScaleLayout(), op.getScaleTLayout()}, name, target, &producer);
  } else {
    KernelBuilder b(op.getLoc(), builder);
    QuantizeKernelBuilder k(b, producedType, op.getScaling().getTile(), op);
    if (k.rotation) {
      // Only the row-tile kernel holds a rotation block's elements in
      // consecutive lanes (fp8-fuse-quantization fuses no other).
      int64_t lanesPerTile = k.tileCols / k.chunk;
      int64_t n = k.rotation->size;
      if (k.tileRows != 1 || k.tileCols > 512 || k.tileCols % k.chunk != 0 ||
          k.cols % k.tileCols != 0 || !llvm::isPowerOf2_64(lanesPerTile) ||
          lanesPerTile > kWarpSize || n < k.chunk || n > 256 || k.cols % n != 0)
        return op.emitOpError("convert-fp8-to-nvvm: a rotated quantization "
                              "needs tiles of one row and 16 to 512 columns "
                              "and a rotation of 16 to 256, both dividing "
                              "the row length");
      module = buildRowTileKernel(k, name, target);
    } else {
      module = buildTileKernel(k, op, name, target);
    }
  }
  if (failed(module))
    return failure();
  // The body's math functions (tanh, exp, erf) as arith ops, as in the
  // unfused elementwise kernel: the same approximations, the same bits.
  for (auto func : module->getOps<gpu::GPUFuncOp>())
    if (failed(expandMathFunctions(func)))
      return op.emitOpError("convert-fp8-to-nvvm: cannot expand the body's "
                            "math functions");
  return module;
}

FailureOr<gpu::GPUModuleOp> kernels::buildAmaxKernel(OpBuilder &builder,
                                                     AmaxOp op, StringRef name,
                                                     const Target &target) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  if (failed(checkStaticMatrix(op, inputType)))
    return failure();
  KernelBuilder b(op.getLoc(), builder);
  QuantizeKernelBuilder k(b, inputType, op.getTile().getExtents());
  k.amaxSource = op;
  return buildTileKernel(k, op, name, target);
}
