//===- FP8Ops.cpp - FP8 dialect operations --------------------------------===//
//
// Verifiers of the fp8 ops. They enforce the shapes that relate data, scales
// and results, and the contracted-dimension rule: a scale must stay constant
// along the contracted dimension within one K-block.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;

#define GET_OP_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Ops.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Checks a per-tile tensor (`what` names it in diagnostics) against the
/// shape `tile` derives from `data`; dynamic extents are not checked.
static LogicalResult verifyTiledShape(Operation *op, StringRef what,
                                      ShapedType data, ShapedType tiled,
                                      ArrayRef<int64_t> tile) {
  if (tiled.getRank() != data.getRank())
    return op->emitOpError()
           << "expects " << what << " of rank " << data.getRank()
           << " like its data, got rank " << tiled.getRank();
  SmallVector<int64_t> expected = getTiledShape(data.getShape(), tile);
  if (failed(verifyCompatibleShape(expected, tiled.getShape())))
    return op->emitOpError()
           << "expects " << what << " of shape " << formatShape(expected)
           << " for data " << formatShape(data.getShape()) << " and tile "
           << formatTile(tile) << ", got " << formatShape(tiled.getShape());
  return success();
}

/// Checks a scale tensor against its data and scaling.
static LogicalResult verifyScales(Operation *op, StringRef what,
                                  ShapedType data, ShapedType scale,
                                  ScalingAttr scaling) {
  if (scale.getElementType() != scaling.getScale())
    return op->emitOpError()
           << what << " element type " << scale.getElementType()
           << " does not match the scaling's " << scaling.getScale();
  return verifyTiledShape(op, what, data, scale, scaling.getTile());
}

/// Checks the scale tensor of a scaled_matmul operand in layout `layout`:
/// row_major as verifyScales; col_major_tma (matrices only) against the
/// transposed, padded form of the row-major shape; tcgen05 (matrices only,
/// MXFP8 block32) against the chunked form of the [rows, K-blocks] shape.
static LogicalResult verifyOperandScales(Operation *op, StringRef what,
                                         ShapedType data, ShapedType scale,
                                         ScalingAttr scaling,
                                         ScaleLayout layout,
                                         int64_t contractingDim) {
  if (layout == ScaleLayout::row_major)
    return verifyScales(op, what, data, scale, scaling);
  if (data.getRank() != 2)
    return op->emitOpError()
           << what << "_layout " << stringifyScaleLayout(layout)
           << " needs a rank-2 operand (no batch dim), got rank "
           << data.getRank();
  if (scale.getElementType() != scaling.getScale())
    return op->emitOpError()
           << what << " element type " << scale.getElementType()
           << " does not match the scaling's " << scaling.getScale();
  if (scale.getRank() != 2)
    return op->emitOpError()
           << "expects " << what << " of rank 2, got rank " << scale.getRank();
  SmallVector<int64_t> rowMajor =
      getTiledShape(data.getShape(), scaling.getTile());
  if (layout == ScaleLayout::tcgen05) {
    // One E8M0 scale per row and 32 of K: the hardware's block32.
    ArrayRef<int64_t> tile = scaling.getTile();
    SmallVector<int64_t> block = {1, 1};
    block[contractingDim] = kTcgen05ScaleBlock;
    if (!isa<Float8E8M0FNUType>(scaling.getScale()) ||
        tile != ArrayRef<int64_t>(block))
      return op->emitOpError()
             << what << "_layout tcgen05 needs E8M0 scales of tile "
             << formatTile(block) << " (MXFP8 along the contracted dim "
             << contractingDim << "), got tile " << formatTile(tile)
             << " and scale " << scaling.getScale();
    // The scales as [rows, K-blocks], whichever dim the operand contracts.
    if (contractingDim == 0)
      std::swap(rowMajor[0], rowMajor[1]);
    SmallVector<int64_t> expected = getTcgen05ScaleShape(rowMajor);
    if (failed(verifyCompatibleShape(expected, scale.getShape())))
      return op->emitOpError()
             << "expects " << what << " of shape " << formatShape(expected)
             << " for data " << formatShape(data.getShape()) << " and " << what
             << "_layout tcgen05 (the " << formatShape(rowMajor)
             << " [rows, K-blocks] scales in 512-byte chunks), got "
             << formatShape(scale.getShape());
    return success();
  }
  SmallVector<int64_t> expected =
      getTmaAlignedScaleShape(rowMajor, scale.getElementType());
  if (failed(verifyCompatibleShape(expected, scale.getShape())))
    return op->emitOpError()
           << "expects " << what << " of shape " << formatShape(expected)
           << " for data " << formatShape(data.getShape()) << ", tile "
           << formatTile(scaling.getTile()) << " and " << what << "_layout "
           << stringifyScaleLayout(layout) << " (the row-major "
           << formatShape(rowMajor)
           << " scales transposed, rows padded to 16 bytes), got "
           << formatShape(scale.getShape());
  return success();
}

