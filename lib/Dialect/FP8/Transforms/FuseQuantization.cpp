//===- FuseQuantization.cpp - quantizations into explicit fused ops -------===//
//
// fp8-fuse-quantization: where one kernel can compute several ops from one
// read of their input, the ops become one fused op, so that what kernel
// generation fuses is visible in the IR and decided here, not matched
// inside the conversion: the cast-transpose (fp8.quantize_transpose), and
// elementwise producers, the row sums of norms and Hadamard rotations into
// the quantization that reads them (fp8.quantize_elementwise), and the
// delayed recipe's amax of the data into its quantization
// (fp8.quantize_delayed).
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// Whether every op of `generic`'s body is scalar arith or math, with
/// constants from outside only.
static bool hasScalarBody(linalg::GenericOp generic) {
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
    return hasScalarBody(generic);
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

//===----------------------------------------------------------------------===//
// Row-local producers (norms)
//===----------------------------------------------------------------------===//

/// (d0, d1) -> (d0): a value per row, broadcast along it.
static bool isRowMap(AffineMap map) {
  return map.getNumDims() == 2 && map.getNumSymbols() == 0 &&
         map.getNumResults() == 1 &&
         map.getResult(0) == getAffineDimExpr(0, map.getContext());
}

static bool isStaticVectorOfLoadable(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  return tensor && tensor.hasStaticShape() && tensor.getRank() == 1 &&
         tensor.getNumElements() > 0 &&
         isLoadableElement(tensor.getElementType());
}

/// Whether `value` is +0.0 everywhere: a splat constant or a linalg.fill
/// of the constant.
static bool isPositiveZeros(Value value) {
  if (auto fill = value.getDefiningOp<linalg::FillOp>())
    value = fill.getInputs()[0];
  FloatAttr scalar;
  DenseFPElementsAttr dense;
  if (matchPattern(value, m_Constant(&scalar)))
    return scalar.getValue().isPosZero();
  return matchPattern(value, m_Constant(&dense)) && dense.isSplat() &&
         dense.getSplatValue<APFloat>().isPosZero();
}

/// Whether `op` is a row sum a quantize kernel can take over: a
/// linalg.generic over a static matrix with loops [parallel, reduction]
/// into an f32 vector per row (map (i, j) -> (i)) that starts at +0.0,
/// whose inputs are read like an elementwise producer's and whose body is
/// scalar arith and math ending in `%acc + term` (the term not reading
/// the accumulator).
static bool isFusibleRowSum(Operation *op) {
  auto sum = dyn_cast_or_null<linalg::GenericOp>(op);
  if (!sum || !isRowSum(sum) || !isPositiveZeros(sum.getDpsInits()[0]) ||
      !hasScalarBody(sum))
    return false;
  return llvm::all_of(sum.getDpsInputOperands(), [&](OpOperand *input) {
    auto inputType = cast<RankedTensorType>(input->get().getType());
    return isLoadableElement(inputType.getElementType()) &&
           QuantizeElementwiseOp::isElementwiseMap(
               sum.getMatchingIndexingMap(input));
  });
}

/// Whether `op` computes a value per row from values per row: an
/// all-parallel linalg.generic over a static vector with a scalar body
/// (rsqrt(sum / n + eps)), or an elementwise arith/math op on such vectors.
static bool isFusibleRowProducer(Operation *op) {
  if (auto generic = dyn_cast_or_null<linalg::GenericOp>(op)) {
    if (!generic.hasPureTensorSemantics() || generic.getNumResults() != 1 ||
        generic.getNumLoops() != 1 || generic.getNumReductionLoops() != 0 ||
        !isStaticVectorOfLoadable(generic->getResult(0).getType()) ||
        !generic.getMatchingIndexingMap(generic.getDpsInitOperand(0))
             .isIdentity() ||
        generic.payloadUsesValueFromOperand(generic.getDpsInitOperand(0)) ||
        !hasScalarBody(generic))
      return false;
    return llvm::all_of(generic.getDpsInputOperands(), [&](OpOperand *input) {
      return isStaticVectorOfLoadable(input->get().getType()) &&
             generic.getMatchingIndexingMap(input).isIdentity();
    });
  }
  return op && op->hasTrait<OpTrait::Elementwise>() &&
         isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
             op->getDialect()) &&
         op->getNumRegions() == 0 && op->getNumResults() == 1 &&
         isStaticVectorOfLoadable(op->getResult(0).getType()) &&
         llvm::all_of(op->getOperandTypes(), [&](Type type) {
           return type == op->getResult(0).getType() ||
                  (isStaticVectorOfLoadable(type) &&
                   cast<ShapedType>(type).getShape() ==
                       cast<ShapedType>(op->getResult(0).getType()).getShape());
         });
}

