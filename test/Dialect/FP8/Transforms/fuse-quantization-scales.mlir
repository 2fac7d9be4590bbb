// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization=scales=false | FileCheck %s --check-prefix=OFF

// The cast-transpose's two 1x128 scale matrices, each re-laid for TMA by
// fp8.tma_align_scales: the quantization stores both in col_major_tma
// itself, and the re-layouts go.
// CHECK-LABEL: func.func @cast_transpose(
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[QT:.*]], %[[ST:.*]] = fp8.quantize_transpose %{{.*}} {scale_layout = #fp8.scale_layout<col_major_tma>, scale_t_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<3x256xf32>, tensor<384x256xf8E4M3FN>, tensor<2x384xf32>
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[QT]], %[[ST]]
// OFF-LABEL: func.func @cast_transpose(
// OFF-COUNT-2: fp8.tma_align_scales
func.func @cast_transpose(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<3x256xf32>, tensor<384x256xf8E4M3FN>, tensor<2x384xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  %e = tensor.empty() : tensor<384x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x384xbf16>) outs(%e : tensor<384x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  %a = fp8.tma_align_scales %s : tensor<256x3xf32> -> tensor<3x256xf32>
  %at = fp8.tma_align_scales %st : tensor<384x2xf32> -> tensor<2x384xf32>
  return %q, %a, %qt, %at : tensor<256x384xf8E4M3FN>, tensor<3x256xf32>, tensor<384x256xf8E4M3FN>, tensor<2x384xf32>
}

// -----

// A plain quantization (98 rows: the re-laid rows are padded to 100)
// becomes the fp8.quantize_elementwise of the identity, the quantization
// whose scale layout is an attribute.
// CHECK-LABEL: func.func @plain(
// CHECK-SAME:    %[[X:.*]]: tensor<98x256xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %[[X]] {fp8.role = "gradient", indexing_maps = [#map], scale_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<98x256xbf16> -> tensor<98x256xf8E4M3FN>, tensor<2x100xf32> {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: bf16):
// CHECK-NEXT:      fp8.yield %[[V]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]]
func.func @plain(%x: tensor<98x256xbf16>) -> (tensor<98x256xf8E4M3FN>, tensor<2x100xf32>) {
  %q, %s = fp8.quantize %x {fp8.role = "gradient", scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<98x256xbf16> -> tensor<98x256xf8E4M3FN>, tensor<98x2xf32>
  %a = fp8.tma_align_scales %s : tensor<98x2xf32> -> tensor<2x100xf32>
  return %q, %a : tensor<98x256xf8E4M3FN>, tensor<2x100xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A fused producer's scales too.
// CHECK-LABEL: func.func @producer(
// CHECK:         fp8.quantize_elementwise %{{.*}} {indexing_maps = [#map], scale_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<2x128xf32> {
// CHECK:           math.tanh
// CHECK-NOT:     fp8.tma_align_scales
func.func @producer(%h: tensor<128x256xbf16>) -> (tensor<128x256xf8E4M3FN>, tensor<2x128xf32>) {
  %t = math.tanh %h : tensor<128x256xbf16>
  %q, %s = fp8.quantize %t {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %a = fp8.tma_align_scales %s : tensor<128x2xf32> -> tensor<2x128xf32>
  return %q, %a : tensor<128x256xf8E4M3FN>, tensor<2x128xf32>
}

// -----

// Not fused: row-major scales something else reads too, a stochastic
// quantization, a given amax.
// CHECK-LABEL: func.func @not_fused(
// CHECK-COUNT-3: fp8.tma_align_scales
// CHECK-NOT:     scale_layout
func.func @not_fused(%x: tensor<128x256xbf16>, %seed: i64, %amax: tensor<128x2xf32>)
    -> (tensor<128x2xf32>, tensor<2x128xf32>, tensor<2x128xf32>, tensor<2x128xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %a = fp8.tma_align_scales %s : tensor<128x2xf32> -> tensor<2x128xf32>
  %q2, %s2 = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %a2 = fp8.tma_align_scales %s2 : tensor<128x2xf32> -> tensor<2x128xf32>
  %q3, %s3 = fp8.quantize %x amax(%amax : tensor<128x2xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %a3 = fp8.tma_align_scales %s3 : tensor<128x2xf32> -> tensor<2x128xf32>
  return %s, %a, %a2, %a3 : tensor<128x2xf32>, tensor<2x128xf32>, tensor<2x128xf32>, tensor<2x128xf32>
}

// -----

// The re-layout fp8-legalize puts before a contiguous grouped GEMM is
// folded into the quantization as it is for a scaled_matmul: the scale
// store does not care who reads the scales.
// CHECK-LABEL: func.func @grouped(
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise {{.*}}scale_layout = #fp8.scale_layout<col_major_tma>{{.*}} -> tensor<1000x256xf8E4M3FN>, tensor<2x1000xf32>
// CHECK-NOT:     fp8.tma_align_scales
// CHECK:         fp8.grouped_scaled_matmul %[[Q]], %[[S]]
func.func @grouped(%x: tensor<1000x256xbf16>, %wq: tensor<4x128x256xf8E4M3FN>, %ws: tensor<4x1x2xf32>, %r: tensor<4xi32>) -> tensor<1000x128xbf16> {
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<1000x256xbf16> -> tensor<1000x256xf8E4M3FN>, tensor<1000x2xf32>
  %xst = fp8.tma_align_scales %xs : tensor<1000x2xf32> -> tensor<2x1000xf32>
  %y = fp8.grouped_scaled_matmul %xq, %xst, %wq, %ws, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<1000x256xf8E4M3FN>, tensor<2x1000xf32>, tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>, tensor<4xi32>) -> tensor<1000x128xbf16>
  return %y : tensor<1000x128xbf16>
}
