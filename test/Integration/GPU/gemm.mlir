// GEMM kernels checked on the GPU by make check-gpu (check_gemm.py): every
// scaling the sm_90a kernel takes, both element types, bf16 and f32 output,
// promoted and fast accumulation, edge tiles (M = 1, 17, 4095; K = 208),
// small M (one narrow 64-row tile per SM up to 64 rows; M = 1 .. 256), the
// 128 x 256 tiles of fast accumulation, the 128 x 192 tiles of plain
// promotion (tensorwise, rowwise) and the 192 x 128 tiles of blockwise
// scales (three consumer warpgroups) on large problems; every 1x128 case
// again (`_tma`) with its scales in the col_major_tma layout that
// fp8-legalize makes, which TMA loads with each K-block; partial last
// rounds of the persistent tile loop for each tile shape; last rounds of
// 192 x 128 tiles split into 64-row sub-tiles; and grouped GEMMs
// (fp8.grouped_scaled_matmul) in both layouts, fp8-run choosing group sizes
// that are rarely tile multiples, with empty groups and rows of no group.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t > /dev/null
// RUN: %fp8-run %t/manifest.json --iters 0 --seed 0 --dump %t/dump
// RUN: %check-gemm %t/dump

// 4095x1024x1024 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_4095(%a: tensor<4095x1024xf8E4M3FN>, %sa: tensor<4095x8xf32>, %b: tensor<1024x1024xf8E4M3FN>, %sb: tensor<8x8xf32>) -> tensor<4095x1024xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x1024xf8E4M3FN>, tensor<4095x8xf32>, tensor<1024x1024xf8E4M3FN>, tensor<8x8xf32>) -> tensor<4095x1024xbf16>
  return %c : tensor<4095x1024xbf16>
}

// 1x512x512 blockwise f8E4M3FN x f8E4M3FN -> f32, promoted
func.func @blockwise_m1_f32(%a: tensor<1x512xf8E4M3FN>, %sa: tensor<1x4xf32>, %b: tensor<512x512xf8E4M3FN>, %sb: tensor<4x4xf32>) -> tensor<1x512xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<1x512xf8E4M3FN>, tensor<1x4xf32>, tensor<512x512xf8E4M3FN>, tensor<4x4xf32>) -> tensor<1x512xf32>
  return %c : tensor<1x512xf32>
}

// 17x256x208 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_m17_k208(%a: tensor<17x208xf8E4M3FN>, %sa: tensor<17x2xf32>, %b: tensor<256x208xf8E4M3FN>, %sb: tensor<2x2xf32>) -> tensor<17x256xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<17x208xf8E4M3FN>, tensor<17x2xf32>, tensor<256x208xf8E4M3FN>, tensor<2x2xf32>) -> tensor<17x256xbf16>
  return %c : tensor<17x256xbf16>
}

// 256x512x512 blockwise f8E5M2 x f8E4M3FN -> bf16, promoted
func.func @blockwise_e5m2_dgrad(%a: tensor<256x512xf8E5M2>, %sa: tensor<256x4xf32>, %b: tensor<512x512xf8E4M3FN>, %sb: tensor<4x4xf32>) -> tensor<256x512xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E5M2>, tensor<256x4xf32>, tensor<512x512xf8E4M3FN>, tensor<4x4xf32>) -> tensor<256x512xbf16>
  return %c : tensor<256x512xbf16>
}

// 512x768x1024 blockwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @blockwise_fast(%a: tensor<512x1024xf8E4M3FN>, %sa: tensor<512x8xf32>, %b: tensor<768x1024xf8E4M3FN>, %sb: tensor<6x8xf32>) -> tensor<512x768xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<512x1024xf8E4M3FN>, tensor<512x8xf32>, tensor<768x1024xf8E4M3FN>, tensor<6x8xf32>) -> tensor<512x768xbf16>
  return %c : tensor<512x768xbf16>
}

// 512x512x1024 tensorwise f8E4M3FN x f8E4M3FN -> f32, promoted
func.func @tensorwise_f32(%a: tensor<512x1024xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<512x1024xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<512x512xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<512x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<512x1024xf8E4M3FN>, tensor<1x1xf32>) -> tensor<512x512xf32>
  return %c : tensor<512x512xf32>
}

// 4095x1024x512 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast(%a: tensor<4095x512xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<1024x512xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4095x1024xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<4095x512xf8E4M3FN>, tensor<1x1xf32>, tensor<1024x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4095x1024xbf16>
  return %c : tensor<4095x1024xbf16>
}

