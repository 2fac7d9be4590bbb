// REQUIRES: ptxas-sm100a
// CTA-pair GEMMs (cta_group::2) of every scaling the sm_100a kernel takes
// (MXFP8 K-major and MN-major, blockwise, tensorwise), bf16 and f32 C,
// K = 128 (one K-block), 384 and 7168, at 4096 x 4096: all are pairs, and
// all assemble for sm_100a without stack frame or spills. Without the
// pair's .maxnreg, ptxas aimed at 96 registers and spilled 4 bytes in the
// blockwise pair of one K-block.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit="dir=%t chip=sm_100a" -o /dev/null
// RUN: bash -c 'for f in %t/*.ptx; do grep -c reqnctapercluster "$f"; done' | FileCheck %s --check-prefix=PAIRS
// RUN: bash -c 'for f in %t/*.ptx; do %ptxas -arch=sm_100a -v "$f" -o /dev/null 2>&1; done' > %t.log
// RUN: FileCheck %s < %t.log
// RUN: grep -c "0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads" %t.log | FileCheck %s --check-prefix=COUNT
// PAIRS-COUNT-24: {{^}}1{{$}}
// PAIRS-NOT: 0
// CHECK-NOT: {{[1-9][0-9]*}} bytes spill
// CHECK-NOT: error
// COUNT: 24

