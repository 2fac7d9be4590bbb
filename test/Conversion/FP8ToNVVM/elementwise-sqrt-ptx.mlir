// f32 math.sqrt and math.rsqrt in a kernel body are correctly rounded, as
// on the CPU (MathToLLVM: llvm.sqrt, and rsqrt as 1 / sqrt): sqrt.rn.f32
// and a correctly rounded reciprocal, never libdevice (__nv_sqrtf,
// __nv_rsqrtf, linked only where CUDA is found at compile time, the latter
// rsqrt.approx).
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/roots_generic_0.ptx
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/roots_generic_0.ptx -o /dev/null %}
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
