// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// Forms without a kernel yet get a diagnostic at the op.
func.func @square_tiles(%x: tensor<256x256xbf16>) {
  // expected-error @+1 {{convert-fp8-to-nvvm supports row tiles [1, c] with c a power of two in 16..512 dividing the row so far}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<2x2xf32>
  return
}

// -----

func.func @stochastic(%x: tensor<64x128xbf16>, %seed: i64) {
  // expected-error @+1 {{convert-fp8-to-nvvm supports round-to-nearest with the current amax so far}}
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E5M2>, tensor<64x1xf32>
  return
}

// -----

func.func @dynamic(%x: tensor<?x128xbf16>) {
  // expected-error @+1 {{convert-fp8-to-nvvm needs a static rank-2 input, got 'tensor<?x128xbf16>'}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<?x128xbf16> -> tensor<?x128xf8E4M3FN>, tensor<?x1xf32>
  return
}
