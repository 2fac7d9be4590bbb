//===- FuseQuantization.cpp - quantizations into explicit fused ops -------===//
//
// fp8-fuse-quantization: where one kernel can compute several ops from one
// read of their input, the ops become one fused op, so that what kernel
// generation fuses is visible in the IR and decided here, not matched
// inside the conversion: the cast-transpose (fp8.quantize_transpose), and
// elementwise producers and Hadamard rotations into the quantization that
// reads them (fp8.quantize_elementwise).
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8FUSEQUANTIZATION
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// Whether `q` is a quantization the cast-transpose computes: its input and
/// scaling fit the kernel (Target::fitsCastTranspose), round-to-nearest, its
/// own amax.
static bool isPlainRowQuantization(QuantizeOp q, Value x) {
  return Target::fitsCastTranspose(x.getType(), q.getScaling()) &&
         q.getRounding() == Rounding::nearest && !q.getAmax() &&
         // Not one that kernel generation has already bound to a kernel.
         !q->hasAttr(kKernelAttrName);
}

/// The quantization of %x among `candidates` that the cast-transpose can
/// compute together with `transposed`, a quantization of
/// `linalg.transpose %x`: quantized alike, in the same block. Null where
/// none fits.
static QuantizeOp *findRowsPartner(QuantizeOp transposed,
                                   MutableArrayRef<QuantizeOp> candidates) {
  auto transpose = transposed.getInput().getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
      !isPlainRowQuantization(transposed, transpose.getInput()))
    return nullptr;
  QuantizeOp *rows = llvm::find_if(candidates, [&](QuantizeOp q) {
    return q && q.getInput() == transpose.getInput() &&
           q.getScaling() == transposed.getScaling() &&
           q.getResult().getType().getElementType() ==
               transposed.getResult().getType().getElementType() &&
           q.getMargin() == transposed.getMargin() &&
           isPlainRowQuantization(q, q.getInput()) &&
           q->getBlock() == transposed->getBlock();
  });
  return rows == candidates.end() ? nullptr : rows;
}

/// Replaces `rows` (of %x) and `transposed` (of its transpose) by one
/// fp8.quantize_transpose at the earlier of the two, so that it dominates the
/// readers of both (%x dominates both).
static void fuseCastTranspose(QuantizeOp rows, QuantizeOp transposed) {
  auto transpose = transposed.getInput().getDefiningOp<linalg::TransposeOp>();
  Operation *earlier = rows->isBeforeInBlock(transposed) ? rows : transposed;
  OpBuilder b(earlier);
  auto fused = QuantizeTransposeOp::create(
      b, FusedLoc::get(b.getContext(), {rows.getLoc(), transposed.getLoc()}),
      rows.getResult().getType(), rows.getScale().getType(),
      transposed.getResult().getType(), transposed.getScale().getType(),
      rows.getInput(), rows.getScaling(), rows.getMargin());
  // The role of the value quantized (both quantizations read it).
  if (Attribute role = rows->getAttr(FP8Dialect::getRoleAttrName()))
    fused->setAttr(FP8Dialect::getRoleAttrName(), role);
  rows.getResult().replaceAllUsesWith(fused.getResult());
  rows.getScale().replaceAllUsesWith(fused.getScale());
  transposed.getResult().replaceAllUsesWith(fused.getResultT());
  transposed.getScale().replaceAllUsesWith(fused.getScaleT());
  rows.erase();
  transposed.erase();
  if (!transpose->use_empty())
    return;
  Value init = transpose.getInit();
  transpose.erase();
  if (auto empty = init.getDefiningOp<tensor::EmptyOp>();
      empty && empty->use_empty())
    empty.erase();
}

//===----------------------------------------------------------------------===//
// Elementwise producers
//===----------------------------------------------------------------------===//

/// Element types a quantize kernel loads (16-byte vectors of 16- or 32-bit
/// floats).
static bool isLoadableElement(Type type) {
  return type.isF32() || type.isBF16() || type.isF16();
}

static bool isScalarArithOrMath(Operation &op) {
  return isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
             op.getDialect()) &&
         op.getNumRegions() == 0 &&
         llvm::none_of(op.getResultTypes(), llvm::IsaPred<ShapedType>);
}

