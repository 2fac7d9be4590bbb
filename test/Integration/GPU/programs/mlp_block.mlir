// The transformer MLP block of examples/mlp_block.mlir (M 512, hidden 1024,
// ffn 4096; two linear layers around a tanh-approximated GELU, forward and
// backward: 6 GEMMs, 2 elementwise kernels), compiled for sm_90a and run as
// one launch plan by `make check-gpu-programs`:
//   H = X W1^T     A = gelu(H)      Y = A W2^T
//   dA = dY W2     dH = dA * gelu'(H)      dX = dH W1
//   dW2 = dY^T A   dW1 = dH^T X
// The same graph as the example, except that it also returns H, A, dA and
// dH (results 4 .. 7): fp8-run dumps only arguments and results, so this is
// how check_program.py sees what every GEMM and GELU kernel read and wrote
// (its replay checks each launch on the GPU's own inputs; its end-to-end
// check recomputes every result from the arguments and these).
// RUN: rm -rf %t && fp8-opt %s --fp8-pipeline='recipe=blockwise chip=sm_90a' --fp8-emit=dir=%t > /dev/null
// RUN: %fp8-run %t/manifest.json --function mlp_block --iters 0 --dump %t/dump
// RUN: %check-program %t/dump %t/manifest.json --recipe blockwise
#nk = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
       affine_map<(m, n, k) -> (m, n)>]
#kn = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
       affine_map<(m, n, k) -> (m, n)>]
#tn = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
       affine_map<(n, k, m) -> (n, k)>]
#id = affine_map<(i, j) -> (i, j)>
func.func @mlp_block(%x: tensor<512x1024xbf16> {fp8.role = "activation"},
                     %w1: tensor<4096x1024xbf16> {fp8.role = "weight"},
                     %w2: tensor<1024x4096xbf16> {fp8.role = "weight"},
                     %dy: tensor<512x1024xbf16> {fp8.role = "gradient"})
    -> (tensor<512x1024xbf16>, tensor<512x1024xbf16>,
        tensor<4096x1024xf32>, tensor<1024x4096xf32>,
        tensor<512x4096xbf16>, tensor<512x4096xbf16>,
        tensor<512x4096xbf16>, tensor<512x4096xbf16>) {
  %zb = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32

  // Forward.
  %h0 = tensor.empty() : tensor<512x4096xbf16>
  %hi = linalg.fill ins(%zb : bf16) outs(%h0 : tensor<512x4096xbf16>) -> tensor<512x4096xbf16>
  %h = linalg.matmul indexing_maps = #nk
         ins(%x, %w1 : tensor<512x1024xbf16>, tensor<4096x1024xbf16>)
         outs(%hi : tensor<512x4096xbf16>) -> tensor<512x4096xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
         ins(%h : tensor<512x4096xbf16>) outs(%h0 : tensor<512x4096xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    // gelu(v) ~ 0.5 v (1 + tanh(0.79788 (v + 0.044715 v^3)))
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
  } -> tensor<512x4096xbf16>
  %y0 = tensor.empty() : tensor<512x1024xbf16>
  %yi = linalg.fill ins(%zb : bf16) outs(%y0 : tensor<512x1024xbf16>) -> tensor<512x1024xbf16>
  %y = linalg.matmul indexing_maps = #nk
         ins(%a, %w2 : tensor<512x4096xbf16>, tensor<1024x4096xbf16>)
         outs(%yi : tensor<512x1024xbf16>) -> tensor<512x1024xbf16>

  // Backward through the second layer.
  %da = linalg.matmul indexing_maps = #kn
          ins(%dy, %w2 : tensor<512x1024xbf16>, tensor<1024x4096xbf16>)
          outs(%hi : tensor<512x4096xbf16>) -> tensor<512x4096xbf16>
  %dw20 = tensor.empty() : tensor<1024x4096xf32>
  %dw2i = linalg.fill ins(%zf : f32) outs(%dw20 : tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  %dw2 = linalg.matmul indexing_maps = #tn
           ins(%dy, %a : tensor<512x1024xbf16>, tensor<512x4096xbf16>)
           outs(%dw2i : tensor<1024x4096xf32>) -> tensor<1024x4096xf32>

  // Through the GELU: dH = dA * gelu'(H), with gelu'(v) ~ 0.5 (1 + tanh(.)).
  %dh = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
          ins(%da, %h : tensor<512x4096xbf16>, tensor<512x4096xbf16>)
          outs(%h0 : tensor<512x4096xbf16>) {
  ^bb0(%g: bf16, %v: bf16, %o: bf16):
    %gf = arith.extf %g : bf16 to f32
    %vf = arith.extf %v : bf16 to f32
    %c0 = arith.constant 0.7978846 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %t = arith.mulf %c0, %vf : f32
    %th = math.tanh %t : f32
    %d0 = arith.addf %one, %th : f32
    %d = arith.mulf %half, %d0 : f32
    %r = arith.mulf %gf, %d : f32
    %rb = arith.truncf %r : f32 to bf16
    linalg.yield %rb : bf16
  } -> tensor<512x4096xbf16>

  // Backward through the first layer.
  %dx = linalg.matmul indexing_maps = #kn
          ins(%dh, %w1 : tensor<512x4096xbf16>, tensor<4096x1024xbf16>)
          outs(%yi : tensor<512x1024xbf16>) -> tensor<512x1024xbf16>
  %dw10 = tensor.empty() : tensor<4096x1024xf32>
  %dw1i = linalg.fill ins(%zf : f32) outs(%dw10 : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  %dw1 = linalg.matmul indexing_maps = #tn
           ins(%dh, %x : tensor<512x4096xbf16>, tensor<512x1024xbf16>)
           outs(%dw1i : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %y, %dx, %dw1, %dw2, %h, %a, %da, %dh
      : tensor<512x1024xbf16>, tensor<512x1024xbf16>,
        tensor<4096x1024xf32>, tensor<1024x4096xf32>,
        tensor<512x4096xbf16>, tensor<512x4096xbf16>,
        tensor<512x4096xbf16>, tensor<512x4096xbf16>
}
