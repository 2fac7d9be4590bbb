//===- GemmChecks.cpp - limits every GEMM kernel shares -------------------===//

#include "GemmChecks.h"

#include <cstdint>
#include <limits>

using namespace mlir;
using namespace mlir::fp8::kernels;

LogicalResult gemm::checkTmaExtents(Operation *op, ArrayRef<Extent> extents) {
  for (auto [extent, what] : extents)
    if (extent > std::numeric_limits<int32_t>::max())
      return op->emitOpError()
             << what << " = " << extent
             << " exceeds 2^31 - 1, the largest TMA coordinate";
  return success();
}
