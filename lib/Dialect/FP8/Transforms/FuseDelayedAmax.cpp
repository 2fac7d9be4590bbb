//===- FuseDelayedAmax.cpp - the delayed recipe's amax into its kernel ---===//
//
// Under delayed scaling the quantization's amax is the history's where that
// is usable and the data's otherwise, and the data's amax also goes into
// the history: the data's amax, the history's reduction, the choice and the
// quantization become one fp8.quantize_delayed (docs/Passes.md).
//
//===----------------------------------------------------------------------===//

#include "FuseQuantization.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::fusion;

/// Whether `value` is a splat constant (a 1x1 tensor) of +0.0, or of +inf
/// with `infinity`.
static bool isSplatOf(Value value, bool infinity) {
  DenseFPElementsAttr dense;
  if (!matchPattern(value, m_Constant(&dense)) || !dense.isSplat())
    return false;
  APFloat splat = dense.getSplatValue<APFloat>();
  if (infinity)
    return splat.isInfinity() && !splat.isNegative();
  return splat.isPosZero();
}

/// The history that `value` reduces as fp8-quantize-matmuls writes it
/// (tensor<Hx1x1xf32> to tensor<1x1xf32>), with whether it takes the most
/// recent entry: `linalg.reduce` over dim 0 of `arith.maximumf` from a +0.0
/// fill, or the `tensor.extract_slice` of entry H - 1. Null where it is
/// neither.
static std::pair<Value, bool> matchHistoryAmax(Value value) {
  auto single =
      RankedTensorType::get({1, 1}, Float32Type::get(value.getContext()));
  if (value.getType() != single)
    return {};
  auto isHistory = [](Value history) {
    auto type = dyn_cast<RankedTensorType>(history.getType());
    return type && type.hasStaticShape() && type.getRank() == 3 &&
           type.getElementType().isF32() && type.getDimSize(0) > 0 &&
           type.getDimSize(1) == 1 && type.getDimSize(2) == 1;
  };
  if (auto slice = value.getDefiningOp<tensor::ExtractSliceOp>()) {
    Value history = slice.getSource();
    if (!isHistory(history) || !slice.hasUnitStride() ||
        slice.getStaticOffsets() !=
            ArrayRef<int64_t>{
                cast<ShapedType>(history.getType()).getDimSize(0) - 1, 0, 0} ||
        slice.getStaticSizes() != ArrayRef<int64_t>{1, 1, 1})
      return {};
    return {history, true};
  }
  auto reduce = value.getDefiningOp<linalg::ReduceOp>();
  if (!reduce || reduce.getNumDpsInputs() != 1 ||
      reduce.getDimensions() != ArrayRef<int64_t>{0} ||
      !isHistory(reduce.getInputs()[0]) ||
      !isPositiveZeros(reduce.getInits()[0]))
    return {};
  // The body: yield(maximumf(element, accumulator)), either operand order.
  Block &body = reduce.getCombiner().front();
  auto yield = dyn_cast<linalg::YieldOp>(body.getTerminator());
  auto max = yield && yield.getNumOperands() == 1
                 ? yield.getOperand(0).getDefiningOp<arith::MaximumFOp>()
                 : arith::MaximumFOp();
  if (!max || body.getOperations().size() != 2)
    return {};
  llvm::SmallDenseSet<Value, 2> operands = {max.getLhs(), max.getRhs()};
  if (operands !=
      llvm::SmallDenseSet<Value, 2>{body.getArgument(0), body.getArgument(1)})
    return {};
  return {reduce.getInputs()[0], false};
}

/// Whether `cond` is `0 < h && h < inf` (ordered compares, either order):
/// the history's amax is usable.
static bool isUsable(Value cond, Value h) {
  auto both = cond.getDefiningOp<arith::AndIOp>();
  if (!both)
    return false;
  bool positive = false, finite = false;
  for (Value side : {both.getLhs(), both.getRhs()}) {
    auto cmp = side.getDefiningOp<arith::CmpFOp>();
    if (!cmp || cmp.getLhs() != h)
      return false;
    positive |= cmp.getPredicate() == arith::CmpFPredicate::OGT &&
                isSplatOf(cmp.getRhs(), /*infinity=*/false);
    finite |= cmp.getPredicate() == arith::CmpFPredicate::OLT &&
              isSplatOf(cmp.getRhs(), /*infinity=*/true);
  }
  return positive && finite;
}

