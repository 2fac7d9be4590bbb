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
// fp8.quantize_elementwise (FusedProducer.cpp).
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"

#include "../Program/KernelUtils.h"
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

FailureOr<gpu::GPUModuleOp>
kernels::buildElementwiseKernel(OpBuilder &builder, linalg::LinalgOp op,
                                StringRef name, const Target &target) {
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
