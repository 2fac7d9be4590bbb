//===- HopperContext.h - the sm_90a GEMM parts' context ------- -*- C++ -*-===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERCONTEXT_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERCONTEXT_H

#include "../Common/GemmContext.h"
#include "HopperGemmConfig.h"

namespace mlir::fp8::kernels::gemm {

using HopperContext = GemmContext<HopperGemmConfig>;

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERCONTEXT_H
