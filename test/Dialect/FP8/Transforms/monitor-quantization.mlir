// RUN: fp8-opt %s -split-input-file --fp8-monitor-quantization | FileCheck %s

// Each rank-2 quantization becomes fp8.quantize_monitored with its operands
// and attributes; its tile_amax and counts are appended to the results in
// program order, labelled <role>:<source>: the op's role, or its argument's,
// else "tensor"; arg<N>, arg<N>.T through a transpose, else op<K>.
// CHECK-LABEL: func.func @labels(
// CHECK-SAME:    -> (tensor<8x16xf8E4M3FN>, tensor<8x16xf8E5M2>, tensor<16x8xf8E4M3FN>, tensor<8x1xf32>,
// CHECK-SAME:    tensor<8x16xf8E4M3FN>, tensor<1x1xf32>,
// CHECK-SAME:    tensor<8x1xf32> {fp8.monitor = "activation:arg0/tile_amax"}, tensor<2xi64> {fp8.monitor = "activation:arg0/counts"},
// CHECK-SAME:    tensor<1x1xf32> {fp8.monitor = "gradient:arg1/tile_amax"}, tensor<2xi64> {fp8.monitor = "gradient:arg1/counts"},
// CHECK-SAME:    tensor<16x1xf32> {fp8.monitor = "activation:arg0.T/tile_amax"}, tensor<2xi64> {fp8.monitor = "activation:arg0.T/counts"},
// CHECK-SAME:    tensor<8x1xf32> {fp8.monitor = "tensor:op3/tile_amax"}, tensor<2xi64> {fp8.monitor = "tensor:op3/counts"})
// CHECK:         %[[Q0:.*]], %[[S0:.*]], %[[A0:.*]], %[[N0:.*]] = fp8.quantize_monitored %arg0 {scaling = #fp8.scaling<tile = [1, 16], scale = f32>} : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>, tensor<8x1xf32>, tensor<2xi64>
// CHECK:         %[[Q1:.*]], %[[S1:.*]], %[[A1:.*]], %[[N1:.*]] = fp8.quantize_monitored %arg1 amax(%arg2 : tensor<1x1xf32>) seed(%arg3) {fp8.role = "gradient", rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
// CHECK:         %[[Q2:.*]], %[[S2:.*]], %[[A2:.*]], %[[N2:.*]] = fp8.quantize_monitored %{{.*}} {margin = 2 : i64, scaling
// CHECK:         %[[Q3:.*]], %[[S3:.*]], %[[A3:.*]], %[[N3:.*]] = fp8.quantize_monitored %{{.*}} {scaling
// CHECK-NOT:     fp8.quantize 
// CHECK:         return %[[Q0]], %[[Q1]], %[[Q2]], %[[S0]], %[[Q3]], %[[S1]], %[[A0]], %[[N0]], %[[A1]], %[[N1]], %[[A2]], %[[N2]], %[[A3]], %[[N3]] :
func.func @labels(%x: tensor<8x16xbf16> {fp8.role = "activation"}, %g: tensor<8x16xf32>,
                  %a: tensor<1x1xf32>, %seed: i64)
    -> (tensor<8x16xf8E4M3FN>, tensor<8x16xf8E5M2>, tensor<16x8xf8E4M3FN>, tensor<8x1xf32>,
        tensor<8x16xf8E4M3FN>, tensor<1x1xf32>) {
  %q0, %s0 = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>
  %q1, %s1 = fp8.quantize %g amax(%a : tensor<1x1xf32>) seed(%seed)
      {fp8.role = "gradient", rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<8x16xf32> -> tensor<8x16xf8E5M2>, tensor<1x1xf32>
  %e = tensor.empty() : tensor<16x8xbf16>
  %xt = linalg.transpose ins(%x : tensor<8x16xbf16>) outs(%e : tensor<16x8xbf16>) permutation = [1, 0]
  %q2, %s2 = fp8.quantize %xt {margin = 2 : i64, scaling = #fp8.scaling<tile = [1, 8], scale = f32>}
      : tensor<16x8xbf16> -> tensor<16x8xf8E4M3FN>, tensor<16x1xf32>
  %h = arith.addf %g, %g : tensor<8x16xf32>
  %q3, %s3 = fp8.quantize %h {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xf32> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>
  return %q0, %q1, %q2, %s0, %q3, %s1 : tensor<8x16xf8E4M3FN>, tensor<8x16xf8E5M2>, tensor<16x8xf8E4M3FN>, tensor<8x1xf32>, tensor<8x16xf8E4M3FN>, tensor<1x1xf32>
}

// -----

// A batched (rank-3) quantization stays unmonitored, and a function without
// rank-2 quantizations keeps its results; so does an external one.
// CHECK-LABEL: func.func @batched(
// CHECK-SAME:    -> tensor<2x8x8xf8E4M3FN>
// CHECK:         fp8.quantize %
// CHECK-LABEL: func.func private @external(
func.func @batched(%x: tensor<2x8x8xbf16>) -> tensor<2x8x8xf8E4M3FN> {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 8], scale = f32>}
      : tensor<2x8x8xbf16> -> tensor<2x8x8xf8E4M3FN>, tensor<2x8x1xf32>
  return %q : tensor<2x8x8xf8E4M3FN>
}
func.func private @external(tensor<8x8xbf16>) -> tensor<8x8xf8E4M3FN>
