// The launch plan of the linear layer (examples/linear_fwd_bwd.mlir: Fprop,
// Dgrad, Wgrad) under every recipe preset, through --fp8-pipeline and
// --fp8-emit: the kernels in the order they run, each parameter bound to
// the buffer of its value, and the function's results. Blockwise with the
// scale re-layouts as kernels of their own (fp8-pipeline's passes with
// fp8-fuse-quantization{scales=false}; plan-mlp-fused.mlir has them fused).
// RUN: rm -rf %t.blockwise && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize=chip=sm_90a \
// RUN:   --canonicalize --cse --fp8-fuse-quantization=scales=false --fp8-emit=dir=%t.blockwise -o /dev/null
// RUN: FileCheck %s --check-prefix=BW --match-full-lines < %t.blockwise/manifest.json
// RUN: rm -rf %t.tensorwise && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-pipeline='recipe=tensorwise chip=sm_90a' --fp8-emit=dir=%t.tensorwise -o /dev/null
// RUN: FileCheck %s --check-prefix=TW < %t.tensorwise/manifest.json
// RUN: rm -rf %t.rowwise && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-pipeline='recipe=rowwise chip=sm_90a' --fp8-emit=dir=%t.rowwise -o /dev/null
// RUN: FileCheck %s --check-prefix=RW < %t.rowwise/manifest.json
// RUN: rm -rf %t.mxfp8 && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-pipeline='recipe=mxfp8 chip=sm_90a' --fp8-emit=dir=%t.mxfp8 -o /dev/null
// RUN: FileCheck %s --check-prefix=MX < %t.mxfp8/manifest.json
// RUN: rm -rf %t.ocp && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-pipeline='recipe=mxfp8_ocp chip=sm_90a' --fp8-emit=dir=%t.ocp -o /dev/null
// RUN: FileCheck %s --check-prefix=MX < %t.ocp/manifest.json
//
// RUN: rm -rf %t.delayed && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-pipeline='recipe=delayed chip=sm_90a fuse-producers=false' --fp8-emit=dir=%t.delayed -o /dev/null
// RUN: FileCheck %s --check-prefix=DL < %t.delayed/manifest.json
// RUN: rm -rf %t.delayed-fused && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-pipeline='recipe=delayed chip=sm_90a' --fp8-emit=dir=%t.delayed-fused -o /dev/null
// RUN: FileCheck %s --check-prefix=DLF < %t.delayed-fused/manifest.json
//
// `rowwise_gw_hp` keeps Wgrad in bf16: the high-precision GEMM reads dY
// (arg2) and X (arg0) as stored (MN-major, through their tensor maps) and
// writes dW.
// RUN: rm -rf %t.gwhp && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-pipeline='recipe=rowwise_gw_hp chip=sm_90a' --fp8-emit=dir=%t.gwhp -o /dev/null
// RUN: %python -c "import json, sys; [print(json.dumps(l, sort_keys=True)) for l in json.load(open(sys.argv[1]))['functions'][0]['launches']]" \
// RUN:   %t.gwhp/manifest.json | FileCheck %s --check-prefix=GWHP
// GWHP: {"args": [2, 0, [[DW:[0-9]+]], 2, 0, [[DW]]], "kernel": "linear_fwd_bwd_gemm_6", "location": "{{.*}}linear_fwd_bwd.mlir:32:9", "op": "linalg.matmul"}

