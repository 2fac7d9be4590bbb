//===- QuantizeMatmuls.cpp - high-precision matmuls to scaled FP8 ---------===//
//
// fp8-quantize-matmuls: every matmul of a training graph whose operands have
// known roles becomes quantize + scaled_matmul under a recipe. The tiles come
// from the recipe's policies mapped to each operand's storage coordinates;
// sharing between matmuls is fp8-derive-scaling's job.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Transforms/Roles.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

#include <limits>

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8QUANTIZEMATMULS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// Whether the matmul's init holds zeros (or nothing defined), so that the
/// product needs no accumulation into it.
static bool isZeroInit(Value init) {
  Operation *def = init.getDefiningOp();
  if (!def)
    return false;
  if (isa<tensor::EmptyOp>(def))
    return true;
  auto fill = dyn_cast<linalg::FillOp>(def);
  return fill && (matchPattern(fill.value(), m_AnyZeroFloat()) ||
                  matchPattern(fill.value(), m_Zero()));
}

/// The tensor that `value` is a matrix transpose of (through any chain of
/// them), and the dim of that tensor which a matmul contracting `value`
/// along matrix dim `dim` contracts. A transposed operand is the same data
/// read along the other dim: quantizing the tensor itself gives a graph
/// written with `linalg.transpose` the quantizations (and amax histories)
/// of the same graph written with indexing maps.
static std::pair<Value, int64_t> lookThroughTransposes(Value value,
                                                       int64_t dim) {
  while (auto transpose = value.getDefiningOp<linalg::TransposeOp>()) {
    if (!isMatrixTransposition(transpose.getPermutation()))
      break;
    value = transpose.getInput();
    dim = 1 - dim;
  }
  return {value, dim};
}

/// Erases the transposes that `values` are read through where nothing else
/// reads them (the chains may share ops, or the values be one).
static void eraseDeadTransposes(ArrayRef<Value> values) {
  SmallVector<Operation *> transposes;
  for (Value value : values)
    while (auto transpose = value.getDefiningOp<linalg::TransposeOp>()) {
      if (!llvm::is_contained(transposes, transpose.getOperation()))
        transposes.push_back(transpose);
      value = transpose.getInput();
    }
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : transposes)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
}

/// The argument marked `fp8.seed`, or null.
static Value findSeedArgument(FunctionOpInterface func) {
  for (BlockArgument arg : func.getArguments())
    if (func.getArgAttr(arg.getArgNumber(), FP8Dialect::getSeedAttrName()))
      return arg;
  return {};
}

