// RUN: fp8-opt %s -split-input-file -verify-diagnostics

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

// Quantized data has the shape of its input.
func.func @quantize_result_shape(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects result of shape 4x64, got 4x32}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x32xf8E4M3FN>, tensor<4x2xf32>
  return
}

// -----

// The transposed data of a cast-transpose has the transposed shape.
func.func @quantize_transpose_shape(%x: tensor<256x384xbf16>) {
  // expected-error @+1 {{expects result_t of shape 384x256, got 256x384}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  return
}

// -----

// Both halves of a cast-transpose have one FP8 type.
func.func @quantize_transpose_types(%x: tensor<256x384xbf16>) {
  // expected-error @+1 {{expects result and result_t of one element type, got 'f8E4M3FN' and 'f8E5M2'}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E5M2>, tensor<384x2xf32>
  return
}

// -----

// The transposed scales tile the transposed data.
func.func @quantize_transpose_scales(%x: tensor<256x384xbf16>) {
  // expected-error @+1 {{expects scale_t of shape 384x2 for data 384x256 and tile [1, 128], got 384x3}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x3xf32>
  return
}

// -----

// The tcgen05 layout has ceil(R / 128) * ceil(Kb / 4) chunks of 512 bytes.
func.func @tcgen05_scales_shape(%s: tensor<250x16xf8E8M0FNU>) {
  // expected-error @+1 {{expects result of shape 8x512 (chunks of 128 rows x 4 K-blocks of the 250x16 scales, 512 bytes each), got 4x512}}
  %sf = fp8.tcgen05_scales %s : tensor<250x16xf8E8M0FNU> -> tensor<4x512xf8E8M0FNU>
  return
}

// -----

// tcgen05 block scaling takes E8M0 scales only.
func.func @tcgen05_scales_f32(%s: tensor<256x16xf32>) {
  // expected-error @+1 {{operand #0 must be 2D tensor of f8E8M0FNU type values}}
  %sf = fp8.tcgen05_scales %s : tensor<256x16xf32> -> tensor<8x512xf32>
  return
}
// -----

