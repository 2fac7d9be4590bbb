// REQUIRES: ptxas-sm100a
// The sm_100a kernels that round their scales with cvt.rp (and the SR one)
// assemble for sm_100a, without spills.
// RUN: rm -rf %t
// RUN: fp8-opt %S/quantize-scales-sm100a.mlir '--fp8-emit=dir=%t chip=sm_100a' -o /dev/null
// RUN: %ptxas -arch=sm_100a -v %t/mx_quantize_0.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_100a -v %t/rowwise_quantize_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_100a -v %t/tensorwise_quantize_2.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_100a -v %t/sr_quantize_3.ptx -o /dev/null 2>&1 | FileCheck %s
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: error
