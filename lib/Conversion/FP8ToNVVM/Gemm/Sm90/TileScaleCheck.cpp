//===- TileScaleCheck.cpp - a tile's scales, tested once ------------------===//

#include "TileScaleCheck.h"

#include "../Common/ScaledTerm.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

Value TileScaleCheck::checkOperand(Value scales, const OperandScaling &scaling,
                                   Value first, int64_t span, int64_t rows,
                                   Value localThread) {
  ScaleCheckRegion region = scaleCheckRegion(scaling, span, problem.numKBlocks);
  // The region's scale rows: those of the operand's rows first .. first +
  // span - 1, clamped to the matrix as the K loop clamps them.
  auto scaleRowOf = [&](Value row) {
    return scaling.spansRows()
               ? b.i32(0)
               : b.divU(b.minU(row, b.i32(rows - 1)), scaling.rowBlock);
  };
  Value firstRow = scaleRowOf(first);
  Value lastRow = scaleRowOf(b.add(first, span - 1));
  Value cheap;
  int64_t elements = region.elements();
  for (int64_t base = 0; base < elements; base += kWarpgroup) {
    // Element e of the region, in the order the scales lie in memory so that
    // neighbouring threads read neighbouring words; the last round's extra
    // threads and the rows past the region's last read an element again.
    Value e = b.add(localThread, base);
    if (base + kWarpgroup > elements)
      e = b.minU(e, b.i32(elements - 1));
    Value row =
        scaling.transposed ? b.remU(e, region.rows) : b.divU(e, region.cols);
    Value col =
        scaling.transposed ? b.divU(e, region.rows) : b.remU(e, region.cols);
    Value scaleRow = b.minU(b.add(firstRow, row), lastRow);
    Value scale = loadScaleEntry(b, scales, scaling, scaleRow, col);
    Value test = isCheapScale(b, scale);
    cheap = cheap ? b.andI(cheap, test) : test;
  }
  return cheap;
}

Value TileScaleCheck::build(const ThreadFragment &fragment, TileCoord tile) {
  Value local = fragment.localThread(b);
  Value aFirst = b.add(tile.row, b.mul(fragment.rowGroup, kConsumerRows));
  Value cheap = b.andI(checkOperand(args.aScale, problem.aScaling, aFirst,
                                    kConsumerRows, problem.m, local),
                       checkOperand(args.bScale, problem.bScaling, tile.col,
                                    config.tileN, problem.n, local));
  // Rows past M of scales that TMA brings are zeros in the stage, not the
  // last row's (as loads from global memory clamp them), and send their
  // threads down the slow form: such a consumer takes the tested loop,
  // whose bits are then the same.
  if (config.aScaleBytes && problem.m % kConsumerRows != 0)
    cheap = b.andI(cheap, b.ult(b.add(aFirst, kConsumerRows - 1), problem.m));
  // barrier.red.and over the consumer's warpgroup: every thread gets the
  // AND. (The NVVM dialect's barrier reduces over barrier 0 only, the whole
  // CTA; the intrinsic takes any barrier and thread count.)
  Value id = b.add(fragment.consumer, kFirstScaleCheckBarrier);
  return LLVM::CallIntrinsicOp::create(
             b, b.getI1Type(),
             b.getStringAttr("llvm.nvvm.barrier.cta.red.and.aligned.count"),
             ValueRange{id, b.i32(kWarpgroup), cheap})
      .getResult(0);
}
