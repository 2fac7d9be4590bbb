//===- Pipeline.h - the one-call fp8 pipeline -------------------*- C++ -*-===//
//
// `fp8-pipeline{recipe= chip= monitor=}`: every pass that takes a bf16/f32
// training graph to legalized fp8 IR for one chip, in order, so that a user or
// a host compiler need not spell out the pass list. Kernel emission stays
// separate
// (`fp8-emit`), since where the kernels go is the caller's decision.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_TRANSFORMS_PIPELINE_H
#define FP8_DIALECT_FP8_TRANSFORMS_PIPELINE_H

#include "mlir/Pass/PassOptions.h"

#include <string>

namespace mlir {
class OpPassManager;
namespace fp8 {

/// The options of `fp8-pipeline`. Both are checked when the pipeline runs,
/// by the passes that take them, so that an error points at the module.
struct PipelineOptions : PassPipelineOptions<PipelineOptions> {
  Option<std::string> recipe{
      *this, "recipe",
      llvm::cl::desc("recipe preset, or a full #fp8.recipe<...> attribute "
                     "(as fp8-quantize-matmuls takes it); none: tensorwise, "
                     "with a warning"),
      llvm::cl::init("")};
  Option<std::string> chip{
      *this, "chip",
      llvm::cl::desc("target GPU architecture: sm_90a or sm_100a"),
      llvm::cl::init("sm_90a")};
  Option<bool> monitor{
      *this, "monitor",
      llvm::cl::desc("return every quantization's health statistics "
                     "(fp8-monitor-quantization; costs the cast-transpose "
                     "fusion of monitored quantizations)"),
      llvm::cl::init(false)};
  Option<bool> fuseProducers{
      *this, "fuse-producers",
      llvm::cl::desc("fp8-fuse-quantization's producers= and scales=: "
                     "elementwise producers and scale re-layouts into the "
                     "quantizations (fp8.quantize_elementwise)"),
      llvm::cl::init(true)};
  Option<bool> explain{
      *this, "explain",
      llvm::cl::desc("remark at every quantization, FP8 transpose and "
                     "unfused elementwise op what fp8-fuse-quantization "
                     "fused, or the rule that kept it apart"),
      llvm::cl::init(false)};
};

/// Adds to `pm` (anchored on builtin.module, or op-agnostic and run on a
/// module; fp8-pipeline refuses any other anchor) fp8-quantize-matmuls,
/// fp8-insert-hadamard where the recipe has a Hadamard size,
/// fp8-derive-scaling, fp8-legalize, canonicalize, cse,
/// fp8-monitor-quantization where `monitor` is set, and
/// fp8-fuse-quantization.
void buildPipeline(OpPassManager &pm, const PipelineOptions &options);

/// Registers the `fp8-pipeline{recipe= chip= monitor= fuse-producers=
/// explain=}` pipeline.
void registerFP8Pipeline();

} // namespace fp8
} // namespace mlir

#endif // FP8_DIALECT_FP8_TRANSFORMS_PIPELINE_H
