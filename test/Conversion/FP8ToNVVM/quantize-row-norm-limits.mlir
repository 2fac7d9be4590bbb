// fp8-fuse-quantization fuses a norm into its row quantization only where
// the norm kernel's shared memory (48 KiB static) holds the chunk sums of
// its row sums (RowNormLayout, fp8/Dialect/FP8/Utils/RowSum.h): the
// program it makes always compiles. Past the bound the plain fusion: the
// sum a reduction kernel, the normalization fused into the quantization.
// RUN: rm -rf %t && fp8-opt %s --fp8-fuse-quantization --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/manifest.json

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// 98304 columns: 192 rounds, 8 warps on a row, 24 KiB of chunk sums: fused.
// CHECK: "name": "rows_98304_quantize_row_norm_0",
func.func @rows_98304(%x: tensor<2x98304xbf16>, %w: tensor<98304xbf16>) -> (tensor<2x98304xf8E4M3FN>, tensor<2x768xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x98304xbf16>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %ey = tensor.empty() : tensor<2x98304xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<2x98304xbf16>, tensor<2xf32>, tensor<98304xbf16>) outs(%ey : tensor<2x98304xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 98304.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<2x98304xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<2x98304xbf16> -> tensor<2x98304xf8E4M3FN>, tensor<2x768xf32>
  return %q, %sc : tensor<2x98304xf8E4M3FN>, tensor<2x768xf32>
}

// 200704 columns: 392 rounds, 49 KiB: the sum alone (a warp per row), then
// the normalization and the quantization in one kernel.
// CHECK: "name": "long_rows_fill_1",
// CHECK: "name": "long_rows_generic_2",
// CHECK: "name": "long_rows_quantize_elementwise_3",
func.func @long_rows(%x: tensor<2x200704xbf16>, %w: tensor<200704xbf16>) -> (tensor<2x200704xf8E4M3FN>, tensor<2x1568xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x200704xbf16>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %ey = tensor.empty() : tensor<2x200704xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<2x200704xbf16>, tensor<2xf32>, tensor<200704xbf16>) outs(%ey : tensor<2x200704xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 200704.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<2x200704xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<2x200704xbf16> -> tensor<2x200704xf8E4M3FN>, tensor<2x1568xf32>
  return %q, %sc : tensor<2x200704xf8E4M3FN>, tensor<2x1568xf32>
}
