//===- Legalize.cpp - target rules for scaled matmuls ---------------------===//
//
// fp8-legalize: Hopper's FP8 wgmma reads both operands K-major (the
// contracted dim contiguous), so on sm_90a every operand contracted along its
// rows is transposed. FP8 data and scales transpose together exactly only
// where the scaling is symmetric; any other operand is quantized again from
// its transposed high-precision source with the transposed tile, which puts
// the same elements under one scale and so gives the same values. Then the
// f32 scales of 1x128 (1 x 128k) operands go through fp8.tma_align_scales
// into the col_major_tma layout: a DeepGEMM-style kernel loads one K-block's
// scales of 128 consecutive rows with one TMA copy beside the K-block's data,
// which needs them contiguous and each row 16-byte aligned; so do the
// per-row scales of a contiguous fp8.grouped_scaled_matmul's A. Blackwell's
// tcgen05 reads FP8 either major and scales 1x32 blocks natively: on sm_100a
// only MXFP8 scales change, into the tcgen05 scale-factor layout
// (fp8.tcgen05_scales) that tcgen05.cp copies into tensor memory.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/GemmShapes.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Dominance.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8LEGALIZE
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// `type` with its two matrix dims swapped.
static RankedTensorType getTransposedType(RankedTensorType type) {
  SmallVector<int64_t> shape(type.getShape());
  applyPermutationToVector(shape, getMatrixTransposition(type.getRank()));
  return type.clone(shape);
}

/// Whether `op` is a linalg.transpose of `value` that swaps its two matrix
/// dims and nothing else.
static bool isMatrixTransposeOf(Operation *op, Value value) {
  auto transpose = dyn_cast<linalg::TransposeOp>(op);
  if (!transpose || transpose.getInput() != value)
    return false;
  return isMatrixTransposition(transpose.getPermutation());
}

/// An existing matrix transpose of `value` that dominates `op`, if any.
static Value findTransposed(Value value, Operation *op,
                            DominanceInfo &dominance) {
  for (Operation *user : value.getUsers())
    if (isMatrixTransposeOf(user, value) &&
        dominance.properlyDominates(user, op))
      return user->getResult(0);
  return {};
}

/// An existing `OpT` user of `value` that dominates `op`, if any.
template <typename OpT>
static OpT findDominatingUser(Value value, Operation *op,
                              DominanceInfo &dominance) {
  for (Operation *user : value.getUsers())
    if (auto found = dyn_cast<OpT>(user))
      if (dominance.properlyDominates(found.getOperation(), op))
        return found;
  return {};
}

/// A new linalg.transpose of `value` at the builder's insertion point.
static Value createTransposed(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> perm = getMatrixTransposition(type.getRank());
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(b, loc, value);
  applyPermutationToVector(sizes, perm);
  Value init = tensor::EmptyOp::create(b, loc, sizes, type.getElementType());
  return linalg::TransposeOp::create(b, loc, value, init, perm).getResult()[0];
}

/// The rotation that `value` is, if it rotates a matrix along its rows
/// (the dim a K-major copy turns into its columns).
static HadamardOp getRowRotation(Value value) {
  auto rotation = value.getDefiningOp<HadamardOp>();
  if (!rotation || static_cast<int64_t>(rotation.getDim()) !=
                       cast<RankedTensorType>(value.getType()).getRank() - 2)
    return {};
  return rotation;
}

/// The transpose of `rotation`'s result, computed as the rotation of the
/// transposed input along its last dim, at the builder's insertion point.
/// Each output element is the same sum of the same products, so the values
/// are the same bits, and the rotation runs along the contiguous dim as the
/// Hopper Hadamard kernel needs.
static Value createRotatedTransposed(OpBuilder &b, Location loc,
                                     HadamardOp rotation) {
  Value input = createTransposed(b, loc, rotation.getInput());
  auto type = cast<RankedTensorType>(input.getType());
  return HadamardOp::create(b, loc, type, input, type.getRank() - 1,
                            rotation.getSize(), rotation.getSeedAttr());
}