// 256x384x512 tensorwise f8E5M2 x f8E5M2 -> bf16, promoted
func.func @tensorwise_e5m2(%a: tensor<256x512xf8E5M2>, %sa: tensor<1x1xf32>, %b: tensor<384x512xf8E5M2>, %sb: tensor<1x1xf32>) -> tensor<256x384xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E5M2>, tensor<1x1xf32>, tensor<384x512xf8E5M2>, tensor<1x1xf32>) -> tensor<256x384xbf16>
  return %c : tensor<256x384xbf16>
}

// 4095x512x256 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_4095(%a: tensor<4095x256xf8E4M3FN>, %sa: tensor<4095x1xf32>, %b: tensor<512x256xf8E4M3FN>, %sb: tensor<512x1xf32>) -> tensor<4095x512xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x256xf8E4M3FN>, tensor<4095x1xf32>, tensor<512x256xf8E4M3FN>, tensor<512x1xf32>) -> tensor<4095x512xbf16>
  return %c : tensor<4095x512xbf16>
}

// 1x1024x2048 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_m1(%a: tensor<1x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<1024x2048xf8E4M3FN>, %sb: tensor<1024x1xf32>) -> tensor<1x1024xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<1x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<1024x2048xf8E4M3FN>, tensor<1024x1xf32>) -> tensor<1x1024xbf16>
  return %c : tensor<1x1024xbf16>
}

// 384x512x1024 wgrad f8E5M2 x f8E4M3FN -> f32, promoted
func.func @wgrad_1x128(%a: tensor<384x1024xf8E5M2>, %sa: tensor<384x8xf32>, %b: tensor<512x1024xf8E4M3FN>, %sb: tensor<512x8xf32>) -> tensor<384x512xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<384x1024xf8E5M2>, tensor<384x8xf32>, tensor<512x1024xf8E4M3FN>, tensor<512x8xf32>) -> tensor<384x512xf32>
  return %c : tensor<384x512xf32>
}

// 256x256x512 mxfp8 f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @mxfp8_1x32(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<256x16xf8E8M0FNU>, %b: tensor<256x512xf8E4M3FN>, %sb: tensor<256x16xf8E8M0FNU>) -> tensor<256x256xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>, tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
// 8192x2048x256 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_n256(%a: tensor<8192x256xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<2048x256xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<8192x256xf8E4M3FN>, tensor<1x1xf32>, tensor<2048x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x2048xbf16>
  return %c : tensor<8192x2048xbf16>
}

// 4096x1984x256 rowwise f8E4M3FN x f8E4M3FN -> f32, promoted
func.func @rowwise_n192_f32(%a: tensor<4096x256xf8E4M3FN>, %sa: tensor<4096x1xf32>, %b: tensor<1984x256xf8E4M3FN>, %sb: tensor<1984x1xf32>) -> tensor<4096x1984xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x256xf8E4M3FN>, tensor<4096x1xf32>, tensor<1984x256xf8E4M3FN>, tensor<1984x1xf32>) -> tensor<4096x1984xf32>
  return %c : tensor<4096x1984xf32>
}


// 4095x2048x512 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted: 192 x 128
// tiles (three consumer warpgroups), a partial last row of tiles
func.func @blockwise_192rows(%a: tensor<4095x512xf8E4M3FN>, %sa: tensor<4095x4xf32>, %b: tensor<2048x512xf8E4M3FN>, %sb: tensor<16x4xf32>) -> tensor<4095x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x512xf8E4M3FN>, tensor<4095x4xf32>, tensor<2048x512xf8E4M3FN>, tensor<16x4xf32>) -> tensor<4095x2048xbf16>
  return %c : tensor<4095x2048xbf16>
}

// 2000x4096x256 wgrad f8E5M2 x f8E4M3FN -> f32, promoted: per-column B
// scales keep 128 x 128 tiles on a problem large enough for 192 x 128
func.func @wgrad_large(%a: tensor<2000x256xf8E5M2>, %sa: tensor<2000x2xf32>, %b: tensor<4096x256xf8E4M3FN>, %sb: tensor<4096x2xf32>) -> tensor<2000x4096xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2000x256xf8E5M2>, tensor<2000x2xf32>, tensor<4096x256xf8E4M3FN>, tensor<4096x2xf32>) -> tensor<2000x4096xf32>
  return %c : tensor<2000x4096xf32>
}

