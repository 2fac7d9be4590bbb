//===- FP8ToNVVM.h - fp8 ops to NVIDIA GPU kernels --------------*- C++ -*-===//
//
// Kernel generation for fp8 ops, the PTX pipeline and the kernel emitter.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_CONVERSION_FP8TONVVM_FP8TONVVM_H
#define FP8_CONVERSION_FP8TONVVM_FP8TONVVM_H

#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir {
class ModuleOp;
class OpBuilder;
class Operation;
class OpPassManager;
class Type;
namespace gpu {
class GPUModuleOp;
} // namespace gpu
namespace linalg {
class LinalgOp;
class TransposeOp;
} // namespace linalg
namespace fp8 {
class Target;
class AmaxOp;
class DequantizeOp;
class GroupedScaledMatmulOp;
class HadamardOp;
class QuantizeOp;
class QuantizeMonitoredOp;
class QuantizeTransposeOp;
class ScaledMatmulOp;
class TmaAlignScalesOp;
class Tcgen05ScalesOp;
class TransposeOp;

/// Builds a kernel computing `op` into a new gpu.module named `name` at the
/// builder's insertion point, with a `fp8.manifest` attribute describing its
/// launch. Fails with a diagnostic on `op` where the op's form has no kernel
/// yet.
FailureOr<gpu::GPUModuleOp> buildQuantizeKernel(OpBuilder &builder,
                                                QuantizeOp op, StringRef name,
                                                const Target &target);
/// The kernel of fp8.quantize with the op's statistics: the same kernel
/// shape, which also stores each tile's data amax and counts saturated and
/// flushed elements (docs/Design.md).
FailureOr<gpu::GPUModuleOp> buildQuantizeMonitoredKernel(OpBuilder &builder,
                                                         QuantizeMonitoredOp op,
                                                         StringRef name,
                                                         const Target &target);

/// Builds a kernel rotating `op`'s input along its dim (0 or 1) by the block
/// Hadamard butterfly, bit-identical to the CPU reference.
FailureOr<gpu::GPUModuleOp> buildHadamardKernel(OpBuilder &builder,
                                                HadamardOp op, StringRef name,
                                                const Target &target);

/// Builds a kernel transposing the data and scales of `op` (square tiles).
FailureOr<gpu::GPUModuleOp> buildTransposeKernel(OpBuilder &builder,
                                                 TransposeOp op, StringRef name,
                                                 const Target &target);

/// Builds a kernel writing the col_major_tma layout of `op`'s scales
/// (transposed, rows padded with zero bits to 16 bytes), any static shape.
FailureOr<gpu::GPUModuleOp> buildTmaAlignScalesKernel(OpBuilder &builder,
                                                      TmaAlignScalesOp op,
                                                      StringRef name,
                                                      const Target &target);

/// Builds a kernel writing sm_100a's tcgen05 scale-factor layout of `op`'s
/// E8M0 scales (512-byte chunks of 128 rows x 4 K-blocks), any static shape.
FailureOr<gpu::GPUModuleOp> buildTcgen05ScalesKernel(OpBuilder &builder,
                                                     Tcgen05ScalesOp op,
                                                     StringRef name,
                                                     const Target &target);

/// Builds a kernel computing the per-tile amax of `op` (the reduction of the
/// quantization kernels, without the quantization).
FailureOr<gpu::GPUModuleOp> buildAmaxKernel(OpBuilder &builder, AmaxOp op,
                                            StringRef name,
                                            const Target &target);

/// Builds a kernel computing `op` (f32(q) * scale rounded to the result
/// type) into a new gpu.module named `name`.
FailureOr<gpu::GPUModuleOp> buildDequantizeKernel(OpBuilder &builder,
                                                  DequantizeOp op,
                                                  StringRef name,
                                                  const Target &target);

/// Builds the kernel of a linalg op whose loops are all parallel (generic,
/// map, fill, transpose, ...): its body, cloned, on V consecutive elements
/// per thread where operands are read in loop order (copy speed), else one
/// element per thread through the indexing maps.
FailureOr<gpu::GPUModuleOp> buildElementwiseKernel(OpBuilder &builder,
                                                   linalg::LinalgOp op,
                                                   StringRef name,
                                                   const Target &target);

/// Whether a linalg.transpose has the tiled kernel: [1, 0] of a static 2- or
/// 4-byte matrix whose dims are multiples of 64.
bool fitsTiledTransposeKernel(linalg::TransposeOp op);

/// Whether convert-fp8-to-nvvm builds a kernel for `op` (an fp8 or linalg
/// op, or an arith op on tensors) where the op is in a function: errors
/// about its options point at the first such op.
bool needsKernel(Operation *op);

/// Builds the tiled transpose of `op` (64x64 tiles through shared memory,
/// 16-byte loads and stores).
FailureOr<gpu::GPUModuleOp> buildTiledTransposeKernel(OpBuilder &builder,
                                                      linalg::TransposeOp op,
                                                      StringRef name,
                                                      const Target &target);

/// Builds the kernel of a linalg op with reduction loops (linalg.reduce):
/// one thread per result element folds the reduced elements in order.
FailureOr<gpu::GPUModuleOp> buildReduceKernel(OpBuilder &builder,
                                              linalg::LinalgOp op,
                                              StringRef name,
                                              const Target &target);

/// Builds the kernel of a static tensor.extract_slice,
/// tensor.insert_slice (a new tensor: the destination with the box
/// replaced) or tensor.pad with zeros.
FailureOr<gpu::GPUModuleOp> buildSliceKernel(OpBuilder &builder, Operation *op,
                                             StringRef name,
                                             const Target &target);

/// Builds the cast-transpose kernel of `op` (X and Xᵀ quantized with 1x128
/// tiles along their rows, from one read of X): the Wgrad operand in
/// K-major layout beside the Fprop one.
FailureOr<gpu::GPUModuleOp> buildCastTransposeKernel(OpBuilder &builder,
                                                     QuantizeTransposeOp op,
                                                     StringRef name,
                                                     const Target &target);

/// Builds the sm_90a GEMM of `op` (both operands K-major): TMA loads into a
/// multi-stage mbarrier pipeline, a producer warpgroup and two wgmma
/// consumer warpgroups, promotion of every K-block to f32 with its scales.
FailureOr<gpu::GPUModuleOp> buildGemmKernel(OpBuilder &builder,
                                            ScaledMatmulOp op, StringRef name,
                                            const Target &target);

/// Builds the sm_90a grouped GEMM of `op` (fp8.grouped_scaled_matmul): the
/// same pipeline over the tiles of every group, whose bounds it reads from
/// group_rows at run time, each group's tiles multiplied with its B.
FailureOr<gpu::GPUModuleOp> buildGroupedGemmKernel(OpBuilder &builder,
                                                   GroupedScaledMatmulOp op,
                                                   StringRef name,
                                                   const Target &target);

/// What fp8-emit writes, in memory: the manifest (docs/Manifest.md) and
/// one PTX text per kernel, by file name.
struct EmittedProgram {
  std::string manifest;
  std::vector<std::pair<std::string, std::string>> ptx;
};

/// Lowers the kernels of `module` (which convert-fp8-to-nvvm has built) to
/// PTX and describes them and each function's launch plan; `module` is left
/// as it is. For compilers that embed the passes and want no files.
FailureOr<EmittedProgram> emitProgram(ModuleOp module, const Target &target,
                                      bool lineInfo = true);

/// Says, in a remark at `loc`, that `target`'s kernels have not run on
/// hardware in this project (sm_100a: checked with ptxas only), so that a
/// user learns it before the GPU does. fp8-emit and fp8EmitProgram say it
/// once per program; nothing for sm_90a.
void remarkIfNeverRun(Location loc, const Target &target);

/// Adds the passes that lower generated gpu.modules to NVVM and serialize
/// them to PTX (`gpu.binary` ops), with .file/.loc line info pointing at
/// the fp8 ops where `lineInfo` is set.
void buildKernelToPTXPipeline(OpPassManager &pm, bool lineInfo = true);

/// Registers the `fp8-to-ptx{chip= line-info=}` pipeline.
void registerFP8ToPTXPipeline();

} // namespace fp8
} // namespace mlir

#endif // FP8_CONVERSION_FP8TONVVM_FP8TONVVM_H
