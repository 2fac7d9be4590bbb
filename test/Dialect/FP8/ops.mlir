// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

// Fprop of a DeepSeek-V3 blockwise linear layer: 1x128 activations, 128x128
// weights; every op keeps its custom form through a round trip.
// CHECK-LABEL: func.func @fprop_blockwise
// CHECK-SAME: %[[X:.*]]: tensor<256x512xbf16> {fp8.role = "activation"}
// CHECK-SAME: %[[W:.*]]: tensor<1024x512xbf16> {fp8.role = "weight"}
func.func @fprop_blockwise(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                           %w: tensor<1024x512xbf16> {fp8.role = "weight"})
    -> tensor<256x1024xbf16> {
  // CHECK: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %[[X]] {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  // CHECK: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %[[W]] {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
  %wq, %ws = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<1024x512xbf16> -> tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>
  // CHECK: fp8.scaled_matmul %[[XQ]], %[[XS]], %[[WQ]], %[[WS]] {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>
  %y = fp8.scaled_matmul %xq, %xs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
         tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>
  return %y : tensor<256x1024xbf16>
}

// Scales in the layout a Hopper GEMM loads with TMA: tma_align_scales
// transposes them and pads each row to 16 bytes (250 f32 rows to 252, 3 E8M0
// rows to 16, a dynamic row count stays dynamic), its result is named
// %tma_scale, and a scaled_matmul reads them with a_scale_layout /
// b_scale_layout = col_major_tma; a row_major layout, the default, is not
// printed.
// CHECK-LABEL: func.func @tma_aligned_scales
func.func @tma_aligned_scales(%a: tensor<250x512xf8E4M3FN>, %sa: tensor<250x4xf32>,
                              %b: tensor<64x512xf8E4M3FN>, %sb: tensor<64x4xf32>,
                              %e: tensor<3x20xf8E8M0FNU>, %d: tensor<?x4xf32>)
    -> (tensor<250x64xf32>, tensor<250x64xbf16>, tensor<20x16xf8E8M0FNU>, tensor<4x?xf32>) {
  // CHECK: %[[SAT:.*]] = fp8.tma_align_scales %{{.*}} : tensor<250x4xf32> -> tensor<4x252xf32>
  %sat = fp8.tma_align_scales %sa : tensor<250x4xf32> -> tensor<4x252xf32>
  // CHECK: %[[SBT:.*]] = fp8.tma_align_scales %{{.*}} : tensor<64x4xf32> -> tensor<4x64xf32>
  %sbt = fp8.tma_align_scales %sb : tensor<64x4xf32> -> tensor<4x64xf32>
  // CHECK: fp8.scaled_matmul %{{.*}}, %[[SAT]], %{{.*}}, %[[SBT]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scale_layout = #fp8.scale_layout<col_major_tma>, b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<250x512xf8E4M3FN>, tensor<4x252xf32>, tensor<64x512xf8E4M3FN>, tensor<4x64xf32>) -> tensor<250x64xf32>
  %c = fp8.scaled_matmul %a, %sat, %b, %sbt {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scale_layout = #fp8.scale_layout<col_major_tma>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<250x512xf8E4M3FN>, tensor<4x252xf32>,
         tensor<64x512xf8E4M3FN>, tensor<4x64xf32>) -> tensor<250x64xf32>
  // CHECK: fp8.scaled_matmul %{{.*}}, %[[SAT]], %{{.*}}, %{{.*}} {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [*, *], scale = f32>, contracting = array<i64: 1, 1>}
  %sw = arith.constant dense<1.0> : tensor<1x1xf32>
  %y = fp8.scaled_matmul %a, %sat, %b, %sw {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scale_layout = #fp8.scale_layout<row_major>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<250x512xf8E4M3FN>, tensor<4x252xf32>,
         tensor<64x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<250x64xbf16>
  // CHECK: fp8.tma_align_scales %{{.*}} : tensor<3x20xf8E8M0FNU> -> tensor<20x16xf8E8M0FNU>
  %et = fp8.tma_align_scales %e : tensor<3x20xf8E8M0FNU> -> tensor<20x16xf8E8M0FNU>
  // CHECK: fp8.tma_align_scales %{{.*}} : tensor<?x4xf32> -> tensor<4x?xf32>
  %dt = fp8.tma_align_scales %d : tensor<?x4xf32> -> tensor<4x?xf32>
  return %c, %y, %et, %dt : tensor<250x64xf32>, tensor<250x64xbf16>, tensor<20x16xf8E8M0FNU>, tensor<4x?xf32>
}

// The result of tma_align_scales is named after what it holds.
// CHECK-LABEL: func.func @tma_scale_name
// CHECK: %tma_scale = fp8.tma_align_scales
func.func @tma_scale_name(%s: tensor<8x2xf32>) -> tensor<2x8xf32> {
  %t = fp8.tma_align_scales %s : tensor<8x2xf32> -> tensor<2x8xf32>
  return %t : tensor<2x8xf32>
}

// Dgrad reuses the square-tiled weight through a lossless transpose of data
// and scales; the gradient is e5m2 with fast accumulation.
// CHECK-LABEL: func.func @dgrad_transposed_weight
func.func @dgrad_transposed_weight(%dyq: tensor<256x1024xf8E5M2>, %dys: tensor<256x8xf32>,
                                   %wq: tensor<1024x512xf8E4M3FN>, %ws: tensor<8x4xf32>)
    -> tensor<256x512xf32> {
  // CHECK: %[[WT:.*]], %[[WTS:.*]] = fp8.transpose %{{.*}}, %{{.*}} {scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<1024x512xf8E4M3FN>, tensor<8x4xf32> -> tensor<512x1024xf8E4M3FN>, tensor<4x8xf32>
  %wt, %wts = fp8.transpose %wq, %ws {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<1024x512xf8E4M3FN>, tensor<8x4xf32> -> tensor<512x1024xf8E4M3FN>, tensor<4x8xf32>
  // CHECK: fp8.scaled_matmul {{.*}} {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, accumulate = #fp8.accumulate<fast>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>}
  %dx = fp8.scaled_matmul %dyq, %dys, %wt, %wts {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        accumulate = #fp8.accumulate<fast>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x1024xf8E5M2>, tensor<256x8xf32>,
         tensor<512x1024xf8E4M3FN>, tensor<4x8xf32>) -> tensor<256x512xf32>
  return %dx : tensor<256x512xf32>
}

// Wgrad contracts both operands along their rows (storage dim 0): 128x1
// tiles are legal there, and the default accumulation is not printed.
// CHECK-LABEL: func.func @wgrad_columnwise
func.func @wgrad_columnwise(%dyq: tensor<256x1024xf8E4M3FN>, %dys: tensor<2x1024xf32>,
                            %xq: tensor<256x512xf8E4M3FN>, %xs: tensor<2x512xf32>)
    -> tensor<1024x512xf32> {
  // CHECK: fp8.scaled_matmul {{.*}} {a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>, contracting = array<i64: 0, 0>}
  // CHECK-SAME: -> tensor<1024x512xf32>
  %dw = fp8.scaled_matmul %dyq, %dys, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        accumulate = #fp8.accumulate<promoted>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x1024xf8E4M3FN>, tensor<2x1024xf32>,
         tensor<256x512xf8E4M3FN>, tensor<2x512xf32>) -> tensor<1024x512xf32>
  return %dw : tensor<1024x512xf32>
}

// MXFP8 with E8M0 scales, a partial edge tile (100 columns, 1x32 tiles give 4
// scales), delayed amax and stochastic rounding with a seed.
// CHECK-LABEL: func.func @mxfp8_quantize_variants
func.func @mxfp8_quantize_variants(%x: tensor<64x100xf32>, %a: tensor<64x4xf32>, %seed: i64)
    -> (tensor<64x100xf8E4M3FN>, tensor<64x4xf8E8M0FNU>, tensor<64x100xf8E5M2>, tensor<64x4xf32>) {
  // CHECK: fp8.quantize %{{.*}} amax(%{{.*}} : tensor<64x4xf32>) {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
  %q, %s = fp8.quantize %x amax(%a : tensor<64x4xf32>) {
        margin = 1 : i64,
        scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<64x100xf32> -> tensor<64x100xf8E4M3FN>, tensor<64x4xf8E8M0FNU>
  // CHECK: fp8.quantize %{{.*}} seed(%{{.*}}) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f32, round = pow2_floor>}
  %g, %gs = fp8.quantize %x seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [1, 32], scale = f32, round = pow2_floor>}
      : tensor<64x100xf32> -> tensor<64x100xf8E5M2>, tensor<64x4xf32>
  return %q, %s, %g, %gs : tensor<64x100xf8E4M3FN>, tensor<64x4xf8E8M0FNU>, tensor<64x100xf8E5M2>, tensor<64x4xf32>
}

// Dequantize, amax, requantize (blockwise f32 to MXFP8 E8M0) and hadamard.
// CHECK-LABEL: func.func @helpers
func.func @helpers(%x: tensor<256x512xbf16>, %q: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>, %seed: i64) {
  // CHECK: fp8.dequantize %{{.*}}, %{{.*}} {scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<256x512xbf16>
  %d = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<256x512xbf16>
  // CHECK: fp8.amax %{{.*}} {tile = #fp8.tile<[*, *]>} : tensor<256x512xbf16> -> tensor<1x1xf32>
  %a = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<256x512xbf16> -> tensor<1x1xf32>
  // CHECK: fp8.amax %{{.*}} {tile = #fp8.tile<[1, 128]>} : tensor<256x512xbf16> -> tensor<256x4xf32>
  %ab = fp8.amax %x {tile = #fp8.tile<[1, 128]>} : tensor<256x512xbf16> -> tensor<256x4xf32>
  // CHECK: fp8.requantize %{{.*}}, %{{.*}} {scaling = #fp8.scaling<tile = [128, 128], scale = f32>, to = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
  %m, %ms = fp8.requantize %q, %s {
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        to = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>
  // CHECK: fp8.requantize %{{.*}}, %{{.*}} seed(%{{.*}}) {rounding = #fp8.rounding<stochastic>
  %r, %rs = fp8.requantize %q, %s seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        to = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<256x512xf8E5M2>, tensor<1x1xf32>
  // CHECK: fp8.hadamard %{{.*}} {dim = 1 : i64, seed = 7 : i64, size = 128 : i64} : tensor<256x512xbf16>
  %h = fp8.hadamard %x {dim = 1 : i64, size = 128 : i64, seed = 7 : i64} : tensor<256x512xbf16>
  return
}

// A leading batch dimension is scaled per batch element; dynamic extents are
// accepted where the tile does not span them.
// CHECK-LABEL: func.func @batched_dynamic
func.func @batched_dynamic(%a: tensor<4x?x512xf8E4M3FN>, %sa: tensor<4x?x1xf32>,
                           %b: tensor<4x512x64xf8E4M3FN>, %sb: tensor<4x4x64xf32>)
    -> tensor<4x?x64xf32> {
  // CHECK: fp8.scaled_matmul {{.*}} : (tensor<4x?x512xf8E4M3FN>, tensor<4x?x1xf32>, tensor<4x512x64xf8E4M3FN>, tensor<4x4x64xf32>) -> tensor<4x?x64xf32>
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<4x?x512xf8E4M3FN>, tensor<4x?x1xf32>,
         tensor<4x512x64xf8E4M3FN>, tensor<4x4x64xf32>) -> tensor<4x?x64xf32>
  return %c : tensor<4x?x64xf32>
}

// The cast-transpose that fp8-fuse-quantization makes: X and Xᵀ quantized
// alike, margin and role kept.
// CHECK-LABEL: func.func @quantize_transpose
func.func @quantize_transpose(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E5M2>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>) {
  // CHECK: %q, %scale, %qt, %scale_t = fp8.quantize_transpose %{{.*}} {fp8.role = "gradient", margin = 2 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x384xbf16> -> tensor<256x384xf8E5M2>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
  %q, %s, %qt, %st = fp8.quantize_transpose %x {fp8.role = "gradient", margin = 2 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E5M2>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E5M2>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
}

// MXFP8 scales in sm_100a's tcgen05 scale-factor layout: 250 rows and 16
// K-blocks make 2 x 4 chunks of 512 bytes.
// CHECK-LABEL: func.func @tcgen05_scales
func.func @tcgen05_scales(%s: tensor<250x16xf8E8M0FNU>) -> tensor<8x512xf8E8M0FNU> {
  // CHECK: %sf = fp8.tcgen05_scales %{{.*}} : tensor<250x16xf8E8M0FNU> -> tensor<8x512xf8E8M0FNU>
  %sf = fp8.tcgen05_scales %s : tensor<250x16xf8E8M0FNU> -> tensor<8x512xf8E8M0FNU>
  return %sf : tensor<8x512xf8E8M0FNU>
}

// The monitored quantization keeps its custom form, given amax included.
// CHECK-LABEL: func.func @quantize_monitored
// CHECK: %[[Q:.*]], %[[S:.*]], %[[A:.*]], %[[N:.*]] = fp8.quantize_monitored %{{.*}} amax(%{{.*}} : tensor<2x2xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<2x256xbf16> -> tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi64>
func.func @quantize_monitored(%x: tensor<2x256xbf16>, %a: tensor<2x2xf32>) -> tensor<2xi64> {
  %q, %s, %ta, %n = fp8.quantize_monitored %x amax(%a : tensor<2x2xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<2x256xbf16> -> tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi64>
  return %n : tensor<2xi64>
}
