// The order in which the sm_90a GEMM applies a pair of scales, which
// decides where f32 overflows with values near its limits (fp8-run
// --specials inputs; docs/KnownIssues.md):
//  - scales that span K (rowwise here) multiply each other first, and the
//    sum then once by their product, as the reference does
//    (docs/Numerics.md): (sum * sa) * sb overflowed to inf where sa is huge
//    and sb brings the result back;
//  - two E8M0 scales per element (MXFP8) are applied as (partial * sa) * sb
//    in the promotion: their product can overflow to inf (up to 2^254), and
//    inf times a zero partial sum is NaN. For powers of two both orders
//    give the same bits while no intermediate overflows or is subnormal.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=ROW < %t/rowwise_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=MX < %t/mxfp8_gemm_1.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/rowwise_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/mxfp8_gemm_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// The epilogue's scales: A's two rows, then B's columns; the first
// element's scale pair is multiplied, then the sum by the product.
// ROW: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3
// ROW: ld.global.nc.b32 [[A0:%r[0-9]+]],
// ROW: ld.global.nc.b32 [[A1:%r[0-9]+]],
// ROW: ld.global.nc.b32 [[B0:%r[0-9]+]],
// ROW: mul.rn.f32 [[F:%r[0-9]+]], [[A0]], [[B0]];
// ROW-NEXT: mul.rn.f32 %r{{[0-9]+}}, %r{{[0-9]+}}, [[F]];

// The promotion after each K-step: the partial sum times A's scale, then
// one FMA with B's scale (still one multiply and one FMA per element).
// MX: wgmma.mma_async.sync.aligned.m64n{{[0-9]+}}k32.f32.e4m3.e4m3
// MX: wgmma.wait_group.sync.aligned 0;
// MX: mul.rn.f32 [[P:%r[0-9]+]], %r{{[0-9]+}}, %r{{[0-9]+}};
// MX: fma.rn.f32 %r{{[0-9]+}}, [[P]], %r{{[0-9]+}}, %r{{[0-9]+}};

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
