//===- OpVerification.h - shared pieces of the op verifiers -----*- C++ -*-===//
//
// Shape checks the fp8 op verifiers share across files: those of FP8Ops.cpp,
// of fp8.quantize_elementwise in QuantizeElementwiseOp.cpp and of
// fp8.grouped_scaled_matmul in GroupedScaledMatmulOp.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_DIALECT_FP8_IR_OPVERIFICATION_H
#define FP8_LIB_DIALECT_FP8_IR_OPVERIFICATION_H

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

namespace mlir::fp8 {

/// Checks the scales a quantization stores in `layout` (`what`_layout):
/// row_major, or col_major_tma as fp8.tma_align_scales makes it, or, where
/// `tcgen05` allows it (an MX quantization's own 1x32 E8M0 scales), the
/// chunks as fp8.tcgen05_scales makes them.
LogicalResult verifyStoredScales(Operation *op, StringRef what, ShapedType data,
                                 ShapedType scale, ScalingAttr scaling,
                                 ScaleLayout layout, bool tcgen05 = false);

/// Checks that `actual` (`what` names it in diagnostics) has the shape of
/// `expected`; dynamic extents are not checked.
LogicalResult verifySameShape(Operation *op, StringRef what,
                              ShapedType expected, ShapedType actual);

/// The shape rules of fp8.scaled_matmul (its verifier), for the types of
/// one matmul: fp8.grouped_scaled_matmul checks each group's with them.
LogicalResult verifyScaledMatmulTypes(Operation *op, ShapedType a,
                                      ShapedType aScale, ShapedType b,
                                      ShapedType bScale, ShapedType result,
                                      ArrayRef<int64_t> contracting,
                                      ScalingAttr aScaling,
                                      ScalingAttr bScaling, ScaleLayout aLayout,
                                      ScaleLayout bLayout);

} // namespace mlir::fp8

#endif // FP8_LIB_DIALECT_FP8_IR_OPVERIFICATION_H
