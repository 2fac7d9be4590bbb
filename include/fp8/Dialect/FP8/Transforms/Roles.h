//===- Roles.h - training roles of values -----------------------*- C++ -*-===//
//
// Which values of a training graph are activations, weights or gradients,
// and which of a layer's three matmuls a contraction is.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_TRANSFORMS_ROLES_H
#define FP8_DIALECT_FP8_TRANSFORMS_ROLES_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>

namespace mlir::fp8 {

/// A contraction seen as a matrix multiplication: operand `a` is contracted
/// along matrix dim `contracting[0]`, `b` along `contracting[1]`, and the
/// result is (batch?, a's free dim, b's free dim).
struct MatmulView {
  linalg::LinalgOp op;
  Value a, b;
  int64_t contracting[2];
  /// Whether the op has a leading batch dimension.
  bool batched;
};

/// Recognizes `op` as a matmul: one M, N and K loop, at most one batch loop
/// leading every operand, projected-permutation maps and a (batch, m, n) or
/// (batch, n, m) result. Returns nothing for other contractions.
std::optional<MatmulView> getMatmulView(linalg::LinalgOp op);

/// Where a role for `value` would have to be written: the function argument
/// or op result that `value` derives from through role-preserving ops
/// (transposes, reshapes, casts, elementwise ops), described for a
/// diagnostic ("function argument #1 of @f", "the result of
/// 'arith.constant' at <loc>").
std::string describeRoleOrigin(Value value);

/// An op whose data operands have different roles, so that its result has
/// none (a norm's gain marked "weight" times the activations it scales):
/// `op` mixes `first` (role `firstRole`) with `second` (`secondRole`).
struct RoleConflict {
  Operation *op;
  Value first, second;
  Role firstRole, secondRole;
};

/// Roles of the values of one function, propagated forward from `fp8.role`
/// arguments through role-preserving ops (transposes, reshapes, casts,
/// elementwise ops) and matmuls (an Fprop result is an activation, a Dgrad
/// result a gradient).
class RoleAnalysis {
public:
  explicit RoleAnalysis(FunctionOpInterface func);

  /// The role of `value`, if known.
  std::optional<Role> getRole(Value value) const;

  /// Why `value` has no role where the cause is a conflict: the first op,
  /// going back from `value` through role-preserving ops without a role,
  /// whose data operands have different roles. Nothing where no role
  /// reaches `value` at all.
  std::optional<RoleConflict> findConflict(Value value) const;

  /// The matmul kind of two operand roles, if the pair is one of a linear
  /// layer's three matmuls.
  static std::optional<MatmulKind> classify(Role a, Role b);

private:
  void visit(Operation *op);
  llvm::DenseMap<Value, Role> roles;
};

} // namespace mlir::fp8

#endif // FP8_DIALECT_FP8_TRANSFORMS_ROLES_H
