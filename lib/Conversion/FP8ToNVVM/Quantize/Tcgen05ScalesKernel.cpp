//===- Tcgen05ScalesKernel.cpp - fp8.tcgen05_scales as a GPU kernel -------===//
//
// sm_100a's scale-factor layout of a row-major [R, Kb] E8M0 matrix: 512-byte
// chunks of 128 rows x 4 K-blocks, row-block major, row 32 j + r and K-block
// c of a chunk at byte 16 r + 4 j + c (the CPU reference's definition,
// fp8.tcgen05_scales). One thread per output byte: consecutive threads write
// consecutive bytes (coalesced stores, the padding included) and read bytes
// of four rows, which the L2 serves. Scales are 1/32 of the data they scale,
// so a simple kernel is enough.
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
kernels::buildTcgen05ScalesKernel(OpBuilder &builder, Tcgen05ScalesOp op,
                                  StringRef name, const Target &target) {
  auto scaleType = cast<RankedTensorType>(op.getScale().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  if (failed(checkStaticScales(op, scaleType, resultType)))
    return failure();
  KernelBuilder b(op.getLoc(), builder);
  int64_t rows = scaleType.getDimSize(0), kBlocks = scaleType.getDimSize(1);
  int64_t chunks = resultType.getDimSize(0);
  int64_t numOutputs = chunks * kTcgen05ScaleChunkBytes;
  Type element = scaleType.getElementType();
  Type storage = storageType(element);

  KernelSignature signature;
  signature.addBuffer("scale", ParamRole::input, element, {rows, kBlocks},
                      MemRefType::get({rows * kBlocks}, storage));
  signature.addBuffer("tcgen05_scale", ParamRole::output, element,
                      {chunks, kTcgen05ScaleChunkBytes},
                      MemRefType::get({numOutputs}, storage));
  signature.bindOperand("scale", op->getOpOperand(0));
  signature.bindResult("tcgen05_scale", op->getResult(0));
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, "fp8.tcgen05_scales",
              llvm::divideCeil(numOutputs, kThreadsPerBlock), kThreadsPerBlock,
              rows * kBlocks + numOutputs);
  Value scale = signature.getArgument(func, "scale");
  Value out = signature.getArgument(func, "tcgen05_scale");

  // Thread t writes byte t: scale[row][kBlock] (tcgen05ScalePosition), or
  // code 0 past the matrix (where no load is made).
  Value thread = buildActiveThread(b, numOutputs);
  auto [row, kBlock] = tcgen05ScalePosition(b, thread, kBlocks);
  Value inside =
      arith::AndIOp::create(b, b.ult(row, rows), b.ult(kBlock, kBlocks));
  auto ifInside = scf::IfOp::create(b, storage, inside,
                                    /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard branch(b);
    b.setInsertionPointToStart(ifInside.thenBlock());
    Value index = b.add(b.mul(row, kBlocks), kBlock);
    scf::YieldOp::create(b,
                         ValueRange{memref::LoadOp::create(b, scale, index)});
    b.setInsertionPointToStart(ifInside.elseBlock());
    scf::YieldOp::create(
        b, ValueRange{arith::ConstantOp::create(b, b.getZeroAttr(storage))});
  }
  memref::StoreOp::create(b, ifInside.getResult(0), out, thread);
  return finishKernel(b, func);
}
