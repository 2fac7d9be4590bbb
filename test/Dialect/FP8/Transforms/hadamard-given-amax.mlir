// RUN: fp8-opt %s -verify-diagnostics --fp8-insert-hadamard=size=32

// A quantization whose amax the IR gives (not the delayed-scaling chain of
// fp8-quantize-matmuls) has the amax of unrotated data: no rotation.
func.func @given(%x: tensor<64x64xbf16>, %w: tensor<64x64xbf16>, %a: tensor<1x1xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{'fp8.quantize' op fp8-insert-hadamard cannot rotate a quantization whose amax is given: the amax would be that of the unrotated data}}
  %qx, %sx = fp8.quantize %x amax(%a : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<64x64xbf16> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  %qw, %sw = fp8.quantize %w {scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<64x64xbf16> -> tensor<64x64xf8E4M3FN>, tensor<1x1xf32>
  %y = fp8.scaled_matmul %qx, %sx, %qw, %sw {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, fp8.matmul = "fprop"}
      : (tensor<64x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}
