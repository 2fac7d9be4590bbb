//===- Registration.h - fp8-mlir C API registration ---------------*- C -*-===//
//
// C entry points for hosts that drive MLIR through its C API (other
// languages, Python bindings): the fp8 dialect handle, and the registration
// of everything the fp8 pipelines need, mirroring fp8/InitAllDialects.h and
// fp8/InitAllPasses.h.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_C_REGISTRATION_H
#define FP8_C_REGISTRATION_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Declares `mlirGetDialectHandle__fp8__()`, the handle of the fp8 dialect
/// alone.
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(FP8, fp8);

/// Adds the fp8 dialect and the upstream dialects, interface models and LLVM
/// IR translations that the fp8 pipelines need to `registry`.
MLIR_CAPI_EXPORTED void fp8RegisterAllDialects(MlirDialectRegistry registry);

/// Registers the fp8 passes and the upstream passes the fp8 pipelines are
/// made of, so that textual pipelines (mlirParsePassPipeline) can name them.
/// Process-wide; calling it more than once is harmless.
MLIR_CAPI_EXPORTED void fp8RegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif // FP8_C_REGISTRATION_H
