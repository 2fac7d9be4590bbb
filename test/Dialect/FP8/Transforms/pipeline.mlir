// fp8-pipeline is the explicit pass sequence, whatever the recipe: the same
// IR, with and without a Hadamard rotation, for either chip.
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a' > %t.pipeline
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize=chip=sm_90a --canonicalize --cse --fp8-fuse-quantization > %t.passes
// RUN: diff %t.pipeline %t.passes
// RUN: FileCheck %s --check-prefix=BLOCKWISE < %t.pipeline
// RUN: fp8-opt %S/../../../../examples/mlp_block.mlir --fp8-pipeline='recipe="#fp8.recipe<mxfp8, hadamard = 32>" chip=sm_90a' > %t.pipeline
// RUN: fp8-opt %S/../../../../examples/mlp_block.mlir '--fp8-quantize-matmuls=recipe="#fp8.recipe<mxfp8, hadamard = 32>"' --fp8-insert-hadamard --fp8-derive-scaling --fp8-legalize=chip=sm_90a --canonicalize --cse --fp8-fuse-quantization > %t.passes
// RUN: diff %t.pipeline %t.passes
// RUN: FileCheck %s --check-prefix=HADAMARD < %t.pipeline
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=tensorwise chip=sm_100a' > %t.pipeline
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=tensorwise --fp8-derive-scaling --fp8-legalize=chip=sm_100a --canonicalize --cse --fp8-fuse-quantization > %t.passes
// RUN: diff %t.pipeline %t.passes
// The defaults are tensorwise and sm_90a.
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline > %t.pipeline
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls --fp8-derive-scaling --fp8-legalize --canonicalize --cse --fp8-fuse-quantization > %t.passes
// RUN: diff %t.pipeline %t.passes

// fp8-print-layouts shows the fusion: the five quantizations, two pairs of
// them in one fp8.quantize_transpose each, and W's with its exact
// transpose in a third.
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a' --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=LAYOUTS
// LAYOUTS: // 5 quantizations (3 fresh, 2 requantized), 0 reused, 1 transposed
// LAYOUTS-NEXT: // fused: 2 cast-transposes (fp8.quantize_transpose, 2 quantizations each)
// LAYOUTS-NEXT: // fused: 1 exact transposes (fp8.quantize_transpose: a quantization and its transpose)

// Emission after the pipeline, in both spellings, writes the same kernels.
// RUN: rm -rf %t.flags %t.text
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a' --fp8-emit=dir=%t.flags -o /dev/null
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --pass-pipeline='builtin.module(fp8-pipeline{recipe=blockwise chip=sm_90a}, fp8-emit{dir=%t.text chip=sm_90a})' -o /dev/null
// RUN: ls %t.flags > %t.flags.ls
// RUN: ls %t.text | diff %t.flags.ls -
// RUN: FileCheck %s --check-prefix=KERNELS < %t.flags.ls

// Blockwise on sm_90a: five quantizations (X and dY twice, each pair fused
// into one cast-transpose, W once, with its 128x128 tiles transposed for
// Dgrad in the same kernel), every matmul K-major, no transpose left.
// BLOCKWISE-LABEL: func.func @linear_fwd_bwd
// BLOCKWISE-SAME:    fp8.recipe = #fp8.recipe<blockwise>
// BLOCKWISE:         fp8.quantize_transpose %arg0 {fp8.role = "activation"
// BLOCKWISE:         fp8.quantize_transpose %arg1 {fp8.role = "weight"
// BLOCKWISE:         fp8.quantize_transpose %arg2 {fp8.role = "gradient"
// BLOCKWISE-NOT:     fp8.quantize
// BLOCKWISE-NOT:     linalg.transpose
// BLOCKWISE-NOT:     fp8.transpose
// BLOCKWISE-NOT:     contracting = array<i64: 0
// BLOCKWISE-NOT:     contracting = array<i64: 1, 0
// BLOCKWISE:         return

// The recipe's Hadamard size reaches every matmul of the MLP block: both
// operands of its six matmuls are rotated along the contracted dim, each
// rotation fused into the 1x32 quantization that reads it.
// HADAMARD-LABEL: func.func @mlp_block
// HADAMARD-SAME:    fp8.recipe = #fp8.recipe<mxfp8, hadamard = 32>
// HADAMARD-COUNT-12: fp8.quantize_elementwise {{.*}}hadamard_size = 32 : i64
// HADAMARD-NOT:      fp8.hadamard

// KERNELS: linear_fwd_bwd_cast_transpose_0.ptx
// KERNELS: linear_fwd_bwd_gemm_{{[0-9]+}}.ptx
// KERNELS: manifest.json
