// fp8.quantize_elementwise round-trips, in custom and in generic form.
// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// A bias add quantized 1x128 and kept.
// CHECK-LABEL: func.func @bias_kept(
// CHECK:         %[[Q:.*]], %[[S:.*]], %[[K:.*]] = fp8.quantize_elementwise %{{.*}}, %{{.*}} {indexing_maps = [#map, #map1], scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x256xbf16>, tensor<256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>, tensor<256x256xbf16> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: bf16, %[[B:.*]]: bf16):
// CHECK-NEXT:      %[[R:.*]] = arith.addf %[[X]], %[[B]] : bf16
// CHECK-NEXT:      fp8.yield %[[R]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[K]]
func.func @bias_kept(%h: tensor<256x256xbf16>, %b: tensor<256xbf16>) -> (tensor<256x256xf8E4M3FN>, tensor<256x2xf32>, tensor<256x256xbf16>) {
  %q, %s, %k = fp8.quantize_elementwise %h, %b {indexing_maps = [#id, #row], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16>, tensor<256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>, tensor<256x256xbf16> {
  ^bb0(%x: bf16, %y: bf16):
    %r = arith.addf %x, %y : bf16
    fp8.yield %r : bf16
  }
  return %q, %s, %k : tensor<256x256xf8E4M3FN>, tensor<256x2xf32>, tensor<256x256xbf16>
}

// With the transpose, a margin and E8M0 scales, from f32 inputs to an f32
// produced value.
// CHECK-LABEL: func.func @transposed(
// CHECK:         %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = fp8.quantize_elementwise %{{.*}} {indexing_maps = [#map], margin = 2 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>, transpose} : tensor<128x256xf32> -> tensor<128x256xf8E5M2>, tensor<128x2xf8E8M0FNU>, tensor<256x128xf8E5M2>, tensor<256x1xf8E8M0FNU> {
// CHECK:           math.tanh
// CHECK:           fp8.yield %{{.*}} : f32
func.func @transposed(%x: tensor<128x256xf32>) -> (tensor<128x256xf8E5M2>, tensor<128x2xf8E8M0FNU>, tensor<256x128xf8E5M2>, tensor<256x1xf8E8M0FNU>) {
  %q, %s, %qt, %st = fp8.quantize_elementwise %x {indexing_maps = [#id], margin = 2 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>, transpose}
      : tensor<128x256xf32> -> tensor<128x256xf8E5M2>, tensor<128x2xf8E8M0FNU>, tensor<256x128xf8E5M2>, tensor<256x1xf8E8M0FNU> {
  ^bb0(%v: f32):
    %t = math.tanh %v : f32
    fp8.yield %t : f32
  }
  return %q, %s, %qt, %st : tensor<128x256xf8E5M2>, tensor<128x2xf8E8M0FNU>, tensor<256x128xf8E5M2>, tensor<256x1xf8E8M0FNU>
}
