//===- Roles.cpp - training roles of values -------------------------------===//
//
// Role propagation and matmul recognition for fp8-quantize-matmuls. A role
// follows a value through anything that does not mix it with other data
// (transposes, reshapes, casts, pads, elementwise ops), and matmuls create
// roles: Fprop produces the next layer's activations, Dgrad the previous
// layer's gradients.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Transforms/Roles.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace mlir::fp8;

std::optional<MatmulView> fp8::getMatmulView(linalg::LinalgOp op) {
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 ||
      !op.hasPureTensorSemantics() || !linalg::isaContractionOpInterface(op))
    return std::nullopt;
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims) || dims->m.size() != 1 || dims->n.size() != 1 ||
      dims->k.size() != 1 || dims->batch.size() > 1 ||
      op.getNumLoops() != 3 + dims->batch.size())
    return std::nullopt;
  bool batched = !dims->batch.empty();
  unsigned matrixStart = batched ? 1 : 0;
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  // Every operand is (batch?, two matrix dims) with the batch dim leading.
  for (AffineMap map : maps) {
    if (!map.isProjectedPermutation() || map.getNumResults() != matrixStart + 2)
      return std::nullopt;
    if (batched && map.getDimPosition(0) != dims->batch[0])
      return std::nullopt;
  }
  auto positionOf = [&](AffineMap map, unsigned loop) {
    return map.getDimPosition(matrixStart) == loop ? 0 : 1;
  };
  MatmulView view;
  view.op = op;
  view.batched = batched;
  view.a = op.getDpsInputOperand(0)->get();
  view.b = op.getDpsInputOperand(1)->get();
  view.contracting[0] = positionOf(maps[0], dims->k[0]);
  view.contracting[1] = positionOf(maps[1], dims->k[0]);
  // A result stored (n, m) is the product with the operands swapped.
  if (maps[2].getDimPosition(matrixStart) == dims->n[0]) {
    std::swap(view.a, view.b);
    std::swap(view.contracting[0], view.contracting[1]);
  }
  return view;
}

std::optional<MatmulKind> RoleAnalysis::classify(Role a, Role b) {
  if (a > b)
    std::swap(a, b);
  // Role order: activation < weight < gradient.
  if (a == Role::activation && b == Role::weight)
    return MatmulKind::fprop;
  if (a == Role::weight && b == Role::gradient)
    return MatmulKind::dgrad;
  if (a == Role::activation && b == Role::gradient)
    return MatmulKind::wgrad;
  return std::nullopt;
}

RoleAnalysis::RoleAnalysis(FunctionOpInterface func) {
  for (BlockArgument arg : func.getArguments())
    if (auto role = func.getArgAttrOfType<StringAttr>(
            arg.getArgNumber(), FP8Dialect::getRoleAttrName()))
      if (std::optional<Role> parsed = symbolizeRole(role.getValue()))
        roles[arg] = *parsed;
  func->walk([&](Operation *op) { visit(op); });
}

std::optional<Role> RoleAnalysis::getRole(Value value) const {
  auto it = roles.find(value);
  if (it == roles.end())
    return std::nullopt;
  return it->second;
}

/// Whether `op` moves or converts data without mixing elements of
/// different roles' tensors in a way that changes what they are.
static bool preservesRole(Operation *op) {
  if (op->hasTrait<OpTrait::Elementwise>())
    return true;
  if (isa<linalg::TransposeOp, linalg::CopyOp, tensor::CastOp,
          tensor::ExpandShapeOp, tensor::CollapseShapeOp, tensor::ReshapeOp,
          tensor::PadOp>(op))
    return true;
  auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
  return linalgOp && linalgOp.getNumLoops() == linalgOp.getNumParallelLoops();
}

std::string fp8::describeRoleOrigin(Value value) {
  // Follow the first data operand back while the op would pass a role on.
  while (Operation *def = value.getDefiningOp()) {
    if (!preservesRole(def) || def->hasAttr(FP8Dialect::getRoleAttrName()))
      break;
    auto dps = dyn_cast<DestinationStyleOpInterface>(def);
    Value next;
    for (OpOperand &operand : def->getOpOperands())
      if (!(dps && dps.isDpsInit(&operand)) &&
          isa<ShapedType>(operand.get().getType())) {
        next = operand.get();
        break;
      }
    if (!next)
      break;
    value = next;
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    os << "function argument #" << arg.getArgNumber();
    if (auto func =
            dyn_cast<FunctionOpInterface>(arg.getOwner()->getParentOp()))
      os << " of @" << func.getName();
  } else {
    os << "the result of '" << value.getDefiningOp()->getName() << "' at "
       << value.getDefiningOp()->getLoc();
  }
  return text;
}

/// The data operands of `op`: all but a destination-style op's inits.
static SmallVector<Value> getDataOperands(Operation *op) {
  SmallVector<Value> operands;
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands())
    if (!(dps && dps.isDpsInit(&operand)))
      operands.push_back(operand.get());
  return operands;
}

std::optional<RoleConflict> RoleAnalysis::findConflict(Value value) const {
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Operation *, 8> visited;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || !preservesRole(def) || !visited.insert(def).second)
      continue;
    std::optional<std::pair<Value, Role>> seen;
    for (Value operand : getDataOperands(def)) {
      std::optional<Role> role = getRole(operand);
      if (!role) {
        worklist.push_back(operand);
        continue;
      }
      if (seen && seen->second != *role)
        return RoleConflict{def, seen->first, operand, seen->second, *role};
      seen = {operand, *role};
    }
  }
  return std::nullopt;
}

void RoleAnalysis::visit(Operation *op) {
  // An explicit role on an op (e.g. a constant weight) names its result's.
  if (auto role = op->getAttrOfType<StringAttr>(FP8Dialect::getRoleAttrName()))
    if (std::optional<Role> parsed = symbolizeRole(role.getValue());
        parsed && op->getNumResults() == 1 && !isa<QuantizeOp>(op)) {
      roles[op->getResult(0)] = *parsed;
      return;
    }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op)) {
    if (std::optional<MatmulView> view = getMatmulView(linalgOp)) {
      std::optional<Role> a = getRole(view->a), b = getRole(view->b);
      if (!a || !b)
        return;
      std::optional<MatmulKind> kind = classify(*a, *b);
      if (kind == MatmulKind::fprop)
        roles[op->getResult(0)] = Role::activation;
      else if (kind == MatmulKind::dgrad)
        roles[op->getResult(0)] = Role::gradient;
      return;
    }
  }
  if (!preservesRole(op) || op->getNumResults() == 0)
    return;
  // The common role of the data operands (a linalg op's inits are only
  // destinations). A gradient times anything is a gradient (the chain rule
  // multiplies it by local derivatives, e.g. dH = dA * gelu'(H)); other
  // disagreements leave the role unknown.
  std::optional<Role> common;
  bool anyGradient = false, conflict = false;
  auto dps = dyn_cast<DestinationStyleOpInterface>(op);
  for (OpOperand &operand : op->getOpOperands()) {
    if (dps && dps.isDpsInit(&operand))
      continue;
    std::optional<Role> role = getRole(operand.get());
    if (!role)
      continue;
    anyGradient |= *role == Role::gradient;
    if (common && *common != *role)
      conflict = true;
    common = role;
  }
  if (anyGradient)
    common = Role::gradient;
  else if (conflict)
    return;
  if (!common)
    return;
  for (Value result : op->getResults())
    if (isa<ShapedType>(result.getType()))
      roles[result] = *common;
}
