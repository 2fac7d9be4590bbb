//===- QuantizeScales.cpp - the quantize kernels' scales ------------------===//
//
// QuantizeKernelBuilder's scale steps: a tile's scales from its amax (the
// reference's arithmetic, Numerics.h; RCEIL as one cvt.rp on sm_100a,
// E8M0Scales.h), the given amax of delayed scaling, and where a tile's
// scale (and monitored amax) is stored.
//
//===----------------------------------------------------------------------===//

#include "E8M0Scales.h"
#include "QuantizeKernel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// Whether the kernel being built targets `chip`: its gpu.module's NVVM
/// target says so (the shapes that skip create() build modules too).
static bool buildsFor(OpBuilder &b, Chip chip) {
  auto module =
      b.getInsertionBlock()->getParentOp()->getParentOfType<gpu::GPUModuleOp>();
  if (!module || !module.getTargets())
    return false;
  StringRef name = Target(chip).getName();
  return llvm::any_of(*module.getTargets(), [&](Attribute attr) {
    auto target = dyn_cast<NVVM::NVVMTargetAttr>(attr);
    return target && target.getChip() == name;
  });
}

TileScales QuantizeKernelBuilder::tileScales(Value amax) {
  // sm_100a rounds RCEIL scales up with one cvt.rp: the reference's codes
  // for every f32 (E8M0Scales.h).
  if (scaling.getRound() == ScaleRound::pow2_ceil &&
      buildsFor(b, Chip::sm_100a))
    return buildRceilScales(
        b, b.getLoc(), amax, elementType, scaling, margin,
        [&](Value d) { return buildCvtRpE8M0(b, b.getLoc(), d); });
  return buildTileScales(b, b.getLoc(), amax, elementType, scaling, margin);
}

Value QuantizeKernelBuilder::tileAmax(Value computed, Value index) {
  if (!givenAmax)
    return computed;
  return memref::LoadOp::create(b, givenAmax, index);
}

void QuantizeKernelBuilder::storeTile(Value amax, const TileScales &result,
                                      Value index, Value dataAmax) {
  if (amaxOnly()) {
    memref::StoreOp::create(b, amax, amaxOut, index);
    return;
  }
  storeScale(toScaleStorage(b, result.storedScale), index);
  if (monitor)
    memref::StoreOp::create(b, dataAmax, tileAmaxOut, index);
}

void QuantizeKernelBuilder::storeScale(Value stored, Value index) {
  if (scaleLayout == ScaleLayout::row_major) {
    memref::StoreOp::create(b, stored, scales, index);
    return;
  }
  if (scaleLayout == ScaleLayout::tcgen05)
    return storeTcgen05Scale(stored, index);
  // col_major_tma: scale [r][c] at [c][r] of rows padded to `padded`, the
  // padding zero (written by the last row's tiles), as
  // fp8.tma_align_scales stores it.
  SmallVector<int64_t> shape = scaleShape();
  int64_t padded = storedScaleShape()[1];
  Value row = b.divU(index, shape[1]);
  Value base = b.mul(b.remU(index, shape[1]), padded);
  memref::StoreOp::create(b, stored, scales, b.add(base, row));
  if (padded == shape[0])
    return;
  OpBuilder::InsertionGuard guard(b);
  auto ifLast = scf::IfOp::create(b, b.eq(row, shape[0] - 1), false);
  b.setInsertionPointToStart(ifLast.thenBlock());
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(stored.getType()));
  for (int64_t pad = shape[0]; pad < padded; ++pad)
    memref::StoreOp::create(b, zero, scales, b.add(base, pad));
}

void QuantizeKernelBuilder::storeTcgen05Scale(Value stored, Value index) {
  // tcgen05: scale [r][c] at its byte of the 512-byte chunks, as
  // fp8.tcgen05_scales stores it, and the chunks' padding zero: the last
  // K-block's tiles write their row's padding K-blocks, the last row's
  // tiles their K-block's padding rows (and, the last of both, the corner).
  SmallVector<int64_t> shape = scaleShape();
  int64_t kBlocks = shape[1];
  int64_t paddedRows = llvm::alignTo(shape[0], kTcgen05ScaleRows);
  int64_t paddedKBlocks = llvm::alignTo(kBlocks, kTcgen05ScaleKBlocks);
  Type indexType = index.getType();
  Value row = b.divU(index, kBlocks);
  Value kBlock = b.remU(index, kBlocks);
  memref::StoreOp::create(b, stored, scales,
                          tcgen05ScaleOffset(b, row, kBlock, kBlocks));
  if (paddedRows == shape[0] && paddedKBlocks == kBlocks)
    return;
  OpBuilder::InsertionGuard guard(b);
  Value zero = arith::ConstantOp::create(b, b.getZeroAttr(stored.getType()));
  Value lastKBlock = b.eq(kBlock, kBlocks - 1);
  // Zeros at row `r`: its padding K-blocks where this tile is the last.
  auto zeroKPadding = [&](Value r) {
    if (paddedKBlocks == kBlocks)
      return;
    OpBuilder::InsertionGuard inner(b);
    auto ifLast = scf::IfOp::create(b, lastKBlock, false);
    b.setInsertionPointToStart(ifLast.thenBlock());
    for (int64_t pad = kBlocks; pad < paddedKBlocks; ++pad)
      memref::StoreOp::create(
          b, zero, scales,
          tcgen05ScaleOffset(b, r, b.constant(indexType, pad), kBlocks));
  };
  zeroKPadding(row);
  if (paddedRows == shape[0])
    return;
  auto ifLastRow = scf::IfOp::create(b, b.eq(row, shape[0] - 1), false);
  b.setInsertionPointToStart(ifLastRow.thenBlock());
  auto loop = scf::ForOp::create(b, b.constant(indexType, shape[0]),
                                 b.constant(indexType, paddedRows),
                                 b.constant(indexType, 1));
  b.setInsertionPointToStart(loop.getBody());
  Value padRow = loop.getInductionVar();
  memref::StoreOp::create(b, zero, scales,
                          tcgen05ScaleOffset(b, padRow, kBlock, kBlocks));
  zeroKPadding(padRow);
}
