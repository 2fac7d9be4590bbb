//===- FP8Dialect.cpp - FP8 dialect ---------------------------------------===//
//
// Registers the fp8 dialect and verifies its discardable attributes: the
// `fp8.role` function-argument attribute names the training role of a matmul
// operand, from which fp8-quantize-matmuls picks the recipe's policy.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::fp8;

#include "fp8/Dialect/FP8/IR/FP8Dialect.cpp.inc"

void FP8Dialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "fp8/Dialect/FP8/IR/FP8Ops.cpp.inc"
      >();
  registerAttributes();
}

std::optional<StringRef> fp8::findClosestName(StringRef name,
                                              ArrayRef<StringRef> candidates) {
  unsigned limit = std::max<unsigned>(2, name.size() / 3);
  std::optional<StringRef> best;
  unsigned bestDistance = limit + 1;
  for (StringRef candidate : candidates) {
    unsigned distance =
        name.edit_distance(candidate, /*AllowReplacements=*/true,
                           /*MaxEditDistance=*/limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}

/// The argument and result attribute of fp8-split-forward-backward: a
/// string naming what crosses between a training function's forward and
/// backward. (Named here and in the pass rather than in FP8Dialect.td,
/// whose change rebuilds every file of the project.)
static constexpr StringLiteral kSavedAttrName = "fp8.saved";

static LogicalResult verifySavedValue(Operation *op, NamedAttribute attr,
                                      StringRef what, unsigned index) {
  if (!isa<StringAttr>(attr.getValue()))
    return op->emitError() << "'" << kSavedAttrName
                           << "' is a string label of a value forward saves "
                              "for backward, "
                           << what << " #" << index << " has "
                           << attr.getValue();
  return success();
}

/// Checks that `attr`, found on `op`, is a valid `fp8.role`.
static LogicalResult verifyRoleValue(Operation *op, NamedAttribute attr) {
  auto value = dyn_cast<StringAttr>(attr.getValue());
  if (!value || !symbolizeRole(value.getValue()))
    return op->emitError()
           << "'" << FP8Dialect::getRoleAttrName()
           << "' must be \"activation\", \"weight\" or \"gradient\", got "
           << attr.getValue();
  return success();
}

LogicalResult FP8Dialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attr) {
  // A function's argument types come from its type: a declaration has no
  // entry block to hold the arguments (fp8-fuzz found the assertion).
  Type argType;
  if (auto func = dyn_cast<FunctionOpInterface>(op)) {
    ArrayRef<Type> types = func.getArgumentTypes();
    if (argIndex < types.size())
      argType = types[argIndex];
  } else if (Region &region = op->getRegion(regionIndex);
             !region.empty() && argIndex < region.getNumArguments()) {
    argType = region.getArgument(argIndex).getType();
  }
  if (!argType)
    return op->emitError() << "'" << attr.getName().getValue()
                           << "' on argument #" << argIndex
                           << ", which the region does not have";
  if (attr.getName() == getSeedAttrName()) {
    if (!isa<UnitAttr>(attr.getValue()) || !argType.isInteger(64))
      return op->emitError() << "'" << getSeedAttrName()
                             << "' is a unit attribute of an i64 argument, "
                                "argument #"
                             << argIndex << " is " << argType;
    return success();
  }
  if (attr.getName() == getAmaxHistoryAttrName()) {
    auto tensor = dyn_cast<RankedTensorType>(argType);
    if (!isa<UnitAttr>(attr.getValue()) || !tensor ||
        !tensor.getElementType().isF32() || tensor.getRank() < 1)
      return op->emitError() << "'" << getAmaxHistoryAttrName()
                             << "' is a unit attribute of a ranked f32 "
                                "tensor argument, argument #"
                             << argIndex << " is " << argType;
    return success();
  }
  if (attr.getName() == kSavedAttrName)
    return verifySavedValue(op, attr, "argument", argIndex);
  if (attr.getName() != getRoleAttrName())
    return op->emitError() << "unknown fp8 argument attribute '"
                           << attr.getName().getValue() << "'";
  if (failed(verifyRoleValue(op, attr)))
    return failure();
  auto shaped = dyn_cast<ShapedType>(argType);
  if (!shaped || !isa<FloatType>(shaped.getElementType()))
    return op->emitError() << "'" << getRoleAttrName()
                           << "' needs a tensor of floats, argument #"
                           << argIndex << " is " << argType;
  return success();
}

LogicalResult FP8Dialect::verifyRegionResultAttribute(Operation *op,
                                                      unsigned regionIndex,
                                                      unsigned resultIndex,
                                                      NamedAttribute attr) {
  if (attr.getName() == getMonitorAttrName()) {
    if (!isa<StringAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getMonitorAttrName()
             << "' is a string label of a quantization statistic, result #"
             << resultIndex << " has " << attr.getValue();
    return success();
  }
  if (attr.getName() == kSavedAttrName)
    return verifySavedValue(op, attr, "result", resultIndex);
  return op->emitError() << "'" << attr.getName().getValue()
                         << "' is not valid on a result: roles belong to "
                            "function arguments";
}

LogicalResult FP8Dialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  StringAttr name = attr.getName();
  if (name == getRoleAttrName()) {
    // On an op, the role of its result (e.g. a constant weight); on a
    // quantization (fused or not), the role of the value it quantizes.
    bool hasTensorResult =
        op->getNumResults() == 1 && isa<ShapedType>(op->getResult(0).getType());
    if (!isa<QuantizeOp, QuantizeMonitoredOp, QuantizeTransposeOp,
             QuantizeElementwiseOp, QuantizeDelayedOp>(op) &&
        !hasTensorResult)
      return op->emitError()
             << "'" << getRoleAttrName()
             << "' on an operation names the role of its "
                "single tensor result; '"
             << op->getName() << "' has " << op->getNumResults() << " results";
    return verifyRoleValue(op, attr);
  }
  if (name == getMatmulAttrName()) {
    auto value = dyn_cast<StringAttr>(attr.getValue());
    if (!isa<ScaledMatmulOp>(op) || !value ||
        !symbolizeMatmulKind(value.getValue()))
      return op->emitError() << "'" << getMatmulAttrName()
                             << "' must be \"fprop\", \"dgrad\" or \"wgrad\" "
                                "on an fp8.scaled_matmul";
    return success();
  }
  if (name == getRecipeAttrName()) {
    if (!isa<RecipeAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getRecipeAttrName() << "' must be a #fp8.recipe, got "
             << attr.getValue();
    return success();
  }
  // The chip is checked where it is read (fp8::Target, which knows why a
  // chip is refused); here only where it may stand.
  if (name == getTargetAttrName()) {
    if (!isa<ModuleOp>(op) || !isa<StringAttr>(attr.getValue()))
      return op->emitError()
             << "'" << getTargetAttrName()
             << "' must be a chip name (a string) on a builtin.module, got "
             << attr.getValue() << " on '" << op->getName() << "'";
    return success();
  }
  // Set by convert-fp8-to-nvvm: the kernel of an op and the parameters its
  // values bind to, and a kernel's launch.
  if (name.getValue() == kKernelAttrName ||
      name.getValue() == kManifestAttrName)
    return success();
  if (name.getValue() == kKernelArgsAttrName) {
    if (!isa<DictionaryAttr>(attr.getValue()))
      return op->emitError()
             << "'" << kKernelArgsAttrName << "' must be a dictionary, got "
             << attr.getValue();
    return success();
  }
  return op->emitError() << "unknown fp8 attribute '" << name.getValue() << "'";
}
