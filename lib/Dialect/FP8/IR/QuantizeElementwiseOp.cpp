//===- QuantizeElementwiseOp.cpp - fp8.quantize_elementwise ---------------===//
//
// fp8.quantize_elementwise: its result accessors, its body (one element of
// scalar arith and math ops ending in fp8.yield) and its verifier. The op
// carries a region and a variadic result list, so it has more code than the
// other fp8 ops and lives apart from them (FP8Ops.cpp holds the generated
// op classes and the shape checks it shares, through OpVerification.h).
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "OpVerification.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::fp8;

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

YieldOp QuantizeElementwiseOp::getReductionYield(unsigned index) {
  Block &block = getReductions()[index].front();
  return block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
}

/// A region of the op (`what`: "body", "reduce region #k"): one argument
/// per input of the input's element type, then an f32 per row reduction;
/// arith and math ops without regions; the fp8.yield `yield`.
static LogicalResult verifyRegion(QuantizeElementwiseOp op, Block &block,
                                  const Twine &what, YieldOp yield) {
  unsigned numInputs = op.getInputs().size();
  unsigned numReductions = op.getReductions().size();
  if (block.getNumArguments() != numInputs + numReductions) {
    InFlightDiagnostic diag = op.emitOpError("expects a ")
                              << what << " argument per input (" << numInputs
                              << ")";
    if (numReductions)
      diag << " and per reduction (" << numReductions << ")";
    return diag << ", got " << block.getNumArguments();
  }
  for (auto [index, pair] :
       llvm::enumerate(llvm::zip(block.getArguments(), op.getInputs()))) {
    auto [argument, input] = pair;
    Type element = getElementTypeOrSelf(input.getType());
    if (argument.getType() != element)
      return op.emitOpError("expects ")
             << what << " argument #" << index << " of input #" << index
             << "'s element type " << element << ", got " << argument.getType();
  }
  for (unsigned k = 0; k < numReductions; ++k) {
    BlockArgument argument = block.getArgument(numInputs + k);
    if (!argument.getType().isF32())
      return op.emitOpError("expects ")
             << what << " argument #" << numInputs + k << " (the sum of reduce "
             << "region #" << k << ") of type f32, got " << argument.getType();
  }
  // By namespace: the dialect library does not link arith and math.
  if (!yield)
    return op.emitOpError() << what << " must end with fp8.yield";
  // Every op before the yield. Not Block::without_terminator: it asks the
  // op's registration for the Terminator trait from libMLIR, and where the
  // fp8 dialect lives in another shared library (the C API's) that trait's
  // TypeID differs, so fp8.yield would be taken for a body op.
  for (Operation &inner :
       llvm::make_range(block.begin(), std::prev(block.end())))
    if (!llvm::is_contained({StringRef("arith"), StringRef("math")},
                            inner.getName().getDialectNamespace()) ||
        inner.getNumRegions() != 0 ||
        llvm::any_of(inner.getResultTypes(), llvm::IsaPred<ShapedType>))
      return op.emitOpError() << what
                              << " computes one element with scalar arith "
                                 "and math ops, got '"
                              << inner.getName() << "'";
  return success();
}

/// The body: see verifyRegion.
static LogicalResult verifyElementwiseBody(QuantizeElementwiseOp op) {
  return verifyRegion(op, op.getBody().front(), "body", op.getYield());
}

/// The `reduce` regions: each a region like the body that yields an f32
/// term and reads the sums of the regions before it only (a sum cannot
/// depend on itself); the row is the kernel's unit, so no transpose or
/// rotation beside them.
LogicalResult QuantizeElementwiseOp::verifyReductions() {
  unsigned numInputs = getInputs().size();
  for (auto [k, region] : llvm::enumerate(getReductions())) {
    std::string what = ("reduce region #" + Twine(k)).str();
    Block &block = region.front();
    if (failed(verifyRegion(*this, block, what, getReductionYield(k))))
      return failure();
    if (Type type = getReductionYield(k).getValue().getType(); !type.isF32())
      return emitOpError() << what << " yields an f32 term, got " << type;
    for (unsigned later = numInputs + k; later < block.getNumArguments();
         ++later)
      if (!block.getArgument(later).use_empty())
        return emitOpError() << what << " reads the sum of reduce region #"
                             << later - numInputs
                             << ": a region reads only the sums before it";
  }
  if (!getReductions().empty() &&
      (getTranspose() || getHadamardSize().has_value()))
    return emitOpError("row reductions take neither the transpose nor a "
                       "rotation");
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
  if (failed(verifyElementwiseBody(*this)) || failed(verifyReductions()))
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
  // The tcgen05 chunks are stored by the row-wise kernels only: the
  // transposing one writes row_major or col_major_tma.
  if (getScaleLayout() == ScaleLayout::tcgen05 && getTranspose())
    return emitOpError("scale_layout tcgen05 needs a quantization without "
                       "the transpose");
  if (failed(verifyStoredScales(*this, "scale", data, getScale().getType(),
                                getScaling(), getScaleLayout(),
                                /*tcgen05=*/true)))
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
  return verifyRotation();
}

/// The rotation between producer and quantization: fp8.hadamard's own
/// rules along dim 1, and no result besides the quantization's.
LogicalResult QuantizeElementwiseOp::verifyRotation() {
  std::optional<uint64_t> size = getHadamardSize();
  if (!size) {
    if (getHadamardSeed())
      return emitOpError("hadamard_seed needs hadamard_size");
    return success();
  }
  if (!llvm::isPowerOf2_64(*size))
    return emitOpError() << "hadamard_size " << *size
                         << " is not a power of two";
  int64_t cols = getQuantized().getType().getDimSize(1);
  if (!ShapedType::isDynamic(cols) && cols % int64_t(*size) != 0)
    return emitOpError() << "hadamard_size " << *size << " does not divide the "
                         << cols << " columns";
  if (getTranspose() || getKept())
    return emitOpError("a rotated quantization has neither the transpose "
                       "nor a kept result");
  return success();
}
