//===- FP8Ops.cpp - FP8 dialect operations --------------------------------===//
//
// Verifiers of the fp8 ops. They enforce the shapes that relate data, scales
// and results, and the contracted-dimension rule: a scale must stay constant
// along the contracted dimension within one K-block. fp8.quantize_elementwise
// is in QuantizeElementwiseOp.cpp.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "OpVerification.h"

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

/// Checks that a scale tensor holds the scaling's scale type.
static LogicalResult verifyScaleElementType(Operation *op, StringRef what,
                                            ShapedType scale,
                                            ScalingAttr scaling) {
  if (scale.getElementType() != scaling.getScale())
    return op->emitOpError()
           << what << " element type " << scale.getElementType()
           << " does not match the scaling's " << scaling.getScale();
  return success();
}

/// Checks a scale tensor against its data and scaling.
static LogicalResult verifyScales(Operation *op, StringRef what,
                                  ShapedType data, ShapedType scale,
                                  ScalingAttr scaling) {
  if (failed(verifyScaleElementType(op, what, scale, scaling)))
    return failure();
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
  if (failed(verifyScaleElementType(op, what, scale, scaling)))
    return failure();
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

LogicalResult mlir::fp8::verifyStoredScales(Operation *op, StringRef what,
                                            ShapedType data, ShapedType scale,
                                            ScalingAttr scaling,
                                            ScaleLayout layout, bool tcgen05) {
  if (layout == ScaleLayout::tcgen05 && !tcgen05)
    return op->emitOpError()
           << what << "_layout tcgen05 is made by fp8.tcgen05_scales, not "
           << "stored by this quantization (row_major or col_major_tma)";
  return verifyOperandScales(op, what, data, scale, scaling, layout,
                             /*contractingDim=*/1);
}

LogicalResult mlir::fp8::verifySameShape(Operation *op, StringRef what,
                                         ShapedType expected,
                                         ShapedType actual) {
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

LogicalResult mlir::fp8::verifyScaledMatmulTypes(
    Operation *op, ShapedType a, ShapedType aScale, ShapedType b,
    ShapedType bScale, ShapedType result, ArrayRef<int64_t> contracting,
    ScalingAttr aScaling, ScalingAttr bScaling, ScaleLayout aLayout,
    ScaleLayout bLayout) {
  auto emitOpError = [&]() { return op->emitOpError(); };
  if (a.getRank() != b.getRank())
    return emitOpError() << "expects operands of the same rank, got "
                         << a.getRank() << " and " << b.getRank();
  if (result.getRank() != a.getRank())
    return emitOpError() << "expects a result of rank " << a.getRank()
                         << ", got " << result.getRank();

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

  if (failed(verifyOperandScales(op, "a_scale", a, aScale, aScaling, aLayout,
                                 da)) ||
      failed(
          verifyOperandScales(op, "b_scale", b, bScale, bScaling, bLayout, db)))
    return failure();
  if (failed(verifyContractedTile(op, "a_scaling", aScaling, da)) ||
      failed(verifyContractedTile(op, "b_scaling", bScaling, db)))
    return failure();
  int64_t kBlockA = getKBlock(aScaling, da);
  int64_t kBlockB = getKBlock(bScaling, db);
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

LogicalResult ScaledMatmulOp::verify() {
  return verifyScaledMatmulTypes(
      *this, getA().getType(), getAScale().getType(), getB().getType(),
      getBScale().getType(), getResult().getType(), getContracting(),
      getAScaling(), getBScaling(), getAScaleLayout(), getBScaleLayout());
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