/// Checks the scales a quantization stores in `layout` (`what`_layout):
/// row_major, or col_major_tma as fp8.tma_align_scales makes it; the
/// tcgen05 chunks are fp8.tcgen05_scales's alone.
static LogicalResult verifyStoredScales(Operation *op, StringRef what,
                                        ShapedType data, ShapedType scale,
                                        ScalingAttr scaling,
                                        ScaleLayout layout) {
  if (layout == ScaleLayout::tcgen05)
    return op->emitOpError()
           << what << "_layout tcgen05 is made by fp8.tcgen05_scales, not "
           << "stored by a quantization (row_major or col_major_tma)";
  return verifyOperandScales(op, what, data, scale, scaling, layout,
                             /*contractingDim=*/1);
}

static LogicalResult verifySameShape(Operation *op, StringRef what,
                                     ShapedType expected, ShapedType actual) {
  if (failed(verifyCompatibleShape(expected, actual)))
    return op->emitOpError() << "expects " << what << " of shape "
                             << formatShape(expected.getShape()) << ", got "
                             << formatShape(actual.getShape());
  return success();
}

/// Stochastic rounding draws its random bits from a seed; nearest needs none.
static LogicalResult verifyRoundingSeed(Operation *op, Rounding rounding,
                                        Value seed) {
  if (rounding == Rounding::stochastic && !seed)
    return op->emitOpError("stochastic rounding needs a seed operand");
  if (rounding == Rounding::nearest && seed)
    return op->emitOpError("a seed is only used by stochastic rounding");
  return success();
}

//===----------------------------------------------------------------------===//
// QuantizeOp
//===----------------------------------------------------------------------===//

void QuantizeOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "q");
  setNameFn(getScale(), "scale");
}

/// What fp8.quantize and fp8.quantize_monitored share: the data, the
/// scales and the given amax against the input and the scaling.
template <typename QuantizeLikeOp>
static LogicalResult verifyQuantization(QuantizeLikeOp op) {
  auto input = cast<ShapedType>(op.getInput().getType());
  if (failed(verifySameShape(op, "result", input, op.getResult().getType())))
    return failure();
  if (failed(verifyScales(op, "scale", input, op.getScale().getType(),
                          op.getScaling())))
    return failure();
  if (Value amax = op.getAmax())
    if (failed(verifyTiledShape(op, "amax", input,
                                cast<ShapedType>(amax.getType()),
                                op.getScaling().getTile())))
      return failure();
  return success();
}

LogicalResult QuantizeOp::verify() {
  if (failed(verifyQuantization(*this)))
    return failure();
  return verifyRoundingSeed(*this, getRounding(), getSeed());
}

//===----------------------------------------------------------------------===//
// QuantizeMonitoredOp
//===----------------------------------------------------------------------===//

void QuantizeMonitoredOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "q");
  setNameFn(getScale(), "scale");
  setNameFn(getTileAmax(), "tile_amax");
  setNameFn(getCounts(), "counts");
}

LogicalResult QuantizeMonitoredOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  // The statistics are those of a matrix's tiles; a batch dim would need a
  // batch of them.
  if (input.getRank() != 2)
    return emitOpError("monitors matrices only: expects a rank-2 input, got "
                       "rank ")
           << input.getRank();
  if (failed(verifyQuantization(*this)))
    return failure();
  if (failed(verifyTiledShape(*this, "tile_amax", input,
                              getTileAmax().getType(), getScaling().getTile())))
    return failure();
  int64_t numCounts = getCounts().getType().getDimSize(0);
  if (!ShapedType::isDynamic(numCounts) && numCounts != 2)
    return emitOpError("expects counts of 2 elements (saturated, flushed), "
                       "got ")
           << numCounts;
  return verifyRoundingSeed(*this, getRounding(), getSeed());
}

