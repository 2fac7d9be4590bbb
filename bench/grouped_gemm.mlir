// Grouped GEMMs (fp8.grouped_scaled_matmul) on DeepSeek-V3-like mixture-of-
// experts shapes, timed by bench/grouped_gemm.sh beside G separate calls of
// our GEMM (the plain kernels below, one per group size) and of
// torch._scaled_mm: 8 experts of N = 4096, K = 7168, blockwise 1x128 x
// 128x128 e4m3, bf16 out; 512 to 4096 rows per expert (contiguous layout,
// rows split evenly by fp8-run --even-groups), and decoding's masked layout
// with 256 rows per expert, every group full. A's scales are in the
// col_major_tma layout that fp8-legalize{chip=sm_90a} makes (TMA brings
// them with each K-block), for the grouped kernels and the plain ones alike;
// masked A's scales (a matrix per expert) stay row-major.

func.func @grouped_512(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<56x4096xf32>, %b: tensor<8x4096x7168xf8E4M3FN>, %sb: tensor<8x32x56xf32>, %r: tensor<8xi32>) -> tensor<4096x4096xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<4096x7168xf8E4M3FN>, tensor<56x4096xf32>, tensor<8x4096x7168xf8E4M3FN>, tensor<8x32x56xf32>, tensor<8xi32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

func.func @grouped_1024(%a: tensor<8192x7168xf8E4M3FN>, %sa: tensor<56x8192xf32>, %b: tensor<8x4096x7168xf8E4M3FN>, %sb: tensor<8x32x56xf32>, %r: tensor<8xi32>) -> tensor<8192x4096xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<8192x7168xf8E4M3FN>, tensor<56x8192xf32>, tensor<8x4096x7168xf8E4M3FN>, tensor<8x32x56xf32>, tensor<8xi32>) -> tensor<8192x4096xbf16>
  return %c : tensor<8192x4096xbf16>
}

func.func @grouped_2048(%a: tensor<16384x7168xf8E4M3FN>, %sa: tensor<56x16384xf32>, %b: tensor<8x4096x7168xf8E4M3FN>, %sb: tensor<8x32x56xf32>, %r: tensor<8xi32>) -> tensor<16384x4096xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<16384x7168xf8E4M3FN>, tensor<56x16384xf32>, tensor<8x4096x7168xf8E4M3FN>, tensor<8x32x56xf32>, tensor<8xi32>) -> tensor<16384x4096xbf16>
  return %c : tensor<16384x4096xbf16>
}

func.func @grouped_4096(%a: tensor<32768x7168xf8E4M3FN>, %sa: tensor<56x32768xf32>, %b: tensor<8x4096x7168xf8E4M3FN>, %sb: tensor<8x32x56xf32>, %r: tensor<8xi32>) -> tensor<32768x4096xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<32768x7168xf8E4M3FN>, tensor<56x32768xf32>, tensor<8x4096x7168xf8E4M3FN>, tensor<8x32x56xf32>, tensor<8xi32>) -> tensor<32768x4096xbf16>
  return %c : tensor<32768x4096xbf16>
}

func.func @masked_256(%a: tensor<8x256x7168xf8E4M3FN>, %sa: tensor<8x256x56xf32>, %b: tensor<8x4096x7168xf8E4M3FN>, %sb: tensor<8x32x56xf32>, %r: tensor<8xi32>) -> tensor<8x256x4096xbf16> {
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<8x256x7168xf8E4M3FN>, tensor<8x256x56xf32>, tensor<8x4096x7168xf8E4M3FN>, tensor<8x32x56xf32>, tensor<8xi32>) -> tensor<8x256x4096xbf16>
  return %c : tensor<8x256x4096xbf16>
}

// One group alone, the plain GEMM G separate calls would run.

func.func @single_256(%a: tensor<256x7168xf8E4M3FN>, %sa: tensor<56x256xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<32x56xf32>) -> tensor<256x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x7168xf8E4M3FN>, tensor<56x256xf32>, tensor<4096x7168xf8E4M3FN>, tensor<32x56xf32>) -> tensor<256x4096xbf16>
  return %c : tensor<256x4096xbf16>
}

func.func @single_512(%a: tensor<512x7168xf8E4M3FN>, %sa: tensor<56x512xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<32x56xf32>) -> tensor<512x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<512x7168xf8E4M3FN>, tensor<56x512xf32>, tensor<4096x7168xf8E4M3FN>, tensor<32x56xf32>) -> tensor<512x4096xbf16>
  return %c : tensor<512x4096xbf16>
}

func.func @single_1024(%a: tensor<1024x7168xf8E4M3FN>, %sa: tensor<56x1024xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<32x56xf32>) -> tensor<1024x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<1024x7168xf8E4M3FN>, tensor<56x1024xf32>, tensor<4096x7168xf8E4M3FN>, tensor<32x56xf32>) -> tensor<1024x4096xbf16>
  return %c : tensor<1024x4096xbf16>
}

func.func @single_2048(%a: tensor<2048x7168xf8E4M3FN>, %sa: tensor<56x2048xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<32x56xf32>) -> tensor<2048x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2048x7168xf8E4M3FN>, tensor<56x2048xf32>, tensor<4096x7168xf8E4M3FN>, tensor<32x56xf32>) -> tensor<2048x4096xbf16>
  return %c : tensor<2048x4096xbf16>
}

func.func @single_4096(%a: tensor<4096x7168xf8E4M3FN>, %sa: tensor<56x4096xf32>, %b: tensor<4096x7168xf8E4M3FN>, %sb: tensor<32x56xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x7168xf8E4M3FN>, tensor<56x4096xf32>, tensor<4096x7168xf8E4M3FN>, tensor<32x56xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}
