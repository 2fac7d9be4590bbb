//===- OpKernels.h - the kernel builder of every op -------------*- C++ -*-===//
//
// One builder per op that convert-fp8-to-nvvm turns into a kernel; the
// pass's table (FP8ToNVVM.cpp) picks one per op. Each builds the op's kernel
// into a new gpu.module named `name` at the builder's insertion point, with a
// `fp8.manifest` attribute describing its launch, and fails with a
// diagnostic on the op where the op's form has no kernel yet. Private to
// the conversion: users reach the kernels through the passes.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_OPKERNELS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_OPKERNELS_H

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"

namespace mlir::fp8::kernels {

//===----------------------------------------------------------------------===//
// Quantization (Quantize/)
//===----------------------------------------------------------------------===//

/// fp8.quantize: the tile, block, column or tensorwise kernel its tiling
/// asks for.
FailureOr<gpu::GPUModuleOp> buildQuantizeKernel(OpBuilder &builder,
                                                QuantizeOp op, StringRef name,
                                                const Target &target);
/// fp8.quantize_monitored: the quantize kernel, which also stores each
/// tile's data amax and counts saturated and flushed elements
/// (docs/Design.md).
FailureOr<gpu::GPUModuleOp> buildQuantizeMonitoredKernel(OpBuilder &builder,
                                                         QuantizeMonitoredOp op,
                                                         StringRef name,
                                                         const Target &target);
/// fp8.quantize_delayed: the tensorwise kernel's passes, one where the
/// history's amax is usable, two where it is not.
FailureOr<gpu::GPUModuleOp> buildQuantizeDelayedKernel(OpBuilder &builder,
                                                       QuantizeDelayedOp op,
                                                       StringRef name,
                                                       const Target &target);
/// fp8.quantize_elementwise without `reduce` regions: the quantize kernel of
/// its tiling, or with `transpose` the cast-transpose, loading through the
/// producer.
FailureOr<gpu::GPUModuleOp>
buildQuantizeElementwiseKernel(OpBuilder &builder, QuantizeElementwiseOp op,
                               StringRef name, const Target &target);
/// fp8.quantize_elementwise with `reduce` regions (a norm and its row
/// quantization): a warp per row.
FailureOr<gpu::GPUModuleOp> buildRowNormQuantizeKernel(OpBuilder &builder,
                                                       QuantizeElementwiseOp op,
                                                       StringRef name,
                                                       const Target &target);
/// fp8.quantize_transpose: X and Xᵀ quantized with 1x128 tiles along their
/// rows, from one read of X (the Wgrad operand in K-major layout beside the
/// Fprop one).
FailureOr<gpu::GPUModuleOp> buildCastTransposeKernel(OpBuilder &builder,
                                                     QuantizeTransposeOp op,
                                                     StringRef name,
                                                     const Target &target);
/// fp8.amax: the per-tile amax (the reduction of the quantization kernels,
/// without the quantization).
FailureOr<gpu::GPUModuleOp> buildAmaxKernel(OpBuilder &builder, AmaxOp op,
                                            StringRef name,
                                            const Target &target);
/// fp8.dequantize: f32(q) * scale rounded to the result type.
FailureOr<gpu::GPUModuleOp> buildDequantizeKernel(OpBuilder &builder,
                                                  DequantizeOp op,
                                                  StringRef name,
                                                  const Target &target);
/// fp8.tma_align_scales: the col_major_tma layout of the scales
/// (transposed, rows padded with zero bits to 16 bytes), any static shape.
FailureOr<gpu::GPUModuleOp> buildTmaAlignScalesKernel(OpBuilder &builder,
                                                      TmaAlignScalesOp op,
                                                      StringRef name,
                                                      const Target &target);
/// fp8.tcgen05_scales: sm_100a's tcgen05 scale-factor layout of E8M0 scales
/// (512-byte chunks of 128 rows x 4 K-blocks), any static shape.
FailureOr<gpu::GPUModuleOp> buildTcgen05ScalesKernel(OpBuilder &builder,
                                                     Tcgen05ScalesOp op,
                                                     StringRef name,
                                                     const Target &target);

//===----------------------------------------------------------------------===//
// Transposes, rotations and slices (Transform/)
//===----------------------------------------------------------------------===//

/// fp8.transpose: the data and scales transposed (square tiles).
FailureOr<gpu::GPUModuleOp> buildTransposeKernel(OpBuilder &builder,
                                                 TransposeOp op, StringRef name,
                                                 const Target &target);
/// fp8.hadamard: the input rotated along its dim (0 or 1) by the block
/// Hadamard butterfly, bit-identical to the CPU reference.
FailureOr<gpu::GPUModuleOp> buildHadamardKernel(OpBuilder &builder,
                                                HadamardOp op, StringRef name,
                                                const Target &target);
/// Whether a linalg.transpose has the tiled kernel: [1, 0] of a static 2- or
/// 4-byte matrix whose dims are multiples of 64.
bool fitsTiledTransposeKernel(linalg::TransposeOp op);
/// Such a linalg.transpose: 64x64 tiles through shared memory, 16-byte
/// loads and stores.
FailureOr<gpu::GPUModuleOp> buildTiledTransposeKernel(OpBuilder &builder,
                                                      linalg::TransposeOp op,
                                                      StringRef name,
                                                      const Target &target);
/// A static tensor.extract_slice, tensor.insert_slice (a new tensor: the
/// destination with the box replaced) or tensor.pad with zeros.
FailureOr<gpu::GPUModuleOp> buildSliceKernel(OpBuilder &builder, Operation *op,
                                             StringRef name,
                                             const Target &target);

//===----------------------------------------------------------------------===//
// Elementwise ops and reductions (Elementwise/)
//===----------------------------------------------------------------------===//

/// A linalg op whose loops are all parallel (generic, map, fill, transpose,
/// ...): its body, cloned, on V consecutive elements per thread where
/// operands are read in loop order (copy speed), else one element per
/// thread through the indexing maps.
FailureOr<gpu::GPUModuleOp> buildElementwiseKernel(OpBuilder &builder,
                                                   linalg::LinalgOp op,
                                                   StringRef name,
                                                   const Target &target);
/// A linalg op with reduction loops (linalg.reduce): one thread per result
/// element folds the reduced elements in order.
FailureOr<gpu::GPUModuleOp> buildReduceKernel(OpBuilder &builder,
                                              linalg::LinalgOp op,
                                              StringRef name,
                                              const Target &target);

//===----------------------------------------------------------------------===//
// GEMMs (Gemm/)
//===----------------------------------------------------------------------===//

/// fp8.scaled_matmul: on sm_90a (both operands K-major) TMA loads into a
/// multi-stage mbarrier pipeline, a producer warpgroup and wgmma consumer
/// warpgroups, promotion of every K-block to f32 with its scales; on
/// sm_100a the tcgen05 GEMM.
FailureOr<gpu::GPUModuleOp> buildGemmKernel(OpBuilder &builder,
                                            ScaledMatmulOp op, StringRef name,
                                            const Target &target);
/// fp8.grouped_scaled_matmul (sm_90a): the same pipeline over the tiles of
/// every group, whose bounds it reads from group_rows at run time, each
/// group's tiles multiplied with its B.
FailureOr<gpu::GPUModuleOp> buildGroupedGemmKernel(OpBuilder &builder,
                                                   GroupedScaledMatmulOp op,
                                                   StringRef name,
                                                   const Target &target);
/// A matmul the recipe keeps in high precision (isHighPrecisionGemm): the
/// sm_90a pipeline with 16-bit wgmmas and no scales, or an error naming
/// what it cannot take.
FailureOr<gpu::GPUModuleOp> buildHighPrecisionGemmKernel(OpBuilder &builder,
                                                         linalg::LinalgOp op,
                                                         StringRef name,
                                                         const Target &target);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_OPKERNELS_H