//===----------------------------------------------------------------------===//
// QuantizeTransposeOp
//===----------------------------------------------------------------------===//

void QuantizeTransposeOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "q");
  setNameFn(getScale(), "scale");
  setNameFn(getResultT(), "qt");
  setNameFn(getScaleT(), "scale_t");
}

LogicalResult QuantizeTransposeOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  auto transposed = input.clone({input.getDimSize(1), input.getDimSize(0)},
                                input.getElementType());
  if (failed(verifySameShape(*this, "result", input, getResult().getType())) ||
      failed(verifySameShape(*this, "result_t", transposed,
                             getResultT().getType())))
    return failure();
  if (getResult().getType().getElementType() !=
      getResultT().getType().getElementType())
    return emitOpError("expects result and result_t of one element type, got ")
           << getResult().getType().getElementType() << " and "
           << getResultT().getType().getElementType();
  if (failed(verifyStoredScales(*this, "scale", input, getScale().getType(),
                                getScaling(), getScaleLayout())))
    return failure();
  return verifyStoredScales(*this, "scale_t", transposed, getScaleT().getType(),
                            getScaling(), getScaleTLayout());
}

//===----------------------------------------------------------------------===//
// QuantizeElementwiseOp
//===----------------------------------------------------------------------===//

void QuantizeElementwiseOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getQuantized(), "q");
  setNameFn(getScale(), "scale");
  if (getTranspose()) {
    setNameFn(getQuantizedT(), "qt");
    setNameFn(getScaleT(), "scale_t");
  }
  if (Value kept = getKept())
    setNameFn(kept, "kept");
}

/// Result `index` of `op`, or null where it has fewer (the verifier reports
/// the count).
static TypedValue<RankedTensorType> getTensorResult(Operation *op,
                                                    unsigned index) {
  if (index >= op->getNumResults())
    return {};
  return dyn_cast<TypedValue<RankedTensorType>>(op->getResult(index));
}

TypedValue<RankedTensorType> QuantizeElementwiseOp::getQuantized() {
  return getTensorResult(*this, 0);
}

TypedValue<RankedTensorType> QuantizeElementwiseOp::getScale() {
  return getTensorResult(*this, 1);
}

TypedValue<RankedTensorType> QuantizeElementwiseOp::getQuantizedT() {
  return getTranspose() ? getTensorResult(*this, 2) : nullptr;
}

TypedValue<RankedTensorType> QuantizeElementwiseOp::getScaleT() {
  return getTranspose() ? getTensorResult(*this, 3) : nullptr;
}

TypedValue<RankedTensorType> QuantizeElementwiseOp::getKept() {
  if (getNumResults() != getNumQuantizationResults() + 1)
    return {};
  return getTensorResult(*this, getNumQuantizationResults());
}

YieldOp QuantizeElementwiseOp::getYield() {
  // Null for an empty body or another terminator: the verifier runs before
  // the blocks' own checks.
  Block &body = getBody().front();
  return body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
}

RankedTensorType QuantizeElementwiseOp::getProducedType() {
  return getQuantized().getType().clone(getYield().getValue().getType());
}

/// The identity or a broadcast, (d0, d1) -> (d1) for a bias row: a
/// transposing map would need another kernel.
bool QuantizeElementwiseOp::isElementwiseMap(AffineMap map) {
  if (map.getNumDims() != 2 || map.getNumSymbols() != 0 ||
      !map.isProjectedPermutation(/*allowZeroInResults=*/false))
    return false;
  int64_t previous = -1;
  for (unsigned i = 0, e = map.getNumResults(); i < e; ++i) {
    int64_t dim = map.getDimPosition(i);
    if (dim <= previous)
      return false;
    previous = dim;
  }
  return true;
}

