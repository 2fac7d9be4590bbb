// fp8.tma_align_scales kernels: one thread per element of the padded
// transpose, writing consecutive elements of an output row (coalesced); rows
// past the scale's own get zero bits, with no load. Any static shape: 250
// f32 rows pad to 252, 3 E8M0 rows to 16.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=F32 < %t/activations_tma_align_scales_0.ptx
// RUN: FileCheck %s --check-prefix=E8M0 < %t/mx_tma_align_scales_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/activations_tma_align_scales_0.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/mx_tma_align_scales_1.ptx -o /dev/null %}
// The kernel is plain CUDA: it assembles for Blackwell too.
// RUN: rm -rf %t.sm100 && fp8-opt %s --fp8-emit="dir=%t.sm100 chip=sm_100a" -o /dev/null
// RUN: %if ptxas-sm100a %{ %ptxas -arch=sm_100a %t.sm100/activations_tma_align_scales_0.ptx -o /dev/null %}

// 4 x 252 = 1008 threads do work; padding threads store +0.0.
// F32: .entry activations_tma_align_scales_0(
// F32: setp.gt.u64 %p{{[0-9]+}}, %rd{{[0-9]+}}, 1007;
// F32: mov.b32 [[V:%r[0-9]+]], 0f00000000;
// F32: ld.global.b32 [[V]],
// F32: st.global.b32 [%rd{{[0-9]+}}], [[V]];
// F32-NOT: st.global
// 20 x 16 = 320 threads; padding code 0.
// E8M0: .entry mx_tma_align_scales_1(
// E8M0: setp.gt.u64 %p{{[0-9]+}}, %rd{{[0-9]+}}, 319;
// E8M0: mov.b16 [[C:%rs[0-9]+]], 0;
// E8M0: ld.global.b8 [[C]],
// E8M0: st.global.b8 [%rd{{[0-9]+}}], [[C]];
// E8M0-NOT: st.global

// MANIFEST: "bytes_moved": 8032,
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT: 4,
// MANIFEST: "name": "activations_tma_align_scales_0",
// MANIFEST-NEXT: "op": "fp8.tma_align_scales",
// MANIFEST-NEXT: "params": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "dtype": "f32",
// MANIFEST-NEXT: "name": "scale",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 250,
// MANIFEST-NEXT: 4
// MANIFEST: "dtype": "f32",
// MANIFEST-NEXT: "name": "tma_scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 252
// MANIFEST: "shared_bytes": 0
// MANIFEST: "name": "mx_tma_align_scales_1",
// MANIFEST-NEXT: "op": "fp8.tma_align_scales",
// MANIFEST: "dtype": "e8m0",
// MANIFEST-NEXT: "name": "scale",
// MANIFEST: "dtype": "e8m0",
// MANIFEST-NEXT: "name": "tma_scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 20,
// MANIFEST-NEXT: 16
func.func @activations(%s: tensor<250x4xf32>) -> tensor<4x252xf32> {
  %t = fp8.tma_align_scales %s : tensor<250x4xf32> -> tensor<4x252xf32>
  return %t : tensor<4x252xf32>
}
func.func @mx(%s: tensor<3x20xf8E8M0FNU>) -> tensor<20x16xf8E8M0FNU> {
  %t = fp8.tma_align_scales %s : tensor<3x20xf8E8M0FNU> -> tensor<20x16xf8E8M0FNU>
  return %t : tensor<20x16xf8E8M0FNU>
}
