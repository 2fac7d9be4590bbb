// The shapes of bench/gemm.sh (issue 6), bf16 output: blockwise (1x128 x
// 128x128, promoted, A's scales in the col_major_tma layout that
// fp8-legalize{chip=sm_90a} makes), tensorwise (promoted and fast),
// rowwise, and MXFP8 (1x32 E8M0, promoted every 32) at 4096^3.

// 4096x4096x4096 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_promoted_4096x4096x4096(%a: tensor<4096x4096xf8E4M3FN>, %sa: tensor<32x4096xf32>, %b: tensor<4096x4096xf8E4M3FN>, %sb: tensor<32x32xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x4096xf8E4M3FN>, tensor<32x4096xf32>, tensor<4096x4096xf8E4M3FN>, tensor<32x32xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// 4096x4096x4096 tensorwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @tensorwise_promoted_4096x4096x4096(%a: tensor<4096x4096xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x4096xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x4096xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x4096xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// 4096x4096x4096 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_4096x4096x4096(%a: tensor<4096x4096xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x4096xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<4096x4096xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x4096xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// 4096x4096x4096 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_promoted_4096x4096x4096(%a: tensor<4096x4096xf8E4M3FN>, %sa: tensor<4096x1xf32>, %b: tensor<4096x4096xf8E4M3FN>, %sb: tensor<4096x1xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x4096xf8E4M3FN>, tensor<4096x1xf32>, tensor<4096x4096xf8E4M3FN>, tensor<4096x1xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// 8192x8192x8192 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_promoted_8192x8192x8192(%a: tensor<8192x8192xf8E4M3FN>, %sa: tensor<64x8192xf32>, %b: tensor<8192x8192xf8E4M3FN>, %sb: tensor<64x64xf32>) -> tensor<8192x8192xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x8192xf8E4M3FN>, tensor<64x8192xf32>, tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32>) -> tensor<8192x8192xbf16>
  return %c : tensor<8192x8192xbf16>
}

// 8192x8192x8192 tensorwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @tensorwise_promoted_8192x8192x8192(%a: tensor<8192x8192xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<8192x8192xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x8192xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>, tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x8192xbf16>
  return %c : tensor<8192x8192xbf16>
}

// 8192x8192x8192 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_8192x8192x8192(%a: tensor<8192x8192xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<8192x8192xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x8192xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>, tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x8192xbf16>
  return %c : tensor<8192x8192xbf16>
}

// 8192x8192x8192 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_promoted_8192x8192x8192(%a: tensor<8192x8192xf8E4M3FN>, %sa: tensor<8192x1xf32>, %b: tensor<8192x8192xf8E4M3FN>, %sb: tensor<8192x1xf32>) -> tensor<8192x8192xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x8192xf8E4M3FN>, tensor<8192x1xf32>, tensor<8192x8192xf8E4M3FN>, tensor<8192x1xf32>) -> tensor<8192x8192xbf16>
  return %c : tensor<8192x8192xbf16>
}

// 8192x7168x2048 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_promoted_8192x7168x2048(%a: tensor<8192x2048xf8E4M3FN>, %sa: tensor<16x8192xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<56x16xf32>) -> tensor<8192x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x2048xf8E4M3FN>, tensor<16x8192xf32>, tensor<7168x2048xf8E4M3FN>, tensor<56x16xf32>) -> tensor<8192x7168xbf16>
  return %c : tensor<8192x7168xbf16>
}

// 8192x7168x2048 tensorwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @tensorwise_promoted_8192x7168x2048(%a: tensor<8192x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x7168xbf16>
  return %c : tensor<8192x7168xbf16>
}

// 8192x7168x2048 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_8192x7168x2048(%a: tensor<8192x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<8192x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x7168xbf16>
  return %c : tensor<8192x7168xbf16>
}

// 8192x7168x2048 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_promoted_8192x7168x2048(%a: tensor<8192x2048xf8E4M3FN>, %sa: tensor<8192x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<7168x1xf32>) -> tensor<8192x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x2048xf8E4M3FN>, tensor<8192x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<7168x1xf32>) -> tensor<8192x7168xbf16>
  return %c : tensor<8192x7168xbf16>
}

// 8192x2048x7168 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_promoted_8192x2048x7168(%a: tensor<8192x7168xf8E4M3FN>, %sa: tensor<56x8192xf32>, %b: tensor<2048x7168xf8E4M3FN>, %sb: tensor<16x56xf32>) -> tensor<8192x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x7168xf8E4M3FN>, tensor<56x8192xf32>, tensor<2048x7168xf8E4M3FN>, tensor<16x56xf32>) -> tensor<8192x2048xbf16>
  return %c : tensor<8192x2048xbf16>
}

// 8192x2048x7168 tensorwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @tensorwise_promoted_8192x2048x7168(%a: tensor<8192x7168xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<2048x7168xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x7168xf8E4M3FN>, tensor<1x1xf32>, tensor<2048x7168xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x2048xbf16>
  return %c : tensor<8192x2048xbf16>
}

// 8192x2048x7168 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_8192x2048x7168(%a: tensor<8192x7168xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<2048x7168xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8192x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<8192x7168xf8E4M3FN>, tensor<1x1xf32>, tensor<2048x7168xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8192x2048xbf16>
  return %c : tensor<8192x2048xbf16>
}