/// The body: one argument per input of the input's element type, arith
/// and math ops without regions, and the fp8.yield of the produced element.
static LogicalResult verifyElementwiseBody(QuantizeElementwiseOp op) {
  Block &body = op.getBody().front();
  if (body.getNumArguments() != op.getInputs().size())
    return op.emitOpError("expects a body argument per input (")
           << op.getInputs().size() << "), got " << body.getNumArguments();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(body.getArguments(), op.getInputs()))) {
    auto [argument, input] = pair;
    Type element = getElementTypeOrSelf(input.getType());
    if (argument.getType() != element)
      return op.emitOpError("expects body argument #")
             << index << " of input #" << index << "'s element type " << element
             << ", got " << argument.getType();
  }
  // By namespace: the dialect library does not link arith and math.
  if (!op.getYield())
    return op.emitOpError("body must end with fp8.yield");
  // Every op before the yield. Not Block::without_terminator: it asks the
  // op's registration for the Terminator trait from libMLIR, and where the
  // fp8 dialect lives in another shared library (the C API's) that trait's
  // TypeID differs, so fp8.yield would be taken for a body op.
  for (Operation &inner : llvm::make_range(body.begin(), std::prev(body.end())))
    if (!llvm::is_contained({StringRef("arith"), StringRef("math")},
                            inner.getName().getDialectNamespace()) ||
        inner.getNumRegions() != 0 ||
        llvm::any_of(inner.getResultTypes(), llvm::IsaPred<ShapedType>))
      return op.emitOpError("body computes one element with scalar arith and "
                            "math ops, got '")
             << inner.getName() << "'";
  return success();
}

LogicalResult QuantizeElementwiseOp::verify() {
  if (getInputs().empty())
    return emitOpError("expects at least one input");
  if (getIndexingMaps().size() != getInputs().size())
    return emitOpError("expects an indexing map per input (")
           << getInputs().size() << "), got " << getIndexingMaps().size();
  unsigned numResults = getNumResults(), base = getNumQuantizationResults();
  if (numResults != base && numResults != base + 1)
    return emitOpError("expects ")
           << base << " results" << (getTranspose() ? " (with transpose)" : "")
           << ", and the kept value optionally, got " << numResults;
  if (failed(verifyElementwiseBody(*this)))
    return failure();

  // The produced matrix: the data's shape, the yield's type.
  auto data = getQuantized().getType();
  if (data.getRank() != 2 ||
      !isa<Float8E4M3FNType, Float8E5M2Type>(data.getElementType()))
    return emitOpError("expects result #0 to be a matrix of f8E4M3FN or "
                       "f8E5M2, got ")
           << data;
  ArrayRef<int64_t> shape = data.getShape();
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(getInputs(), getIndexingMaps()))) {
    auto [input, attr] = pair;
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    if (!isElementwiseMap(map))
      return emitOpError("indexing map #")
             << index << " " << AffineMapAttr::get(map)
             << " is not the identity or a broadcast of (d0, d1) in order";
    auto type = cast<RankedTensorType>(input.getType());
    SmallVector<int64_t> expected;
    for (unsigned i = 0, e = map.getNumResults(); i < e; ++i)
      expected.push_back(shape[map.getDimPosition(i)]);
    if (failed(verifyCompatibleShape(expected, type.getShape())))
      return emitOpError("expects input #")
             << index << " of shape " << formatShape(expected)
             << " through its indexing map " << AffineMapAttr::get(map)
             << ", got " << formatShape(type.getShape());
  }
  if (failed(verifyStoredScales(*this, "scale", data, getScale().getType(),
                                getScaling(), getScaleLayout())))
    return failure();
  if (!getTranspose() && getScaleTLayout() != ScaleLayout::row_major)
    return emitOpError("scale_t_layout needs the transpose");
  if (getTranspose()) {
    auto transposed = data.clone({shape[1], shape[0]});
    if (failed(verifySameShape(*this, "result_t", transposed,
                               getQuantizedT().getType())))
      return failure();
    if (getQuantizedT().getType().getElementType() != data.getElementType())
      return emitOpError("expects the data and its transpose of one element "
                         "type, got ")
             << data.getElementType() << " and "
             << getQuantizedT().getType().getElementType();
    if (failed(verifyStoredScales(*this, "scale_t", transposed,
                                  getScaleT().getType(), getScaling(),
                                  getScaleTLayout())))
      return failure();
  }
  if (TypedValue<RankedTensorType> kept = getKept())
    if (kept.getType() != getProducedType())
      return emitOpError("expects the kept value of type ")
             << getProducedType() << " (the data's shape, the yield's type), "
             << "got " << kept.getType();
  return success();
}

