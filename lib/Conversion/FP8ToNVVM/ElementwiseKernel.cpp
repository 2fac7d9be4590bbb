//===- ElementwiseKernel.cpp - parallel linalg ops as GPU kernels ---------===//
//
// A linalg op whose loops are all parallel (linalg.generic, linalg.map,
// linalg.fill, and the arith ops on tensors that convert-fp8-to-nvvm first
// turns into generics) becomes one kernel: each thread computes V
// consecutive elements of the results with the op's own body, cloned. Where
// every operand's V elements are consecutive too (read in the results'
// order, or broadcast along outer dims like a bias row), they are one
// 16-byte load per operand and one store per result (bandwidth-bound ops
// run at copy speed); otherwise (transposed or offset maps) each thread
// computes one element and finds each operand's element through its
// indexing map.
//
// The same bodies run inside the quantize kernels for the producer of an
// fp8.quantize_elementwise (FusedProducer): loaded, computed and converted
// where the quantization loads its input, so the produced tensor is never
// read back from memory.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "KernelUtils.h"
#include "QuantizeKernel.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Math/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// Bytes a thread of the vectorized form reads from its widest operand.
static constexpr int64_t kVectorBytes = 16;

namespace {
/// One tensor operand or result of the op as a kernel buffer.
struct Operand {
  std::string name;
  OpOperand *operand = nullptr; // Inputs (and inits the body reads).
  OpResult result;              // Outputs.
  AffineMap map;
  Type element;
  BlockArgument blockArgument; // The body's argument for it, if any.
  Value memref;                // In the kernel.
};
} // namespace

LogicalResult kernels::checkClonableBody(linalg::LinalgOp op) {
  Block *body = op.getBlock();
  for (Operation &inner : body->without_terminator()) {
    if (!isa<arith::ArithDialect, math::MathDialect>(inner.getDialect()) ||
        inner.getNumRegions())
      return op->emitOpError("convert-fp8-to-nvvm: '")
             << inner.getName()
             << "' in the body has no GPU lowering (arith and math ops do)";
    for (Value operand : inner.getOperands()) {
      if (operand.getParentBlock() == body)
        continue;
      Operation *producer = operand.getDefiningOp();
      if (!producer || !producer->hasTrait<OpTrait::ConstantLike>())
        return op->emitOpError("convert-fp8-to-nvvm: the body uses ")
               << operand << " from outside, which is not a constant";
    }
  }
  return success();
}