// 4095x1920x384 blockwise f8E4M3FN x f8E5M2 -> f32, promoted: 192 x 128
// tiles, an odd number of column tiles (15)
func.func @blockwise_192rows_n1920_f32(%a: tensor<4095x384xf8E4M3FN>, %sa: tensor<4095x3xf32>, %b: tensor<1920x384xf8E5M2>, %sb: tensor<15x3xf32>) -> tensor<4095x1920xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x384xf8E4M3FN>, tensor<4095x3xf32>, tensor<1920x384xf8E5M2>, tensor<15x3xf32>) -> tensor<4095x1920xf32>
  return %c : tensor<4095x1920xf32>
}

// 4095x1024x1024 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted; col_major_tma scales
func.func @blockwise_4095_tma(%a: tensor<4095x1024xf8E4M3FN>, %sa: tensor<8x4096xf32>, %b: tensor<1024x1024xf8E4M3FN>, %sb: tensor<8x8xf32>) -> tensor<4095x1024xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x1024xf8E4M3FN>, tensor<8x4096xf32>, tensor<1024x1024xf8E4M3FN>, tensor<8x8xf32>) -> tensor<4095x1024xbf16>
  return %c : tensor<4095x1024xbf16>
}

// 1x512x512 blockwise f8E4M3FN x f8E4M3FN -> f32, promoted; col_major_tma scales
func.func @blockwise_m1_f32_tma(%a: tensor<1x512xf8E4M3FN>, %sa: tensor<4x4xf32>, %b: tensor<512x512xf8E4M3FN>, %sb: tensor<4x4xf32>) -> tensor<1x512xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<1x512xf8E4M3FN>, tensor<4x4xf32>, tensor<512x512xf8E4M3FN>, tensor<4x4xf32>) -> tensor<1x512xf32>
  return %c : tensor<1x512xf32>
}

// 17x256x208 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted; col_major_tma scales
func.func @blockwise_m17_k208_tma(%a: tensor<17x208xf8E4M3FN>, %sa: tensor<2x20xf32>, %b: tensor<256x208xf8E4M3FN>, %sb: tensor<2x2xf32>) -> tensor<17x256xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<17x208xf8E4M3FN>, tensor<2x20xf32>, tensor<256x208xf8E4M3FN>, tensor<2x2xf32>) -> tensor<17x256xbf16>
  return %c : tensor<17x256xbf16>
}

// 256x512x512 blockwise f8E5M2 x f8E4M3FN -> bf16, promoted; col_major_tma scales
func.func @blockwise_e5m2_dgrad_tma(%a: tensor<256x512xf8E5M2>, %sa: tensor<4x256xf32>, %b: tensor<512x512xf8E4M3FN>, %sb: tensor<4x4xf32>) -> tensor<256x512xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E5M2>, tensor<4x256xf32>, tensor<512x512xf8E4M3FN>, tensor<4x4xf32>) -> tensor<256x512xbf16>
  return %c : tensor<256x512xbf16>
}

// 512x768x1024 blockwise f8E4M3FN x f8E4M3FN -> bf16, fast; col_major_tma scales
func.func @blockwise_fast_tma(%a: tensor<512x1024xf8E4M3FN>, %sa: tensor<8x512xf32>, %b: tensor<768x1024xf8E4M3FN>, %sb: tensor<6x8xf32>) -> tensor<512x768xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<512x1024xf8E4M3FN>, tensor<8x512xf32>, tensor<768x1024xf8E4M3FN>, tensor<6x8xf32>) -> tensor<512x768xbf16>
  return %c : tensor<512x768xbf16>
}

// 384x512x1024 wgrad f8E5M2 x f8E4M3FN -> f32, promoted; col_major_tma scales
func.func @wgrad_1x128_tma(%a: tensor<384x1024xf8E5M2>, %sa: tensor<8x384xf32>, %b: tensor<512x1024xf8E4M3FN>, %sb: tensor<8x512xf32>) -> tensor<384x512xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scale_layout = #fp8.scale_layout<col_major_tma>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<384x1024xf8E5M2>, tensor<8x384xf32>, tensor<512x1024xf8E4M3FN>, tensor<8x512xf32>) -> tensor<384x512xf32>
  return %c : tensor<384x512xf32>
}

