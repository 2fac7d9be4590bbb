// REQUIRES: ptxas-sm90a
// Every GEMM kernel of the GPU tests (all tile shapes, both output types,
// promoted and fast, K from 208 to 1024) and of the benchmark assembles for
// sm_90a without spills. A K loop that LLVM unrolls (K = 384 on 192 x 128
// tiles) spilled 328 bytes before the loop was kept rolled.
// RUN: rm -rf %t-gpu %t-bench %t-grouped
// RUN: fp8-opt %S/../../Integration/GPU/gemm.mlir --fp8-emit=dir=%t-gpu -o /dev/null
// RUN: fp8-opt %S/../../../bench/gemm.mlir --fp8-emit=dir=%t-bench -o /dev/null
// RUN: fp8-opt %S/../../../bench/grouped_gemm.mlir --fp8-emit=dir=%t-grouped -o /dev/null
// RUN: bash -c 'for f in %t-gpu/*.ptx %t-bench/*.ptx %t-grouped/*.ptx; do %ptxas -arch=sm_90a -v "$f" -o /dev/null 2>&1; done' > %t.log
// RUN: FileCheck %s < %t.log
// RUN: grep -c "0 bytes spill stores, 0 bytes spill loads" %t.log | FileCheck %s --check-prefix=COUNT
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
// CHECK-NOT: error
// CHECK-NOT: C75
// 53 FP8 kernels of the GPU tests (8 grouped), 4 high-precision ones and
// the zero fills of their C, 29 of the benchmark and 10 of the grouped
// benchmark.
// COUNT: 100
