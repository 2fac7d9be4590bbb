// The whole pipeline on the linear layer (Fprop, Dgrad, Wgrad) under
// blockwise: legalized for sm_90a and fused, it becomes two cast-transposes
// (X and dY with their K-major transposes), W's quantization with its
// exact transpose (a third fp8.quantize_transpose),
// four scale alignments (the 1x128 scales of X and dY for Fprop and Dgrad,
// and of dY^T and X^T for Wgrad, into the col_major_tma layout the GEMMs
// load with TMA) and three GEMMs, all of which assemble.
// RUN: rm -rf %t && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling \
// RUN:   --fp8-legalize --canonicalize --fp8-fuse-quantization=scales=false \
// RUN:   --fp8-emit=dir=%t -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ for f in %t/*.ptx; do %ptxas -arch=sm_90a $f -o /dev/null || exit 1; done %}
// CHECK: linear_fwd_bwd_cast_transpose_0.ptx
// CHECK-NEXT: linear_fwd_bwd_cast_transpose_2.ptx
// CHECK-NEXT: linear_fwd_bwd_cast_transpose_4.ptx
// CHECK-NEXT: linear_fwd_bwd_gemm_3.ptx
// CHECK-NEXT: linear_fwd_bwd_gemm_6.ptx
// CHECK-NEXT: linear_fwd_bwd_gemm_9.ptx
// CHECK-NEXT: linear_fwd_bwd_tma_align_scales_1.ptx
// CHECK-NEXT: linear_fwd_bwd_tma_align_scales_5.ptx
// CHECK-NEXT: linear_fwd_bwd_tma_align_scales_7.ptx
// CHECK-NEXT: linear_fwd_bwd_tma_align_scales_8.ptx
// CHECK-NEXT: manifest.json

// Each alignment reads the scales of one quantization (X 256x512 and dY
// 256x1024 along K = their columns; dY^T 1024x256 and X^T 512x256 along
// K = M = 256) and writes them transposed; 256, 1024 and 512 rows are
// multiples of 4 f32 already, so no padding.
// MANIFEST: "name": "linear_fwd_bwd_tma_align_scales_1",
// MANIFEST-NEXT: "op": "fp8.tma_align_scales",
// MANIFEST: "shape": [
// MANIFEST-NEXT: 256,
// MANIFEST-NEXT: 4
// MANIFEST: "name": "tma_scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 256
// MANIFEST: "name": "linear_fwd_bwd_tma_align_scales_5",
// MANIFEST: "name": "tma_scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 8,
// MANIFEST-NEXT: 256
// MANIFEST: "name": "linear_fwd_bwd_tma_align_scales_7",
// MANIFEST: "name": "tma_scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 1024
// MANIFEST: "name": "linear_fwd_bwd_tma_align_scales_8",
// MANIFEST: "name": "tma_scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 512
