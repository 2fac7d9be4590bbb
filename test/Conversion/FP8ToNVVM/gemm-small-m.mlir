// Small-M GEMMs (chooseSmallM in Gemm/Sm90/HopperGemmConfig.cpp): at most 64 rows
// take 64-row tiles of one consumer warpgroup (256 threads), as narrow as
// makes one tile per SM (N = 7168: 56 columns, 128 CTAs), store C directly
// (56 columns are not whole 128-byte chunks for a TMA store), take no issue
// turns (a lone consumer), and give blockwise B scales per column where a
// tile straddles two 128-row scale blocks. 65 to 128 rows keep 128 x 64
// tiles on two consumers (narrower two-consumer tiles measured slower).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PTX < %t/m64_blockwise_gemm_0.ptx
// RUN: grep -c ld.global.nc %t/m64_blockwise_gemm_0.ptx | FileCheck %s --check-prefix=LOADS
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/m64_blockwise_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

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
// 64 x 56 per wgmma, takes no turns and stores its pairs of C itself. The
// tile straddles two of B's scale blocks: per K-block two global loads
// (the blocks of its first and last columns), the first block's loaded an
// iteration ahead, spread over the column pairs by selects. It takes two
// K-blocks per iteration: A's scales read from each stage before its MMAs,
// the first block promoted while the second's MMAs run (wait_group 1).
// PTX: .maxnreg 168
// PTX: setmaxnreg.dec.sync.aligned.u32 40;
// PTX-NEXT: griddepcontrol.wait;
// PTX: setmaxnreg.inc.sync.aligned.u32 232;
// PTX-NEXT: griddepcontrol.wait;
// PTX-NOT: bar.sync
// PTX-COUNT-2: ld.global.nc.b32
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: selp.f32
// PTX: ld.shared.b32
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n56k32.f32.e4m3.e4m3
// PTX: wgmma.commit_group.sync.aligned;
// PTX: mbarrier.try_wait.parity.shared.b64
// PTX: ld.shared.b32
// PTX-COUNT-4: wgmma.mma_async.sync.aligned.m64n56k32.f32.e4m3.e4m3
// PTX: wgmma.commit_group.sync.aligned;
// PTX-NEXT: wgmma.wait_group.sync.aligned 1;
// PTX: wgmma.wait_group.sync.aligned 0;
// PTX-NOT: bar.sync
// PTX-NOT: cp.async.bulk.tensor.2d.global.shared
// PTX: st.global.b32
// Two B scales before the loop, and per iteration two for the second block
// and two for the next iteration's first (a load per column was 14 per
// K-block).
// LOADS: {{^}}6{{$}}
// ptxas keeps the two wgmma groups asynchronous (no C7515 serialization).
// PTXAS-NOT: serialized
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: serialized
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