// tiles (three consumer warpgroups), a partial last row of tiles; col_major_tma scales
func.func @blockwise_192rows_tma(%a: tensor<4095x512xf8E4M3FN>, %sa: tensor<4x4096xf32>, %b: tensor<2048x512xf8E4M3FN>, %sb: tensor<16x4xf32>) -> tensor<4095x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x512xf8E4M3FN>, tensor<4x4096xf32>, tensor<2048x512xf8E4M3FN>, tensor<16x4xf32>) -> tensor<4095x2048xbf16>
  return %c : tensor<4095x2048xbf16>
}

// 2000x4096x256 wgrad f8E5M2 x f8E4M3FN -> f32, promoted: 192 x 128 tiles
// with per-column B scales; col_major_tma scales
func.func @wgrad_large_tma(%a: tensor<2000x256xf8E5M2>, %sa: tensor<2x2000xf32>, %b: tensor<4096x256xf8E4M3FN>, %sb: tensor<2x4096xf32>) -> tensor<2000x4096xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scale_layout = #fp8.scale_layout<col_major_tma>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2000x256xf8E5M2>, tensor<2x2000xf32>, tensor<4096x256xf8E4M3FN>, tensor<2x4096xf32>) -> tensor<2000x4096xf32>
  return %c : tensor<2000x4096xf32>
}

// 4095x1920x384 blockwise f8E4M3FN x f8E5M2 -> f32, promoted: 192 x 128
// tiles, an odd number of column tiles (15); col_major_tma scales
func.func @blockwise_192rows_n1920_f32_tma(%a: tensor<4095x384xf8E4M3FN>, %sa: tensor<3x4096xf32>, %b: tensor<1920x384xf8E5M2>, %sb: tensor<15x3xf32>) -> tensor<4095x1920xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x384xf8E4M3FN>, tensor<3x4096xf32>, tensor<1920x384xf8E5M2>, tensor<15x3xf32>) -> tensor<4095x1920xf32>
  return %c : tensor<4095x1920xf32>
}

// 4095x1984x512 blockwise -> bf16: wide enough for 192-column tiles, which
// straddle B's 128x128 scale blocks (odd tiles at column 64), and N not a
// multiple of 128 (a partial last scale block)
func.func @blockwise_n1984(%a: tensor<4095x512xf8E4M3FN>, %sa: tensor<4095x4xf32>, %b: tensor<1984x512xf8E4M3FN>, %sb: tensor<16x4xf32>) -> tensor<4095x1984xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x512xf8E4M3FN>, tensor<4095x4xf32>, tensor<1984x512xf8E4M3FN>, tensor<16x4xf32>) -> tensor<4095x1984xbf16>
  return %c : tensor<4095x1984xbf16>
}

// The same -> f32 with col_major_tma A scales
func.func @blockwise_n1984_tma_f32(%a: tensor<4095x512xf8E4M3FN>, %sa: tensor<4x4096xf32>, %b: tensor<1984x512xf8E4M3FN>, %sb: tensor<16x4xf32>) -> tensor<4095x1984xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x512xf8E4M3FN>, tensor<4x4096xf32>, tensor<1984x512xf8E4M3FN>, tensor<16x4xf32>) -> tensor<4095x1984xf32>
  return %c : tensor<4095x1984xf32>
}

// 4096x2048x256 tensorwise A, B one scale per 128 rows over all of K,
// promoted -> bf16: large enough for 128 x 192 tiles, which would straddle
// B's scale blocks, so the kernel keeps 128 x 128
func.func @b_row_blocks(%a: tensor<4096x256xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<2048x256xf8E4M3FN>, %sb: tensor<16x1xf32>) -> tensor<4096x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x256xf8E4M3FN>, tensor<1x1xf32>, tensor<2048x256xf8E4M3FN>, tensor<16x1xf32>) -> tensor<4096x2048xbf16>
  return %c : tensor<4096x2048xbf16>
}

// 8192x2048x256 the same, fast: not 128 x 256 either
func.func @b_row_blocks_fast(%a: tensor<8192x256xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<2048x256xf8E4M3FN>, %sb: tensor<16x1xf32>) -> tensor<8192x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<8192x256xf8E4M3FN>, tensor<1x1xf32>, tensor<2048x256xf8E4M3FN>, tensor<16x1xf32>) -> tensor<8192x2048xbf16>
  return %c : tensor<8192x2048xbf16>
}

