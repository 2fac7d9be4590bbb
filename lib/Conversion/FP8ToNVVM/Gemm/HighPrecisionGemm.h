//===- HighPrecisionGemm.h - a matmul the recipe keeps in bf16 --*- C++ -*-===//
//
// The sm_90a GEMM of a `linalg.matmul` that fp8-quantize-matmuls left in high
// precision on purpose (rowwise_gw_hp's Wgrad): bf16 or f16 operands, f32
// accumulation, a bf16 or f32 result. It is the FP8 kernel's pipeline,
// main loop and epilogue (Sm90/HopperKernel.cpp) with 16-bit wgmmas and no
// scales.
// A matmul left unquantized by accident carries no marker and is refused
// where kernels are chosen (FP8ToNVVM.cpp). Its builder is
// buildHighPrecisionGemmKernel (OpKernels.h).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_HIGHPRECISIONGEMM_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_HIGHPRECISIONGEMM_H

#include "mlir/IR/Operation.h"

namespace mlir::fp8 {

/// The unit attribute fp8-quantize-matmuls sets on a matmul that the recipe
/// keeps in high precision (QuantizeMatmuls.cpp spells it too). Not in the
/// fp8 namespace: the dialect's attribute verifier (FP8Dialect.cpp) knows no
/// such name yet.
inline constexpr StringLiteral kHighPrecisionAttrName = "fp8_high_precision";

/// Whether `op` is a matmul that the recipe keeps in high precision.
bool isHighPrecisionGemm(Operation *op);

} // namespace mlir::fp8

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_HIGHPRECISIONGEMM_H