/// Erases `ops` where nothing reads them, then what they read that is
/// left unread and side-effect free (their inits, fills, constants).
static void eraseUnread(ArrayRef<Operation *> ops) {
  SmallVector<Operation *> worklist(ops);
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!op->use_empty() || !isMemoryEffectFree(op))
      continue;
    for (Value operand : op->getOperands())
      if (Operation *def = operand.getDefiningOp())
        worklist.push_back(def);
    op->erase();
    // An op read twice by `op` is pushed twice: drop the erased one.
    llvm::erase(worklist, op);
  }
}

/// Fuses the delayed recipe's quantization `q` of %x with the data's amax
/// that also goes into the history: `fp8.quantize %x amax(select(0 < h <
/// inf, h, fp8.amax %x))`, h the history's max or most recent entry,
/// becomes one fp8.quantize_delayed of %x and the history where `q` was,
/// the readers of the data's amax (the history's roll) moved after it. The
/// data's amax, the history's reduction, the choice and `q` go where
/// nothing else reads them. Tensorwise, round-to-nearest, a static matrix
/// of 16-element chunks (the tensorwise kernel's loads). Returns whether it
/// fused.
bool fusion::fuseDelayedAmax(QuantizeOp q) {
  Value used = q.getAmax();
  auto select = used ? used.getDefiningOp<arith::SelectOp>() : nullptr;
  if (!select || !select->hasOneUse() || q.getSeed() ||
      q.getRounding() != Rounding::nearest || q->hasAttr(kKernelAttrName) ||
      !llvm::all_of(q.getScaling().getTile(), ShapedType::isDynamic))
    return false;
  auto type = dyn_cast<RankedTensorType>(q.getInput().getType());
  if (!type || !isStaticMatrixOfLoadable(type) ||
      type.getNumElements() % 16 != 0)
    return false;
  auto current = select.getFalseValue().getDefiningOp<AmaxOp>();
  auto [history, mostRecent] = matchHistoryAmax(select.getTrueValue());
  if (!current || current.getInput() != q.getInput() ||
      !llvm::all_of(current.getTile().getExtents(), ShapedType::isDynamic) ||
      !history || !isUsable(select.getCondition(), select.getTrueValue()))
    return false;
  // The history must be there at the data's amax already.
  Block *block = current->getBlock();
  if (select->getBlock() != block || q->getBlock() != block)
    return false;
  if (Operation *def = history.getDefiningOp();
      def && (def->getBlock() != block || !def->isBeforeInBlock(current)))
    return false;
  if (auto arg = dyn_cast<BlockArgument>(history);
      arg && arg.getOwner() != block)
    return false;

  // Where q was, so that the FP8 data is made (and held) where the unfused
  // program made it; the readers of the data's amax before q (the roll)
  // then move after it. Where one cannot (it has effects or regions, or
  // is read before q), at the fp8.amax instead.
  SmallVector<Operation *> early;
  for (Operation *user : current->getUsers())
    if (user != select && user->isBeforeInBlock(q))
      early.push_back(user);
  bool movable = llvm::all_of(early, [&](Operation *user) {
    return user->getBlock() == block && user->getNumRegions() == 0 &&
           isMemoryEffectFree(user) &&
           llvm::all_of(user->getUsers(), [&](Operation *reader) {
             return reader->getBlock() == block && reader != q.getOperation() &&
                    q->isBeforeInBlock(reader);
           });
  });
  llvm::sort(early,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  OpBuilder b(movable ? q.getOperation() : current.getOperation());
  auto fused = QuantizeDelayedOp::create(
      b, FusedLoc::get(b.getContext(), {q.getLoc(), current.getLoc()}),
      q.getResult().getType(), q.getScale().getType(), current.getType(),
      q.getInput(), history, q.getScaling(), q.getMargin(), mostRecent);
  if (Attribute role = q->getAttr(FP8Dialect::getRoleAttrName()))
    fused->setAttr(FP8Dialect::getRoleAttrName(), role);
  q.getResult().replaceAllUsesWith(fused.getResult());
  q.getScale().replaceAllUsesWith(fused.getScale());
  Operation *choice = select;
  q.erase();
  current.getResult().replaceAllUsesWith(fused.getAmax());
  if (movable) {
    Operation *last = fused;
    for (Operation *user : early) {
      user->moveAfter(last);
      last = user;
    }
  }
  eraseUnread({choice, current});
  return true;
}
