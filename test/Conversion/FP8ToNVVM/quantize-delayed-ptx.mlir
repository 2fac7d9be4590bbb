// Delayed scaling: with `amax(%a)` every kernel shape takes each tile's amax
// from the given tensor (a parameter "amax", one per tile) instead of the
// data; the tensorwise kernel then needs no grid-wide reduction.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=TENSOR < %t/tensorwise_quantize_3.ptx
// RUN: %if ptxas-sm90a %{ for f in %t/*.ptx; do %ptxas -arch=sm_90a $f -o /dev/null || exit 1; done %}
// MANIFEST-COUNT-4: "name": "amax",
// MANIFEST-NOT: "workspace"
// TENSOR-NOT: atom.global
// TENSOR: cvt.rn.satfinite.e4m3x2.f32
func.func @rows(%x: tensor<64x256xbf16>, %a: tensor<64x2xf32>) -> (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<64x2xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  return %q, %s : tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
}
func.func @blocks(%x: tensor<256x256xbf16>, %a: tensor<2x2xf32>) -> (tensor<256x256xf8E4M3FN>, tensor<2x2xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<2x2xf32>) {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<2x2xf32>
  return %q, %s : tensor<256x256xf8E4M3FN>, tensor<2x2xf32>
}
func.func @columns(%x: tensor<256x64xbf16>, %a: tensor<2x64xf32>) -> (tensor<256x64xf8E5M2>, tensor<2x64xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<2x64xf32>) {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E5M2>, tensor<2x64xf32>
  return %q, %s : tensor<256x64xf8E5M2>, tensor<2x64xf32>
}
func.func @tensorwise(%x: tensor<1024x4096xbf16>, %a: tensor<1x1xf32>) -> (tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1024x4096xbf16> -> tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>
}
