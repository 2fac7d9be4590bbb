// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization=producers=false | FileCheck %s --check-prefix=NOPRODUCERS

// A scale per row ([1, *]): the quantization of X and that of its bf16
// transpose (quantized alike) become one fp8.quantize_transpose (the
// rowwise cast-transpose), with the quantization's role; the transpose
// goes.
// CHECK-LABEL: func.func @rowwise(
// CHECK-SAME:    %[[X:.*]]: tensor<128x192xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[QT:.*]], %[[ST:.*]] = fp8.quantize_transpose %[[X]] {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>} : tensor<128x192xbf16> -> tensor<128x192xf8E4M3FN>, tensor<128x1xf32>, tensor<192x128xf8E4M3FN>, tensor<192x1xf32>
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[QT]], %[[ST]]
// NOPRODUCERS-LABEL: func.func @rowwise(
// NOPRODUCERS-NEXT:    fp8.quantize_transpose
func.func @rowwise(%x: tensor<128x192xbf16>) -> (tensor<128x192xf8E4M3FN>, tensor<128x1xf32>, tensor<192x128xf8E4M3FN>, tensor<192x1xf32>) {
  %q, %s = fp8.quantize %x {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>}
      : tensor<128x192xbf16> -> tensor<128x192xf8E4M3FN>, tensor<128x1xf32>
  %e = tensor.empty() : tensor<192x128xbf16>
  %xt = linalg.transpose ins(%x : tensor<128x192xbf16>) outs(%e : tensor<192x128xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>}
      : tensor<192x128xbf16> -> tensor<192x128xf8E4M3FN>, tensor<192x1xf32>
  return %q, %s, %qt, %st : tensor<128x192xf8E4M3FN>, tensor<128x1xf32>, tensor<192x128xf8E4M3FN>, tensor<192x1xf32>
}

// -----

// Not fused: dims that are not multiples of 64 (the kernel's tiles), a
// different FP8 type on the two sides, a given amax, and column scales
// ([*, 1]: not a scale per row).
// CHECK-LABEL: func.func @unfused
// CHECK-NOT: fp8.quantize_transpose
// CHECK-COUNT-4: linalg.transpose
func.func @unfused(%x: tensor<112x64xbf16>, %y: tensor<128x128xbf16>, %amax: tensor<128x1xf32>)
    -> (tensor<112x64xf8E4M3FN>, tensor<64x112xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2>,
        tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<112x64xbf16> -> tensor<112x64xf8E4M3FN>, tensor<112x1xf32>
  %e = tensor.empty() : tensor<64x112xbf16>
  %xt = linalg.transpose ins(%x : tensor<112x64xbf16>) outs(%e : tensor<64x112xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<64x112xbf16> -> tensor<64x112xf8E4M3FN>, tensor<64x1xf32>
  %e2 = tensor.empty() : tensor<128x128xbf16>
  %yt = linalg.transpose ins(%y : tensor<128x128xbf16>) outs(%e2 : tensor<128x128xbf16>) permutation = [1, 0]
  %a, %as = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  %at, %ast = fp8.quantize %yt {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E5M2>, tensor<128x1xf32>
  %e3 = tensor.empty() : tensor<128x128xbf16>
  %yt2 = linalg.transpose ins(%y : tensor<128x128xbf16>) outs(%e3 : tensor<128x128xbf16>) permutation = [1, 0]
  %d, %ds = fp8.quantize %y amax(%amax : tensor<128x1xf32>) {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  %dt, %dst = fp8.quantize %yt2 amax(%amax : tensor<128x1xf32>) {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  %e4 = tensor.empty() : tensor<128x128xbf16>
  %yt3 = linalg.transpose ins(%y : tensor<128x128xbf16>) outs(%e4 : tensor<128x128xbf16>) permutation = [1, 0]
  %c, %cs = fp8.quantize %y {scaling = #fp8.scaling<tile = [*, 1], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<1x128xf32>
  %ct, %cst = fp8.quantize %yt3 {scaling = #fp8.scaling<tile = [*, 1], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<1x128xf32>
  return %q, %qt, %a, %at, %d, %dt, %c, %ct : tensor<112x64xf8E4M3FN>, tensor<64x112xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E5M2>,
      tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
}

// -----

// A quantization that took its elementwise producer keeps the quantization
// of its transpose apart: the rowwise cast-transpose reads no producer.
// CHECK-LABEL: func.func @producer_first
// CHECK: fp8.quantize_elementwise
// CHECK: linalg.transpose
// CHECK-NOT: fp8.quantize_transpose
func.func @producer_first(%a: tensor<128x128xbf16>, %b: tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>) {
  %e = tensor.empty() : tensor<128x128xbf16>
  %sum = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                         iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%e : tensor<128x128xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %s = arith.addf %x, %y : bf16
    linalg.yield %s : bf16
  } -> tensor<128x128xbf16>
  %q, %s = fp8.quantize %sum {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  %e2 = tensor.empty() : tensor<128x128xbf16>
  %t = linalg.transpose ins(%sum : tensor<128x128xbf16>) outs(%e2 : tensor<128x128xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %t {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  return %q, %qt : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>
}
