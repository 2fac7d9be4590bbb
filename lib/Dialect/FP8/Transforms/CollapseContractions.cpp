//===- CollapseContractions.cpp - [B, T, K] activations as one matmul -----===//
//
// fp8-collapse-contractions: models hold activations as [batch, sequence,
// features], so a layer's Fprop is a contraction with two M loops, its
// Dgrad too, and its Wgrad contracts two loops at once. Every such loop
// group (the batch, M, N or K loops) whose loops lie next to each other and
// in one order in every operand is one dim of a plain matmul: the operands
// are collapsed (tensor.collapse_shape, a view), the contraction runs as a
// linalg.generic over one loop per group, and its result is expanded back.
// fp8-quantize-matmuls then sees the matmul it knows. A contraction whose
// groups cannot be collapsed so is left as it is, with a warning that says
// which loops are in the way.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8COLLAPSECONTRACTIONS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {
/// The loop groups of a contraction, in the order of the collapsed loops:
/// batch, M, N, K (empty groups dropped).
struct LoopGroups {
  SmallVector<SmallVector<unsigned>> loops;
  SmallVector<StringRef> names;
  /// groupOf[loop]: the index of the loop's group.
  SmallVector<unsigned> groupOf;
};

/// How an operand map becomes a collapsed one: its result positions grouped
/// (the collapse_shape reassociation) and the group of each.
struct OperandCollapse {
  SmallVector<ReassociationIndices> reassociation;
  SmallVector<unsigned> groups;
  bool collapses() const {
    return llvm::any_of(reassociation, [](const ReassociationIndices &r) {
      return r.size() > 1;
    });
  }
};
} // namespace

static LoopGroups groupLoops(linalg::LinalgOp op,
                             const linalg::ContractionDimensions &dims) {
  LoopGroups groups;
  groups.groupOf.assign(op.getNumLoops(), 0);
  auto add = [&](ArrayRef<unsigned> loops, StringRef name) {
    if (loops.empty())
      return;
    for (unsigned loop : loops)
      groups.groupOf[loop] = groups.loops.size();
    groups.loops.emplace_back(loops.begin(), loops.end());
    groups.names.push_back(name);
  };
  add(dims.batch, "batch");
  add(dims.m, "M");
  add(dims.n, "N");
  add(dims.k, "K");
  return groups;
}

/// The collapse of `map`, whose results are loops: each group's loops must
/// be adjacent and in the order `order` gives (the group's order in the
/// first map that has it, recorded there).
static FailureOr<OperandCollapse>
collapseMap(AffineMap map, const LoopGroups &groups,
            SmallVectorImpl<SmallVector<unsigned>> &order) {
  OperandCollapse collapse;
  for (unsigned pos = 0; pos < map.getNumResults(); ++pos) {
    unsigned loop = map.getDimPosition(pos);
    unsigned group = groups.groupOf[loop];
    if (collapse.groups.empty() || collapse.groups.back() != group) {
      // A group starts here, and must not have appeared before.
      if (llvm::is_contained(collapse.groups, group))
        return failure();
      collapse.groups.push_back(group);
      collapse.reassociation.emplace_back();
    }
    collapse.reassociation.back().push_back(pos);
  }
  for (auto [group, positions] :
       llvm::zip(collapse.groups, collapse.reassociation)) {
    SmallVector<unsigned> loops = llvm::map_to_vector(
        positions, [&](int64_t pos) { return map.getDimPosition(pos); });
    if (loops.size() != groups.loops[group].size())
      return failure();
    if (order[group].empty())
      order[group] = loops;
    else if (order[group] != loops)
      return failure();
  }
  return collapse;
}

static std::string describeLoops(ArrayRef<unsigned> loops) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "(";
  llvm::interleaveComma(loops, os, [&](unsigned loop) { os << "d" << loop; });
  os << ")";
  return text;
}

