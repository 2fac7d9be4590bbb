// Row sums the unfused program leaves to the reduction kernel
// (ReduceKernel.cpp): a warp per row in the row-sum order of
// docs/Numerics.md, as the CPU reference and the fused norm kernel add
// them, whatever maps convert-fp8-to-nvvm's producer fusion leaves on the
// sum's inputs; no spills.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=TRANSPOSED < %t/transposed_generic_1.ptx
// RUN: FileCheck %s --check-prefix=VECTOR < %t/vectors_generic_4.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/transposed_generic_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/vectors_generic_4.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>
#row = affine_map<(i, j) -> (i)>

// RMSNorm of a transposed bf16 input, quantized 1x128. The elementwise
// fusion of convert-fp8-to-nvvm moves the transpose into the sum, whose
// input map becomes (i, j) -> (j, i): still a row sum (the order depends
// on (i, j), not on where the elements lie), so a warp per row and its
// butterfly, 8 rows per CTA (64 rows in 8 CTAs), not one thread adding
// 1024 terms in loop order.
// TRANSPOSED: .visible .entry transposed_generic_1(
// TRANSPOSED-COUNT-5: shfl.sync.bfly.b32
// TRANSPOSED: st.global.b32
// MANIFEST: "name": "transposed_fill_0",
// MANIFEST: "grid": [
// MANIFEST-NEXT: 8,
// MANIFEST: "name": "transposed_generic_1",
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error
func.func @transposed(%x: tensor<1024x64xbf16>) -> (tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>) {
  %e = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<1024x64xbf16>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    linalg.yield %f : f32
  } -> tensor<64x1024xf32>
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%z : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%y : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %n = arith.addf %acc, %sq : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  %e2 = tensor.empty() : tensor<64x1024xf32>
  %o = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e2 : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %oo: f32):
    %r = math.rsqrt %c : f32
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  } -> tensor<64x1024xf32>
  %q, %sc = fp8.quantize %o {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<64x1024xf32> -> tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>
  return %q, %sc : tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>
}

#col = affine_map<(i, j) -> (j)>

// A LayerNorm-like term over 1024 bf16 columns with an f16 weight per
// column ((i, j) -> (j)) and an f32 value per row: x and the weight read
// as 16-byte vectors (each lane's chunk of 16: two 16-byte loads of x, two
// of the weight), the row's value element by element; no spills.
// VECTOR: .visible .entry vectors_generic_4(
// VECTOR-COUNT-4: ld.global.v4.b32
// VECTOR-COUNT-5: shfl.sync.bfly.b32
func.func @vectors(%x: tensor<100x1024xbf16>, %w: tensor<1024xf16>, %m: tensor<100xf32>, %init: tensor<100xf32>) -> tensor<100xf32> {
  %s = linalg.generic {indexing_maps = [#id, #col, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x, %w, %m : tensor<100x1024xbf16>, tensor<1024xf16>, tensor<100xf32>) outs(%init : tensor<100xf32>) {
  ^bb0(%a: bf16, %b: f16, %c: f32, %acc: f32):
    %fa = arith.extf %a : bf16 to f32
    %fb = arith.extf %b : f16 to f32
    %d = arith.subf %fa, %c : f32
    %p = arith.mulf %d, %fb : f32
    %n = arith.addf %p, %acc : f32
    linalg.yield %n : f32
  } -> tensor<100xf32>
  return %s : tensor<100xf32>
}
