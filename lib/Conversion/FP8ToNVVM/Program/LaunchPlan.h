//===- LaunchPlan.h - a function's kernels as a program ---------*- C++ -*-===//
//
// The launch plan of a function whose ops convert-fp8-to-nvvm has tagged
// with their kernels (`fp8.kernel`, `fp8.kernel_args`): every buffer
// (arguments, results, intermediates packed into one reused workspace, the
// zeroed region of the kernels' workspaces, views), and the launches in
// program order with the buffer of each kernel parameter. docs/Manifest.md
// is its schema.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_LAUNCHPLAN_H
#define FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_LAUNCHPLAN_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

namespace mlir::fp8 {

/// The plan of `func` as the manifest's JSON object. `kernels` holds the
/// manifest entry of every kernel by name. Fails with a diagnostic at the
/// op where an op of `func` has no kernel but its value is needed, or where
/// the function cannot be a program (it returns an argument, or one value
/// twice).
FailureOr<llvm::json::Object>
buildLaunchPlan(func::FuncOp func,
                const llvm::StringMap<llvm::json::Object> &kernels);

/// `file:line:col` of `loc` (the first file location inside it), or "".
std::string formatLocation(Location loc);

} // namespace mlir::fp8

#endif // FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_LAUNCHPLAN_H