//===----------------------------------------------------------------------===//
// DequantizeOp
//===----------------------------------------------------------------------===//

LogicalResult DequantizeOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  if (failed(verifySameShape(*this, "result", input, getResult().getType())))
    return failure();
  return verifyScales(*this, "scale", input, getScale().getType(),
                      getScaling());
}

//===----------------------------------------------------------------------===//
// ScaledMatmulOp
//===----------------------------------------------------------------------===//

/// The tile extent of `scaling` along matrix dimension `dim`.
static int64_t getKBlock(ScalingAttr scaling, int64_t dim) {
  return scaling.getTile()[dim];
}

/// Checks that `scaling` keeps one scale along `dim` for a whole K-block.
static LogicalResult verifyContractedTile(Operation *op, StringRef name,
                                          ScalingAttr scaling, int64_t dim) {
  int64_t kBlock = getKBlock(scaling, dim);
  if (ShapedType::isDynamic(kBlock) || kBlock % kMinKBlock == 0)
    return success();
  return op->emitOpError() << name << " tile " << formatTile(scaling.getTile())
                           << " varies along contracted dim " << dim
                           << ": its K-block " << kBlock
                           << " must be '*' or a multiple of " << kMinKBlock;
}

LogicalResult ScaledMatmulOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto b = cast<ShapedType>(getB().getType());
  auto result = cast<ShapedType>(getResult().getType());
  if (a.getRank() != b.getRank())
    return emitOpError() << "expects operands of the same rank, got "
                         << a.getRank() << " and " << b.getRank();
  if (result.getRank() != a.getRank())
    return emitOpError() << "expects a result of rank " << a.getRank()
                         << ", got " << result.getRank();

  ArrayRef<int64_t> contracting = getContracting();
  for (int64_t dim : contracting)
    if (dim != 0 && dim != 1)
      return emitOpError() << "contracting dims are matrix dims (0 = rows, "
                              "1 = cols, after any batch dim), got "
                           << dim;
  int64_t batchRank = a.getRank() - 2;
  int64_t da = contracting[0], db = contracting[1];
  int64_t kA = a.getDimSize(batchRank + da);
  int64_t kB = b.getDimSize(batchRank + db);
  if (!ShapedType::isDynamic(kA) && !ShapedType::isDynamic(kB) && kA != kB)
    return emitOpError() << "contracted dims differ: " << kA << " (a dim " << da
                         << ") vs " << kB << " (b dim " << db << ")";

  if (failed(verifyOperandScales(*this, "a_scale", a, getAScale().getType(),
                                 getAScaling(), getAScaleLayout(), da)) ||
      failed(verifyOperandScales(*this, "b_scale", b, getBScale().getType(),
                                 getBScaling(), getBScaleLayout(), db)))
    return failure();
  if (failed(verifyContractedTile(*this, "a_scaling", getAScaling(), da)) ||
      failed(verifyContractedTile(*this, "b_scaling", getBScaling(), db)))
    return failure();
  int64_t kBlockA = getKBlock(getAScaling(), da);
  int64_t kBlockB = getKBlock(getBScaling(), db);
  if (!ShapedType::isDynamic(kBlockA) && !ShapedType::isDynamic(kBlockB) &&
      kBlockA % kBlockB != 0 && kBlockB % kBlockA != 0)
    return emitOpError() << "K-blocks " << kBlockA << " (a) and " << kBlockB
                         << " (b) do not divide one another";

  SmallVector<int64_t> expected(a.getShape().take_front(batchRank));
  if (batchRank &&
      failed(verifyCompatibleShape(a.getShape().take_front(batchRank),
                                   b.getShape().take_front(batchRank))))
    return emitOpError() << "batch dims differ: " << formatShape(a.getShape())
                         << " vs " << formatShape(b.getShape());
  expected.push_back(a.getDimSize(batchRank + 1 - da));
  expected.push_back(b.getDimSize(batchRank + 1 - db));
  if (failed(verifyCompatibleShape(expected, result.getShape())))
    return emitOpError() << "expects result of shape " << formatShape(expected)
                         << ", got " << formatShape(result.getShape());
  return success();
}

