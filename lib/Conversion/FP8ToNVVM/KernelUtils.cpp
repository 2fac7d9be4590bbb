//===- KernelUtils.cpp - shared pieces of the generated kernels -----------===//
//
// The kernel module, manifest entries and FP8 conversions that every fp8
// kernel builder uses.
//
//===----------------------------------------------------------------------===//

#include "KernelUtils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;

StringRef kernels::dtypeName(Type type) {
  if (type.isBF16())
    return "bf16";
  if (type.isF16())
    return "f16";
  if (type.isF32())
    return "f32";
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

Value kernels::constIndex(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

gpu::GPUFuncOp kernels::createKernel(OpBuilder &b, Location loc, StringRef name,
                                     const Target &target, TypeRange arguments,
                                     int64_t blockSize,
                                     TypeRange workgroupBuffers) {
  MLIRContext *ctx = b.getContext();
  auto nvvmTarget = NVVM::NVVMTargetAttr::get(
      ctx, /*optLevel=*/3, "nvptx64-nvidia-cuda", target.getName(),
      target.getPtxFeatures());
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

DictionaryAttr kernels::manifestParam(OpBuilder &b, StringRef name,
                                      StringRef role, StringRef dtype,
                                      ArrayRef<int64_t> shape) {
  return b.getDictionaryAttr(
      {b.getNamedAttr("name", b.getStringAttr(name)),
       b.getNamedAttr("role", b.getStringAttr(role)),
       b.getNamedAttr("dtype", b.getStringAttr(dtype)),
       b.getNamedAttr("shape", b.getI64ArrayAttr(shape))});
}

DictionaryAttr kernels::manifestScaling(OpBuilder &b, ScalingAttr scaling) {
  SmallVector<int64_t> tile;
  for (int64_t extent : scaling.getTile())
    tile.push_back(ShapedType::isDynamic(extent) ? -1 : extent);
  return b.getDictionaryAttr(
      {b.getNamedAttr("tile", b.getI64ArrayAttr(tile)),
       b.getNamedAttr("scale", b.getStringAttr(dtypeName(scaling.getScale()))),
       b.getNamedAttr(
           "round", b.getStringAttr(stringifyScaleRound(scaling.getRound())))});
}

void kernels::setManifest(OpBuilder &b, gpu::GPUFuncOp kernel, StringRef op,
                          ArrayRef<int64_t> grid, int64_t block,
                          ArrayRef<Attribute> params, StringRef elementType,
                          ScalingAttr scaling, int64_t bytesMoved,
                          ArrayRef<NamedAttribute> extra) {
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("op", b.getStringAttr(op)),
      b.getNamedAttr("grid", b.getI64ArrayAttr(grid)),
      b.getNamedAttr("block", b.getI64ArrayAttr({block, 1, 1})),
      b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(0)),
      b.getNamedAttr("params", b.getArrayAttr(params)),
      b.getNamedAttr("element_type", b.getStringAttr(elementType)),
      b.getNamedAttr("scaling", manifestScaling(b, scaling)),
      b.getNamedAttr("bytes_moved", b.getI64IntegerAttr(bytesMoved))};
  // An extra entry replaces a default of the same name (e.g. shared_bytes).
  NamedAttrList list(entries);
  for (NamedAttribute entry : extra)
    list.set(entry.getName(), entry.getValue());
  kernel->setAttr("fp8.manifest", list.getDictionary(b.getContext()));
}

Value kernels::buildActiveThread(OpBuilder &b, Location loc,
                                 int64_t numThreads) {
  Value thread = gpu::GlobalIdOp::create(b, loc, gpu::Dimension::x);
  Value active = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       thread, constIndex(b, loc, numThreads));
  auto ifActive = scf::IfOp::create(b, loc, active, /*withElseRegion=*/false);
  b.setInsertionPointToStart(ifActive.thenBlock());
  return thread;
}

Value kernels::buildAbs(OpBuilder &b, Location loc, Value x) {
  return arith::MaximumFOp::create(b, loc, x, arith::NegFOp::create(b, loc, x));
}

Value kernels::convertToBytes(OpBuilder &b, Location loc,
                              ArrayRef<Value> values, Type elementType) {
  MLIRContext *ctx = b.getContext();
  auto rounding = NVVM::FPRoundingModeAttr::get(ctx, NVVM::FPRoundingMode::RN);
  auto saturation =
      NVVM::SaturationModeAttr::get(ctx, NVVM::SaturationMode::SATFINITE);
  SmallVector<Value> pairs;
  for (size_t i = 0; i < values.size(); i += 2)
    // cvt puts its first operand in the high byte: element i goes low, so
    // the little-endian bytes come out in order.
    pairs.push_back(NVVM::ConvertF32x2ToF8x2Op::create(
        b, loc, b.getI16Type(), values[i + 1], values[i], rounding, saturation,
        b.getBoolAttr(false), TypeAttr::get(elementType)));
  Value packed = vector::FromElementsOp::create(
      b, loc, VectorType::get({int64_t(pairs.size())}, b.getI16Type()), pairs);
  return vector::BitCastOp::create(
      b, loc, VectorType::get({int64_t(values.size())}, b.getI8Type()), packed);
}

SmallVector<Value> kernels::convertFromBytes(OpBuilder &b, Location loc,
                                             Value bytes, Type elementType) {
  auto type = cast<VectorType>(bytes.getType());
  int64_t count = type.getNumElements();
  auto halfPair = VectorType::get({2}, b.getF16Type());
  SmallVector<Value> values;
  for (int64_t i = 0; i < count; i += 2) {
    Value pair = vector::ShuffleOp::create(b, loc, bytes, bytes,
                                           ArrayRef<int64_t>{i, i + 1});
    Value halves = NVVM::ConvertF8x2ToF16x2Op::create(
        b, loc, halfPair, pair, b.getBoolAttr(false),
        TypeAttr::get(elementType));
    for (int64_t j = 0; j < 2; ++j) {
      Value half = vector::ExtractOp::create(b, loc, halves, j);
      values.push_back(arith::ExtFOp::create(b, loc, b.getF32Type(), half));
    }
  }
  return values;
}
