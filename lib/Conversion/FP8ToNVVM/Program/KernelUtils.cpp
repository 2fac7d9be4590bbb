//===- KernelUtils.cpp - shared pieces of the generated kernels -----------===//
//
// The kernel module, manifest entries and FP8 conversions that every fp8
// kernel builder uses.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "mlir/Dialect/Affine/Utils.h"

#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
namespace schema = mlir::fp8::manifest;

StringRef kernels::dtypeName(Type type) {
  if (type.isBF16())
    return "bf16";
  if (type.isF16())
    return "f16";
  if (type.isF32())
    return "f32";
  if (type.isF64())
    return "f64";
  if (type.isInteger(1))
    return "i1";
  if (type.isInteger(8))
    return "i8";
  if (type.isInteger(32))
    return "i32";
  if (type.isInteger(64))
    return "i64";
  if (isa<Float8E4M3FNType>(type))
    return "f8e4m3";
  if (isa<Float8E5M2Type>(type))
    return "f8e5m2";
  if (isa<Float8E8M0FNUType>(type))
    return "e8m0";
  return "unknown";
}

Type kernels::storageType(Type type) {
  if (isa<Float8E4M3FNType, Float8E5M2Type, Float8E8M0FNUType>(type))
    return IntegerType::get(type.getContext(), 8);
  return type;
}

Value kernels::toScaleStorage(KernelBuilder &b, Value scale) {
  if (isa<Float8E8M0FNUType>(scale.getType()))
    return b.bitcast(b.getI8Type(), scale);
  return scale;
}

gpu::GPUFuncOp kernels::createKernel(KernelBuilder &b, StringRef name,
                                     const Target &target,
                                     const KernelSignature &signature,
                                     int64_t blockSize,
                                     TypeRange workgroupBuffers) {
  MLIRContext *ctx = b.getContext();
  Location loc = b.getLoc();
  SmallVector<Type> arguments = signature.getArgumentTypes();
  auto nvvmTarget =
      NVVM::NVVMTargetAttr::get(ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda",
                                target.getName(), target.getPtxFeatures());
  auto module =
      gpu::GPUModuleOp::create(b, loc, name, ArrayRef<Attribute>{nvvmTarget});
  b.setInsertionPointToStart(module.getBody());
  auto func = gpu::GPUFuncOp::create(
      b, loc, name, b.getFunctionType(arguments, {}), workgroupBuffers);
  func->setAttr(gpu::GPUDialect::getKernelFuncAttrName(), b.getUnitAttr());
  func.setKnownBlockSizeAttr(
      b.getDenseI32ArrayAttr({int32_t(blockSize), 1, 1}));
  b.setInsertionPointToStart(&func.getBody().front());
  return func;
}

Value kernels::globalByteAddress(KernelBuilder &b, Value buffer,
                                 Value byteOffset) {
  Value base = arith::IndexCastOp::create(
      b, b.getI64Type(),
      memref::ExtractAlignedPointerAsIndexOp::create(b, buffer));
  Value global =
      b.castTo(NVVM::NVVMMemorySpace::Global,
               LLVM::IntToPtrOp::create(
                   b, LLVM::LLVMPointerType::get(b.getContext()), base));
  return b.gep(NVVM::NVVMMemorySpace::Global, b.getI8Type(), global,
               arith::IndexCastOp::create(b, b.getI64Type(), byteOffset));
}

gpu::GPUModuleOp kernels::finishKernel(KernelBuilder &b,
                                       gpu::GPUFuncOp kernel) {
  b.setInsertionPointToEnd(&kernel.getBody().front());
  gpu::ReturnOp::create(b);
  return kernel->getParentOfType<gpu::GPUModuleOp>();
}

DictionaryAttr kernels::manifestParam(OpBuilder &b, StringRef name,
                                      StringRef role, StringRef dtype,
                                      ArrayRef<int64_t> shape) {
  return b.getDictionaryAttr(
      {b.getNamedAttr(schema::kName, b.getStringAttr(name)),
       b.getNamedAttr(schema::kRole, b.getStringAttr(role)),
       b.getNamedAttr(schema::kDType, b.getStringAttr(dtype)),
       b.getNamedAttr(schema::kShape, b.getI64ArrayAttr(shape))});
}

