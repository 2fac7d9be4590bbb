// Column tiles [r, 1] (Wgrad operands outside the fused kernel): a thread
// per column, coalesced row reads, two rows per cvt, byte stores.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/columns_quantize_0.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/columns_quantize_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK: ld.global.b16
// CHECK: div.rn.f32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: st.global.b8
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @columns(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<2x384xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<2x384xf32>
  return %q, %s : tensor<256x384xf8E4M3FN>, tensor<2x384xf32>
}