/// Rewrites `op` into collapse_shape + a one-loop-per-group linalg.generic +
/// expand_shape. Returns failure (after a warning) where the groups do not
/// collapse.
static LogicalResult collapse(linalg::LinalgOp op) {
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (failed(dims))
    return success();
  if (dims->batch.size() <= 1 && dims->m.size() <= 1 && dims->n.size() <= 1 &&
      dims->k.size() <= 1)
    return success();
  LoopGroups groups = groupLoops(op, *dims);
  // Every loop is in a group: a contraction's maps are projected
  // permutations of its loops with one M, N, K or batch role each.
  unsigned grouped = 0;
  for (const SmallVector<unsigned> &loops : groups.loops)
    grouped += loops.size();
  if (grouped != op.getNumLoops() ||
      llvm::any_of(op.getIndexingMapsArray(),
                   [](AffineMap map) { return !map.isProjectedPermutation(); }))
    return success();
  // A body that reads its loop indices would see the collapsed ones.
  if (!op.getBlock()->getOps<linalg::IndexOp>().empty())
    return success();

  SmallVector<SmallVector<unsigned>> order(groups.loops.size());
  SmallVector<OperandCollapse> collapses;
  for (OpOperand &operand : op->getOpOperands()) {
    FailureOr<OperandCollapse> c =
        collapseMap(op.getMatchingIndexingMap(&operand), groups, order);
    if (failed(c)) {
      for (auto [loops, name] : llvm::zip(groups.loops, groups.names))
        if (loops.size() > 1)
          op->emitWarning("fp8-collapse-contractions: a contraction over ")
              << name << " loops " << describeLoops(loops)
              << " that are not adjacent and in one order in operand #"
              << operand.getOperandNumber()
              << ", so it is not one matmul and is not quantized; transpose "
                 "or reshape the operand so that they are";
      return failure();
    }
    collapses.push_back(*c);
  }

  OpBuilder b(op);
  Location loc = op.getLoc();
  MLIRContext *ctx = op.getContext();
  SmallVector<Value> collapsed;
  SmallVector<AffineMap> maps;
  for (auto [operand, c] : llvm::zip(op->getOpOperands(), collapses)) {
    Value value = operand.get();
    if (c.collapses())
      value = tensor::CollapseShapeOp::create(b, loc, value, c.reassociation);
    collapsed.push_back(value);
    SmallVector<AffineExpr> results =
        llvm::map_to_vector(c.groups, [&](unsigned group) -> AffineExpr {
          return getAffineDimExpr(group, ctx);
        });
    maps.push_back(AffineMap::get(groups.loops.size(), 0, results, ctx));
  }
  SmallVector<utils::IteratorType> iterators =
      llvm::map_to_vector(groups.names, [](StringRef name) {
        return name == "K" ? utils::IteratorType::reduction
                           : utils::IteratorType::parallel;
      });
  unsigned numInputs = op.getNumDpsInputs();
  Value init = collapsed[numInputs];
  auto generic = linalg::GenericOp::create(
      b, loc, TypeRange{init.getType()},
      ArrayRef<Value>(collapsed).take_front(numInputs), ValueRange{init}, maps,
      iterators);
  IRMapping mapping;
  op->getRegion(0).cloneInto(&generic.getRegion(), mapping);
  Value result = generic.getResult(0);
  const OperandCollapse &out = collapses[numInputs];
  if (out.collapses())
    result = tensor::ExpandShapeOp::create(b, loc, op->getResult(0).getType(),
                                           result, out.reassociation);
  // Roles and other discardable attributes (fp8.matmul, names) follow.
  generic->setDiscardableAttrs(op->getDiscardableAttrDictionary());
  op->getResult(0).replaceAllUsesWith(result);
  op->erase();
  return success();
}

namespace {
struct CollapseContractionsPass
    : public fp8::impl::FP8CollapseContractionsBase<CollapseContractionsPass> {
  void runOnOperation() override {
    SmallVector<linalg::LinalgOp> contractions;
    getOperation()->walk([&](linalg::LinalgOp op) {
      if (op.hasPureTensorSemantics() && op.getNumDpsInputs() == 2 &&
          op.getNumDpsInits() == 1 && linalg::isaContractionOpInterface(op) &&
          llvm::all_of(op->getOperandTypes(), [](Type type) {
            auto shaped = dyn_cast<ShapedType>(type);
            return shaped && shaped.hasStaticShape();
          }))
        contractions.push_back(op);
    });
    // A contraction that does not collapse keeps its form (and warning).
    for (linalg::LinalgOp op : contractions)
      (void)collapse(op);
  }
};
} // namespace