// Partial last rounds of the persistent tile loop (CTAs with one tile more
// than others), after full rounds on all 132 SMs.
// 4096x1664x1024 blockwise -> bf16: 286 tiles of 192 x 128 (22 in the last
// round, split into 66 sub-tiles), partial last row of tiles; col_major_tma
func.func @partial_round_blockwise_tma(%a: tensor<4096x1024xf8E4M3FN>, %sa: tensor<8x4096xf32>, %b: tensor<1664x1024xf8E4M3FN>, %sb: tensor<13x8xf32>) -> tensor<4096x1664xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x1024xf8E4M3FN>, tensor<8x4096xf32>, tensor<1664x1024xf8E4M3FN>, tensor<13x8xf32>) -> tensor<4096x1664xbf16>
  return %c : tensor<4096x1664xbf16>
}

// 4032x1664x1024 blockwise e4m3 x e5m2 -> f32: 273 tiles of 192 x 128, a
// partial last round (9 tiles, split); row-major scales read from global
// memory. (A last round of whole 192 x 128 tiles: blockwise_192rows.)
func.func @partial_round_blockwise_f32(%a: tensor<4032x1024xf8E4M3FN>, %sa: tensor<4032x8xf32>, %b: tensor<1664x1024xf8E5M2>, %sb: tensor<13x8xf32>) -> tensor<4032x1664xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4032x1024xf8E4M3FN>, tensor<4032x8xf32>, tensor<1664x1024xf8E5M2>, tensor<13x8xf32>) -> tensor<4032x1664xf32>
  return %c : tensor<4032x1664xf32>
}

// 2100x1024x1024 tensorwise -> f32, promoted: 136 tiles of 128 x 128, a
// partial last round, partial last row of tiles
func.func @partial_round_tensorwise_f32(%a: tensor<2100x1024xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<1024x1024xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<2100x1024xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2100x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<1024x1024xf8E4M3FN>, tensor<1x1xf32>) -> tensor<2100x1024xf32>
  return %c : tensor<2100x1024xf32>
}

// 8192x2304x512 tensorwise -> bf16, fast: 576 tiles of 128 x 256, a
// partial last round
func.func @partial_round_tensorwise_fast_n256(%a: tensor<8192x512xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<2304x512xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x2304xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        accumulate = #fp8.accumulate<fast>,
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x512xf8E4M3FN>, tensor<1x1xf32>, tensor<2304x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x2304xbf16>
  return %c : tensor<8192x2304xbf16>
}

// 2100x1024x512 mxfp8 -> bf16: 272 tiles of 128 x 64 (with 128 x 128 tiles
// the per-column scales of promotion every 32 spilled), a partial last round
func.func @partial_round_mxfp8(%a: tensor<2100x512xf8E4M3FN>, %sa: tensor<2100x16xf8E8M0FNU>, %b: tensor<1024x512xf8E4M3FN>, %sb: tensor<1024x16xf8E8M0FNU>) -> tensor<2100x1024xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<2100x512xf8E4M3FN>, tensor<2100x16xf8E8M0FNU>, tensor<1024x512xf8E4M3FN>, tensor<1024x16xf8E8M0FNU>) -> tensor<2100x1024xbf16>
  return %c : tensor<2100x1024xbf16>
}

// Split last rounds (192 x 128 tiles): the last round's tiles, at most a
// third of the SMs' worth, run as 64-row sub-tiles, a CTA each, whose three
// consumers take every third K-block and add their sums in shared memory.
// 4096x4096x1024 blockwise -> bf16, col_major_tma: 704 tiles, the last 44
// split into 132 sub-tiles; K-blocks 3, 3, 2 per consumer; sub-tiles of the
// last row of tiles (64 rows in M) past M do nothing
func.func @split_round_tma(%a: tensor<4096x1024xf8E4M3FN>, %sa: tensor<8x4096xf32>, %b: tensor<4096x1024xf8E4M3FN>, %sb: tensor<32x8xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x1024xf8E4M3FN>, tensor<8x4096xf32>, tensor<4096x1024xf8E4M3FN>, tensor<32x8xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// 4000x4096x208 blockwise e4m3 x e5m2 -> f32, row-major scales: 672 tiles,
// 12 split; two K-blocks (the second partial), so consumer 2 has none and
// adds zeros; a sub-tile partly past M (rows 3968..3999 of 3968..4031).
// (check_gemm.py zero-pads K to 512 for torch._scaled_mm: cuBLASLt reads
// 128x128 scales with K-blocks per row rounded up to 4.)
func.func @split_round_k208_f32(%a: tensor<4000x208xf8E4M3FN>, %sa: tensor<4000x2xf32>, %b: tensor<4096x208xf8E5M2>, %sb: tensor<32x2xf32>) -> tensor<4000x4096xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4000x208xf8E4M3FN>, tensor<4000x2xf32>, tensor<4096x208xf8E5M2>, tensor<32x2xf32>) -> tensor<4000x4096xf32>
  return %c : tensor<4000x4096xf32>
}

