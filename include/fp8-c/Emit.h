//===- Emit.h - the compiled program in memory, from C ------------*- C -*-===//
//
// The C entry point of fp8::emitProgram: what `--fp8-emit` writes (the
// manifest with each function's launch plan, docs/Manifest.md, and one PTX
// text per kernel), handed to the caller instead of written to files.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_C_EMIT_H
#define FP8_C_EMIT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Receives one file of the program: `manifest.json` first, then each
/// `<kernel>.ptx`. The strings live only during the call.
typedef void (*Fp8EmitCallback)(MlirStringRef file, MlirStringRef contents,
                                void *userData);

/// Builds the GPU kernels of `module` for `chip` (sm_90a or sm_100a; empty
/// for the chip fp8BuildPipeline legalized the module for, the module's
/// `fp8.target`, else sm_90a; a chip other than that one fails) where
/// convert-fp8-to-nvvm has not run yet (the module gains its gpu.modules
/// and the ops their `fp8.kernel` tags), lowers them to PTX, and passes the
/// manifest and the PTX files to `callback`. Fails, after diagnostics on the
/// module's context, where fp8-emit would.
MLIR_CAPI_EXPORTED MlirLogicalResult fp8EmitProgram(MlirModule module,
                                                    MlirStringRef chip,
                                                    bool lineInfo,
                                                    Fp8EmitCallback callback,
                                                    void *userData);

#ifdef __cplusplus
}
#endif

#endif // FP8_C_EMIT_H