/// Of two ops that both dominate a third, the one the other dominates.
static Operation *getLater(Operation *a, Operation *b,
                           DominanceInfo &dominance) {
  if (!a)
    return b;
  if (!b)
    return a;
  return dominance.properlyDominates(a, b) ? b : a;
}

namespace {
/// Makes the operands of scaled matmuls K-major for sm_90a, sharing the
/// transposes and quantizations it creates between matmuls.
class KMajorRewriter {
public:
  explicit KMajorRewriter(Operation *root) : dominance(root) {}

  /// Makes both operands of `mm` K-major; false (after an error) if one
  /// cannot be made K-major without changing its values.
  bool rewrite(ScaledMatmulOp mm);

private:
  /// Whether operand `side` can be made K-major; emits the error if not.
  bool check(ScaledMatmulOp mm, MatmulSide side);
  /// The K-major form of operand `side` of `mm` (data, scales).
  std::pair<Value, Value> makeKMajor(ScaledMatmulOp mm, MatmulSide side);
  std::pair<Value, Value> transposeExactly(ScaledMatmulOp mm, Value data,
                                           Value scale, ScalingAttr scaling);
  QuantizeOp quantizeTransposed(ScaledMatmulOp mm, QuantizeOp q);

  DominanceInfo dominance;
};
} // namespace

/// The quantize whose results are exactly `data` and `scale`, if any.
static QuantizeOp getQuantization(Value data, Value scale) {
  auto q = data.getDefiningOp<QuantizeOp>();
  if (!q || q.getResult() != data || q.getScale() != scale)
    return {};
  return q;
}

bool KMajorRewriter::check(ScaledMatmulOp mm, MatmulSide side) {
  ScalingAttr scaling = mm.getScaling(side);
  if (mm.getContractingDim(side) == 1 || scaling.isSquare() ||
      getQuantization(mm.getData(side), mm.getScale(side)))
    return true;
  Value data = mm.getData(side);
  InFlightDiagnostic diag =
      mm.emitOpError()
      << "operand " << ScaledMatmulOp::getSideName(side) << " ("
      << formatShape(cast<ShapedType>(data.getType()).getShape()) << ", tile "
      << formatTile(scaling.getTile())
      << ") is contracted along its rows, but sm_90a wgmma needs K-major "
         "operands; transposing its FP8 data would regroup the scales of a "
         "non-square tile, and its data and scales are not the results of "
         "one fp8.quantize that could be redone on the transposed "
         "high-precision input: quantize the transposed high-precision "
         "source with tile "
      << formatTile(scaling.transposed().getTile()) << " instead";
  if (Operation *producer = data.getDefiningOp())
    diag.attachNote(producer->getLoc()) << "operand produced here";
  return false;
}

/// Puts the scales of operand `side` of `mm` back in row_major layout where
/// they are col_major_tma, by reading through the fp8.tma_align_scales that
/// made them (the values are the same); false, after an error, if they
/// have no such producer.
static bool restoreRowMajorScales(ScaledMatmulOp mm, MatmulSide side) {
  if (mm.getScaleLayout(side) == ScaleLayout::row_major)
    return true;
  Value scale = mm.getScale(side);
  auto align = scale.getDefiningOp<TmaAlignScalesOp>();
  if (!align) {
    mm.emitOpError() << "operand " << ScaledMatmulOp::getSideName(side)
                     << " is contracted along its rows and must be made "
                        "K-major for sm_90a wgmma, but its col_major_tma "
                        "scales do not come from an fp8.tma_align_scales "
                        "whose row-major input could be transposed with it";
    return false;
  }
  mm.setScale(side, align.getScale());
  mm.setScaleLayout(side, ScaleLayout::row_major);
  if (align->use_empty())
    align->erase();
  return true;
}

