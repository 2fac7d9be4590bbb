// Tensorwise scaling ([*, *]) of a tensor larger than one CTA's registers:
// 264 resident CTAs reduce the amax (an integer atomic max on the f32 bits in
// a 16-byte scratch parameter), meet at a grid-wide barrier (an arrival
// counter), and quantize in a second pass; the last CTA zeroes the scratch.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/tensorwise_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/tensorwise_quantize_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// Two CTAs an SM must fit (128 registers at most) for the barrier to open.
// CHECK: .minnctapersm 2
// Four chunks in flight a thread: 4 x 2 16-byte loads an iteration.
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// CHECK: atom.global.max.s32
// CHECK: membar.gl;
// CHECK: atom.global.add.u32 {{.*}}, 1;
// CHECK: atom.global.exch.b32 {{.*}}, 0;
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// MANIFEST: "grid": [
// MANIFEST-NEXT: 264,
// MANIFEST: "name": "workspace",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST: "tile": [
// MANIFEST-NEXT: -1,
// MANIFEST-NEXT: -1
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @tensorwise(%x: tensor<1024x4096xbf16>) -> (tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1024x4096xbf16> -> tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>
}