/// The amax of every scale tile of `value`: for delayed scaling from the
/// history argument `history` (tensor<H x scales>, oldest first), falling
/// back to the current amax while the history holds no usable value (at the
/// start of training, where TransformerEngine keeps its initial scale).
/// Returns (amax to quantize with, updated history).
static std::pair<Value, Value> buildDelayedAmax(OpBuilder &b, Location loc,
                                                Value value, Value history,
                                                ScalingAttr scaling,
                                                AmaxAlgo algo) {
  auto historyType = cast<RankedTensorType>(history.getType());
  int64_t length = historyType.getDimSize(0);
  ArrayRef<int64_t> scaleShape = historyType.getShape().drop_front();
  auto scaleType = RankedTensorType::get(scaleShape, b.getF32Type());
  Value current =
      AmaxOp::create(b, loc, scaleType, value,
                     TileAttr::get(b.getContext(), scaling.getTile()));

  // Slices of the history along dim 0.
  unsigned rank = historyType.getRank();
  auto slice = [&](Value source, int64_t offset, int64_t size) {
    SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0)), sizes,
        strides(rank, b.getIndexAttr(1));
    offsets[0] = b.getIndexAttr(offset);
    sizes.push_back(b.getIndexAttr(size));
    for (int64_t d : scaleShape)
      sizes.push_back(b.getIndexAttr(d));
    return std::make_tuple(offsets, sizes, strides);
  };

  Value fromHistory;
  if (algo == AmaxAlgo::most_recent) {
    auto [offsets, sizes, strides] = slice(history, length - 1, 1);
    fromHistory = tensor::ExtractSliceOp::create(b, loc, scaleType, history,
                                                 offsets, sizes, strides);
  } else {
    Value init = linalg::FillOp::create(
                     b, loc,
                     arith::ConstantOp::create(b, loc, b.getF32FloatAttr(0.0f))
                         .getResult(),
                     tensor::EmptyOp::create(b, loc, scaleShape, b.getF32Type())
                         .getResult())
                     .getResult(0);
    fromHistory =
        linalg::ReduceOp::create(
            b, loc, history, init, /*dimensions=*/{0},
            [](OpBuilder &nb, Location nloc, ValueRange args) {
              Value max = arith::MaximumFOp::create(nb, nloc, args[0], args[1]);
              linalg::YieldOp::create(nb, nloc, max);
            })
            .getResult(0);
  }
  // Usable: positive and finite (ordered comparisons reject NaN).
  Value zero = arith::ConstantOp::create(
      b, loc, DenseElementsAttr::get(scaleType, b.getF32FloatAttr(0.0f)));
  Value inf = arith::ConstantOp::create(
      b, loc,
      DenseElementsAttr::get(
          scaleType,
          b.getF32FloatAttr(std::numeric_limits<float>::infinity())));
  Value usable = arith::AndIOp::create(
      b, loc,
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OGT, fromHistory,
                            zero),
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::OLT, fromHistory,
                            inf));
  Value amax = arith::SelectOp::create(b, loc, usable, fromHistory, current);

  // Roll: drop the oldest entry, append the current amax.
  Value rolled =
      tensor::EmptyOp::create(b, loc, historyType.getShape(), b.getF32Type());
  if (length > 1) {
    auto [offsets, sizes, strides] = slice(history, 1, length - 1);
    Value kept = tensor::ExtractSliceOp::create(
        b, loc,
        RankedTensorType::get(llvm::to_vector(llvm::concat<const int64_t>(
                                  ArrayRef<int64_t>{length - 1}, scaleShape)),
                              b.getF32Type()),
        history, offsets, sizes, strides);
    auto [dstOffsets, dstSizes, dstStrides] = slice(rolled, 0, length - 1);
    rolled = tensor::InsertSliceOp::create(b, loc, kept, rolled, dstOffsets,
                                           dstSizes, dstStrides);
  }
  auto [offsets, sizes, strides] = slice(rolled, length - 1, 1);
  rolled = tensor::InsertSliceOp::create(b, loc, current, rolled, offsets,
                                         sizes, strides);
  return {amax, rolled};
}

/// The roles an operand can take beside one of role `other`, with the
/// matmul each pair makes, as a diagnostic suggests them.
static std::string suggestRoles(Role other) {
  std::string text;
  llvm::raw_string_ostream os(text);
  bool first = true;
  for (Role role : {Role::activation, Role::weight, Role::gradient}) {
    std::optional<MatmulKind> kind = RoleAnalysis::classify(other, role);
    if (!kind)
      continue;
    os << (first ? "" : " or ") << "{fp8.role = \"" << stringifyRole(role)
       << "\"} (" << stringifyMatmulKind(*kind) << ")";
    first = false;
  }
  return text;
}

namespace {
/// What fp8-quantize-matmuls did to a module's matmuls, for the warning
/// when it quantized none.
struct MatmulCounts {
  unsigned quantized = 0, withoutRoles = 0, highPrecision = 0;
};
} // namespace