func.func @mxfp8_k128_bf16(%a: tensor<4096x128xf8E4M3FN>, %sa: tensor<32x512xf8E8M0FNU>, %b: tensor<4096x128xf8E4M3FN>, %sb: tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>} : (tensor<4096x128xf8E4M3FN>, tensor<32x512xf8E8M0FNU>, tensor<4096x128xf8E4M3FN>, tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @mxfp8_mn_k128_bf16(%a: tensor<128x4096xf8E4M3FN>, %sa: tensor<32x512xf8E8M0FNU>, %b: tensor<128x4096xf8E4M3FN>, %sb: tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 0, 0>} : (tensor<128x4096xf8E4M3FN>, tensor<32x512xf8E8M0FNU>, tensor<128x4096xf8E4M3FN>, tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @blockwise_k128_bf16(%a: tensor<4096x128xf8E4M3FN>, %sa: tensor<4096x1xf32>, %b: tensor<4096x128xf8E4M3FN>, %sb: tensor<32x1xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x128xf8E4M3FN>, tensor<4096x1xf32>, tensor<4096x128xf8E4M3FN>, tensor<32x1xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @tensorwise_k128_bf16(%a: tensor<4096x128xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x128xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [4096, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [4096, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x128xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x128xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @mxfp8_k128_f32(%a: tensor<4096x128xf8E4M3FN>, %sa: tensor<32x512xf8E8M0FNU>, %b: tensor<4096x128xf8E4M3FN>, %sb: tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>} : (tensor<4096x128xf8E4M3FN>, tensor<32x512xf8E8M0FNU>, tensor<4096x128xf8E4M3FN>, tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @mxfp8_mn_k128_f32(%a: tensor<128x4096xf8E4M3FN>, %sa: tensor<32x512xf8E8M0FNU>, %b: tensor<128x4096xf8E4M3FN>, %sb: tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 0, 0>} : (tensor<128x4096xf8E4M3FN>, tensor<32x512xf8E8M0FNU>, tensor<128x4096xf8E4M3FN>, tensor<32x512xf8E8M0FNU>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @blockwise_k128_f32(%a: tensor<4096x128xf8E4M3FN>, %sa: tensor<4096x1xf32>, %b: tensor<4096x128xf8E4M3FN>, %sb: tensor<32x1xf32>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x128xf8E4M3FN>, tensor<4096x1xf32>, tensor<4096x128xf8E4M3FN>, tensor<32x1xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @tensorwise_k128_f32(%a: tensor<4096x128xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x128xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [4096, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [4096, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x128xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x128xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @mxfp8_k384_bf16(%a: tensor<4096x384xf8E4M3FN>, %sa: tensor<96x512xf8E8M0FNU>, %b: tensor<4096x384xf8E4M3FN>, %sb: tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>} : (tensor<4096x384xf8E4M3FN>, tensor<96x512xf8E8M0FNU>, tensor<4096x384xf8E4M3FN>, tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @mxfp8_mn_k384_bf16(%a: tensor<384x4096xf8E4M3FN>, %sa: tensor<96x512xf8E8M0FNU>, %b: tensor<384x4096xf8E4M3FN>, %sb: tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 0, 0>} : (tensor<384x4096xf8E4M3FN>, tensor<96x512xf8E8M0FNU>, tensor<384x4096xf8E4M3FN>, tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @blockwise_k384_bf16(%a: tensor<4096x384xf8E4M3FN>, %sa: tensor<4096x3xf32>, %b: tensor<4096x384xf8E4M3FN>, %sb: tensor<32x3xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x384xf8E4M3FN>, tensor<4096x3xf32>, tensor<4096x384xf8E4M3FN>, tensor<32x3xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @tensorwise_k384_bf16(%a: tensor<4096x384xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x384xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [4096, 384], scale = f32>, b_scaling = #fp8.scaling<tile = [4096, 384], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x384xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x384xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @mxfp8_k384_f32(%a: tensor<4096x384xf8E4M3FN>, %sa: tensor<96x512xf8E8M0FNU>, %b: tensor<4096x384xf8E4M3FN>, %sb: tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>} : (tensor<4096x384xf8E4M3FN>, tensor<96x512xf8E8M0FNU>, tensor<4096x384xf8E4M3FN>, tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @mxfp8_mn_k384_f32(%a: tensor<384x4096xf8E4M3FN>, %sa: tensor<96x512xf8E8M0FNU>, %b: tensor<384x4096xf8E4M3FN>, %sb: tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 0, 0>} : (tensor<384x4096xf8E4M3FN>, tensor<96x512xf8E8M0FNU>, tensor<384x4096xf8E4M3FN>, tensor<96x512xf8E8M0FNU>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @blockwise_k384_f32(%a: tensor<4096x384xf8E4M3FN>, %sa: tensor<4096x3xf32>, %b: tensor<4096x384xf8E4M3FN>, %sb: tensor<32x3xf32>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x384xf8E4M3FN>, tensor<4096x3xf32>, tensor<4096x384xf8E4M3FN>, tensor<32x3xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @tensorwise_k384_f32(%a: tensor<4096x384xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x384xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [4096, 384], scale = f32>, b_scaling = #fp8.scaling<tile = [4096, 384], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x384xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x384xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @mxfp8_k7168_bf16(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<1792x512xf8E8M0FNU>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>} : (tensor<4096x7168xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>, tensor<4096x7168xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @mxfp8_mn_k7168_bf16(%a: tensor<7168x4096xf8E4M3FN>, %sa: tensor<1792x512xf8E8M0FNU>, %b: tensor<7168x4096xf8E4M3FN>, %sb: tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 0, 0>} : (tensor<7168x4096xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>, tensor<7168x4096xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @blockwise_k7168_bf16(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<4096x56xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<32x56xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x7168xf8E4M3FN>, tensor<4096x56xf32>, tensor<4096x7168xf8E4M3FN>, tensor<32x56xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @tensorwise_k7168_bf16(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xbf16> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [4096, 7168], scale = f32>, b_scaling = #fp8.scaling<tile = [4096, 7168], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x7168xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x7168xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xbf16>
  return %y : tensor<4096x4096xbf16>
}

func.func @mxfp8_k7168_f32(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<1792x512xf8E8M0FNU>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>} : (tensor<4096x7168xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>, tensor<4096x7168xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @mxfp8_mn_k7168_f32(%a: tensor<7168x4096xf8E4M3FN>, %sa: tensor<1792x512xf8E8M0FNU>, %b: tensor<7168x4096xf8E4M3FN>, %sb: tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scale_layout = #fp8.scale_layout<tcgen05>, a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, b_scale_layout = #fp8.scale_layout<tcgen05>, b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 0, 0>} : (tensor<7168x4096xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>, tensor<7168x4096xf8E4M3FN>, tensor<1792x512xf8E8M0FNU>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @blockwise_k7168_f32(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<4096x56xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<32x56xf32>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x7168xf8E4M3FN>, tensor<4096x56xf32>, tensor<4096x7168xf8E4M3FN>, tensor<32x56xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}

func.func @tensorwise_k7168_f32(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xf32> {
  %y = fp8.scaled_matmul %a, %sa, %b, %sb {a_scaling = #fp8.scaling<tile = [4096, 7168], scale = f32>, b_scaling = #fp8.scaling<tile = [4096, 7168], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<4096x7168xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x7168xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xf32>
  return %y : tensor<4096x4096xf32>
}
