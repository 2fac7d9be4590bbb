// The whole pipeline on the linear layer (Fprop, Dgrad, Wgrad) under
// blockwise: legalized for sm_90a, it becomes two fused cast-transposes (X
// and dY with their K-major transposes), W's quantization and transpose, and
// three GEMMs, all of which assemble.
// RUN: rm -rf %t && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir \
// RUN:   --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling \
// RUN:   --fp8-legalize --canonicalize --fp8-emit=%t -o /dev/null
// RUN: ls %t | FileCheck %s
// RUN: %if ptxas %{ for f in %t/*.ptx; do %ptxas -arch=sm_90a $f -o /dev/null || exit 1; done %}
// CHECK: linear_fwd_bwd_cast_transpose_0.ptx
// CHECK-NEXT: linear_fwd_bwd_cast_transpose_1.ptx
// CHECK-NEXT: linear_fwd_bwd_gemm_4.ptx
// CHECK-NEXT: linear_fwd_bwd_gemm_5.ptx
// CHECK-NEXT: linear_fwd_bwd_gemm_6.ptx
// CHECK-NEXT: linear_fwd_bwd_quantize_2.ptx
// CHECK-NEXT: linear_fwd_bwd_transpose_3.ptx
// CHECK-NEXT: manifest.json
