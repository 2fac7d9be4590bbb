// The linear layer (Fprop, Dgrad, Wgrad) through the whole pipeline for
// sm_100a writes every kernel, the three tcgen05 GEMMs included, and every
// kernel assembles for sm_100a with no local memory and no more registers
// than the budget (255, or 204 for the 320-thread promoted GEMMs).
// RUN: rm -rf %t-mx %t-bw
// RUN: fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline="recipe=mxfp8 chip=sm_100a" --fp8-emit="dir=%t-mx chip=sm_100a" -o /dev/null
// RUN: fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline="recipe=blockwise chip=sm_100a" --fp8-emit="dir=%t-bw chip=sm_100a" -o /dev/null
// RUN: ls %t-mx | FileCheck %s --check-prefix=MX
// RUN: ls %t-bw | FileCheck %s --check-prefix=BW
// RUN: grep -A2 '"contracting"' %t-mx/manifest.json | tr -d ' \n' | FileCheck %s --check-prefix=MANIFEST
// RUN: %if ptxas-sm100a %{ bash -c 'for f in %t-mx/*.ptx %t-bw/*.ptx; do %ptxas -arch=sm_100a -v "$f" -o /dev/null 2>&1 || echo "error: $f"; done' > %t.log %}
// RUN: %if ptxas-smsm100a %{ FileCheck %s --check-prefix=PTXAS < %t.log %}
// RUN: %if ptxas-smsm100a %{ grep -c "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" %t.log | FileCheck %s --check-prefix=COUNT %}

// MXFP8: six quantizations, the scales of the three MN-major operands
// transposed, three GEMMs; the three K-major operands' quantizations store
// their scales in the tcgen05 chunks themselves (fp8-fuse-quantization),
// the three transposed scale matrices are re-laid into them.
// MX: linear_fwd_bwd_gemm_14.ptx
// MX-NEXT: linear_fwd_bwd_gemm_2.ptx
// MX-NEXT: linear_fwd_bwd_gemm_7.ptx
// MX-NEXT: linear_fwd_bwd_quantize_11.ptx
// MX-NEXT: linear_fwd_bwd_quantize_4.ptx
// MX-NEXT: linear_fwd_bwd_quantize_8.ptx
// MX-NEXT: linear_fwd_bwd_quantize_elementwise_0.ptx
// MX-NEXT: linear_fwd_bwd_quantize_elementwise_1.ptx
// MX-NEXT: linear_fwd_bwd_quantize_elementwise_3.ptx
// MX-NEXT: linear_fwd_bwd_tcgen05_scales_10.ptx
// MX-NEXT: linear_fwd_bwd_tcgen05_scales_13.ptx
// MX-NEXT: linear_fwd_bwd_tcgen05_scales_6.ptx
// MX-NEXT: linear_fwd_bwd_transpose_12.ptx
// MX-NEXT: linear_fwd_bwd_transpose_5.ptx
// MX-NEXT: linear_fwd_bwd_transpose_9.ptx
// MX-NEXT: manifest.json

// Blockwise: the operands stay in their major (no transposes), five
// quantizations, three GEMMs.
// BW: linear_fwd_bwd_gemm_2.ptx
// BW-NEXT: linear_fwd_bwd_gemm_4.ptx
// BW-NEXT: linear_fwd_bwd_gemm_7.ptx
// BW-NEXT: linear_fwd_bwd_quantize_0.ptx
// BW-NEXT: linear_fwd_bwd_quantize_1.ptx
// BW-NEXT: linear_fwd_bwd_quantize_3.ptx
// BW-NEXT: linear_fwd_bwd_quantize_5.ptx
// BW-NEXT: linear_fwd_bwd_quantize_6.ptx
// BW-NEXT: manifest.json

// Fprop contracts both operands' K-major dims, Dgrad reads W MN-major and
// Wgrad both operands MN-major (contracting their rows).
// MANIFEST-DAG: "contracting":[1,1
// MANIFEST-DAG: "contracting":[1,0
// MANIFEST-DAG: "contracting":[0,0

// PTXAS-NOT: error
// PTXAS-NOT: {{[1-9][0-9]*}} bytes spill
// PTXAS-NOT: {{[1-9][0-9]*}} bytes stack frame
// PTXAS-NOT: Used {{20[5-9]|2[1-9][0-9]}} registers
// 15 MXFP8 kernels and 8 blockwise.
// COUNT: 23
