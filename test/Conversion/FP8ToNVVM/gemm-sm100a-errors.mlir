// scaled_matmul forms the sm_100a (tcgen05) GEMM does not take get a
// diagnostic at the op, and no kernel is built.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm=chip=sm_100a

// MXFP8 scales must be in the tcgen05 layout that tcgen05.cp copies.
func.func @mx_row_major(%x: tensor<128x256xf8E4M3FN>, %sx: tensor<128x8xf8E8M0FNU>,
                        %w: tensor<128x256xf8E4M3FN>, %sw: tensor<128x8xf8E8M0FNU>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{the sm_100a MXFP8 GEMM reads both scales in the tcgen05 layout (tcgen05.cp); run fp8-legalize{chip=sm_100a} first}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>, tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>) -> tensor<128x128xbf16>
  return %y : tensor<128x128xbf16>
}

// -----

// Scales that vary along K more often than every 128 elements and are not
// MXFP8 would need promotion inside a K-block.
func.func @k_block_64(%x: tensor<128x256xf8E4M3FN>, %sx: tensor<128x4xf32>,
                      %w: tensor<128x256xf8E4M3FN>, %sw: tensor<1x1xf32>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{a_scaling varies every 64 elements of K: the sm_100a GEMM promotes per 128-deep K-block (kind::f8f6f4), or takes MXFP8 (E8M0 1x32 on both operands, kind::mxf8f6f4)}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [1, 64], scale = f32>,
         b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<128x4xf32>, tensor<128x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x128xbf16>
  return %y : tensor<128x128xbf16>
}

// -----

// An MN-major operand's rows are M (or N) elements long: TMA needs 16-byte
// row strides.
func.func @mn_major_stride(%dy: tensor<256x200xf8E4M3FN>, %sdy: tensor<1x1xf32>,
                           %x: tensor<256x512xf8E4M3FN>, %sx: tensor<1x1xf32>) -> tensor<200x512xf32> {
  // expected-error @+1 {{A is stored with rows of 200 elements: TMA needs a multiple of 16 (16-byte row strides)}}
  %dw = fp8.scaled_matmul %dy, %sdy, %x, %sx {
          a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
          b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
          contracting = array<i64: 0, 0>}
      : (tensor<256x200xf8E4M3FN>, tensor<1x1xf32>, tensor<256x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<200x512xf32>
  return %dw : tensor<200x512xf32>
}

// -----

// C is stored 16 bytes at a time: N must be a multiple of 8.
func.func @odd_n(%x: tensor<128x256xf8E4M3FN>, %sx: tensor<1x1xf32>,
                 %w: tensor<100x256xf8E4M3FN>, %sw: tensor<1x1xf32>) -> tensor<128x100xbf16> {
  // expected-error @+1 {{N = 100 must be a multiple of 8 (16-byte stores of C)}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<1x1xf32>, tensor<100x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x100xbf16>
  return %y : tensor<128x100xbf16>
}

// -----

// Static shapes only, as on sm_90a (checked before either kernel).
func.func @dynamic(%x: tensor<?x256xf8E4M3FN>, %sx: tensor<1x1xf32>,
                   %w: tensor<128x256xf8E4M3FN>, %sw: tensor<1x1xf32>) -> tensor<?x128xbf16> {
  // expected-error @+1 {{convert-fp8-to-nvvm needs static rank-2 operands for a GEMM kernel}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         contracting = array<i64: 1, 1>}
      : (tensor<?x256xf8E4M3FN>, tensor<1x1xf32>, tensor<128x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<?x128xbf16>
  return %y : tensor<?x128xbf16>
}