// blockwise, in detail. X (arg0) and dY (arg2) each go through one fused
// cast-transpose launch that writes both the 1x128 quantization and that of
// the transpose; W (arg1) is quantized in 128x128 blocks and transposed in
// one launch too (the block cast-transpose: its transpose is exact). The
// 1x128 scales are aligned for TMA before each GEMM reads them. A GEMM's
// tensor-map arguments are the buffers they map (a, b, c, a_scale and, for
// Wgrad, b_scale). Intermediates reuse the bytes of dead ones: W's scales
// take X's (dead once aligned), dY's quantization lands where X's aligned
// scales and W's quantization were, the aligned scales of dY^T where dY's
// scales were.
// BW-LABEL: "functions": [
// BW:      "arguments": [
// BW-NEXT:   0,
// BW-NEXT:   1,
// BW-NEXT:   2
// BW:      "id": [[X:0]],
// BW-NEXT: "index": 0,
// BW-NEXT: "kind": "argument",
// BW-NEXT: "name": "arg0",
// BW:      "id": [[W:1]],
// BW-NEXT: "index": 1,
// BW-NEXT: "kind": "argument",
// BW-NEXT: "name": "arg1",
// BW:      "id": [[DY:2]],
// BW-NEXT: "index": 2,
// BW-NEXT: "kind": "argument",
// BW-NEXT: "name": "arg2",
// BW:      "id": [[XQ:3]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_0.q",
// BW-NEXT: "offset": 0,
// BW:      "id": [[XS:4]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_0.scale",
// BW-NEXT: "offset": 131072,
// BW:      "id": [[XQT:5]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_0.qt",
// BW-NEXT: "offset": 135168,
// BW:      "id": [[XST:6]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_0.scale_t",
// BW-NEXT: "offset": 266240,
// BW:      "id": [[XSA:7]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_tma_align_scales_1.tma_scale",
// BW-NEXT: "offset": 270336,
// BW:      "id": [[WQ:8]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_2.q",
// BW-NEXT: "offset": 274432,
// BW:      "id": [[WS:9]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_2.scale",
// BW-NEXT: "offset": 131072,
// BW:      "id": [[WQT:10]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_2.qt",
// BW-NEXT: "offset": 798720,
// BW:      "id": [[WST:11]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_2.scale_t",
// BW-NEXT: "offset": 131328,
// BW:      "id": [[Y:12]],
// BW-NEXT: "index": 0,
// BW-NEXT: "kind": "result",
// BW-NEXT: "name": "result0",
// BW:      "id": [[DYQ:13]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_4.q",
// BW-NEXT: "offset": 270336,
// BW:      "id": [[DYS:14]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_4.scale",
// BW-NEXT: "offset": 0,
// BW:      "id": [[DYQT:15]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_4.qt",
// BW-NEXT: "offset": 532480,
// BW:      "id": [[DYST:16]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_cast_transpose_4.scale_t",
// BW-NEXT: "offset": 8192,
// BW:      "id": [[DYSA:17]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_tma_align_scales_5.tma_scale",
// BW-NEXT: "offset": 16384,
// BW:      "id": [[DX:18]],
// BW-NEXT: "index": 1,
// BW-NEXT: "kind": "result",
// BW-NEXT: "name": "result1",
// BW:      "id": [[DYTSA:19]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_tma_align_scales_7.tma_scale",
// BW-NEXT: "offset": 0,
// BW:      "id": [[XTSA:20]],
// BW-NEXT: "kind": "intermediate",
// BW-NEXT: "name": "linear_fwd_bwd_tma_align_scales_8.tma_scale",
// BW-NEXT: "offset": 8192,
// BW:      "id": [[DW:21]],
// BW-NEXT: "index": 2,
// BW-NEXT: "kind": "result",
// BW-NEXT: "name": "result2",
// BW:      "launches": [
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[X]],
// BW-NEXT:       [[XQ]],
// BW-NEXT:       [[XS]],
// BW-NEXT:       [[XQT]],
// BW-NEXT:       [[XST]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_cast_transpose_0",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// BW-NEXT:     "op": "fp8.quantize+transpose"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[XS]],
// BW-NEXT:       [[XSA]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_tma_align_scales_1",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// BW-NEXT:     "op": "fp8.tma_align_scales"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[W]],
// BW-NEXT:       [[WQ]],
// BW-NEXT:       [[WS]],
// BW-NEXT:       [[WQT]],
// BW-NEXT:       [[WST]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_cast_transpose_2",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// BW-NEXT:     "op": "fp8.quantize_transpose"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[XQ]],
// BW-NEXT:       [[XSA]],
// BW-NEXT:       [[WQ]],
// BW-NEXT:       [[WS]],
// BW-NEXT:       [[Y]],
// BW-NEXT:       [[XQ]],
// BW-NEXT:       [[WQ]],
// BW-NEXT:       [[Y]],
// BW-NEXT:       [[XSA]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_gemm_3",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// BW-NEXT:     "op": "fp8.scaled_matmul"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[DY]],
// BW-NEXT:       [[DYQ]],
// BW-NEXT:       [[DYS]],
// BW-NEXT:       [[DYQT]],
// BW-NEXT:       [[DYST]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_cast_transpose_4",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// BW-NEXT:     "op": "fp8.quantize+transpose"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[DYS]],
// BW-NEXT:       [[DYSA]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_tma_align_scales_5",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// BW-NEXT:     "op": "fp8.tma_align_scales"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[DYQ]],
// BW-NEXT:       [[DYSA]],
// BW-NEXT:       [[WQT]],
// BW-NEXT:       [[WST]],
// BW-NEXT:       [[DX]],
// BW-NEXT:       [[DYQ]],
// BW-NEXT:       [[WQT]],
// BW-NEXT:       [[DX]],
// BW-NEXT:       [[DYSA]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_gemm_6",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// BW-NEXT:     "op": "fp8.scaled_matmul"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[DYST]],
// BW-NEXT:       [[DYTSA]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_tma_align_scales_7",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// BW-NEXT:     "op": "fp8.tma_align_scales"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[XST]],
// BW-NEXT:       [[XTSA]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_tma_align_scales_8",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// BW-NEXT:     "op": "fp8.tma_align_scales"
// BW-NEXT:   },
// BW-NEXT:   {
// BW-NEXT:     "args": [
// BW-NEXT:       [[DYQT]],
// BW-NEXT:       [[DYTSA]],
// BW-NEXT:       [[XQT]],
// BW-NEXT:       [[XTSA]],
// BW-NEXT:       [[DW]],
// BW-NEXT:       [[DYQT]],
// BW-NEXT:       [[XQT]],
// BW-NEXT:       [[DW]],
// BW-NEXT:       [[DYTSA]],
// BW-NEXT:       [[XTSA]]
// BW-NEXT:     ],
// BW-NEXT:     "kernel": "linear_fwd_bwd_gemm_9",
// BW-NEXT:     "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// BW-NEXT:     "op": "fp8.scaled_matmul"
// BW-NEXT:   }
// BW-NEXT: ],
// BW:      "results": [
// BW-NEXT:   [[Y]],
// BW-NEXT:   [[DX]],
// BW-NEXT:   [[DW]]
// BW-NEXT: ],
// BW-NEXT: "workspace_bytes": 1323008,
// BW-NEXT: "zeroed_bytes": 0

