// RUN: fp8-opt %s -split-input-file -verify-diagnostics

// A contiguous A is one matrix of all groups' rows.
func.func @contiguous_rank(%a: tensor<4x16x512xf8E4M3FN>, %sa: tensor<4x16x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{expects a of rank 2 in the contiguous layout, got 3}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<4x16x512xf8E4M3FN>, tensor<4x16x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<4x16x256xbf16>
  return
}

// -----

func.func @masked_rank(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{expects a of rank 3 in the masked layout, got 2}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<64x256xbf16>
  return
}

// -----

// One group_rows entry per expert.
func.func @group_count(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<3xi32>) {
  // expected-error @+1 {{group_rows has 3 groups where b has 4}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<3xi32>) -> tensor<64x256xbf16>
  return
}

// -----

func.func @masked_groups(%a: tensor<2x16x512xf8E4M3FN>, %sa: tensor<2x16x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{a has 2 groups where b has 4}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<2x16x512xf8E4M3FN>, tensor<2x16x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<2x16x256xbf16>
  return
}

// -----

// A 128x128 scale tile of a contiguous A would hold rows of several groups.
func.func @tile_spans_groups(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<2x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{a_scaling tile [128, 128] spans 128 rows, which may belong to different groups; a contiguous A takes tiles of 1 or '*' rows}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<256x512xf8E4M3FN>, tensor<2x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<256x256xbf16>
  return
}

// -----

// Each group is checked as the scaled_matmul it computes: here B's scales
// of one expert.
func.func @group_scales(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x3xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{expects b_scale of shape 2x4 for data 256x512 and tile [128, 128], got 2x3}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x3xf32>, tensor<4xi32>) -> tensor<64x256xbf16>
  return
}

// -----

func.func @group_result(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{expects result of shape 64x256, got 64x128}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<64x128xbf16>
  return
}

// -----

func.func @contracted(%a: tensor<64x256xf8E4M3FN>, %sa: tensor<64x2xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{contracted dims differ: 256 (a dim 1) vs 512 (b dim 1)}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<64x256xbf16>
  return
}

// -----

// col_major_tma scales are the transpose of the row-major ones, padded.
func.func @col_major_tma_shape(%a: tensor<62x512xf8E4M3FN>, %sa: tensor<62x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{expects a_scale of shape 4x64 for data 62x512, tile [1, 128] and a_scale_layout col_major_tma (the row-major 62x4 scales transposed, rows padded to 16 bytes), got 62x4}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<62x512xf8E4M3FN>, tensor<62x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<62x256xbf16>
  return
}

// -----

// A masked A's scales are one matrix per group: no col_major_tma.
func.func @col_major_tma_masked(%a: tensor<4x64x512xf8E4M3FN>, %sa: tensor<4x4x64xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{a_scale_layout col_major_tma needs a contiguous A with one scale per row, got the masked layout and a_scaling tile [1, 128]}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<4x64x512xf8E4M3FN>, tensor<4x4x64xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<4x64x256xbf16>
  return
}

// -----

// One scale for all of a group's rows ('*') is not per row.
func.func @col_major_tma_group_scale(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<4x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{a_scale_layout col_major_tma needs a contiguous A with one scale per row, got the contiguous layout and a_scaling tile [*, 128]}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [*, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<4x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<64x256xbf16>
  return
}

// -----

// No grouped GEMM reads sm_100a's scale-factor layout.
func.func @tcgen05_layout(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x4xf32>, %b: tensor<4x256x512xf8E4M3FN>, %sb: tensor<4x2x4xf32>, %r: tensor<4xi32>) {
  // expected-error @+1 {{a_scale_layout tcgen05 is sm_100a's scale-factor layout, which no grouped GEMM reads; expected row_major or col_major_tma}}
  %c = fp8.grouped_scaled_matmul %a, %sa, %b, %sb, %r {
        a_scale_layout = #fp8.scale_layout<tcgen05>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>, tensor<4x256x512xf8E4M3FN>, tensor<4x2x4xf32>, tensor<4xi32>) -> tensor<64x256xbf16>
  return
}
