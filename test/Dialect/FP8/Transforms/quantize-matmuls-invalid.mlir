// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-quantize-matmuls=recipe=blockwise

// An operand whose role cannot be known is an error, not a guess; the
// error names the roles that would make a layer's matmul, and where to put
// them.
func.func @missing_role(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                        %w: tensor<256x128xbf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{cannot quantize this matmul: operand b ('tensor<256x128xbf16>') has no fp8 role; add {fp8.role = "weight"} (fprop) or {fp8.role = "gradient"} (wgrad) to function argument #1 of @missing_role}}
  %y = linalg.matmul ins(%x, %w : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// Two weights are not one of a linear layer's matmuls.
func.func @weight_by_weight(%a: tensor<64x256xbf16> {fp8.role = "weight"},
                            %b: tensor<256x128xbf16> {fp8.role = "weight"},
                            %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  // expected-error @+1 {{cannot quantize a matmul of weight x weight: a recipe covers Fprop (activation x weight), Dgrad (gradient x weight) and Wgrad (gradient x activation)}}
  %y = linalg.matmul ins(%a, %b : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// An RMSNorm whose gain is marked as a weight: the normalized activations
// mix an activation with a weight, so they have no role. The error names
// the op that mixes them and both sources, not argument #0, which has its
// role already.
func.func @norm_gain_weight(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                            %g: tensor<256xbf16> {fp8.role = "weight"},
                            %w: tensor<128x256xbf16> {fp8.role = "weight"},
                            %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<64xf32>) -> tensor<64xf32>
  %sumsq = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>],
                           iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x256xbf16>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %sum = arith.addf %acc, %sq : f32
    linalg.yield %sum : f32
  } -> tensor<64xf32>
  %out = tensor.empty() : tensor<64x256xbf16>
  %normed = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i)>,
                                             affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                            iterator_types = ["parallel", "parallel"]}
      ins(%x, %sumsq, %g : tensor<64x256xbf16>, tensor<64xf32>, tensor<256xbf16>) outs(%out : tensor<64x256xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gain: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %r = math.rsqrt %s : f32
    %n = arith.mulf %f, %r : f32
    %gf = arith.extf %gain : bf16 to f32
    %p = arith.mulf %n, %gf : f32
    %t = arith.truncf %p : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<64x256xbf16>
  // expected-error-re @+1 {{cannot quantize this matmul: operand a ('tensor<64x256xbf16>') has no fp8 role: 'linalg.generic' at {{.*}}quantize-matmuls-invalid.mlir{{.*}} mixes an activation (function argument #0 of @norm_gain_weight) with a weight (function argument #1 of @norm_gain_weight), which leaves its result without a role; mark only matmul operands (a norm's gain is not a matmul weight), or add {fp8.role = "activation"} (fprop) or {fp8.role = "gradient"} (dgrad) to that op}}
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%normed, %w : tensor<64x256xbf16>, tensor<128x256xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
