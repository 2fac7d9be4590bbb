// A linear layer's forward, Y = X W^T, as a frontend writes it: a bf16
// linalg.matmul whose operands say what they are (fp8.role: activation,
// weight or gradient). The recipe decides how each is quantized. The
// README's "first hour" section compiles it.
func.func @linear(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                  %w: tensor<1024x512xbf16> {fp8.role = "weight"})
    -> tensor<256x1024xbf16> {
  %zero = arith.constant 0.0 : bf16
  %empty = tensor.empty() : tensor<256x1024xbf16>
  %init = linalg.fill ins(%zero : bf16)
            outs(%empty : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %y = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>)
         outs(%init : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  return %y : tensor<256x1024xbf16>
}
