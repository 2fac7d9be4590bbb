//===- FP8ToNVVM.h - fp8 ops to NVIDIA GPU kernels --------------*- C++ -*-===//
//
// The PTX pipeline and the kernel emitter of the fp8 ops' kernels.
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
class Operation;
class OpPassManager;
namespace fp8 {
class Target;

/// Whether convert-fp8-to-nvvm builds a kernel for `op` (an fp8 or linalg
/// op, or an arith op on tensors) where the op is in a function: errors
/// about its options point at the first such op. The kernel builders
/// themselves are private to the conversion
/// (lib/Conversion/FP8ToNVVM/OpKernels.h).
bool needsKernel(Operation *op);

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