namespace {
/// math.absf and math.fma (which the polynomial approximations emit)
/// without libdevice: left as math ops, convert-gpu-to-nvvm would call
/// __nv_fabsf and __nv_fmaf, which no kernel links. |x| clears the sign
/// bit; fma is the LLVM intrinsic, which NVPTX selects to fma.rn.
struct AbsFToBits : OpRewritePattern<math::AbsFOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::AbsFOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    unsigned width = getElementTypeOrSelf(type).getIntOrFloatBitWidth();
    Type bits = rewriter.getIntegerType(width);
    TypedAttr mask =
        rewriter.getIntegerAttr(bits, APInt::getSignedMaxValue(width));
    if (auto vector = dyn_cast<VectorType>(type)) {
      bits = vector.clone(bits);
      mask = DenseElementsAttr::get(cast<ShapedType>(bits), mask);
    }
    Location loc = op.getLoc();
    Value raw = arith::BitcastOp::create(rewriter, loc, bits, op.getOperand());
    Value cleared = arith::AndIOp::create(
        rewriter, loc, raw, arith::ConstantOp::create(rewriter, loc, mask));
    rewriter.replaceOpWithNewOp<arith::BitcastOp>(op, type, cleared);
    return success();
  }
};
/// math.floor of an f32 (which the exp approximation emits) in arith ops:
/// as __nv_floorf it needs libdevice, which gpu-module-to-binary links only
/// where it finds CUDA at compile time. Exact like floorf: |x| >= 2^23 (and
/// inf, NaN) is integral already; below, truncation through i32 minus one
/// where it rounded up; ±0 stays itself.
struct FloorToArith : OpRewritePattern<math::FloorOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FloorOp op,
                                PatternRewriter &rewriter) const override {
    if (!op.getType().isF32())
      return rewriter.notifyMatchFailure(op, "only scalar f32");
    Location loc = op.getLoc();
    Value x = op.getOperand();
    Type f32 = rewriter.getF32Type();
    auto constant = [&](double value) -> Value {
      return arith::ConstantOp::create(rewriter, loc,
                                       rewriter.getF32FloatAttr(value));
    };
    Value truncated = arith::SIToFPOp::create(
        rewriter, loc, f32,
        arith::FPToSIOp::create(rewriter, loc, rewriter.getI32Type(), x));
    Value roundedUp = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OGT, truncated, x);
    Value floor = arith::SelectOp::create(
        rewriter, loc, roundedUp,
        arith::SubFOp::create(rewriter, loc, truncated, constant(1.0)),
        truncated);
    // Not small (or NaN), or zero: x itself.
    Value small = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::OLT,
        math::AbsFOp::create(rewriter, loc, x), constant(8388608.0));
    Value nonzero = arith::CmpFOp::create(
        rewriter, loc, arith::CmpFPredicate::ONE, x, constant(0.0));
    rewriter.replaceOpWithNewOp<arith::SelectOp>(
        op, arith::AndIOp::create(rewriter, loc, small, nonzero), floor, x);
    return success();
  }
};
/// f32 math.sqrt and math.rsqrt without libdevice (whose __nv_rsqrtf is
/// rsqrt.approx, and which is linked only where CUDA is found at compile
/// time): sqrt.rn.f32 (convert-gpu-to-nvvm refuses llvm.intr.sqrt on f32,
/// hence the one instruction of inline PTX) and 1 / sqrt(x) by div.rn.f32,
/// both correctly rounded, so the bits are the CPU reference's (MathToLLVM
/// lowers rsqrt to the same division).
static Value buildSqrtRn(PatternRewriter &rewriter, Location loc, Value x) {
  return LLVM::InlineAsmOp::create(
             rewriter, loc, TypeRange{rewriter.getF32Type()}, ValueRange{x},
             "sqrt.rn.f32 $0, $1;", "=f,f", /*has_side_effects=*/false,
             /*is_align_stack=*/false, LLVM::tailcallkind::TailCallKind::None,
             /*asm_dialect=*/LLVM::AsmDialectAttr(),
             /*operand_attrs=*/ArrayAttr())
      .getResult(0);
}
/// f16 and bf16 sqrt as the f32 one between an extension and a rounding:
/// correctly rounded too (rounding a sqrt twice is innocuous where the
/// wider format has at least 2p + 2 bits, 24 >= 2 * 11 + 2), where NVPTX
/// would otherwise take sqrt.approx.f32 for f16.
struct SqrtToPtx : OpRewritePattern<math::SqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::SqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return rewriter.notifyMatchFailure(op, "only scalar f32, f16, bf16");
    Location loc = op.getLoc();
    Value x = op.getOperand();
    if (type.isF32()) {
      rewriter.replaceOp(op, buildSqrtRn(rewriter, loc, x));
      return success();
    }
    Value wide = arith::ExtFOp::create(rewriter, loc, rewriter.getF32Type(), x);
    rewriter.replaceOpWithNewOp<arith::TruncFOp>(
        op, type, buildSqrtRn(rewriter, loc, wide));
    return success();
  }
};
/// f16 and bf16 rsqrt as MathToLLVM writes it on the CPU, 1 / sqrt in the
/// type: the sqrt above, then a division that NVPTX takes in f32 (div.rn)
/// and rounds, correctly rounded like the host's (else rsqrt.approx.f32).
struct RsqrtToDivSqrt : OpRewritePattern<math::RsqrtOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::RsqrtOp op,
                                PatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF16() && !type.isBF16())
      return rewriter.notifyMatchFailure(op, "only scalar f32, f16, bf16");
    Location loc = op.getLoc();
    Value one = arith::ConstantOp::create(rewriter, loc,
                                          rewriter.getFloatAttr(type, 1.0));
    Value root =
        type.isF32()
            ? buildSqrtRn(rewriter, loc, op.getOperand())
            : math::SqrtOp::create(rewriter, loc, op.getOperand()).getResult();
    rewriter.replaceOpWithNewOp<arith::DivFOp>(op, one, root);
    return success();
  }
};
struct FmaToIntrinsic : OpRewritePattern<math::FmaOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(math::FmaOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<LLVM::FMAOp>(op, op.getA(), op.getB(),
                                             op.getC());
    return success();
  }
};
} // namespace