/// Records `op` in `matmuls` if it is a matmul to quantize, with its kind;
/// warns about one that no role reaches and stops, after an error, at one
/// whose roles make no layer's matmul.
static WalkResult
collectMatmul(linalg::LinalgOp op, const RoleAnalysis &roles, RecipeAttr recipe,
              MatmulCounts &counts,
              SmallVectorImpl<std::pair<MatmulView, MatmulKind>> &matmuls) {
  std::optional<MatmulView> view = getMatmulView(op);
  if (!view)
    return WalkResult::advance();
  // Only floating-point matmuls are quantized.
  for (Value operand : {view->a, view->b}) {
    Type element = getElementTypeOrSelf(operand.getType());
    if (!isa<Float32Type, BFloat16Type, Float16Type>(element))
      return WalkResult::advance();
  }
  std::optional<Role> roleA = roles.getRole(view->a);
  std::optional<Role> roleB = roles.getRole(view->b);
  // A matmul with no role information at all may not be a layer's (e.g.
  // a reference product): it stays as it is, but says so, since a
  // frontend that forgot the roles would silently train in high
  // precision.
  if (!roleA && !roleB) {
    ++counts.withoutRoles;
    op->emitWarning()
        << "matmul left in high precision: no fp8 role reaches it; to "
           "quantize it, mark what its operands come from with fp8.role "
           "(\"activation\", \"weight\" or \"gradient\"): operand a ("
        << view->a.getType() << ") comes from " << describeRoleOrigin(view->a)
        << ", operand b (" << view->b.getType() << ") from "
        << describeRoleOrigin(view->b);
    return WalkResult::advance();
  }
  for (auto [name, value, role, other] :
       {std::make_tuple("a", view->a, roleA, roleB),
        std::make_tuple("b", view->b, roleB, roleA)}) {
    if (role)
      continue;
    InFlightDiagnostic diag = op->emitError()
                              << "cannot quantize this matmul: operand " << name
                              << " (" << value.getType() << ") has no fp8 role";
    // Roles that meet in one op cancel out; the value they came from
    // through that op has a role already, so the op is the cause.
    if (std::optional<RoleConflict> conflict = roles.findConflict(value)) {
      auto withArticle = [](Role role) {
        return (role == Role::activation ? "an " : "a ") +
               stringifyRole(role).str();
      };
      diag << ": '" << conflict->op->getName() << "' at "
           << conflict->op->getLoc() << " mixes "
           << withArticle(conflict->firstRole) << " ("
           << describeRoleOrigin(conflict->first) << ") with "
           << withArticle(conflict->secondRole) << " ("
           << describeRoleOrigin(conflict->second)
           << "), which leaves its result without a role; mark only matmul "
              "operands (a norm's gain is not a matmul weight), or add "
           << suggestRoles(*other) << " to that op";
      return WalkResult::interrupt();
    }
    diag << "; add " << suggestRoles(*other) << " to "
         << describeRoleOrigin(value);
    return WalkResult::interrupt();
  }
  std::optional<MatmulKind> kind = RoleAnalysis::classify(*roleA, *roleB);
  if (!kind) {
    op->emitError() << "cannot quantize a matmul of " << stringifyRole(*roleA)
                    << " x " << stringifyRole(*roleB)
                    << ": a recipe covers Fprop (activation x weight), "
                       "Dgrad (gradient x weight) and Wgrad (gradient x "
                       "activation)";
    return WalkResult::interrupt();
  }
  if (recipe.keepsHighPrecision(*kind)) {
    // Kept on purpose: emission gives it the high-precision GEMM (a
    // matmul without the marker, unquantized by accident, is refused).
    op->setAttr("fp8_high_precision", UnitAttr::get(op->getContext()));
    ++counts.highPrecision;
  } else
    matmuls.push_back({*view, *kind});
  return WalkResult::advance();
}