int64_t ScaledMatmulOp::getPromotionInterval() {
  int64_t kBlockA = getKBlock(getAScaling(), getContracting()[0]);
  int64_t kBlockB = getKBlock(getBScaling(), getContracting()[1]);
  if (ShapedType::isDynamic(kBlockA))
    return kBlockB;
  if (ShapedType::isDynamic(kBlockB))
    return kBlockA;
  return std::min(kBlockA, kBlockB);
}

TypedValue<RankedTensorType> ScaledMatmulOp::getData(MatmulSide side) {
  return side == MatmulSide::a ? getA() : getB();
}

TypedValue<RankedTensorType> ScaledMatmulOp::getScale(MatmulSide side) {
  return side == MatmulSide::a ? getAScale() : getBScale();
}

ScalingAttr ScaledMatmulOp::getScaling(MatmulSide side) {
  return side == MatmulSide::a ? getAScaling() : getBScaling();
}

ScaleLayout ScaledMatmulOp::getScaleLayout(MatmulSide side) {
  return side == MatmulSide::a ? getAScaleLayout() : getBScaleLayout();
}

int64_t ScaledMatmulOp::getContractingDim(MatmulSide side) {
  return getContracting()[static_cast<unsigned>(side)];
}

void ScaledMatmulOp::setData(MatmulSide side, Value data) {
  (side == MatmulSide::a ? getAMutable() : getBMutable()).assign(data);
}

void ScaledMatmulOp::setScale(MatmulSide side, Value scale) {
  (side == MatmulSide::a ? getAScaleMutable() : getBScaleMutable())
      .assign(scale);
}

void ScaledMatmulOp::setScaling(MatmulSide side, ScalingAttr scaling) {
  if (side == MatmulSide::a)
    setAScalingAttr(scaling);
  else
    setBScalingAttr(scaling);
}

void ScaledMatmulOp::setScaleLayout(MatmulSide side, ScaleLayout layout) {
  if (side == MatmulSide::a)
    setAScaleLayout(layout);
  else
    setBScaleLayout(layout);
}

StringRef ScaledMatmulOp::getSideName(MatmulSide side) {
  return side == MatmulSide::a ? "a" : "b";
}

//===----------------------------------------------------------------------===//
// Tcgen05ScalesOp
//===----------------------------------------------------------------------===//

void Tcgen05ScalesOp::build(OpBuilder &builder, OperationState &state,
                            Value scale) {
  auto type = cast<RankedTensorType>(scale.getType());
  build(builder, state, type.clone(getTcgen05ScaleShape(type.getShape())),
        scale);
}

void Tcgen05ScalesOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "sf");
}

LogicalResult Tcgen05ScalesOp::verify() {
  auto scale = cast<ShapedType>(getScale().getType());
  SmallVector<int64_t> expected = getTcgen05ScaleShape(scale.getShape());
  if (failed(verifyCompatibleShape(expected, getResult().getType().getShape())))
    return emitOpError() << "expects result of shape " << formatShape(expected)
                         << " (chunks of 128 rows x 4 K-blocks of the "
                         << formatShape(scale.getShape())
                         << " scales, 512 bytes each), got "
                         << formatShape(getResult().getType().getShape());
  return success();
}

//===----------------------------------------------------------------------===//
// TmaAlignScalesOp
//===----------------------------------------------------------------------===//

void TmaAlignScalesOp::build(OpBuilder &builder, OperationState &state,
                             Value scale) {
  auto type = cast<RankedTensorType>(scale.getType());
  build(builder, state,
        type.clone(
            getTmaAlignedScaleShape(type.getShape(), type.getElementType())),
        scale);
}

void TmaAlignScalesOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "tma_scale");
}

