// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s

// The cast-transpose: X quantized 1x128 along its rows and along the rows of
// Xᵀ becomes one fp8.quantize_transpose of X, with the rows quantization's
// role, where the first of the two stood; the bf16 transpose and its
// destination go.
// CHECK-LABEL: func.func @cast_transpose(
// CHECK-SAME:    %[[X:.*]]: tensor<256x384xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[QT:.*]], %[[ST:.*]] = fp8.quantize_transpose %[[X]] {fp8.role = "activation", margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[QT]], %[[ST]]
func.func @cast_transpose(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>) {
  %e = tensor.empty() : tensor<384x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x384xbf16>) outs(%e : tensor<384x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  %q, %s = fp8.quantize %x {fp8.role = "activation", margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
}

// -----

// The bf16 transpose stays where something else reads it.
// CHECK-LABEL: func.func @transpose_kept(
// CHECK:         %[[XT:.*]] = linalg.transpose
// CHECK:         fp8.quantize_transpose
// CHECK:         return %[[XT]]
func.func @transpose_kept(%x: tensor<128x128xbf16>) -> (tensor<128x128xbf16>, tensor<128x128xf8E5M2>, tensor<128x128xf8E5M2>) {
  %e = tensor.empty() : tensor<128x128xbf16>
  %xt = linalg.transpose ins(%x : tensor<128x128xbf16>) outs(%e : tensor<128x128xbf16>) permutation = [1, 0]
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E5M2>, tensor<128x1xf32>
  %qt, %st = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E5M2>, tensor<128x1xf32>
  return %xt, %q, %qt : tensor<128x128xbf16>, tensor<128x128xf8E5M2>, tensor<128x128xf8E5M2>
}

// -----

// Not fused: what the cast-transpose does not compute, or not alike.
// CHECK-LABEL: func.func @not_fused(
// CHECK-NOT:     fp8.quantize_transpose
// CHECK:         return
func.func @not_fused(%x: tensor<256x256xbf16>, %y: tensor<256x200xbf16>, %amax: tensor<256x2xf32>, %seed: i64)
    -> (tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>,
        tensor<256x256xf8E5M2>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>,
        tensor<256x200xf8E4M3FN>, tensor<200x256xf8E4M3FN>) {
  %e = tensor.empty() : tensor<256x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x256xbf16>) outs(%e : tensor<256x256xbf16>) permutation = [1, 0]
  // Another tile (1x32, MXFP8-like) on both.
  %a, %as = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x8xf32>
  %b, %bs = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x8xf32>
  // A given amax (delayed scaling) on the rows; stochastic rounding on Xᵀ.
  %c, %cs = fp8.quantize %x amax(%amax : tensor<256x2xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  %d, %ds = fp8.quantize %xt seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  // Another FP8 type for Xᵀ than for X, or another margin.
  %f, %fs = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E5M2>, tensor<256x2xf32>
  %g, %gs = fp8.quantize %x {margin = 2 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  // E8M0 scales for X, f32 ones for Xᵀ.
  %h, %hs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf8E8M0FNU>
  %k, %ks = fp8.quantize %xt {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  // 200 columns: not whole 128x128 tiles of the kernel.
  %ye = tensor.empty() : tensor<200x256xbf16>
  %yt = linalg.transpose ins(%y : tensor<256x200xbf16>) outs(%ye : tensor<200x256xbf16>) permutation = [1, 0]
  %m, %ms = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x200xbf16> -> tensor<256x200xf8E4M3FN>, tensor<256x2xf32>
  %n, %ns = fp8.quantize %yt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<200x256xbf16> -> tensor<200x256xf8E4M3FN>, tensor<200x2xf32>
  return %a, %b, %c, %d, %f, %g, %h, %k, %m, %n
      : tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>,
        tensor<256x256xf8E5M2>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>, tensor<256x256xf8E4M3FN>,
        tensor<256x200xf8E4M3FN>, tensor<200x256xf8E4M3FN>
}

// -----

// Each quantization fuses once: two equal quantizations of Xᵀ and one of X
// give one fused op and leave the other quantization of Xᵀ.
// CHECK-LABEL: func.func @once(
// CHECK-COUNT-1: fp8.quantize_transpose
// CHECK-NOT:     fp8.quantize_transpose
// CHECK:         fp8.quantize %{{.*}} {scaling
// CHECK-NOT:     fp8.quantize_transpose
func.func @once(%x: tensor<128x256xbf16>) -> (tensor<128x256xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<256x128xf8E4M3FN>) {
  %e = tensor.empty() : tensor<256x128xbf16>
  %xt = linalg.transpose ins(%x : tensor<128x256xbf16>) outs(%e : tensor<256x128xbf16>) permutation = [1, 0]
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %a, %as = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>
  %b, %bs = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>
  return %q, %a, %b : tensor<128x256xf8E4M3FN>, tensor<256x128xf8E4M3FN>, tensor<256x128xf8E4M3FN>
}
