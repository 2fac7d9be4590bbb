// The launch plan of the MLP block (examples/mlp_block.mlir) from
// fp8-pipeline, with producer fusion (plan-mlp.mlir has the plan without):
// GELU and GELU'·dA run inside the cast-transposes that quantize A and dH,
// so neither bf16 tensor is a buffer any more: 22 launches instead of 24,
// and a smaller workspace.
// RUN: rm -rf %t && fp8-opt %S/../../../examples/mlp_block.mlir \
// RUN:   --fp8-pipeline='recipe=blockwise chip=sm_90a' --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --match-full-lines < %t/manifest.json
// RUN: FileCheck %s --check-prefix=NOBF16 < %t/manifest.json

// GELU reads H (the first Fprop GEMM's output) and writes the FP8 A, its
// transpose and their scales; GELU' reads dA (the Dgrad GEMM's output) and
// H, still live.
// CHECK:      "id": [[H:13]],
// CHECK-NEXT: "kind": "intermediate",
// CHECK-NEXT: "name": "mlp_block_gemm_4.c",
// CHECK:      "id": [[DA:29]],
// CHECK-NEXT: "kind": "intermediate",
// CHECK-NEXT: "name": "mlp_block_gemm_12.c",
// CHECK:        "kernel": "mlp_block_gemm_4",
// CHECK:        "args": [
// CHECK-NEXT:     [[H]],
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}}
// CHECK-NEXT:   ],
// CHECK-NEXT:   "kernel": "mlp_block_quantize_elementwise_t_5",
// CHECK-NEXT:   "location": "{{.*}}mlp_block.mlir:56:8",
// CHECK-NEXT:   "op": "fp8.quantize_elementwise+transpose"
// CHECK:        "kernel": "mlp_block_gemm_15",
// CHECK:        "args": [
// CHECK-NEXT:     [[DA]],
// CHECK-NEXT:     [[H]],
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}},
// CHECK-NEXT:     {{[0-9]+}}
// CHECK-NEXT:   ],
// CHECK-NEXT:   "kernel": "mlp_block_quantize_elementwise_t_16",
// CHECK-NEXT:   "location": "{{.*}}mlp_block.mlir:90:9",
// CHECK-NEXT:   "op": "fp8.quantize_elementwise+transpose"
// CHECK:        "kernel": "mlp_block_gemm_21",
// CHECK:        "workspace_bytes": 22069248,

// No bf16 intermediate of the GELUs and no elementwise launch.
// NOBF16-NOT: "op": "linalg.generic"
// NOBF16-NOT: "name": "mlp_block_generic
// NOBF16-NOT: .kept"