LogicalResult TmaAlignScalesOp::verify() {
  auto scale = cast<ShapedType>(getScale().getType());
  auto result = cast<ShapedType>(getResult().getType());
  Type element = scale.getElementType();
  if (result.getElementType() != element)
    return emitOpError() << "result element type " << result.getElementType()
                         << " differs from the scale's " << element;
  SmallVector<int64_t> expected =
      getTmaAlignedScaleShape(scale.getShape(), element);
  if (failed(verifyCompatibleShape(expected, result.getShape())))
    return emitOpError() << "expects result of shape " << formatShape(expected)
                         << " (the transpose of "
                         << formatShape(scale.getShape())
                         << ", rows padded to 16 bytes), got "
                         << formatShape(result.getShape());
  // Where the scale's row count is dynamic, a static padded extent must
  // still fill whole 16-byte units.
  int64_t perRow =
      kColMajorTmaRowAlignment / (element.getIntOrFloatBitWidth() / 8);
  int64_t padded = result.getDimSize(1);
  if (!ShapedType::isDynamic(padded) && padded % perRow != 0)
    return emitOpError() << "expects result rows of a multiple of 16 bytes ("
                         << perRow << " elements of " << element << "), got "
                         << padded;
  return success();
}

//===----------------------------------------------------------------------===//
// AmaxOp
//===----------------------------------------------------------------------===//

LogicalResult AmaxOp::verify() {
  return verifyTiledShape(*this, "result",
                          cast<ShapedType>(getInput().getType()),
                          getResult().getType(), getTile().getExtents());
}

//===----------------------------------------------------------------------===//
// TransposeOp
//===----------------------------------------------------------------------===//

/// `shape` with its two matrix dimensions swapped.
static SmallVector<int64_t> transposeMatrixDims(ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result(shape);
  std::swap(result[result.size() - 2], result[result.size() - 1]);
  return result;
}

void TransposeOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "qt");
  setNameFn(getResultScale(), "scale_t");
}

LogicalResult TransposeOp::verify() {
  ScalingAttr scaling = getScaling();
  if (!scaling.isSquare())
    return emitOpError() << "cannot transpose tile "
                         << formatTile(scaling.getTile())
                         << " losslessly: only tensorwise or square tiles "
                            "transpose; requantize from the source instead";
  auto input = cast<ShapedType>(getInput().getType());
  auto result = cast<ShapedType>(getResult().getType());
  if (input.getElementType() != result.getElementType())
    return emitOpError() << "result element type " << result.getElementType()
                         << " differs from the input's "
                         << input.getElementType();
  if (failed(
          verifyScales(*this, "scale", input, getScale().getType(), scaling)))
    return failure();
  SmallVector<int64_t> expected = transposeMatrixDims(input.getShape());
  if (failed(verifyCompatibleShape(expected, result.getShape())))
    return emitOpError() << "expects result of shape " << formatShape(expected)
                         << ", got " << formatShape(result.getShape());
  if (getScale().getType() !=
      getResultScale().getType().clone(
          transposeMatrixDims(getResultScale().getType().getShape())))
    return emitOpError() << "expects result_scale to be the transposed scale "
                            "tensor, got "
                         << getResultScale().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// RequantizeOp
//===----------------------------------------------------------------------===//

void RequantizeOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "rq");
  setNameFn(getResultScale(), "scale");
}

LogicalResult RequantizeOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  if (failed(verifyScales(*this, "scale", input, getScale().getType(),
                          getScaling())))
    return failure();
  if (failed(verifySameShape(*this, "result", input, getResult().getType())))
    return failure();
  if (failed(verifyScales(*this, "result_scale", getResult().getType(),
                          getResultScale().getType(), getTo())))
    return failure();
  return verifyRoundingSeed(*this, getRounding(), getSeed());
}

//===----------------------------------------------------------------------===//
// HadamardOp
//===----------------------------------------------------------------------===//

LogicalResult HadamardOp::verify() {
  auto type = cast<ShapedType>(getInput().getType());
  uint64_t dim = getDim();
  if (dim >= static_cast<uint64_t>(type.getRank()))
    return emitOpError() << "dim " << dim << " is out of range for a rank-"
                         << type.getRank() << " tensor";
  uint64_t size = getSize();
  if (!llvm::isPowerOf2_64(size))
    return emitOpError() << "size " << size << " is not a power of two";
  int64_t extent = type.getDimSize(dim);
  if (!ShapedType::isDynamic(extent) && extent % size != 0)
    return emitOpError() << "size " << size << " does not divide dim " << dim
                         << " of extent " << extent;
  return success();
}
