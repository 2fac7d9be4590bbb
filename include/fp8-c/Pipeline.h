//===- Pipeline.h - the one-call fp8 pipeline from C --------------*- C -*-===//
//
// The C entry point of fp8::buildPipeline (fp8/Dialect/FP8/Transforms/
// Pipeline.h), so that a host driving MLIR through its C API gets the same
// pass sequence as `fp8-opt --fp8-pipeline`.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_C_PIPELINE_H
#define FP8_C_PIPELINE_H

#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds the passes of `fp8-pipeline{recipe= chip=}` to `passManager`:
/// fp8-quantize-matmuls, fp8-insert-hadamard where the recipe has a Hadamard
/// size, fp8-derive-scaling, fp8-legalize, canonicalize, cse and
/// fp8-fuse-quantization. `recipe` is
/// a preset name or a `#fp8.recipe<...>` attribute, `chip` sm_90a or
/// sm_100a; both are checked when the passes run, with a diagnostic on the
/// module. Fails, adding nothing, if `passManager` is anchored on an op
/// other than builtin.module (mlirPassManagerCreate's "any" is fine).
MLIR_CAPI_EXPORTED MlirLogicalResult fp8BuildPipeline(
    MlirOpPassManager passManager, MlirStringRef recipe, MlirStringRef chip);

/// fp8BuildPipeline with `fp8-pipeline`'s `monitor` option: where true,
/// fp8-monitor-quantization runs before fp8-fuse-quantization, and every
/// function returns its quantizations' statistics as extra results (each
/// with an `fp8.monitor` label; docs/Design.md).
MLIR_CAPI_EXPORTED MlirLogicalResult
fp8BuildPipelineWithMonitor(MlirOpPassManager passManager, MlirStringRef recipe,
                            MlirStringRef chip, bool monitor);

#ifdef __cplusplus
}
#endif

#endif // FP8_C_PIPELINE_H
