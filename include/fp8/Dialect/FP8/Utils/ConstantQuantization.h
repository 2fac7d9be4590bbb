//===- ConstantQuantization.h - quantize constants at compile time -*- C++
//-*-===//
//
// The numerics of docs/Design.md §4 evaluated in C++ on constant data, for
// passes that report what a quantization does to known values
// (fp8-convert-scaling measures the error of converting weights between
// scalings).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_UTILS_CONSTANTQUANTIZATION_H
#define FP8_DIALECT_FP8_UTILS_CONSTANTQUANTIZATION_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"

#include <cstdint>
#include <vector>

namespace mlir::fp8 {

/// A row-major matrix (a leading batch is folded into the rows by callers
/// that need one) of f32 values.
struct HostMatrix {
  int64_t rows = 0, cols = 0;
  std::vector<float> values;
};

/// Quantizes `input` to `elementType` with `scaling` (nearest, or stochastic
/// with `seed`) and returns the dequantized values: f32(q) * scale, exactly
/// as fp8.quantize followed by fp8.dequantize to f32 computes them.
HostMatrix quantizeDequantize(const HostMatrix &input, Type elementType,
                              ScalingAttr scaling, bool stochastic,
                              uint64_t seed);

/// Error of `approx` against `exact`.
struct ErrorStats {
  /// max |approx - exact|.
  double maxAbs = 0;
  /// sqrt(sum (approx - exact)^2 / sum exact^2).
  double relativeRms = 0;
};
ErrorStats measureError(const HostMatrix &exact, const HostMatrix &approx);

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_UTILS_CONSTANTQUANTIZATION_H