bool KMajorRewriter::rewrite(ScaledMatmulOp mm) {
  ArrayRef<int64_t> contracting = mm.getContracting();
  if (contracting[0] == 1 && contracting[1] == 1)
    return true;
  // A K-major copy is made from row-major scales; col_major_tma ones are
  // aligned again afterwards.
  for (MatmulSide side : kMatmulSides)
    if (mm.getContractingDim(side) != 1 && !restoreRowMajorScales(mm, side))
      return false;
  // Check both operands first so that a failing matmul stays as it was.
  bool okA = check(mm, MatmulSide::a), okB = check(mm, MatmulSide::b);
  if (!okA || !okB)
    return false;
  for (MatmulSide side : kMatmulSides) {
    if (mm.getContractingDim(side) == 1)
      continue;
    Operation *producer = mm.getData(side).getDefiningOp();
    ScalingAttr scaling = mm.getScaling(side);
    auto [data, scale] = makeKMajor(mm, side);
    mm.setData(side, data);
    mm.setScale(side, scale);
    // Symmetric tiles read the same transposed; others swap their extents.
    ScalingAttr kMajor = scaling.isSquare() ? scaling : scaling.transposed();
    mm.setScaling(side, kMajor);
    if (producer && isa<QuantizeOp, TransposeOp>(producer) &&
        producer->use_empty())
      producer->erase();
  }
  // A stays A and B stays B, so the result (M x N) keeps its shape.
  mm.setContracting({1, 1});
  return true;
}

std::pair<Value, Value> KMajorRewriter::makeKMajor(ScaledMatmulOp mm,
                                                   MatmulSide side) {
  Value data = mm.getData(side), scale = mm.getScale(side);
  ScalingAttr scaling = mm.getScaling(side);
  QuantizeOp source = getQuantization(data, scale);
  // A quantization of data rotated along its rows is redone from the
  // rotation of the transposed input even for a square tile: the FP8
  // transpose would keep the rotation along rows, which no kernel does.
  if (scaling.isSquare() && !(source && getRowRotation(source.getInput())))
    return transposeExactly(mm, data, scale, scaling);
  QuantizeOp q = quantizeTransposed(mm, source);
  return {q.getResult(), q.getScale()};
}

std::pair<Value, Value> KMajorRewriter::transposeExactly(ScaledMatmulOp mm,
                                                         Value data,
                                                         Value scale,
                                                         ScalingAttr scaling) {
  // The transpose of an fp8.transpose is its input.
  if (auto t = data.getDefiningOp<TransposeOp>())
    if (t.getResultScale() == scale && t.getScaling() == scaling)
      return {t.getInput(), t.getScale()};
  for (Operation *user : data.getUsers()) {
    auto t = dyn_cast<TransposeOp>(user);
    if (t && t.getInput() == data && t.getScale() == scale &&
        t.getScaling() == scaling && dominance.properlyDominates(t, mm))
      return {t.getResult(), t.getResultScale()};
  }
  // Next to the quantization, where every later matmul can reuse it.
  OpBuilder b(mm);
  Operation *producer = data.getDefiningOp();
  if (producer && producer == scale.getDefiningOp())
    b.setInsertionPointAfter(producer);
  auto t = TransposeOp::create(
      b, mm.getLoc(), getTransposedType(cast<RankedTensorType>(data.getType())),
      getTransposedType(cast<RankedTensorType>(scale.getType())), data, scale,
      scaling);
  return {t.getResult(), t.getResultScale()};
}

