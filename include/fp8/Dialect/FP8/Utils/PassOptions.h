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

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

namespace mlir {
class OpPassManager;
class Pass;
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
/// the next word as an unknown option. The error shows the quoting. Also
/// fails where `key=` is followed by a preset and fields (`recipe=mxfp8,
/// hadamard = 32`), which only a #fp8.recipe attribute can hold: the error
/// shows the attribute.
LogicalResult checkRecipeQuoting(
    StringRef pass, StringRef key, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler);

/// Fails, through `errorHandler`, when `options` (the option string of pass
/// or pipeline `pass`) names an option that `known` (a pass's or a
/// pipeline's options, printed as `{name=value ...}` or
/// `pass{name=value ...}`) does not have. The error lists the options and
/// suggests the closest one: the option parser's own error names neither.
LogicalResult
checkOptionNames(StringRef pass, StringRef options, StringRef known,
                 llvm::function_ref<LogicalResult(const Twine &)> errorHandler);
/// checkOptionNames with the options of `pass` itself.
LogicalResult
checkOptionNames(Pass &pass, StringRef options,
                 llvm::function_ref<LogicalResult(const Twine &)> errorHandler);

/// Fails, through `errorHandler`, when the pass manager that pipeline
/// `pipeline` (given `options`) is being added to is anchored on an op
/// other than builtin.module: its module passes could not be added there,
/// and upstream's pass manager aborts the process on them. The error shows
/// where the pipeline goes.
LogicalResult checkPipelineAnchor(
    StringRef pipeline, const OpPassManager &pm, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler);

/// The recipe that the option value `text` names (a preset) or writes (a
/// #fp8.recipe attribute), or null after an error at `loc` that says why,
/// calling it `what` ("recipe", "target recipe"): an unknown name gets the
/// presets and the closest one, a preset with fields the attribute form.
RecipeAttr parseRecipeOption(MLIRContext *context, StringRef text,
                             StringRef what, Location loc);

} // namespace fp8
} // namespace mlir

#endif // FP8_DIALECT_FP8_UTILS_PASSOPTIONS_H
