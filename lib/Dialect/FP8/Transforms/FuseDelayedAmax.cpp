//===- FuseDelayedAmax.cpp - the delayed recipe's amax into its kernel ---===//
//
// Under delayed scaling the quantization's amax is the history's where that
// is usable and the data's otherwise, and the data's amax also goes into
// the history: the data's amax, the history's reduction, the choice and the
// quantization become one fp8.quantize_delayed (docs/Passes.md), also where
// the quantization is of the transpose of the value whose amax the history
// holds (the Wgrad and Dgrad operands fp8-legalize transposes).
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

/// Whether matrix `a` holds the elements of matrix `b` transposed, bit for
/// bit: a `linalg.transpose` of it, or the same Hadamard rotation (size
/// and seed) along the other dim of such a transpose. A rotation computes
/// each block by the same operations in the same order along either dim
/// (docs/Numerics.md), so `hadamard(transpose(y), dim 1)` is
/// `transpose(hadamard(y, dim 0))`, and both have the same amax.
static bool isTransposeOf(Value a, Value b) {
  auto isMatrixTranspose = [](Value t, Value of) {
    auto transpose = t.getDefiningOp<linalg::TransposeOp>();
    return transpose && transpose.getInput() == of &&
           transpose.getPermutation() == ArrayRef<int64_t>{1, 0};
  };
  if (isMatrixTranspose(a, b) || isMatrixTranspose(b, a))
    return true;
  auto ra = a.getDefiningOp<HadamardOp>();
  auto rb = b.getDefiningOp<HadamardOp>();
  return ra && rb && ra.getSize() == rb.getSize() &&
         ra.getSeed() == rb.getSeed() && ra.getDim() + rb.getDim() == 1 &&
         isTransposeOf(ra.getInput(), rb.getInput());
}

/// Whether `value` is available before `op` in `op`'s block.
static bool isDefinedBefore(Value value, Operation *op) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return arg.getOwner() == op->getBlock();
  Operation *def = value.getDefiningOp();
  return def->getBlock() == op->getBlock() && def->isBeforeInBlock(op);
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
/// nothing else reads them. Also where `q` quantizes the transpose of the
/// value whose amax the history holds, as fp8-legalize writes the operand
/// of a matmul contracted along its rows: %x the transpose (or its
/// rotation the rotation of the transpose, isTransposeOf) and the amax
/// chosen transposed, which for one amax per tensor is the same value;
/// the fused op's amax of %x is then the amax it replaces, bit for bit.
/// Tensorwise, round-to-nearest, a static matrix of 16-element chunks (the
/// tensorwise kernel's loads). Returns whether it fused.
bool fusion::fuseDelayedAmax(QuantizeOp q) {
  Value used = q.getAmax();
  auto usedT = used ? used.getDefiningOp<linalg::TransposeOp>() : nullptr;
  if (usedT) {
    if (!usedT->hasOneUse() ||
        cast<ShapedType>(used.getType()).getNumElements() != 1)
      return false;
    used = usedT.getInput();
  }
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
  if (!current ||
      (current.getInput() != q.getInput() &&
       !isTransposeOf(q.getInput(), current.getInput())) ||
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
  // At the fp8.amax, the transpose quantized must be there already.
  if (!movable && !isDefinedBefore(q.getInput(), current))
    return false;
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
  Operation *choice = usedT ? usedT.getOperation() : select.getOperation();
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