/// The scalar a tensor operand holds everywhere, where it is a splat
/// constant (e.g. the zero of `arith.cmpf ogt, %t, %zeros`), else null.
static TypedAttr getSplatValue(Value value) {
  DenseElementsAttr dense;
  if (!matchPattern(value, m_Constant(&dense)) || !dense.isSplat())
    return {};
  return dense.getSplatValue<TypedAttr>();
}

SmallVector<Value> kernels::cloneBody(OpBuilder &b, Block *body,
                                      IRMapping &mapping) {
  // Every op before the terminator (linalg.yield or fp8.yield; verified).
  // Not Block::without_terminator, which cannot see fp8.yield's Terminator
  // trait where the dialect lives in another shared library (the C API).
  Operation *terminator = &body->back();
  for (Operation &inner :
       llvm::make_range(body->begin(), terminator->getIterator())) {
    // Constants from outside the body are cloned with it.
    for (Value operand : inner.getOperands())
      if (operand.getParentBlock() != body && !mapping.contains(operand))
        mapping.map(operand, b.clone(*operand.getDefiningOp())->getResult(0));
    b.clone(inner, mapping);
  }
  return llvm::map_to_vector(terminator->getOperands(), [&](Value v) {
    return mapping.lookupOrDefault(v);
  });
}

LogicalResult kernels::expandMathFunctions(gpu::GPUFuncOp func) {
  // Math functions become arith ops, so that the PTX calls nothing (no
  // libdevice); so do the absf and fma that the approximations leave, and
  // f32 sqrt and rsqrt (correctly rounded, as on the CPU).
  RewritePatternSet patterns(func.getContext());
  populateMathPolynomialApproximationPatterns(patterns);
  patterns
      .add<AbsFToBits, FloorToArith, FmaToIntrinsic, SqrtToPtx, RsqrtToDivSqrt>(
          func.getContext());
  return applyPatternsGreedily(func, std::move(patterns));
}

