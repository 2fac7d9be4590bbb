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
