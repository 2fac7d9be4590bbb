// RUN: fp8-opt %s -verify-diagnostics '--fp8-quantize-matmuls=recipe="#fp8.recipe<blockwise, high_precision = [fprop]>"'

// A recipe that keeps every matmul of the module in high precision is
// named in the module's warning.
// expected-warning @+1 {{fp8-quantize-matmuls quantized no matmul: 1 matmul(s) are kept in high precision by the recipe #fp8.recipe<blockwise, high_precision = [fprop]>}}
module {
  func.func @layer(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                   %w: tensor<256x128xbf16> {fp8.role = "weight"},
                   %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %y = linalg.matmul ins(%x, %w : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %y : tensor<64x128xf32>
  }
}
