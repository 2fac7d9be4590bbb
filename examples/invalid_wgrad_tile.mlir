// A common mistake: reusing Fprop's 1x128-quantized X for Wgrad. Wgrad
// contracts X along its rows, where a 1x128 tile changes scale at every
// element, so the verifier rejects it.
func.func @wgrad_reusing_fprop_x(%dy: tensor<256x1024xf8E4M3FN>, %sdy: tensor<2x1024xf32>,
                                 %x: tensor<256x512xf8E4M3FN>, %sx: tensor<256x4xf32>)
    -> tensor<1024x512xf32> {
  %dw = fp8.scaled_matmul %dy, %sdy, %x, %sx {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x1024xf8E4M3FN>, tensor<2x1024xf32>,
         tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) -> tensor<1024x512xf32>
  return %dw : tensor<1024x512xf32>
}
