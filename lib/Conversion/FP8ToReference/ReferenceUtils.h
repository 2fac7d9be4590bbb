//===- ReferenceUtils.h - shared pieces of the CPU reference -- -*- C++ -*-===//
//
// Tensor builders the lowerings of fp8 ops to the CPU reference share, and
// the pattern sets of QuantizeLowering.cpp and MatmulLowering.cpp, which
// populateFP8ToReferencePatterns combines.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TOREFERENCE_REFERENCEUTILS_H
#define FP8_LIB_CONVERSION_FP8TOREFERENCE_REFERENCEUTILS_H

#include "mlir/Dialect/Utils/StructuredOpsUtils.h"
#include "mlir/IR/Builders.h"

namespace mlir {
class RewritePatternSet;
namespace fp8::reference {

Value emptyTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                  Type elementType);

Value filledTensor(OpBuilder &b, Location loc, ArrayRef<int64_t> shape,
                   Type elementType, Attribute value);

SmallVector<utils::IteratorType> parallelIterators(unsigned count);

/// Pads `input` with `value` at the high end of each dimension to `shape`.
Value padWith(OpBuilder &b, Location loc, Value input, ArrayRef<int64_t> shape,
              Value value);

/// Pads `input` with zeros at the high end of each dimension to `shape`.
Value padWithZeros(OpBuilder &b, Location loc, Value input,
                   ArrayRef<int64_t> shape);

/// Splits dimension `dim` of `input` (of extent q * t) into (q, t).
Value splitDim(OpBuilder &b, Location loc, Value input, unsigned dim,
               int64_t tileExtent);

/// Adds the lowerings of fp8.quantize, dequantize, requantize and amax.
void populateQuantizeLoweringPatterns(RewritePatternSet &patterns);

/// Adds the lowerings of fp8.scaled_matmul, transpose, tma_align_scales and
/// hadamard.
void populateMatmulLoweringPatterns(RewritePatternSet &patterns);

/// Adds the lowering of fp8.grouped_scaled_matmul (to a loop of
/// fp8.scaled_matmul).
void populateGroupedMatmulLoweringPatterns(RewritePatternSet &patterns);

} // namespace fp8::reference
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TOREFERENCE_REFERENCEUTILS_H
