//===- GemmProblem.h - what every part of the GEMM kernel reads -*- C++ -*-===//
//
// The static facts of one GEMM (its sizes, element types, how each operand
// is scaled, the promotion interval) and the kernel's arguments, each as one
// small struct that the kernel entry fills once and every part reads.
// Nothing here changes after the entry has set it.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMPROBLEM_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMPROBLEM_H

#include "OperandScaling.h"

#include "mlir/IR/Types.h"
#include "mlir/IR/Value.h"

namespace mlir::fp8::kernels::gemm {

/// A grouped GEMM (fp8.grouped_scaled_matmul): C's rows fall into `count`
/// groups whose bounds the kernel reads at run time (group_rows), each
/// multiplied with its own n x k slice of B, which the kernel reads as one
/// (count * n) x k matrix.
struct GemmGroups {
  /// 0: not grouped.
  int64_t count = 0;
  /// Masked layout: group g holds the first group_rows[g] of its `capacity`
  /// rows, A's rows g * capacity onwards; contiguous: rows group_rows[g - 1]
  /// to group_rows[g].
  bool masked = false;
  int64_t capacity = 0;
  /// The elements of b_scale per group, and of a_scale where A's scales
  /// are per group (masked, `*` rows; else 0: A's scales go by its rows).
  int64_t bScalesPerGroup = 0, aScalesPerGroup = 0;
};

/// C (m x n) = A (m x k) * B (n x k)^T with scales.
struct GemmProblem {
  int64_t m = 0, n = 0, k = 0;
  /// K-blocks of the chip's K-block (128 elements on both), the last one
  /// partial where K is not a multiple.
  int64_t numKBlocks = 0;
  /// The K elements accumulated by the tensor cores before promotion to the
  /// f32 sums (the K-block where no scale varies along K); 0 for fast
  /// accumulation (one accumulator over all of K).
  int64_t promotion = 0;
  OperandScaling aScaling{}, bScaling{};
  /// A matmul that the recipe keeps in high precision (bf16 or f16
  /// operands): no scales at all, one f32 accumulator over all of K.
  bool unscaled = false;
  Type aElement, bElement, resultElement;
  /// Whether A (B) is stored K x M (K x N), contracting its rows (sm_100a
  /// reads either major; the sm_90a kernel takes K-major FP8 operands only,
  /// and MN-major ones of 16 bits).
  bool aMnMajor = false, bMnMajor = false;

  /// Grouped GEMMs only: m counts all groups' rows.
  GemmGroups groups;
  bool grouped() const { return groups.count > 0; }
};

/// The kernel's arguments as the kernel body uses them.
struct GemmArguments {
  /// The scales, as global pointers.
  Value aScale, bScale;
  /// C, a generic pointer (the direct stores cast it).
  Value c;
  /// TMA descriptors: A, B, C, and (sm_90a only) the per-row scales in
  /// the col_major_tma layout and A in 64-row boxes for split tiles; null
  /// where the kernel has none.
  Value aMap, bMap, cMap, aScaleMap, bScaleMap, aSplitMap;
  /// A grouped GEMM's group_rows (G i32), as a global pointer; null
  /// otherwise.
  Value groupRows;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMPROBLEM_H
