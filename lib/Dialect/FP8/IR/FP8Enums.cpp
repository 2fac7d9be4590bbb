//===- FP8Enums.cpp - FP8 dialect enumerations ----------------------------===//
//
// String conversions of the enumerations used by fp8 attributes and ops.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"

#include "fp8/Dialect/FP8/IR/FP8Enums.cpp.inc"