DictionaryAttr kernels::manifestScaling(OpBuilder &b, ScalingAttr scaling) {
  SmallVector<int64_t> tile;
  for (int64_t extent : scaling.getTile())
    tile.push_back(ShapedType::isDynamic(extent) ? -1 : extent);
  return b.getDictionaryAttr(
      {b.getNamedAttr(schema::kTile, b.getI64ArrayAttr(tile)),
       b.getNamedAttr(schema::kScale,
                      b.getStringAttr(dtypeName(scaling.getScale()))),
       b.getNamedAttr(schema::kRound, b.getStringAttr(stringifyScaleRound(
                                          scaling.getRound())))});
}

static SmallVector<NamedAttribute>
quantizationEntries(OpBuilder &b, StringRef elementType, ScalingAttr scaling) {
  return {
      b.getNamedAttr(schema::kElementType, b.getStringAttr(elementType)),
      b.getNamedAttr(schema::kScaling, kernels::manifestScaling(b, scaling))};
}

SmallVector<NamedAttribute> kernels::manifestQuantization(OpBuilder &b,
                                                          Type elementType,
                                                          ScalingAttr scaling) {
  return quantizationEntries(b, dtypeName(elementType), scaling);
}

/// The manifest every kernel has (op, launch, params, bytes moved), with
/// `extra` entries replacing defaults of the same name (e.g. shared_bytes).
static void setManifestEntries(OpBuilder &b, gpu::GPUFuncOp kernel,
                               StringRef op, ArrayRef<int64_t> grid,
                               int64_t block, ArrayAttr params,
                               int64_t bytesMoved,
                               ArrayRef<NamedAttribute> extra) {
  NamedAttrList list(ArrayRef<NamedAttribute>{
      b.getNamedAttr(schema::kOp, b.getStringAttr(op)),
      b.getNamedAttr(schema::kGrid, b.getI64ArrayAttr(grid)),
      b.getNamedAttr(schema::kBlock, b.getI64ArrayAttr({block, 1, 1})),
      b.getNamedAttr(schema::kSharedBytes, b.getI64IntegerAttr(0)),
      b.getNamedAttr(schema::kParams, params),
      b.getNamedAttr(schema::kBytesMoved, b.getI64IntegerAttr(bytesMoved))});
  for (NamedAttribute entry : extra)
    list.set(entry.getName(), entry.getValue());
  kernel->setAttr(kManifestAttrName, list.getDictionary(b.getContext()));
}

void kernels::setManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                          const KernelSignature &signature, StringRef op,
                          int64_t numBlocks, int64_t blockSize,
                          int64_t bytesMoved, ArrayRef<NamedAttribute> extra) {
  setManifestEntries(b, kernel, op, {numBlocks, 1, 1}, blockSize,
                     signature.getManifestParams(b), bytesMoved, extra);
  signature.writeBindings(b);
}

Value kernels::buildActiveThread(KernelBuilder &b, int64_t numThreads) {
  Value thread = b.globalIdX();
  Value active = b.ult(thread, numThreads);
  auto ifActive = scf::IfOp::create(b, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifActive.thenBlock());
  return thread;
}

Value kernels::convertToBytes(KernelBuilder &b, ArrayRef<Value> values,
                              Type elementType) {
  MLIRContext *ctx = b.getContext();
  auto rounding = NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN);
  auto saturation =
      NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE);
  SmallVector<Value> pairs;
  for (size_t i = 0; i < values.size(); i += 2)
    // cvt puts its first operand in the high byte: element i goes low, so
    // the little-endian bytes come out in order.
    pairs.push_back(NVVM::ConvertF32x2ToF8x2Op::create(
        b, b.getI16Type(), values[i + 1], values[i], rounding, saturation,
        b.getBoolAttr(false), TypeAttr::get(elementType)));
  Value packed = vector::FromElementsOp::create(
      b, VectorType::get({int64_t(pairs.size())}, b.getI16Type()), pairs);
  return vector::BitCastOp::create(
      b, VectorType::get({int64_t(values.size())}, b.getI8Type()), packed);
}

