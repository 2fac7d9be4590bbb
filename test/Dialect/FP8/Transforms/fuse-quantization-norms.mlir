// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization=producers=false | FileCheck %s --check-prefix=OFF

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// RMSNorm quantized 1x128: the sum of squares becomes the `reduce` region
// (its term, x^2), the normalization the body, which reads the row's sum
// as its last argument; the reduction, its zero fill and the generic go.
// CHECK-LABEL: func.func @rmsnorm(
// CHECK-SAME:    %[[X:.*]]: tensor<256x512xbf16>, %[[W:.*]]: tensor<512xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %[[X]], %[[W]] {indexing_maps = [#map, #map1], scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16>, tensor<512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: bf16, %[[G:.*]]: bf16, %[[SS:.*]]: f32):
// CHECK:           %[[M:.*]] = arith.divf %[[SS]], %{{.*}} : f32
// CHECK:           math.rsqrt
// CHECK:           fp8.yield %{{.*}} : bf16
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    ^bb0(%[[A2:.*]]: bf16, %{{.*}}: bf16, %{{.*}}: f32):
// CHECK-NEXT:      %[[F:.*]] = arith.extf %[[A2]] : bf16 to f32
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[F]], %[[F]] : f32
// CHECK-NEXT:      fp8.yield %[[SQ]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]]
// OFF-LABEL: func.func @rmsnorm(
// OFF:         linalg.fill
// OFF:         linalg.generic
// OFF:         linalg.generic
// OFF:         fp8.quantize %
// OFF-NOT:     fp8.quantize_elementwise
func.func @rmsnorm(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) {
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
      ins(%x, %ss, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
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
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %sc : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

// LayerNorm in two passes (torch's decomposition: the mean, then the sum
// of squared deviations from it), the mean and rstd as vectors, quantized
// rowwise and kept: two `reduce` regions, the second reading the first's
// sum (the mean's vector inlined into it and into the body).
// CHECK-LABEL: func.func @layernorm(
// CHECK-SAME:    %[[X:.*]]: tensor<256x512xbf16>, %[[W:.*]]: tensor<512xbf16>, %[[B:.*]]: tensor<512xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[K:.*]] = fp8.quantize_elementwise %[[X]], %[[W]], %[[B]] {indexing_maps = [#map, #map1, #map1], scaling = #fp8.scaling<tile = [1, *], scale = f32>}
// CHECK-NEXT:    ^bb0(%{{.*}}: bf16, %{{.*}}: bf16, %{{.*}}: bf16, %[[SUM:.*]]: f32, %[[VAR:.*]]: f32):
// CHECK:           arith.divf %[[SUM]]
// CHECK:           arith.divf %[[VAR]]
// CHECK:           math.rsqrt
// CHECK:           fp8.yield %{{.*}} : bf16
// CHECK-NEXT:    } reduce {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: bf16, %{{.*}}: bf16, %{{.*}}: bf16, %{{.*}}: f32, %{{.*}}: f32):
// CHECK-NEXT:      %[[F:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:      fp8.yield %[[F]] : f32
// CHECK-NEXT:    }, {
// CHECK-NEXT:    ^bb0(%[[A2:.*]]: bf16, %{{.*}}: bf16, %{{.*}}: bf16, %[[SUM2:.*]]: f32, %{{.*}}: f32):
// CHECK:           %[[MEAN:.*]] = arith.divf %[[SUM2]]
// CHECK:           %[[D:.*]] = arith.subf %{{.*}}, %[[MEAN]] : f32
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[D]], %[[D]] : f32
// CHECK-NEXT:      fp8.yield %[[SQ]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[K]]
// CHECK-NOT:     linalg.generic
func.func @layernorm(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>, %bias: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x1xf32>, tensor<256x512xbf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x512xbf16>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %f, %acc : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sum : tensor<256xf32>) outs(%e1 : tensor<256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 512.0 : f32
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<256xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %var = linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<256x512xbf16>, tensor<256xf32>) outs(%init2 : tensor<256xf32>) {
  ^bb0(%a: bf16, %m: f32, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %m : f32
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %e2 = tensor.empty() : tensor<256xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%var : tensor<256xf32>) outs(%e2 : tensor<256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 512.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x512xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #col, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %w, %bias : tensor<256x512xbf16>, tensor<256xf32>, tensor<256xf32>, tensor<512xbf16>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %m: f32, %r: f32, %g: bf16, %bb: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %m : f32
    %t = arith.mulf %d, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %bf = arith.extf %bb : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %z = arith.addf %u, %bf : f32
    %b = arith.truncf %z : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, *], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x1xf32>
  return %q, %sc, %y : tensor<256x512xf8E4M3FN>, tensor<256x1xf32>, tensor<256x512xbf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// A sum that another op reads (a function result) stays a reduction: the
// normalization alone fuses, reading it through (i, j) -> (i).
// CHECK-LABEL: func.func @sum_read_elsewhere(
// CHECK:         %[[SS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise %{{.*}}, %[[SS]], %{{.*}} {indexing_maps = [#map, #map1, #map2]
// CHECK-NOT:     reduce
// CHECK:         return
func.func @sum_read_elsewhere(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<256xf32>) {
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
      ins(%x, %ss, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
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
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %sc, %ss : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<256xf32>
}


// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// A sum that starts from 1.0 (not a zero fill) stays.
// CHECK-LABEL: func.func @sum_from_one(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise
// CHECK-NOT:     reduce
// CHECK:         return
func.func @sum_from_one(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) {
  %zero = arith.constant 1.0 : f32
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
      ins(%x, %ss, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
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
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %sc : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
}


// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// 128x128 tiles span rows: no warp per row, the sum stays.
// CHECK-LABEL: func.func @block_tiles(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise
// CHECK-NOT:     reduce
// CHECK:         return
func.func @block_tiles(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<2x4xf32>) {
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
      ins(%x, %ss, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
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
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
  return %q, %sc : tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
}


// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// With the transpose too (the cast-transpose, 128 x 128 tiles of rows and
// columns): the sum stays.
// CHECK-LABEL: func.func @cast_transpose(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise {{.*}}transpose
// CHECK-NOT:     reduce
// CHECK:         return
func.func @cast_transpose(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<512x256xf8E4M3FN>, tensor<512x2xf32>) {
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
      ins(%x, %ss, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
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
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  %et = tensor.empty() : tensor<512x256xbf16>
  %yt = linalg.transpose ins(%y : tensor<256x512xbf16>) outs(%et : tensor<512x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %yt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<512x256xbf16> -> tensor<512x256xf8E4M3FN>, tensor<512x2xf32>
  return %q, %sc, %qt, %st : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<512x256xf8E4M3FN>, tensor<512x2xf32>
}


// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

// RMSNorm as frontends split it: the squares a generic of their own (read
// only by the sum: inlined into the term), the rstd a vector (inlined into
// the body): the same fused op.
// CHECK-LABEL: func.func @rms_split(
// CHECK-NEXT:    fp8.quantize_elementwise %{{.*}}, %{{.*}} {indexing_maps = [#map, #map1]
// CHECK-NEXT:    ^bb0(%{{.*}}: bf16, %{{.*}}: bf16, %[[SS:.*]]: f32):
// CHECK:           arith.mulf %[[SS]]
// CHECK:           math.rsqrt
// CHECK:         } reduce {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: bf16, %{{.*}}: bf16, %{{.*}}: f32):
// CHECK-NEXT:      %[[F:.*]] = arith.extf %[[A]] : bf16 to f32
// CHECK-NEXT:      %[[SQ:.*]] = arith.mulf %[[F]], %[[F]] : f32
// CHECK-NEXT:      fp8.yield %[[SQ]] : f32
// CHECK-NEXT:    }
// CHECK-NEXT:    return
func.func @rms_split(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) {
  %ex = tensor.empty() : tensor<256x512xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<256x512xbf16>) outs(%ex : tensor<256x512xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    linalg.yield %sq : f32
  } -> tensor<256x512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]} ins(%x2 : tensor<256x512xf32>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%ss : tensor<256xf32>) outs(%e1 : tensor<256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 0.001953125 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.mulf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x512xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %rstd, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %r: f32, %g: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %sc : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>

// A reduction whose addition another op of its body reads too is not a row
// sum (its term is not the body without the addition): it stays, and the
// division by it fuses through (i, j) -> (i) without a `reduce` region.
// CHECK-LABEL: func.func @add_read_twice(
// CHECK:         %[[S:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         arith.mulf
// CHECK:         fp8.quantize_elementwise %{{.*}}, %[[S]] {indexing_maps = [#map, #map1]
// CHECK-NOT:     reduce
// CHECK:         return
func.func @add_read_twice(%x: tensor<64x1024xf32>) -> (tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64xf32>
  %init = linalg.fill ins(%z : f32) outs(%e1 : tensor<64xf32>) -> tensor<64xf32>
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.addf %acc, %a : f32
    %d = arith.mulf %n, %n : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  %e = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %m = arith.divf %a, %c : f32
    linalg.yield %m : f32
  } -> tensor<64x1024xf32>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<64x1024xf32> -> tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>
  return %q, %sc : tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// A sum from -0.0 stays: the row-sum order starts from +0.0, and
// -0.0 + -0.0 is -0.0 where the order's +0.0 + -0.0 is +0.0.
// CHECK-LABEL: func.func @neg_zero_init(
// CHECK:         %[[SS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise %{{.*}}, %[[SS]], %{{.*}} {indexing_maps = [#map, #map1, #map2]
// CHECK-NOT:     reduce
// CHECK:         return
func.func @neg_zero_init(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) {
  %zero = arith.constant -0.0 : f32
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
      ins(%x, %ss, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
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
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %sc : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// Rows of 520 elements (not whole 16-element chunks): no warp per row,
// the sum stays.
// CHECK-LABEL: func.func @cols_520(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise
// CHECK-NOT:     reduce
// CHECK:         return
func.func @cols_520(%x: tensor<256x520xbf16>, %w: tensor<520xbf16>) -> (tensor<256x520xf8E4M3FN>, tensor<256x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x520xbf16>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x520xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<256x520xbf16>, tensor<256xf32>, tensor<520xbf16>) outs(%ey : tensor<256x520xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 520.0 : f32
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
  } -> tensor<256x520xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, *], scale = f32>} : tensor<256x520xbf16> -> tensor<256x520xf8E4M3FN>, tensor<256x1xf32>
  return %q, %sc : tensor<256x520xf8E4M3FN>, tensor<256x1xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// 1x1024 tiles (wider than a warp's round of 512): the sum stays.
// CHECK-LABEL: func.func @tile_1024(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise
// CHECK-NOT:     reduce
// CHECK:         return
func.func @tile_1024(%x: tensor<256x2048xbf16>, %w: tensor<2048xbf16>) -> (tensor<256x2048xf8E4M3FN>, tensor<256x2xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x2048xbf16>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x2048xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<256x2048xbf16>, tensor<256xf32>, tensor<2048xbf16>) outs(%ey : tensor<256x2048xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 2048.0 : f32
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
  } -> tensor<256x2048xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 1024], scale = f32>} : tensor<256x2048xbf16> -> tensor<256x2048xf8E4M3FN>, tensor<256x2xf32>
  return %q, %sc : tensor<256x2048xf8E4M3FN>, tensor<256x2xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

// The rstd vector of rms_split also returned: neither it nor the sum it
// reads goes into the fused op; the normalization reads the vector.
// CHECK-LABEL: func.func @rstd_read_elsewhere(
// CHECK:         %[[SS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         %[[RSTD:.*]] = linalg.generic {{.*}}iterator_types = ["parallel"]} ins(%[[SS]]
// CHECK:         fp8.quantize_elementwise %{{.*}}, %[[RSTD]], %{{.*}} {indexing_maps = [#map, #map1, #map3]
// CHECK-NOT:     reduce
// CHECK:         return %{{.*}}, %{{.*}}, %[[RSTD]]
func.func @rstd_read_elsewhere(%x: tensor<256x512xbf16>, %w: tensor<512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<256xf32>) {
  %ex = tensor.empty() : tensor<256x512xf32>
  %x2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%x : tensor<256x512xbf16>) outs(%ex : tensor<256x512xf32>) {
  ^bb0(%a: bf16, %o: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    linalg.yield %sq : f32
  } -> tensor<256x512xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]} ins(%x2 : tensor<256x512xf32>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %s = arith.addf %acc, %a : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %e1 = tensor.empty() : tensor<256xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]} ins(%ss : tensor<256xf32>) outs(%e1 : tensor<256xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 0.001953125 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.mulf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x512xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]} ins(%x, %rstd, %w : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %r: f32, %g: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<256x512xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %sc, %rstd : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<256xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#keep = affine_map<(i, j) -> (i, 0)>

// A sum kept as [M, 1] (torch's keepdim) and read through (i, j) -> (i, 0):
// not a row sum (its result is not a vector per row), and the
// normalization's broadcast is not an elementwise read: nothing fuses.
// CHECK-LABEL: func.func @keepdim(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         linalg.generic
// CHECK:         fp8.quantize %
// CHECK-NOT:     fp8.quantize_elementwise
// CHECK:         return
func.func @keepdim(%x: tensor<64x1024xf32>) -> (tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>) {
  %z = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<64x1xf32>
  %init = linalg.fill ins(%z : f32) outs(%e1 : tensor<64x1xf32>) -> tensor<64x1xf32>
  %s = linalg.generic {indexing_maps = [#id, #keep], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64x1xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %n = arith.addf %acc, %sq : f32
    linalg.yield %n : f32
  } -> tensor<64x1xf32>
  %e = tensor.empty() : tensor<64x1024xf32>
  %y = linalg.generic {indexing_maps = [#id, #keep, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<64x1024xf32>, tensor<64x1xf32>) outs(%e : tensor<64x1024xf32>) {
  ^bb0(%a: f32, %c: f32, %o: f32):
    %r = math.rsqrt %c : f32
    %m = arith.mulf %a, %r : f32
    linalg.yield %m : f32
  } -> tensor<64x1024xf32>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<64x1024xf32> -> tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>
  return %q, %sc : tensor<64x1024xf8E4M3FN>, tensor<64x8xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// Rows of 200704 elements: 392 rounds, whose chunk sums (8 warps on one
// row, 50 KB) the norm kernel's 48 KiB of shared memory cannot hold. The
// plain fusion instead (the sum a reduction kernel of its own), which
// compiles (test/Conversion/FP8ToNVVM/quantize-row-norm-limits.mlir).
// CHECK-LABEL: func.func @long_rows(
// CHECK:         %[[SS:.*]] = linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise %{{.*}}, %[[SS]], %{{.*}} {indexing_maps = [#map, #map1, #map2]
// CHECK-NOT:     reduce
// CHECK:         return
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

// -----

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

// LayerNorm on rows of 131072: one sum's chunk sums would fit (32 KiB),
// two do not (64 KiB): the plain fusion, both sums stay.
// CHECK-LABEL: func.func @layernorm_131072(
// CHECK-COUNT-2: iterator_types = ["parallel", "reduction"]
// CHECK:         fp8.quantize_elementwise
// CHECK-NOT:     reduce
// CHECK:         return
func.func @layernorm_131072(%x: tensor<2x131072xbf16>, %w: tensor<131072xbf16>, %bias: tensor<131072xbf16>) -> (tensor<2x131072xf8E4M3FN>, tensor<2x1xf32>, tensor<2x131072xbf16>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x131072xbf16>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %f, %acc : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %e1 = tensor.empty() : tensor<2xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sum : tensor<2xf32>) outs(%e1 : tensor<2xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 131072.0 : f32
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %init2 = linalg.fill ins(%zero : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %var = linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<2x131072xbf16>, tensor<2xf32>) outs(%init2 : tensor<2xf32>) {
  ^bb0(%a: bf16, %m: f32, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %m : f32
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<2xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%var : tensor<2xf32>) outs(%e2 : tensor<2xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 131072.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<2xf32>
  %ey = tensor.empty() : tensor<2x131072xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #col, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %w, %bias : tensor<2x131072xbf16>, tensor<2xf32>, tensor<2xf32>, tensor<131072xbf16>, tensor<131072xbf16>) outs(%ey : tensor<2x131072xbf16>) {
  ^bb0(%a: bf16, %m: f32, %r: f32, %g: bf16, %bb: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %m : f32
    %t = arith.mulf %d, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %bf = arith.extf %bb : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %z = arith.addf %u, %bf : f32
    %b = arith.truncf %z : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<2x131072xbf16>
  %q, %sc = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, *], scale = f32>} : tensor<2x131072xbf16> -> tensor<2x131072xf8E4M3FN>, tensor<2x1xf32>
  return %q, %sc, %y : tensor<2x131072xf8E4M3FN>, tensor<2x1xf32>, tensor<2x131072xbf16>
}

