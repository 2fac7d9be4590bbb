// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization=scales=false | FileCheck %s --check-prefix=OFF

// An MX quantization's 1x32 E8M0 scales re-laid for sm_100a's tcgen05 MMA
// (130 rows x 5 K-blocks: 2 x 2 chunks of 512 bytes): the quantization
// stores the chunks itself, and fp8.tcgen05_scales goes.
// CHECK-LABEL: func.func @plain(
// CHECK-SAME:    %[[X:.*]]: tensor<130x160xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %[[X]] {fp8.role = "activation", indexing_maps = [#map], scale_layout = #fp8.scale_layout<tcgen05>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>} : tensor<130x160xbf16> -> tensor<130x160xf8E4M3FN>, tensor<4x512xf8E8M0FNU> {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: bf16):
// CHECK-NEXT:      fp8.yield %[[V]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]]
// OFF-LABEL: func.func @plain(
// OFF:         fp8.tcgen05_scales
func.func @plain(%x: tensor<130x160xbf16>) -> (tensor<130x160xf8E4M3FN>, tensor<4x512xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<130x160xbf16> -> tensor<130x160xf8E4M3FN>, tensor<130x5xf8E8M0FNU>
  %sf = fp8.tcgen05_scales %s : tensor<130x5xf8E8M0FNU> -> tensor<4x512xf8E8M0FNU>
  return %q, %sf : tensor<130x160xf8E4M3FN>, tensor<4x512xf8E8M0FNU>
}

// -----

// A fused producer's scales too.
// CHECK-LABEL: func.func @producer(
// CHECK:         fp8.quantize_elementwise %{{.*}} {indexing_maps = [#map], scale_layout = #fp8.scale_layout<tcgen05>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU> {
// CHECK:           math.tanh
// CHECK-NOT:     fp8.tcgen05_scales
func.func @producer(%h: tensor<128x256xbf16>) -> (tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>) {
  %t = math.tanh %h : tensor<128x256xbf16>
  %q, %s = fp8.quantize %t {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>
  %sf = fp8.tcgen05_scales %s : tensor<128x8xf8E8M0FNU> -> tensor<2x512xf8E8M0FNU>
  return %q, %sf : tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>
}

// -----

// Not fused: row-major scales something else reads too, a stochastic
// quantization, a given amax, and 1x64 E8M0 tiles (not MX: the chunks of
// those scales are no tcgen05 operand's).
// CHECK-LABEL: func.func @not_fused(
// CHECK-COUNT-4: fp8.tcgen05_scales
// CHECK-NOT:     scale_layout
func.func @not_fused(%x: tensor<128x256xbf16>, %seed: i64, %amax: tensor<128x8xf32>)
    -> (tensor<128x8xf8E8M0FNU>, tensor<2x512xf8E8M0FNU>, tensor<2x512xf8E8M0FNU>, tensor<2x512xf8E8M0FNU>,
        tensor<1x512xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>
  %a = fp8.tcgen05_scales %s : tensor<128x8xf8E8M0FNU> -> tensor<2x512xf8E8M0FNU>
  %q2, %s2 = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>
  %a2 = fp8.tcgen05_scales %s2 : tensor<128x8xf8E8M0FNU> -> tensor<2x512xf8E8M0FNU>
  %q3, %s3 = fp8.quantize %x amax(%amax : tensor<128x8xf32>) {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>
  %a3 = fp8.tcgen05_scales %s3 : tensor<128x8xf8E8M0FNU> -> tensor<2x512xf8E8M0FNU>
  %q4, %s4 = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 64], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x4xf8E8M0FNU>
  %a4 = fp8.tcgen05_scales %s4 : tensor<128x4xf8E8M0FNU> -> tensor<1x512xf8E8M0FNU>
  return %s, %a, %a2, %a3, %a4
      : tensor<128x8xf8E8M0FNU>, tensor<2x512xf8E8M0FNU>, tensor<2x512xf8E8M0FNU>, tensor<2x512xf8E8M0FNU>,
        tensor<1x512xf8E8M0FNU>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Nor the scales of a quantization with its transpose: the transposing
// kernel stores row_major or col_major_tma.
// CHECK-LABEL: func.func @transpose(
// CHECK:         fp8.tcgen05_scales
// CHECK-NOT:     scale_layout
func.func @transpose(%x: tensor<128x256xbf16>) -> (tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>, tensor<256x128xf8E4M3FN>, tensor<256x4xf8E8M0FNU>) {
  %q, %s, %qt, %st = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, transpose}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>, tensor<256x128xf8E4M3FN>, tensor<256x4xf8E8M0FNU> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  %sf = fp8.tcgen05_scales %s : tensor<128x8xf8E8M0FNU> -> tensor<2x512xf8E8M0FNU>
  return %q, %sf, %qt, %st : tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>, tensor<256x128xf8E4M3FN>, tensor<256x4xf8E8M0FNU>
}
