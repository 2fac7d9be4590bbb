//===- OperandScaling.h - how an operand's scales are indexed - -*- C++ -*-===//
//
// One operand's scales as both chips' GEMM kernels read them: the blocks of
// rows and of K that share a scale, the scale tensor's row stride and
// layout, and the scale format. Each chip's entry fills it from the op
// (Sm90/HopperKernel.cpp, Sm100/Tcgen05Kernel.cpp); plain C++, no IR.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_OPERANDSCALING_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_OPERANDSCALING_H

#include "mlir/IR/BuiltinTypes.h"

#include <cstdint>

namespace mlir::fp8::kernels::gemm {

/// How one operand's scales are indexed: the scale of element (i, k), with i
/// the operand's non-contracted index, is scale[i / rowBlock][k / kBlock]
/// (a dynamic extent: index 0), or scale[k / kBlock][i / rowBlock] where the
/// layout is col_major_tma (`transposed`).
struct OperandScaling {
  int64_t rowBlock;
  int64_t kBlock;
  /// The scale tensor's row stride (its dim 1, padding included).
  int64_t stride;
  bool e8m0;
  bool transposed;
  /// Whether TMA loads this K-block's scales with the tile: scales
  /// hasTmaLoadableScales (GemmShapes.h) accepts, in the
  /// col_major_tma layout (sm_90a only; false on sm_100a).
  bool tmaLoadable;
  bool byTma() const { return transposed && tmaLoadable; }

  bool spansK() const { return ShapedType::isDynamic(kBlock); }
  bool spansRows() const { return ShapedType::isDynamic(rowBlock); }
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_OPERANDSCALING_H
