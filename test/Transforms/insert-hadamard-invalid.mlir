// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard=size=64

// The rotation must tile the contracted dim.
func.func @not_dividing(%x: tensor<64x96xbf16> {fp8.role = "activation"},
                        %w: tensor<32x96xbf16> {fp8.role = "weight"},
                        %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  // expected-error @+1 {{'fp8.scaled_matmul' op Hadamard size 64 does not divide the contracted extent 96}}
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<64x96xbf16>, tensor<32x96xbf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}
