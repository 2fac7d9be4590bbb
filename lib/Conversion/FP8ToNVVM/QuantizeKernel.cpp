//===- QuantizeKernel.cpp - fp8.quantize as a GPU kernel ------------------===//
//
// A single-pass quantization kernel for row tiles [1, c]: every thread loads
// 16 consecutive elements with 16-byte vector loads, the c/16 threads of a
// tile reduce its amax with butterfly shuffles, each computes the tile's
// scales with the CPU reference's arithmetic, converts pairs with
// cvt.rn.satfinite.{e4m3,e5m2}x2.f32 and stores its 16 FP8 bytes at once;
// the first thread of the tile stores the scale. One read of the input and
// one write of the output: the kernel is bound by memory bandwidth.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

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

/// Elements per thread: 16 bytes of FP8 output, one 16-byte store.
static constexpr int64_t kElementsPerThread = 16;
static constexpr int64_t kThreadsPerBlock = 256;
static constexpr int64_t kWarpSize = 32;

/// The manifest's name of an element type.
static StringRef dtypeName(Type type) {
  if (type.isBF16())
    return "bf16";
  if (type.isF16())
    return "f16";
  if (type.isF32())
    return "f32";
  if (isa<Float8E4M3FNType>(type))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(type))
    return "f8e5m2";
  if (isa<Float8E8M0FNUType>(type))
    return "e8m0";
  return "unknown";
}

/// The storage type of a kernel buffer: FP8 and E8M0 travel as bytes.
static Type storageType(Type type) {
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType>(type))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

static Value constIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

