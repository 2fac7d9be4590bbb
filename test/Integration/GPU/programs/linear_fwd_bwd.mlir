// A whole linear layer in training (examples/linear_fwd_bwd.mlir at
// M = 512, K = 1024, N = 768), compiled for sm_90a and run as one launch
// plan by `make check-gpu` (fp8-run --function, then check_program.py):
//   Fprop  Y  = X  * W^T   contracts K
//   Dgrad  dX = dY * W     contracts N
//   Wgrad  dW = dY^T * X   contracts M
// K and N are multiples of 128 (every K-block whole), M of 128 too, so
// every 1x128 tile along M is whole for Wgrad. make check-gpu emits it once
// per recipe of GPU_PROGRAM_RECIPES (blockwise: the fused cast-transposes,
// 128x128 weights and the fp8.transpose of W, col_major_tma scales;
// tensorwise: the grid-wide amax kernels, e5m2 gradients, transposes).
// RUN: rm -rf %t && fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize --canonicalize --fp8-emit=dir=%t > /dev/null
// RUN: %fp8-run %t/manifest.json --function linear_fwd_bwd --iters 0 --dump %t/dump
// RUN: %check-program %t/dump %t/manifest.json --recipe blockwise
#fprop = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
          affine_map<(m, n, k) -> (m, n)>]
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
func.func @linear_fwd_bwd(%x: tensor<512x1024xbf16> {fp8.role = "activation"},
                          %w: tensor<768x1024xbf16> {fp8.role = "weight"},
                          %dy: tensor<512x768xbf16> {fp8.role = "gradient"})
    -> (tensor<512x768xbf16>, tensor<512x1024xbf16>, tensor<768x1024xf32>) {
  %zero = arith.constant 0.0 : bf16
  %zero32 = arith.constant 0.0 : f32

  %y0 = tensor.empty() : tensor<512x768xbf16>
  %yi = linalg.fill ins(%zero : bf16) outs(%y0 : tensor<512x768xbf16>) -> tensor<512x768xbf16>
  %y = linalg.matmul indexing_maps = #fprop
         ins(%x, %w : tensor<512x1024xbf16>, tensor<768x1024xbf16>)
         outs(%yi : tensor<512x768xbf16>) -> tensor<512x768xbf16>

  %dx0 = tensor.empty() : tensor<512x1024xbf16>
  %dxi = linalg.fill ins(%zero : bf16) outs(%dx0 : tensor<512x1024xbf16>) -> tensor<512x1024xbf16>
  %dx = linalg.matmul ins(%dy, %w : tensor<512x768xbf16>, tensor<768x1024xbf16>)
          outs(%dxi : tensor<512x1024xbf16>) -> tensor<512x1024xbf16>

  %dw0 = tensor.empty() : tensor<768x1024xf32>
  %dwi = linalg.fill ins(%zero32 : f32) outs(%dw0 : tensor<768x1024xf32>) -> tensor<768x1024xf32>
  %dw = linalg.matmul indexing_maps = #wgrad
          ins(%dy, %x : tensor<512x768xbf16>, tensor<512x1024xbf16>)
          outs(%dwi : tensor<768x1024xf32>) -> tensor<768x1024xf32>
  return %y, %dx, %dw : tensor<512x768xbf16>, tensor<512x1024xbf16>, tensor<768x1024xf32>
}
