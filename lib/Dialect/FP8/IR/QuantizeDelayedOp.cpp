//===- QuantizeDelayedOp.cpp - fp8.quantize_delayed -----------------------===//
//
// fp8.quantize_delayed: delayed scaling's quantization fused with the amax
// it rolls into its history (fp8-fuse-quantization). Its verifier holds
// the op to what its one kernel computes: a matrix, one scale, a history
// of one amax per step.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "OpVerification.h"

#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::fp8;

void QuantizeDelayedOp::getAsmResultNames(
    function_ref<void(Value, StringRef)> setNameFn) {
  setNameFn(getResult(), "q");
  setNameFn(getScale(), "scale");
  setNameFn(getAmax(), "amax");
}

LogicalResult QuantizeDelayedOp::verify() {
  auto input = cast<ShapedType>(getInput().getType());
  if (input.getRank() != 2)
    return emitOpError("expects a rank-2 input, got rank ") << input.getRank();
  ArrayRef<int64_t> tile = getScaling().getTile();
  if (!llvm::all_of(tile, ShapedType::isDynamic))
    return emitOpError("expects tensorwise scaling (tile [*, *]), got tile ")
           << formatTile(tile);
  if (failed(verifySameShape(*this, "result", input, getResult().getType())) ||
      failed(verifyStoredScales(*this, "scale", input, getScale().getType(),
                                getScaling(), ScaleLayout::row_major)))
    return failure();
  auto single =
      RankedTensorType::get({1, 1}, getAmax().getType().getElementType());
  if (failed(verifySameShape(*this, "amax", single, getAmax().getType())))
    return failure();
  // One amax per step, oldest first: Hx1x1 with H >= 1.
  ArrayRef<int64_t> history = getHistory().getType().getShape();
  if (history[0] == 0 || history[1] != 1 || history[2] != 1)
    return emitOpError("expects a history of shape Hx1x1 (H >= 1, one "
                       "amax per step), got ")
           << formatShape(history);
  return success();
}
