// fp8.transpose kernels: a 64x64 byte tile through shared memory (16-byte
// row loads, 16-byte column stores), the scales by a grid-stride loop.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/weights_transpose_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas %{ %ptxas -arch=sm_90a %t/weights_transpose_0.ptx -o /dev/null %}
// CHECK: .shared .align 16
// CHECK: ld.global.v4.b32
// CHECK: st.shared.v4.b32
// CHECK: bar.sync 0;
// CHECK: ld.shared.b8
// CHECK: st.global.v4.b32
// MANIFEST: "op": "fp8.transpose",
// MANIFEST: "name": "qt",
// MANIFEST: "name": "scale_t",
func.func @weights(%q: tensor<256x512xf8E4M3FN>, %s: tensor<2x4xf32>) -> (tensor<512x256xf8E4M3FN>, tensor<4x2xf32>) {
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x512xf8E4M3FN>, tensor<2x4xf32> -> tensor<512x256xf8E4M3FN>, tensor<4x2xf32>
  return %qt, %st : tensor<512x256xf8E4M3FN>, tensor<4x2xf32>
}
