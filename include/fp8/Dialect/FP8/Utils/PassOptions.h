//===- PassOptions.h - diagnostics about pass options -----------*- C++ -*-===//
//
// A pass option comes from the command line (or a pipeline string), not from
// the IR, so its errors have no place in the file of their own. These
// helpers give them one (the first op the option is for) and catch the one
// option mistake the option parser explains badly: a recipe attribute with
// spaces, unquoted.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_UTILS_PASSOPTIONS_H
#define FP8_DIALECT_FP8_UTILS_PASSOPTIONS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir {
class OpPassManager;
namespace fp8 {

/// The location for an error about a pass option: that of the first op in
/// `module` for which `appliesTo` holds, else that of the first op with a
/// location in a file, else the module's (which an implicit module has as
/// `file:0:0`).
Location getOptionLoc(ModuleOp module,
                      llvm::function_ref<bool(Operation *)> appliesTo);

/// Whether `op` is an op of the fp8 dialect (a common `appliesTo`).
bool isFP8Op(Operation *op);

/// Fails, through `errorHandler`, when `options` (the option string of pass
/// or pipeline `pass`) has `key=#fp8.recipe<...>` with a space inside and no
/// quotes: the option parser would end the value at the space and report
/// the next word as an unknown option. The error shows the quoting.
LogicalResult checkRecipeQuoting(
    StringRef pass, StringRef key, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler);

/// Fails, through `errorHandler`, when the pass manager that pipeline
/// `pipeline` (given `options`) is being added to is anchored on an op
/// other than builtin.module: its module passes could not be added there,
/// and upstream's pass manager aborts the process on them. The error shows
/// where the pipeline goes.
LogicalResult checkPipelineAnchor(
    StringRef pipeline, const OpPassManager &pm, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler);

} // namespace fp8
} // namespace mlir

#endif // FP8_DIALECT_FP8_UTILS_PASSOPTIONS_H
