//===- ReduceKernel.cpp - reducing linalg ops as GPU kernels --------------===//
//
// A linalg op with reduction loops (linalg.reduce, a reducing generic): one
// thread per result element starts from the init's element and folds in
// the reduced elements in order with the op's body, as the CPU reference's
// loops do. Sequential per element, so meant for the small reductions of a
// training step's bookkeeping (the max of an amax history), not for large
// ones.
//
// A row sum (fp8/Dialect/FP8/Utils/RowSum.h: a norm's sum of squares) is
// summed in the row-sum order instead, a warp per row (WarpRowSum.h), as
// the CPU reference and the fused norm kernel add it.
//
//===----------------------------------------------------------------------===//

#include "../OpKernels.h"

#include "../Program/KernelUtils.h"
#include "WarpRowSum.h"
#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// A reduction's buffers, bound to `op`: its inputs (in0, in1, ... in
/// `inputNames`), its init and its result (out); returns their bytes.
static int64_t
declareReductionBuffers(KernelSignature &signature, linalg::LinalgOp op,
                        SmallVectorImpl<std::string> &inputNames) {
  int64_t bytesMoved = 0;
  auto declare = [&](StringRef param, ParamRole role, Value value) {
    auto type = cast<RankedTensorType>(value.getType());
    Type element = type.getElementType();
    signature.addBuffer(
        param, role, element, type.getShape(),
        MemRefType::get({type.getNumElements()}, storageType(element)));
    bytesMoved += type.getNumElements() *
                  llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  };
  for (OpOperand *input : op.getDpsInputOperands()) {
    inputNames.push_back(("in" + Twine(inputNames.size())).str());
    declare(inputNames.back(), ParamRole::input, input->get());
    signature.bindOperand(inputNames.back(), *input);
  }
  OpOperand &init = op.getDpsInitsMutable()[0];
  declare("init", ParamRole::input, init.get());
  signature.bindOperand("init", init);
  declare("out", ParamRole::output, op->getResult(0));
  signature.bindResult("out", op->getResult(0));
  return bytesMoved;
}

/// A row sum: warp w of CTA c sums row 8 c + w, its lanes loading each
/// chunk (16-byte vectors where consecutive, else element by element
/// through the input maps), and adds the init's element.
static FailureOr<gpu::GPUModuleOp> buildRowSumKernel(OpBuilder &builder,
                                                     linalg::GenericOp op,
                                                     StringRef name,
                                                     const Target &target) {
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  int64_t rows = loops[0], cols = loops[1];
  constexpr int64_t rowsPerBlock = kThreadsPerBlock / kWarpSize;
  KernelBuilder b(op.getLoc(), builder);
  KernelSignature signature;
  SmallVector<std::string> inputNames;
  int64_t bytesMoved = declareReductionBuffers(signature, op, inputNames);
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, op->getName().getStringRef(),
              llvm::divideCeil(rows, rowsPerBlock), kThreadsPerBlock,
              bytesMoved);

  Value thread = b.threadIdX();
  Value lane = b.remU(thread, kWarpSize);
  Value row =
      b.add(b.mul(b.blockIdX(), rowsPerBlock), b.divU(thread, kWarpSize));
  // Whole warps idle past the last row: the others' shuffles stay whole.
  auto ifRow = scf::IfOp::create(b, b.ult(row, rows), false);
  b.setInsertionPointToStart(ifRow.thenBlock());
  Block *body = op.getBlock();
  Value sum = buildWarpRowSum(
      b, lane, cols, /*maxUnrolled=*/1,
      [&](Value chunk, std::optional<int64_t>) {
        // Each input's 16 elements of the chunk: one vector load where
        // they are consecutive (the row, or a vector of columns, of 16- or
        // 32-bit floats in whole chunks), else element by element through
        // the map; a column past the row (in a partial last chunk) reads
        // the row's last, whose term is never added.
        Value first = b.mul(chunk, kRowSumChunk);
        SmallVector<SmallVector<Value>> elements;
        for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands())) {
          auto type = cast<RankedTensorType>(input->get().getType());
          AffineMap map = op.getMatchingIndexingMap(input);
          Value memref = signature.getArgument(func, inputNames[index]);
          Type element = type.getElementType();
          bool columns =
              map.getNumResults() > 0 &&
              map.getResults().back() == getAffineDimExpr(1, b.getContext());
          if (columns && cols % kRowSumChunk == 0 &&
              (element.isF32() || element.isBF16() || element.isF16())) {
            Value offset = map.getNumResults() == 2
                               ? b.add(b.mul(row, cols), first)
                               : first;
            Value loaded = vector::LoadOp::create(
                b, VectorType::get({kRowSumChunk}, element), memref, offset,
                /*nontemporal=*/false, llvm::Align(16));
            SmallVector<Value> values;
            for (int64_t r = 0; r < kRowSumChunk; ++r)
              values.push_back(vector::ExtractOp::create(b, loaded, r));
            elements.push_back(std::move(values));
            continue;
          }
          SmallVector<Value> values;
          for (int64_t r = 0; r < kRowSumChunk; ++r) {
            Value col = b.minU(b.add(first, r), b.index(cols - 1));
            values.push_back(memref::LoadOp::create(
                b, memref, mapOffset(b, map, type.getShape(), {row, col})));
          }
          elements.push_back(std::move(values));
        }
        SmallVector<Value> terms;
        for (int64_t r = 0; r < kRowSumChunk; ++r) {
          IRMapping mapping;
          for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands()))
            mapping.map(body->getArgument(input->getOperandNumber()),
                        elements[index][r]);
          // Constants from outside are cloned into the kernel.
          terms.push_back(buildRowSumTerm(b, op, mapping, [&](Value outer) {
            return b.clone(*outer.getDefiningOp())->getResult(0);
          }));
        }
        return terms;
      });
  auto ifLead = scf::IfOp::create(b, b.eq(lane, 0), false);
  b.setInsertionPointToStart(ifLead.thenBlock());
  Value start =
      memref::LoadOp::create(b, signature.getArgument(func, "init"), row);
  memref::StoreOp::create(b, arith::AddFOp::create(b, start, sum),
                          signature.getArgument(func, "out"), row);
  b.setInsertionPointAfter(ifRow);
  gpu::GPUModuleOp module = finishKernel(b, func);
  if (failed(expandMathFunctions(func)))
    return op->emitOpError("convert-fp8-to-nvvm: cannot expand the body's "
                           "math functions");
  return module;
}

