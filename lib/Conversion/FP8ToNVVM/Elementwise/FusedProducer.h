//===- FusedProducer.h - an elementwise producer in a kernel ----*- C++ -*-===//
//
// The producer of an fp8.quantize_elementwise, computed where the quantize
// kernels load their input (FusedProducer.cpp): the same bodies as the
// elementwise kernel, so the produced tensor is never read back from memory.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_ELEMENTWISE_FUSEDPRODUCER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_ELEMENTWISE_FUSEDPRODUCER_H

#include "../Program/KernelBuilder.h"
#include "../Program/KernelSignature.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::fp8::kernels {

/// The elementwise producer of an fp8.quantize_elementwise, computed where
/// a quantize kernel loads its input: each input's
/// elements read through its indexing map, the body cloned per element, and
/// the produced value stored where the op keeps it. The quantize kernels
/// call it from their load hook, so every kernel shape fuses the same way.
class FusedProducer {
public:
  explicit FusedProducer(QuantizeElementwiseOp op) : op(op) {}

  /// Declares the inputs (`in0`, `in1`, ...) and the kept value (`kept`)
  /// as the kernel's parameters, bound to the op's operands and result.
  void declare(KernelSignature &signature);
  /// Finds those parameters' arguments in the kernel.
  void bind(const KernelSignature &signature, gpu::GPUFuncOp func);
  /// The `width` produced elements from row-major offset `offset` (a
  /// vector of the produced type; a scalar for width 1), also stored to the
  /// kept value where the op has one. `offset` is a multiple of `width`:
  /// apply(load(...)).
  Value compute(KernelBuilder &b, Value offset, int64_t width);

  /// Each input's `width` elements that compute reads at `offset`.
  using Inputs = SmallVector<SmallVector<Value>>;
  /// Loads `type` (a whole vector) from a 1-D memref at an element offset.
  using VectorLoader = llvm::function_ref<Value(KernelBuilder &, VectorType,
                                                Value memref, Value offset)>;
  /// The loads of compute alone, so that a kernel can put them in flight
  /// long before the body runs (the vector loads through `vectorLoad`
  /// where given).
  Inputs load(KernelBuilder &b, Value offset, int64_t width,
              VectorLoader vectorLoad = nullptr);
  /// The body of compute on inputs `loaded` (and the kept value's store).
  Value apply(KernelBuilder &b, const Inputs &loaded, Value offset,
              int64_t width);
  /// The 32-bit registers the inputs of `width` elements take, at most.
  int64_t loadedWords(int64_t width);
  /// The bytes the producer's inputs and kept value move.
  int64_t bytesMoved();
  /// The produced element type (what the quantization reads).
  Type getElement() { return op.getProducedType().getElementType(); }

private:
  QuantizeElementwiseOp op;
  SmallVector<Value> inputs;
  Value kept;
};

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_ELEMENTWISE_FUSEDPRODUCER_H
