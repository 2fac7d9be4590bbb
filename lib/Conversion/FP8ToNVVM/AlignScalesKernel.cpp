//===- AlignScalesKernel.cpp - fp8.tma_align_scales as a GPU kernel -------===//
//
// The col_major_tma layout of a scale matrix: out[j][i] = scale[i][j], each
// row of out padded with zero bits to 16 bytes. Scales are 1/128 of the data
// they scale, so one thread per output element is enough: consecutive
// threads write consecutive elements of an output row (coalesced stores, the
// padding included), and read scales a row of the input apart, which the
// L2 serves.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

FailureOr<gpu::GPUModuleOp> fp8::buildTmaAlignScalesKernel(OpBuilder &b,
                                                           TmaAlignScalesOp op,
                                                           StringRef name,
                                                           const Target &target) {
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  if (!scaleType.hasStaticShape() || !resultType.hasStaticShape() ||
      scaleType.getNumElements() == 0)
    return op.emitOpError("convert-fp8-to-nvvm needs a static, non-empty "
                          "scale matrix, got ")
           << scaleType << " -> " << resultType;
  OpBuilder::InsertionGuard guard(b);
  Location loc = op.getLoc();
  int64_t rows = scaleType.getDimSize(0), cols = scaleType.getDimSize(1);
  int64_t paddedRows = resultType.getDimSize(1);
  int64_t numOutputs = cols * paddedRows;
  Type element = scaleType.getElementType();
  Type storage = storageType(element);
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;

  gpu::GPUFuncOp func = createKernel(b, loc, name, target,
                                     {MemRefType::get({rows * cols}, storage),
                                      MemRefType::get({numOutputs}, storage)},
                                     kThreadsPerBlock);
  StringRef dtype = dtypeName(element);
  func->setAttr(
      "fp8.manifest",
      b.getDictionaryAttr(
          {b.getNamedAttr("op", b.getStringAttr("fp8.tma_align_scales")),
           b.getNamedAttr("grid",
                          b.getI64ArrayAttr({int64_t(llvm::divideCeil(
                                                 numOutputs, kThreadsPerBlock)),
                                             1, 1})),
           b.getNamedAttr("block", b.getI64ArrayAttr({kThreadsPerBlock, 1, 1})),
           b.getNamedAttr("shared_bytes", b.getI64IntegerAttr(0)),
           b.getNamedAttr(
               "params",
               b.getArrayAttr(
                   {manifestParam(b, "scale", "input", dtype, {rows, cols}),
                    manifestParam(b, "tma_scale", "output", dtype,
                                  {cols, paddedRows})})),
           b.getNamedAttr("bytes_moved",
                          b.getI64IntegerAttr((rows * cols + numOutputs) *
                                              elementBytes))}));

  // Thread t writes out[t / R'][t % R'], i.e. scale[t % R'][t / R'], or zero
  // bits in the padding (where no load is made).
  Value thread = buildActiveThread(b, loc, numOutputs);
  Value col =
      arith::DivUIOp::create(b, loc, thread, constIndex(b, loc, paddedRows));
  Value row =
      arith::RemUIOp::create(b, loc, thread, constIndex(b, loc, paddedRows));
  Value inside = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, row,
                                       constIndex(b, loc, rows));
  auto ifInside = scf::IfOp::create(b, loc, storage, inside,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard branch(b);
    b.setInsertionPointToStart(ifInside.thenBlock());
    Value index = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, row, constIndex(b, loc, cols)),
        col);
    scf::YieldOp::create(
        b, loc,
        ValueRange{memref::LoadOp::create(b, loc, func.getArgument(0), index)});
    b.setInsertionPointToStart(ifInside.elseBlock());
    scf::YieldOp::create(
        b, loc,
        ValueRange{arith::ConstantOp::create(b, loc, b.getZeroAttr(storage))});
  }
  memref::StoreOp::create(b, loc, ifInside.getResult(0), func.getArgument(1),
                          thread);
  b.setInsertionPointToEnd(&func.getBody().front());
  gpu::ReturnOp::create(b, loc);
  return func->getParentOfType<gpu::GPUModuleOp>();
}
