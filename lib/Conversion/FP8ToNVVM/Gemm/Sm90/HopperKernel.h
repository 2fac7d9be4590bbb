//===- HopperKernel.h - fp8.scaled_matmul as an sm_90a GEMM -----*- C++ -*-===//
//
// The entry of the sm_90a (TMA + wgmma) GEMM builder; Gemm/GemmKernel.cpp
// dispatches to it for chip=sm_90a after the checks both chips share. The
// grouped and the high-precision GEMMs (OpKernels.h) are sm_90a's too and
// are built in HopperKernel.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERKERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERKERNEL_H

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::fp8::kernels::gemm {

/// Builds the wgmma GEMM kernel of `op` (static rank-2 operands, extents
/// below 2^31) for `target` (sm_90a); fails with a diagnostic at `op`
/// where the kernel cannot take it.
FailureOr<gpu::GPUModuleOp> buildHopperGemmKernel(OpBuilder &builder,
                                                  ScaledMatmulOp op,
                                                  StringRef name,
                                                  const Target &target);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERKERNEL_H
