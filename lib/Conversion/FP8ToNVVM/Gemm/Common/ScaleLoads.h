//===- ScaleLoads.h - an operand's scales read from global ------*- C++ -*-===//
//
// Loads of single scales from a scale tensor in global memory (L2 resident),
// as f32, indexed as the operand's OperandScaling says: what both chips'
// epilogues and the sm_90a scale reader and producer use.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SCALELOADS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SCALELOADS_H

#include "../../Program/KernelBuilder.h"
#include "OperandScaling.h"

namespace mlir::fp8::kernels::gemm {

/// Element (scaleRow, scaleCol) of `scales` (a global pointer) as f32:
/// scale[scaleRow][scaleCol], or [scaleCol][scaleRow] where `transposed`.
Value loadScaleEntry(KernelBuilder &b, Value scales,
                     const OperandScaling &scaling, Value scaleRow,
                     Value scaleCol);

/// scale[min(row, rows - 1) / rowBlock][kIndex / kBlock] of `scales` (a
/// global pointer) as f32, or its transpose's element where `transposed`.
Value loadOperandScale(KernelBuilder &b, Value scales,
                       const OperandScaling &scaling, Value row, Value kIndex,
                       int64_t rows);

/// A grouped GEMM's scales of one group: `scales` (a global pointer) at
/// element `base`, or `scales` itself where `base` is null (not grouped).
Value groupScales(KernelBuilder &b, Value scales, const OperandScaling &scaling,
                  Value base);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SCALELOADS_H
