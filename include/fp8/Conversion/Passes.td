//===- Passes.td - fp8-mlir conversion passes --------------*- tablegen -*-===//
//
// Conversions out of the fp8 dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_CONVERSION_PASSES_TD
#define FP8_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def FP8LowerToReference : Pass<"fp8-lower-to-reference"> {
  let summary = "lower every fp8 op to linalg/tensor/arith on tensors";
  let description = [{
    Rewrites `fp8.quantize`, `dequantize`, `scaled_matmul`, `amax`,
    `transpose`, `requantize` and `hadamard` into `linalg`, `tensor`, `arith`
    and `math` ops on tensors, ready for one-shot bufferization. The result is
    the project's executable definition of each op (docs/Numerics.md): the GPU
    kernels are checked against it bit for bit.

    Shapes must be static. Partial edge tiles are padded with zeros, which
    changes neither an amax nor a dot product.

    `fp8-reference-pipeline` continues down to the LLVM dialect so that
    `mlir-runner` can execute the result.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // FP8_CONVERSION_PASSES_TD
