// Block tiles (one CTA per 128x128 weight tile: shuffles, then shared
// memory across warps) and stochastic rounding (Philox from a seed buffer,
// the reference's integer rounding on the bits, then an exact cvt).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=BLOCK < %t/block_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=SR < %t/stochastic_quantize_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/block_quantize_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/stochastic_quantize_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// BLOCK: .shared
// BLOCK-COUNT-2: ld.global.v4.b32
// BLOCK: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// BLOCK: bar.sync 0;
// BLOCK: div.rn.f32
// BLOCK: cvt.rn.satfinite.e4m3x2.f32
// BLOCK: st.global.v4.b32
// SR: ld.global.b32
// SR: mul.wide.u32 {{.*}}, -766435501;
// Eight elements a Philox call: the 16 elements of a thread take two, the
// stochastic rounding of each element is an integer adjustment of its f32
// value (the target-subnormal path through one fma rounding towards zero,
// the same bits as the reference's truncating conversion, chosen by a
// saturating fma rather than a compare; NaN kept by a min), which the cvt
// of round-to-nearest then converts exactly.
// SR-NOT: setp.lt.f32
// SR-NOT: cvt.rzi
// SR-COUNT-8: fma.rz.f32
// SR: mul.wide.u32 {{.*}}, -766435501;
// SR-COUNT-8: fma.rz.f32
// SR-NOT: mul.wide.u32
// SR-COUNT-8: cvt.rn.satfinite.e5m2x2.f32
// SR-NOT: cvt.rzi
// SR: st.global.v4.b32
// MANIFEST: "name": "block_quantize_0",
// MANIFEST: "name": "stochastic_quantize_1",
// MANIFEST: "name": "seed",
// MANIFEST: "rounding": "stochastic",
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @block(%x: tensor<256x256xbf16>) -> (tensor<256x256xf8E4M3FN>, tensor<2x2xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<2x2xf32>
  return %q, %s : tensor<256x256xf8E4M3FN>, tensor<2x2xf32>
}
func.func @stochastic(%x: tensor<64x128xbf16>, %seed: i64) -> (tensor<64x128xf8E5M2>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E5M2>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E5M2>, tensor<64x1xf32>
}
