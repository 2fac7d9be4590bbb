// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// What convert-fp8-to-nvvm still refuses of fp8.hadamard: a rank other
// than 2, a dynamic shape, and blocks outside 16..256 (a thread holds 16
// elements of a block, and a block's threads share one warp). Both dims of
// a static matrix lower (hadamard-ptx.mlir, hadamard-dim0-ptx.mlir).

// A batch of matrices: rank 3.
func.func @rank3(%x: tensor<4x64x32xbf16>) -> tensor<4x64x32xbf16> {
  // expected-error @+1 {{convert-fp8-to-nvvm rotates a static matrix in blocks of 16 to 256 so far, got 'tensor<4x64x32xbf16>' dim 1 size 64}}
  %h = fp8.hadamard %x {dim = 1 : i64, size = 64 : i64} : tensor<4x64x32xbf16>
  return %h : tensor<4x64x32xbf16>
}

// -----

// A dynamic row count, along dim 0.
func.func @dynamic(%x: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  // expected-error @+1 {{convert-fp8-to-nvvm rotates a static matrix in blocks of 16 to 256 so far, got 'tensor<?x64xbf16>' dim 0 size 32}}
  %h = fp8.hadamard %x {dim = 0 : i64, size = 32 : i64} : tensor<?x64xbf16>
  return %h : tensor<?x64xbf16>
}

// -----

// Blocks smaller than a thread's 16 elements.
func.func @small(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{convert-fp8-to-nvvm rotates a static matrix in blocks of 16 to 256 so far, got 'tensor<64x64xf32>' dim 0 size 8}}
  %h = fp8.hadamard %x {dim = 0 : i64, size = 8 : i64} : tensor<64x64xf32>
  return %h : tensor<64x64xf32>
}

// -----

// Blocks larger than 256.
func.func @large(%x: tensor<8x512xbf16>) -> tensor<8x512xbf16> {
  // expected-error @+1 {{convert-fp8-to-nvvm rotates a static matrix in blocks of 16 to 256 so far, got 'tensor<8x512xbf16>' dim 1 size 512}}
  %h = fp8.hadamard %x {dim = 1 : i64, size = 512 : i64} : tensor<8x512xbf16>
  return %h : tensor<8x512xbf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A rotation fused into a quantization (written by hand here; the fusion
// pass fuses only what the row-tile kernel takes): block tiles would hold a
// rotation block's elements outside one warp's consecutive lanes.
func.func @rotated_block_tiles(%x: tensor<128x256xbf16>) -> (tensor<128x256xf8E4M3FN>, tensor<1x2xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm: a rotated quantization needs tiles of one row and 16 to 512 columns and a rotation of 16 to 256, both dividing the row length}}
  %q, %s = fp8.quantize_elementwise %x {hadamard_size = 128 : i64, indexing_maps = [#id], scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x2xf32> {
  ^bb0(%e: bf16):
    fp8.yield %e : bf16
  }
  return %q, %s : tensor<128x256xf8E4M3FN>, tensor<1x2xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Tiles of 1024 columns: a rotation of 128 gives each thread 32 elements, so
// a tile would fill a warp's 32 lanes; refused like any tile past 512.
func.func @rotated_wide_tiles(%x: tensor<4x1024xbf16>) -> (tensor<4x1024xf8E4M3FN>, tensor<4x1xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm: a rotated quantization needs tiles of one row and 16 to 512 columns and a rotation of 16 to 256, both dividing the row length}}
  %q, %s = fp8.quantize_elementwise %x {hadamard_size = 128 : i64, indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 1024], scale = f32>}
      : tensor<4x1024xbf16> -> tensor<4x1024xf8E4M3FN>, tensor<4x1xf32> {
  ^bb0(%e: bf16):
    fp8.yield %e : bf16
  }
  return %q, %s : tensor<4x1024xf8E4M3FN>, tensor<4x1xf32>
}
