// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization=producers=false | FileCheck %s --check-prefix=OFF

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// GELU (tanh form) quantized 1x128 and, with its transpose, by the
// cast-transpose: one fp8.quantize_elementwise with `transpose` where the
// GELU stood, carrying its body (constants cloned in); the GELU and its
// destination go, nothing else reads A.
// CHECK-LABEL: func.func @gelu_cast_transpose(
// CHECK-SAME:    %[[H:.*]]: tensor<256x384xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[QT:.*]], %[[ST:.*]] = fp8.quantize_elementwise %[[H]] {fp8.role = "activation", indexing_maps = [#map], scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose} : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32> {
// CHECK-NEXT:    ^bb0(%[[V:.*]]: bf16):
// CHECK-NEXT:      %[[F:.*]] = arith.extf %[[V]] : bf16 to f32
// CHECK:           math.tanh
// CHECK:           %[[G:.*]] = arith.truncf %{{.*}} : f32 to bf16
// CHECK-NEXT:      fp8.yield %[[G]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[QT]], %[[ST]]
// OFF-LABEL: func.func @gelu_cast_transpose(
// OFF:         linalg.generic
// OFF:         fp8.quantize_transpose
// OFF-NOT:     fp8.quantize_elementwise
func.func @gelu_cast_transpose(%h: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>) {
  %c0 = arith.constant 0.7978846 : f32
  %c1 = arith.constant 0.044715 : f32
  %e = tensor.empty() : tensor<256x384xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<256x384xbf16>) outs(%e : tensor<256x384xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %f = arith.extf %v : bf16 to f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %x2 = arith.mulf %f, %f : f32
    %x3 = arith.mulf %x2, %f : f32
    %t0 = arith.mulf %c1, %x3 : f32
    %t1 = arith.addf %f, %t0 : f32
    %u = arith.mulf %c0, %t1 : f32
    %th = math.tanh %u : f32
    %p = arith.addf %one, %th : f32
    %hx = arith.mulf %half, %f : f32
    %g = arith.mulf %hx, %p : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<256x384xbf16>
  %et = tensor.empty() : tensor<384x256xbf16>
  %at = linalg.transpose ins(%a : tensor<256x384xbf16>) outs(%et : tensor<384x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %at {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  %q, %s = fp8.quantize %a {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// SwiGLU (SiLU(h1)·h3, two inputs) returned in bf16 as well: the fused op
// keeps the product as its last result, which the return reads.
// CHECK-LABEL: func.func @swiglu_kept(
// CHECK-SAME:    %[[H1:[^:]*]]: tensor<128x256xbf16>, %[[H3:[^:]*]]: tensor<128x256xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[A:.*]] = fp8.quantize_elementwise %[[H1]], %[[H3]] {indexing_maps = [#map, #map], margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<128x256xbf16>, tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>, tensor<128x256xbf16> {
// CHECK-NEXT:    ^bb0(%{{.*}}: bf16, %{{.*}}: bf16):
// CHECK:           math.exp
// CHECK:           fp8.yield
// CHECK:         return %[[Q]], %[[S]], %[[A]]
func.func @swiglu_kept(%h1: tensor<128x256xbf16>, %h3: tensor<128x256xbf16>) -> (tensor<128x256xf8E4M3FN>, tensor<128x2xf32>, tensor<128x256xbf16>) {
  %e = tensor.empty() : tensor<128x256xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h1, %h3 : tensor<128x256xbf16>, tensor<128x256xbf16>) outs(%e : tensor<128x256xbf16>) {
  ^bb0(%v1: bf16, %v3: bf16, %o: bf16):
    %a0 = arith.extf %v1 : bf16 to f32
    %a1 = arith.extf %v3 : bf16 to f32
    %neg = arith.negf %a0 : f32
    %ex = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %sig = arith.divf %one, %den : f32
    %s0 = arith.mulf %a0, %sig : f32
    %r = arith.mulf %s0, %a1 : f32
    %y = arith.truncf %r : f32 to bf16
    linalg.yield %y : bf16
  } -> tensor<128x256xbf16>
  %q, %s = fp8.quantize %a {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  return %q, %s, %a : tensor<128x256xf8E4M3FN>, tensor<128x2xf32>, tensor<128x256xbf16>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

// A bias add (the bias row broadcast) and the GELU after it: the bias add
// has one reader, the GELU, so both bodies go into one fused op, which
// reads the f32 product and the bias through the bias's own map.
// Rowwise scaling.
// CHECK-LABEL: func.func @bias_gelu_chain(
// CHECK-SAME:    %[[Y:[^:]*]]: tensor<64x256xf32>, %[[B:[^:]*]]: tensor<256xf32>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %[[Y]], %[[B]] {indexing_maps = [#map, #map1], scaling = #fp8.scaling<tile = [1, *], scale = f32>} : tensor<64x256xf32>, tensor<256xf32> -> tensor<64x256xf8E4M3FN>, tensor<64x1xf32> {
// CHECK-NEXT:    ^bb0(%[[VY:.*]]: f32, %[[VB:.*]]: f32):
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[VY]], %[[VB]] : f32
// CHECK-NEXT:      %[[SB:.*]] = arith.truncf %[[SUM]] : f32 to bf16
// CHECK-NEXT:      %[[SF:.*]] = arith.extf %[[SB]] : bf16 to f32
// CHECK:           math.erf
// CHECK:           fp8.yield %{{.*}} : bf16
// CHECK-NEXT:    }
// CHECK-NOT:     linalg.generic
// CHECK-NEXT:    return %[[Q]], %[[S]]
func.func @bias_gelu_chain(%y: tensor<64x256xf32>, %b: tensor<256xf32>) -> (tensor<64x256xf8E4M3FN>, tensor<64x1xf32>) {
  %e = tensor.empty() : tensor<64x256xbf16>
  %z = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %b : tensor<64x256xf32>, tensor<256xf32>) outs(%e : tensor<64x256xbf16>) {
  ^bb0(%vy: f32, %vb: f32, %o: bf16):
    %sum = arith.addf %vy, %vb : f32
    %sb = arith.truncf %sum : f32 to bf16
    linalg.yield %sb : bf16
  } -> tensor<64x256xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<64x256xbf16>) outs(%e : tensor<64x256xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    // gelu(x) = 0.5 x (1 + erf(x / sqrt 2))
    %f = arith.extf %v : bf16 to f32
    %r2 = arith.constant 0.70710678 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %u = arith.mulf %f, %r2 : f32
    %er = math.erf %u : f32
    %p = arith.addf %one, %er : f32
    %hx = arith.mulf %half, %f : f32
    %g = arith.mulf %hx, %p : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<64x256xbf16>
  %q, %s = fp8.quantize %a {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
  return %q, %s : tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Not fused: a tensorwise quantization needs the whole tensor's amax first,
// so its kernel would compute the body twice; a GELU (erf, a polynomial in
// the kernel) costs more than the bytes fusion saves. A cheap body fuses.
// CHECK-LABEL: func.func @gelu_tensorwise(
// CHECK:         linalg.generic
// CHECK:           math.erf
// CHECK:         fp8.quantize %{{.*}} {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
// CHECK-NOT:     fp8.quantize_elementwise
// CHECK-LABEL: func.func @scale_tensorwise(
// CHECK-NEXT:    fp8.quantize_elementwise
// CHECK-NOT:     linalg.generic
func.func @gelu_tensorwise(%x: tensor<64x256xbf16>) -> (tensor<64x256xf8E4M3FN>, tensor<1x1xf32>) {
  %e = tensor.empty() : tensor<64x256xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x256xbf16>) outs(%e : tensor<64x256xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %f = arith.extf %v : bf16 to f32
    %r2 = arith.constant 0.70710678 : f32
    %u = arith.mulf %f, %r2 : f32
    %er = math.erf %u : f32
    %g = arith.mulf %f, %er : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<64x256xbf16>
  %q, %s = fp8.quantize %a {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
}
func.func @scale_tensorwise(%x: tensor<64x256xbf16>) -> (tensor<64x256xf8E4M3FN>, tensor<1x1xf32>) {
  %e = tensor.empty() : tensor<64x256xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<64x256xbf16>) outs(%e : tensor<64x256xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %f = arith.extf %v : bf16 to f32
    %k = arith.constant 0.5 : f32
    %g = arith.mulf %f, %k : f32
    %a1 = math.absf %g : f32
    %gb = arith.truncf %a1 : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<64x256xbf16>
  %q, %s = fp8.quantize %a {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
}

// -----

// Elementwise arith ops on tensors: a residual add in f32, a scaling by a
// splat constant and a cast to bf16 form one body; the splat constant
// becomes a scalar constant of the body.
// CHECK-LABEL: func.func @residual_scale_cast(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<128x128xf32>, %[[R:[^:]*]]: tensor<128x128xf32>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %[[X]], %[[R]] {indexing_maps = [#map, #map], scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<128x128xf32>, tensor<128x128xf32> -> tensor<128x128xf8E5M2>, tensor<1x1xf32> {
// CHECK-NEXT:    ^bb0(%[[A:.*]]: f32, %[[B:.*]]: f32):
// CHECK-NEXT:      %[[SUM:.*]] = arith.addf %[[A]], %[[B]] : f32
// CHECK-NEXT:      %[[K:.*]] = arith.constant 2.500000e-01 : f32
// CHECK-NEXT:      %[[M:.*]] = arith.mulf %[[SUM]], %[[K]] : f32
// CHECK-NEXT:      %[[T:.*]] = arith.truncf %[[M]] : f32 to bf16
// CHECK-NEXT:      fp8.yield %[[T]] : bf16
// CHECK-NEXT:    }
// CHECK-NEXT:    return %[[Q]], %[[S]]
func.func @residual_scale_cast(%x: tensor<128x128xf32>, %r: tensor<128x128xf32>) -> (tensor<128x128xf8E5M2>, tensor<1x1xf32>) {
  %c = arith.constant dense<0.25> : tensor<128x128xf32>
  %sum = arith.addf %x, %r : tensor<128x128xf32>
  %m = arith.mulf %sum, %c : tensor<128x128xf32>
  %t = arith.truncf %m : tensor<128x128xf32> to tensor<128x128xbf16>
  %q, %s = fp8.quantize %t {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E5M2>, tensor<1x1xf32>
  return %q, %s : tensor<128x128xf8E5M2>, tensor<1x1xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A producer that two quantizations read (two tiles of A): it fuses into the
// first, whose kept result the second reads; a producer read twice by the
// same op (%h twice below) is one input.
// CHECK-LABEL: func.func @two_quantizations(
// CHECK:         %[[Q:.*]], %[[S:.*]], %[[A:.*]] = fp8.quantize_elementwise %[[H:.*]] {indexing_maps = [#map]
// CHECK:         fp8.quantize %[[A]] {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
func.func @two_quantizations(%h: tensor<256x256xbf16>) -> (tensor<256x256xf8E4M3FN>, tensor<256x2xf32>, tensor<256x256xf8E4M3FN>, tensor<2x256xf32>) {
  %e = tensor.empty() : tensor<256x256xbf16>
  %a = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %h : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%e : tensor<256x256xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %p = arith.mulf %x, %y : bf16
    linalg.yield %p : bf16
  } -> tensor<256x256xbf16>
  %q, %s = fp8.quantize %a {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  %c, %cs = fp8.quantize %a {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<2x256xf32>
  return %q, %s, %c, %cs : tensor<256x256xf8E4M3FN>, tensor<256x2xf32>, tensor<256x256xf8E4M3FN>, tensor<2x256xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#t = affine_map<(i, j) -> (j, i)>

// Not fused: what the quantize kernels cannot compute where they load, or
// quantizations they do not fuse.
// CHECK-LABEL: func.func @not_fused(
// CHECK-NOT:     fp8.quantize_elementwise
// CHECK:         return
func.func @not_fused(%x: tensor<128x128xbf16>, %xt: tensor<128x128xbf16>, %amax: tensor<128x1xf32>, %seed: i64,
                     %k: tensor<128x128xi32>, %scalar: bf16)
    -> (tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>,
        tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>,
        tensor<128x128xf8E4M3FN>) {
  %e = tensor.empty() : tensor<128x128xbf16>
  // An input read transposed.
  %a = linalg.generic {indexing_maps = [#id, #t, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %xt : tensor<128x128xbf16>, tensor<128x128xbf16>) outs(%e : tensor<128x128xbf16>) {
  ^bb0(%u: bf16, %v: bf16, %o: bf16):
    %p = arith.addf %u, %v : bf16
    linalg.yield %p : bf16
  } -> tensor<128x128xbf16>
  %qa, %sa = fp8.quantize %a {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  // A reduction (a row sum of x times itself, per output element: the
  // kernel would need a pass over k).
  %r = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%x : tensor<128x128xbf16>) outs(%e : tensor<128x128xbf16>) {
  ^bb0(%u: bf16, %o: bf16):
    %p = arith.addf %u, %o : bf16
    linalg.yield %p : bf16
  } -> tensor<128x128xbf16>
  %qr, %sr = fp8.quantize %r {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  // The body reads the destination (an accumulation into %x).
  %b = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<128x128xbf16>) outs(%x : tensor<128x128xbf16>) {
  ^bb0(%u: bf16, %o: bf16):
    %p = arith.addf %u, %o : bf16
    linalg.yield %p : bf16
  } -> tensor<128x128xbf16>
  %qb, %sb = fp8.quantize %b {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  // The body reads the element's index.
  %c = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<128x128xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to bf16
    linalg.yield %f : bf16
  } -> tensor<128x128xbf16>
  %qc, %sc = fp8.quantize %c {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  // An integer input, and a scalar one.
  %d = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%k : tensor<128x128xi32>) outs(%e : tensor<128x128xbf16>) {
  ^bb0(%u: i32, %o: bf16):
    %f = arith.sitofp %u : i32 to bf16
    linalg.yield %f : bf16
  } -> tensor<128x128xbf16>
  %qd, %sd = fp8.quantize %d {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  %g = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> ()>, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %scalar : tensor<128x128xbf16>, bf16) outs(%e : tensor<128x128xbf16>) {
  ^bb0(%u: bf16, %w: bf16, %o: bf16):
    %p = arith.mulf %u, %w : bf16
    linalg.yield %p : bf16
  } -> tensor<128x128xbf16>
  %qg, %sg = fp8.quantize %g {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  // Quantizations with a given amax (delayed scaling) or stochastic rounding.
  %h = arith.negf %x : tensor<128x128xbf16>
  %qh, %sh = fp8.quantize %h amax(%amax : tensor<128x1xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  %m = arith.negf %xt : tensor<128x128xbf16>
  %qm, %sm = fp8.quantize %m seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  // A quantization already bound to a kernel (convert-fp8-to-nvvm ran).
  %n = math.absf %x : tensor<128x128xbf16>
  %qn, %sn = fp8.quantize %n {fp8.kernel = @k::@k, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>
  return %qa, %qr, %qb, %qc, %qd, %qg, %qh, %qm, %qn
      : tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>,
        tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>, tensor<128x128xf8E4M3FN>,
        tensor<128x128xf8E4M3FN>
}

// -----

// A Hadamard rotation along the rows that only the quantization reads fuses
// into it: the identity body and the rotation's size and seed. One read by
// another op, one along dim 0, one before block tiles (the row-tile kernel
// rotates in registers; no other) stay.
// CHECK-LABEL: func.func @hadamard(
// CHECK-SAME:    %[[X:.*]]: tensor<128x256xbf16>
// CHECK:         %[[Q:.*]], %[[S:.*]] = fp8.quantize_elementwise %[[X]] {hadamard_seed = 42 : i64, hadamard_size = 128 : i64, indexing_maps = [#map], scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32> {
// CHECK-NEXT:    ^bb0(%[[E:.*]]: bf16):
// CHECK-NEXT:      fp8.yield %[[E]] : bf16
// CHECK:         %[[R2:.*]] = fp8.hadamard %[[X]] {dim = 1 : i64, size = 64 : i64}
// CHECK:         fp8.quantize %[[R2]]
// CHECK:         %[[R3:.*]] = fp8.hadamard %[[X]] {dim = 0 : i64, size = 128 : i64}
// CHECK:         fp8.quantize %[[R3]]
// CHECK:         %[[R4:.*]] = fp8.hadamard %[[X]] {dim = 1 : i64, size = 128 : i64}
// CHECK:         fp8.quantize %[[R4]] {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
// OFF-LABEL: func.func @hadamard(
// OFF-COUNT-4: fp8.hadamard
// OFF-NOT:     fp8.quantize_elementwise
func.func @hadamard(%x: tensor<128x256xbf16>)
    -> (tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<128x256xbf16>,
        tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>) {
  %r1 = fp8.hadamard %x {dim = 1 : i64, size = 128 : i64, seed = 42 : i64} : tensor<128x256xbf16>
  %q1, %s1 = fp8.quantize %r1 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %r2 = fp8.hadamard %x {dim = 1 : i64, size = 64 : i64} : tensor<128x256xbf16>
  %q2, %s2 = fp8.quantize %r2 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %r3 = fp8.hadamard %x {dim = 0 : i64, size = 128 : i64} : tensor<128x256xbf16>
  %q3, %s3 = fp8.quantize %r3 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
  %r4 = fp8.hadamard %x {dim = 1 : i64, size = 128 : i64} : tensor<128x256xbf16>
  %q4, %s4 = fp8.quantize %r4 {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x2xf32>
  return %q1, %q2, %r2, %q3, %q4
      : tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<128x256xbf16>,
        tensor<128x256xf8E4M3FN>, tensor<128x256xf8E4M3FN>
}
