// The tensorwise cast-transpose (fp8.quantize_transpose with one scale):
// the tensorwise kernel's grid-wide amax (atomics and an arrival counter,
// CTAs kept resident), then 64x64 tiles, two a loop iteration, each thread
// storing 16 bytes of q and, through shared memory, 16 bytes of qt; one
// scale stored twice.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/cast_transpose_tensorwise_cast_transpose_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// CHECK: .minnctapersm 2
// CHECK: atom.global.max.s32
// CHECK: atom.global.add.u32
// CHECK: bar.sync
// CHECK-COUNT-2: cvt.rn.satfinite.e5m2x2.f32
// CHECK: st.global.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: bar.sync
// CHECK: ld.shared.b8
// CHECK: st.global.v4.b32
// MANIFEST: "bytes_moved": 393224,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 24,
// MANIFEST: "name": "cast_transpose_tensorwise_cast_transpose_0",
// MANIFEST-NEXT: "op": "fp8.quantize_transpose",
// MANIFEST: "name": "qt",
// MANIFEST: "shape": [
// MANIFEST-NEXT: 384,
// MANIFEST-NEXT: 256
// MANIFEST: "name": "scale_t",
// MANIFEST: "role": "workspace"
func.func @cast_transpose_tensorwise(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E5M2>, tensor<1x1xf32>, tensor<384x256xf8E5M2>, tensor<1x1xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E5M2>, tensor<1x1xf32>, tensor<384x256xf8E5M2>, tensor<1x1xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E5M2>, tensor<1x1xf32>, tensor<384x256xf8E5M2>, tensor<1x1xf32>
}
