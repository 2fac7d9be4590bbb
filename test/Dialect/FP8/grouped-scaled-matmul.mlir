// RUN: fp8-opt %s | fp8-opt | FileCheck %s

// fp8.grouped_scaled_matmul round-trips, in both layouts; contiguous is the
// default and is not printed.

// CHECK-LABEL: func.func @contiguous
// CHECK: fp8.grouped_scaled_matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : (tensor<1000x512xf8E4M3FN>, tensor<1000x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<1000x256xbf16>
func.func @contiguous(%a: tensor<1000x512xf8E4M3FN>, %sa: tensor<1000x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) -> tensor<1000x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<contiguous>}
      : (tensor<1000x512xf8E4M3FN>, tensor<1000x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<1000x256xbf16>
  return %c : tensor<1000x256xbf16>
}

// CHECK-LABEL: func.func @masked_mx
// CHECK: layout = #fp8.group_layout<masked>
func.func @masked_mx(%a: tensor<8x64x256xf8E4M3FN>, %sa: tensor<8x64x8xf8E8M0FNU>, %b: tensor<8x512x256xf8E4M3FN>, %sb: tensor<8x512x8xf8E8M0FNU>, %r: tensor<8xi32>) -> tensor<8x64x512xf32> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        layout = #fp8.group_layout<masked>}
      : (tensor<8x64x256xf8E4M3FN>, tensor<8x64x8xf8E8M0FNU>, tensor<8x512x256xf8E4M3FN>, tensor<8x512x8xf8E8M0FNU>, tensor<8xi32>) -> tensor<8x64x512xf32>
  return %c : tensor<8x64x512xf32>
}

// A contiguous A's per-row scales in the col_major_tma layout: the
// transposed [K-blocks, M'] scales (1000 rows padded to 1000) round-trip
// with their layout.
// CHECK-LABEL: func.func @col_major_tma
// CHECK: a_scale_layout = #fp8.scale_layout<col_major_tma>
// CHECK-SAME: (tensor<1000x512xf8E4M3FN>, tensor<4x1000xf32>,
func.func @col_major_tma(%a: tensor<1000x512xf8E4M3FN>, %sa: tensor<4x1000xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) -> tensor<1000x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<1000x512xf8E4M3FN>, tensor<4x1000xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<1000x256xbf16>
  return %c : tensor<1000x256xbf16>
}
