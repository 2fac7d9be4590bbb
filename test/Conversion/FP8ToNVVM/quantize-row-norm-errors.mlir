// The norm kernel's limits, each a diagnostic at the op.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

#id = affine_map<(i, j) -> (i, j)>

// Row sums beside tiles of two rows: a warp group holds one row.
func.func @two_row_tiles(%x: tensor<128x512xbf16>) -> (tensor<128x512xf8E4M3FN>, tensor<64x4xf32>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op convert-fp8-to-nvvm: row sums need tiles of one row and 16 to 512 columns (a power of two of 16) or the whole row, dividing rows of a multiple of 16 elements}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [2, 128], scale = f32>}
      : tensor<128x512xbf16> -> tensor<128x512xf8E4M3FN>, tensor<64x4xf32> {
  ^bb0(%a: bf16, %ss: f32):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %ss: f32):
    %f = arith.extf %a : bf16 to f32
    fp8.yield %f : f32
  }
  return %q, %s : tensor<128x512xf8E4M3FN>, tensor<64x4xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Rows of 200704 elements: 392 rounds of chunk sums, more shared memory
// than a CTA declares statically.
func.func @long_rows(%x: tensor<2x200704xbf16>) -> (tensor<2x200704xf8E4M3FN>, tensor<2x1xf32>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op convert-fp8-to-nvvm: rows of 200704 elements with 1 row sums need more than 48 KiB of chunk sums per CTA}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x200704xbf16> -> tensor<2x200704xf8E4M3FN>, tensor<2x1xf32> {
  ^bb0(%a: bf16, %ss: f32):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %ss: f32):
    %f = arith.extf %a : bf16 to f32
    fp8.yield %f : f32
  }
  return %q, %s : tensor<2x200704xf8E4M3FN>, tensor<2x1xf32>
}
