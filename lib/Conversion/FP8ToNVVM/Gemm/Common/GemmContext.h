//===- GemmContext.h - what every part of one GEMM kernel holds -*- C++ -*-===//
//
// The builder, the chip's configuration, the problem, the kernel's
// arguments and its shared memory: one struct that a kernel's entry fills
// once and each of its parts (pipeline, main loop, scale reader, epilogue)
// derives from, instead of each part repeating five members.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMCONTEXT_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMCONTEXT_H

#include "../../Program/KernelBuilder.h"
#include "GemmProblem.h"
#include "SharedMemory.h"

namespace mlir::fp8::kernels::gemm {

/// One kernel's context; `Config` is the chip's configuration
/// (HopperGemmConfig, Tcgen05GemmConfig).
template <typename Config> struct GemmContext {
  KernelBuilder &b;
  const Config &config;
  const GemmProblem &problem;
  const GemmArguments &args;
  SharedMemory smem;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMCONTEXT_H
