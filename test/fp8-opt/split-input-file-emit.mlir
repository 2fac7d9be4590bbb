// -split-input-file with fp8-emit would have every split write its kernels
// into the same dir=, each replacing the last one's (the earlier splits'
// PTX deleted, exit 0): fp8-opt refuses it, however the pipeline is
// written, before writing anything.
// RUN: rm -rf %t
// RUN: not fp8-opt %s -split-input-file --fp8-emit=dir=%t 2>&1 | FileCheck %s
// RUN: not fp8-opt %s -split-input-file --fp8-pipeline=recipe=blockwise --fp8-emit=dir=%t 2>&1 | FileCheck %s
// RUN: not fp8-opt %s -split-input-file '--pass-pipeline=builtin.module(fp8-pipeline{recipe=blockwise}, fp8-emit{dir=%t})' 2>&1 | FileCheck %s
// RUN: test ! -e %t
// CHECK: fp8-opt: error: -split-input-file with fp8-emit: every split would write its kernels into the same dir=, each replacing the last one's; emit each split on its own (split-file, then one fp8-opt run per file, each with its own dir=)

// Splits without fp8-emit run as before, and so does fp8-emit on the whole
// file (one module with both functions).
// RUN: fp8-opt %s -split-input-file --fp8-pipeline=recipe=blockwise | FileCheck %s --check-prefix=SPLIT
// RUN: fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=BOTH
// SPLIT: func.func @first
// SPLIT: // -----
// SPLIT: func.func @second
// BOTH: first_quantize_0.ptx
// BOTH: second_quantize_{{[0-9]+}}.ptx

func.func @first(%x: tensor<64x256xbf16>) -> (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  return %q, %s : tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
}

// -----

func.func @second(%x: tensor<128x256xbf16>) -> (tensor<128x256xf8E4M3FN>, tensor<128x2xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  return %q, %s : tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
}
