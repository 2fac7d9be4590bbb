// The three training matmuls of one linear layer (X: 256x512 activations,
// W: 1024x512 weights, dY: 256x1024 gradients) under DeepSeek-V3 blockwise
// scaling, written out by hand: 1x128 tiles on activations and gradients
// along each matmul's contracted dim, 128x128 tiles on the weight.
func.func @linear_fwd_bwd(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                          %w: tensor<1024x512xbf16> {fp8.role = "weight"},
                          %dy: tensor<256x1024xbf16> {fp8.role = "gradient"})
    -> (tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>) {
  // Fprop: Y = X * W^T, both contracted along their columns (K = 512).
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  %wq, %ws = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<1024x512xbf16> -> tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>
  %y = fp8.scaled_matmul %xq, %xs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
         tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>

  // Dgrad: dX = dY * W, W contracted along its rows (N = 1024). Its square
  // tiles make the Fprop quantization reusable through a lossless transpose.
  %dyq, %dys = fp8.quantize %dy {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>
  %wt, %wts = fp8.transpose %wq, %ws {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<1024x512xf8E4M3FN>, tensor<8x4xf32> -> tensor<512x1024xf8E4M3FN>, tensor<4x8xf32>
  %dx = fp8.scaled_matmul %dyq, %dys, %wt, %wts {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x1024xf8E4M3FN>, tensor<256x8xf32>,
         tensor<512x1024xf8E4M3FN>, tensor<4x8xf32>) -> tensor<256x512xbf16>

  // Wgrad: dW = dY^T * X, both contracted along their rows (M = 256). The
  // 1x128 quantizations above vary along M, so dY and X are quantized again
  // from bf16 with 128x1 tiles.
  %dyc, %dycs = fp8.quantize %dy {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x1024xbf16> -> tensor<256x1024xf8E4M3FN>, tensor<2x1024xf32>
  %xc, %xcs = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<2x512xf32>
  %dw = fp8.scaled_matmul %dyc, %dycs, %xc, %xcs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x1024xf8E4M3FN>, tensor<2x1024xf32>,
         tensor<256x512xf8E4M3FN>, tensor<2x512xf32>) -> tensor<1024x512xf32>
  return %y, %dx, %dw : tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>
}