// 4096x4096x128 blockwise -> bf16: one K-block, consumer 0's alone
func.func @split_round_k128(%a: tensor<4096x128xf8E4M3FN>, %sa: tensor<4096x1xf32>, %b: tensor<4096x128xf8E4M3FN>, %sb: tensor<32x1xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x128xf8E4M3FN>, tensor<4096x1xf32>, tensor<4096x128xf8E4M3FN>, tensor<32x1xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// Small M (chooseSmallM): at most 64 rows take 64-row tiles of one
// consumer, as narrow as makes one per SM, C stored directly where a tile
// is not whole 64-column chunks; more rows keep 128 x 64 (or 128 x 128)
// tiles, here with partial row and column tiles.
// 1x1000x512 tensorwise -> bf16, fast: 64 x 16 tiles, 63 of them, the last
// 8 columns wide
func.func @small_m1_fast(%a: tensor<1x512xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<1000x512xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<1x1000xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<1x512xf8E4M3FN>, tensor<1x1xf32>, tensor<1000x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<1x1000xbf16>
  return %c : tensor<1x1000xbf16>
}

// 64x7128x1024 rowwise -> f32, promoted: 64 x 56 tiles, 128 of them, the
// last 16 columns wide
func.func @small_m64_rowwise_f32(%a: tensor<64x1024xf8E4M3FN>, %sa: tensor<64x1xf32>, %b: tensor<7128x1024xf8E4M3FN>, %sb: tensor<7128x1xf32>) -> tensor<64x7128xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x1024xf8E4M3FN>, tensor<64x1xf32>, tensor<7128x1024xf8E4M3FN>, tensor<7128x1xf32>) -> tensor<64x7128xf32>
  return %c : tensor<64x7128xf32>
}

// 40x2984x512 blockwise -> f32, col_major_tma: 64 x 24 tiles (rows 40..63
// past M), 125 of them, the last 8 columns wide; tiles straddle B's 128-row
// scale blocks, so B's scales are read per column
func.func @small_m40_blockwise_straddle(%a: tensor<40x512xf8E4M3FN>, %sa: tensor<4x40xf32>, %b: tensor<2984x512xf8E4M3FN>, %sb: tensor<24x4xf32>) -> tensor<40x2984xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<40x512xf8E4M3FN>, tensor<4x40xf32>, tensor<2984x512xf8E4M3FN>, tensor<24x4xf32>) -> tensor<40x2984xf32>
  return %c : tensor<40x2984xf32>
}

// 100x7168x2048 blockwise -> bf16, col_major_tma: 128 x 64 tiles, rows
// 100..127 past M
func.func @small_m100_blockwise_tma(%a: tensor<100x2048xf8E4M3FN>, %sa: tensor<16x100xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<56x16xf32>) -> tensor<100x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<100x2048xf8E4M3FN>, tensor<16x100xf32>, tensor<7168x2048xf8E4M3FN>, tensor<56x16xf32>) -> tensor<100x7168xbf16>
  return %c : tensor<100x7168xbf16>
}

// 128x4096x512 blockwise -> f32, row-major scales: 64 tiles of 128 x 64
func.func @small_m128_blockwise_f32(%a: tensor<128x512xf8E4M3FN>, %sa: tensor<128x4xf32>, %b: tensor<4096x512xf8E4M3FN>, %sb: tensor<32x4xf32>) -> tensor<128x4096xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<128x512xf8E4M3FN>, tensor<128x4xf32>, tensor<4096x512xf8E4M3FN>, tensor<32x4xf32>) -> tensor<128x4096xf32>
  return %c : tensor<128x4096xf32>
}

// 256x7168x1024 tensorwise -> bf16, promoted: 112 tiles of 128 x 128
func.func @small_m256_tensorwise(%a: tensor<256x1024xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x1024xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<256x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x1024xf8E4M3FN>, tensor<1x1xf32>) -> tensor<256x7168xbf16>
  return %c : tensor<256x7168xbf16>
}