static bool isStaticMatrixOfLoadable(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  // Not empty: the ops the kernels would refuse keep their own diagnostics.
  return tensor && tensor.hasStaticShape() && tensor.getRank() == 2 &&
         tensor.getNumElements() > 0 &&
         isLoadableElement(tensor.getElementType());
}

/// Whether `op` is an elementwise producer that a quantize kernel computes
/// where it loads: an all-parallel linalg.generic over a static matrix with
/// one result written in loop order, whose body is scalar arith and math
/// (constants from outside) and does not read the init, and whose inputs
/// are static tensors of 16- or 32-bit floats read through the identity or
/// a broadcast; or an elementwise arith/math op on such matrices.
static bool isFusibleProducer(Operation *op) {
  if (!op)
    return false;
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (!generic.hasPureTensorSemantics() || generic.getNumResults() != 1 ||
        generic.getNumLoops() != 2 ||
        generic.getNumParallelLoops() != generic.getNumLoops() ||
        !isStaticMatrixOfLoadable(generic->getResult(0).getType()))
      return false;
    OpOperand *init = generic.getDpsInitOperand(0);
    if (!generic.getMatchingIndexingMap(init).isIdentity() ||
        generic.payloadUsesValueFromOperand(init))
      return false;
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!type || !type.hasStaticShape() ||
          !isLoadableElement(type.getElementType()) ||
          !QuantizeElementwiseOp::isElementwiseMap(
              generic.getMatchingIndexingMap(input)))
        return false;
    }
    Block *body = generic.getBlock();
    for (Operation &inner : body->without_terminator()) {
      if (!isScalarArithOrMath(inner))
        return false;
      for (Value operand : inner.getOperands())
        if (operand.getParentBlock() != body &&
            !matchPattern(operand, m_Constant()))
          return false;
    }
    return true;
  }
  return op->hasTrait<OpTrait::Elementwise>() &&
         isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
             op->getDialect()) &&
         op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         isStaticMatrixOfLoadable(op->getResult(0).getType()) &&
         llvm::all_of(op->getOperandTypes(), [&](Type type) {
           return isStaticMatrixOfLoadable(type) &&
                  cast<ShapedType>(type).getShape() ==
                      cast<ShapedType>(op->getResult(0).getType()).getShape();
         });
}

namespace {
/// The body of an fp8.quantize_elementwise under construction: the leaves
/// (tensors the kernel reads) become block arguments, and producers of
/// identity-read inputs that nothing else reads are inlined, so that a
/// chain (a bias add, then a GELU) is one body.
struct BodyBuilder {
  explicit BodyBuilder(MLIRContext *context) : block(new Block()), b(context) {
    b.setInsertionPointToEnd(block);
  }
  ~BodyBuilder() { delete block; }

  /// The scalar of `producer`'s result computed in the block.
  Value emit(Operation *producer);

  /// Ends the body with the yield of `element` and hands the detached
  /// block over (the caller moves it into the fused op).
  Block *finish(Value element) {
    YieldOp::create(b, element.getLoc(), element);
    return std::exchange(block, nullptr);
  }

  SmallVector<Value> inputs;
  SmallVector<Attribute> maps;
  /// The producers inlined, the root first, then outermost first.
  SmallVector<Operation *> inlined;
  /// The constants from outside that the body took (splat tensors, the
  /// scalars a generic's body used), erased once nothing reads them.
  llvm::SetVector<Operation *> constants;

private:
  /// The scalar of `value` read through `map`: an inlined producer's
  /// result, a splat constant's value, or a block argument (one per
  /// distinct tensor and map).
  Value read(Value value, AffineMap map);

  Block *block;
  OpBuilder b;
};
} // namespace

