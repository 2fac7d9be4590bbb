//===- ScaleLoads.cpp - an operand's scales read from global --------------===//

#include "ScaleLoads.h"

#include "../../Program/KernelUtils.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// Rows past the matrix are clamped: their products are never stored.
Value gemm::loadOperandScale(KernelBuilder &b, Value scales,
                             const OperandScaling &scaling, Value row,
                             Value kIndex, int64_t rows) {
  Value scaleRow = scaling.spansRows()
                       ? b.i32(0)
                       : b.divU(b.minU(row, b.i32(rows - 1)), scaling.rowBlock);
  Value scaleCol = scaling.spansK() ? b.i32(0) : b.divU(kIndex, scaling.kBlock);
  return loadScaleEntry(b, scales, scaling, scaleRow, scaleCol);
}

Value gemm::loadScaleEntry(KernelBuilder &b, Value scales,
                           const OperandScaling &scaling, Value scaleRow,
                           Value scaleCol) {
  Value index = scaling.transposed
                    ? b.add(b.mul(scaleCol, scaling.stride), scaleRow)
                    : b.add(b.mul(scaleRow, scaling.stride), scaleCol);
  Type storage = scaling.e8m0 ? Type(b.getI8Type()) : Type(b.getF32Type());
  Value ptr = b.gep(NVVM::NVVMMemorySpace::Global, storage, scales, index);
  Value stored = LLVM::LoadOp::create(b, storage, ptr, scaling.e8m0 ? 1 : 4,
                                      false, false, /*isInvariant=*/true);
  if (scaling.e8m0)
    stored =
        arith::BitcastOp::create(b, b.getType<Float8E8M0FNUType>(), stored);
  return buildScaleToF32(b, b.getLoc(), stored);
}

Value gemm::groupScales(KernelBuilder &b, Value scales,
                        const OperandScaling &scaling, Value base) {
  if (!base)
    return scales;
  Type storage = scaling.e8m0 ? Type(b.getI8Type()) : Type(b.getF32Type());
  return b.gep(NVVM::NVVMMemorySpace::Global, storage, scales, base);
}