// tensorwise: one tensorwise cast-transpose per tensor (its quantization
// and the transpose of it, one kernel: the GEMMs take K-major operands);
// each zeroes the one 16-byte amax workspace.
// TW-LABEL: "functions": [
// TW:      "launches": [
// TW-NOT:  "kernel"
// TW:      "kernel": "linear_fwd_bwd_cast_transpose_0",
// TW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// TW-NEXT: "op": "fp8.quantize_transpose"
// TW-NOT:  "kernel"
// TW:      "kernel": "linear_fwd_bwd_cast_transpose_1",
// TW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// TW-NEXT: "op": "fp8.quantize_transpose"
// TW-NOT:  "kernel"
// TW:      "kernel": "linear_fwd_bwd_gemm_2",
// TW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// TW-NEXT: "op": "fp8.scaled_matmul"
// TW-NOT:  "kernel"
// TW:      "kernel": "linear_fwd_bwd_cast_transpose_3",
// TW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// TW-NEXT: "op": "fp8.quantize_transpose"
// TW-NOT:  "kernel"
// TW:      "kernel": "linear_fwd_bwd_gemm_4",
// TW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// TW-NEXT: "op": "fp8.scaled_matmul"
// TW-NOT:  "kernel"
// TW:      "kernel": "linear_fwd_bwd_gemm_5",
// TW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// TW-NEXT: "op": "fp8.scaled_matmul"
// TW-NOT:  "kernel"
// TW:      ],
// TW:      "results": [
// TW-NEXT:   13,
// TW-NEXT:   19,
// TW-NEXT:   20
// TW-NEXT: ],
// TW-NEXT: "workspace_bytes": 1311744,
// TW-NEXT: "zeroed_bytes": 256

