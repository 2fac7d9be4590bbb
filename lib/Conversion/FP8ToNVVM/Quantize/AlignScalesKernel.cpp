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

#include "../OpKernels.h"

#include "../Program/KernelUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

FailureOr<gpu::GPUModuleOp>
kernels::buildTmaAlignScalesKernel(OpBuilder &builder, TmaAlignScalesOp op,
                                   StringRef name, const Target &target) {
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  if (failed(checkStaticScales(op, scaleType, resultType)))
    return failure();
  KernelBuilder b(op.getLoc(), builder);
  int64_t rows = scaleType.getDimSize(0), cols = scaleType.getDimSize(1);
  int64_t paddedRows = resultType.getDimSize(1);
  int64_t numOutputs = cols * paddedRows;
  Type element = scaleType.getElementType();
  Type storage = storageType(element);
  int64_t elementBytes = element.getIntOrFloatBitWidth() / 8;

  KernelSignature signature;
  signature.addBuffer("scale", ParamRole::input, element, {rows, cols},
                      MemRefType::get({rows * cols}, storage));
  signature.addBuffer("tma_scale", ParamRole::output, element,
                      {cols, paddedRows},
                      MemRefType::get({numOutputs}, storage));
  signature.bindOperand("scale", op->getOpOperand(0));
  signature.bindResult("tma_scale", op->getResult(0));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, "fp8.tma_align_scales",
              llvm::divideCeil(numOutputs, kThreadsPerBlock), kThreadsPerBlock,
              (rows * cols + numOutputs) * elementBytes);
  Value scale = signature.getArgument(func, "scale");
  Value tmaScale = signature.getArgument(func, "tma_scale");

  // Thread t writes out[t / R'][t % R'], i.e. scale[t % R'][t / R'], or zero
  // bits in the padding (where no load is made).
  Value thread = buildActiveThread(b, numOutputs);
  Value col = b.divU(thread, paddedRows);
  Value row = b.remU(thread, paddedRows);
  Value inside = b.ult(row, rows);
  auto ifInside = scf::IfOp::create(b, storage, inside,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard branch(b);
    b.setInsertionPointToStart(ifInside.thenBlock());
    Value index = b.add(b.mul(row, cols), col);
    scf::YieldOp::create(b,
                         ValueRange{memref::LoadOp::create(b, scale, index)});
    b.setInsertionPointToStart(ifInside.elseBlock());
    scf::YieldOp::create(
        b, ValueRange{arith::ConstantOp::create(b, b.getZeroAttr(storage))});
  }
  memref::StoreOp::create(b, ifInside.getResult(0), tmaScale, thread);
  return finishKernel(b, func);
}
