// The block cast-transpose (fp8.quantize_transpose with square tiles): a CTA
// per 128x128 tile holds it in registers (4 steps of 16 elements a
// thread), reduces its amax, stores 16 bytes of q a step and, through
// shared memory, 16 bytes of a column of qt a step; the tile's scale is
// stored in scale and at the transposed place in scale_t.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/cast_transpose_block_cast_transpose_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/cast_transpose_block_cast_transpose_0.ptx -o /dev/null %}
// CHECK-COUNT-8: ld.global.v4
// CHECK: bar.sync
// CHECK-COUNT-4: st.shared.v4.b32
// CHECK: bar.sync
// CHECK: ld.shared.b8
// CHECK: st.global.v4.b32
// MANIFEST: "bytes_moved": 393264,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 6,
// MANIFEST: "name": "cast_transpose_block_cast_transpose_0",
// MANIFEST-NEXT: "op": "fp8.quantize_transpose",
// MANIFEST: "name": "scale_t",
// MANIFEST: "shape": [
// MANIFEST-NEXT: 3,
// MANIFEST-NEXT: 2
func.func @cast_transpose_block(%w: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>
}
