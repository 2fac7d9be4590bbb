//===- CastTransposeKernel.cpp - fused quantize + transpose kernel --------===//
//
// Wgrad contracts X along its rows, and Hopper's FP8 wgmma wants K-major
// operands, so training needs X quantized twice: 1xc tiles along its rows
// (Fprop) and 1xc tiles along the rows of Xᵀ, stored transposed. Doing both
// from one read of X is the cast-transpose kernel: each CTA stages a 128x128
// tile in shared memory, quantizes its rows on the way in, and its columns
// on the way out. Fused with an elementwise producer
// (fp8.quantize_elementwise with `transpose`), the tile is computed on the
// way in instead of loaded (FusedProducer), 8 values of a row at a time.
//
// What keeps it near copy speed: every load of the tile is in flight before
// the first store; the tile is swizzled rather than padded (no bank
// conflicts, 32 KB: 4 CTAs an SM at 64 registers); the column pass reads
// column pairs and stores 16 bytes a lane, 8 lanes a full 128-byte row of
// qt; amaxes are taken in the input type on packed pairs; and a thread
// derives one row's and one column's scales per column half, not one per
// row it touches (each f32 scale is two IEEE divisions), handing them to
// the lanes that need them by shuffle.
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"

#include "../Program/KernelUtils.h"
#include "QuantizeKernel.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/CastTransposeShapes.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

static constexpr int64_t kTile = kCastTransposeTile;
// The staged tile is unpadded and swizzled by 16-byte chunks: chunk c of
// row r sits at chunk c ^ ((r / 16) % 8). The row pass's 16-byte stores (8
// lanes of one row) and the column pass's 4-byte reads (lanes of 8 row
// blocks, 16 rows apart) then each touch all 32 banks once.
static constexpr int64_t kChunkElements = 8;
// The column pass: a thread holds 16 rows of two columns, 8 lanes cover the
// tile's 128 rows of them, and a warp instruction stores four full 128-byte
// rows of qt.
static constexpr int64_t kColumnRows = 16;

// Fused with a producer, the body's instructions dominate the kernel, and
// what paid is occupancy (more warps to issue them from). A thread keeps the
// inputs of as many of its rows in flight as take 32 registers (all 8 rows of
// one bf16 input, 4 of two), and the kernel asks for 4 CTAs an SM
// (.minnctapersm: at most 64 registers; the 32 KB tile allows 7). H100,
// 8192x14336 (bench/results/ 2026-11-26-h100-fused-transposing.md): GELU 48% ->
// 73% of copy, GELU' 63% -> 77%; all inputs in flight (104 registers, 2 CTAs)
// gave GELU' 78% but SwiGLU 70%; 16 registers of inputs lost 5 points on GELU.
static constexpr int64_t kProducerInFlightWords = 32;
static constexpr int64_t kProducerBlocksPerSM = 4;

/// The column in the swizzled tile of element `chunk * 8 + offset` of row
/// block `rowBlock` (row / 16).
static Value swizzledColumn(KernelBuilder &b, Value chunk, Value rowBlock,
                            Value offset) {
  Value physical = b.xorI(chunk, b.remU(rowBlock, 8));
  return b.add(b.mul(physical, kChunkElements), offset);
}

// The tile's global traffic is streamed: the input is read once through
// the read-only path without allocating in L1, and q and qt are stored with
// the evict-first hint (st.global.cs), neither of which MLIR's loads and
// stores can say. Measured on the H200: 83.4% -> 85.3% of copy at 8192²;
// the column-tile and tensorwise kernels lost with the same hints.