FailureOr<gpu::GPUModuleOp> fp8::buildQuantizeKernel(OpBuilder &b,
                                                     QuantizeOp op,
                                                     StringRef name,
                                                     StringRef chip) {
  auto inputType = cast<RankedTensorType>(op.getInput().getType());
  ScalingAttr scaling = op.getScaling();
  if (!inputType.hasStaticShape() || inputType.getRank() != 2)
    return op.emitOpError("convert-fp8-to-nvvm needs a static rank-2 input, "
                          "got ")
           << inputType;
  if (op.getRounding() != Rounding::nearest || op.getAmax())
    return op.emitOpError("convert-fp8-to-nvvm supports round-to-nearest "
                          "with the current amax so far");
  int64_t rows = inputType.getDimSize(0), cols = inputType.getDimSize(1);
  int64_t tileCols = ShapedType::isDynamic(scaling.getTile()[1])
                         ? cols
                         : scaling.getTile()[1];
  int64_t lanesPerTile = tileCols / kElementsPerThread;
  if (scaling.getTile()[0] != 1 || tileCols % kElementsPerThread != 0 ||
      !llvm::isPowerOf2_64(lanesPerTile) || lanesPerTile > kWarpSize ||
      cols % tileCols != 0)
    return op.emitOpError("convert-fp8-to-nvvm supports row tiles [1, c] "
                          "with c a power of two in 16..512 dividing the row "
                          "so far, got tile ")
           << scaling << " on " << inputType;

  MLIRContext *ctx = b.getContext();
  Location loc = op.getLoc();
  Type elementType = op.getResult().getType().getElementType();
  Type inputElement = inputType.getElementType();
  Type scaleElement = scaling.getScale();
  int64_t numElements = rows * cols;
  int64_t tilesPerRow = cols / tileCols;
  int64_t numScales = rows * tilesPerRow;
  int64_t numThreads = numElements / kElementsPerThread;
  int64_t numBlocks = llvm::divideCeil(numThreads, kThreadsPerBlock);

  // The module and its target.
  // PTX 8.0 has the sm_90a FP8 conversions; sm_100a needs PTX 8.8.
  StringRef features = chip.starts_with("sm_10") ? "+ptx88" : "+ptx80";
  auto target = NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3,
                                          "nvptx64-nvidia-cuda", chip,
                                          features);
  auto module = gpu::GPUModuleOp::create(b, loc, name,
                                         ArrayRef<Attribute>{target});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());

  auto inputMemref = MemRefType::get({numElements}, inputElement);
  auto dataMemref = MemRefType::get({numElements}, b.getI8Type());
  auto scaleMemref = MemRefType::get({numScales}, storageType(scaleElement));
  auto func = gpu::GPUFuncOp::create(
      b, loc, name,
      b.getFunctionType({inputMemref, dataMemref, scaleMemref}, {}));
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(kThreadsPerBlock), 1, 1}));

  // The manifest: what a launcher needs to know.
  auto param = [&](StringRef pname, StringRef role, Type type,
                   ArrayRef<int64_t> shape) {
    return b.getDictionaryAttr(
        {b.getNamedAttr("name", b.getStringAttr(pname)),
         b.getNamedAttr("role", b.getStringAttr(role)),
         b.getNamedAttr("dtype", b.getStringAttr(dtypeName(type))),
         b.getNamedAttr("shape", b.getI64ArrayAttr(shape))});
  };
  SmallVector<int64_t> tile = {1, ShapedType::isDynamic(scaling.getTile()[1])
                                      ? -1
                                      : tileCols};
  int64_t scaleBytes =
      numScales * (isa<Float8E8M0FNUType>(scaleElement) ? 1 : 4);
  int64_t bytesMoved =
      numElements * (inputElement.getIntOrFloatBitWidth() / 8 + 1) +
      scaleBytes;
  func->setAttr(
      "fp8.manifest",
      b.getDictionaryAttr({
          b.getNamedAttr("op", b.getStringAttr("fp8.quantize")),
          b.getNamedAttr("grid", b.getI64ArrayAttr({numBlocks, 1, 1})),
          b.getNamedAttr("block", b.getI64ArrayAttr({kThreadsPerBlock, 1, 1})),
          b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(0)),
          b.getNamedAttr(
              "params",
              b.getArrayAttr(
                  {param("input", "input", inputElement, {rows, cols}),
                   param("q", "output", elementType, {rows, cols}),
                   param("scale", "output", scaleElement,
                         {rows, tilesPerRow})})),
          b.getNamedAttr("element_type",
                         b.getStringAttr(dtypeName(elementType))),
          b.getNamedAttr(
              "scaling",
              b.getDictionaryAttr(
                  {b.getNamedAttr("tile", b.getI64ArrayAttr(tile)),
                   b.getNamedAttr("scale",
                                  b.getStringAttr(dtypeName(scaleElement))),
                   b.getNamedAttr("round", b.getStringAttr(stringifyScaleRound(
                                               scaling.getRound())))})),
          b.getNamedAttr("bytes_moved", b.getI64IntegerAttr(bytesMoved)),
      }));

  // The body.
  b.setInsertionPointToStart(&func.getBody().front());
  Value input = func.getArgument(0), data = func.getArgument(1),
        scales = func.getArgument(2);
  Value thread = gpu::GlobalIdOp::create(b, loc, gpu::Dimension::x);
  Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       thread, constIndex(b, loc, numThreads));
  // Inactive threads (past the end, in whole tiles) still join the
  // shuffles, on a clamped index, but store nothing.
  Value safeThread = arith::SelectOp::create(b, loc, active, thread,
                                             constIndex(b, loc, 0));
  Value offset = arith::MulIOp::create(
      b, loc, safeThread, constIndex(b, loc, kElementsPerThread));
  auto vectorType = VectorType::get({kElementsPerThread}, inputElement);
  // Each thread's 16 elements start at a multiple of 16: 16-byte aligned.
  Value loaded = vector::LoadOp::create(b, loc, vectorType, input, offset,
                                        /*nontemporal=*/false, llvm::Align(16));
  auto f32Vector = VectorType::get({kElementsPerThread}, b.getF32Type());
  Value values = inputElement.isF32()
                     ? loaded
                     : arith::ExtFOp::create(b, loc, f32Vector, loaded)
                           .getResult();

  // amax: this thread's 16 elements, then the tile's lanes (NaN-propagating).
  // |x| as max(x, -x): NaN-propagating, and no libdevice call.
  Value magnitudes = arith::MaximumFOp::create(
      b, loc, values, arith::NegFOp::create(b, loc, values));
  Value amax = vector::ReductionOp::create(
      b, loc, vector::CombiningKind::MAXIMUMF, magnitudes);
  for (int64_t stride = lanesPerTile / 2; stride >= 1; stride /= 2) {
    Value other = gpu::ShuffleOp::create(b, loc, amax, stride, kWarpSize,
                                         gpu::ShuffleMode::XOR)
                      .getShuffleResult();
    amax = arith::MaximumFOp::create(b, loc, amax, other);
  }
  TileScales tileScales = buildTileScales(b, loc, amax, elementType, scaling,
                                          op.getMargin());

  // Scale, convert pairs (cvt puts its first operand in the high byte), and
  // store 16 bytes.
  Value scaled = arith::MulFOp::create(
      b, loc, values,
      vector::BroadcastOp::create(b, loc, f32Vector, tileScales.quantScale));
  auto rounding = NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN);
  auto saturation =
      NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE);
  SmallVector<Value> pairs;
  for (int64_t i = 0; i < kElementsPerThread; i += 2) {
    Value lo = vector::ExtractOp::create(b, loc, scaled, i);
    Value hi = vector::ExtractOp::create(b, loc, scaled, i + 1);
    // i16 with element i in the low byte: little-endian bytes i, i + 1.
    pairs.push_back(NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, b.getI16Type(), hi, lo, rounding, saturation,
        b.getBoolAttr(false), TypeAttr::get(elementType)));
  }
  Value packed = vector::FromElementsOp::create(
      b, loc, VectorType::get({kElementsPerThread / 2}, b.getI16Type()),
      pairs);
  Value bytes = vector::BitCastOp::create(
      b, loc, VectorType::get({kElementsPerThread}, b.getI8Type()), packed);
  auto ifActive = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
  {
    OpBuilder::InsertionGuard inner(b);
    b.setInsertionPointToStart(ifActive.thenBlock());
    vector::StoreOp::create(b, loc, bytes, data, offset,
                            /*nontemporal=*/false, llvm::Align(16));
    // The tile's first lane stores its scale.
    Value lane = arith::RemUIOp::create(b, loc, thread,
                                        constIndex(b, loc, lanesPerTile));
    Value first = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, lane,
                                        constIndex(b, loc, 0));
    auto ifFirst = scf::IfOp::create(b, loc, first, false);
    b.setInsertionPointToStart(ifFirst.thenBlock());
    Value tileIndex = arith::DivUIOp::create(
        b, loc, thread, constIndex(b, loc, lanesPerTile));
    Value stored = tileScales.storedScale;
    if (isa<Float8E8M0FNUType>(scaleElement))
      stored = arith::BitcastOp::create(b, loc, b.getI8Type(), stored);
    memref::StoreOp::create(b, loc, stored, scales, tileIndex);
  }
  gpu::ReturnOp::create(b, loc);
  return module;
}