/// Whether the norm kernel (RowNormQuantizeKernel.cpp: warps per row)
/// quantizes a `type` matrix with `scaling` and `numSums` row sums: tiles
/// of one row and c = 16 .. 512 columns (a power of two of 16-element
/// chunks, dividing the row), or the whole row; rows of whole 16-element
/// chunks; the sums' chunk sums within its shared memory (RowNormLayout).
static bool fitsRowKernel(RankedTensorType type, ScalingAttr scaling,
                          int64_t numSums = 1) {
  int64_t cols = type.getDimSize(1);
  int64_t tileRows = scaling.getTile()[0], c = scaling.getTile()[1];
  if (tileRows != 1 || cols % 16 != 0 ||
      !RowNormLayout(cols, numSums).fitsSharedMemory())
    return false;
  if (ShapedType::isDynamic(c) || c == cols)
    return true;
  return c % 16 == 0 && llvm::isPowerOf2_64(c / 16) && c <= 512 &&
         cols % c == 0;
}

namespace {
/// The regions of an fp8.quantize_elementwise under construction: the
/// leaves (tensors the kernel reads) become block arguments, and producers
/// of identity-read inputs that nothing else reads are inlined, so that a
/// chain (a bias add, then a GELU) is one body. With `rows`, the row sums
/// the producers read through (i, j) -> (i) become `reduce` regions (their
/// sums are arguments after the inputs', in every region), and values per
/// row computed from them are inlined too (the rsqrt of a mean).
struct BodyBuilder {
  BodyBuilder(Operation *root, bool rows)
      : rows(rows), rootBlock(root->getBlock()), b(root->getContext()) {
    inlined.insert(root);
    body = newBlock(root->getLoc());
    b.setInsertionPointToEnd(body);
  }
  ~BodyBuilder() {
    for (Block *block : blocks)
      delete block;
  }

  /// The scalar of `producer`'s result, read through `map` (the identity,
  /// or (i, j) -> (i) for a value per row), computed in the current block.
  Value emit(Operation *producer, AffineMap map);

  /// Ends the body with the yield of `element` and hands the detached
  /// blocks over: the body, then the `reduce` regions in order (the caller
  /// moves them into the fused op).
  SmallVector<Block *> finish(Value element) {
    YieldOp::create(b, element.getLoc(), element);
    SmallVector<Block *> out = {body};
    out.append(reductionBlocks);
    blocks.clear();
    return out;
  }

  /// The row sums made `reduce` regions so far.
  int64_t numRowSums() const { return reductions.size(); }

  /// Whether the ops inlined for their values per row have no reader left
  /// outside the fused op (a value per row that another op reads stays).
  bool rowsStayInside() const {
    return llvm::all_of(inlined, [&](Operation *op) {
      return op == inlined.front() ||
             llvm::all_of(op->getUsers(), [&](Operation *user) {
               return inlined.contains(user);
             });
    });
  }

  SmallVector<Value> inputs;
  SmallVector<Attribute> maps;
  /// The producers inlined, the root first.
  llvm::SetVector<Operation *> inlined;
  /// The constants from outside that the regions took (splat tensors, the
  /// scalars a generic's body used), erased once nothing reads them.
  llvm::SetVector<Operation *> constants;

private:
  /// The scalar of `value` read through `map`: an inlined producer's
  /// result, a row sum's argument, a splat constant's value, or a block
  /// argument (one per distinct tensor and map).
  Value read(Value value, AffineMap map);
  /// The argument of `sum`'s row sum in the current block, building its
  /// `reduce` region the first time.
  Value readRowSum(linalg::GenericOp sum);
  /// A block with an argument per input and per row sum so far.
  Block *newBlock(Location loc);
  Block *current() { return b.getInsertionBlock(); }

  bool rows;
  Block *rootBlock;
  OpBuilder b;
  Block *body;
  /// Every block built (freed unless handed over), and the `reduce`
  /// regions' in the order of their sums.
  SmallVector<Block *> blocks;
  SmallVector<Value> reductions;
  SmallVector<Block *> reductionBlocks;
};
} // namespace

Block *BodyBuilder::newBlock(Location loc) {
  Block *block = new Block();
  for (Value input : inputs)
    block->addArgument(getElementTypeOrSelf(input.getType()), loc);
  for (Value sum : reductions)
    block->addArgument(b.getF32Type(), sum.getLoc());
  blocks.push_back(block);
  return block;
}