FailureOr<gpu::GPUModuleOp> fp8::buildElementwiseKernel(OpBuilder &builder,
                                                        linalg::LinalgOp op,
                                                        StringRef name,
                                                        const Target &target) {
  if (!op.hasPureTensorSemantics() ||
      op.getNumLoops() != op.getNumParallelLoops())
    return op->emitOpError("convert-fp8-to-nvvm: only linalg ops whose loops "
                           "are all parallel, on tensors, have an "
                           "elementwise kernel");
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  if (llvm::any_of(loops, ShapedType::isDynamic))
    return op->emitOpError("convert-fp8-to-nvvm: needs static shapes");
  if (failed(checkClonableBody(op)))
    return failure();
  int64_t numElements = 1;
  for (int64_t extent : loops)
    numElements *= extent;
  KernelBuilder b(op.getLoc(), builder);
  Block *body = op.getBlock();

  // The operands that become buffers, and the splat or scalar values that
  // become constants in the kernel.
  SmallVector<Operand> inputs, outputs;
  DenseMap<BlockArgument, TypedAttr> constants;
  auto blockArgumentOf = [&](OpOperand &operand) -> BlockArgument {
    unsigned index = operand.getOperandNumber();
    return index < body->getNumArguments() ? body->getArgument(index)
                                           : BlockArgument();
  };
  for (OpOperand *input : op.getDpsInputOperands()) {
    BlockArgument argument = blockArgumentOf(*input);
    if (!isa<RankedTensorType>(input->get().getType())) {
      Attribute value;
      if (!matchPattern(input->get(), m_Constant(&value)))
        return op->emitOpError("convert-fp8-to-nvvm: scalar operand #")
               << input->getOperandNumber() << " is not a constant";
      constants[argument] = cast<TypedAttr>(value);
      continue;
    }
    if (TypedAttr splat = getSplatValue(input->get())) {
      constants[argument] = splat;
      continue;
    }
    Operand entry;
    entry.name = ("in" + Twine(inputs.size())).str();
    entry.operand = input;
    entry.map = op.getMatchingIndexingMap(input);
    entry.element = getElementTypeOrSelf(input->get().getType());
    entry.blockArgument = argument;
    inputs.push_back(entry);
  }
  for (OpOperand &init : op.getDpsInitsMutable()) {
    AffineMap map = op.getMatchingIndexingMap(&init);
    if (!map.isIdentity())
      return op->emitOpError("convert-fp8-to-nvvm: result #")
             << init.getOperandNumber() - op.getNumDpsInputs()
             << " is not written in loop order";
    BlockArgument argument = blockArgumentOf(init);
    // An init the body reads is one more input.
    if (argument && !argument.use_empty()) {
      Operand entry;
      entry.name = ("init" + Twine(outputs.size())).str();
      entry.operand = &init;
      entry.map = map;
      entry.element = getElementTypeOrSelf(init.get().getType());
      entry.blockArgument = argument;
      inputs.push_back(entry);
    }
    Operand entry;
    entry.name = ("out" + Twine(outputs.size())).str();
    entry.result = op->getResult(outputs.size());
    entry.map = map;
    entry.element = getElementTypeOrSelf(entry.result.getType());
    outputs.push_back(entry);
  }
  // A body that only forwards its arguments (a transpose of E8M0 scales
  // before fp8.tcgen05_scales) moves bytes, which 8-bit floats travel as.
  bool movesOnly =
      llvm::hasSingleElement(*body) &&
      llvm::all_of(body->getTerminator()->getOperands(), [&](Value value) {
        auto argument = dyn_cast<BlockArgument>(value);
        return argument && argument.getOwner() == body;
      });
  for (const Operand &entry : llvm::concat<const Operand>(inputs, outputs))
    if (isa<FloatType>(entry.element) &&
        cast<FloatType>(entry.element).getWidth() == 8 && !movesOnly)
      return op->emitOpError("convert-fp8-to-nvvm: 8-bit float tensors in a "
                             "linalg op have no kernel (use fp8 ops)");

  // Vectorized where each thread's V elements are V consecutive elements
  // of every operand: operands read in loop order, and broadcasts (a bias
  // row) whose last index is the innermost loop, with rows of whole
  // vectors.
  int64_t widest = 1;
  for (const Operand &entry : llvm::concat<const Operand>(inputs, outputs))
    widest = std::max<int64_t>(
        widest, llvm::divideCeil(entry.element.getIntOrFloatBitWidth(), 8));
  int64_t vector = std::max<int64_t>(1, kVectorBytes / widest);
  bool inOrder = llvm::all_of(
      inputs, [](const Operand &entry) { return entry.map.isIdentity(); });
  unsigned innermost = loops.size() - 1;
  bool contiguous = llvm::all_of(inputs, [&](const Operand &entry) {
    AffineMap map = entry.map;
    return map.isIdentity() ||
           (map.isProjectedPermutation() && map.getNumResults() > 0 &&
            map.getResults().back() ==
                getAffineDimExpr(innermost, map.getContext()));
  });
  // i1 tensors hold a byte per element; a vector of i1 would be bits.
  bool anyI1 = llvm::any_of(
      llvm::concat<const Operand>(inputs, outputs),
      [](const Operand &entry) { return entry.element.isInteger(1); });
  if (!contiguous || anyI1 || numElements % vector != 0 ||
      (!inOrder && loops.back() % vector != 0))
    vector = 1;
  int64_t numThreads = numElements / vector;

  KernelSignature signature;
  int64_t bytesMoved = 0;
  auto declare = [&](Operand &entry, ParamRole role) {
    auto type =
        cast<RankedTensorType>(entry.operand ? entry.operand->get().getType()
                                             : entry.result.getType());
    Type storage = storageType(entry.element);
    signature.addBuffer(entry.name, role, entry.element, type.getShape(),
                        MemRefType::get({type.getNumElements()}, storage));
    if (entry.operand)
      signature.bindOperand(entry.name, *entry.operand);
    else
      signature.bindResult(entry.name, entry.result);
    bytesMoved += type.getNumElements() *
                  llvm::divideCeil(entry.element.getIntOrFloatBitWidth(), 8);
  };
  for (Operand &entry : inputs)
    declare(entry, ParamRole::input);
  for (Operand &entry : outputs)
    declare(entry, ParamRole::output);
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, op->getName().getStringRef(),
              llvm::divideCeil(numThreads, kThreadsPerBlock), kThreadsPerBlock,
              bytesMoved);
  for (Operand &entry : llvm::concat<Operand>(inputs, outputs))
    entry.memref = signature.getArgument(func, entry.name);

  Value thread = buildActiveThread(b, numThreads);
  Value first = b.mul(thread, vector);
  // The offset of each input's element: the thread's own where it is read
  // in loop order, else its indexing map applied to the loop indices.
  SmallVector<Value> offsets(inputs.size(), first);
  if (!inOrder) {
    SmallVector<Value> indices = delinearize(b, first, loops);
    for (auto [index, entry] : llvm::enumerate(inputs)) {
      if (entry.map.isIdentity())
        continue;
      auto shape =
          cast<RankedTensorType>(entry.operand->get().getType()).getShape();
      offsets[index] = mapOffset(b, entry.map, shape, indices);
    }
  }

  // Load each input's V elements, run the body V times, store the results.
  auto typeOf = [&](const Operand &entry) {
    return storageType(entry.element);
  };
  SmallVector<SmallVector<Value>> loaded;
  for (auto [index, entry] : llvm::enumerate(inputs)) {
    SmallVector<Value> elements;
    if (vector == 1) {
      elements.push_back(
          memref::LoadOp::create(b, entry.memref, offsets[index]));
    } else {
      auto type = VectorType::get({vector}, typeOf(entry));
      int64_t bytes =
          vector * llvm::divideCeil(entry.element.getIntOrFloatBitWidth(), 8);
      Value whole = vector::LoadOp::create(
          b, type, entry.memref, offsets[index], /*nontemporal=*/false,
          llvm::Align(std::min<int64_t>(bytes, kVectorBytes)));
      for (int64_t lane = 0; lane < vector; ++lane)
        elements.push_back(vector::ExtractOp::create(b, whole, lane));
    }
    loaded.push_back(std::move(elements));
  }
  SmallVector<SmallVector<Value>> results(outputs.size());
  for (int64_t lane = 0; lane < vector; ++lane) {
    IRMapping mapping;
    for (auto [argument, value] : constants)
      mapping.map(argument,
                  arith::ConstantOp::create(b, cast<TypedAttr>(value)));
    for (auto [index, entry] : llvm::enumerate(inputs))
      mapping.map(entry.blockArgument, loaded[index][lane]);
    for (auto [index, value] : llvm::enumerate(cloneBody(b, body, mapping)))
      results[index].push_back(value);
  }
  for (auto [index, entry] : llvm::enumerate(outputs)) {
    if (vector == 1) {
      memref::StoreOp::create(b, results[index][0], entry.memref, first);
      continue;
    }
    Value whole = vector::FromElementsOp::create(
        b, VectorType::get({vector}, typeOf(entry)), results[index]);
    int64_t bytes =
        vector * llvm::divideCeil(entry.element.getIntOrFloatBitWidth(), 8);
    vector::StoreOp::create(
        b, whole, entry.memref, first, /*nontemporal=*/false,
        llvm::Align(std::min<int64_t>(bytes, kVectorBytes)));
  }
  if (failed(expandMathFunctions(func)))
    return op->emitOpError("convert-fp8-to-nvvm: cannot expand the body's "
                           "math functions");
  return finishKernel(b, func);
}

