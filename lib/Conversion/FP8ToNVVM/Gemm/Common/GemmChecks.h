//===- GemmChecks.h - limits every GEMM kernel shares -----------*- C++ -*-===//
//
// Checks of an op against what both chips' GEMM kernels can address, with
// the diagnostic at the op.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMCHECKS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMCHECKS_H

#include "mlir/IR/Operation.h"

#include <utility>

namespace mlir::fp8::kernels::gemm {

/// An extent of the problem and what to call it in a diagnostic ("M").
using Extent = std::pair<int64_t, const char *>;

/// TMA coordinates (cp.async.bulk.tensor) and the kernels' tile and K-block
/// indices are signed 32-bit: a larger extent would wrap.
LogicalResult checkTmaExtents(Operation *op, ArrayRef<Extent> extents);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMCHECKS_H
