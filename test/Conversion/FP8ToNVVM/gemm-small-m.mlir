// Small-M GEMMs (chooseSmallM in Gemm/GemmConfig.cpp): at most 64 rows
// take 64-row tiles of one consumer warpgroup (256 threads), as narrow as
// makes one tile per SM (N = 7168: 56 columns, 128 CTAs), store C directly
// (56 columns are not whole 128-byte chunks for a TMA store), take no issue
// turns (a lone consumer), and read blockwise B scales per column where a
// tile straddles two 128-row scale blocks. 65 to 128 rows keep 128 x 64
// tiles on two consumers (narrower two-consumer tiles measured slower).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PTX < %t/m64_blockwise_gemm_0.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/m64_blockwise_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: "block": [
// CHECK-NEXT: 256,
// CHECK: "grid": [
// CHECK-NEXT: 128,
// CHECK: "split_tiles": 0,
// CHECK-NEXT: "stages": 8,
// CHECK-NEXT: "tile": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 56,
// CHECK-NEXT: 128
// CHECK: "name": "m64_blockwise_gemm_0",
// CHECK: "box": [
// CHECK-NEXT: 64,
// CHECK-NEXT: 128
// CHECK-NEXT: ],
// CHECK-NEXT: "name": "a_map",
// CHECK: "box": [
// CHECK-NEXT: 56,
// CHECK-NEXT: 128
// CHECK-NEXT: ],
// CHECK-NEXT: "name": "b_map",
// CHECK-NOT: "c_map"
// CHECK: "block": [
// CHECK-NEXT: 384,

// The consumer takes the registers the producer gives back, multiplies
// 64 x 56 per wgmma, takes no turns and stores its pairs of C itself; the
// per-column B scales are global loads.
// PTX: .maxnreg 168
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX-NEXT: griddepcontrol.wait;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-NEXT: griddepcontrol.wait;
// PTX-NOT: bar.sync
// PTX: ld.global.nc.b32
// PTX: wgmma.mma_async.sync.aligned.m64n56k32.f32.e4m3.e4m3
// PTX-NOT: bar.sync
// PTX-NOT: cp.async.bulk.tensor.2d.global.shared
// PTX: st.global.b32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @m64_blockwise(%a: tensor<64x2048xf8E4M3FN>, %sa: tensor<16x64xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<56x16xf32>) -> tensor<64x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x2048xf8E4M3FN>, tensor<16x64xf32>, tensor<7168x2048xf8E4M3FN>, tensor<56x16xf32>) -> tensor<64x7168xbf16>
  return %c : tensor<64x7168xbf16>
}

// 128 rows: 128 x 64 tiles (112), two consumers, C through TMA stores.
// CHECK: "grid": [
// CHECK-NEXT: 112,
// CHECK: "stages": 8,
// CHECK-NEXT: "tile": [
// CHECK-NEXT: 128,
// CHECK-NEXT: 64,
// CHECK: "name": "m128_tensorwise_gemm_1",
// CHECK: "name": "c_map",
func.func @m128_tensorwise(%a: tensor<128x2048xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<7168x2048xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<128x7168xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>, accumulate = #fp8.accumulate<fast>}
      : (tensor<128x2048xf8E4M3FN>, tensor<1x1xf32>, tensor<7168x2048xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x7168xbf16>
  return %c : tensor<128x7168xbf16>
}
