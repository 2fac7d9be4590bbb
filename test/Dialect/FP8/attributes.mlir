// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

// Every preset parses by name and prints back as its name.
// CHECK-LABEL: func.func @presets
// CHECK-SAME: p0 = #fp8.recipe<tensorwise>
// CHECK-SAME: p1 = #fp8.recipe<delayed>
// CHECK-SAME: p2 = #fp8.recipe<rowwise>
// CHECK-SAME: p3 = #fp8.recipe<rowwise_gw_hp>
// CHECK-SAME: p4 = #fp8.recipe<blockwise>
// CHECK-SAME: p5 = #fp8.recipe<mxfp8>
// CHECK-SAME: p6 = #fp8.recipe<mxfp8_ocp>
func.func @presets() attributes {
  p0 = #fp8.recipe<tensorwise>, p1 = #fp8.recipe<delayed>,
  p2 = #fp8.recipe<rowwise>, p3 = #fp8.recipe<rowwise_gw_hp>,
  p4 = #fp8.recipe<blockwise>, p5 = #fp8.recipe<mxfp8>,
  p6 = #fp8.recipe<mxfp8_ocp>} {
  return
}

// A recipe written out in full that equals a preset is that preset: `delayed`
// is tensorwise with e5m2 gradients and a 1024-step max amax history.
// CHECK-LABEL: func.func @full_form_equals_preset
// CHECK-SAME: r = #fp8.recipe<delayed>
// CHECK-SAME: s = #fp8.recipe<delayed>
func.func @full_form_equals_preset() attributes {
  r = #fp8.recipe<tensorwise, gradient = #fp8.policy<f8E5M2, tile = [*, *], scale = f32>,
                  amax = delayed<1024, max>>,
  s = #fp8.recipe<activation = #fp8.policy<f8E4M3FN, tile = [*, *], scale = f32>,
                  weight = #fp8.policy<f8E4M3FN, tile = [*, *], scale = f32>,
                  gradient = #fp8.policy<f8E5M2, tile = [*, *], scale = f32>,
                  amax = delayed<1024, max>, margin = 0, accumulate = promoted,
                  hadamard = 0, stochastic_gradients = false, high_precision = []>} {
  return
}

// A recipe close to a preset prints as that preset plus its overrides; one
// that differs from every preset in more than three fields prints in full.
// CHECK-LABEL: func.func @overrides
// CHECK-SAME: r = #fp8.recipe<mxfp8, hadamard = 32, stochastic_gradients = true>
// CHECK-SAME: s = #fp8.recipe<activation = #fp8.policy<f8E4M3FN, tile = [1, 128], scale = f32>, weight = #fp8.policy<f8E4M3FN, tile = [128, 128], scale = f32>, gradient = #fp8.policy<f8E4M3FN, tile = [1, 128], scale = f32>, amax = delayed<16, most_recent>, margin = 2, accumulate = fast, hadamard = 0, stochastic_gradients = false, high_precision = [dgrad, wgrad]>
// CHECK-SAME: t = #fp8.recipe<rowwise, gradient = #fp8.policy<f8E5M2, tile = [1, *], scale = f32, round = pow2_ceil>>
// A format alone keeps the preset's tile, scale and rounding:
// CHECK-SAME: u = #fp8.recipe<blockwise, gradient = #fp8.policy<f8E5M2, tile = [1, 128], scale = f32>>
// CHECK-SAME: v = #fp8.recipe<tensorwise>
// CHECK-SAME: w = #fp8.recipe<mxfp8, activation = #fp8.policy<f8E5M2, tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>>
func.func @overrides() attributes {
  r = #fp8.recipe<mxfp8, hadamard = 32, stochastic_gradients = true>,
  s = #fp8.recipe<blockwise, amax = delayed<16, most_recent>, margin = 2,
                  accumulate = fast, high_precision = [dgrad, wgrad]>,
  t = #fp8.recipe<rowwise, gradient = #fp8.policy<f8E5M2, tile = [1, *], round = pow2_ceil>>,
  u = #fp8.recipe<blockwise, gradient = e5m2>,
  v = #fp8.recipe<tensorwise, gradient = e5m2>,
  w = #fp8.recipe<mxfp8, activation = e5m2>} {
  return
}

// Scaling, tile and policy attributes; `round = exact` is the default and
// is not printed.
// CHECK-LABEL: func.func @scalings
// CHECK-SAME: a = #fp8.scaling<tile = [*, *], scale = f32>
// CHECK-SAME: b = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>
// CHECK-SAME: c = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_floor>
// CHECK-SAME: d = #fp8.tile<[128, 1]>
// CHECK-SAME: e = #fp8.policy<f8E5M2, tile = [1, 128], scale = f32>
// CHECK-SAME: f = #fp8.scaling<tile = [128, 128], scale = f32>
func.func @scalings() attributes {
  a = #fp8.scaling<tile = [*, *], scale = f32, round = exact>,
  b = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>,
  c = #fp8.scaling<round = pow2_floor, scale = f8E8M0FNU, tile = [1, 32]>,
  d = #fp8.tile<[128, 1]>,
  e = #fp8.policy<f8E5M2, tile = [1, 128]>,
  f = #fp8.scaling<tile = [128, 128]>} {
  return
}