// 200x2040x256 tensorwise e4m3 x e5m2 -> bf16, fast: 128 x 64 tiles, the
// second row tile partial (72 rows), the last column tile 56 wide
func.func @small_m200_e5m2_fast(%a: tensor<200x256xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<2040x256xf8E5M2>, %sb: tensor<1x1xf32>) -> tensor<200x2040xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<200x256xf8E4M3FN>, tensor<1x1xf32>, tensor<2040x256xf8E5M2>, tensor<1x1xf32>) -> tensor<200x2040xbf16>
  return %c : tensor<200x2040xbf16>
}

// Matmuls kept in high precision (fp8_high_precision, rowwise_gw_hp's
// Wgrad): bf16/f16 operands read as stored (MN-major where the maps
// contract the stored rows), f32 accumulation, checked against the float64
// product (check_gemm.py's hp_tolerance).
// 768x1024x512 Wgrad bf16 (dY^T X, both MN-major) -> f32
func.func @hp_wgrad_mn(%dy: tensor<512x768xbf16>, %x: tensor<512x1024xbf16>) -> tensor<768x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<768x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<768x1024xf32>) -> tensor<768x1024xf32>
  %dw = linalg.matmul indexing_maps = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>, affine_map<(n, k, m) -> (n, k)>] {fp8_high_precision}
          ins(%dy, %x : tensor<512x768xbf16>, tensor<512x1024xbf16>) outs(%init : tensor<768x1024xf32>) -> tensor<768x1024xf32>
  return %dw : tensor<768x1024xf32>
}
// 1000x384x200 bf16 K-major (a partial last K-block and tile) -> bf16
func.func @hp_kmajor_bf16(%a: tensor<1000x200xbf16>, %b: tensor<384x200xbf16>) -> tensor<1000x384xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<1000x384xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<1000x384xbf16>) -> tensor<1000x384xbf16>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>] {fp8_high_precision}
         ins(%a, %b : tensor<1000x200xbf16>, tensor<384x200xbf16>) outs(%init : tensor<1000x384xbf16>) -> tensor<1000x384xbf16>
  return %c : tensor<1000x384xbf16>
}
// 256x256x520 f16, A K-major, B MN-major (K x N; K past a K-block) -> f32
func.func @hp_f16_kn(%a: tensor<256x520xf16>, %b: tensor<520x256xf16>) -> tensor<256x256xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256x256xf32>) -> tensor<256x256xf32>
  %c = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>] {fp8_high_precision}
         ins(%a, %b : tensor<256x520xf16>, tensor<520x256xf16>) outs(%init : tensor<256x256xf32>) -> tensor<256x256xf32>
  return %c : tensor<256x256xf32>
}
// 4096x8192x1024 Wgrad bf16, both MN-major, 128 x 256 tiles (four 64-column
// atoms of B per K-block) -> bf16
func.func @hp_wgrad_n256(%dy: tensor<1024x4096xbf16>, %x: tensor<1024x8192xbf16>) -> tensor<4096x8192xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4096x8192xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16>
  %dw = linalg.matmul indexing_maps = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>, affine_map<(n, k, m) -> (n, k)>] {fp8_high_precision}
          ins(%dy, %x : tensor<1024x4096xbf16>, tensor<1024x8192xbf16>) outs(%init : tensor<4096x8192xbf16>) -> tensor<4096x8192xbf16>
  return %dw : tensor<4096x8192xbf16>
}

// Grouped GEMMs (mixture of experts): 8 experts of 512 x 1024, blockwise;
// contiguous over 3000 rows (bf16), and masked with 384 rows per expert
// (f32); rowwise per-expert weights and e5m2 activations, contiguous; MXFP8
// (1x32 E8M0 both sides, per-column B scales of each expert), contiguous;
// and per-expert tensorwise scales, masked, fast accumulation.
func.func @grouped_blockwise(%a: tensor<3000x1024xf8E4M3FN>, %sa: tensor<3000x8xf32>, %b: tensor<8x512x1024xf8E4M3FN>, %sb: tensor<8x4x8xf32>, %r: tensor<8xi32>) -> tensor<3000x512xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<3000x1024xf8E4M3FN>, tensor<3000x8xf32>, tensor<8x512x1024xf8E4M3FN>, tensor<8x4x8xf32>, tensor<8xi32>) -> tensor<3000x512xbf16>
  return %c : tensor<3000x512xbf16>
}

