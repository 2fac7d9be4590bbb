// fp8.tcgen05_scales kernels: one thread per byte of the 512-byte chunks,
// consecutive threads writing consecutive bytes; bytes past the matrix (rows
// or K-blocks of padding) get code 0 with no load. 200 x 6 scales pad to
// 256 x 8: 2 x 2 chunks, 2048 threads.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit="dir=%t chip=sm_100a" -o /dev/null
// RUN: FileCheck %s < %t/mx_tcgen05_scales_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm100a %{ %ptxas -arch=sm_100a %t/mx_tcgen05_scales_0.ptx -o /dev/null %}
// Plain CUDA: it assembles for sm_90a as well.
// RUN: rm -rf %t.sm90 && fp8-opt %s --fp8-emit=dir=%t.sm90 -o /dev/null
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t.sm90/mx_tcgen05_scales_0.ptx -o /dev/null %}

// CHECK: .target sm_100a
// CHECK: .entry mx_tcgen05_scales_0(
// CHECK: setp.gt.u64 %p{{[0-9]+}}, %rd{{[0-9]+}}, 2047;
// CHECK: mov.b16 [[C:%rs[0-9]+]], 0;
// CHECK: ld.global.b8 [[C]],
// CHECK: st.global.b8 [%rd{{[0-9]+}}], [[C]];
// CHECK-NOT: st.global

// MANIFEST: "bytes_moved": 3248,
// MANIFEST-NEXT: "grid": [
// MANIFEST-NEXT: 8,
// MANIFEST: "name": "mx_tcgen05_scales_0",
// MANIFEST-NEXT: "op": "fp8.tcgen05_scales",
// MANIFEST-NEXT: "params": [
// MANIFEST-NEXT: {
// MANIFEST-NEXT: "dtype": "e8m0",
// MANIFEST-NEXT: "name": "scale",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 200,
// MANIFEST-NEXT: 6
// MANIFEST: "name": "tcgen05_scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT: 4,
// MANIFEST-NEXT: 512

func.func @mx(%s: tensor<200x6xf8E8M0FNU>) -> tensor<4x512xf8E8M0FNU> {
  %sf = fp8.tcgen05_scales %s : tensor<200x6xf8E8M0FNU> -> tensor<4x512xf8E8M0FNU>
  return %sf : tensor<4x512xf8E8M0FNU>
}
