//===- ConvertScaling.cpp - requantize operands to another scaling --------===//
//
// fp8-convert-scaling: serve quantized operands (typically weights stored in
// one format) to a kernel that needs another, e.g. blockwise f32 scales to
// MXFP8 E8M0. Rounding every scale to a power of two and every element again
// loses accuracy, so the pass measures it wherever the data is known.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/ConstantQuantization.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/Support/FormatVariadic.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8CONVERTSCALING
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

static std::string describe(ScalingAttr scaling, Type elementType) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << elementType << " " << scaling;
  return str;
}

/// The constant matrix `value` holds, if it is a rank-2 float constant.
static std::optional<HostMatrix> getConstantMatrix(Value value) {
  DenseElementsAttr dense;
  if (!matchPattern(value, m_Constant(&dense)))
    return std::nullopt;
  auto type = cast<ShapedType>(dense.getType());
  if (type.getRank() != 2 || !isa<FloatType>(type.getElementType()))
    return std::nullopt;
  HostMatrix matrix;
  matrix.rows = type.getDimSize(0);
  matrix.cols = type.getDimSize(1);
  for (APFloat v : dense.getValues<APFloat>()) {
    bool lostInfo;
    v.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven,
              &lostInfo);
    matrix.values.push_back(v.convertToFloat());
  }
  return matrix;
}

/// Emits the remark that measures converting `q` from `from` to `to`.
static void reportError(QuantizeOp q, ScalingAttr from, Type fromType,
                        ScalingAttr to, Type toType, Rounding round,
                        uint64_t seed) {
  std::string what =
      llvm::formatv("converting {0} from {1} to {2}", q.getInput().getType(),
                    describe(from, fromType), describe(to, toType));
  std::optional<HostMatrix> source = getConstantMatrix(q.getInput());
  if (!source || q.getAmax() || q.getRounding() != Rounding::nearest) {
    q.emitRemark() << what
                   << ": error not measurable at compile time (the values "
                      "are not a constant matrix quantized from current "
                      "amax with nearest rounding)";
    return;
  }
  HostMatrix quantized = quantizeDequantize(*source, fromType, from,
                                            /*stochastic=*/false, 0);
  HostMatrix converted = quantizeDequantize(
      quantized, toType, to, round == Rounding::stochastic, seed);
  HostMatrix direct =
      quantizeDequantize(*source, toType, to, /*stochastic=*/false, 0);
  ErrorStats loss = measureError(quantized, converted);
  ErrorStats total = measureError(*source, converted);
  ErrorStats baseline = measureError(*source, direct);
  q.emitRemark() << what
                 << llvm::formatv(": max abs error {0:e3}, relative RMS {1:e3} "
                                  "against the source quantization; against "
                                  "the high-precision values relative RMS "
                                  "{2:e3}, where quantizing them directly "
                                  "gives {3:e3}",
                                  loss.maxAbs, loss.relativeRms,
                                  total.relativeRms, baseline.relativeRms);
}

namespace {
struct FP8ConvertScalingPass
    : fp8::impl::FP8ConvertScalingBase<FP8ConvertScalingPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    // Option errors point at the first fp8 op, which they are for.
    Location loc = getOptionLoc(getOperation(), isFP8Op);
    RecipeAttr target = parseRecipeOption(ctx, to, "target recipe", loc);
    if (!target)
      return signalPassFailure();
    std::optional<Rounding> parsedRounding = symbolizeRounding(rounding);
    if (!parsedRounding) {
      emitError(loc) << "unknown rounding '" << rounding
                     << "', expected nearest or stochastic";
      return signalPassFailure();
    }
    SmallVector<Role> selected;
    for (const std::string &name : roles) {
      std::optional<Role> role = symbolizeRole(name);
      if (!role) {
        emitError(loc) << "unknown role '" << name
                       << "', expected activation, weight or gradient";
        return signalPassFailure();
      }
      selected.push_back(*role);
    }
    if (selected.empty())
      selected.push_back(Role::weight);

    for (auto func : getOperation().getOps<FunctionOpInterface>())
      convert(func, target, *parsedRounding, selected);
  }

  void convert(FunctionOpInterface func, RecipeAttr target, Rounding round,
               ArrayRef<Role> selected);
};
} // namespace

void FP8ConvertScalingPass::convert(FunctionOpInterface func, RecipeAttr target,
                                    Rounding round, ArrayRef<Role> selected) {
  // One conversion per (quantization, target scaling, element type).
  llvm::DenseMap<std::tuple<Operation *, Attribute, Type>, RequantizeOp>
      conversions;
  func->walk([&](ScaledMatmulOp mm) {
    for (MatmulSide side : kMatmulSides) {
      auto q = mm.getData(side).getDefiningOp<QuantizeOp>();
      auto roleAttr =
          q ? q->getAttrOfType<StringAttr>(FP8Dialect::getRoleAttrName())
            : StringAttr();
      if (!roleAttr)
        continue;
      Role role = *symbolizeRole(roleAttr.getValue());
      if (!llvm::is_contained(selected, role))
        continue;
      PolicyAttr policy = target.getPolicy(role);
      ScalingAttr from = q.getScaling();
      ScalingAttr to = policy.getScaling(mm.getContractingDim(side));
      Type fromType = q.getResult().getType().getElementType();
      Type toType = policy.getElementType();
      if (from == to && fromType == toType)
        continue;

      RequantizeOp &conversion = conversions[{q, to, toType}];
      if (!conversion) {
        OpBuilder b(q->getContext());
        b.setInsertionPointAfter(q);
        auto dataType = q.getResult().getType();
        auto scaleType = RankedTensorType::get(
            to.getScaleShape(dataType.getShape()), to.getScale());
        Value seedValue;
        if (round == Rounding::stochastic)
          seedValue =
              arith::ConstantIntOp::create(b, q.getLoc(), b.getI64Type(), seed);
        conversion = RequantizeOp::create(
            b, q.getLoc(), dataType.clone(toType), scaleType, q.getResult(),
            q.getScale(), seedValue, from, to, round);
        reportError(q, from, fromType, to, toType, round, seed);
      }
      mm.setData(side, conversion.getResult());
      mm.setScale(side, conversion.getResultScale());
      mm.setScaling(side, to);
    }
  });
}
