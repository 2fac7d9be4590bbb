//===- InsertHadamard.cpp - paired rotations before quantization ----------===//
//
// fp8-insert-hadamard: x·Wᵀ = (x·R)·(W·R)ᵀ for any orthogonal R applied along
// the contracted dim, so rotating both operands by the same block Hadamard
// leaves the product unchanged while it spreads outliers, which would
// otherwise inflate their tile's scale, over the block.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/MathExtras.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8INSERTHADAMARD
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {
struct FP8InsertHadamardPass
    : fp8::impl::FP8InsertHadamardBase<FP8InsertHadamardPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<MatmulKind> kinds;
    for (const std::string &name : matmuls) {
      std::optional<MatmulKind> kind = symbolizeMatmulKind(name);
      if (!kind) {
        emitError(getOptionLoc(getOperation(), isFP8Op))
            << "fp8-insert-hadamard: unknown matmul '" << name
            << "', expected fprop, dgrad or "
            << "wgrad";
        return signalPassFailure();
      }
      kinds.push_back(*kind);
    }
    for (auto func : getOperation().getOps<FunctionOpInterface>())
      if (failed(rotate(func, kinds)))
        return signalPassFailure();
  }

  LogicalResult rotate(FunctionOpInterface func, ArrayRef<MatmulKind> kinds);
};
} // namespace

/// The fp8.amax of the current data in the delayed-scaling chain that
/// fp8-quantize-matmuls builds for `q` (select(usable history, history,
/// current)), or null where `q`'s amax comes from elsewhere.
static AmaxOp findCurrentAmax(QuantizeOp q) {
  auto select = q.getAmax().getDefiningOp<arith::SelectOp>();
  return select ? select.getFalseValue().getDefiningOp<AmaxOp>() : AmaxOp();
}

/// Delayed scaling: a rotated quantization must take its amax, and roll into
/// its history, the amax of the rotated data it quantizes; the history's
/// amax of unrotated data would scale it wrongly. Rewires the chain's
/// fp8.amax to the rotation where every quantization that reads the chain
/// quantizes that same rotation.
static LogicalResult rotateDelayedAmax(QuantizeOp q) {
  auto rotation = q.getInput().getDefiningOp<HadamardOp>();
  AmaxOp current = findCurrentAmax(q);
  if (!current)
    return q.emitOpError(
        "fp8-insert-hadamard cannot rotate a quantization whose amax is "
        "given: the amax would be that of the unrotated data");
  if (current.getInput() == rotation.getResult())
    return success();
  if (current.getInput() != rotation.getInput())
    return q.emitOpError("fp8-insert-hadamard: the delayed amax of this "
                         "quantization is not that of the data it rotates");
  Operation *select = q.getAmax().getDefiningOp();
  // One fp8.amax per history, as fp8-quantize-matmuls builds it: a cse
  // between the passes merges the identical amaxes of two histories, which
  // may then be rotated differently.
  if (llvm::count_if(current->getUsers(), llvm::IsaPred<arith::SelectOp>) > 1)
    return q.emitOpError(
        "fp8-insert-hadamard: the delayed amax of this quantization serves "
        "several amax histories (merged by cse?); run cse after "
        "fp8-insert-hadamard");
  for (Operation *user : select->getUsers()) {
    auto other = dyn_cast<QuantizeOp>(user);
    if (other && other.getInput() != rotation.getResult())
      return q.emitOpError(
          "fp8-insert-hadamard: delayed scaling keeps one amax history for "
          "quantizations of this value that are rotated differently (or not "
          "at all); set the recipe's hadamard field instead of the pass "
          "option, so that fp8-quantize-matmuls keeps a history per rotation");
  }
  if (current->getBlock() != rotation->getBlock())
    return q.emitOpError("fp8-insert-hadamard: the delayed amax of this "
                         "quantization is in another block than its data");
  if (current->isBeforeInBlock(rotation))
    rotation->moveBefore(current);
  current.getInputMutable().assign(rotation.getResult());
  return success();
}

LogicalResult FP8InsertHadamardPass::rotate(FunctionOpInterface func,
                                            ArrayRef<MatmulKind> kinds) {
  int64_t blockSize = size;
  if (blockSize == 0)
    if (auto recipe =
            func->getAttrOfType<RecipeAttr>(FP8Dialect::getRecipeAttrName()))
      blockSize = recipe.getHadamard();
  // The one-call pipeline rotates exactly what the recipe asks for.
  if (blockSize == 0 && ifRecipe)
    return success();
  // One rotation per (value, dim): both operands of a matmul and every
  // matmul that contracts the same value along the same dim share it.
  llvm::DenseMap<std::pair<Value, int64_t>, Value> rotations;
  SmallVector<QuantizeOp> rotatedDelayed;
  WalkResult walk = func->walk([&](ScaledMatmulOp mm) {
    auto kindAttr =
        mm->getAttrOfType<StringAttr>(FP8Dialect::getMatmulAttrName());
    std::optional<MatmulKind> kind =
        kindAttr ? symbolizeMatmulKind(kindAttr.getValue()) : std::nullopt;
    if (!kind || (!kinds.empty() && !llvm::is_contained(kinds, *kind)))
      return WalkResult::advance();
    if (blockSize == 0) {
      mm.emitOpError("fp8-insert-hadamard needs a size: set the pass option "
                     "or the recipe's hadamard field");
      return WalkResult::interrupt();
    }
    if (!llvm::isPowerOf2_64(blockSize)) {
      mm.emitOpError() << "Hadamard size " << blockSize
                       << " is not a power of two";
      return WalkResult::interrupt();
    }
    auto qa = mm.getA().getDefiningOp<QuantizeOp>();
    auto qb = mm.getB().getDefiningOp<QuantizeOp>();
    if (!qa || !qb) {
      mm.emitOpError("fp8-insert-hadamard needs both operands quantized by "
                     "fp8.quantize in this function");
      return WalkResult::interrupt();
    }
    int64_t k = mm.getA().getType().getDimSize(mm.getA().getType().getRank() -
                                               2 + mm.getContracting()[0]);
    if (!ShapedType::isDynamic(k) && k % blockSize != 0) {
      mm.emitOpError() << "Hadamard size " << blockSize
                       << " does not divide the contracted extent " << k;
      return WalkResult::interrupt();
    }
    OpBuilder b(mm);
    for (MatmulSide side : kMatmulSides) {
      auto q = mm.getData(side).getDefiningOp<QuantizeOp>();
      auto input = q.getInput();
      auto inputType = cast<RankedTensorType>(input.getType());
      int64_t dim = inputType.getRank() - 2 + mm.getContractingDim(side);
      Value &rotated = rotations[{input, dim}];
      if (!rotated) {
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPoint(q);
        rotated = HadamardOp::create(
            b, q.getLoc(), inputType, input, dim, blockSize,
            seed >= 0 ? b.getI64IntegerAttr(seed) : IntegerAttr());
      }
      // The quantization may serve other matmuls: give this one its own.
      b.setInsertionPoint(q);
      auto clone = cast<QuantizeOp>(b.clone(*q));
      clone.getInputMutable().assign(rotated);
      if (clone.getAmax())
        rotatedDelayed.push_back(clone);
      mm.setData(side, clone.getResult());
      mm.setScale(side, clone.getScale());
      if (q->use_empty())
        q->erase();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Once every matmul is rotated, so that all readers of an amax history
  // are known; only the quantizations this pass rotated.
  for (QuantizeOp q : rotatedDelayed)
    if (failed(rotateDelayedAmax(q)))
      return failure();
  return success();
}
