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
    `transpose`, `requantize`, `tma_align_scales` and `hadamard` into
    `linalg`, `tensor`, `arith` and `math` ops on tensors, ready for one-shot
    bufferization. `col_major_tma` scales of a `scaled_matmul` are read back
    in row-major order (padding dropped, transposed), so a layout never
    changes a value. The result is
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

def ConvertFP8ToNVVM : Pass<"convert-fp8-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "generate a GPU kernel for every fp8 op";
  let description = [{
    For every `fp8.quantize` with static shapes, builds a specialized kernel
    in its own `gpu.module` (targeting `#nvvm.target<chip = ...>`), with
    16-byte vector loads and stores, per-tile amax by warp shuffles, the
    scale arithmetic of the CPU reference (fp8/Dialect/FP8/Utils/Numerics.h)
    and `cvt.rn.satfinite.{e4m3,e5m2}x2.f32`. The op is tagged with
    `fp8.kernel = @module::@kernel`, and the kernel with an `fp8.manifest`
    dictionary (grid, block, parameters) that `--fp8-emit` writes out.

    Supported so far: row tiles `[1, c]` (c = 16 .. 512, a power of two,
    dividing the row; `[1, *]` for rows that short), round-to-nearest, every
    scale rounding, f32 and E8M0 scales, bf16/f16/f32 inputs. Other forms
    get a diagnostic.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target GPU architecture">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // FP8_CONVERSION_PASSES_TD
