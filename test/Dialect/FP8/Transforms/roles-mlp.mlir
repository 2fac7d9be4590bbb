// Roles propagate through a whole MLP block (examples/mlp_block.mlir): the
// GELU output is an activation (an Fprop result through an elementwise op),
// dA a gradient (a Dgrad result), and dH = dA * gelu'(H) a gradient, since a
// gradient times a local derivative stays a gradient.
// RUN: fp8-opt %S/../../../../examples/mlp_block.mlir --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s
// CHECK: 0  fprop  a  activation  arg0      512x1024xf8E4M3FN
// CHECK: 0  fprop  b  weight      arg1      4096x1024xf8E4M3FN
// CHECK: 1  fprop  a  activation  generic   512x4096xf8E4M3FN
// CHECK: 1  fprop  b  weight      arg2
// CHECK: 2  dgrad  a  gradient    arg3
// CHECK: 2  dgrad  b  weight      arg2 {{.*}} reused
// CHECK: 3  wgrad  a  gradient    arg3 {{.*}} requantized
// CHECK: 3  wgrad  b  activation  generic {{.*}} requantized
// CHECK: 4  dgrad  a  gradient    generic   512x4096xf8E4M3FN {{.*}} fresh
// CHECK: 4  dgrad  b  weight      arg1 {{.*}} reused
// CHECK: 5  wgrad  a  gradient    generic {{.*}} requantized
// CHECK: 5  wgrad  b  activation  arg0 {{.*}} requantized
// CHECK: 10 quantizations (6 fresh, 4 requantized), 2 reused, 0 transposed
