//===- LoopHints.cpp - what the GEMM kernels ask of LLVM's loops ----------===//
//
// Unrolled, a short K loop overlaps its blocks' live values: on sm_90a a
// K = 384 loop on 192 x 128 tiles spilled; on sm_100a the promoted
// epilogue's sums of several K-blocks did.
//
//===----------------------------------------------------------------------===//

#include "LoopHints.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;

void fp8::kernels::gemm::keepRolled(scf::ForOp loop) {
  MLIRContext *ctx = loop.getContext();
  auto unroll = LLVM::LoopUnrollAttr::get(ctx, BoolAttr::get(ctx, true), {}, {},
                                          {}, {}, {}, {});
  loop->setAttr("loop_annotation", LLVM::LoopAnnotationAttr::get(
                                       ctx, {}, {}, {}, unroll, {}, {}, {}, {},
                                       {}, {}, {}, {}, {}, {}, {}));
}
