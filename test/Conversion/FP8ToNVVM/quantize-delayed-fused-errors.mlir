// The fused delayed kernel's limit, a diagnostic at the op.
// RUN: fp8-opt %s -verify-diagnostics --convert-fp8-to-nvvm

// 40 elements: not whole 16-element chunks (the tensorwise kernel's loads).
func.func @chunks(%x: tensor<5x8xbf16>, %h: tensor<16x1x1xf32>) -> (tensor<5x8xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op convert-fp8-to-nvvm needs a static input of whole 16-element chunks and a static history, got 'tensor<5x8xbf16>' and 'tensor<16x1x1xf32>'}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<5x8xbf16> -> tensor<5x8xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
  return %q, %s, %a : tensor<5x8xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
}