namespace {

struct FP8QuantizeMatmulsPass
    : fp8::impl::FP8QuantizeMatmulsBase<FP8QuantizeMatmulsPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(checkRecipeQuoting(getArgument(), "recipe", options,
                                  errorHandler)) ||
        failed(checkOptionNames(*this, options, errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // An option error points at the first matmul, which it is for.
    Location optionLoc = getOptionLoc(module, [](Operation *op) {
      auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      return linalgOp && getMatmulView(linalgOp);
    });
    // No recipe is tensorwise, but said: the choice changes every number.
    bool defaulted = recipe.empty();
    RecipeAttr parsed = parseRecipeOption(
        &getContext(), defaulted ? StringRef("tensorwise") : StringRef(recipe),
        "recipe", optionLoc);
    if (!parsed)
      return signalPassFailure();
    MatmulCounts counts;
    for (auto func : module.getOps<FunctionOpInterface>()) {
      if (func.isExternal())
        continue;
      if (failed(quantizeFunction(func, parsed, counts)))
        return signalPassFailure();
    }
    if (defaulted && counts.quantized != 0)
      emitWarning(optionLoc)
          << "no recipe given: quantizing with tensorwise; choose one with "
             "recipe=NAME (fp8-pipeline or fp8-quantize-matmuls), one of "
          << llvm::join(RecipeAttr::getPresetNames(), ", ")
          << " or a #fp8.recipe<...> attribute";
    // A graph without roles runs in high precision without a word
    // otherwise.
    if (counts.quantized == 0) {
      // On the module's location alone: attached to the op, the warning
      // would print the whole module.
      InFlightDiagnostic diag = emitWarning(module.getLoc())
                                << "fp8-quantize-matmuls quantized no matmul: ";
      if (counts.withoutRoles)
        diag << counts.withoutRoles
             << " matmul(s) have no fp8 role on either operand (see the "
                "warnings on them)";
      if (counts.withoutRoles && counts.highPrecision)
        diag << ", and ";
      if (counts.highPrecision)
        diag << counts.highPrecision << " matmul(s) are kept in high precision "
             << "by the recipe " << parsed;
      if (!counts.withoutRoles && !counts.highPrecision)
        diag << "the module has no bf16, f16 or f32 linalg matmul";
    }
  }

  LogicalResult quantizeFunction(FunctionOpInterface func, RecipeAttr recipe,
                                 MatmulCounts &counts);
};

} // namespace

