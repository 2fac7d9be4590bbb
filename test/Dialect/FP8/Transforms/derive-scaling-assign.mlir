// RUN: fp8-opt %s --fp8-derive-scaling | FileCheck %s

// A hand-written matmul whose weight was quantized tensorwise under a
// blockwise recipe gets the 128x128 tile the rule derives for it; the
// tensorwise quantization, now unused, is removed.
// CHECK-LABEL: func.func @assign
// CHECK-NOT: tile = [*, *]
// CHECK: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %arg2 {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
// CHECK: fp8.scaled_matmul %arg0, %arg1, %[[WQ]], %[[WS]] {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>
func.func @assign(%xq: tensor<64x512xf8E4M3FN>, %xs: tensor<64x4xf32>,
                  %w: tensor<256x512xbf16>) -> tensor<64x256xf32>
    attributes {fp8.recipe = #fp8.recipe<blockwise>} {
  %wq, %ws = fp8.quantize %w {fp8.role = "weight", scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<1x1xf32>
  %y = fp8.scaled_matmul %xq, %xs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, fp8.matmul = "fprop"}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<256x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}

// A hand-written quantization of a transposed weight with square tiles is
// the lossless fp8.transpose of the weight's own quantization.
// (fp8-quantize-matmuls no longer writes this form: it quantizes the
// stored tensor contracted along the other dim.)
// CHECK-LABEL: func.func @transposed_square
// CHECK-NOT: linalg.transpose {{.*}}fp8.quantize
// CHECK: %[[Q:.*]], %[[S:.*]] = fp8.quantize %arg2 {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<256x512xbf16>
// CHECK: %[[T:.*]], %[[TS:.*]] = fp8.transpose %[[Q]], %[[S]]
// CHECK: fp8.scaled_matmul %arg0, %arg1, %[[T]], %[[TS]]
func.func @transposed_square(%dyq: tensor<64x256xf8E4M3FN>, %dys: tensor<64x2xf32>,
                             %w: tensor<256x512xbf16>) -> tensor<64x512xf32>
    attributes {fp8.recipe = #fp8.recipe<blockwise>} {
  %e = tensor.empty() : tensor<512x256xbf16>
  %wt = linalg.transpose ins(%w : tensor<256x512xbf16>) outs(%e : tensor<512x256xbf16>) permutation = [1, 0]
  %wq, %ws = fp8.quantize %wt {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<512x256xbf16> -> tensor<512x256xf8E4M3FN>, tensor<4x2xf32>
  %y = fp8.scaled_matmul %dyq, %dys, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>, fp8.matmul = "dgrad"}
      : (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>, tensor<512x256xf8E4M3FN>, tensor<4x2xf32>) -> tensor<64x512xf32>
  return %y : tensor<64x512xf32>
}
