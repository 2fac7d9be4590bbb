// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// An fp8.quantize_transpose that no cast-transpose kernel takes gets a
// diagnostic at the op, and no kernel. (fp8-fuse-quantization makes only
// ops the kernels take; these are written by hand.)

// 1x128 tiles: both dims multiples of 128.
func.func @blockwise_dims(%x: tensor<192x128xbf16>) -> tensor<192x128xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the cast-transpose kernel needs a 16-bit input with both dims multiples of 128 and 1x128 tiles, got 'tensor<192x128xbf16>' and tile [1, 128]}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<192x128xbf16> -> tensor<192x128xf8E4M3FN>, tensor<192x1xf32>, tensor<128x192xf8E4M3FN>, tensor<128x2xf32>
  return %q : tensor<192x128xf8E4M3FN>
}

// -----

// One scale: both dims multiples of 64.
func.func @tensorwise_dims(%x: tensor<96x64xbf16>) -> tensor<96x64xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the tensorwise cast-transpose needs a 16-bit input with both dims multiples of 64, got 'tensor<96x64xbf16>'}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<96x64xbf16> -> tensor<96x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x96xf8E4M3FN>, tensor<1x1xf32>
  return %q : tensor<96x64xf8E4M3FN>
}

// -----

// A scale per row: both dims multiples of 64, 16-bit.
func.func @rowwise_dims(%x: tensor<112x64xbf16>) -> tensor<112x64xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the rowwise cast-transpose needs a 16-bit input with both dims multiples of 64, got 'tensor<112x64xbf16>'}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<112x64xbf16> -> tensor<112x64xf8E4M3FN>, tensor<112x1xf32>, tensor<64x112xf8E4M3FN>, tensor<64x1xf32>
  return %q : tensor<112x64xf8E4M3FN>
}

// -----

func.func @rowwise_f32(%x: tensor<64x64xf32>) -> tensor<64x64xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the rowwise cast-transpose needs a 16-bit input with both dims multiples of 64, got 'tensor<64x64xf32>'}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<64x64xf32> -> tensor<64x64xf8E4M3FN>, tensor<64x1xf32>, tensor<64x64xf8E4M3FN>, tensor<64x1xf32>
  return %q : tensor<64x64xf8E4M3FN>
}

// -----

// A scale per row stores its scales row-major only.
func.func @rowwise_layout(%x: tensor<64x128xbf16>) -> tensor<64x128xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the rowwise cast-transpose stores row-major scales only}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>, scale_t_layout = #fp8.scale_layout<col_major_tma>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<128x64xf8E4M3FN>, tensor<1x128xf32>
  return %q : tensor<64x128xf8E4M3FN>
}

// -----

// Square tiles: 64 or 128, dims multiples of them.
func.func @block_tile(%x: tensor<64x64xbf16>) -> tensor<64x64xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the block cast-transpose needs square tiles of 64 or 128 and dims multiples of them, got 'tensor<64x64xbf16>' and tile [32, 32]}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [32, 32], scale = f32>}
      : tensor<64x64xbf16> -> tensor<64x64xf8E4M3FN>, tensor<2x2xf32>, tensor<64x64xf8E4M3FN>, tensor<2x2xf32>
  return %q : tensor<64x64xf8E4M3FN>
}

// -----

func.func @block_dims(%x: tensor<192x128xbf16>) -> tensor<192x128xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the block cast-transpose needs square tiles of 64 or 128 and dims multiples of them, got 'tensor<192x128xbf16>' and tile [128, 128]}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<192x128xbf16> -> tensor<192x128xf8E4M3FN>, tensor<2x1xf32>, tensor<128x192xf8E4M3FN>, tensor<1x2xf32>
  return %q : tensor<192x128xf8E4M3FN>
}

// -----

func.func @block_layout(%x: tensor<128x128xbf16>) -> tensor<128x128xf8E4M3FN> {
  // expected-error @+1 {{convert-fp8-to-nvvm: the block cast-transpose stores row-major scales only}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32>, scale_layout = #fp8.scale_layout<col_major_tma>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<1x4xf32>, tensor<128x128xf8E4M3FN>, tensor<1x1xf32>
  return %q : tensor<128x128xf8E4M3FN>
}