// rowwise: X (arg0), W (arg1) and dY (arg2) each go through one rowwise
// cast-transpose launch (a scale per row of the matrix and per row of its
// transpose), then the three GEMMs read them: 6 launches.
// RW-LABEL: "functions": [
// RW:      "launches": [
// RW-NOT:  "kernel"
// RW:      "kernel": "linear_fwd_bwd_cast_transpose_0",
// RW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "linear_fwd_bwd_cast_transpose_1",
// RW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "linear_fwd_bwd_gemm_2",
// RW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      "kernel": "linear_fwd_bwd_cast_transpose_3",
// RW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// RW-NEXT: "op": "fp8.quantize_transpose"
// RW-NOT:  "kernel"
// RW:      "kernel": "linear_fwd_bwd_gemm_4",
// RW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      "kernel": "linear_fwd_bwd_gemm_5",
// RW-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// RW-NEXT: "op": "fp8.scaled_matmul"
// RW-NOT:  "kernel"
// RW:      ],
// RW:      "results": [
// RW-NEXT:   13,
// RW-NEXT:   19,
// RW-NEXT:   20
// RW-NEXT: ],
// RW-NEXT:   "workspace_bytes": 1319936,
// RW-NEXT: "zeroed_bytes": 6400
// The three cast-transposes' workspaces (row and column amaxes, counters)
// are zeroed once and left zero by every launch.

// mxfp8 and mxfp8_ocp: the same program. Scales run along rows in blocks
// of 32, so a transposed operand is a bf16 linalg.transpose (an elementwise
// kernel) quantized again.
// MX-LABEL: "functions": [
// MX:      "launches": [
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_quantize_0",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_quantize_1",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_gemm_2",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_quantize_3",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_transpose_4",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_quantize_5",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_gemm_6",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_transpose_7",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_quantize_8",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_transpose_9",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// MX-NEXT: "op": "linalg.transpose"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_quantize_10",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// MX-NEXT: "op": "fp8.quantize"
// MX-NOT:  "kernel"
// MX:      "kernel": "linear_fwd_bwd_gemm_11",
// MX-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// MX-NEXT: "op": "fp8.scaled_matmul"
// MX-NOT:  "kernel"
// MX:      ],
// MX:      "results": [
// MX-NEXT:   7,
// MX-NEXT:   13,
// MX-NEXT:   20
// MX-NEXT: ],
// MX-NEXT:   "workspace_bytes": 1859584,
// MX-NEXT: "zeroed_bytes": 0

