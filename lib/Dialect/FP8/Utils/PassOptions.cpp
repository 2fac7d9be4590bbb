//===- PassOptions.cpp - diagnostics about pass options -------------------===//
//
// Locations for pass-option errors and the check for unquoted recipe
// attributes in option strings.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Utils/PassOptions.h"

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Pass/Pass.h"
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

static LogicalResult checkRecipeFields(
    StringRef pass, StringRef key, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler);

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
  return checkRecipeFields(pass, key, options, errorHandler);
}

/// The error of checkRecipeQuoting for `key=preset, field = value`: a
/// preset with changed fields is only expressible as an attribute.
static LogicalResult checkRecipeFields(
    StringRef pass, StringRef key, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::string prefix = (key + "=").str();
  for (size_t at = 0; at < options.size(); ++at) {
    bool startsValue = at == 0 || llvm::isSpace(options[at - 1]);
    if (!startsValue || !options.substr(at).starts_with(prefix))
      continue;
    StringRef rest = options.substr(at + prefix.size());
    if (rest.empty() || rest.front() == '#' || rest.front() == '"' ||
        rest.front() == '\'' || rest.front() == '{')
      continue;
    // The words that continue the value: after a ',' or around an '='
    // (`mxfp8, hadamard = 32`), as they would inside the attribute.
    SmallVector<StringRef> words;
    llvm::SplitString(rest, words);
    std::string recipe = words.front().str();
    for (StringRef word : ArrayRef(words).drop_front()) {
      if (!StringRef(recipe).ends_with(",") &&
          !StringRef(recipe).ends_with("=") && !word.starts_with("="))
        break;
      recipe += " " + word.str();
    }
    if (!StringRef(recipe).contains(','))
      continue;
    std::string attr =
        ("#fp8.recipe<" + StringRef(recipe).rtrim(",") + ">").str();
    return errorHandler(
        Twine(pass) + ": " + key + "=" + recipe +
        " is a preset with changed fields, which only a #fp8.recipe "
        "attribute holds: write " +
        key + "=\"" + attr +
        "\" (on a shell command line, quote the whole option too: '--" + pass +
        "=" + key + "=\"" + attr + "\"')");
  }
  return success();
}

/// The option names in `options` (`name=value name2=value ...`), in the
/// option parser's syntax: a value runs to the next space unless quoted or
/// in braces.
static SmallVector<StringRef> getOptionKeys(StringRef options) {
  SmallVector<StringRef> keys;
  size_t at = 0, size = options.size();
  auto skipValue = [&] {
    while (at < size && !llvm::isSpace(options[at])) {
      char c = options[at];
      if (c == '"' || c == '\'') {
        size_t close = options.find(c, at + 1);
        at = close == StringRef::npos ? size : close + 1;
      } else if (c == '{') {
        int depth = 0;
        for (; at < size; ++at) {
          depth += options[at] == '{';
          if (options[at] == '}' && --depth == 0) {
            ++at;
            break;
          }
        }
      } else {
        ++at;
      }
    }
  };
  while (at < size) {
    if (llvm::isSpace(options[at])) {
      ++at;
      continue;
    }
    size_t end = std::min(options.find_first_of(" \t\n={", at), size);
    if (end > at)
      keys.push_back(options.slice(at, end));
    at = end;
    if (at < size && options[at] == '=')
      ++at;
    skipValue();
  }
  return keys;
}

LogicalResult fp8::checkOptionNames(
    StringRef pass, StringRef options, StringRef known,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler) {
  // `{a=1 b=2}` or `pass{a=1 b=2}`: the names are inside the braces.
  // Without braces, there are no options (a pass prints only its name).
  size_t open = known.find('{');
  known = open == StringRef::npos ? StringRef() : known.drop_front(open + 1);
  if (known.ends_with("}"))
    known = known.drop_back();
  SmallVector<StringRef> names = getOptionKeys(known);
  for (StringRef key : getOptionKeys(options)) {
    if (llvm::is_contained(names, key))
      continue;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << pass << ": unknown option '" << key << "'";
    if (std::optional<StringRef> near = findClosestName(key, names))
      os << " (did you mean '" << *near << "'?)";
    os << ", expected ";
    if (names.empty())
      os << "no options";
    else
      os << "one of " << llvm::join(names, ", ");
    return errorHandler(text);
  }
  return success();
}

LogicalResult fp8::checkOptionNames(
    Pass &pass, StringRef options,
    llvm::function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::string known;
  llvm::raw_string_ostream os(known);
  pass.printAsTextualPipeline(os);
  return checkOptionNames(pass.getArgument(), options, known, errorHandler);
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

fp8::RecipeAttr fp8::parseRecipeOption(MLIRContext *context, StringRef text,
                                       StringRef what, Location loc) {
  if (RecipeAttr preset = RecipeAttr::getPreset(context, text))
    return preset;
  if (text.starts_with("#fp8.recipe")) {
    if (auto recipe =
            dyn_cast_or_null<RecipeAttr>(parseAttribute(text, context)))
      return recipe;
    emitError(loc) << "cannot parse " << what << " '" << text << "'";
    return {};
  }
  InFlightDiagnostic diag = emitError(loc)
                            << "unknown " << what << " '" << text << "'";
  // `mxfp8,hadamard=32` (no spaces, so not caught by checkRecipeQuoting):
  // a preset with fields, which is an attribute.
  if (text.contains(',')) {
    diag << ": a preset with changed fields is a #fp8.recipe attribute, "
         << "write \"#fp8.recipe<" << text << ">\"";
    return {};
  }
  if (std::optional<StringRef> near =
          findClosestName(text, RecipeAttr::getPresetNames()))
    diag << " (did you mean '" << *near << "'?)";
  diag << ", expected one of " << llvm::join(RecipeAttr::getPresetNames(), ", ")
       << " or a #fp8.recipe<...> attribute";
  return {};
}
