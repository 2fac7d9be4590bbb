//===- FuseQuantization.cpp - quantizations into explicit fused ops -------===//
//
// fp8-fuse-quantization: where one kernel can compute several ops from one
// read of their input, the ops become one fused op, so that what kernel
// generation fuses is visible in the IR and decided here, not matched
// inside the conversion: the cast-transpose (fp8.quantize_transpose), and
// elementwise producers, the row sums of norms and Hadamard rotations into
// the quantization that reads them (fp8.quantize_elementwise), and the
// delayed recipe's amax of the data into its quantization
// (fp8.quantize_delayed), and the re-layout of scales for TMA or for
// sm_100a's tcgen05 MMA into the quantization's scale store.
//
// The pass runs the fusions in order (each in a file of its own,
// FuseQuantization.h): cast-transposes first, then each quantization takes
// its producer, then quantizations without one take their exact
// transposes (tensorwise, square tiles) and rowwise ones the quantizations
// of their transposes, then the delayed amax, and last the scale
// re-layouts.
//
//===----------------------------------------------------------------------===//

#include "FuseQuantization.h"

#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/CastTransposeShapes.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8FUSEQUANTIZATION
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::fusion;

namespace {
struct FP8FuseQuantizationPass
    : fp8::impl::FP8FuseQuantizationBase<FP8FuseQuantizationPass> {
  using Base::Base;

  void runOnOperation() override {
    runFusions();
    if (explain)
      explainFusions(getOperation(), producers);
  }

  void runFusions() {
    fuseCastTransposes(&fitsCastTranspose);
    if (!producers) {
      fuseExactTransposes();
      fuseCastTransposes(&fitsRowwiseCastTranspose);
      return fuseScales();
    }
    // Then each quantization (plain or fused with its transpose) takes its
    // producer; a producer that several quantizations read fuses into the
    // first, whose kept result the others read.
    SmallVector<Operation *> candidates;
    getOperation().walk([&](Operation *op) {
      if (isa<QuantizeOp, QuantizeTransposeOp>(op))
        candidates.push_back(op);
    });
    for (Operation *quantize : candidates)
      fuseProducerOf(quantize);
    // Quantizations that kept no producer with their exact transposes (one
    // scale, square tiles), and rowwise ones with the quantizations of
    // their transposes (those cast-transposes read no producer).
    fuseExactTransposes();
    fuseCastTransposes(&fitsRowwiseCastTranspose);
    // Delayed scaling's quantizations with the data's amax (the producer
    // fusion leaves quantizations with a given amax alone).
    SmallVector<QuantizeOp> delayed;
    getOperation().walk([&](QuantizeOp q) {
      if (q.getAmax())
        delayed.push_back(q);
    });
    for (QuantizeOp q : delayed)
      fuseDelayedAmax(q);
    fuseScales();
  }

  /// The quantizations of a matrix and of its transpose that the
  /// cast-transpose `fits` describes, as one fp8.quantize_transpose.
  void fuseCastTransposes(KernelFit fits) {
    SmallVector<QuantizeOp> quantizations;
    getOperation().walk([&](QuantizeOp q) { quantizations.push_back(q); });
    // Fused quantizations leave the list (null) so that each fuses once.
    for (QuantizeOp &transposed : quantizations) {
      if (!transposed)
        continue;
      QuantizeOp *rows = findRowsPartner(transposed, quantizations, fits);
      if (!rows)
        continue;
      fuseCastTranspose(*rows, transposed);
      *rows = nullptr;
      transposed = nullptr;
    }
  }

  void fuseExactTransposes() {
    SmallVector<TransposeOp> transposes;
    getOperation().walk([&](TransposeOp t) { transposes.push_back(t); });
    for (TransposeOp t : transposes)
      fuseExactTranspose(t);
  }

  /// Last, the scale re-layouts into the quantizations' scale stores.
  void fuseScales() {
    if (!scales)
      return;
    SmallVector<Operation *> relayouts;
    getOperation().walk([&](Operation *op) {
      if (isa<TmaAlignScalesOp, Tcgen05ScalesOp>(op))
        relayouts.push_back(op);
    });
    for (Operation *relayout : relayouts)
      fuseScaleLayout(relayout);
  }
};
} // namespace
