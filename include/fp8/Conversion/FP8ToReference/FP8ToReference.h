//===- FP8ToReference.h - fp8 to the CPU reference --------------*- C++ -*-===//
//
// Patterns lowering fp8 ops to linalg/tensor/arith, and the pipeline that
// runs the result on the CPU.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_CONVERSION_FP8TOREFERENCE_FP8TOREFERENCE_H
#define FP8_CONVERSION_FP8TOREFERENCE_FP8TOREFERENCE_H

namespace mlir {
class RewritePatternSet;
namespace fp8 {

/// Adds one pattern per fp8 op, lowering it to tensor-level linalg.
void populateFP8ToReferencePatterns(RewritePatternSet &patterns);

/// Registers `fp8-reference-pipeline`: fp8-lower-to-reference, one-shot
/// bufferization, loops, f8 arithmetic through APFloat, and the LLVM dialect.
void registerFP8ReferencePipeline();

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_FP8TOREFERENCE_FP8TOREFERENCE_H
