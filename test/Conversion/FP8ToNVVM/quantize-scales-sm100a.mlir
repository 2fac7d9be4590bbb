// sm_100a rounds RCEIL (pow2_ceil) scales up with one
// cvt.rp.satfinite.ue8m0x2.f32 on |d| (the reference's codes for every f32:
// unittests/Conversion/E8M0ScalesTest.cpp); sm_90a keeps the integer RCEIL,
// and the other roundings and the data casts are the same on both chips.
// RUN: rm -rf %t90 %t100
// RUN: fp8-opt %s --fp8-emit=dir=%t90 -o /dev/null
// RUN: fp8-opt %s '--fp8-emit=dir=%t100 chip=sm_100a' -o /dev/null
// RUN: FileCheck %s --check-prefix=MX100 < %t100/mx_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t90/mx_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=ROW100 < %t100/rowwise_quantize_1.ptx
// RUN: FileCheck %s --check-prefix=SM90 < %t90/rowwise_quantize_1.ptx
// RUN: FileCheck %s --check-prefix=TW100 < %t100/tensorwise_quantize_2.ptx
// RUN: FileCheck %s --check-prefix=SR100 < %t100/sr_quantize_3.ptx
// RUN: FileCheck %s --check-prefix=NORP < %t100/floor_quantize_4.ptx
// RUN: FileCheck %s --check-prefix=NORP < %t100/exact_quantize_5.ptx

// MXFP8 on sm_100a: d = amax * fl32(1/448) (no division), |d| (the mask
// becomes abs.f32), one cvt.rp per tile on |d| twice, its low byte the
// code; the data still by cvt.rn.
// MX100: .target sm_100a
// MX100: .visible .entry mx_quantize_0(
// MX100-NOT: div.rn
// MX100: mul.rn.f32 [[D:%r[0-9]+]], {{%r[0-9]+}}, 0f3B124925;
// MX100-NEXT: abs.f32 [[A:%r[0-9]+]], [[D]];
// MX100-NEXT: cvt.rp.satfinite.ue8m0x2.f32 [[PAIR:%rs[0-9]+]], [[A]], [[A]];
// MX100-NEXT: and.b16 {{%rs[0-9]+}}, [[PAIR]], 255;
// MX100-NOT: cvt.rp
// MX100: cvt.rn.satfinite.e4m3x2.f32
// MX100: st.global.b8
// SM90: .target sm_90a
// SM90-NOT: ue8m0x2
func.func @mx(%x: tensor<64x512xbf16>) -> (tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<64x512xbf16> -> tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
  return %q, %s : tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
}

// Rowwise e5m2 with f32 power-of-two scales and a margin: d is multiplied
// by 1/57344 and then by 2^3 before the round-up.
// ROW100: mul.rn.f32 [[D0:%r[0-9]+]], {{%r[0-9]+}}, 0f37924925;
// ROW100-NEXT: mul.rn.f32 [[D:%r[0-9]+]], [[D0]], 0f41000000;
// ROW100-NEXT: abs.f32 [[A:%r[0-9]+]], [[D]];
// ROW100-NEXT: cvt.rp.satfinite.ue8m0x2.f32 {{%rs[0-9]+}}, [[A]], [[A]];
// ROW100: cvt.rn.satfinite.e5m2x2.f32
func.func @rowwise(%x: tensor<64x512xf32>) -> (tensor<64x512xf8E5M2>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>, margin = 3}
      : tensor<64x512xf32> -> tensor<64x512xf8E5M2>, tensor<64x1xf32>
  return %q, %s : tensor<64x512xf8E5M2>, tensor<64x1xf32>
}

// The tensorwise kernel (a grid-wide amax) rounds its one scale the same
// way.
// TW100: cvt.rp.satfinite.ue8m0x2.f32
func.func @tensorwise(%x: tensor<256x512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_ceil>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<256x512xf8E4M3FN>, tensor<1x1xf32>
}

// Stochastic rounding keeps the reference's add-and-truncate on the bits
// (cvt.rs cannot reproduce it: docs/Numerics.md), then converts the exact
// result with round-to-nearest; the scale uses cvt.rp.
// SR100: cvt.rp.satfinite.ue8m0x2.f32
// SR100-NOT: cvt.rs
// SR100: fma.rz.f32
// SR100-NOT: cvt.rs
// SR100: cvt.rn.satfinite.e4m3x2.f32
// SR100-NOT: cvt.rs
func.func @sr(%x: tensor<64x512xbf16>, %seed: i64) -> (tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<64x512xbf16> -> tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
  return %q, %s : tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
}

// The OCP floor rule and exact scales are not a round-up: no cvt.rp.
// NORP: .target sm_100a
// NORP-NOT: ue8m0x2
func.func @floor(%x: tensor<64x512xbf16>) -> (tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<64x512xbf16> -> tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
  return %q, %s : tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
}
func.func @exact(%x: tensor<64x512xbf16>) -> (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x512xbf16> -> tensor<64x512xf8E4M3FN>, tensor<64x4xf32>
  return %q, %s : tensor<64x512xf8E4M3FN>, tensor<64x4xf32>
}