QuantizeOp KMajorRewriter::quantizeTransposed(ScaledMatmulOp mm, QuantizeOp q) {
  ScalingAttr scaling = q.getScaling().transposed();
  auto dataType =
      getTransposedType(cast<RankedTensorType>(q.getResult().getType()));
  HadamardOp rotation = getRowRotation(q.getInput());
  Value input =
      rotation ? Value() : findTransposed(q.getInput(), mm, dominance);
  Value amax = q.getAmax();
  Value amaxT = amax ? findTransposed(amax, mm, dominance) : Value();

  // Reuse a quantization of the transposed input that computes the same.
  if (input) {
    for (Operation *user : input.getUsers()) {
      auto other = dyn_cast<QuantizeOp>(user);
      if (!other || other.getInput() != input ||
          other.getScaling() != scaling ||
          other.getResult().getType() != dataType ||
          other.getRounding() != q.getRounding() ||
          other.getSeed() != q.getSeed() ||
          other.getMargin() != q.getMargin() ||
          !dominance.properlyDominates(other, mm))
        continue;
      Value otherAmax = other.getAmax();
      if (amax ? otherAmax && otherAmax.getDefiningOp() &&
                     isMatrixTransposeOf(otherAmax.getDefiningOp(), amax)
               : !otherAmax)
        return other;
    }
  }

  // Per tile, the amax of the transposed input is the transposed amax.
  Operation *after =
      getLater(q, input ? input.getDefiningOp() : nullptr, dominance);
  after = getLater(after, amaxT ? amaxT.getDefiningOp() : nullptr, dominance);
  OpBuilder b(after->getContext());
  b.setInsertionPointAfter(after);
  Location loc = q.getLoc();
  if (!input)
    input = rotation ? createRotatedTransposed(b, loc, rotation)
                     : createTransposed(b, loc, q.getInput());
  if (amax && !amaxT)
    amaxT = createTransposed(b, loc, amax);
  auto scaleType = RankedTensorType::get(
      scaling.getScaleShape(dataType.getShape()), scaling.getScale());
  auto requantized =
      QuantizeOp::create(b, loc, dataType, scaleType, input, amaxT, q.getSeed(),
                         scaling, q.getRounding(), q.getMargin());
  requantized->setDiscardableAttrs(q->getDiscardableAttrDictionary());
  return requantized;
}

/// Whether a Hopper GEMM loads the scales of operand `side` of `mm` with
/// TMA (hasTmaLoadableScales, on a K-major matrix) and they are still
/// in row_major layout. 128x128 weights (one scale per tile and K-block, which
/// the GEMM bulk-copies from the row-major scales), rowwise and tensorwise
/// scales (one per row or tensor, loaded once) and E8M0 block scales are
/// read as they are.
static bool needsTmaAlignedScales(const Target &target, ScaledMatmulOp mm,
                                  MatmulSide side) {
  return mm.getScaleLayout(side) == ScaleLayout::row_major &&
         mm.getContractingDim(side) == 1 &&
         mm.getData(side).getType().getRank() == 2 &&
         hasTmaLoadableScales(target, mm.getScaling(side));
}

/// Whether the sm_90a grouped GEMM of `mm` loads A's scales with TMA and
/// they are still row_major: per-row scales of a contiguous A that the plain
/// GEMM would load so (B's per-expert 128x128 blocks are bulk-copied as
/// they are).
static bool needsTmaAlignedScales(const Target &target,
                                  GroupedScaledMatmulOp mm) {
  return mm.getAScaleLayout() == ScaleLayout::row_major &&
         mm.getLayout() == GroupLayout::contiguous &&
         hasTmaLoadableScales(target, mm.getAScaling());
}

/// The fp8.tma_align_scales of `scale` that `mm` can read: one that already
/// dominates it, else a new one right after the scale's producer, where any
/// later matmul reading the same scales shares it.
static Value getTmaAlignedScales(Value scale, Operation *mm,
                                 DominanceInfo &dominance) {
  if (auto align = findDominatingUser<TmaAlignScalesOp>(scale, mm, dominance))
    return align.getResult();
  OpBuilder b(mm->getContext());
  b.setInsertionPointAfterValue(scale);
  return TmaAlignScalesOp::create(b, scale.getLoc(), scale).getResult();
}

/// The tcgen05 layout of `mm`'s `side` scales (E8M0, 1x32 along K):
/// fp8.tcgen05_scales of the [rows, K-blocks] scales, after a transpose of
/// the (small) scale matrix where the operand contracts its rows. Shared
/// with an earlier matmul that already made it.
static Value getTcgen05Scales(ScaledMatmulOp mm, MatmulSide side,
                              DominanceInfo &dominance) {
  Value scale = mm.getScale(side);
  OpBuilder b(mm.getContext());
  b.setInsertionPointAfterValue(scale);
  Location loc = scale.getLoc();
  if (mm.getContractingDim(side) == 0) {
    Value transposed = findTransposed(scale, mm, dominance);
    scale = transposed ? transposed : createTransposed(b, loc, scale);
    b.setInsertionPointAfterValue(scale);
  }
  if (auto chunks = findDominatingUser<Tcgen05ScalesOp>(scale, mm, dominance))
    return chunks.getResult();
  return Tcgen05ScalesOp::create(b, loc, scale).getResult();
}

