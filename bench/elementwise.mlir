// Standalone kernels of the non-fp8 ops of a training graph, for
// bench/elementwise.sh: GB/s beside a device-to-device copy of as many
// bytes (fp8-run --copy-baseline). 8192 x 8192 bf16.
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
func.func @gelu(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %e = tensor.empty() : tensor<8192x8192xbf16>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x : tensor<8192x8192xbf16>) outs(%e : tensor<8192x8192xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %f = arith.extf %v : bf16 to f32
    %c0 = arith.constant 0.7978846 : f32
    %c1 = arith.constant 0.044715 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %v2 = arith.mulf %f, %f : f32
    %v3 = arith.mulf %v2, %f : f32
    %t0 = arith.mulf %c1, %v3 : f32
    %t1 = arith.addf %f, %t0 : f32
    %t2 = arith.mulf %c0, %t1 : f32
    %t3 = math.tanh %t2 : f32
    %t4 = arith.addf %one, %t3 : f32
    %t5 = arith.mulf %half, %f : f32
    %g = arith.mulf %t5, %t4 : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
func.func @residual_add(%x: tensor<8192x8192xbf16>, %r: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %y = arith.addf %x, %r : tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
func.func @bias_add(%x: tensor<8192x8192xbf16>, %b: tensor<8192xbf16>) -> tensor<8192x8192xbf16> {
  %e = tensor.empty() : tensor<8192x8192xbf16>
  %y = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
         ins(%x, %b : tensor<8192x8192xbf16>, tensor<8192xbf16>) outs(%e : tensor<8192x8192xbf16>) {
  ^bb0(%v: bf16, %c: bf16, %o: bf16):
    %s = arith.addf %v, %c : bf16
    linalg.yield %s : bf16
  } -> tensor<8192x8192xbf16>
  return %y : tensor<8192x8192xbf16>
}
func.func @transpose(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %e = tensor.empty() : tensor<8192x8192xbf16>
  %t = linalg.transpose ins(%x : tensor<8192x8192xbf16>) outs(%e : tensor<8192x8192xbf16>) permutation = [1, 0]
  return %t : tensor<8192x8192xbf16>
}
