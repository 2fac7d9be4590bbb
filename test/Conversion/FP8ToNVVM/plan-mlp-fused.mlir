// The launch plan of the MLP block (examples/mlp_block.mlir) from
// fp8-pipeline, with producer fusion (plan-mlp.mlir has the plan without):
// GELU and GELU'·dA run inside the cast-transposes that quantize A and dH,
// so neither bf16 tensor is a buffer any more, and every quantization
// stores its 1x128 scales in the GEMMs' TMA layout itself, and W1 and W2
// are quantized with their exact transposes in one launch each: 12
// launches instead of 24 (no fp8.tma_align_scales, no fp8.transpose), and
// a smaller workspace.
// RUN: rm -rf %t && fp8-opt %S/../../../examples/mlp_block.mlir \
// RUN:   --fp8-pipeline='recipe=blockwise chip=sm_90a' --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --match-full-lines < %t/manifest.json
// RUN: FileCheck %s --check-prefix=NOBF16 < %t/manifest.json

// GELU reads H (the first Fprop GEMM's output) and writes the FP8 A, its
// transpose and their scales; GELU' reads dA (the Dgrad GEMM's output) and
// H, still live.
// CHECK:      "id": [[H:12]],
// CHECK-NEXT: "kind": "intermediate",
// CHECK-NEXT: "name": "mlp_block_gemm_2.c",
// CHECK:      "id": [[DA:26]],
// CHECK-NEXT: "kind": "intermediate",
// CHECK-NEXT: "name": "mlp_block_gemm_7.c",
// CHECK:        "kernel": "mlp_block_gemm_2",
// CHECK:        "args": [
// CHECK-NEXT:     [[H]],
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}}
// CHECK-NEXT:   ],
// CHECK-NEXT:   "kernel": "mlp_block_quantize_elementwise_t_3",
// CHECK-NEXT:   "location": "{{.*}}mlp_block.mlir:56:8",
// CHECK-NEXT:   "op": "fp8.quantize_elementwise+transpose"
// CHECK:        "kernel": "mlp_block_gemm_8",
// CHECK:        "args": [
// CHECK-NEXT:     [[DA]],
// CHECK-NEXT:     [[H]],
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}}
// CHECK-NEXT:   ],
// CHECK-NEXT:   "kernel": "mlp_block_quantize_elementwise_t_9",
// CHECK-NEXT:   "location": "{{.*}}mlp_block.mlir:90:9",
// CHECK-NEXT:   "op": "fp8.quantize_elementwise+transpose"
// CHECK:        "kernel": "mlp_block_gemm_11",
// CHECK:        "workspace_bytes": 22054912,

// No bf16 intermediate of the GELUs, no elementwise or re-layout launch.
// NOBF16-NOT: "op": "linalg.generic"
// NOBF16-NOT: tma_align_scales
// NOBF16-NOT: "op": "fp8.transpose"
// NOBF16-NOT: "name": "mlp_block_generic
// NOBF16-NOT: .kept"
