// fp8-legalize{chip=sm_100a}: tcgen05 reads FP8 operands in either major,
// so no operand is transposed; MXFP8 scales (E8M0, 1x32 along K) go into the
// tcgen05 scale-factor layout. Other recipes are left as they are.
// RUN: fp8-opt %s -split-input-file --fp8-legalize=chip=sm_100a | FileCheck %s
// Running it twice changes nothing more.
// RUN: fp8-opt %s -split-input-file --fp8-legalize=chip=sm_100a > %t.once
// RUN: fp8-opt %s -split-input-file --fp8-legalize=chip=sm_100a --fp8-legalize=chip=sm_100a > %t.twice
// RUN: diff %t.once %t.twice
// The legalized matmuls still verify and lower to the CPU reference.
// RUN: fp8-opt %s -split-input-file --fp8-legalize=chip=sm_100a --fp8-lower-to-reference | FileCheck %s --check-prefix=REF

// Fprop (both K-major): each side's [rows, K/32] scales become 512-byte
// chunks; the data is untouched.
// CHECK-LABEL: func.func @fprop
// CHECK-SAME: (%[[X:.*]]: tensor<256x512xf8E4M3FN>, %[[SX:.*]]: tensor<256x16xf8E8M0FNU>, %[[W:.*]]: tensor<1024x512xf8E4M3FN>, %[[SW:.*]]: tensor<1024x16xf8E8M0FNU>)
// CHECK-DAG: %[[CX:.*]] = fp8.tcgen05_scales %[[SX]] : tensor<256x16xf8E8M0FNU> -> tensor<8x512xf8E8M0FNU>
// CHECK-DAG: %[[CW:.*]] = fp8.tcgen05_scales %[[SW]] : tensor<1024x16xf8E8M0FNU> -> tensor<32x512xf8E8M0FNU>
// CHECK-NOT: linalg.transpose
// CHECK: fp8.scaled_matmul %[[X]], %[[CX]], %[[W]], %[[CW]]
// CHECK-SAME: a_scale_layout = #fp8.scale_layout<tcgen05>
// CHECK-SAME: b_scale_layout = #fp8.scale_layout<tcgen05>
// CHECK-SAME: contracting = array<i64: 1, 1>
// REF-LABEL: func.func @fprop
// REF-NOT: fp8.scaled_matmul
func.func @fprop(%x: tensor<256x512xf8E4M3FN>, %sx: tensor<256x16xf8E8M0FNU>,
                 %w: tensor<1024x512xf8E4M3FN>, %sw: tensor<1024x16xf8E8M0FNU>)
    -> tensor<256x1024xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>,
         tensor<1024x512xf8E4M3FN>, tensor<1024x16xf8E8M0FNU>) -> tensor<256x1024xbf16>
  return %y : tensor<256x1024xbf16>
}

// -----

// Wgrad (both MN-major, contracting their rows): the data stays MN-major
// (tcgen05's transpose bits); only the small [K/32, rows] scale matrices are
// transposed to [rows, K/32] before chunking.
// CHECK-LABEL: func.func @wgrad
// CHECK-SAME: (%[[DY:.*]]: tensor<256x1024xf8E4M3FN>, %[[SDY:.*]]: tensor<8x1024xf8E8M0FNU>, %[[X:.*]]: tensor<256x512xf8E4M3FN>, %[[SX:.*]]: tensor<8x512xf8E8M0FNU>)
// CHECK-DAG: %[[TDY:.*]] = linalg.transpose ins(%[[SDY]] : tensor<8x1024xf8E8M0FNU>)
// CHECK-DAG: %[[CDY:.*]] = fp8.tcgen05_scales %[[TDY]] : tensor<1024x8xf8E8M0FNU> -> tensor<16x512xf8E8M0FNU>
// CHECK-DAG: %[[TX:.*]] = linalg.transpose ins(%[[SX]] : tensor<8x512xf8E8M0FNU>)
// CHECK-DAG: %[[CX:.*]] = fp8.tcgen05_scales %[[TX]] : tensor<512x8xf8E8M0FNU> -> tensor<8x512xf8E8M0FNU>
// CHECK: fp8.scaled_matmul %[[DY]], %[[CDY]], %[[X]], %[[CX]]
// CHECK-SAME: contracting = array<i64: 0, 0>
// REF-LABEL: func.func @wgrad
// REF-NOT: fp8.scaled_matmul
func.func @wgrad(%dy: tensor<256x1024xf8E4M3FN>, %sdy: tensor<8x1024xf8E8M0FNU>,
                 %x: tensor<256x512xf8E4M3FN>, %sx: tensor<8x512xf8E8M0FNU>)
    -> tensor<1024x512xf32> {
  %dw = fp8.scaled_matmul %dy, %sdy, %x, %sx {
          a_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
          b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
          contracting = array<i64: 0, 0>}
      : (tensor<256x1024xf8E4M3FN>, tensor<8x1024xf8E8M0FNU>,
         tensor<256x512xf8E4M3FN>, tensor<8x512xf8E8M0FNU>) -> tensor<1024x512xf32>
  return %dw : tensor<1024x512xf32>
}

// -----

// Two matmuls reading the same scales share one fp8.tcgen05_scales.
// CHECK-LABEL: func.func @shared
// CHECK-COUNT-2: fp8.tcgen05_scales
// CHECK-NOT: fp8.tcgen05_scales
func.func @shared(%x: tensor<128x256xf8E4M3FN>, %sx: tensor<128x8xf8E8M0FNU>,
                  %w: tensor<256x256xf8E4M3FN>, %sw: tensor<256x8xf8E8M0FNU>)
    -> (tensor<128x256xbf16>, tensor<128x256xf32>) {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>,
         tensor<256x256xf8E4M3FN>, tensor<256x8xf8E8M0FNU>) -> tensor<128x256xbf16>
  %z = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>,
         tensor<256x256xf8E4M3FN>, tensor<256x8xf8E8M0FNU>) -> tensor<128x256xf32>
  return %y, %z : tensor<128x256xbf16>, tensor<128x256xf32>
}

// -----

// Blockwise (f32 128x1 on an MN-major A, 128x128) is not block-scaled by
// tcgen05: left alone, A not transposed, row-major scales.
// CHECK-LABEL: func.func @blockwise
// CHECK-NOT: fp8.tcgen05_scales
// CHECK-NOT: linalg.transpose
// CHECK-NOT: scale_layout
// CHECK: return
func.func @blockwise(%x: tensor<512x256xf8E4M3FN>, %sx: tensor<4x256xf32>,
                     %w: tensor<1024x512xf8E4M3FN>, %sw: tensor<8x4xf32>)
    -> tensor<256x1024xbf16> {
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
         b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
         contracting = array<i64: 0, 1>}
      : (tensor<512x256xf8E4M3FN>, tensor<4x256xf32>,
         tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>
  return %y : tensor<256x1024xbf16>
}
