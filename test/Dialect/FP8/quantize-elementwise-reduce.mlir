// fp8.quantize_elementwise with `reduce` regions (RMSNorm's sum of
// squares) round-trips, in custom and in generic form.
// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// CHECK-LABEL: func.func @rmsnorm(
// CHECK:         %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %{{.*}}, %{{.*}} {indexing_maps = [#map, #map1], scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16>, tensor<512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32> {
// CHECK-NEXT:    ^bb0(%[[X:.*]]: bf16, %[[W:.*]]: bf16, %[[SS:.*]]: f32):
// CHECK-NEXT:      %[[R:.*]] = math.rsqrt %[[SS]] : f32
// CHECK:           fp8.yield %{{.*}} : bf16
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    ^bb0(%[[X2:.*]]: bf16, %{{.*}}: bf16, %{{.*}}: f32):
// CHECK-NEXT:      %[[F:.*]] = arith.extf %[[X2]] : bf16 to f32
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[F]], %[[F]] : f32
// CHECK-NEXT:      fp8.yield %[[SQ]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]]
func.func @rmsnorm(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) {
  %q, %s = fp8.quantize_elementwise %x, %w {indexing_maps = [#id, #row], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16>, tensor<512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32> {
  ^bb0(%a: bf16, %g: bf16, %ss: f32):
    %r = math.rsqrt %ss : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    fp8.yield %b : bf16
  } reduce {
  ^bb0(%a: bf16, %g: bf16, %ss: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    fp8.yield %sq : f32
  }
  return %q, %s : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
}
