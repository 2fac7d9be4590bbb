// Which GEMMs split their last round (chooseConfig in Gemm/Sm90/HopperGemmConfig.cpp):
// 192 x 128 tiles whose last round holds at most 44 tiles (a third of the
// 132 SMs) run those as three 64-row sub-tiles each; 45 stay whole, and the
// two-consumer 128 x 192 tiles of tensorwise promotion never split.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/manifest.json
// RUN: grep -c '"a_split_map"' %t/manifest.json | FileCheck %s --check-prefix=MAPS

// 4096x4096: 22 x 32 = 704 tiles, 44 past five rounds of 132.
// CHECK: "grid": [
// CHECK-NEXT: 132,
// CHECK: "split_tiles": 44,
// CHECK-NEXT: "stages": 4,
// CHECK-NEXT: "tile": [
// CHECK-NEXT: 192,
// CHECK-NEXT: 128,
// CHECK: "name": "split_44_gemm_0",
// CHECK: "name": "a_split_map",
func.func @split_44(%a: tensor<4096x1024xf8E4M3FN>, %sa: tensor<8x4096xf32>, %b: tensor<4096x1024xf8E4M3FN>, %sb: tensor<32x8xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x1024xf8E4M3FN>, tensor<8x4096xf32>, tensor<4096x1024xf8E4M3FN>, tensor<32x8xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// 4032x2688: 21 x 21 = 441 tiles, 45 past three rounds: whole.
// CHECK: "split_tiles": 0,
// CHECK-NEXT: "stages": 4,
// CHECK-NEXT: "tile": [
// CHECK-NEXT: 192,
// CHECK: "name": "whole_45_gemm_1",
func.func @whole_45(%a: tensor<4032x1024xf8E4M3FN>, %sa: tensor<8x4032xf32>, %b: tensor<2688x1024xf8E4M3FN>, %sb: tensor<21x8xf32>) -> tensor<4032x2688xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4032x1024xf8E4M3FN>, tensor<8x4032xf32>, tensor<2688x1024xf8E4M3FN>, tensor<21x8xf32>) -> tensor<4032x2688xbf16>
  return %c : tensor<4032x2688xbf16>
}

// 4096x4096 tensorwise, promoted: 32 x 22 = 704 tiles of 128 x 192, the
// same 44 in a sixth round, whole.
// CHECK: "split_tiles": 0,
// CHECK-NEXT: "stages": 5,
// CHECK-NEXT: "tile": [
// CHECK-NEXT: 128,
// CHECK-NEXT: 192,
// CHECK: "name": "tensorwise_gemm_2",
func.func @tensorwise(%a: tensor<4096x1024xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<4096x1024xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<4096x4096xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4096x1024xf8E4M3FN>, tensor<1x1xf32>, tensor<4096x1024xf8E4M3FN>, tensor<1x1xf32>) -> tensor<4096x4096xbf16>
  return %c : tensor<4096x4096xbf16>
}

// Only the split kernel has the sub-tiles' tensor map.
// MAPS: 1
