// Tilings the fast kernels do not take (partial edge tiles, odd tiles, long
// or odd rows) use the generic kernel: a CTA per tile, its extent clipped at
// the bottom and right edges, strided scalar loads, the amax by shuffles and
// shared memory, then a second pass that converts element by element.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/partial_tiles_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ for f in %t/*.ptx; do %ptxas -arch=sm_90a $f -o /dev/null || exit 1; done %}
// CHECK: min.u64
// CHECK: ld.global.b16
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: st.global.b8
// The scale tensors count the partial tiles.
// MANIFEST: "name": "scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 64,
// MANIFEST-NEXT: 2
// MANIFEST: "name": "scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 2,
// MANIFEST-NEXT: 256
func.func @partial_tiles(%x: tensor<64x200xbf16>) -> (tensor<64x200xf8E4M3FN>, tensor<64x2xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x200xbf16> -> tensor<64x200xf8E4M3FN>, tensor<64x2xf32>
  return %q, %s : tensor<64x200xf8E4M3FN>, tensor<64x2xf32>
}
func.func @odd_column_tiles(%x: tensor<254x256xbf16>) -> (tensor<254x256xf8E4M3FN>, tensor<2x256xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [127, 1], scale = f32>}
      : tensor<254x256xbf16> -> tensor<254x256xf8E4M3FN>, tensor<2x256xf32>
  return %q, %s : tensor<254x256xf8E4M3FN>, tensor<2x256xf32>
}
func.func @long_rows(%x: tensor<2x65536xbf16>) -> (tensor<2x65536xf8E4M3FN>, tensor<2x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x65536xbf16> -> tensor<2x65536xf8E4M3FN>, tensor<2x1xf32>
  return %q, %s : tensor<2x65536xf8E4M3FN>, tensor<2x1xf32>
}
