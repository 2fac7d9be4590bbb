// How the sm_90a GEMM applies a pair of scales, which decides where f32
// overflows with values near its limits (fp8-run --specials inputs;
// docs/KnownIssues.md). The scaled term of docs/Numerics.md is
// fl32(sa*sb)*P where the product of the scales is a normal f32, else
// (P*sa)*sb (ScaledTerm.h):
//  - scales that span K (rowwise here) are applied in the epilogue as
//    (P * first) * second, with (first, second) = (sa*sb, 1) where the
//    product is normal (|bits| - 0x00800000 < 0x7F000000), else (sa, sb);
//  - two E8M0 scales per element (MXFP8) are applied in the promotion as
//    fma(P * sa, sb, C) where both of the thread's row scales lie in
//    [2^-94, 2^88] in magnitude (|bits| - 33 << 23 <= 182 << 23; either
//    sign takes the fast path), where P * sa is exact
//    for any partial sum; otherwise a branch takes the term's choice per
//    element.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=ROW < %t/rowwise_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MX < %t/mxfp8_gemm_1.ptx
// RUN: FileCheck %s --check-prefix=MIXED < %t/mixed_gemm_2.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/rowwise_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/mxfp8_gemm_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// The epilogue's scales: A's two rows, then B's columns; the first
// element's pair is multiplied and checked, then the sum times each factor.
// ROW: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3
// ROW: ld.global.nc.b32 [[A0:%r[0-9]+]],
// ROW: ld.global.nc.b32 [[A1:%r[0-9]+]],
// ROW: ld.global.nc.b32 [[B0:%r[0-9]+]],
// ROW: mul.rn.f32 [[S:%r[0-9]+]], [[A0]], [[B0]];
// ROW-NEXT: and.b32 [[M:%r[0-9]+]], [[S]], 2147483647;
// ROW-NEXT: add.s32 [[O:%r[0-9]+]], [[M]], -8388608;
// ROW-NEXT: setp.lt.u32 [[N:%p[0-9]+]], [[O]], 2130706432;
// ROW-NEXT: selp.f32 [[F:%r[0-9]+]], [[S]], [[A0]], [[N]];
// ROW-NEXT: selp.f32 [[G:%r[0-9]+]], 0f3F800000, [[B0]], [[N]];
// ROW-NEXT: mul.rn.f32 [[T:%r[0-9]+]], %r{{[0-9]+}}, [[F]];
// ROW-NEXT: mul.rn.f32 %r{{[0-9]+}}, [[G]], [[T]];

// The promotion after each K-step: the row scales' range check, then the
// partial sum times A's scale and one FMA with B's; the other branch
// selects each pair's factors.
// MX: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3
// MX: wgmma.wait_group.sync.aligned 0;
// MX: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, -276824064;
// MX: setp.gt.u32 [[SAFE:%p[0-9]+]], %r{{[0-9]+}}, 1526726656;
// MX-NEXT: @[[SAFE]] bra
// MX-NEXT: mul.rn.f32 [[P:%r[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}};
// MX-NEXT: fma.rn.f32 %r{{[0-9]+}}, [[P]], %r{{[0-9]+}}, %r{{[0-9]+}};
// MX: selp.f32 %r{{[0-9]+}}, 0f3F800000,

// One scale varies along K (A's 1x128), the other does not (B's [*, *], as
// fp8-legalize makes for tensorwise weights): every K-block's partial sum
// takes both scales, which the epilogue then leaves alone; applying B's
// there would be (P * sa) * sb in the wrong place, overflowing where sb
// brings the result back. B's scale is range-checked once, above the loop;
// A's every K-block. This C has one tile per CTA, so each consumer first
// checks all of its tile's scales (TileScaleCheck.h: the AND over its
// warpgroup) and takes a K loop without the test where they pass, else the
// tested loop.
// MIXED: add.s32 %r{{[0-9]+}}, %r{{[0-9]+}}, -536870912;
// MIXED: bar.red.and.pred [[CHEAP:%p[0-9]+]], %r{{[0-9]+}}, 128, %p{{[0-9]+}};
// MIXED: @[[CHEAP]] bra [[CHECKED:\$L__BB[0-9_]+]];
// MIXED-NEXT: bra.uni [[TESTED:\$L__BB[0-9_]+]];
// MIXED-NEXT: [[CHECKED]]:
// MIXED-NOT: 2147483647
// MIXED: [[TESTED]]:
// MIXED: wgmma.wait_group.sync.aligned 0;
// MIXED-NEXT: and.b32 [[MA:%r[0-9]+]], %r{{[0-9]+}}, 2147483647;
// MIXED-NEXT: add.s32 %r{{[0-9]+}}, [[MA]], -536870912;
// MIXED: fma.rn.f32
// MIXED: bar.sync
// MIXED-NEXT: cvt.rn.bf16x2.f32

// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

func.func @rowwise(%a: tensor<4095x256xf8E4M3FN>, %sa: tensor<4095x1xf32>, %b: tensor<512x256xf8E4M3FN>, %sb: tensor<512x1xf32>) -> tensor<4095x512xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4095x256xf8E4M3FN>, tensor<4095x1xf32>, tensor<512x256xf8E4M3FN>, tensor<512x1xf32>) -> tensor<4095x512xbf16>
  return %c : tensor<4095x512xbf16>
}

func.func @mxfp8(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<256x16xf8E8M0FNU>, %b: tensor<256x512xf8E4M3FN>, %sb: tensor<256x16xf8E8M0FNU>) -> tensor<256x256xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>, tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}

func.func @mixed(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<256x4xf32>, %b: tensor<256x512xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<256x256xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<256x512xf8E4M3FN>, tensor<1x1xf32>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
