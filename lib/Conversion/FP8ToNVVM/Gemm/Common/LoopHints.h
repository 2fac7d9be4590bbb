//===- LoopHints.h - what the GEMM kernels ask of LLVM's loops --*- C++ -*-===//
//
// Loop annotations the GEMM builders put on their scf.for loops: both
// targets keep a short K loop rolled, where unrolling overlaps the live
// ranges of the K-blocks' accumulators or sums and spills.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_LOOPHINTS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_LOOPHINTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::fp8::kernels::gemm {

/// Asks LLVM not to unroll `loop`. The attribute is llvm.br's own
/// `loop_annotation`: scf-to-cf forwards it to the loop's latch branch, and
/// the translation makes it !llvm.loop.
void keepRolled(scf::ForOp loop);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_LOOPHINTS_H
