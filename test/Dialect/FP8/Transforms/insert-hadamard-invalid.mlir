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

// -----
// expected-warning @-1 {{fp8-quantize-matmuls quantized no matmul}}

// A scaled_matmul (an Fprop, as fp8-quantize-matmuls marks them) of FP8
// the function was given: the rotation belongs before the quantization,
// which is not in this function.
func.func @given_fp8(%x: tensor<64x128xf8E4M3FN>, %sx: tensor<64x1xf32>,
                     %w: tensor<32x128xf8E4M3FN>, %sw: tensor<32x1xf32>) -> tensor<64x32xbf16> {
  // expected-error @+1 {{'fp8.scaled_matmul' op fp8-insert-hadamard needs both operands quantized by fp8.quantize in this function}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
         b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
         contracting = array<i64: 1, 1>, fp8.matmul = "fprop"}
      : (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<32x128xf8E4M3FN>, tensor<32x1xf32>) -> tensor<64x32xbf16>
  return %y : tensor<64x32xbf16>
}
