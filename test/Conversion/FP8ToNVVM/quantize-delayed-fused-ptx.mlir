// fp8.quantize_delayed's kernel: every CTA reduces the same amax history
// (NaN-propagating max, then the CTA's through shared memory), so every
// CTA takes the same branch. Usable (positive, finite): one pass quantizes
// with the history's scale and gathers the data's amax by ticket (no
// barrier). Not usable (a first step, inf or NaN): the tensorwise
// kernel's two passes, the grid-wide amax at a barrier, then the
// quantization. The grid is resident for that barrier (.minnctapersm 2).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/delayed_quantize_delayed_0.ptx
// RUN: FileCheck %s --check-prefix=RECENT < %t/recent_quantize_delayed_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ for f in %t/*.ptx; do %ptxas -arch=sm_90a -v $f -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS || exit 1; done %}
// CHECK: .minnctapersm 2
// The history's entries a thread reads, then the CTA's max.
// CHECK: ld.global.b32
// CHECK: max.NaN.f32
// CHECK: bar.sync 0;
// Usable: one pass, four chunks in flight a thread, the data's amax by
// ticket; the last CTA reads the total and zeroes slots 0 and 1.
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: atom.global.max.s32
// CHECK: atom.global.add.u32 {{.*}}+4], 1;
// CHECK-COUNT-2: atom.global.exch.b32 {{.*}}, 0;
// CHECK-NOT: atom.global.exch.b32
// Not usable: the grid-wide amax (arrivals, a spin on them, departures;
// the last zeroes slots 0 to 2), the barrier, then the second pass over
// the data.
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK: atom.global.max.s32
// CHECK: atom.global.add.u32 {{.*}}+4], 1;
// CHECK: atom.global.or.b32 {{.*}}+4], 0;
// CHECK: atom.global.add.u32 {{.*}}+8], 1;
// CHECK-COUNT-3: atom.global.exch.b32 {{.*}}, 0;
// CHECK: bar.sync 0;
// CHECK-COUNT-8: ld.global.v4.b32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// most_recent: one entry (the 16th), the same in every thread, and no
// barrier before the usable path quantizes (f32 to e5m2).
// RECENT: .minnctapersm 2
// RECENT: ld.global.b32 {{.*}}+60];
// RECENT-NOT: bar.sync
// RECENT: cvt.rn.satfinite.e5m2x2.f32
// MANIFEST: "name": "delayed_quantize_delayed_0",
// MANIFEST-NEXT: "op": "fp8.quantize_delayed",
// MANIFEST: "name": "history",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 1024,
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 1
// MANIFEST: "name": "amax",
// MANIFEST-NEXT: "role": "output",
// MANIFEST: "name": "workspace",
// MANIFEST-NEXT: "role": "workspace",
// MANIFEST: "grid": [
// MANIFEST-NEXT: 64,
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @delayed(%x: tensor<1024x4096xbf16>, %h: tensor<1024x1x1xf32>) -> (tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<1024x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1024x4096xbf16> -> tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
  return %q, %s, %a : tensor<1024x4096xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
}

func.func @recent(%x: tensor<256x1024xf32>, %h: tensor<16x1x1xf32>) -> (tensor<256x1024xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<16x1x1xf32>) {margin = 1, most_recent, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x1024xf32> -> tensor<256x1024xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
  return %q, %s, %a : tensor<256x1024xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
}

// The benchmark's shape (bench/fusion.sh): 64-bit offsets, still within
// the 128 registers that keep two CTAs an SM (ptxas: 97), no spills.
func.func @large(%x: tensor<8192x14336xbf16>, %h: tensor<1024x1x1xf32>) -> (tensor<8192x14336xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<1024x1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<8192x14336xbf16> -> tensor<8192x14336xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
  return %q, %s, %a : tensor<8192x14336xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
}
