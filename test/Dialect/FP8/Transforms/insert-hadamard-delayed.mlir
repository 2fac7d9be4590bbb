// RUN: fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<delayed, hadamard = 128>"' --fp8-insert-hadamard | FileCheck %s
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=delayed --fp8-insert-hadamard=size=128 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=delayed '--fp8-insert-hadamard=size=128 matmuls=fprop' 2>&1 | FileCheck %s --check-prefix=SHARED
// RUN: not fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<delayed, hadamard = 128>"' --cse --fp8-insert-hadamard 2>&1 | FileCheck %s --check-prefix=CSE

// Delayed scaling with a Hadamard rotation: what is quantized is the rotated
// data, so its current amax (the fallback, and what the history rolls in) is
// the rotated data's. Each contracted dim of a value is rotated differently
// (x along its cols for Fprop, its rows for Wgrad), so the recipe's hadamard
// field gives each its own history: six here, one per quantization.
// CHECK-LABEL: func.func @linear(
// CHECK-COUNT-6: {fp8.amax_history}
// CHECK-SAME: -> (tensor<256x1024xf32>, tensor<256x512xf32>, tensor<1024x512xf32>, tensor<1024x1x1xf32>, tensor<1024x1x1xf32>, tensor<1024x1x1xf32>, tensor<1024x1x1xf32>, tensor<1024x1x1xf32>, tensor<1024x1x1xf32>)
// CHECK-DAG: %[[RX0:.*]] = fp8.hadamard %arg0 {dim = 0 : i64, size = 128 : i64}
// CHECK-DAG: fp8.amax %[[RX0]] {tile = #fp8.tile<[*, *]>}
// CHECK-DAG: %[[RX1:.*]] = fp8.hadamard %arg0 {dim = 1 : i64, size = 128 : i64}
// CHECK-DAG: fp8.amax %[[RX1]] {tile = #fp8.tile<[*, *]>}
// CHECK-DAG: %[[RW0:.*]] = fp8.hadamard %arg1 {dim = 0 : i64, size = 128 : i64}
// CHECK-DAG: fp8.amax %[[RW0]] {tile = #fp8.tile<[*, *]>}
// CHECK-DAG: %[[RW1:.*]] = fp8.hadamard %arg1 {dim = 1 : i64, size = 128 : i64}
// CHECK-DAG: fp8.amax %[[RW1]] {tile = #fp8.tile<[*, *]>}
// CHECK-DAG: %[[RG0:.*]] = fp8.hadamard %arg2 {dim = 0 : i64, size = 128 : i64}
// CHECK-DAG: fp8.amax %[[RG0]] {tile = #fp8.tile<[*, *]>}
// CHECK-DAG: %[[RG1:.*]] = fp8.hadamard %arg2 {dim = 1 : i64, size = 128 : i64}
// CHECK-DAG: fp8.amax %[[RG1]] {tile = #fp8.tile<[*, *]>}
// CHECK-DAG: fp8.quantize %[[RX1]] amax(
// CHECK-DAG: fp8.quantize %[[RX0]] amax(
// CHECK-DAG: fp8.quantize %[[RW1]] amax(
// CHECK-DAG: fp8.quantize %[[RW0]] amax(
// CHECK-DAG: fp8.quantize %[[RG1]] amax(
// CHECK-DAG: fp8.quantize %[[RG0]] amax(
// No amax of unrotated data is left.
// CHECK-NOT: fp8.amax %arg

// Rotated by the pass option alone, the recipe keeps one history per value
// (x's Fprop and Wgrad quantizations share one, as do W's Fprop and Dgrad
// ones); the rotations then differ under one history, which no rewiring can
// serve: an error that says what to do.
// SHARED: error: 'fp8.quantize' op fp8-insert-hadamard: delayed scaling keeps one amax history for quantizations of this value that are rotated differently (or not at all); set the recipe's hadamard field instead of the pass option, so that fp8-quantize-matmuls keeps a history per rotation
// A cse between the passes merges the identical fp8.amax ops of a value's
// two histories (one per contracted dim), which are then rotated
// differently: an error, not one amax for both.
// CSE: error: 'fp8.quantize' op fp8-insert-hadamard: the delayed amax of this quantization serves several amax histories (merged by cse?); run cse after fp8-insert-hadamard
#fprop = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
          affine_map<(m, n, k) -> (m, n)>]
#dgrad = [affine_map<(m, k, n) -> (m, n)>, affine_map<(m, k, n) -> (n, k)>,
          affine_map<(m, k, n) -> (m, k)>]
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
func.func @linear(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                  %w: tensor<1024x512xbf16> {fp8.role = "weight"},
                  %dy: tensor<256x1024xbf16> {fp8.role = "gradient"},
                  %y0: tensor<256x1024xf32>, %dx0: tensor<256x512xf32>, %dw0: tensor<1024x512xf32>)
    -> (tensor<256x1024xf32>, tensor<256x512xf32>, tensor<1024x512xf32>) {
  %y = linalg.matmul indexing_maps = #fprop ins(%x, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>)
         outs(%y0 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %dx = linalg.matmul indexing_maps = #dgrad ins(%dy, %w : tensor<256x1024xbf16>, tensor<1024x512xbf16>)
         outs(%dx0 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dw = linalg.matmul indexing_maps = #wgrad ins(%dy, %x : tensor<256x1024xbf16>, tensor<256x512xbf16>)
         outs(%dw0 : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %y, %dx, %dw : tensor<256x1024xf32>, tensor<256x512xf32>, tensor<1024x512xf32>
}