Value BodyBuilder::read(Value value, AffineMap map) {
  Operation *producer = value.getDefiningOp();
  if (map.isIdentity() && isFusibleProducer(producer) && value.hasOneUse() &&
      producer->getBlock() == rootBlock) {
    inlined.insert(producer);
    return emit(producer, map);
  }
  if (rows && isRowMap(map) && producer && producer->getBlock() == rootBlock) {
    if (auto sum = dyn_cast<linalg::GenericOp>(producer);
        sum && isFusibleRowSum(sum))
      return readRowSum(sum);
    if (isFusibleRowProducer(producer)) {
      inlined.insert(producer);
      return emit(producer, map);
    }
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
      return current()->getArgument(index);
  // A new input: an argument of every block, before the row sums'.
  inputs.push_back(value);
  maps.push_back(mapAttr);
  for (Block *block : blocks)
    block->insertArgument(inputs.size() - 1,
                          getElementTypeOrSelf(value.getType()),
                          value.getLoc());
  return current()->getArgument(inputs.size() - 1);
}

Value BodyBuilder::readRowSum(linalg::GenericOp sum) {
  Value result = sum->getResult(0);
  auto known = llvm::find(reductions, result);
  if (known != reductions.end())
    return current()->getArgument(inputs.size() + (known - reductions.begin()));
  // The term, in a region of its own; the sums it reads come first.
  {
    OpBuilder::InsertionGuard guard(b);
    Block *term = newBlock(sum.getLoc());
    b.setInsertionPointToEnd(term);
    Block *sumBody = sum.getBlock();
    IRMapping mapping;
    for (OpOperand *input : sum.getDpsInputOperands())
      mapping.map(sumBody->getArgument(input->getOperandNumber()),
                  read(input->get(), sum.getMatchingIndexingMap(input)));
    // Constants from outside are cloned in: the op is isolated.
    Value element = buildRowSumTerm(b, sum, mapping, [&](Value outer) {
      constants.insert(outer.getDefiningOp());
      return b.clone(*outer.getDefiningOp())->getResult(0);
    });
    YieldOp::create(b, sum.getLoc(), element);
    reductions.push_back(result);
    reductionBlocks.push_back(term);
    for (Block *block : blocks)
      block->addArgument(b.getF32Type(), sum.getLoc());
    inlined.insert(sum);
  }
  return current()->getArgument(inputs.size() + reductions.size() - 1);
}

Value BodyBuilder::emit(Operation *producer, AffineMap map) {
  if (auto generic = dyn_cast<linalg::GenericOp>(producer)) {
    Block *producerBody = generic.getBlock();
    IRMapping mapping;
    // The producer's loops are ours, or the rows alone (a value per row):
    // its input maps composed with the map it is read through.
    for (OpOperand *input : generic.getDpsInputOperands())
      mapping.map(producerBody->getArgument(input->getOperandNumber()),
                  read(input->get(),
                       generic.getMatchingIndexingMap(input).compose(map)));
    for (Operation &inner : producerBody->without_terminator()) {
      // Constants from outside the body are cloned into it: the fused op
      // is isolated from above.
      for (Value operand : inner.getOperands())
        if (operand.getParentBlock() != producerBody &&
            !mapping.contains(operand)) {
          constants.insert(operand.getDefiningOp());
          mapping.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
        }
      b.clone(inner, mapping);
    }
    return mapping.lookupOrDefault(
        producerBody->getTerminator()->getOperand(0));
  }
  // An elementwise op on tensors: the same op on their elements.
  SmallVector<Value> operands = llvm::map_to_vector(
      producer->getOperands(), [&](Value v) { return read(v, map); });
  OperationState state(producer->getLoc(), producer->getName(), operands,
                       {getElementTypeOrSelf(producer->getResult(0))},
                       producer->getAttrs());
  return b.create(state)->getResult(0);
}

/// Erases `ops` (each read only by the others, or by nothing) readers
/// first, then the empty tensors and zero fills of their inits and the
/// constants in `constants` that nothing reads any more.
static void eraseFused(ArrayRef<Operation *> ops,
                       const llvm::SetVector<Operation *> &constants) {
  SmallVector<Operation *> left(ops);
  // What the fused ops' inits come from: empty tensors, zero fills (and
  // what those fill), which other ops may share.
  llvm::SetVector<Operation *> sources;
  auto addSource = [&](Value value) {
    if (Operation *def = value.getDefiningOp();
        def && isa<tensor::EmptyOp, linalg::FillOp, arith::ConstantOp>(def))
      sources.insert(def);
  };
  while (!left.empty()) {
    auto *unread =
        llvm::find_if(left, [](Operation *op) { return op->use_empty(); });
    // The callers fuse only ops that the fused op's readers replace; one
    // still read (never, by rowsStayInside) stays rather than dangle.
    if (unread == left.end())
      break;
    Operation *op = *unread;
    left.erase(unread);
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      for (Value init : generic.getDpsInits()) {
        addSource(init);
        if (auto fill = init.getDefiningOp<linalg::FillOp>()) {
          addSource(fill.getInputs()[0]);
          addSource(fill.getOutputs()[0]);
        }
      }
    op->erase();
  }
  sources.insert(constants.begin(), constants.end());
  // Readers before what they read: fills, then their tensors and scalars.
  SmallVector<Operation *> pending(sources.begin(), sources.end());
  for (bool erased = true; erased;) {
    erased = false;
    for (Operation *&op : pending)
      if (op && op->use_empty()) {
        op->erase();
        op = nullptr;
        erased = true;
      }
  }
}

/// Replaces quantization `quantize` (an fp8.quantize or
/// fp8.quantize_transpose) of `producer`'s result and `producer` by one
/// fp8.quantize_elementwise at the producer, which dominates every reader
/// of its result; the result is kept where another op reads it. With
/// `rows`, the row sums the producer reads become `reduce` regions where
/// nothing else reads them or the values per row made from them; returns
/// false (and changes nothing) where that fails.
static bool fuseProducer(Operation *quantize, Operation *producer,
                         ScalingAttr scaling, int64_t margin, bool transpose,
                         bool rows = false) {
  BodyBuilder body(producer, rows);
  Value element = body.emit(
      producer, AffineMap::getMultiDimIdentityMap(2, producer->getContext()));
  // Else the plain fusion: the row sums stay, as where the kernel's shared
  // memory cannot hold their chunk sums.
  if (rows &&
      (!body.rowsStayInside() ||
       !fitsRowKernel(cast<RankedTensorType>(producer->getResult(0).getType()),
                      scaling, body.numRowSums())))
    return false;
  SmallVector<Block *> blocks = body.finish(element);
  OpBuilder b(producer);

  Value produced = producer->getResult(0);
  bool keep = !llvm::all_of(produced.getUsers(),
                            [&](Operation *user) { return user == quantize; });
  SmallVector<Type> types(quantize->getResultTypes());
  if (keep)
    types.push_back(produced.getType());
  SmallVector<Location> locs = {quantize->getLoc()};
  for (Operation *op : body.inlined)
    if (auto generic = dyn_cast<linalg::GenericOp>(op);
        op == producer || (generic && generic.getNumReductionLoops()))
      locs.push_back(op->getLoc());
  auto fused = QuantizeElementwiseOp::create(
      b, FusedLoc::get(b.getContext(), locs), types, body.inputs,
      b.getArrayAttr(body.maps), scaling, margin, transpose,
      ScaleLayout::row_major, ScaleLayout::row_major,
      /*hadamard_size=*/nullptr, /*hadamard_seed=*/nullptr,
      /*reductionsCount=*/blocks.size() - 1);
  fused.getBody().push_back(blocks.front());
  for (auto [region, block] :
       llvm::zip(fused.getReductions(), ArrayRef(blocks).drop_front()))
    region.push_back(block);
  if (Attribute role = quantize->getAttr(FP8Dialect::getRoleAttrName()))
    fused->setAttr(FP8Dialect::getRoleAttrName(), role);
  for (auto [from, to] : llvm::zip(quantize->getResults(), fused->getResults()))
    from.replaceAllUsesWith(to);
  quantize->erase();
  if (keep)
    produced.replaceAllUsesWith(fused.getKept());
  eraseFused(body.inlined.getArrayRef(), body.constants);
  return true;
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
    // Row sums come along where a warp per row quantizes the result.
    if (fitsRowKernel(cast<RankedTensorType>(input.getType()),
                      q.getScaling()) &&
        fuseProducer(q, producer, q.getScaling(), q.getMargin(),
                     /*transpose=*/false, /*rows=*/true))
      return true;
    return fuseProducer(q, producer, q.getScaling(), q.getMargin(),
                        /*transpose=*/false);
  }
  auto fused = cast<QuantizeTransposeOp>(quantize);
  fuseProducer(fused, producer, fused.getScaling(), fused.getMargin(),
               /*transpose=*/true);
  return true;
}

//===----------------------------------------------------------------------===//
// Delayed amax
//===----------------------------------------------------------------------===//

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
static bool fuseDelayedAmax(QuantizeOp q) {
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
      /*hadamard_seed=*/nullptr, /*reductionsCount=*/0);
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
    // Delayed scaling's quantizations with the data's amax (the producer
    // fusion leaves quantizations with a given amax alone).
    SmallVector<QuantizeOp> delayed;
    getOperation().walk([&](QuantizeOp q) {
      if (q.getAmax())
        delayed.push_back(q);
    });
    for (QuantizeOp q : delayed)
      fuseDelayedAmax(q);
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
