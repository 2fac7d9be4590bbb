// The launch plan of the MLP block (examples/mlp_block.mlir) without
// producer or scale re-layout fusion (fp8-pipeline's passes, with
// fp8-fuse-quantization{producers=false scales=false}; plan-mlp-fused.mlir has the
// pipeline's own plan): the GELU and GELU' linalg.generics become
// elementwise launches between the right GEMMs, and every op of the
// function is accounted for (a launch, or absorbed: the fills under the
// matmuls, tensor.empty, constants).
// RUN: rm -rf %t.blockwise && fp8-opt %S/../../../examples/mlp_block.mlir \
// RUN:   --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling \
// RUN:   --fp8-legalize=chip=sm_90a --canonicalize --cse '--fp8-fuse-quantization=producers=false scales=false' \
// RUN:   --fp8-emit=dir=%t.blockwise -o /dev/null
// RUN: FileCheck %s --check-prefix=BW < %t.blockwise/manifest.json
// RUN: FileCheck %s --check-prefix=FLOW --match-full-lines < %t.blockwise/manifest.json
// RUN: rm -rf %t.rowwise && fp8-opt %S/../../../examples/mlp_block.mlir \
// RUN:   --fp8-quantize-matmuls=recipe=rowwise --fp8-derive-scaling \
// RUN:   --fp8-legalize=chip=sm_90a --canonicalize --cse '--fp8-fuse-quantization=producers=false scales=false' \
// RUN:   --fp8-emit=dir=%t.rowwise -o /dev/null
// RUN: FileCheck %s --check-prefix=RW < %t.rowwise/manifest.json
// RUN: rm -rf %t.mxfp8 && fp8-opt %S/../../../examples/mlp_block.mlir \
// RUN:   --fp8-quantize-matmuls=recipe=mxfp8 --fp8-derive-scaling \
// RUN:   --fp8-legalize=chip=sm_90a --canonicalize --cse '--fp8-fuse-quantization=producers=false scales=false' \
// RUN:   --fp8-emit=dir=%t.mxfp8 -o /dev/null
// RUN: FileCheck %s --check-prefix=MX < %t.mxfp8/manifest.json

// The data flow through the GELUs (blockwise): H is the Fprop GEMM's
// output; GELU reads it and writes A, which a cast-transpose quantizes for
// the second Fprop (and its Wgrad). GELU' reads dA (the Dgrad GEMM's
// output) and H, right after dW2's GEMM, still live, and writes dH, which is quantized for the
// first layer's Dgrad and Wgrad. dH takes A's bytes, dead by then.
// FLOW:      "id": [[H:13]],
// FLOW-NEXT: "kind": "intermediate",
// FLOW-NEXT: "name": "mlp_block_gemm_3.c",
// FLOW-NEXT: "offset": 9486336,
// FLOW:      "id": [[A:14]],
// FLOW-NEXT: "kind": "intermediate",
// FLOW-NEXT: "name": "mlp_block_generic_4.out0",
// FLOW-NEXT: "offset": [[AOFF:1081344]],
// FLOW:      "id": [[DA:30]],
// FLOW-NEXT: "kind": "intermediate",
// FLOW-NEXT: "name": "mlp_block_gemm_11.c",
// FLOW:      "id": [[DH:34]],
// FLOW-NEXT: "kind": "intermediate",
// FLOW-NEXT: "name": "mlp_block_generic_15.out0",
// FLOW-NEXT: "offset": [[AOFF]],
// FLOW:        "kernel": "mlp_block_gemm_3",
// FLOW-NEXT:   "location": "{{.*}}mlp_block.mlir:30:8",
// FLOW:        "args": [
// FLOW-NEXT:     [[H]],
// FLOW-NEXT:     [[A]]
// FLOW-NEXT:   ],
// FLOW-NEXT:   "kernel": "mlp_block_generic_4",
// FLOW-NEXT:   "location": "{{.*}}mlp_block.mlir:33:8",
// FLOW-NEXT:   "op": "linalg.generic"
// FLOW:        "args": [
// FLOW-NEXT:     [[A]],
// FLOW:        "kernel": "mlp_block_cast_transpose_5",
// FLOW:        "kernel": "mlp_block_gemm_14",
// FLOW-NEXT:   "location": "{{.*}}mlp_block.mlir:66:10",
// FLOW:        "args": [
// FLOW-NEXT:     [[DA]],
// FLOW-NEXT:     [[H]],
// FLOW-NEXT:     [[DH]]
// FLOW-NEXT:   ],
// FLOW-NEXT:   "kernel": "mlp_block_generic_15",
// FLOW-NEXT:   "location": "{{.*}}mlp_block.mlir:71:9",
// FLOW-NEXT:   "op": "linalg.generic"
// FLOW:        "args": [
// FLOW-NEXT:     [[DH]],
// FLOW:        "kernel": "mlp_block_cast_transpose_16",