/// Inline PTX with side effects, so that it keeps its place among the
/// kernel's loads and stores.
static LLVM::InlineAsmOp inlinePtx(KernelBuilder &b, Type result,
                                   ValueRange operands, StringRef ptx,
                                   StringRef constraints) {
  return LLVM::InlineAsmOp::create(
      b, result, operands, b.getStringAttr(ptx), b.getStringAttr(constraints),
      /*has_side_effects=*/b.getUnitAttr(), /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(b.getContext(), LLVM::TailCallKind::None),
      /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
}

/// 16 bytes of `input` (elements of `type`) at element `offset`, streamed.
static Value streamLoad(KernelBuilder &b, VectorType type, Value input,
                        Value offset) {
  Type i32 = b.getI32Type();
  int64_t elementBytes = type.getElementTypeBitWidth() / 8;
  Value address = globalByteAddress(b, input, b.mul(offset, elementBytes));
  auto words =
      LLVM::LLVMStructType::getLiteral(b.getContext(), {i32, i32, i32, i32});
  Value loaded =
      inlinePtx(b, words, address,
                "ld.global.nc.L1::no_allocate.v4.b32 {$0, $1, $2, $3}, [$4];",
                "=r,=r,=r,=r,l")
          .getResult(0);
  SmallVector<Value> elements;
  for (int64_t i = 0; i < 4; ++i)
    elements.push_back(LLVM::ExtractValueOp::create(b, loaded, i));
  Value vector =
      vector::FromElementsOp::create(b, VectorType::get({4}, i32), elements);
  return vector::BitCastOp::create(b, type, vector);
}

/// Stores the 8 or 16 bytes `bytes` at byte `offset` of `buffer`, streamed.
static void streamStore(KernelBuilder &b, Value bytes, Value buffer,
                        Value offset) {
  int64_t numWords = cast<VectorType>(bytes.getType()).getNumElements() / 4;
  Value words = vector::BitCastOp::create(
      b, VectorType::get({numWords}, b.getI32Type()), bytes);
  SmallVector<Value> operands = {globalByteAddress(b, buffer, offset)};
  for (int64_t i = 0; i < numWords; ++i)
    operands.push_back(vector::ExtractOp::create(b, words, i));
  StringRef ptx = numWords == 4 ? "st.global.cs.v4.b32 [$0], {$1, $2, $3, $4};"
                                : "st.global.cs.v2.b32 [$0], {$1, $2};";
  StringRef constraints = numWords == 4 ? "l,r,r,r,r" : "l,r,r";
  inlinePtx(b, Type(), operands, ptx, constraints);
}

FailureOr<gpu::GPUModuleOp>
kernels::buildCastTransposeKernel(OpBuilder &builder, QuantizeTransposeOp op,
                                  StringRef name, const Target &target) {
  // One scale: its own kernel (the tensorwise kernel's two passes); a
  // scale per row and per column: the rowwise kernel's two passes.
  ArrayRef<int64_t> tile = op.getScaling().getTile();
  if (llvm::all_of(tile, ShapedType::isDynamic))
    return buildTensorwiseCastTransposeKernel(builder, op, name, target);
  if (tile[0] == 1 && ShapedType::isDynamic(tile[1]))
    return buildRowwiseCastTransposeKernel(builder, op, name, target);
  // Square tiles: the transpose is exact, a CTA per tile.
  if (tile[0] == tile[1])
    return buildBlockCastTransposeKernel(builder, op, name, target);
  return buildCastTransposeOfMatrix(
      builder, op, cast<RankedTensorType>(op.getInput().getType()),
      op.getResult().getType().getElementType(), op.getScaling(),
      op.getMargin(), {op.getScaleLayout(), op.getScaleTLayout()}, name, target,
      /*producer=*/nullptr);
}

FailureOr<gpu::GPUModuleOp> kernels::buildCastTransposeOfMatrix(
    OpBuilder &builder, Operation *op, RankedTensorType inputType,
    Type elementType, ScalingAttr scaling, int64_t margin,
    std::array<ScaleLayout, 2> layouts, StringRef name, const Target &target,
    FusedProducer *producer) {
  int64_t rows = inputType.getDimSize(0), cols = inputType.getDimSize(1);
  Type inputElement = inputType.getElementType();
  if (!fitsCastTranspose(inputType, scaling))
    return op->emitOpError("convert-fp8-to-nvvm: the cast-transpose kernel "
                           "needs a 16-bit input with both dims multiples of "
                           "128 and 1x128 tiles, got ")
           << inputType << " and tile " << formatTile(scaling.getTile());

  // Line info points at the first of the fused ops (X's quantization).
  Location loc = op->getLoc();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    loc = fused.getLocations().front();
  KernelBuilder b(loc, builder);
  Type f32 = b.getF32Type();
  Type scaleElement = scaling.getScale();
  Type scaleStorage = storageType(scaleElement);
  int64_t tileRows = rows / kTile, tileCols = cols / kTile;

  KernelSignature signature;
  if (producer)
    producer->declare(signature);
  else
    signature.addBuffer("input", ParamRole::input, inputElement, {rows, cols},
                        MemRefType::get({rows * cols}, inputElement));
  signature.addBuffer("q", ParamRole::output, elementType, {rows, cols},
                      MemRefType::get({rows * cols}, b.getI8Type()));
  // col_major_tma scales are the row-major ones transposed; the dims are
  // multiples of 128, so their rows need no padding.
  bool tmaScales = layouts[0] == ScaleLayout::col_major_tma;
  bool tmaScalesT = layouts[1] == ScaleLayout::col_major_tma;
  signature.addBuffer("scale", ParamRole::output, scaleElement,
                      tmaScales ? SmallVector<int64_t>{tileCols, rows}
                                : SmallVector<int64_t>{rows, tileCols},
                      MemRefType::get({rows * tileCols}, scaleStorage));
  signature.addBuffer("qt", ParamRole::output, elementType, {cols, rows},
                      MemRefType::get({rows * cols}, b.getI8Type()));
  signature.addBuffer("scale_t", ParamRole::output, scaleElement,
                      tmaScalesT ? SmallVector<int64_t>{tileRows, cols}
                                 : SmallVector<int64_t>{cols, tileRows},
                      MemRefType::get({cols * tileRows}, scaleStorage));
  if (!producer)
    signature.bindOperand("input", op->getOpOperand(0));
  signature.bindResult("q", op->getResult(0));
  signature.bindResult("scale", op->getResult(1));
  signature.bindResult("qt", op->getResult(2));
  signature.bindResult("scale_t", op->getResult(3));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock,
                   {b.workgroupMemRef({kTile, kTile}, inputElement)});
  if (producer)
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(kProducerBlocksPerSM));
  // The staged tile takes 16-byte vector stores.
  func.setWorkgroupAttributionAttr(0, LLVM::LLVMDialect::getAlignAttrName(),
                                   b.getI64IntegerAttr(16));
  int64_t scaleBytes = isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4;
  // The input (or the producer's inputs and kept value), both FP8 copies
  // and the scales.
  int64_t bytesMoved = rows * cols * 2 +
                       (rows * tileCols + cols * tileRows) * scaleBytes +
                       (producer ? producer->bytesMoved() : rows * cols * 2);
  SmallVector<NamedAttribute> extra =
      manifestQuantization(b, elementType, scaling);
  // The checker recomputes the scales: it needs the margin.
  if (margin != 0)
    extra.push_back(
        b.getNamedAttr(manifest::kMargin, b.getI64IntegerAttr(margin)));
  setManifest(b, func, signature,
              producer ? "fp8.quantize_elementwise+transpose"
                       : "fp8.quantize+transpose",
              tileRows * tileCols, kThreadsPerBlock, bytesMoved, extra);

  Value input;
  if (producer)
    producer->bind(signature, func);
  else
    input = signature.getArgument(func, "input");
  Value q = signature.getArgument(func, "q");
  Value scale = signature.getArgument(func, "scale");
  Value qt = signature.getArgument(func, "qt");
  Value scaleT = signature.getArgument(func, "scale_t");
  Value tile = func.getWorkgroupAttributions()[0];
  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value tileRow = b.divU(block, tileCols);
  Value tileCol = b.remU(block, tileCols);
  Value rowBase = b.mul(tileRow, kTile);
  Value colBase = b.mul(tileCol, kTile);

  // Row pass: a warp covers two rows per step (16 lanes x 8 elements each).
  // Every load is issued before the first store: the stores to q could
  // alias the input for all the compiler knows, so it would not hoist a
  // later step's load above them, and each step would wait for memory.
  Value warp = b.divU(thread, kWarpSize);
  Value lane = b.remU(thread, kWarpSize);
  Value rowInPair = b.divU(lane, 16);
  Value chunk = b.remU(lane, 16);
  Value segment = b.mul(chunk, kChunkElements);
  auto vec8 = VectorType::get({kChunkElements}, inputElement);
  auto vec8f = VectorType::get({kChunkElements}, f32);
  constexpr int64_t rowSteps = kTile / (2 * kThreadsPerBlock / kWarpSize);
  // Step s's rows lie 2 s rows below step 0's: its offsets are step 0's
  // plus a constant, so that the eight addresses are one register and
  // immediates (computed per step, 16384x7168 took 80 registers, not 64).
  Value firstStepRow = b.add(b.mul(warp, 16), rowInPair);
  Value firstOffset =
      b.add(b.mul(b.add(rowBase, firstStepRow), cols), b.add(colBase, segment));
  SmallVector<Value> rowsOf, offsets;
  for (int64_t step = 0; step < rowSteps; ++step) {
    rowsOf.push_back(b.add(firstStepRow, 2 * step));
    offsets.push_back(b.add(firstOffset, 2 * step * cols));
  }
  // Where a step's 8 values sit in the tile.
  auto staged = [&](int64_t step) -> SmallVector<Value, 2> {
    Value row = rowsOf[step];
    return {row,
            swizzledColumn(b, chunk, b.divU(row, kColumnRows), b.index(0))};
  };
  // Stages a step's 8 values in the tile and takes its row's amax: max |x|
  // in the input type (exact, and half the instructions of f32 on packed
  // pairs), then across its 16 lanes.
  SmallVector<Value> rowAmax;
  auto stage = [&](int64_t step, Value values) {
    vector::StoreOp::create(b, values, tile, staged(step), false,
                            llvm::Align(16));
    Value amax = arith::ExtFOp::create(
        b, f32,
        vector::ReductionOp::create(b, vector::CombiningKind::MAXIMUMF,
                                    b.absF(values))
            .getResult());
    for (int64_t stride = 8; stride >= 1; stride /= 2)
      amax = b.maxF(amax, gpu::ShuffleOp::create(b, amax, stride, kWarpSize,
                                                 gpu::ShuffleMode::XOR)
                              .getShuffleResult());
    rowAmax.push_back(amax);
  };
  // The plain kernel quantizes the rows from the registers it loaded them
  // into.
  SmallVector<Value> loads;
  if (!producer) {
    for (int64_t step = 0; step < rowSteps; ++step)
      loads.push_back(streamLoad(b, vec8, input, offsets[step]));
    for (int64_t step = 0; step < rowSteps; ++step)
      stage(step, loads[step]);
  } else {
    // The producer's body (a tanh or exp expansion and a division an
    // element) is long: it runs a step at a time, each step's result
    // staged at once and re-read from the tile to be quantized, so that
    // only the inputs in flight and one step's temporaries are live, never
    // a thread's whole slice of the tile (ptxas interleaved the bodies of
    // a slice kept in registers: 112-128 registers, 2 CTAs an SM; now 64).
    // The inputs of `lookahead` steps stay in flight ahead of the body.
    int64_t lookahead = std::clamp<int64_t>(
        kProducerInFlightWords / producer->loadedWords(kChunkElements), 1,
        rowSteps);
    SmallVector<FusedProducer::Inputs> inputs(rowSteps);
    auto issue = [&](int64_t step) {
      inputs[step] =
          producer->load(b, offsets[step], kChunkElements, streamLoad);
    };
    for (int64_t step = 0; step < lookahead; ++step)
      issue(step);
    for (int64_t step = 0; step < rowSteps; ++step) {
      Value produced =
          producer->apply(b, inputs[step], offsets[step], kChunkElements);
      if (step + lookahead < rowSteps)
        issue(step + lookahead);
      stage(step, produced);
    }
  }
  // Lane j of a row's 16 derives the scales of step j % 8 (once a thread,
  // not once a step: IEEE divisions are the row pass's costliest
  // instructions) and stores that row's scale; the steps then take their
  // quantization scale from it.
  Value pick = b.remU(chunk, rowSteps);
  Value pickedAmax = rowAmax[0];
  for (int64_t step = 1; step < rowSteps; ++step)
    pickedAmax =
        arith::SelectOp::create(b, b.eq(pick, step), rowAmax[step], pickedAmax);
  TileScales rowScales =
      buildTileScales(b, b.getLoc(), pickedAmax, elementType, scaling, margin);
  {
    OpBuilder::InsertionGuard guard(b);
    auto ifFirst = scf::IfOp::create(b, b.ult(chunk, rowSteps), false);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    Value row = b.add(b.add(b.mul(warp, 16), b.mul(pick, 2)), rowInPair);
    Value globalRow = b.add(rowBase, row);
    Value scaleIndex = tmaScales ? b.add(b.mul(tileCol, rows), globalRow)
                                 : b.add(b.mul(globalRow, tileCols), tileCol);
    memref::StoreOp::create(b, toScaleStorage(b, rowScales.storedScale), scale,
                            scaleIndex);
  }
  Value rowLane0 = b.toI32(b.mul(rowInPair, 16));
  for (int64_t step = 0; step < rowSteps; ++step) {
    Value quantScale =
        gpu::ShuffleOp::create(b, rowScales.quantScale,
                               b.add(rowLane0, b.i32(step)), b.i32(kWarpSize),
                               gpu::ShuffleMode::IDX)
            .getShuffleResult();
    // A thread re-reads only what it staged itself: no barrier needed.
    Value loaded = producer
                       ? vector::LoadOp::create(b, vec8, tile, staged(step),
                                                false, llvm::Align(16))
                             .getResult()
                       : loads[step];
    Value values = arith::ExtFOp::create(b, vec8f, loaded);
    SmallVector<Value> scaled;
    for (int64_t i = 0; i < kChunkElements; ++i)
      scaled.push_back(
          b.mulF(vector::ExtractOp::create(b, values, i), quantScale));
    streamStore(b, convertToBytes(b, scaled, elementType), q, offsets[step]);
  }
  gpu::BarrierOp::create(b);

  // Column pass, in two halves of 64 columns: lane l of warp w holds
  // columns 2p and 2p + 1 (p = 32 half + 4 w + l / 8) of rows 16 k ..
  // 16 k + 15 (k = l % 8), read as pairs; the 8 lanes of a column pair
  // reduce its amax with shuffles, lanes k = 0 and 1 derive its columns'
  // scales, and each lane stores 16 bytes of each column of qt.
  Value rowBlock = b.remU(lane, 8);
  Value pairInWarp = b.divU(lane, 8);
  Value firstRow = b.mul(rowBlock, kColumnRows);
  Value pairLane0 = b.toI32(b.mul(pairInWarp, 8));
  auto vec2 = VectorType::get({2}, inputElement);
  Value zero2 = arith::ConstantOp::create(b, b.getZeroAttr(vec2));
  for (int64_t half = 0; half < 2; ++half) {
    Value pair = b.add(b.add(b.mul(warp, 4), pairInWarp), half * 32);
    Value column =
        swizzledColumn(b, b.divU(pair, 4), rowBlock, b.mul(b.remU(pair, 4), 2));
    SmallVector<Value> pairs;
    Value pairAmax = zero2;
    for (int64_t i = 0; i < kColumnRows; ++i) {
      pairs.push_back(vector::LoadOp::create(
          b, vec2, tile, ValueRange{b.add(firstRow, i), column}));
      pairAmax = b.maxF(pairAmax, b.absF(pairs.back()));
    }
    std::array<Value, 2> amax;
    for (int64_t j = 0; j < 2; ++j) {
      amax[j] = arith::ExtFOp::create(
          b, f32, vector::ExtractOp::create(b, pairAmax, j).getResult());
      for (int64_t stride = 4; stride >= 1; stride /= 2)
        amax[j] = b.maxF(amax[j],
                         gpu::ShuffleOp::create(b, amax[j], stride, kWarpSize,
                                                gpu::ShuffleMode::XOR)
                             .getShuffleResult());
    }
    Value mine = b.remU(rowBlock, 2);
    TileScales scales = buildTileScales(
        b, b.getLoc(),
        arith::SelectOp::create(b, b.eq(mine, 1), amax[1], amax[0]),
        elementType, scaling, margin);
    {
      OpBuilder::InsertionGuard guard(b);
      auto ifFirst = scf::IfOp::create(b, b.ult(rowBlock, 2), false);
      b.setInsertionPointToStart(ifFirst.thenBlock());
      Value globalCol = b.add(colBase, b.add(b.mul(pair, 2), mine));
      Value scaleIndex = tmaScalesT
                             ? b.add(b.mul(tileRow, cols), globalCol)
                             : b.add(b.mul(globalCol, tileRows), tileRow);
      memref::StoreOp::create(b, toScaleStorage(b, scales.storedScale), scaleT,
                              scaleIndex);
    }
    for (int64_t j = 0; j < 2; ++j) {
      Value quantScale = gpu::ShuffleOp::create(
                             b, scales.quantScale, b.add(pairLane0, b.i32(j)),
                             b.i32(kWarpSize), gpu::ShuffleMode::IDX)
                             .getShuffleResult();
      SmallVector<Value> scaled;
      for (Value loaded : pairs)
        scaled.push_back(b.mulF(
            arith::ExtFOp::create(
                b, f32, vector::ExtractOp::create(b, loaded, j).getResult()),
            quantScale));
      Value globalCol = b.add(colBase, b.add(b.mul(pair, 2), j));
      Value offset = b.add(b.mul(globalCol, rows), b.add(rowBase, firstRow));
      streamStore(b, convertToBytes(b, scaled, elementType), qt, offset);
    }
  }
  return finishKernel(b, func);
}