Value BodyBuilder::read(Value value, AffineMap map) {
  Operation *producer = value.getDefiningOp();
  if (map.isIdentity() && isFusibleProducer(producer) && value.hasOneUse() &&
      producer->getBlock() == inlined.front()->getBlock()) {
    inlined.push_back(producer);
    return emit(producer);
  }
  // A splat constant (a scaling factor, a zero) is a scalar constant of the
  // body, not a buffer to read.
  DenseElementsAttr dense;
  if (matchPattern(value, m_Constant(&dense)) && dense.isSplat()) {
    constants.insert(value.getDefiningOp());
    return arith::ConstantOp::create(b, value.getLoc(),
                                     dense.getSplatValue<TypedAttr>());
  }
  Attribute mapAttr = AffineMapAttr::get(map);
  for (auto [index, pair] : llvm::enumerate(llvm::zip(inputs, maps)))
    if (std::get<0>(pair) == value && std::get<1>(pair) == mapAttr)
      return block->getArgument(index);
  inputs.push_back(value);
  maps.push_back(mapAttr);
  return block->addArgument(getElementTypeOrSelf(value.getType()),
                            value.getLoc());
}

Value BodyBuilder::emit(Operation *producer) {
  MLIRContext *context = producer->getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
  if (auto generic = dyn_cast<linalg::GenericOp>(producer)) {
    Block *body = generic.getBlock();
    IRMapping mapping;
    for (OpOperand *input : generic.getDpsInputOperands())
      mapping.map(body->getArgument(input->getOperandNumber()),
                  read(input->get(), generic.getMatchingIndexingMap(input)));
    for (Operation &inner : body->without_terminator()) {
      // Constants from outside the body are cloned into it: the fused op
      // is isolated from above.
      for (Value operand : inner.getOperands())
        if (operand.getParentBlock() != body && !mapping.contains(operand)) {
          constants.insert(operand.getDefiningOp());
          mapping.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
        }
      b.clone(inner, mapping);
    }
    return mapping.lookupOrDefault(body->getTerminator()->getOperand(0));
  }
  // An elementwise op on tensors: the same op on their elements.
  SmallVector<Value> operands = llvm::map_to_vector(
      producer->getOperands(), [&](Value v) { return read(v, identity); });
  OperationState state(producer->getLoc(), producer->getName(), operands,
                       {getElementTypeOrSelf(producer->getResult(0))},
                       producer->getAttrs());
  return b.create(state)->getResult(0);
}

/// Replaces quantization `quantize` (an fp8.quantize or
/// fp8.quantize_transpose) of `producer`'s result and `producer` by one
/// fp8.quantize_elementwise at the producer, which dominates every reader
/// of its result; the result is kept where another op reads it.
static void fuseProducer(Operation *quantize, Operation *producer,
                         ScalingAttr scaling, int64_t margin, bool transpose) {
  BodyBuilder body(producer->getContext());
  body.inlined.push_back(producer);
  Block *block = body.finish(body.emit(producer));
  OpBuilder b(producer);

  Value produced = producer->getResult(0);
  bool keep = !llvm::all_of(produced.getUsers(),
                            [&](Operation *user) { return user == quantize; });
  SmallVector<Type> types(quantize->getResultTypes());
  if (keep)
    types.push_back(produced.getType());
  auto fused = QuantizeElementwiseOp::create(
      b,
      FusedLoc::get(b.getContext(), {quantize->getLoc(), producer->getLoc()}),
      types, body.inputs, b.getArrayAttr(body.maps), scaling, margin, transpose,
      ScaleLayout::row_major, ScaleLayout::row_major,
      /*hadamard_size=*/nullptr, /*hadamard_seed=*/nullptr);
  fused.getBody().push_back(block);
  if (Attribute role = quantize->getAttr(FP8Dialect::getRoleAttrName()))
    fused->setAttr(FP8Dialect::getRoleAttrName(), role);
  for (auto [from, to] : llvm::zip(quantize->getResults(), fused->getResults()))
    from.replaceAllUsesWith(to);
  quantize->erase();
  if (keep)
    produced.replaceAllUsesWith(fused.getKept());
  // Outermost first: each inlined producer's only reader goes before it.
  for (Operation *op : body.inlined) {
    SmallVector<Value> inits;
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      inits = llvm::to_vector(generic.getDpsInits());
    op->erase();
    for (Value init : inits)
      if (auto empty = init.getDefiningOp<tensor::EmptyOp>();
          empty && empty->use_empty())
        empty.erase();
  }
  for (Operation *constant : body.constants)
    if (constant->use_empty())
      constant->erase();
}

