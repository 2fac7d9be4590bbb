//===- PassOptions.cpp - diagnostics about pass options -------------------===//
//
// Locations for pass-option errors and the check for unquoted recipe
// attributes in option strings.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Utils/PassOptions.h"

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

Location fp8::getOptionLoc(ModuleOp module,
                           llvm::function_ref<bool(Operation *)> appliesTo) {
  Operation *found = nullptr, *firstInFile = nullptr;
  module.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op == module)
      return WalkResult::advance();
    if (!firstInFile && isa<FileLineColLoc>(op->getLoc()))
      firstInFile = op;
    if (appliesTo(op)) {
      found = op;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (found)
    return found->getLoc();
  return firstInFile ? firstInFile->getLoc() : module.getLoc();
}

bool fp8::isFP8Op(Operation *op) {
  return isa_and_nonnull<FP8Dialect>(op->getDialect());
}

LogicalResult fp8::checkRecipeQuoting(
    StringRef pass, StringRef key, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::string unquoted = (key + "=#").str();
  char quote = 0;
  for (size_t at = 0; at < options.size(); ++at) {
    char c = options[at];
    if (quote) {
      quote = c == quote ? 0 : quote;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    bool startsValue = at == 0 || llvm::isSpace(options[at - 1]);
    if (!startsValue || !options.substr(at).starts_with(unquoted))
      continue;
    // The attribute runs to its matching '>' (or the end of the string).
    size_t begin = at + key.size() + 1, end = begin;
    int depth = 0;
    bool space = false;
    for (; end < options.size(); ++end) {
      char d = options[end];
      if (d == '<') {
        ++depth;
      } else if (d == '>' && --depth <= 0) {
        ++end;
        break;
      } else if (llvm::isSpace(d)) {
        space = true;
      }
    }
    if (!space)
      continue;
    StringRef value = options.slice(begin, end);
    return errorHandler(Twine(pass) + ": " + key + "=" + value +
                        " needs quotes: a space ends an unquoted option "
                        "value; write " +
                        key + "=\"" + value +
                        "\" (on a shell command line, quote the whole "
                        "option too: '--" +
                        pass + "=" + key + "=\"" + value + "\"')");
  }
  return success();
}

LogicalResult fp8::checkPipelineAnchor(
    StringRef pipeline, const OpPassManager &pm, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::optional<StringRef> anchor = pm.getOpName();
  if (!anchor || *anchor == ModuleOp::getOperationName())
    return success();
  std::string written = pipeline.str();
  if (!options.empty())
    written += "{" + options.str() + "}";
  return errorHandler(Twine(pipeline) +
                      " runs module passes and cannot be nested in '" +
                      *anchor + "': put it directly in builtin.module(...), " +
                      "e.g. --pass-pipeline='builtin.module(" + written + ")'");
}
