// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-quantize-matmuls=recipe=delayed

// Delayed scaling adds an amax history argument and result per quantized
// value, which only a func.func signature is rewritten for: a matmul in
// another kind of function is refused, not quantized without histories.
// expected-error @+1 {{delayed scaling threads amax histories through func.func signatures only}}
llvm.func @not_func_func() {
  %x = tensor.empty() {fp8.role = "activation"} : tensor<64x256xbf16>
  %w = tensor.empty() {fp8.role = "weight"} : tensor<128x256xbf16>
  %c = tensor.empty() : tensor<64x128xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<64x256xbf16>, tensor<128x256xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  llvm.return
}