static QuantizeElementwiseOp asElementwise(QuantizeOp q);

/// Whether the row-tile quantize kernel can rotate each thread's 16 values
/// of a `type` matrix in registers before quantizing them with `scaling`:
/// tiles of one row and c columns, rotation blocks of n (both a power of
/// two of 16-element chunks, at most a warp's: c <= 512, n <= 256, what
/// the kernel's rotation takes), both dividing the columns. The kernel
/// (buildQuantizeElementwiseKernel) refuses anything else.
static bool fitsRotatedRowTiles(RankedTensorType type, ScalingAttr scaling,
                                int64_t n) {
  int64_t cols = type.getDimSize(1);
  int64_t tileRows = scaling.getTile()[0], c = scaling.getTile()[1];
  if (ShapedType::isDynamic(c))
    c = cols;
  auto chunks = [](int64_t extent, int64_t most) {
    return extent % 16 == 0 && llvm::isPowerOf2_64(extent / 16) &&
           extent <= most;
  };
  return tileRows == 1 && chunks(c, 512) && chunks(n, 256) && cols % c == 0 &&
         cols % n == 0;
}

/// Fuses a Hadamard rotation (along the rows) that only `q` reads into it:
/// one fp8.quantize_elementwise of the rotation's input with the identity
/// body and the rotation's size and seed. Returns whether it did.
static bool fuseRotation(QuantizeOp q, HadamardOp rotation) {
  auto type = dyn_cast<RankedTensorType>(rotation.getInput().getType());
  if (!rotation->hasOneUse() || rotation.getDim() != 1 ||
      rotation->getBlock() != q->getBlock() || !type ||
      !isStaticMatrixOfLoadable(type) ||
      !fitsRotatedRowTiles(type, q.getScaling(), rotation.getSize()))
    return false;
  Location loc = FusedLoc::get(q.getContext(), {q.getLoc(), rotation.getLoc()});
  QuantizeElementwiseOp fused = asElementwise(q);
  if (!fused)
    return false;
  fused->setLoc(loc);
  fused->setOperand(0, rotation.getInput());
  fused.setHadamardSizeAttr(rotation.getSizeAttr());
  fused.setHadamardSeedAttr(rotation.getSeedAttr());
  rotation->erase();
  return true;
}

/// Fuses the producer of `quantize`'s input into it where it can; returns
/// whether it did.
static bool fuseProducerOf(Operation *quantize) {
  if (quantize->hasAttr(kKernelAttrName))
    return false;
  Value input = quantize->getOperand(0);
  Operation *producer = input.getDefiningOp();
  if (auto rotation = dyn_cast_or_null<HadamardOp>(producer))
    if (auto q = dyn_cast<QuantizeOp>(quantize))
      return fuseRotation(q, rotation);
  if (!isFusibleProducer(producer) ||
      producer->getBlock() != quantize->getBlock())
    return false;
  if (auto q = dyn_cast<QuantizeOp>(quantize)) {
    if (q.getRounding() != Rounding::nearest || q.getAmax() || q.getSeed())
      return false;
    fuseProducer(q, producer, q.getScaling(), q.getMargin(),
                 /*transpose=*/false);
    return true;
  }
  auto fused = cast<QuantizeTransposeOp>(quantize);
  fuseProducer(fused, producer, fused.getScaling(), fused.getMargin(),
               /*transpose=*/true);
  return true;
}

//===----------------------------------------------------------------------===//
// Scale re-layout
//===----------------------------------------------------------------------===//

/// The attribute that says how scale result `scale` of a fused
/// quantization is stored, or none where it has no such attribute.
static std::optional<StringRef> getLayoutAttrName(OpResult scale) {
  Operation *op = scale.getOwner();
  unsigned index = scale.getResultNumber();
  auto fused = dyn_cast<QuantizeElementwiseOp>(op);
  if (!isa<QuantizeTransposeOp>(op) && !fused)
    return std::nullopt;
  if (index == 1)
    return StringRef("scale_layout");
  if (index == 3 && (!fused || fused.getTranspose()))
    return StringRef("scale_t_layout");
  return std::nullopt;
}

