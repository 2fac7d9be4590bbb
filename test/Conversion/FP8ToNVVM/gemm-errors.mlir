// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// scaled_matmul forms the sm_90a GEMM kernel does not take get a diagnostic
// at the op. A K-major contraction is fp8-legalize's job:
func.func @dgrad_not_k_major(%dy: tensor<256x512xf8E4M3FN>, %sdy: tensor<256x4xf32>,
                             %w: tensor<512x256xf8E4M3FN>, %sw: tensor<4x2xf32>) -> tensor<256x256xbf16> {
  // expected-error @+1 {{wgmma needs both operands K-major (contracting = [1, 1]); run fp8-legalize{chip=sm_90a} first}}
  %dx = fp8.scaled_matmul %dy, %sdy, %w, %sw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
         tensor<512x256xf8E4M3FN>, tensor<4x2xf32>) -> tensor<256x256xbf16>
  return %dx : tensor<256x256xbf16>
}

// -----

// TMA needs 16-byte row strides.
func.func @odd_k(%a: tensor<64x40xf8E4M3FN>, %sa: tensor<1x1xf32>,
                 %b: tensor<64x40xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<64x64xf32> {
  // expected-error @+1 {{K = 40 must be a multiple of 16: TMA needs 16-byte row strides}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x40xf8E4M3FN>, tensor<1x1xf32>,
         tensor<64x40xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x64xf32>
  return %c : tensor<64x64xf32>
}

// -----

// C is stored two columns at a time.
func.func @odd_n(%a: tensor<64x64xf8E4M3FN>, %sa: tensor<1x1xf32>,
                 %b: tensor<60x64xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<64x60xf32> {
  // expected-error @+1 {{N = 60 must be a multiple of 8}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x64xf8E4M3FN>, tensor<1x1xf32>,
         tensor<60x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x60xf32>
  return %c : tensor<64x60xf32>
}

// -----

// A scale must be constant over a CTA's 128 rows, or per row.
func.func @rows_of_64(%a: tensor<256x256xf8E4M3FN>, %sa: tensor<4x2xf32>,
                      %b: tensor<256x256xf8E4M3FN>, %sb: tensor<2x2xf32>) -> tensor<256x256xf32> {
  // expected-error @+1 {{a_scaling tile [64, 128]: the GEMM kernel takes 1, a multiple of 128 or '*' rows per scale}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [64, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x256xf8E4M3FN>, tensor<4x2xf32>,
         tensor<256x256xf8E4M3FN>, tensor<2x2xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}

// -----

// Batched matmuls have no kernel yet.
func.func @batched(%a: tensor<2x64x64xf8E4M3FN>, %sa: tensor<2x1x1xf32>,
                   %b: tensor<2x64x64xf8E4M3FN>, %sb: tensor<2x1x1xf32>) -> tensor<2x64x64xf32> {
  // expected-error @+1 {{convert-fp8-to-nvvm needs static rank-2 operands for a GEMM kernel}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x64x64xf8E4M3FN>, tensor<2x1x1xf32>,
         tensor<2x64x64xf8E4M3FN>, tensor<2x1x1xf32>) -> tensor<2x64x64xf32>
  return %c : tensor<2x64x64xf32>
}

// -----

// Scales in sm_100a's tcgen05 layout (fp8-legalize{chip=sm_100a}) are not
// what the sm_90a kernel reads.
func.func @tcgen05_scales_on_sm90(%x: tensor<128x256xf8E4M3FN>, %sx: tensor<2x512xf8E8M0FNU>,
                                  %w: tensor<128x256xf8E4M3FN>, %sw: tensor<128x8xf8E8M0FNU>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{a_scale_layout tcgen05 is sm_100a's scale-factor layout; the sm_90a GEMM reads row_major or col_major_tma scales}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scale_layout = #fp8.scale_layout<tcgen05>,
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>, tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>) -> tensor<128x128xbf16>
  return %y : tensor<128x128xbf16>
}

// -----

// A matmul kept in high precision takes 16-bit operands: f32 ones have no
// GEMM kernel.
func.func @high_precision_f32(%a: tensor<128x256xf32>, %b: tensor<128x256xf32>) -> tensor<128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<128x128xf32>) -> tensor<128x128xf32>
  // expected-error @+1 {{the high-precision GEMM takes two bf16 or two f16 operands, not 'f32' x 'f32'}}
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {fp8_high_precision}
         ins(%a, %b : tensor<128x256xf32>, tensor<128x256xf32>) outs(%init : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// The kernel writes C: an init other than a zero fill would be lost.
func.func @high_precision_accumulates(%a: tensor<128x256xbf16>, %b: tensor<128x256xbf16>,
                                      %c0: tensor<128x128xf32>) -> tensor<128x128xf32> {
  // expected-error @+1 {{the high-precision GEMM writes C: its init must be a linalg.fill of zero}}
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {fp8_high_precision}
         ins(%a, %b : tensor<128x256xbf16>, tensor<128x256xbf16>) outs(%c0 : tensor<128x128xf32>) -> tensor<128x128xf32>
  return %c : tensor<128x128xf32>
}

// -----

// The promoted loop adds a partial sum every 32 or 64 of K, or once per
// 128-deep K-block: a K-block of 96 would promote across a scale block's
// edge.
func.func @k_block_96(%a: tensor<256x384xf8E4M3FN>, %sa: tensor<256x4xf32>,
                      %b: tensor<256x384xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<256x256xbf16> {
  // expected-error @+1 {{K-block 96: the sm_90a GEMM promotes every 32 or 64 of K or every multiple of 128 (a K-block that divides 128 or is a multiple of it)}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 96], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x384xf8E4M3FN>, tensor<256x4xf32>,
         tensor<256x384xf8E4M3FN>, tensor<1x1xf32>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
