//===- AttrParsing.h - shared pieces of the attribute parsers ---*- C++ -*-===//
//
// Helpers the custom parsers of the fp8 attributes share, in FP8Attrs.cpp
// and RecipeAttr.cpp.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_DIALECT_FP8_IR_ATTRPARSING_H
#define FP8_LIB_DIALECT_FP8_IR_ATTRPARSING_H

#include "mlir/IR/OpImplementation.h"

namespace mlir::fp8 {

/// Parses `key = value` pairs separated by commas until `>`; `parseValue`
/// handles one key whose `=` has been consumed. Duplicate keys are errors
/// that name `attrName`.
ParseResult
parseKeyValueList(AsmParser &parser, StringRef attrName,
                  function_ref<ParseResult(StringRef, SMLoc)> parseValue);

/// Parses a keyword naming a case of an enumeration into `value`. An
/// unknown keyword is an error that names `what` and, where given, lists
/// the `expected` keywords.
template <typename EnumT>
ParseResult parseEnumKeyword(AsmParser &parser, EnumT &value, StringRef what,
                             std::optional<EnumT> (*symbolize)(StringRef),
                             StringRef expected = {}) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> parsed = symbolize(keyword);
  if (!parsed) {
    InFlightDiagnostic diag = parser.emitError(loc)
                              << "unknown " << what << " '" << keyword << "'";
    if (!expected.empty())
      diag << ", expected " << expected;
    return diag;
  }
  value = *parsed;
  return success();
}

} // namespace mlir::fp8

#endif // FP8_LIB_DIALECT_FP8_IR_ATTRPARSING_H