LogicalResult FP8QuantizeMatmulsPass::quantizeFunction(FunctionOpInterface func,
                                                       RecipeAttr recipe,
                                                       MatmulCounts &counts) {
  RoleAnalysis roles(func);
  SmallVector<std::pair<MatmulView, MatmulKind>> matmuls;
  WalkResult walk = func->walk([&](linalg::LinalgOp op) {
    return collectMatmul(op, roles, recipe, counts, matmuls);
  });
  if (walk.wasInterrupted())
    return failure();
  if (matmuls.empty())
    return success();
  counts.quantized += matmuls.size();

  Value seed;
  if (recipe.getStochasticGradients()) {
    seed = findSeedArgument(func);
    if (!seed)
      return func.emitError()
             << "the recipe rounds gradients stochastically: add an i64 "
                "argument marked {"
             << FP8Dialect::getSeedAttrName() << "} to @" << func.getName();
  }

  // Delayed scaling: one amax history per quantized value, threaded through
  // the function as an argument and a result, created on first use. Where
  // the recipe rotates (fp8-insert-hadamard, along the contracted dim), each
  // contracted dim of a value is quantized as different data and keeps a
  // history of its own.
  auto funcOp = dyn_cast<func::FuncOp>(func.getOperation());
  if (recipe.isDelayed() && !funcOp)
    return func.emitError("delayed scaling threads amax histories through "
                          "func.func signatures only");
  llvm::DenseMap<std::tuple<Value, Attribute, int64_t>, Value> amaxFor;
  bool rotates = recipe.getHadamard() != 0;
  SmallVector<Value> newHistories;

  MLIRContext *ctx = func.getContext();
  bool isPreset = recipe.getPresetName().has_value();
  for (auto &[view, kind] : matmuls) {
    Operation *op = view.op;
    Location loc = op->getLoc();
    OpBuilder b(op);
    // Not the structured binding itself: lambdas capture those only in C++20.
    MatmulKind matmulKind = kind;
    auto quantize = [&](Value value, int64_t contractingDim, Role role) {
      PolicyAttr policy = recipe.getPolicy(role);
      ScalingAttr scaling = policy.getScaling(contractingDim);
      auto type = cast<RankedTensorType>(value.getType());
      // A K-block longer than K is legal (one partial block), and a preset
      // on a small layer (blockwise on K = 64) is ordinary; but a tile
      // written into a custom recipe for larger layers then scales this one
      // as a '*' K-block would, which is worth a word.
      int64_t kBlock = scaling.getTile()[contractingDim];
      int64_t k = type.getDimSize(contractingDim);
      if (!isPreset && !ShapedType::isDynamic(kBlock) &&
          !ShapedType::isDynamic(k) && k > 0 && kBlock > k)
        emitWarning(loc) << "fp8-quantize-matmuls: the " << stringifyRole(role)
                         << " tile " << formatTile(scaling.getTile())
                         << " has a K-block of " << kBlock
                         << ", longer than K = " << k << " of "
                         << stringifyMatmulKind(matmulKind) << " operand "
                         << type
                         << ": one scale spans all of K, as a '*' K-block "
                            "would";
      auto scaleType = RankedTensorType::get(
          scaling.getScaleShape(type.getShape()), scaling.getScale());
      bool stochastic =
          role == Role::gradient && recipe.getStochasticGradients();
      Value amax;
      if (recipe.isDelayed()) {
        Value &cached =
            amaxFor[{value, scaling, rotates ? contractingDim : -1}];
        if (!cached) {
          auto historyType = RankedTensorType::get(
              llvm::to_vector(llvm::concat<const int64_t>(
                  ArrayRef<int64_t>{recipe.getAmaxHistory()},
                  scaleType.getShape())),
              b.getF32Type());
          unsigned index = func.getNumArguments();
          (void)func.insertArgument(
              index, historyType,
              b.getDictionaryAttr(b.getNamedAttr(
                  FP8Dialect::getAmaxHistoryAttrName(), b.getUnitAttr())),
              loc);
          OpBuilder::InsertionGuard guard(b);
          if (auto arg = dyn_cast<BlockArgument>(value))
            b.setInsertionPointToStart(arg.getOwner());
          else
            b.setInsertionPointAfterValue(value);
          auto [used, rolled] =
              buildDelayedAmax(b, loc, value, func.getArgument(index), scaling,
                               recipe.getAmaxAlgo());
          cached = used;
          newHistories.push_back(rolled);
        }
        amax = cached;
      }
      auto q = QuantizeOp::create(
          b, loc, type.clone(policy.getElementType()), scaleType, value, amax,
          stochastic ? seed : Value(), scaling,
          stochastic ? Rounding::stochastic : Rounding::nearest,
          static_cast<uint64_t>(recipe.getMargin()));
      q->setAttr(FP8Dialect::getRoleAttrName(),
                 StringAttr::get(ctx, stringifyRole(role)));
      return std::make_tuple(q.getResult(), q.getScale(), scaling);
    };
    // Roles are those of the operands as written; the data quantized is
    // what they transpose.
    Role roleA = *roles.getRole(view.a), roleB = *roles.getRole(view.b);
    auto [dataA, dimA] = lookThroughTransposes(view.a, view.contracting[0]);
    auto [dataB, dimB] = lookThroughTransposes(view.b, view.contracting[1]);
    auto [qa, sa, scalingA] = quantize(dataA, dimA, roleA);
    auto [qb, sb, scalingB] = quantize(dataB, dimB, roleB);

    Value init = cast<linalg::LinalgOp>(op).getDpsInitOperand(0)->get();
    auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
    Type element = resultType.getElementType();
    Type productElement =
        isa<Float32Type, BFloat16Type>(element) ? element : b.getF32Type();
    auto product =
        ScaledMatmulOp::create(b, loc, resultType.clone(productElement), qa, sa,
                               qb, sb, b.getDenseI64ArrayAttr({dimA, dimB}),
                               scalingA, scalingB, recipe.getAccumulate());
    product->setAttr(FP8Dialect::getMatmulAttrName(),
                     StringAttr::get(ctx, stringifyMatmulKind(kind)));
    Value result = product;
    if (productElement != element)
      result = arith::TruncFOp::create(b, loc, resultType, result);
    // linalg.matmul accumulates into its init.
    if (!isZeroInit(init))
      result = arith::AddFOp::create(b, loc, init, result);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
    eraseDeadTransposes({view.a, view.b});
  }
  if (!newHistories.empty()) {
    // Return the rolled histories after the function's own results.
    for (Value history : newHistories)
      (void)func.insertResult(func.getNumResults(), history.getType(), {});
    funcOp.walk([&](func::ReturnOp ret) {
      SmallVector<Value> operands(ret.getOperands());
      operands.append(newHistories.begin(), newHistories.end());
      ret->setOperands(operands);
    });
  }
  func->setAttr(FP8Dialect::getRecipeAttrName(), recipe);
  return success();
}
