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
class RewriterBase;
namespace linalg {
class GenericOp;
} // namespace linalg
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

/// Builds an element's f32 term of a row sum from the inputs' elements.
using RowTermBuilder = llvm::function_ref<Value(OpBuilder &, ValueRange)>;

/// `init[i]` plus the sum over j of the terms of row i of a [rows, cols]
/// loop nest, which read `inputs` through `inputMaps`, in the row-sum
/// order (RowSumLowering.cpp). `init` is an f32 vector of `rows`.
Value buildRowSum(OpBuilder &b, Location loc, ValueRange inputs,
                  ArrayRef<AffineMap> inputMaps, Value init, int64_t cols,
                  const RowTermBuilder &term);

/// Replaces row sum `op` (fp8/Dialect/FP8/Utils/RowSum.h) by linalg ops
/// that add its terms in the row-sum order (RowSumLowering.cpp); fails on
/// any other op.
LogicalResult lowerRowSum(RewriterBase &rewriter, linalg::GenericOp op);

/// lowerRowSum on every row sum under `root` (the program's own, before
/// the fp8 ops are lowered: those lowerings fix their sums' orders
/// themselves).
void lowerRowSums(Operation *root);

/// Adds the lowerings of fp8.quantize, dequantize, requantize and amax.
void populateQuantizeLoweringPatterns(RewritePatternSet &patterns);

/// Adds the lowering of fp8.quantize_delayed (through the ops it fuses).
void populateQuantizeDelayedLoweringPatterns(RewritePatternSet &patterns);

/// Adds the lowerings of fp8.scaled_matmul, transpose, tma_align_scales and
/// hadamard.
void populateMatmulLoweringPatterns(RewritePatternSet &patterns);

/// Adds the lowering of fp8.grouped_scaled_matmul (to a loop of
/// fp8.scaled_matmul).
void populateGroupedMatmulLoweringPatterns(RewritePatternSet &patterns);

} // namespace fp8::reference
} // namespace mlir

#endif // FP8_LIB_CONVERSION_FP8TOREFERENCE_REFERENCEUTILS_H
