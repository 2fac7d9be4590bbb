// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s

// One scale for the whole tensor: its fp8.transpose is exact, and the
// quantization and the transpose become one fp8.quantize_transpose (the
// tensorwise cast-transpose), with the quantization's role.
// CHECK-LABEL: func.func @tensorwise(
// CHECK-SAME:    %[[X:.*]]: tensor<128x192xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[QT:.*]], %[[ST:.*]] = fp8.quantize_transpose %[[X]] {fp8.role = "gradient", scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<128x192xbf16> -> tensor<128x192xf8E5M2>, tensor<1x1xf32>, tensor<192x128xf8E5M2>, tensor<1x1xf32>
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[QT]], %[[ST]]
func.func @tensorwise(%x: tensor<128x192xbf16>) -> (tensor<128x192xf8E5M2>, tensor<1x1xf32>, tensor<192x128xf8E5M2>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x {fp8.role = "gradient", scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<128x192xbf16> -> tensor<128x192xf8E5M2>, tensor<1x1xf32>
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<128x192xf8E5M2>, tensor<1x1xf32> -> tensor<192x128xf8E5M2>, tensor<1x1xf32>
  return %q, %s, %qt, %st : tensor<128x192xf8E5M2>, tensor<1x1xf32>, tensor<192x128xf8E5M2>, tensor<1x1xf32>
}

// -----

// Dims that are not multiples of 64 (the kernel's tiles), a given amax
// (delayed scaling) and square tiles the block cast-transpose does not
// take (32x32) stay unfused.
// CHECK-LABEL: func.func @unfused
// CHECK-NOT: fp8.quantize_transpose
// CHECK-COUNT-3: fp8.transpose
func.func @unfused(%x: tensor<112x64xbf16>, %y: tensor<128x128xbf16>, %amax: tensor<1x1xf32>)
    -> (tensor<64x112xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<112x64xbf16> -> tensor<112x64xf8E4M3FN>, tensor<1x1xf32>
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<112x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x112xf8E4M3FN>, tensor<1x1xf32>
  %d, %ds = fp8.quantize %y amax(%amax : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<1x1xf32>
  %dt, %dst = fp8.transpose %d, %ds {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<128x128xf8E4M3FN>, tensor<1x1xf32> -> tensor<128x128xf8E4M3FN>, tensor<1x1xf32>
  %b, %bs = fp8.quantize %y {scaling = #fp8.scaling<tile = [32, 32], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<4x4xf32>
  %bt, %bst = fp8.transpose %b, %bs {scaling = #fp8.scaling<tile = [32, 32], scale = f32>}
      : tensor<128x128xf8E4M3FN>, tensor<4x4xf32> -> tensor<128x128xf8E4M3FN>, tensor<4x4xf32>
  return %qt, %dt, %bt : tensor<64x112xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
}

// -----

// A quantization that took its elementwise producer keeps its transpose:
// the tensorwise cast-transpose reads no producer.
// CHECK-LABEL: func.func @producer_first
// CHECK: fp8.quantize_elementwise
// CHECK: fp8.transpose
// CHECK-NOT: fp8.quantize_transpose
func.func @producer_first(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>) {
  %e = tensor.empty() : tensor<128x128xbf16>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%e : tensor<128x128xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %s = arith.addf %x, %y : bf16
    linalg.yield %s : bf16
  } -> tensor<128x128xbf16>
  %q, %s = fp8.quantize %sum {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<1x1xf32>
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<128x128xf8E4M3FN>, tensor<1x1xf32> -> tensor<128x128xf8E4M3FN>, tensor<1x1xf32>
  return %q, %qt : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
}

// -----

// Square tiles of 128 (blockwise weights) or 64: each tile's transpose is a
// tile of the transpose with the same amax, so the fp8.transpose is exact
// and the two become one fp8.quantize_transpose (the block cast-transpose),
// f32 input included.
// CHECK-LABEL: func.func @square_tiles(
// CHECK-SAME:    %[[W:.*]]: tensor<256x384xbf16>, %[[V:.*]]: tensor<128x64xf32>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[QT:.*]], %[[ST:.*]] = fp8.quantize_transpose %[[W]] {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>
// CHECK-NEXT:    %{{.*}}, %{{.*}}, %[[VT:.*]], %{{.*}} = fp8.quantize_transpose %[[V]] {scaling = #fp8.scaling<tile = [64, 64], scale = f32>}
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[QT]], %[[ST]], %[[VT]]
func.func @square_tiles(%w: tensor<256x384xbf16>, %v: tensor<128x64xf32>)
    -> (tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>, tensor<64x128xf8E4M3FN>) {
  %q, %s = fp8.quantize %w {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<2x3xf32>
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x384xf8E4M3FN>, tensor<2x3xf32> -> tensor<384x256xf8E4M3FN>, tensor<3x2xf32>
  %p, %ps = fp8.quantize %v {scaling = #fp8.scaling<tile = [64, 64], scale = f32>}
      : tensor<128x64xf32> -> tensor<128x64xf8E4M3FN>, tensor<2x1xf32>
  %pt, %pst = fp8.transpose %p, %ps {scaling = #fp8.scaling<tile = [64, 64], scale = f32>}
      : tensor<128x64xf8E4M3FN>, tensor<2x1xf32> -> tensor<64x128xf8E4M3FN>, tensor<1x2xf32>
  return %q, %s, %qt, %st, %pt : tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>, tensor<64x128xf8E4M3FN>
}