//===----------------------------------------------------------------------===//
// FusedProducer
//===----------------------------------------------------------------------===//

static int64_t elementBytes(Type type) {
  return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
}

void FusedProducer::declare(KernelSignature &signature) {
  for (OpOperand &input : op.getInputsMutable()) {
    auto type = cast<RankedTensorType>(input.get().getType());
    std::string name = ("in" + Twine(input.getOperandNumber())).str();
    signature.addBuffer(
        name, ParamRole::input, type.getElementType(), type.getShape(),
        MemRefType::get({type.getNumElements()}, type.getElementType()));
    signature.bindOperand(name, input);
  }
  if (auto value = op.getKept()) {
    auto type = value.getType();
    signature.addBuffer(
        "kept", ParamRole::output, type.getElementType(), type.getShape(),
        MemRefType::get({type.getNumElements()}, type.getElementType()));
    signature.bindResult("kept", cast<OpResult>(value));
  }
}

void FusedProducer::bind(const KernelSignature &signature,
                         gpu::GPUFuncOp func) {
  inputs.clear();
  for (unsigned i = 0, e = op.getInputs().size(); i < e; ++i)
    inputs.push_back(signature.getArgument(func, ("in" + Twine(i)).str()));
  if (op.getKept())
    kept = signature.getArgument(func, "kept");
}

