// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// A batch of matrices: the op quantizes one matrix.
func.func @rank(%x: tensor<2x64x32xbf16>, %h: tensor<16x1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op expects a rank-2 input, got rank 3}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x64x32xbf16> -> tensor<2x64x32xf8E4M3FN>, tensor<1x1x1xf32>, tensor<1x1xf32>
  return
}

// -----

// One scale for the whole matrix: a history of one amax per step.
func.func @tile(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op expects tensorwise scaling (tile [*, *]), got tile [1, 128]}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x1x1xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>, tensor<1x1xf32>
  return
}

// -----

// The result has the input's shape.
func.func @result(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op expects result of shape 64x256, got 64x128}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x128xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
  return
}

// -----

// The scale's type is the scaling's.
func.func @scale(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op scale element type 'f8E8M0FNU' does not match the scaling's 'f32'}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf8E8M0FNU>, tensor<1x1xf32>
  return
}

// -----

// The data's amax is one value.
func.func @amax(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op expects amax of shape 1x1, got 1x2}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<1x2xf32>
  return
}

// -----

// The history holds one amax per step.
func.func @history(%x: tensor<64x256xbf16>, %h: tensor<16x2x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op expects a history of shape Hx1x1 (H >= 1, one amax per step), got 16x2x1}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x2x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
  return
}

// -----

// An empty history has no step to take an amax from.
func.func @empty(%x: tensor<64x256xbf16>, %h: tensor<0x1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_delayed' op expects a history of shape Hx1x1 (H >= 1, one amax per step), got 0x1x1}}
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<0x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
  return
}
