//===- Tcgen05Kernel.h - fp8.scaled_matmul as an sm_100a GEMM ---*- C++ -*-===//
//
// The entry of the sm_100a (tcgen05) GEMM builder; Gemm/GemmKernel.cpp
// dispatches to it for chip=sm_100a after the checks both targets share.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05KERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05KERNEL_H

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::fp8::kernels::gemm {

/// Builds the tcgen05 GEMM kernel of `op` (static rank-2 operands, extents
/// below 2^31) for `target` (sm_100a); fails with a diagnostic at `op`
/// where the kernel cannot take it.
FailureOr<gpu::GPUModuleOp> buildTcgen05GemmKernel(OpBuilder &builder,
                                                   ScaledMatmulOp op,
                                                   StringRef name,
                                                   const Target &target);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05KERNEL_H
