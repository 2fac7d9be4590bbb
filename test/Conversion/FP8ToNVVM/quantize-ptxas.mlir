// REQUIRES: ptxas-sm90a
// Every generated kernel assembles for its chip, and without spills.
// RUN: rm -rf %t90 %t100
// RUN: fp8-opt %S/quantize-ptx.mlir --fp8-emit=dir=%t90 -o /dev/null
// RUN: fp8-opt %S/quantize-ptx.mlir '--fp8-emit=dir=%t100 chip=sm_100a' -o /dev/null
// RUN: %ptxas -arch=sm_90a -v %t90/rows_quantize_0.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -v %t90/mx_quantize_1.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %ptxas -arch=sm_90a -v %t90/e5m2_quantize_2.ptx -o /dev/null 2>&1 | FileCheck %s
// RUN: %if ptxas-sm100a %{ %ptxas -arch=sm_100a -v %t100/mx_quantize_1.ptx -o /dev/null 2>&1 | FileCheck %s %}
// CHECK: 0 bytes spill stores, 0 bytes spill loads
// CHECK-NOT: error
