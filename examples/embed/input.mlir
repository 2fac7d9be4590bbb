// The input of `make check-embed`: fp8-embed prints the `blockwise` preset,
// then parses, verifies and prints this file; FileCheck matches its output
// against the directives below.

// The preset's parameters, from C++ getters (DeepSeek-V3: 1x128 activations
// and gradients, 128x128 weights, f32 scales).
// CHECK:      recipe #fp8.recipe<blockwise>
// CHECK-NEXT:   activation: f8E4M3FN, tile [1, 128], scale f32, round exact
// CHECK-NEXT:   weight: f8E4M3FN, tile [128, 128], scale f32, round exact
// CHECK-NEXT:   gradient: f8E4M3FN, tile [1, 128], scale f32, round exact
// CHECK-NEXT:   amax: current
// CHECK-NEXT:   margin: 0
// CHECK-NEXT:   accumulate: promoted
// CHECK-NEXT:   hadamard: 0
// CHECK-NEXT:   stochastic gradients: no
// CHECK-NEXT:   high precision: none

// Fprop Y = X * W^T of one linear layer with blockwise scales, printed back
// in the custom assembly format.
// CHECK-LABEL: func.func @fprop
// CHECK:         %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %{{.*}} {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
// CHECK:         %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %{{.*}} {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
// CHECK:         %[[Y:.*]] = fp8.scaled_matmul %[[XQ]], %[[XS]], %[[WQ]], %[[WS]]
// CHECK:         return %[[Y]]
func.func @fprop(%x: tensor<256x512xbf16>, %w: tensor<1024x512xbf16>)
    -> tensor<256x1024xbf16> {
  %xq, %xs = fp8.quantize %x {
        scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  %wq, %ws = fp8.quantize %w {
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<1024x512xbf16> -> tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>
  %y = fp8.scaled_matmul %xq, %xs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
         tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>
  return %y : tensor<256x1024xbf16>
}
