// fp8.amax kernels: the quantization kernels' reductions, storing the f32
// amax of each tile (row tiles by shuffles, block tiles through shared
// memory).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=ROWS < %t/rows_amax_0.ptx
// RUN: FileCheck %s --check-prefix=BLOCKS < %t/blocks_amax_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/rows_amax_0.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/blocks_amax_1.ptx -o /dev/null %}
// ROWS-COUNT-2: ld.global.v4.b32
// ROWS: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// ROWS-NOT: cvt.rn.satfinite
// ROWS: st.global.b32
// BLOCKS: bar.sync 0;
// BLOCKS-NOT: cvt.rn.satfinite
// BLOCKS: st.global.b32
// MANIFEST: "op": "fp8.amax",
// MANIFEST: "name": "amax",
// MANIFEST: "tile": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 128
func.func @rows(%x: tensor<64x512xbf16>) -> tensor<64x4xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[1, 128]>} : tensor<64x512xbf16> -> tensor<64x4xf32>
  return %a : tensor<64x4xf32>
}
func.func @blocks(%x: tensor<256x256xf32>) -> tensor<2x2xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[128, 128]>} : tensor<256x256xf32> -> tensor<2x2xf32>
  return %a : tensor<2x2xf32>
}
