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

    It also reorders the user's row sums (a reducing `linalg.generic` that
    adds f32 terms along the rows of a matrix: a norm's sum of squares,
    fp8/Dialect/FP8/Utils/RowSum.h): their additions are done in the
    row-sum order of docs/Numerics.md, the GPU kernels' order, not in
    linalg's loop order, so their last bits may differ from other
    lowerings of the same generic.

    `fp8-reference-pipeline` continues down to the LLVM dialect so that
    `mlir-runner` can execute the result.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::math::MathDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def ConvertFP8ToNVVM : Pass<"convert-fp8-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "generate a GPU kernel for every fp8 op";
  let description = [{
    Builds one specialized kernel per fp8 op with static shapes, each in a
    `gpu.module` of its own targeting `#nvvm.target<chip = ...>`, and tags
    the op with `fp8.kernel = @module::@kernel`. Every kernel carries an
    `fp8.manifest` dictionary (grid, block, shared memory, parameters) that
    `fp8-emit` writes out. Ops already tagged are left alone, so the pass
    may run twice.

    Kernels: `fp8.quantize` (row tiles, column tiles, 128x128 blocks,
    tensorwise, delayed amax, stochastic rounding), the fused
    quantize + transpose of X and Xᵀ alike (one read of X), `fp8.amax`,
    `fp8.dequantize`, `fp8.transpose`, `fp8.tma_align_scales`,
    `fp8.hadamard`, and `fp8.scaled_matmul` as the sm_90a TMA + wgmma GEMM
    (both operands K-major: run `fp8-legalize{chip=sm_90a}` first). The
    scale arithmetic is the CPU reference's (fp8/Dialect/FP8/Utils/
    Numerics.h), so kernels are bit-exact against `fp8-lower-to-reference`.
    A form without a kernel gets a diagnostic on its op.

    `chip` is parsed by `fp8::Target` (sm_90a, sm_100a); any other chip is
    refused with the reason. Without `chip`, the kernels are built for the
    chip the module was legalized for (its `fp8.target`, which
    `fp8-legalize` and `fp8-pipeline` set), else for sm_90a; a `chip` that
    differs from the module's `fp8.target` is an error.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "target GPU architecture (sm_90a or sm_100a); default: the "
           "module's fp8.target, else sm_90a">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    // Arith ops on tensors become linalg.generics (on tensor.empty) before
    // their kernels are built, in modules that may have neither dialect.
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def FP8Emit : Pass<"fp8-emit", "::mlir::ModuleOp"> {
  let summary = "write every kernel's PTX and the manifest into a directory";
  let description = [{
    Generates the kernels of the module's fp8 ops (`convert-fp8-to-nvvm`,
    where it has not run), lowers a copy of them to PTX and writes
    `dir/<kernel>.ptx` for each and `dir/manifest.json`, which says how to
    launch each kernel without MLIR (tools/fp8-run; docs/Manifest.md describes
    the schema, include/fp8/Conversion/FP8ToNVVM/ManifestSchema.h names its
    keys). The module itself is left unchanged but for the kernels.

    Each PTX file opens with a comment that names the op the kernel came
    from, its source location, its launch and its parameters in order (the
    PTX itself only says `_param_0`, `_param_1`, ...). With `line-info`
    (the default), the PTX also has `.file`/`.loc` line info that points
    every instruction at the MLIR op that produced it, so profilers and
    `cuobjdump` show fp8 source lines; `line-info=false` strips it.

    The chip is the one the module was legalized for (its `fp8.target`,
    which `fp8-pipeline{chip=...}` and `fp8-legalize` set), else sm_90a;
    `chip` may name it again, and a different chip is an error. Emitting
    for sm_100a says, in a remark, that those kernels are checked with
    ptxas only.

    ```
    fp8-opt in.mlir --fp8-pipeline="recipe=blockwise chip=sm_90a" --fp8-emit=dir=kernels
    fp8-opt quantized.mlir --fp8-emit="dir=kernels chip=sm_90a"
    ```
  }];
  let options = [
    Option<"dir", "dir", "std::string", /*default=*/"",
           "directory to write the PTX files and manifest.json into">,
    Option<"chip", "chip", "std::string", /*default=*/"\"\"",
           "target GPU architecture (sm_90a or sm_100a); default: the "
           "module's fp8.target, else sm_90a">,
    Option<"lineInfo", "line-info", "bool", /*default=*/"true",
           "emit .file/.loc line info pointing at the MLIR ops">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::gpu::GPUDialect",
    // Arith ops on tensors become linalg.generics (on tensor.empty) before
    // their kernels are built, in modules that may have neither dialect.
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::vector::VectorDialect",
  ];
}

#endif // FP8_CONVERSION_PASSES_TD