SmallVector<Value> kernels::convertFromBytes(KernelBuilder &b, Value bytes,
                                             Type elementType) {
  auto type = cast<VectorType>(bytes.getType());
  int64_t count = type.getNumElements();
  auto halfPair = VectorType::get({2}, b.getF16Type());
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; i += 2) {
    Value pair =
        vector::ShuffleOp::create(b, bytes, bytes, ArrayRef<int64_t>{i, i + 1});
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, halfPair, pair, b.getBoolAttr(false), TypeAttr::get(elementType));
    for (int64_t j = 0; j < 2; ++j) {
      Value half = vector::ExtractOp::create(b, halves, j);
      values.push_back(arith::ExtFOp::create(b, b.getF32Type(), half));
    }
  }
  return values;
}

SmallVector<Value> kernels::delinearize(KernelBuilder &b, Value flat,
                                        ArrayRef<int64_t> shape) {
  SmallVector<Value> indices(shape.size());
  for (int64_t dim = shape.size() - 1; dim >= 0; --dim) {
    indices[dim] = b.remU(flat, shape[dim]);
    flat = b.divU(flat, shape[dim]);
  }
  return indices;
}

Value kernels::linearize(KernelBuilder &b, ArrayRef<Value> indices,
                         ArrayRef<int64_t> shape) {
  Value offset = b.index(0);
  for (auto [index, extent] : llvm::zip(indices, shape))
    offset = b.add(b.mul(offset, extent), index);
  return offset;
}

Value kernels::mapOffset(KernelBuilder &b, AffineMap map,
                         ArrayRef<int64_t> shape, ArrayRef<Value> loopIndices) {
  SmallVector<Value> indices =
      llvm::map_to_vector(map.getResults(), [&](AffineExpr expr) -> Value {
        return affine::expandAffineExpr(b, b.getLoc(), expr, loopIndices, {});
      });
  return linearize(b, indices, shape);
}

LogicalResult kernels::checkStaticScales(Operation *op,
                                         RankedTensorType scaleType,
                                         RankedTensorType resultType) {
  if (!scaleType.hasStaticShape() || !resultType.hasStaticShape() ||
      scaleType.getNumElements() == 0)
    return op->emitOpError("convert-fp8-to-nvvm needs a static, non-empty "
                           "scale matrix, got ")
           << scaleType << " -> " << resultType;
  return success();
}

Value kernels::tcgen05ScaleOffset(KernelBuilder &b, Value row, Value kBlock,
                                  int64_t kBlocks) {
  int64_t kGroups = llvm::divideCeil(kBlocks, kTcgen05ScaleKBlocks);
  Value chunk = b.add(b.mul(b.divU(row, kTcgen05ScaleRows), kGroups),
                      b.divU(kBlock, kTcgen05ScaleKBlocks));
  Value r = b.remU(row, 32);
  Value j = b.divU(b.remU(row, kTcgen05ScaleRows), 32);
  Value c = b.remU(kBlock, kTcgen05ScaleKBlocks);
  return b.add(b.mul(chunk, kTcgen05ScaleChunkBytes),
               b.add(b.add(b.mul(r, 16), b.mul(j, 4)), c));
}

std::pair<Value, Value>
kernels::tcgen05ScalePosition(KernelBuilder &b, Value offset, int64_t kBlocks) {
  int64_t kGroups = llvm::divideCeil(kBlocks, kTcgen05ScaleKBlocks);
  Value chunk = b.divU(offset, kTcgen05ScaleChunkBytes);
  Value byte = b.remU(offset, kTcgen05ScaleChunkBytes);
  Value r = b.divU(byte, 16);
  Value j = b.divU(b.remU(byte, 16), 4);
  Value c = b.remU(byte, 4);
  Value row = b.add(
      b.add(b.mul(b.divU(chunk, kGroups), kTcgen05ScaleRows), b.mul(j, 32)), r);
  Value kBlock = b.add(b.mul(b.remU(chunk, kGroups), kTcgen05ScaleKBlocks), c);
  return {row, kBlock};
}
