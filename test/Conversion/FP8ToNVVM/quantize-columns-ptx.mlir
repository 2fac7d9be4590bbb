// Column tiles [r, 1] (Wgrad operands outside the fused kernel). Whole
// blocks of 64 columns: a thread loads 16 bytes of a row for r / 32 rows,
// all before any store; the columns' amax reduce across the lanes sharing
// them, then across warps through shared memory, where 64 threads derive
// the scales; 8 bytes of FP8 stored a row.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/columns_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=SCALAR < %t/narrow_quantize_1.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/columns_quantize_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/narrow_quantize_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK-COUNT-4: ld.global.v4.b32
// CHECK-NOT: {{ld|st}}.global
// CHECK: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// CHECK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// CHECK: st.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: div.rn.f32
// CHECK: bar.sync 0;
// CHECK: ld.shared.v4.b32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: st.global.v4.b16
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
//
// Other widths: a thread per column, coalesced row reads, two rows per
// cvt, byte stores.
// SCALAR: ld.global.b16
// SCALAR: div.rn.f32
// SCALAR: cvt.rn.satfinite.e4m3x2.f32
// SCALAR: st.global.b8
func.func @columns(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<2x384xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<2x384xf32>
  return %q, %s : tensor<256x384xf8E4M3FN>, tensor<2x384xf32>
}
func.func @narrow(%x: tensor<256x200xbf16>) -> (tensor<256x200xf8E4M3FN>, tensor<2x200xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x200xbf16> -> tensor<256x200xf8E4M3FN>, tensor<2x200xf32>
  return %q, %s : tensor<256x200xf8E4M3FN>, tensor<2x200xf32>
}
