//===- GemmManifest.h - a GEMM kernel's parameters and manifest -*- C++ -*-===//
//
// What a GEMM kernel on either target declares to the host: its buffers
// (A, B and their scales as stored, C), and the manifest's `matmul`
// object that check_gemm.py checks against (sizes, scalings, layouts, tile),
// its shared memory and FLOPs, and the bytes it moves. Each target adds
// the entries of its own pipeline (stages, split tiles, accumulators).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMMANIFEST_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMMANIFEST_H

#include "../../Program/KernelSignature.h"
#include "GemmProblem.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::fp8::kernels::gemm {

/// The launch and pipeline facts a target reports.
struct GemmLaunch {
  int64_t gridSize, threads, sharedBytes;
  /// {tile M, tile N, tile K}.
  SmallVector<int64_t, 3> tile;
  /// The target's own entries of the `matmul` object.
  SmallVector<NamedAttribute> pipeline;
  /// The cluster the kernel fixes at compile time (.reqnctapercluster), x
  /// first; written to the manifest where it has more than one CTA (the
  /// grid is then a multiple of it, and a plain launch forms the clusters).
  SmallVector<int64_t, 3> cluster = {1, 1, 1};
  /// Whether every thread waits for the prerequisite grid
  /// (griddepcontrol.wait) before its first global-memory access, so that
  /// the kernel may be launched with programmatic dependent launch; written
  /// to the manifest as "pdl": true.
  bool pdl = false;
};

/// The signature's buffers, in this order: a, a_scale, b, b_scale (each as
/// the op stores it) and c (m x n), bound to the op's operands and result;
/// each a pointer of `pointerType`. The target adds its tensor maps.
KernelSignature declareGemmBuffers(ScaledMatmulOp op,
                                   const GemmProblem &problem,
                                   Type pointerType);

/// Sets the `fp8.manifest` of the GEMM kernel `kernel` of `op`.
void setGemmManifest(OpBuilder &b, gpu::GPUFuncOp kernel, ScaledMatmulOp op,
                     const GemmProblem &problem,
                     const KernelSignature &signature,
                     const GemmLaunch &launch);

/// A grouped GEMM's buffers: a (as one m x k matrix), a_scale (as stored,
/// its rows those of a), b (as one (groups * n) x k matrix), b_scale (as
/// stored), group_rows (G i32) and c (m x n), bound to the op's operands and
/// result (the launch plan views the op's rank-3 values in these shapes).
KernelSignature declareGroupedGemmBuffers(GroupedScaledMatmulOp op,
                                          const GemmProblem &problem,
                                          Type pointerType);

/// Its manifest entry: setGemmManifest's, with the groups (count, layout,
/// capacity) in the `matmul` object and the param group_rows marked for
/// the runtime to fill with valid bounds.
void setGroupedGemmManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                            GroupedScaledMatmulOp op,
                            const GemmProblem &problem,
                            const KernelSignature &signature,
                            const GemmLaunch &launch);

/// The buffers of a high-precision matmul's kernel (A, B, C: no scales),
/// bound to `op`'s inputs and result.
KernelSignature declareHighPrecisionBuffers(linalg::LinalgOp op,
                                            const GemmProblem &problem,
                                            Type pointerType);
/// Its manifest entry: the launch and a `matmul` object without scalings
/// (`accumulate` f32, the operands' majorness).
void setHighPrecisionManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                              linalg::LinalgOp op, const GemmProblem &problem,
                              const KernelSignature &signature,
                              const GemmLaunch &launch);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_GEMMMANIFEST_H
