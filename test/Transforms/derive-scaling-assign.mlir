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