// blockwise: every launch in order (W1 and W2 quantized with their exact
// 128x128 transposes in one launch each).
// BW-LABEL: "functions": [
// BW:      "launches": [
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_cast_transpose_0",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// BW-NEXT: "op": "fp8.quantize+transpose"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_1",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_cast_transpose_2",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// BW-NEXT: "op": "fp8.quantize_transpose"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_gemm_3",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// BW-NEXT: "op": "fp8.scaled_matmul"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_generic_4",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:33:8",
// BW-NEXT: "op": "linalg.generic"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_cast_transpose_5",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// BW-NEXT: "op": "fp8.quantize+transpose"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_6",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_cast_transpose_7",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// BW-NEXT: "op": "fp8.quantize_transpose"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_gemm_8",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// BW-NEXT: "op": "fp8.scaled_matmul"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_cast_transpose_9",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// BW-NEXT: "op": "fp8.quantize+transpose"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_10",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_gemm_11",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// BW-NEXT: "op": "fp8.scaled_matmul"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_12",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_13",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_gemm_14",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// BW-NEXT: "op": "fp8.scaled_matmul"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_generic_15",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:71:9",
// BW-NEXT: "op": "linalg.generic"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_cast_transpose_16",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// BW-NEXT: "op": "fp8.quantize+transpose"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_17",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_gemm_18",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// BW-NEXT: "op": "fp8.scaled_matmul"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_19",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_tma_align_scales_20",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// BW-NEXT: "op": "fp8.tma_align_scales"
// BW-NOT:  "kernel"
// BW:      "kernel": "mlp_block_gemm_21",
// BW-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// BW-NEXT: "op": "fp8.scaled_matmul"
// BW-NOT:  "kernel"
// BW:      ],
// BW:      "results": [
// BW-NEXT:   24,
// BW-NEXT:   40,
// BW-NEXT:   43,
// BW-NEXT:   33
// BW-NEXT: ],
// BW-NEXT: "workspace_bytes": 26263552,
// BW-NEXT: "zeroed_bytes": 0

// rowwise: every quantized operand and its transpose (X, W1, the GELU's
// output A, W2, dY, dH) come from one rowwise cast-transpose launch each;
// the GELUs read the Fprop GEMM's output and the Dgrad GEMM's: 14 launches.
// RW-LABEL: "functions": [
// RW:      "launches": [
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_cast_transpose_0",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_cast_transpose_1",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_gemm_2",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_generic_3",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:33:8",
// RW-NEXT: "op": "linalg.generic"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_cast_transpose_4",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_cast_transpose_5",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_gemm_6",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_cast_transpose_7",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_gemm_8",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_gemm_9",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_generic_10",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:71:9",
// RW-NEXT: "op": "linalg.generic"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_cast_transpose_11",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_gemm_12",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      "kernel": "mlp_block_gemm_13",
// RW-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      ],
// RW:      "results": [
// RW-NEXT:   26,
// RW-NEXT:   40,
// RW-NEXT:   41,
// RW-NEXT:   33
// RW-NEXT: ],
// RW-NEXT:   "workspace_bytes": 26241024,
// RW-NEXT: "zeroed_bytes": 20736


// mxfp8: the transposed operands are bf16 linalg.transposes quantized
// again (1x32 blocks); the GELUs read the Fprop GEMM's output and the
// Dgrad GEMM's.
// MX-LABEL: "functions": [
// MX:      "launches": [
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_0",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_1",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_gemm_2",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:30:8",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_generic_3",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:33:8",
// MX-NEXT: "op": "linalg.generic"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_4",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_5",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_gemm_6",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:56:8",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_7",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_transpose_8",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_9",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_gemm_10",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:61:9",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_transpose_11",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_12",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_transpose_13",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_14",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_gemm_15",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:66:10",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_generic_16",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:71:9",
// MX-NEXT: "op": "linalg.generic"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_17",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_transpose_18",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_19",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_gemm_20",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:90:9",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_transpose_21",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_22",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_transpose_23",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_quantize_24",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "mlp_block_gemm_25",
// MX-NEXT: "location": "{{.*}}mlp_block.mlir:95:10",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      ],
// MX:      "results": [
// MX-NEXT:   14,
// MX-NEXT:   34,
// MX-NEXT:   41,
// MX-NEXT:   27
// MX-NEXT: ],
// MX-NEXT:   "workspace_bytes": 21643264,
// MX-NEXT: "zeroed_bytes": 0
