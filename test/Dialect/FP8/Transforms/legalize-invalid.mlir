// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-legalize

// Only the chips fp8::Target describes are accepted, each refusal with why.
// RUN: not fp8-opt %s -split-input-file --fp8-legalize=chip=sm_80 2>&1 | FileCheck %s --check-prefix=CHIP
// CHIP: error: fp8-legalize: chip 'sm_80' is not supported (Ampere has no FP8 tensor cores or FP8 conversions): expected one of sm_90a, sm_100a

// FP8 data received with 128x1 tiles cannot be made K-major: transposing it
// would regroup its scales, and there is no high-precision source.
func.func @fp8_argument(%gq: tensor<64x128xf8E4M3FN>, %gs: tensor<64x1xf32>,
                        %xq: tensor<128x256xf8E4M3FN>, %xs: tensor<1x256xf32>) -> tensor<64x256xf32> {
  // expected-error @+1 {{'fp8.scaled_matmul' op operand b (128x256, tile [128, 1]) is contracted along its rows, but sm_90a wgmma needs K-major operands; transposing its FP8 data would regroup the scales of a non-square tile, and its data and scales are not the results of one fp8.quantize that could be redone on the transposed high-precision input: quantize the transposed high-precision source with tile [1, 128] instead}}
  %y = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<128x256xf8E4M3FN>, tensor<1x256xf32>) -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}

// -----

// A requantized operand is not redone from high precision: its source is
// FP8 already. The note points at the op that made it.
func.func @requantized(%q: tensor<256x128xf8E4M3FN>, %s: tensor<2x1xf32>,
                       %xq: tensor<64x256xf8E4M3FN>, %xs: tensor<64x1xf32>) -> tensor<128x64xf32> {
  // expected-note @+1 {{operand produced here}}
  %rq, %rs = fp8.requantize %q, %s {
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        to = #fp8.scaling<tile = [*, 1], scale = f32>}
      : tensor<256x128xf8E4M3FN>, tensor<2x1xf32> -> tensor<256x128xf8E4M3FN>, tensor<1x128xf32>
  // expected-error @+1 {{operand a (256x128, tile [*, 1]) is contracted along its rows}}
  %dw = fp8.scaled_matmul %rq, %rs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [*, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 0, 1>}
      : (tensor<256x128xf8E4M3FN>, tensor<1x128xf32>, tensor<64x256xf8E4M3FN>, tensor<64x1xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// Data and scales from two different quantizations are not one quantization
// to redo, even with matching types.
func.func @mixed_quantizations(%x: tensor<256x64xbf16>, %z: tensor<256x64xbf16>,
                               %a: tensor<32x256xf8E4M3FN>, %as: tensor<32x2xf32>) -> tensor<32x64xf32> {
  // expected-note @+1 {{operand produced here}}
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<2x64xf32>
  %zq, %zs = fp8.quantize %z {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<2x64xf32>
  // expected-error @+1 {{operand b (256x64, tile [128, 1]) is contracted along its rows}}
  %y = fp8.scaled_matmul %a, %as, %xq, %zs {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>, tensor<256x64xf8E4M3FN>, tensor<2x64xf32>) -> tensor<32x64xf32>
  return %y : tensor<32x64xf32>
}

// -----

// Both operands are checked before either is rewritten, and both reported.
func.func @both_operands(%gq: tensor<256x128xf8E4M3FN>, %gs: tensor<2x128xf32>,
                         %xq: tensor<256x64xf8E4M3FN>, %xs: tensor<2x64xf32>) -> tensor<128x64xf32> {
  // expected-error @+2 {{operand a (256x128, tile [128, 1])}}
  // expected-error @+1 {{operand b (256x64, tile [128, 1])}}
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x128xf8E4M3FN>, tensor<2x128xf32>, tensor<256x64xf8E4M3FN>, tensor<2x64xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// col_major_tma scales of an operand contracted along its rows are made
// K-major from their row-major form, which only an fp8.tma_align_scales
// producer gives.
func.func @rows_contracted_tma_scales_argument(%gq: tensor<256x128xf8E4M3FN>, %gst: tensor<128x4xf32>,
                                               %xq: tensor<64x256xf8E4M3FN>, %xs: tensor<1x1xf32>) -> tensor<128x64xf32> {
  // expected-error @+1 {{'fp8.scaled_matmul' op operand a is contracted along its rows and must be made K-major for sm_90a wgmma, but its col_major_tma scales do not come from an fp8.tma_align_scales whose row-major input could be transposed with it}}
  %dw = fp8.scaled_matmul %gq, %gst, %xq, %xs {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 0, 1>}
      : (tensor<256x128xf8E4M3FN>, tensor<128x4xf32>, tensor<64x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}
