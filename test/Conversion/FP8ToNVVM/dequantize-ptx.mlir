// Dequantization kernels: a 16-byte FP8 load, exact cvt.rn.f16x2 widening of
// pairs, one scale per 16 elements, 16-byte stores of the results.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/to_bf16_dequantize_0.ptx
// RUN: FileCheck %s --check-prefix=MX < %t/mx_dequantize_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/to_bf16_dequantize_0.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/mx_dequantize_1.ptx -o /dev/null %}
// CHECK: ld.global.v4.b32
// CHECK-COUNT-8: cvt.rn.f16x2.e4m3x2
// CHECK: ld.global.b32
// CHECK-COUNT-2: st.global.v4.b32
// MX: ld.global.v4.b32
// MX-COUNT-8: cvt.rn.f16x2.e5m2x2
// MX: ld.global.b8
// MX-COUNT-4: st.global.v4.b32
// MANIFEST: "op": "fp8.dequantize",
// MANIFEST: "name": "out",
func.func @to_bf16(%q: tensor<256x512xf8E4M3FN>, %s: tensor<256x4xf32>) -> tensor<256x512xbf16> {
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<256x4xf32> -> tensor<256x512xbf16>
  return %x : tensor<256x512xbf16>
}
func.func @mx(%q: tensor<256x512xf8E5M2>, %s: tensor<256x16xf8E8M0FNU>) -> tensor<256x512xf32> {
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<256x512xf8E5M2>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf32>
  return %x : tensor<256x512xf32>
}
