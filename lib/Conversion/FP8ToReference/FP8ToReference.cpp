//===- FP8ToReference.cpp - fp8 ops to tensor-level linalg ----------------===//
//
// The CPU reference: every fp8 op becomes linalg.generic ops on tensors whose
// scalar bodies come from fp8/Dialect/FP8/Utils/Numerics.h, the same builders
// the GPU kernels use. Tiles are handled by padding to whole tiles and
// expanding each tiled dimension into (tile index, position in tile), so
// partial edge tiles need no special case: the zero padding changes neither
// an amax nor a dot product.
//
// This file holds the pass; the patterns are in QuantizeLowering.cpp,
// QuantizeDelayedLowering.cpp, MatmulLowering.cpp and
// GroupedMatmulLowering.cpp, the order of row sums
// in RowSumLowering.cpp.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToReference/FP8ToReference.h"

#include "ReferenceUtils.h"
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8LOWERTOREFERENCE
#include "fp8/Conversion/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

struct FP8LowerToReferencePass
    : fp8::impl::FP8LowerToReferenceBase<FP8LowerToReferencePass> {
  using Base::Base;

  void runOnOperation() override {
    // The reference computes on static shapes only, of at most 2^48
    // elements (its tile padding and index arithmetic stay far from 64-bit
    // overflow); say so at the op rather than failing to legalize it.
    WalkResult walk = getOperation()->walk([](Operation *op) {
      if (!isa_and_nonnull<FP8Dialect>(op->getDialect()))
        return WalkResult::advance();
      for (Type type :
           llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes())) {
        auto shaped = dyn_cast<ShapedType>(type);
        if (!shaped)
          continue;
        if (!shaped.hasStaticShape()) {
          op->emitOpError("fp8-lower-to-reference needs static shapes, got ")
              << type;
          return WalkResult::interrupt();
        }
        constexpr int64_t kMaxElements = int64_t(1) << 48;
        int64_t elements = 1;
        for (int64_t extent : shaped.getShape()) {
          if (extent != 0 && elements > kMaxElements / extent) {
            op->emitOpError("fp8-lower-to-reference: ")
                << type
                << " has more than 2^48 elements, more than the CPU "
                   "reference computes";
            return WalkResult::interrupt();
          }
          elements *= extent;
        }
      }
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();

    // The program's row sums in their fixed order (the norms that
    // fp8-fuse-quantization fuses, so that the fused and unfused programs
    // add alike).
    reference::lowerRowSums(getOperation());
    RewritePatternSet patterns(&getContext());
    populateFP8ToReferencePatterns(patterns);
    ConversionTarget target(getContext());
    target.addIllegalDialect<FP8Dialect>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      return signalPassFailure();
    stripFP8Attributes(getOperation());
  }

  /// The fp8 annotations (roles, recipes, matmul kinds) have served their
  /// purpose once no fp8 op is left; removing them keeps the output readable
  /// by tools that do not know the fp8 dialect, such as mlir-runner.
  static void stripFP8Attributes(Operation *root) {
    auto isFP8 = [](NamedAttribute attr) {
      return attr.getName().getValue().starts_with("fp8.");
    };
    root->walk([&](Operation *op) {
      SmallVector<StringAttr> names;
      for (NamedAttribute attr : op->getDiscardableAttrs())
        if (isFP8(attr))
          names.push_back(attr.getName());
      for (StringAttr name : names)
        op->removeDiscardableAttr(name);
      auto func = dyn_cast<FunctionOpInterface>(op);
      if (!func)
        return;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        for (NamedAttribute attr : func.getArgAttrs(i))
          if (isFP8(attr))
            func.removeArgAttr(i, attr.getName());
    });
  }
};

} // namespace

void fp8::populateFP8ToReferencePatterns(RewritePatternSet &patterns) {
  reference::populateQuantizeLoweringPatterns(patterns);
  reference::populateQuantizeDelayedLoweringPatterns(patterns);
  reference::populateMatmulLoweringPatterns(patterns);
  reference::populateGroupedMatmulLoweringPatterns(patterns);
}
