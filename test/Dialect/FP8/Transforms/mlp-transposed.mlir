// The MLP block written with linalg.transpose and default-map linalg.matmul
// gives the quantizations and kernels of the same graph written with indexing
// maps (examples/mlp_block.mlir): a transposed operand is the stored tensor
// contracted along its other dim, so it is quantized (and, under delayed
// scaling, given an amax history) once.
// RUN: for r in tensorwise delayed rowwise rowwise_gw_hp blockwise mxfp8 mxfp8_ocp; do \
// RUN:   fp8-opt %s --fp8-pipeline=recipe=$r --fp8-print-layouts > %t.transposed.$r || exit 1; \
// RUN:   fp8-opt %S/../../../../examples/mlp_block.mlir --fp8-pipeline=recipe=$r --fp8-print-layouts > %t.maps.$r || exit 1; \
// RUN:   grep '^// [0-9]' %t.transposed.$r > %t.transposed.$r.layouts; \
// RUN:   grep '^// [0-9]' %t.maps.$r | diff %t.transposed.$r.layouts - || exit 1; \
// RUN: done
// Where every matmul is quantized the IR is the same, not only the layouts.
// RUN: for r in tensorwise delayed rowwise blockwise mxfp8 mxfp8_ocp; do \
// RUN:   diff %t.transposed.$r %t.maps.$r || exit 1; \
// RUN: done
// RUN: FileCheck %s --check-prefix=DELAYED < %t.transposed.delayed
// RUN: FileCheck %s --check-prefix=BLOCKWISE < %t.transposed.blockwise
// The recipe's Hadamard rotations reach the same ops in both forms.
// RUN: fp8-opt %s '--fp8-pipeline=recipe="#fp8.recipe<mxfp8, hadamard = 32>"' > %t.transposed.hadamard
// RUN: fp8-opt %S/../../../../examples/mlp_block.mlir '--fp8-pipeline=recipe="#fp8.recipe<mxfp8, hadamard = 32>"' | diff %t.transposed.hadamard -
// One amax (and one history) per tensor: X, W1, W2, dY, A and dH, each
// fused into its quantization (fp8.quantize_delayed).
// DELAYED: 6 quantizations (6 fresh, 0 requantized), 0 reused, 6 transposed
// DELAYED-NEXT: fused: 6 delayed amaxes (fp8.quantize_delayed)
// DELAYED-LABEL: func.func @mlp_block
// DELAYED-COUNT-6: = fp8.quantize_delayed %
// DELAYED-NOT: = fp8.amax %
// DELAYED-NOT: linalg.transpose
// BLOCKWISE: 10 quantizations (6 fresh, 4 requantized), 0 reused, 2 transposed

// A transformer MLP block in training, in bf16: two linear layers around a
// tanh-approximated GELU, forward and backward.
//   H = X W1^T      A = gelu(H)      Y = A W2^T                (2 x Fprop)
//   dA = dY W2      dH = dA * gelu'(H)      dX = dH W1          (2 x Dgrad)
//   dW2 = dY^T A    dW1 = dH^T X                                 (2 x Wgrad)
// Roles start at the arguments and propagate: H and A are activations (an
// Fprop result), dA and dH gradients (a Dgrad result, and a gradient times a
// local derivative).
// Run: fp8-opt mlp_block.mlir --fp8-quantize-matmuls=recipe=blockwise \
//        --fp8-derive-scaling --fp8-print-layouts
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
        tensor<4096x1024xf32>, tensor<1024x4096xf32>) {
  %zb = arith.constant 0.0 : bf16
  %zf = arith.constant 0.0 : f32

  // Forward.
  %h0 = tensor.empty() : tensor<512x4096xbf16>
  %hi = linalg.fill ins(%zb : bf16) outs(%h0 : tensor<512x4096xbf16>) -> tensor<512x4096xbf16>
  %w1t0 = tensor.empty() : tensor<1024x4096xbf16>
  %w1t = linalg.transpose ins(%w1 : tensor<4096x1024xbf16>) outs(%w1t0 : tensor<1024x4096xbf16>) permutation = [1, 0]
  %h = linalg.matmul
         ins(%x, %w1t : tensor<512x1024xbf16>, tensor<1024x4096xbf16>)
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
  %w2t0 = tensor.empty() : tensor<4096x1024xbf16>
  %w2t = linalg.transpose ins(%w2 : tensor<1024x4096xbf16>) outs(%w2t0 : tensor<4096x1024xbf16>) permutation = [1, 0]
  %y = linalg.matmul
         ins(%a, %w2t : tensor<512x4096xbf16>, tensor<4096x1024xbf16>)
         outs(%yi : tensor<512x1024xbf16>) -> tensor<512x1024xbf16>

  // Backward through the second layer.
  %da = linalg.matmul
          ins(%dy, %w2 : tensor<512x1024xbf16>, tensor<1024x4096xbf16>)
          outs(%hi : tensor<512x4096xbf16>) -> tensor<512x4096xbf16>
  %dw20 = tensor.empty() : tensor<1024x4096xf32>
  %dw2i = linalg.fill ins(%zf : f32) outs(%dw20 : tensor<1024x4096xf32>) -> tensor<1024x4096xf32>
  %dyt0 = tensor.empty() : tensor<1024x512xbf16>
  %dyt = linalg.transpose ins(%dy : tensor<512x1024xbf16>) outs(%dyt0 : tensor<1024x512xbf16>) permutation = [1, 0]
  %dw2 = linalg.matmul
           ins(%dyt, %a : tensor<1024x512xbf16>, tensor<512x4096xbf16>)
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
  %dx = linalg.matmul
          ins(%dh, %w1 : tensor<512x4096xbf16>, tensor<4096x1024xbf16>)
          outs(%yi : tensor<512x1024xbf16>) -> tensor<512x1024xbf16>
  %dw10 = tensor.empty() : tensor<4096x1024xf32>
  %dw1i = linalg.fill ins(%zf : f32) outs(%dw10 : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  %dht0 = tensor.empty() : tensor<4096x512xbf16>
  %dht = linalg.transpose ins(%dh : tensor<512x4096xbf16>) outs(%dht0 : tensor<4096x512xbf16>) permutation = [1, 0]
  %dw1 = linalg.matmul
           ins(%dht, %x : tensor<4096x512xbf16>, tensor<512x1024xbf16>)
           outs(%dw1i : tensor<4096x1024xf32>) -> tensor<4096x1024xf32>
  return %y, %dx, %dw1, %dw2 : tensor<512x1024xbf16>, tensor<512x1024xbf16>,
                               tensor<4096x1024xf32>, tensor<1024x4096xf32>
}
