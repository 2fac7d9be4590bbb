//===- FuseProducers.cpp - producers into their quantization -------------===//
//
// Producers into the quantization that reads them, as one
// fp8.quantize_elementwise whose body computes them where the kernel loads:
// elementwise producers (a chain of them inlined into one body), the row
// sums of norms (its `reduce` regions) where a warp per row quantizes, and
// Hadamard rotations along the rows (docs/Passes.md).
//
//===----------------------------------------------------------------------===//

#include "FuseQuantization.h"

#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::fusion;

//===----------------------------------------------------------------------===//
// Elementwise producers
//===----------------------------------------------------------------------===//

static bool isScalarArithOrMath(Operation &op) {
  return isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
             op.getDialect()) &&
         op.getNumRegions() == 0 &&
         llvm::none_of(op.getResultTypes(), llvm::IsaPred<ShapedType>);
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

/// Why `op` is not an elementwise producer that a quantize kernel computes
/// where it loads (empty where it is one): an all-parallel linalg.generic
/// over a static matrix with one result written in loop order, whose body
/// is scalar arith and math (constants from outside) and does not read the
/// init, and whose inputs are static tensors of 16- or 32-bit floats read
/// through the identity or a broadcast; or an elementwise arith/math op on
/// such matrices. The reasons are what --explain says.
StringRef fusion::producerRefusal(Operation *op) {
  if (!op)
    return "its input is a function argument, not computed here";
  if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
    if (!generic.hasPureTensorSemantics() || generic.getNumResults() != 1)
      return "the producer is not a single-result linalg.generic on tensors";
    if (generic.getNumLoops() != 2 ||
        generic.getNumParallelLoops() != generic.getNumLoops())
      return "the producer is not elementwise over a matrix (it has "
             "reduction loops or is not 2-D)";
    if (!isStaticMatrixOfLoadable(generic->getResult(0).getType()))
      return "the producer's result is not a static matrix of f32, bf16 or "
             "f16";
    OpOperand *init = generic.getDpsInitOperand(0);
    if (!generic.getMatchingIndexingMap(init).isIdentity() ||
        generic.payloadUsesValueFromOperand(init))
      return "the producer writes its result out of loop order or reads its "
             "init";
    for (OpOperand *input : generic.getDpsInputOperands()) {
      auto type = dyn_cast<RankedTensorType>(input->get().getType());
      if (!type || !type.hasStaticShape() ||
          !isLoadableElement(type.getElementType()))
        return "the producer reads a tensor that is not static f32, bf16 or "
               "f16";
      if (!QuantizeElementwiseOp::isElementwiseMap(
              generic.getMatchingIndexingMap(input)))
        return "the producer reads an input through a map other than the "
               "identity or a broadcast (a transpose?)";
    }
    if (!hasScalarBody(generic))
      return "the producer's body holds ops other than scalar arith and "
             "math, or values from outside that are not constants";
    return "";
  }
  if (op->hasTrait<OpTrait::Elementwise>() &&
      isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
          op->getDialect()) &&
      op->getNumRegions() == 0 && op->getNumResults() == 1 &&
      isStaticMatrixOfLoadable(op->getResult(0).getType()) &&
      llvm::all_of(op->getOperandTypes(), [&](Type type) {
        return isStaticMatrixOfLoadable(type) &&
               cast<ShapedType>(type).getShape() ==
                   cast<ShapedType>(op->getResult(0).getType()).getShape();
      }))
    return "";
  return "the producer is neither an elementwise linalg.generic nor an "
         "elementwise arith/math op on static matrices";
}

static bool isFusibleProducer(Operation *op) {
  return op && producerRefusal(op).empty();
}

void fusion::collectInlinedProducers(Operation *producer,
                                     SmallVectorImpl<Operation *> &chain) {
  chain.push_back(producer);
  // BodyBuilder::read's rule for the inputs read through the identity.
  auto visit = [&](Value value) {
    Operation *def = value.getDefiningOp();
    if (isFusibleProducer(def) && value.hasOneUse() &&
        def->getBlock() == producer->getBlock() &&
        !llvm::is_contained(chain, def))
      collectInlinedProducers(def, chain);
  };
  if (auto generic = dyn_cast<linalg::GenericOp>(producer)) {
    for (OpOperand *input : generic.getDpsInputOperands())
      if (generic.getMatchingIndexingMap(input).isIdentity())
        visit(input->get());
    return;
  }
  for (Value operand : producer->getOperands())
    visit(operand);
}

/// Whether `op` (or a body it holds) computes a math function that kernels
/// expand into a polynomial (erf, tanh, exp, log, ...): tens of instructions
/// an element, where abs, fma, sqrt, rsqrt and rounding cost a few.
bool fusion::computesPolynomialMath(Operation *op) {
  return op
      ->walk([](Operation *inner) {
        if (isa_and_nonnull<math::MathDialect>(inner->getDialect()) &&
            !isa<math::AbsFOp, math::FmaOp, math::SqrtOp, math::RsqrtOp,
                 math::FloorOp, math::CeilOp, math::TruncOp, math::RoundOp,
                 math::RoundEvenOp, math::CopySignOp>(inner))
          return WalkResult::interrupt();
        return WalkResult::advance();
      })
      .wasInterrupted();
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

/// Whether `op` is a row sum a quantize kernel can take over: a
/// linalg.generic over a static matrix with loops [parallel, reduction]
/// into an f32 vector per row (map (i, j) -> (i)) that starts at +0.0,
/// whose inputs are read like an elementwise producer's and whose body is
/// scalar arith and math ending in `%acc + term` (the term not reading
/// the accumulator).
bool fusion::isFusibleRowSum(Operation *op) {
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
bool fusion::fitsRowKernel(RankedTensorType type, ScalingAttr scaling,
                           int64_t numSums) {
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
  // A tensorwise scale needs the whole tensor's amax before it can
  // quantize, so the fused kernel would compute the body twice (amax pass,
  // then quantize pass). For polynomial math that costs more than the
  // bytes fusion saves: bias+GELU fused ran at 0.89x its unfused program
  // (H100, bench/results/2026-11-26-h100-fusion-norms-delayed.md).
  if (scaling.isTensorwise() &&
      llvm::any_of(body.inlined, computesPolynomialMath))
    return false;
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

//===----------------------------------------------------------------------===//
// Hadamard rotations
//===----------------------------------------------------------------------===//

/// Whether the row-tile quantize kernel can rotate each thread's 16 values
/// of a `type` matrix in registers before quantizing them with `scaling`:
/// tiles of one row and c columns, rotation blocks of n (both a power of
/// two of 16-element chunks, at most a warp's: c <= 512, n <= 256, what
/// the kernel's rotation takes), both dividing the columns. The kernel
/// (buildQuantizeElementwiseKernel) refuses anything else.
bool fusion::fitsRotatedRowTiles(RankedTensorType type, ScalingAttr scaling,
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
bool fusion::fuseProducerOf(Operation *quantize) {
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
  return fuseProducer(fused, producer, fused.getScaling(), fused.getMargin(),
                      /*transpose=*/true);
}
