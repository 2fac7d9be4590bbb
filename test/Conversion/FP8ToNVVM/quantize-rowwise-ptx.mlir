// Rowwise scaling ([1, *]) of rows of 4096 .. 32768 elements: a CTA per row,
// its chunks in registers between the amax (warp shuffles, then the 8 warp
// partials through shared memory) and the casts.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/rowwise_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/rowwise_quantize_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK: ld.global.v4.b32
// CHECK: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: st.global.v4.b32
// CHECK: st.global.v4.b32
// MANIFEST: "grid": [
// MANIFEST-NEXT: 512,
// MANIFEST: "tile": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: -1
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @rowwise(%x: tensor<512x8192xbf16>) -> (tensor<512x8192xf8E4M3FN>, tensor<512x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<512x8192xbf16> -> tensor<512x8192xf8E4M3FN>, tensor<512x1xf32>
  return %q, %s : tensor<512x8192xf8E4M3FN>, tensor<512x1xf32>
}