// The contiguous blockwise case with A's scales in the col_major_tma layout
// (2998 rows: each K-block's row of scales padded to 3000), which TMA
// brings with each K-block from the tile's first row, wherever its group
// starts; on 17000 rows of 8 experts of 512 x 512, enough 192-row tiles to
// fill the SMs; and rowwise A scales in that layout, read from global
// memory through the transposed index.
func.func @grouped_blockwise_tma(%a: tensor<2998x1024xf8E4M3FN>, %sa: tensor<8x3000xf32>, %b: tensor<8x512x1024xf8E4M3FN>, %sb: tensor<8x4x8xf32>, %r: tensor<8xi32>) -> tensor<2998x512xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<2998x1024xf8E4M3FN>, tensor<8x3000xf32>, tensor<8x512x1024xf8E4M3FN>, tensor<8x4x8xf32>, tensor<8xi32>) -> tensor<2998x512xbf16>
  return %c : tensor<2998x512xbf16>
}

func.func @grouped_blockwise_tma_tall(%a: tensor<17000x512xf8E4M3FN>, %sa: tensor<4x17000xf32>, %b: tensor<8x512x512xf8E4M3FN>, %sb: tensor<8x4x4xf32>, %r: tensor<8xi32>) -> tensor<17000x512xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<17000x512xf8E4M3FN>, tensor<4x17000xf32>, tensor<8x512x512xf8E4M3FN>, tensor<8x4x4xf32>, tensor<8xi32>) -> tensor<17000x512xbf16>
  return %c : tensor<17000x512xbf16>
}

func.func @grouped_rowwise_tma(%a: tensor<2000x512xf8E4M3FN>, %sa: tensor<1x2000xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x256x1xf32>, %r: tensor<4xi32>) -> tensor<2000x256xf32> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : (tensor<2000x512xf8E4M3FN>, tensor<1x2000xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x256x1xf32>, tensor<4xi32>) -> tensor<2000x256xf32>
  return %c : tensor<2000x256xf32>
}

func.func @grouped_masked_f32(%a: tensor<8x384x1024xf8E4M3FN>, %sa: tensor<8x384x8xf32>, %b: tensor<8x512x1024xf8E4M3FN>, %sb: tensor<8x4x8xf32>, %r: tensor<8xi32>) -> tensor<8x384x512xf32> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<8x384x1024xf8E4M3FN>, tensor<8x384x8xf32>, tensor<8x512x1024xf8E4M3FN>, tensor<8x4x8xf32>, tensor<8xi32>) -> tensor<8x384x512xf32>
  return %c : tensor<8x384x512xf32>
}

func.func @grouped_rowwise_e5m2(%a: tensor<2000x512xf8E5M2>, %sa: tensor<2000x1xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x256x1xf32>, %r: tensor<4xi32>) -> tensor<2000x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : (tensor<2000x512xf8E5M2>, tensor<2000x1xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x256x1xf32>, tensor<4xi32>) -> tensor<2000x256xbf16>
  return %c : tensor<2000x256xbf16>
}

func.func @grouped_mxfp8(%a: tensor<1000x512xf8E4M3FN>, %sa: tensor<1000x16xf8E8M0FNU>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x256x16xf8E8M0FNU>, %r: tensor<4xi32>) -> tensor<1000x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : (tensor<1000x512xf8E4M3FN>, tensor<1000x16xf8E8M0FNU>, tensor<4x256x512xf8E4M3FN>, tensor<4x256x16xf8E8M0FNU>, tensor<4xi32>) -> tensor<1000x256xbf16>
  return %c : tensor<1000x256xbf16>
}

func.func @grouped_tensorwise_fast(%a: tensor<8x128x512xf8E4M3FN>, %sa: tensor<8x1x1xf32>, %b: tensor<8x256x512xf8E4M3FN>, %sb: tensor<8x1x1xf32>, %r: tensor<8xi32>) -> tensor<8x128x256xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        accumulate = #fp8.accumulate<fast>, layout = #fp8.group_layout<masked>}
      : (tensor<8x128x512xf8E4M3FN>, tensor<8x1x1xf32>, tensor<8x256x512xf8E4M3FN>, tensor<8x1x1xf32>, tensor<8xi32>) -> tensor<8x128x256xbf16>
  return %c : tensor<8x128x256xbf16>
}
