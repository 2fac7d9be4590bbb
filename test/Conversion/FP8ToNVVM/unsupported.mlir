// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// Forms without a kernel yet get a diagnostic at the op: odd column tiles
// (columns are converted two rows per cvt)...
func.func @odd_column_tiles(%x: tensor<254x256xbf16>) {
  // expected-error @+1 {{convert-fp8-to-nvvm supports row tiles [1, c] (c a power of two in 16..512, or a multiple of 4096 up to 32768), block tiles whose size is a multiple of 4096 elements and column tiles [r, 1] (r even), dividing the input, so far; got tile [127, 1] on 'tensor<254x256xbf16>'}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [127, 1], scale = f32>}
      : tensor<254x256xbf16> -> tensor<254x256xf8E4M3FN>, tensor<2x256xf32>
  return
}

// -----

// ... partial edge tiles ...
func.func @partial_tiles(%x: tensor<64x200xbf16>) {
  // expected-error @+1 {{convert-fp8-to-nvvm supports row tiles}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x200xbf16> -> tensor<64x200xf8E4M3FN>, tensor<64x2xf32>
  return
}

// -----

// ... and dynamic shapes.
func.func @dynamic(%x: tensor<?x128xbf16>) {
  // expected-error @+1 {{convert-fp8-to-nvvm needs a static rank-2 input, got 'tensor<?x128xbf16>'}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<?x128xbf16> -> tensor<?x128xf8E4M3FN>, tensor<?x1xf32>
  return
}

// -----

// ... rows too long to stay in one CTA's registers ...
func.func @long_rows(%x: tensor<2x65536xbf16>) {
  // expected-error @+1 {{convert-fp8-to-nvvm supports row tiles}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x65536xbf16> -> tensor<2x65536xf8E4M3FN>, tensor<2x1xf32>
  return
}
