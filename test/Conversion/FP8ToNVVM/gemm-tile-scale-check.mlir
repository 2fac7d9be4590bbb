// The tile scale check (Gemm/Sm90/TileScaleCheck.h, chooseTileScaleCheck): where
// every CTA has one tile of two consumers and promotion multiplies by
// scales that vary along K, each consumer loads all the scales its tile
// will use (here 8 of its 64 rows x 16 K-blocks of A's and 1 of B's 2 x 16
// per thread), ANDs their range tests over its warpgroup (bar.red.and on
// barrier 11 + consumer, 128 threads), and takes a K loop without
// promotion's per-block test where all pass; otherwise the tested loop.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/m128_blockwise_gemm_0.ptx
// RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=bar.red < %t/m64_blockwise_gemm_1.ptx
// RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=bar.red < %t/long_k_gemm_2.ptx
// RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=bar.red < %t/many_tiles_gemm_3.ptx
// RUN: FileCheck %s --check-prefix=NONE --implicit-check-not=bar.red < %t/m128_tensorwise_gemm_4.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/m128_blockwise_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: setmaxnreg.inc.sync.aligned.u32
// CHECK: griddepcontrol.wait;
// CHECK: add.s32 [[ID:%r[0-9]+]], %r{{[0-9]+}}, 11;
// CHECK-COUNT-9: ld.global.nc.b32
// CHECK-NOT: ld.global
// CHECK: setp.lt.u32 [[MINE:%p[0-9]+]], %r{{[0-9]+}}, 1056964609;
// CHECK-NEXT: bar.red.and.pred [[ALL:%p[0-9]+]], [[ID]], 128, [[MINE]];
// CHECK: @[[ALL]] bra [[CHECKED:\$L__BB[0-9_]+]];
// CHECK-NEXT: bra.uni [[TESTED:\$L__BB[0-9_]+]];
// CHECK-NEXT: [[CHECKED]]:
// CHECK-NOT: 2147483647
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: 2147483647
// CHECK: [[TESTED]]:
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK: and.b32 %r{{[0-9]+}}, %r{{[0-9]+}}, 2147483647;

// No check: a lone consumer (M = 64), 64 scale loads per thread (K =
// 16384), many tiles per CTA, scales constant along K.
// NONE: wgmma.mma_async

// PTXAS: 0 bytes spill stores, 0 bytes spill loads

func.func @m128_blockwise(%a: tensor<128x2048xf8E4M3FN>, %sa: tensor<16x128xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<56x16xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<128x2048xf8E4M3FN>, tensor<16x128xf32>, tensor<7168x2048xf8E4M3FN>, tensor<56x16xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}

func.func @m64_blockwise(%a: tensor<64x2048xf8E4M3FN>, %sa: tensor<16x64xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<56x16xf32>) -> tensor<64x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x2048xf8E4M3FN>, tensor<16x64xf32>, tensor<7168x2048xf8E4M3FN>, tensor<56x16xf32>) -> tensor<64x7168xbf16>
  return %c : tensor<64x7168xbf16>
}

func.func @long_k(%a: tensor<128x16384xf8E4M3FN>, %sa: tensor<128x128xf32>, %b: tensor<7168x16384xf8E4M3FN>, %sb: tensor<56x128xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<128x16384xf8E4M3FN>, tensor<128x128xf32>, tensor<7168x16384xf8E4M3FN>, tensor<56x128xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}

func.func @many_tiles(%a: tensor<1024x512xf8E4M3FN>, %sa: tensor<4x1024xf32>, %b: tensor<4096x512xf8E4M3FN>, %sb: tensor<32x4xf32>) -> tensor<1024x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<1024x512xf8E4M3FN>, tensor<4x1024xf32>, tensor<4096x512xf8E4M3FN>, tensor<32x4xf32>) -> tensor<1024x4096xbf16>
  return %c : tensor<1024x4096xbf16>
}

func.func @m128_tensorwise(%a: tensor<128x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<128x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}
