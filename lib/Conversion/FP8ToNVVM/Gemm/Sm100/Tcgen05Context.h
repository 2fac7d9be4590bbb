//===- Tcgen05Context.h - the sm_100a parts' context ---------- -*- C++ -*-===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05CONTEXT_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05CONTEXT_H

#include "../Common/GemmContext.h"
#include "Tcgen05GemmConfig.h"

namespace mlir::fp8::kernels::gemm {

using Tcgen05Context = GemmContext<Tcgen05GemmConfig>;

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05CONTEXT_H
