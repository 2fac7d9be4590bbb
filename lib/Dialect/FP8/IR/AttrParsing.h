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

} // namespace mlir::fp8

#endif // FP8_LIB_DIALECT_FP8_IR_ATTRPARSING_H