/// A plain round-to-nearest quantization of a static matrix as the
/// fp8.quantize_elementwise of the identity, the one quantize op whose
/// scale layout is an attribute; null where it is not one.
static QuantizeElementwiseOp asElementwise(QuantizeOp q) {
  if (q.getRounding() != Rounding::nearest || q.getAmax() || q.getSeed() ||
      !isStaticMatrixOfLoadable(q.getInput().getType()))
    return {};
  OpBuilder b(q);
  auto fused = QuantizeElementwiseOp::create(
      b, q.getLoc(), q->getResultTypes(), ValueRange{q.getInput()},
      b.getAffineMapArrayAttr({b.getMultiDimIdentityMap(2)}), q.getScaling(),
      q.getMargin(), /*transpose=*/false, ScaleLayout::row_major,
      ScaleLayout::row_major, /*hadamard_size=*/nullptr,
      /*hadamard_seed=*/nullptr);
  Block *body = new Block();
  fused.getBody().push_back(body);
  Value element = body->addArgument(
      getElementTypeOrSelf(q.getInput().getType()), q.getLoc());
  b.setInsertionPointToEnd(body);
  YieldOp::create(b, q.getLoc(), element);
  if (Attribute role = q->getAttr(FP8Dialect::getRoleAttrName()))
    fused->setAttr(FP8Dialect::getRoleAttrName(), role);
  q->replaceAllUsesWith(fused->getResults());
  q.erase();
  return fused;
}

/// Makes the quantization that produced the scales of `align` store them
/// in its col_major_tma layout, where nothing else reads them row-major
/// and it is in the same block; returns whether it did.
static bool fuseScaleLayout(TmaAlignScalesOp align) {
  auto scale = dyn_cast<OpResult>(align.getScale());
  if (!scale || !scale.hasOneUse() ||
      scale.getOwner()->getBlock() != align->getBlock() ||
      scale.getOwner()->hasAttr(kKernelAttrName))
    return false;
  if (auto q = dyn_cast<QuantizeOp>(scale.getOwner())) {
    QuantizeElementwiseOp fused = asElementwise(q);
    if (!fused)
      return false;
    scale = cast<OpResult>(fused.getScale());
  }
  std::optional<StringRef> name = getLayoutAttrName(scale);
  if (!name)
    return false;
  Operation *quantize = scale.getOwner();
  auto layout = quantize->getAttrOfType<ScaleLayoutAttr>(*name);
  if (layout && layout.getValue() != ScaleLayout::row_major)
    return false;
  quantize->setAttr(*name, ScaleLayoutAttr::get(quantize->getContext(),
                                                ScaleLayout::col_major_tma));
  scale.setType(align.getResult().getType());
  align.getResult().replaceAllUsesWith(scale);
  align.erase();
  return true;
}

namespace {
struct FP8FuseQuantizationPass
    : fp8::impl::FP8FuseQuantizationBase<FP8FuseQuantizationPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<QuantizeOp> quantizations;
    getOperation().walk([&](QuantizeOp q) { quantizations.push_back(q); });
    // Fused quantizations leave the list (null) so that each fuses once.
    for (QuantizeOp &transposed : quantizations) {
      if (!transposed)
        continue;
      QuantizeOp *rows = findRowsPartner(transposed, quantizations);
      if (!rows)
        continue;
      fuseCastTranspose(*rows, transposed);
      *rows = nullptr;
      transposed = nullptr;
    }
    if (!producers)
      return fuseScales();
    // Then each quantization (plain or fused with its transpose) takes its
    // producer; a producer that several quantizations read fuses into the
    // first, whose kept result the others read.
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<QuantizeOp, QuantizeTransposeOp>(op))
        candidates.push_back(op);
    });
    for (Operation *quantize : candidates)
      fuseProducerOf(quantize);
    fuseScales();
  }

  /// Last, the scale re-layouts into the quantizations' scale stores.
  void fuseScales() {
    if (!scales)
      return;
    SmallVector<TmaAlignScalesOp> aligns;
    getOperation().walk([&](TmaAlignScalesOp op) { aligns.push_back(op); });
    for (TmaAlignScalesOp align : aligns)
      fuseScaleLayout(align);
  }
};
} // namespace