// delayed, unfused (fuse-producers=false): each tensor's scale comes from
// the amax of its history (three more arguments, rolled and returned as
// three more results): its amax, the reduction of the history (from one
// fill of its init), the select between them, then the history shifted
// (extract_slice, insert_slice) with the new amax inserted last. Then
// tensorwise quantizations, transposes and GEMMs.
// DL-LABEL: "functions": [
// DL:      "launches": [
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_amax_0",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "fp8.amax"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_fill_1",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "linalg.fill"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_reduce_2",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "linalg.reduce"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_generic_3",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "linalg.generic"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_extract_slice_4",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "tensor.extract_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_insert_slice_5",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "tensor.insert_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_insert_slice_6",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "tensor.insert_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_amax_7",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "fp8.amax"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_reduce_8",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "linalg.reduce"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_generic_9",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "linalg.generic"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_extract_slice_10",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "tensor.extract_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_insert_slice_11",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "tensor.insert_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_insert_slice_12",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "tensor.insert_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_amax_13",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "fp8.amax"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_reduce_14",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "linalg.reduce"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_generic_15",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "linalg.generic"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_extract_slice_16",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "tensor.extract_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_insert_slice_17",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "tensor.insert_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_insert_slice_18",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "tensor.insert_slice"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_quantize_19",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "fp8.quantize"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_transpose_20",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// DL-NEXT: "op": "fp8.transpose"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_quantize_21",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "fp8.quantize"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_transpose_22",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "fp8.transpose"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_gemm_23",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DL-NEXT: "op": "fp8.scaled_matmul"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_quantize_24",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "fp8.quantize"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_transpose_25",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// DL-NEXT: "op": "fp8.transpose"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_gemm_26",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DL-NEXT: "op": "fp8.scaled_matmul"
// DL-NOT:  "kernel"
// DL:      "kernel": "linear_fwd_bwd_gemm_27",
// DL-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// DL-NEXT: "op": "fp8.scaled_matmul"
// DL-NOT:  "kernel"
// DL:      ],
// DL:      "results": [
// DL-NEXT:   36,
// DL-NEXT:   41,
// DL-NEXT:   42,
// DL-NEXT:   27,
// DL-NEXT:   20,
// DL-NEXT:   13
// DL-NEXT: ],
// DL-NEXT: "workspace_bytes": 1312000,
// DL-NEXT: "zeroed_bytes": 256

// delayed, as fp8-pipeline fuses it: each tensor's amax, the history's
// reduction, the select and the quantization are one fp8.quantize_delayed
// where the quantization was (its data amax rolled into the history right
// after it), so 18 launches instead of 28: no amax, fill, reduce or select
// kernels; the workspace about the unfused plan's.
// DLF-LABEL: "functions": [
// DLF:      "launches": [
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_extract_slice_0",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DLF-NEXT: "op": "tensor.extract_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_insert_slice_1",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DLF-NEXT: "op": "tensor.insert_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_extract_slice_2",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "tensor.extract_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_insert_slice_3",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "tensor.insert_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_extract_slice_4",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "tensor.extract_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_insert_slice_5",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "tensor.insert_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_quantize_delayed_6",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "fp8.quantize_delayed"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_insert_slice_7",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "tensor.insert_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_transpose_8",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// DLF-NEXT: "op": "fp8.transpose"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_quantize_delayed_9",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "fp8.quantize_delayed"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_insert_slice_10",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "tensor.insert_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_transpose_11",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DLF-NEXT: "op": "fp8.transpose"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_gemm_12",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:21:8",
// DLF-NEXT: "op": "fp8.scaled_matmul"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_quantize_delayed_13",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DLF-NEXT: "op": "fp8.quantize_delayed"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_insert_slice_14",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DLF-NEXT: "op": "tensor.insert_slice"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_transpose_15",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// DLF-NEXT: "op": "fp8.transpose"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_gemm_16",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:27:9",
// DLF-NEXT: "op": "fp8.scaled_matmul"
// DLF-NOT:  "kernel"
// DLF:      "kernel": "linear_fwd_bwd_gemm_17",
// DLF-NEXT: "location": "{{.*}}linear_fwd_bwd.mlir:32:9",
// DLF-NEXT: "op": "fp8.scaled_matmul"
// DLF-NOT:  "kernel"
// DLF:      ],
// DLF:      "results": [
// DLF-NEXT:   26,
// DLF-NEXT:   34,
// DLF-NEXT:   35,
// DLF-NEXT:   16,
// DLF-NEXT:   23,
// DLF-NEXT:   31
// DLF-NEXT: ],
// DLF-NEXT: "workspace_bytes": 1327104,
// DLF-NEXT: "zeroed_bytes": 256
