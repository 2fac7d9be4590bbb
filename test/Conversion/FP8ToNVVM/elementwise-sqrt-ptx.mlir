// f32 math.sqrt and math.rsqrt in a kernel body are correctly rounded, as
// on the CPU (MathToLLVM: llvm.sqrt, and rsqrt as 1 / sqrt): sqrt.rn.f32
// and a correctly rounded reciprocal, never libdevice (__nv_sqrtf,
// __nv_rsqrtf, linked only where CUDA is found at compile time, the latter
// rsqrt.approx).
// f16 and bf16 sqrt are the f32 one between the extension and a rounding
// to nearest (correctly rounded: 24 >= 2 * 11 + 2), not sqrt.approx; their
// rsqrt is 1 / sqrt in the type, as on the CPU: that sqrt, then a
// correctly rounded reciprocal rounded to the type, not rsqrt.approx.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/roots_generic_0.ptx
// RUN: FileCheck %s --check-prefix=F16 < %t/roots16_generic_1.ptx
// RUN: FileCheck %s --check-prefix=BF16 < %t/roots16_generic_2.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/roots_generic_0.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/roots16_generic_1.ptx -o /dev/null %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/roots16_generic_2.ptx -o /dev/null %}
// RUN: FileCheck %s --check-prefix=RF16 < %t/rroots16_generic_3.ptx
// RUN: FileCheck %s --check-prefix=RBF16 < %t/rroots16_generic_4.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a %t/rroots16_generic_3.ptx -o /dev/null %}
// CHECK: .visible .entry roots_generic_0(
// CHECK-NOT: {{call|__nv_|approx}}
// CHECK: sqrt.rn.f32
// CHECK-NOT: {{call|__nv_|approx}}
// CHECK: {{rcp|div}}.rn.f32
// CHECK-NOT: {{call|__nv_|approx}}
// CHECK: sqrt.rn.f32

#id = affine_map<(i, j) -> (i, j)>

func.func @roots(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %e = tensor.empty() : tensor<64x64xf32>
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.rsqrt %a : f32
    %s = math.sqrt %r : f32
    linalg.yield %s : f32
  } -> tensor<64x64xf32>
  return %y : tensor<64x64xf32>
}

// F16: .visible .entry roots16_generic_1(
// F16-NOT: {{call|__nv_|approx}}
// F16: cvt.f32.f16
// F16: sqrt.rn.f32
// F16: cvt.rn.f16{{(x2)?}}.f32
// F16-NOT: {{call|__nv_|approx}}
// BF16: .visible .entry roots16_generic_2(
// BF16-NOT: {{call|__nv_|approx}}
// BF16: sqrt.rn.f32
// BF16: cvt.rn.bf16{{(x2)?}}.f32
// BF16-NOT: {{call|__nv_|approx}}
func.func @roots16(%x: tensor<64x64xf16>, %y: tensor<64x64xbf16>) -> (tensor<64x64xf16>, tensor<64x64xbf16>) {
  %e = tensor.empty() : tensor<64x64xf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %s = math.sqrt %v : f16
    linalg.yield %s : f16
  } -> tensor<64x64xf16>
  %e2 = tensor.empty() : tensor<64x64xbf16>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<64x64xbf16>) outs(%e2 : tensor<64x64xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %s = math.sqrt %v : bf16
    linalg.yield %s : bf16
  } -> tensor<64x64xbf16>
  return %a, %b : tensor<64x64xf16>, tensor<64x64xbf16>
}

// RF16: .visible .entry rroots16_generic_3(
// RF16-NOT: {{call|__nv_|approx}}
// RF16: sqrt.rn.f32
// RF16: cvt.rn.f16.f32
// RF16: rcp.rn.f32
// RF16: cvt.rn.f16{{(x2)?}}.f32
// RF16-NOT: {{call|__nv_|approx}}
// RBF16: .visible .entry rroots16_generic_4(
// RBF16-NOT: {{call|__nv_|approx}}
// RBF16: sqrt.rn.f32
// RBF16: cvt.rn.bf16.f32
// RBF16: rcp.rn.f32
// RBF16: cvt.rn.bf16{{(x2)?}}.f32
// RBF16-NOT: {{call|__nv_|approx}}
func.func @rroots16(%x: tensor<64x64xf16>, %y: tensor<64x64xbf16>) -> (tensor<64x64xf16>, tensor<64x64xbf16>) {
  %e = tensor.empty() : tensor<64x64xf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x64xf16>) outs(%e : tensor<64x64xf16>) {
  ^bb0(%v: f16, %o: f16):
    %s = math.rsqrt %v : f16
    linalg.yield %s : f16
  } -> tensor<64x64xf16>
  %e2 = tensor.empty() : tensor<64x64xbf16>
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y : tensor<64x64xbf16>) outs(%e2 : tensor<64x64xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %s = math.rsqrt %v : bf16
    linalg.yield %s : bf16
  } -> tensor<64x64xbf16>
  return %a, %b : tensor<64x64xf16>, tensor<64x64xbf16>
}
