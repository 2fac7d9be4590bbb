// The rowwise cast-transpose (fp8.quantize_transpose with a scale per row):
// pass 1 takes each CTA's run of 64x64 tiles, a row's amax per tile and a
// column's per strip into the workspace by atomic max; a grid-wide barrier
// (CTAs kept resident); pass 2 reads the amaxes from L2, derives the
// scales into shared memory and stores each thread's 16 bytes of q and,
// through shared memory, 16 bytes of qt; the last CTA to leave zeroes the
// workspace.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/cast_transpose_rowwise_cast_transpose_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// CHECK: .minnctapersm 2
// CHECK: atom.global.max.s32
// CHECK: bar.sync
// CHECK: atom.global.add.u32
// CHECK: ld.volatile.global.b32
// CHECK: cvt.rn.satfinite.e5m2x2.f32
// CHECK: st.global.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: bar.sync
// CHECK: ld.shared.b8
// CHECK: st.global.v4.b32
// CHECK: atom.global.add.u32
// MANIFEST: "bytes_moved": 395776,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 24,
// MANIFEST: "name": "cast_transpose_rowwise_cast_transpose_0",
// MANIFEST-NEXT: "op": "fp8.quantize_transpose",
// MANIFEST: "name": "scale",
// MANIFEST: "shape": [
// MANIFEST-NEXT: 256,
// MANIFEST-NEXT: 1
// MANIFEST: "name": "qt",
// MANIFEST: "shape": [
// MANIFEST-NEXT: 384,
// MANIFEST-NEXT: 256
// MANIFEST: "name": "scale_t",
// MANIFEST: "shape": [
// MANIFEST-NEXT: 384,
// MANIFEST-NEXT: 1
// MANIFEST: "name": "workspace",
// MANIFEST: "shape": [
// MANIFEST-NEXT: 322
func.func @cast_transpose_rowwise(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E5M2>, tensor<256x1xf32>, tensor<384x256xf8E5M2>, tensor<384x1xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E5M2>, tensor<256x1xf32>, tensor<384x256xf8E5M2>, tensor<384x1xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E5M2>, tensor<256x1xf32>, tensor<384x256xf8E5M2>, tensor<384x1xf32>
}