int64_t FusedProducer::bytesMoved() {
  int64_t bytes = 0;
  for (Value input : op.getInputs()) {
    auto type = cast<RankedTensorType>(input.getType());
    bytes += type.getNumElements() * elementBytes(type.getElementType());
  }
  if (auto value = op.getKept())
    bytes += value.getType().getNumElements() *
             elementBytes(value.getType().getElementType());
  return bytes;
}

/// Loads `width` elements (a vector, or a scalar for width 1) at `offset`.
static Value loadElements(KernelBuilder &b, Value memref, Value offset,
                          int64_t width) {
  Type element = cast<MemRefType>(memref.getType()).getElementType();
  if (width == 1)
    return memref::LoadOp::create(b, memref, offset);
  return vector::LoadOp::create(
      b, VectorType::get({width}, element), memref, offset,
      /*nontemporal=*/false,
      llvm::Align(std::min(width * elementBytes(element), kVectorBytes)));
}

static SmallVector<Value> splitElements(KernelBuilder &b, Value loaded,
                                        int64_t width) {
  if (width == 1)
    return {loaded};
  SmallVector<Value> elements;
  for (int64_t lane = 0; lane < width; ++lane)
    elements.push_back(vector::ExtractOp::create(b, loaded, lane));
  return elements;
}

Value FusedProducer::compute(KernelBuilder &b, Value offset, int64_t width) {
  ArrayRef<int64_t> shape = op.getProducedType().getShape();
  int64_t cols = shape[1];
  MLIRContext *context = b.getContext();
  AffineMap row = AffineMap::get(2, 0, getAffineDimExpr(1, context));
  // Each input's `width` elements: one load where they are consecutive in
  // it (read in loop order, or a bias row whose vectors stay in one row),
  // else element by element through the indexing map.
  SmallVector<SmallVector<Value>> loaded;
  for (auto [input, attr] : llvm::zip(inputs, op.getIndexingMaps())) {
    AffineMap map = cast<AffineMapAttr>(attr).getValue();
    if (map.isIdentity()) {
      loaded.push_back(
          splitElements(b, loadElements(b, input, offset, width), width));
      continue;
    }
    if (map == row && cols % width == 0) {
      Value col = b.remU(offset, cols);
      loaded.push_back(
          splitElements(b, loadElements(b, input, col, width), width));
      continue;
    }
    auto inputShape =
        cast<RankedTensorType>(op.getInputs()[loaded.size()].getType())
            .getShape();
    SmallVector<Value> elements;
    for (int64_t lane = 0; lane < width; ++lane) {
      SmallVector<Value> indices = delinearize(b, b.add(offset, lane), shape);
      elements.push_back(memref::LoadOp::create(
          b, input, mapOffset(b, map, inputShape, indices)));
    }
    loaded.push_back(std::move(elements));
  }
  Block *body = &op.getBody().front();
  SmallVector<Value> produced;
  for (int64_t lane = 0; lane < width; ++lane) {
    IRMapping mapping;
    for (auto [argument, elements] : llvm::zip(body->getArguments(), loaded))
      mapping.map(argument, elements[lane]);
    produced.push_back(cloneBody(b, body, mapping).front());
  }
  Value result = width == 1
                     ? produced.front()
                     : vector::FromElementsOp::create(
                           b, VectorType::get({width}, getElement()), produced)
                           .getResult();
  if (kept) {
    if (width == 1)
      memref::StoreOp::create(b, result, kept, offset);
    else
      vector::StoreOp::create(
          b, result, kept, offset, /*nontemporal=*/false,
          llvm::Align(
              std::min(width * elementBytes(getElement()), kVectorBytes)));
  }
  return result;
}