// Only e4m3 and e5m2 are data types.
func.func @quantize_data_type(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{result #0 must be 2D/3D tensor of f8E4M3FN type or f8E5M2 type values}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x64xf16>, tensor<4x2xf32>
  return
}

// -----

// Operands are matrices, with at most one leading batch dimension.
func.func @quantize_rank(%x: tensor<64xf32>) {
  // expected-error @+1 {{operand #0 must be 2D/3D tensor of 32-bit float or bfloat16 type or 16-bit float values}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<64xf32> -> tensor<64xf8E4M3FN>, tensor<2xf32>
  return
}

// -----

// The scale tensor's element type is the scaling's.
func.func @quantize_scale_type(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{scale element type 'f32' does not match the scaling's 'f8E8M0FNU'}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf32>
  return
}

// -----

// Scales have the rank of their data.
func.func @quantize_scale_rank(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{expects scale of rank 2 like its data, got rank 3}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<1x4x2xf32>
  return
}

// -----

// One scale per tile: a partial edge tile still has its own scale (100 / 32
// rounds up to 4).
func.func @quantize_scale_shape(%x: tensor<4x100xf32>) {
  // expected-error @+1 {{expects scale of shape 4x4 for data 4x100 and tile [1, 32], got 4x3}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<4x100xf32> -> tensor<4x100xf8E4M3FN>, tensor<4x3xf32>
  return
}

// -----

// A delayed amax has one value per tile.
func.func @quantize_amax_shape(%x: tensor<4x64xf32>, %a: tensor<1x1xf32>) {
  // expected-error @+1 {{expects amax of shape 4x2 for data 4x64 and tile [1, 32], got 1x1}}
  %q, %s = fp8.quantize %x amax(%a : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf32>
  return
}

// -----

func.func @quantize_stochastic_needs_seed(%x: tensor<4x64xf32>) {
  // expected-error @+1 {{stochastic rounding needs a seed operand}}
  %q, %s = fp8.quantize %x {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x64xf8E5M2>, tensor<1x1xf32>
  return
}

// -----

func.func @quantize_seed_without_stochastic(%x: tensor<4x64xf32>, %seed: i64) {
  // expected-error @+1 {{a seed is only used by stochastic rounding}}
  %q, %s = fp8.quantize %x seed(%seed) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x64xf8E5M2>, tensor<1x1xf32>
  return
}

// -----

// Batched data is scaled per batch element.
func.func @quantize_batch_scale(%x: tensor<2x4x64xf32>) {
  // expected-error @+1 {{expects scale of shape 2x1x1 for data 2x4x64 and tile [*, *], got 1x1x1}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x4x64xf32> -> tensor<2x4x64xf8E4M3FN>, tensor<1x1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// dequantize
//===----------------------------------------------------------------------===//

func.func @dequantize_result_shape(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{expects result of shape 4x64, got 64x4}}
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<4x64xf8E4M3FN>, tensor<4x2xf32> -> tensor<64x4xf32>
  return
}

// -----

func.func @dequantize_scale_shape(%q: tensor<4x64xf8E4M3FN>, %s: tensor<4x2xf32>) {
  // expected-error @+1 {{expects scale of shape 1x2 for data 4x64 and tile [*, 32], got 4x2}}
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [*, 32], scale = f32>}
      : tensor<4x64xf8E4M3FN>, tensor<4x2xf32> -> tensor<4x64xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// scaled_matmul
//===----------------------------------------------------------------------===//

// The contracted-dimension rule: a 128x1 tile on an operand contracted along
// its columns changes scale at every k.
func.func @matmul_tile_varies_along_k(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<2x512xf32>,
                                      %b: tensor<64x512xf8E4M3FN>, %sb: tensor<64x4xf32>) {
  // expected-error @+1 {{a_scaling tile [128, 1] varies along contracted dim 1: its K-block 1 must be '*' or a multiple of 32}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<2x512xf32>, tensor<64x512xf8E4M3FN>, tensor<64x4xf32>) -> tensor<256x64xf32>
  return
}

// -----

// The same rule on b: Wgrad contracts X along its rows, where a 1x128 tile
// (Fprop's) varies at every k.
func.func @matmul_wgrad_rowwise_x(%dy: tensor<256x64xf8E4M3FN>, %sdy: tensor<2x64xf32>,
                                  %x: tensor<256x512xf8E4M3FN>, %sx: tensor<256x4xf32>) {
  // expected-error @+1 {{b_scaling tile [1, 128] varies along contracted dim 0: its K-block 1 must be '*' or a multiple of 32}}
  %c = fp8.scaled_matmul %dy, %sdy, %x, %sx {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x64xf8E4M3FN>, tensor<2x64xf32>, tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) -> tensor<64x512xf32>
  return
}

// -----

// K-blocks must nest so that promotion at the finer one is exact.
func.func @matmul_kblocks_do_not_divide(%a: tensor<4x192xf8E4M3FN>, %sa: tensor<4x2xf32>,
                                        %b: tensor<8x192xf8E4M3FN>, %sb: tensor<8x3xf32>) {
  // expected-error @+1 {{K-blocks 96 (a) and 64 (b) do not divide one another}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 96], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 64], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4x192xf8E4M3FN>, tensor<4x2xf32>, tensor<8x192xf8E4M3FN>, tensor<8x3xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_contracted_extent(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<1x1xf32>,
                                    %b: tensor<8x32xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{contracted dims differ: 64 (a dim 1) vs 32 (b dim 1)}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4x64xf8E4M3FN>, tensor<1x1xf32>, tensor<8x32xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_contracting_out_of_range(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<1x1xf32>,
                                           %b: tensor<8x64xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{contracting dims are matrix dims (0 = rows, 1 = cols, after any batch dim), got 2}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 2, 1>}
      : (tensor<4x64xf8E4M3FN>, tensor<1x1xf32>, tensor<8x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_contracting_count(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<1x1xf32>,
                                    %b: tensor<8x64xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{'contracting' failed to satisfy constraint: i64 dense array attribute with exactly 2 elements}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1>}
      : (tensor<4x64xf8E4M3FN>, tensor<1x1xf32>, tensor<8x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_scale_shape(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<4x1xf32>,
                              %b: tensor<8x64xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{expects a_scale of shape 4x2 for data 4x64 and tile [1, 32], got 4x1}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4x64xf8E4M3FN>, tensor<4x1xf32>, tensor<8x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4x8xf32>
  return
}

// -----

func.func @matmul_scale_type(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<4x2xf32>,
                             %b: tensor<8x64xf8E4M3FN>, %sb: tensor<8x2xf32>) {
  // expected-error @+1 {{b_scale element type 'f32' does not match the scaling's 'f8E8M0FNU'}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_floor>,
        contracting = array<i64: 1, 1>}
      : (tensor<4x64xf8E4M3FN>, tensor<4x2xf32>, tensor<8x64xf8E4M3FN>, tensor<8x2xf32>) -> tensor<4x8xf32>
  return
}

// -----

// The result is M x N: a's free dim by b's free dim.
func.func @matmul_result_shape(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<1x1xf32>,
                               %b: tensor<64x8xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{expects result of shape 4x8, got 8x4}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<4x64xf8E4M3FN>, tensor<1x1xf32>, tensor<64x8xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @matmul_result_type(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<1x1xf32>,
                              %b: tensor<8x64xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{result #0 must be 2D/3D tensor of 32-bit float or bfloat16 type values}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4x64xf8E4M3FN>, tensor<1x1xf32>, tensor<8x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4x8xf8E4M3FN>
  return
}

// -----

func.func @matmul_rank_mismatch(%a: tensor<2x4x64xf8E4M3FN>, %sa: tensor<2x1x1xf32>,
                                %b: tensor<8x64xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{expects operands of the same rank, got 3 and 2}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x4x64xf8E4M3FN>, tensor<2x1x1xf32>, tensor<8x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

func.func @matmul_result_rank(%a: tensor<4x64xf8E4M3FN>, %sa: tensor<1x1xf32>,
                              %b: tensor<8x64xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{expects a result of rank 2, got 3}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4x64xf8E4M3FN>, tensor<1x1xf32>, tensor<8x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<1x4x8xf32>
  return
}

// -----

func.func @matmul_batch_mismatch(%a: tensor<2x4x64xf8E4M3FN>, %sa: tensor<2x1x1xf32>,
                                 %b: tensor<3x8x64xf8E4M3FN>, %sb: tensor<3x1x1xf32>) {
  // expected-error @+1 {{batch dims differ: 2x4x64 vs 3x8x64}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x4x64xf8E4M3FN>, tensor<2x1x1xf32>, tensor<3x8x64xf8E4M3FN>, tensor<3x1x1xf32>) -> tensor<2x4x8xf32>
  return
}

// -----

// col_major_tma scales are the row-major 250x4 transposed with each row
// padded to 16 bytes (252 f32): the row-major shape is wrong here.
func.func @matmul_tma_scale_shape(%a: tensor<250x512xf8E4M3FN>, %sa: tensor<250x4xf32>,
                                  %b: tensor<64x512xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{expects a_scale of shape 4x252 for data 250x512, tile [1, 128] and a_scale_layout col_major_tma (the row-major 250x4 scales transposed, rows padded to 16 bytes), got 250x4}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<250x512xf8E4M3FN>, tensor<250x4xf32>, tensor<64x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<250x64xf32>
  return
}

// -----

// The padding is part of the layout: 4x250 (unpadded) is not 4x252.
func.func @matmul_tma_scale_unpadded(%a: tensor<250x512xf8E4M3FN>, %sa: tensor<4x250xf32>,
                                     %b: tensor<64x512xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{expects a_scale of shape 4x252 for data 250x512, tile [1, 128] and a_scale_layout col_major_tma (the row-major 250x4 scales transposed, rows padded to 16 bytes), got 4x250}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<250x512xf8E4M3FN>, tensor<4x250xf32>, tensor<64x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<250x64xf32>
  return
}

// -----

func.func @matmul_tma_scale_batched(%a: tensor<2x64x512xf8E4M3FN>, %sa: tensor<2x1x1xf32>,
                                    %b: tensor<2x64x512xf8E4M3FN>, %sb: tensor<2x64x4xf32>) {
  // expected-error @+1 {{b_scale_layout col_major_tma needs a rank-2 operand (no batch dim), got rank 3}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scale_layout = #fp8.scale_layout<col_major_tma>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x64x512xf8E4M3FN>, tensor<2x1x1xf32>, tensor<2x64x512xf8E4M3FN>, tensor<2x64x4xf32>) -> tensor<2x64x64xf32>
  return
}

// -----

func.func @matmul_tma_scale_type(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<4x64xf8E8M0FNU>,
                                 %b: tensor<64x512xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{a_scale element type 'f8E8M0FNU' does not match the scaling's 'f32'}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x512xf8E4M3FN>, tensor<4x64xf8E8M0FNU>, tensor<64x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x64xf32>
  return
}

// -----

func.func @matmul_tma_scale_rank(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<1x4x64xf32>,
                                 %b: tensor<64x512xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  // expected-error @+1 {{expects a_scale of rank 2, got rank 3}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x512xf8E4M3FN>, tensor<1x4x64xf32>, tensor<64x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x64xf32>
  return
}

// -----

func.func @matmul_unknown_scale_layout(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>,
                                       %b: tensor<64x512xf8E4M3FN>, %sb: tensor<1x1xf32>) {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        // expected-error @+2 {{expected ::mlir::fp8::ScaleLayout to be one of: row_major, col_major_tma}}
        // expected-error @+1 {{failed to parse FP8_ScaleLayoutAttr parameter 'value'}}
        a_scale_layout = #fp8.scale_layout<col_major>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<64x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x64xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// tma_align_scales
//===----------------------------------------------------------------------===//

// 250 f32 rows pad to 252 (16 bytes), and the result is the transpose.
func.func @tma_align_shape(%s: tensor<250x4xf32>) {
  // expected-error @+1 {{expects result of shape 4x252 (the transpose of 250x4, rows padded to 16 bytes), got 4x250}}
  %t = fp8.tma_align_scales %s : tensor<250x4xf32> -> tensor<4x250xf32>
  return
}

// -----

// E8M0 scales are one byte: rows pad to 16 elements.
func.func @tma_align_shape_e8m0(%s: tensor<20x3xf8E8M0FNU>) {
  // expected-error @+1 {{expects result of shape 3x32 (the transpose of 20x3, rows padded to 16 bytes), got 3x20}}
  %t = fp8.tma_align_scales %s : tensor<20x3xf8E8M0FNU> -> tensor<3x20xf8E8M0FNU>
  return
}

// -----

func.func @tma_align_element_type(%s: tensor<8x4xf32>) {
  // expected-error @+1 {{result element type 'f8E8M0FNU' differs from the scale's 'f32'}}
  %t = fp8.tma_align_scales %s : tensor<8x4xf32> -> tensor<4x16xf8E8M0FNU>
  return
}

// -----

// With a dynamic row count the padded extent is unknown, but a static one
// must still fill whole 16-byte units.
func.func @tma_align_dynamic_rows(%s: tensor<?x4xf32>) {
  // expected-error @+1 {{expects result rows of a multiple of 16 bytes (4 elements of 'f32'), got 10}}
  %t = fp8.tma_align_scales %s : tensor<?x4xf32> -> tensor<4x10xf32>
  return
}

// -----

func.func @tma_align_rank(%s: tensor<2x8x4xf32>) {
  // expected-error @+1 {{operand #0 must be 2D tensor of 32-bit float or f8E8M0FNU type values}}
  %t = fp8.tma_align_scales %s : tensor<2x8x4xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @tma_align_bf16(%s: tensor<8x4xbf16>) {
  // expected-error @+1 {{operand #0 must be 2D tensor of 32-bit float or f8E8M0FNU type values}}
  %t = fp8.tma_align_scales %s : tensor<8x4xbf16> -> tensor<4x8xbf16>
  return
}

// -----

//===----------------------------------------------------------------------===//
// amax
//===----------------------------------------------------------------------===//

func.func @amax_shape(%x: tensor<256x512xbf16>) {
  // expected-error @+1 {{expects result of shape 256x4 for data 256x512 and tile [1, 128], got 256x1}}
  %a = fp8.amax %x {tile = #fp8.tile<[1, 128]>} : tensor<256x512xbf16> -> tensor<256x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

// A 1x128 tile transposed would be 128x1, which varies along the dimension
// the transposed operand is contracted on.
func.func @transpose_not_square(%q: tensor<256x512xf8E4M3FN>, %s: tensor<256x4xf32>) {
  // expected-error @+1 {{cannot transpose tile [1, 128] losslessly: only tensorwise or square tiles transpose; requantize from the source instead}}
  %t, %ts = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<256x4xf32> -> tensor<512x256xf8E4M3FN>, tensor<4x256xf32>
  return
}

// -----

func.func @transpose_element_type(%q: tensor<256x512xf8E4M3FN>, %s: tensor<1x1xf32>) {
  // expected-error @+1 {{result element type 'f8E5M2' differs from the input's 'f8E4M3FN'}}
  %t, %ts = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<1x1xf32> -> tensor<512x256xf8E5M2>, tensor<1x1xf32>
  return
}

// -----

func.func @transpose_result_shape(%q: tensor<256x512xf8E4M3FN>, %s: tensor<1x1xf32>) {
  // expected-error @+1 {{expects result of shape 512x256, got 256x512}}
  %t, %ts = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<1x1xf32> -> tensor<256x512xf8E4M3FN>, tensor<1x1xf32>
  return
}

// -----

func.func @transpose_result_scale(%q: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>) {
  // expected-error @+1 {{expects result_scale to be the transposed scale tensor, got 'tensor<2x4xf32>'}}
  %t, %ts = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<512x256xf8E4M3FN>, tensor<2x4xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// requantize
//===----------------------------------------------------------------------===//

func.func @requantize_result_scale(%q: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>) {
  // expected-error @+1 {{expects result_scale of shape 256x16 for data 256x512 and tile [1, 32], got 2x4}}
  %r, %rs = fp8.requantize %q, %s {
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        to = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
  return
}

// -----

func.func @requantize_result_shape(%q: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>) {
  // expected-error @+1 {{expects result of shape 256x512, got 512x256}}
  %r, %rs = fp8.requantize %q, %s {
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        to = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<512x256xf8E4M3FN>, tensor<1x1xf32>
  return
}

// -----

func.func @requantize_stochastic_needs_seed(%q: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>) {
  // expected-error @+1 {{stochastic rounding needs a seed operand}}
  %r, %rs = fp8.requantize %q, %s {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        to = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<256x512xf8E4M3FN>, tensor<1x1xf32>
  return
}

// -----

//===----------------------------------------------------------------------===//
// hadamard
//===----------------------------------------------------------------------===//

func.func @hadamard_dim(%x: tensor<256x512xbf16>) {
  // expected-error @+1 {{dim 2 is out of range for a rank-2 tensor}}
  %h = fp8.hadamard %x {dim = 2 : i64, size = 128 : i64} : tensor<256x512xbf16>
  return
}

// -----

func.func @hadamard_power_of_two(%x: tensor<256x480xbf16>) {
  // expected-error @+1 {{size 96 is not a power of two}}
  %h = fp8.hadamard %x {dim = 1 : i64, size = 96 : i64} : tensor<256x480xbf16>
  return
}

// -----

func.func @hadamard_divides(%x: tensor<256x200xbf16>) {
  // expected-error @+1 {{size 128 does not divide dim 1 of extent 200}}
  %h = fp8.hadamard %x {dim = 1 : i64, size = 128 : i64} : tensor<256x200xbf16>
  return
}

// -----

func.func @hadamard_type(%x: tensor<256x512xbf16>) {
  // expected-error @+1 {{'fp8.hadamard' op failed to verify that all of {input, result} have same type}}
  %h = "fp8.hadamard"(%x) {dim = 1 : i64, size = 128 : i64} : (tensor<256x512xbf16>) -> tensor<256x512xf32>
  return
}

// -----

// Monitoring is per matrix: a batched quantization has no monitored form.
func.func @quantize_monitored_rank3(%x: tensor<2x8x16xbf16>) {
  // expected-error @+1 {{'fp8.quantize_monitored' op monitors matrices only: expects a rank-2 input, got rank 3}}
  %q, %s, %a, %n = fp8.quantize_monitored %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<2x8x16xbf16> -> tensor<2x8x16xf8E4M3FN>, tensor<2x8x1xf32>, tensor<2x8x1xf32>, tensor<2xi64>
  return
}

// -----

// tile_amax has one value per scaling tile, like the scales.
func.func @quantize_monitored_tile_amax(%x: tensor<8x16xbf16>) {
  // expected-error @+1 {{'fp8.quantize_monitored' op expects tile_amax of shape 8x1 for data 8x16 and tile [1, 16], got 1x1}}
  %q, %s, %a, %n = fp8.quantize_monitored %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>, tensor<1x1xf32>, tensor<2xi64>
  return
}

// -----

// counts holds the saturated and the flushed count.
func.func @quantize_monitored_counts(%x: tensor<8x16xbf16>) {
  // expected-error @+1 {{'fp8.quantize_monitored' op expects counts of 2 elements (saturated, flushed), got 3}}
  %q, %s, %a, %n = fp8.quantize_monitored %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<3xi64>
  return
}

// -----

// counts are 64-bit integers.
func.func @quantize_monitored_counts_type(%x: tensor<8x16xbf16>) {
  // expected-error @+1 {{result #3 must be 1D tensor of 64-bit signless integer values}}
  %q, %s, %a, %n = fp8.quantize_monitored %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<2xi32>
  return
}

// -----

// The scales and the data follow fp8.quantize's rules.
func.func @quantize_monitored_scale(%x: tensor<8x16xbf16>) {
  // expected-error @+1 {{'fp8.quantize_monitored' op expects scale of shape 8x1 for data 8x16 and tile [1, 16], got 8x2}}
  %q, %s, %a, %n = fp8.quantize_monitored %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x2xf32>, tensor<8x1xf32>, tensor<2xi64>
  return
}

// -----

// Stochastic rounding needs its seed, as for fp8.quantize.
func.func @quantize_monitored_seed(%x: tensor<8x16xbf16>) {
  // expected-error @+1 {{'fp8.quantize_monitored' op stochastic rounding needs a seed operand}}
  %q, %s, %a, %n = fp8.quantize_monitored %x {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<2xi64>
  return
}

// -----

// The tcgen05 scale layout is MXFP8's: E8M0 scales of 1x32 along K.
func.func @tcgen05_layout_not_mx(%a: tensor<128x256xf8E4M3FN>, %sa: tensor<1x512xf32>,
                                 %b: tensor<128x256xf8E4M3FN>, %sb: tensor<128x8xf8E8M0FNU>) -> tensor<128x128xf32> {
  // expected-error @+1 {{a_scale_layout tcgen05 needs E8M0 scales of tile [1, 32] (MXFP8 along the contracted dim 1), got tile [1, 128] and scale 'f32'}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
         a_scale_layout = #fp8.scale_layout<tcgen05>,
         a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<1x512xf32>, tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// tcgen05 scales of an MN-major operand come from its [rows, K-blocks] =
// [256, 4] scales (the transpose of its row-major [4, 256]): two chunks.
func.func @tcgen05_layout_shape(%a: tensor<128x256xf8E4M3FN>, %sa: tensor<4x256xf8E8M0FNU>,
                                %b: tensor<128x128xf8E4M3FN>, %sb: tensor<128x4xf8E8M0FNU>) -> tensor<256x128xf32> {
  // expected-error @+1 {{expects a_scale of shape 2x512 for data 128x256 and a_scale_layout tcgen05 (the 256x4 [rows, K-blocks] scales in 512-byte chunks), got 4x256}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
         a_scale_layout = #fp8.scale_layout<tcgen05>,
         a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 0, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<4x256xf8E8M0FNU>, tensor<128x128xf8E4M3FN>, tensor<128x4xf8E8M0FNU>) -> tensor<256x128xf32>
  return %c : tensor<256x128xf32>
}
