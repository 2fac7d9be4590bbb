//===- ProgrammaticLaunch.h - kernels that may start early ------*- C++ -*-===//
//
// Programmatic dependent launch (PDL, Hopper and later): a kernel launched
// with CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION may start
// while the kernel before it in the stream drains, if it waits
// (griddepcontrol.wait) before touching memory that kernel writes.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_PROGRAMMATICLAUNCH_H
#define FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_PROGRAMMATICLAUNCH_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::fp8::kernels {

/// Makes every kernel of `module` that has a manifest launchable with PDL
/// (the GEMMs place their own wait: not for them): `griddepcontrol.wait` first
/// of all, so no thread touches global memory before the previous grid has
/// completed and its writes are visible, then
/// `griddepcontrol.launch_dependents`, and
/// `"pdl": true` in its manifest.
void waitForPreviousGridAtEntry(gpu::GPUModuleOp module);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_PROGRAMMATICLAUNCH_H
