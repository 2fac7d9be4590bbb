//===- FP8Ops.h - FP8 dialect operations ------------------------*- C++ -*-===//
//
// Operations of the fp8 dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_IR_FP8OPS_H
#define FP8_DIALECT_FP8_IR_FP8OPS_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::fp8 {

/// One of the two FP8 operands of an fp8.scaled_matmul: `a` gives the
/// result's rows, `b` its columns. Passes treat both alike, so they name an
/// operand by its side instead of repeating each step for a and b.
enum class MatmulSide : unsigned { a = 0, b = 1 };

/// Both sides in operand order, for `for (MatmulSide side : kMatmulSides)`.
inline constexpr MatmulSide kMatmulSides[] = {MatmulSide::a, MatmulSide::b};

} // namespace mlir::fp8

#define GET_OP_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Ops.h.inc"

#endif // FP8_DIALECT_FP8_IR_FP8OPS_H