// 8192x2048x7168 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_promoted_8192x2048x7168(%a: tensor<8192x7168xf8E4M3FN>, %sa: tensor<8192x1xf32>, %b: tensor<2048x7168xf8E4M3FN>, %sb: tensor<2048x1xf32>) -> tensor<8192x2048xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8192x7168xf8E4M3FN>, tensor<8192x1xf32>, tensor<2048x7168xf8E4M3FN>, tensor<2048x1xf32>) -> tensor<8192x2048xbf16>
  return %c : tensor<8192x2048xbf16>
}

// 16384x4096x14336 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_promoted_16384x4096x14336(%a: tensor<16384x14336xf8E4M3FN>, %sa: tensor<112x16384xf32>, %b: tensor<4096x14336xf8E4M3FN>, %sb: tensor<32x112xf32>) -> tensor<16384x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<16384x14336xf8E4M3FN>, tensor<112x16384xf32>, tensor<4096x14336xf8E4M3FN>, tensor<32x112xf32>) -> tensor<16384x4096xbf16>
  return %c : tensor<16384x4096xbf16>
}

// 16384x4096x14336 tensorwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @tensorwise_promoted_16384x4096x14336(%a: tensor<16384x14336xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x14336xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<16384x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<16384x14336xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x14336xf8E4M3FN>, tensor<1x1xf32>) -> tensor<16384x4096xbf16>
  return %c : tensor<16384x4096xbf16>
}

// 16384x4096x14336 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_16384x4096x14336(%a: tensor<16384x14336xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x14336xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<16384x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<16384x14336xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x14336xf8E4M3FN>, tensor<1x1xf32>) -> tensor<16384x4096xbf16>
  return %c : tensor<16384x4096xbf16>
}

// 16384x4096x14336 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_promoted_16384x4096x14336(%a: tensor<16384x14336xf8E4M3FN>, %sa: tensor<16384x1xf32>, %b: tensor<4096x14336xf8E4M3FN>, %sb: tensor<4096x1xf32>) -> tensor<16384x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<16384x14336xf8E4M3FN>, tensor<16384x1xf32>, tensor<4096x14336xf8E4M3FN>, tensor<4096x1xf32>) -> tensor<16384x4096xbf16>
  return %c : tensor<16384x4096xbf16>
}

// 64x7168x2048 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_promoted_64x7168x2048(%a: tensor<64x2048xf8E4M3FN>, %sa: tensor<16x64xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<56x16xf32>) -> tensor<64x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x2048xf8E4M3FN>, tensor<16x64xf32>, tensor<7168x2048xf8E4M3FN>, tensor<56x16xf32>) -> tensor<64x7168xbf16>
  return %c : tensor<64x7168xbf16>
}

// 64x7168x2048 tensorwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @tensorwise_promoted_64x7168x2048(%a: tensor<64x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<64x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x7168xbf16>
  return %c : tensor<64x7168xbf16>
}

// 64x7168x2048 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_64x7168x2048(%a: tensor<64x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<64x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<64x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x7168xbf16>
  return %c : tensor<64x7168xbf16>
}

// 64x7168x2048 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_promoted_64x7168x2048(%a: tensor<64x2048xf8E4M3FN>, %sa: tensor<64x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<7168x1xf32>) -> tensor<64x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x2048xf8E4M3FN>, tensor<64x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<7168x1xf32>) -> tensor<64x7168xbf16>
  return %c : tensor<64x7168xbf16>
}

// 128x7168x2048 blockwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @blockwise_promoted_128x7168x2048(%a: tensor<128x2048xf8E4M3FN>, %sa: tensor<16x128xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<56x16xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<128x2048xf8E4M3FN>, tensor<16x128xf32>, tensor<7168x2048xf8E4M3FN>, tensor<56x16xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}

// 128x7168x2048 tensorwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @tensorwise_promoted_128x7168x2048(%a: tensor<128x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<128x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}

// 128x7168x2048 tensorwise f8E4M3FN x f8E4M3FN -> bf16, fast
func.func @tensorwise_fast_128x7168x2048(%a: tensor<128x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<128x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}

// 128x7168x2048 rowwise f8E4M3FN x f8E4M3FN -> bf16, promoted
func.func @rowwise_promoted_128x7168x2048(%a: tensor<128x2048xf8E4M3FN>, %sa: tensor<128x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<7168x1xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<128x2048xf8E4M3FN>, tensor<128x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<7168x1xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}


// MXFP8 on sm_90a (issue 6: correct, and slower): 1x32 E8M0 scales on both
// operands, promoted every 32 of K (128 x 64 tiles, scales from global
// memory). cuBLASLt has no MXFP8 on sm_90; the table compares it with the
// blockwise kernel of the same shape.
// 4096x4096x4096 mxfp8 f8E4M3FN x f8E4M3FN -> bf16, promoted every 32
func.func @mxfp8_promoted_4096x4096x4096(%a: tensor<4096x4096xf8E4M3FN>, %sa: tensor<4096x128xf8E8M0FNU>, %b: tensor<4096x4096xf8E4M3FN>, %sb: tensor<4096x128xf8E8M0FNU>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x4096xf8E4M3FN>, tensor<4096x128xf8E8M0FNU>, tensor<4096x4096xf8E4M3FN>, tensor<4096x128xf8E8M0FNU>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}