/// sm_100a: every operand stays in its major (tcgen05 reads FP8 MN-major
/// too, so no data is transposed); MXFP8 scales (E8M0, 1x32 along K) go into
/// the tcgen05 scale layout. Other scalings are left as they are: the GEMM
/// says which it runs.
static void legalizeForTcgen05(const Target &target, ModuleOp module) {
  SmallVector<ScaledMatmulOp> matmuls;
  module.walk([&](ScaledMatmulOp mm) { matmuls.push_back(mm); });
  DominanceInfo dominance(module);
  for (ScaledMatmulOp mm : matmuls) {
    if (mm.getData(MatmulSide::a).getType().getRank() != 2)
      continue;
    for (MatmulSide side : kMatmulSides) {
      if (mm.getScaleLayout(side) != ScaleLayout::row_major ||
          !target.hasNativeBlockScales(mm.getScaling(side),
                                       mm.getContractingDim(side)))
        continue;
      mm.setScale(side, getTcgen05Scales(mm, side, dominance));
      mm.setScaleLayout(side, ScaleLayout::tcgen05);
    }
  }
}

namespace {
struct FP8LegalizePass : fp8::impl::FP8LegalizeBase<FP8LegalizePass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    if (failed(checkOptionNames(*this, options, errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // An option error points at the first fp8 op, which it is for.
    FailureOr<Target> target = Target::parse(chip, [&] {
      return emitError(getOptionLoc(module, isFP8Op), "fp8-legalize: ");
    });
    if (failed(target))
      return signalPassFailure();
    // The chip goes into the module, so that kernel generation builds for
    // the layouts chosen here without being told again. A module legalized
    // for one chip has that chip's layouts: it is not legalized for another.
    StringAttr chipName = StringAttr::get(&getContext(), target->getName());
    auto recorded =
        module->getAttrOfType<StringAttr>(FP8Dialect::getTargetAttrName());
    if (recorded && recorded != chipName) {
      emitError(getOptionLoc(module, isFP8Op))
          << "fp8-legalize: chip=" << chipName.getValue()
          << " but the module is already legalized for " << recorded.getValue()
          << " (" << FP8Dialect::getTargetAttrName() << " = " << recorded
          << "): a module holds one chip's layouts; legalize the original "
             "graph for "
          << chipName.getValue() << " instead";
      return signalPassFailure();
    }
    module->setAttr(FP8Dialect::getTargetAttrName(), chipName);
    // tcgen05 reads either major and takes E8M0 block-32 scales natively,
    // from tensor memory in its own layout.
    if (!target->needsKMajorOperands())
      return legalizeForTcgen05(*target, module);
    // MXFP8 needs nothing on sm_90a: the kernel promotes every 32 elements.
    SmallVector<ScaledMatmulOp> matmuls;
    module.walk([&](ScaledMatmulOp mm) { matmuls.push_back(mm); });
    KMajorRewriter rewriter(module);
    bool failed = false;
    for (ScaledMatmulOp mm : matmuls)
      failed |= !rewriter.rewrite(mm);
    if (failed)
      return signalPassFailure();
    DominanceInfo dominance(module);
    for (ScaledMatmulOp mm : matmuls) {
      for (MatmulSide side : kMatmulSides) {
        if (!needsTmaAlignedScales(*target, mm, side))
          continue;
        mm.setScale(side,
                    getTmaAlignedScales(mm.getScale(side), mm, dominance));
        mm.setScaleLayout(side, ScaleLayout::col_major_tma);
      }
    }
    // Grouped GEMMs (K-major by definition): A's scales as the plain GEMM's.
    module.walk([&](GroupedScaledMatmulOp mm) {
      if (!needsTmaAlignedScales(*target, mm))
        return;
      mm.getAScaleMutable().assign(
          getTmaAlignedScales(mm.getAScale(), mm, dominance));
      mm.setAScaleLayout(ScaleLayout::col_major_tma);
    });
  }
};
} // namespace
