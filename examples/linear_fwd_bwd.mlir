// One linear layer in training, in bf16: X (M x K) activations, W (N x K)
// weights, dY (M x N) gradients from the layer above.
//   Fprop  Y  = X  * W^T   contracts K: X along its cols, W along its cols
//   Dgrad  dX = dY * W     contracts N: dY along its cols, W along its rows
//   Wgrad  dW = dY^T * X   contracts M: dY and X along their rows
// Run: fp8-opt linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=blockwise \
//        --fp8-derive-scaling --fp8-print-layouts
#fprop = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
          affine_map<(m, n, k) -> (m, n)>]
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
func.func @linear_fwd_bwd(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                          %w: tensor<1024x512xbf16> {fp8.role = "weight"},
                          %dy: tensor<256x1024xbf16> {fp8.role = "gradient"})
    -> (tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>) {
  %zero = arith.constant 0.0 : bf16
  %zero32 = arith.constant 0.0 : f32

  %y0 = tensor.empty() : tensor<256x1024xbf16>
  %yi = linalg.fill ins(%zero : bf16) outs(%y0 : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %y = linalg.matmul indexing_maps = #fprop
         ins(%x, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>)
         outs(%yi : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>

  %dx0 = tensor.empty() : tensor<256x512xbf16>
  %dxi = linalg.fill ins(%zero : bf16) outs(%dx0 : tensor<256x512xbf16>) -> tensor<256x512xbf16>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x1024xbf16>, tensor<1024x512xbf16>)
          outs(%dxi : tensor<256x512xbf16>) -> tensor<256x512xbf16>

  %dw0 = tensor.empty() : tensor<1024x512xf32>
  %dwi = linalg.fill ins(%zero32 : f32) outs(%dw0 : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  %dw = linalg.matmul indexing_maps = #wgrad
          ins(%dy, %x : tensor<256x1024xbf16>, tensor<256x512xbf16>)
          outs(%dwi : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %y, %dx, %dw : tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>
}
