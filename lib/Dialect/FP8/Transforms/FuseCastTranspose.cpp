//===- FuseCastTranspose.cpp - a quantization and its transpose's --------===//
//
// The cast-transpose: `fp8.quantize %x` and `fp8.quantize` of
// `linalg.transpose %x`, quantized alike, become one fp8.quantize_transpose,
// which one kernel computes from one read of %x (docs/Passes.md). With one
// scale for the whole tensor (tensorwise), the transpose is an exact
// `fp8.transpose` of the quantization (fp8-derive-scaling made it so), and
// the two become one fp8.quantize_transpose too; so with square tiles
// (blockwise weights' 128x128), each tile's transpose a tile of the
// transpose with the same amax. With a scale per row
// ([1, *]), the quantizations of %x and of its transpose fuse alike, into
// the rowwise cast-transpose, where neither took a producer.
//
//===----------------------------------------------------------------------===//

#include "FuseQuantization.h"

#include "fp8/Dialect/FP8/Utils/CastTransposeShapes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::fusion;

/// Whether `q` is a quantization a cast-transpose computes: its input and
/// scaling fit the kernel (`fits`), round-to-nearest, its own amax.
static bool isPlainRowQuantization(QuantizeOp q, Value x, KernelFit fits) {
  return fits(x.getType(), q.getScaling()) &&
         q.getRounding() == Rounding::nearest && !q.getAmax() &&
         // Not one that kernel generation has already bound to a kernel.
         !q->hasAttr(kKernelAttrName);
}

/// The quantization of %x among `candidates` that the cast-transpose can
/// compute together with `transposed`, a quantization of
/// `linalg.transpose %x`: quantized alike, in the same block. Null where
/// none fits.
QuantizeOp *fusion::findRowsPartner(QuantizeOp transposed,
                                    MutableArrayRef<QuantizeOp> candidates,
                                    KernelFit fits) {
  auto transpose = transposed.getInput().getDefiningOp<linalg::TransposeOp>();
  if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0} ||
      !isPlainRowQuantization(transposed, transpose.getInput(), fits))
    return nullptr;
  QuantizeOp *rows = llvm::find_if(candidates, [&](QuantizeOp q) {
    return q && q.getInput() == transpose.getInput() &&
           q.getScaling() == transposed.getScaling() &&
           q.getResult().getType().getElementType() ==
               transposed.getResult().getType().getElementType() &&
           q.getMargin() == transposed.getMargin() &&
           isPlainRowQuantization(q, q.getInput(), fits) &&
           q->getBlock() == transposed->getBlock();
  });
  return rows == candidates.end() ? nullptr : rows;
}

/// One fp8.quantize_transpose at `b`'s point, of `rows`'s input, scaling
/// and margin, with `rows`'s role; it replaces `rows`'s results and the
/// transposed data and scale `qt`, `scaleT` (of the op at `otherLoc`).
static void replaceByQuantizeTranspose(OpBuilder &b, QuantizeOp rows,
                                       Location otherLoc, Value qt,
                                       Value scaleT) {
  auto fused = QuantizeTransposeOp::create(
      b, FusedLoc::get(b.getContext(), {rows.getLoc(), otherLoc}),
      rows.getResult().getType(), rows.getScale().getType(), qt.getType(),
      scaleT.getType(), rows.getInput(), rows.getScaling(), rows.getMargin());
  // The role of the value quantized (both read it).
  if (Attribute role = rows->getAttr(FP8Dialect::getRoleAttrName()))
    fused->setAttr(FP8Dialect::getRoleAttrName(), role);
  qt.replaceAllUsesWith(fused.getResultT());
  scaleT.replaceAllUsesWith(fused.getScaleT());
  rows.getResult().replaceAllUsesWith(fused.getResult());
  rows.getScale().replaceAllUsesWith(fused.getScale());
}

/// Replaces `rows` (of %x) and `transposed` (of its transpose) by one
/// fp8.quantize_transpose at the earlier of the two, so that it dominates the
/// readers of both (%x dominates both).
void fusion::fuseCastTranspose(QuantizeOp rows, QuantizeOp transposed) {
  auto transpose = transposed.getInput().getDefiningOp<linalg::TransposeOp>();
  Operation *earlier = rows->isBeforeInBlock(transposed) ? rows : transposed;
  OpBuilder b(earlier);
  replaceByQuantizeTranspose(b, rows, transposed.getLoc(),
                             transposed.getResult(), transposed.getScale());
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

bool fusion::fuseExactTranspose(TransposeOp transpose) {
  auto q = transpose.getInput().getDefiningOp<QuantizeOp>();
  if (!q || transpose.getScale() != q.getScale() ||
      transpose.getScaling() != q.getScaling() ||
      !(fitsTensorwiseCastTranspose(q.getInput().getType(), q.getScaling()) ||
        fitsBlockCastTranspose(q.getInput().getType(), q.getScaling())) ||
      q.getRounding() != Rounding::nearest || q.getAmax() || q.getSeed() ||
      q->hasAttr(kKernelAttrName) || transpose->hasAttr(kKernelAttrName) ||
      q->getBlock() != transpose->getBlock())
    return false;
  OpBuilder b(q);
  replaceByQuantizeTranspose(b, q, transpose.getLoc(), transpose.getResult(),
                             transpose.getResultScale());
  transpose.erase();
  q.erase();
  return true;
}
