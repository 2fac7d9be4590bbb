//===- Passes.h - fp8 dialect transformations -------------------*- C++ -*-===//
//
// Declarations and registration of the fp8 transformation passes.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_TRANSFORMS_PASSES_H
#define FP8_DIALECT_FP8_TRANSFORMS_PASSES_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fp8 {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_PASSES_H