FailureOr<gpu::GPUModuleOp> kernels::buildReduceKernel(OpBuilder &builder,
                                                       linalg::LinalgOp op,
                                                       StringRef name,
                                                       const Target &target) {
  if (!op.hasPureTensorSemantics() || op.getNumDpsInits() != 1)
    return op->emitOpError("convert-fp8-to-nvvm: only reductions on tensors "
                           "with one result have a kernel");
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  if (llvm::any_of(loops, ShapedType::isDynamic))
    return op->emitOpError("convert-fp8-to-nvvm: needs static shapes");
  if (failed(checkClonableBody(op)))
    return failure();
  if (auto generic = dyn_cast<linalg::GenericOp>(op.getOperation());
      generic && isRowSum(generic))
    return buildRowSumKernel(builder, generic, name, target);
  OpOperand &init = op.getDpsInitsMutable()[0];
  AffineMap initMap = op.getMatchingIndexingMap(&init);
  SmallVector<unsigned> parallel, reduced;
  op.getParallelDims(parallel);
  op.getReductionDims(reduced);
  // The result is indexed by the parallel loops, in order.
  if (!initMap.isProjectedPermutation() ||
      initMap.getNumResults() != parallel.size() ||
      llvm::any_of(llvm::enumerate(initMap.getResults()), [&](auto entry) {
        return cast<AffineDimExpr>(entry.value()).getPosition() !=
               parallel[entry.index()];
      }))
    return op->emitOpError("convert-fp8-to-nvvm: a reduction's result must be "
                           "indexed by its parallel loops in order");
  for (OpOperand *input : op.getDpsInputOperands())
    if (!isa<RankedTensorType>(input->get().getType()))
      return op->emitOpError("convert-fp8-to-nvvm: a reduction's operands "
                             "must be tensors");

  KernelBuilder b(op.getLoc(), builder);
  auto resultType = cast<RankedTensorType>(op->getResult(0).getType());
  int64_t numResults = resultType.getNumElements();
  int64_t numReduced = 1;
  for (unsigned dim : reduced)
    numReduced *= loops[dim];

  KernelSignature signature;
  SmallVector<std::string> inputNames;
  int64_t bytesMoved = declareReductionBuffers(signature, op, inputNames);
  gpu::GPUFuncOp func =
      createKernel(b, name, target, signature, kThreadsPerBlock);
  setManifest(b, func, signature, op->getName().getStringRef(),
              llvm::divideCeil(numResults, kThreadsPerBlock), kThreadsPerBlock,
              bytesMoved);

  Value thread = buildActiveThread(b, numResults);
  // The parallel loops' indices from the thread's result element.
  auto extentsOf = [&](ArrayRef<unsigned> dims) {
    return llvm::map_to_vector(dims, [&](unsigned dim) { return loops[dim]; });
  };
  SmallVector<Value> indices(loops.size());
  for (auto [dim, index] :
       llvm::zip(parallel, delinearize(b, thread, extentsOf(parallel))))
    indices[dim] = index;
  Value out = signature.getArgument(func, "out");
  Value start =
      memref::LoadOp::create(b, signature.getArgument(func, "init"), thread);
  auto loop = scf::ForOp::create(b, b.index(0), b.index(numReduced), b.index(1),
                                 ValueRange{start});
  b.setInsertionPointToStart(loop.getBody());
  for (auto [dim, index] : llvm::zip(
           reduced, delinearize(b, loop.getInductionVar(), extentsOf(reduced))))
    indices[dim] = index;
  Block *body = op.getBlock();
  IRMapping mapping;
  for (auto [index, input] : llvm::enumerate(op.getDpsInputOperands())) {
    auto shape = cast<RankedTensorType>(input->get().getType()).getShape();
    Value offset =
        mapOffset(b, op.getMatchingIndexingMap(input), shape, indices);
    mapping.map(body->getArgument(input->getOperandNumber()),
                memref::LoadOp::create(
                    b, signature.getArgument(func, inputNames[index]), offset));
  }
  mapping.map(body->getArgument(init.getOperandNumber()),
              loop.getRegionIterArg(0));
  SmallVector<Value> folded = cloneBody(b, body, mapping);
  scf::YieldOp::create(b, folded);
  b.setInsertionPointAfter(loop);
  memref::StoreOp::create(b, loop.getResult(0), out, thread);
  if (failed(expandMathFunctions(func)))
    return op->emitOpError("convert-fp8-to-nvvm: cannot expand the body's "
                           "math functions");
  return finishKernel(b, func);
}
