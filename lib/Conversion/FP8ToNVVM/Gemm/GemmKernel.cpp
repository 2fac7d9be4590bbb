//===- GemmKernel.cpp - fp8.scaled_matmul as a GEMM kernel, by chip -------===//
//
// The entry of the GEMM builders: the checks both chips share (a chip with
// a kernel, static rank-2 operands, extents TMA can address), then the
// chip's kernel, sm_90a's (Sm90/HopperKernel.cpp: TMA and wgmma) or
// sm_100a's (Sm100/Tcgen05Kernel.cpp: TMA and tcgen05). The parts both
// kernels use are in Common/; neither chip's folder includes the other's.
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"

#include "Common/GemmChecks.h"
#include "Sm100/Tcgen05Kernel.h"
#include "Sm90/HopperKernel.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

FailureOr<gpu::GPUModuleOp> kernels::buildGemmKernel(OpBuilder &builder,
                                                     ScaledMatmulOp op,
                                                     StringRef name,
                                                     const Target &target) {
  if (!target.hasGemmKernel()) {
    // Name what the user chose: the function's recipe where the pipeline
    // set one, and the scalings the kernel would have to apply.
    InFlightDiagnostic diag = op.emitOpError("convert-fp8-to-nvvm has no ")
                              << target.getName() << " scaled_matmul kernel";
    if (auto func = op->getParentOfType<FunctionOpInterface>())
      if (Attribute recipe = func->getAttr("fp8.recipe"))
        diag << " for recipe " << recipe;
    diag << " (a_scaling " << op.getAScaling() << ", b_scaling "
         << op.getBScaling() << ") yet; chip=sm_90a and chip=sm_100a have one";
    return diag;
  }
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  if (aType.getRank() != 2 || !aType.hasStaticShape() ||
      !bType.hasStaticShape() ||
      !cast<ShapedType>(op.getAScale().getType()).hasStaticShape() ||
      !cast<ShapedType>(op.getBScale().getType()).hasStaticShape())
    return op.emitOpError("convert-fp8-to-nvvm needs static rank-2 operands "
                          "for a GEMM kernel");
  int64_t aK = op.getContracting()[0], bK = op.getContracting()[1];
  if (failed(checkTmaExtents(op, {{aType.getDimSize(1 - aK), "M"},
                                  {bType.getDimSize(1 - bK), "N"},
                                  {aType.getDimSize(aK), "K"}})))
    return failure();
  if (target.isBlackwell())
    return buildTcgen05GemmKernel(builder, op, name, target);
  return buildHopperGemmKernel(builder, op, name, target);
}
