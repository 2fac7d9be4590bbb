// fp8-pipeline fuses a norm into the quantization of the matmul it feeds:
// RMSNorm before a linear layer under the blockwise recipe becomes one
// fp8.quantize_elementwise with the sum of squares as its `reduce` region,
// quantizing 1x128 and storing its scales in the layout the GEMM loads
// with TMA; emitted, it is one warp-per-row kernel before the GEMM.
// RUN: fp8-opt %s --fp8-pipeline='recipe=blockwise chip=sm_90a' | FileCheck %s
// RUN: rm -rf %t && fp8-opt %s --fp8-pipeline='recipe=blockwise chip=sm_90a' --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=PLAN < %t/manifest.json

// CHECK-LABEL: func.func @norm_linear(
// CHECK-SAME:    %[[X:.*]]: tensor<256x512xbf16> {fp8.role = "activation"}, %[[G:.*]]: tensor<512xbf16>, %[[W:.*]]: tensor<1024x512xbf16>
// CHECK-NOT:     linalg.generic
// CHECK:         %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %[[X]], %[[G]] {fp8.role = "activation", {{.*}}scale_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
// CHECK:           math.rsqrt
// CHECK:         } reduce {
// CHECK:           arith.mulf
// CHECK:           fp8.yield %{{.*}} : f32
// CHECK:         }
// CHECK-NOT:     linalg.generic
// CHECK:         %[[QW:.*]], %[[SW:.*]] = fp8.quantize %[[W]]
// CHECK:         fp8.scaled_matmul %[[Q]], %[[S]], %[[QW]], %[[SW]]
// PLAN: "name": "norm_linear_quantize_row_norm_0",
// PLAN-NEXT: "op": "fp8.quantize_elementwise",
// PLAN-NOT: "op": "linalg.generic"
// PLAN: "op": "fp8.scaled_matmul"

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
func.func @norm_linear(%x: tensor<256x512xbf16> {fp8.role = "activation"}, %g: tensor<512xbf16>, %w: tensor<1024x512xbf16> {fp8.role = "weight"}) -> tensor<256x1024xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x512xbf16>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x512xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gg: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %gg : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<256x512xbf16>
  %c0 = arith.constant 0.0 : bf16
  %eo = tensor.empty() : tensor<256x1024xbf16>
  %o = linalg.fill ins(%c0 : bf16) outs(%eo : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %out = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%y, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>) outs(%o : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  return %out : tensor<256x1024xbf16>
}
