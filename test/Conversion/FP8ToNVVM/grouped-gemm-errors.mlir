// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm
// RUN: not fp8-opt %s -split-input-file --convert-fp8-to-nvvm=chip=sm_100a 2>&1 | FileCheck %s --check-prefix=SM100

// Grouped GEMM forms the sm_90a kernel does not take get a diagnostic at
// the op. A's scales are read per row of all groups' rows:
func.func @a_tile_rows(%a: tensor<4x256x512xf8E4M3FN>, %sa: tensor<4x2x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) -> tensor<4x256x256xbf16> {
  // expected-error @+1 {{a_scaling tile [128, 128]: the grouped GEMM kernel takes one scale per row of A or one for all of a group's rows}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<4x256x256xbf16>
  return %c : tensor<4x256x256xbf16>
}

// -----

func.func @odd_n(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<2x20x512xf8E4M3FN>, %sb: tensor<2x1x4xf32>, %r: tensor<2xi32>) -> tensor<64x20xbf16> {
  // expected-error @+1 {{N = 20 must be a multiple of 8}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<2x20x512xf8E4M3FN>, tensor<2x1x4xf32>, tensor<2xi32>) -> tensor<64x20xbf16>
  return %c : tensor<64x20xbf16>
}

// -----

func.func @b_tile_rows(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<2x256x512xf8E4M3FN>, %sb: tensor<2x4x4xf32>, %r: tensor<2xi32>) -> tensor<64x256xbf16> {
  // expected-error @+1 {{b_scaling tile [64, 128]: the GEMM kernel takes 1, a multiple of 128 or '*' rows per scale}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [64, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<2x256x512xf8E4M3FN>, tensor<2x4x4xf32>, tensor<2xi32>) -> tensor<64x256xbf16>
  return %c : tensor<64x256xbf16>
}

// -----

func.func @no_groups(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<0x256x512xf8E4M3FN>, %sb: tensor<0x2x4xf32>, %r: tensor<0xi32>) -> tensor<64x256xbf16> {
  // expected-error @+1 {{convert-fp8-to-nvvm: a grouped GEMM kernel needs at least one group}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<0x256x512xf8E4M3FN>, tensor<0x2x4xf32>, tensor<0xi32>) -> tensor<64x256xbf16>
  return %c : tensor<64x256xbf16>
}

// -----

// group_rows' extent is the manifest's: it must be static.
func.func @dynamic_rows(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<2x256x512xf8E4M3FN>, %sb: tensor<2x2x4xf32>, %r: tensor<?xi32>) -> tensor<64x256xbf16> {
  // expected-error @+1 {{convert-fp8-to-nvvm needs static shapes for a grouped GEMM kernel}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<2x256x512xf8E4M3FN>, tensor<2x2x4xf32>, tensor<?xi32>) -> tensor<64x256xbf16>
  return %c : tensor<64x256xbf16>
}

// -----

func.func @k_block_96(%a: tensor<64x384xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<2x256x384xf8E4M3FN>, %sb: tensor<2x1x1xf32>, %r: tensor<2xi32>) -> tensor<64x256xbf16> {
  // expected-error @+1 {{K-block 96: the sm_90a GEMM promotes every 32 or 64 of K or every multiple of 128}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 96], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : (tensor<64x384xf8E4M3FN>, tensor<64x4xf32>, tensor<2x256x384xf8E4M3FN>, tensor<2x1x1xf32>, tensor<2xi32>) -> tensor<64x256xbf16>
  return %c : tensor<64x256xbf16>
}

// No tcgen05 grouped GEMM yet: every case is refused for sm_100a.
// SM100-COUNT-6: error: 'fp8.grouped_scaled_matmul' op convert-fp8-to-nvvm has no sm_100a grouped GEMM kernel yet; chip=sm_90a has one
