// RUN: fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<delayed, amax = delayed<16, max>, margin = 1>"' | FileCheck %s
// RUN: fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<delayed, amax = delayed<16, most_recent>>"' | FileCheck %s --check-prefix=RECENT

// Delayed scaling keeps no hidden state: each quantized value gets an amax
// history argument (oldest first) and returns the rolled history; the
// quantization uses the history's max (falling back to the current amax
// while the history holds no positive finite value), and the margin.
// CHECK-LABEL: func.func @fprop(
// CHECK-SAME: %[[X:.*]]: tensor<64x256xbf16> {fp8.role = "activation"}, %[[W:.*]]: tensor<128x256xbf16> {fp8.role = "weight"}, %[[HX:.*]]: tensor<16x1x1xf32> {fp8.amax_history}, %[[HW:.*]]: tensor<16x1x1xf32> {fp8.amax_history})
// CHECK-SAME: -> (tensor<64x128xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32>)
// CHECK: %[[CUR:.*]] = fp8.amax %[[X]] {tile = #fp8.tile<[*, *]>}
// CHECK: %[[MAX:.*]] = linalg.reduce ins(%[[HX]] : tensor<16x1x1xf32>) {{.*}} dimensions = [0]
// CHECK: arith.maximumf
// CHECK: %[[USED:.*]] = arith.select %{{.*}}, %[[MAX]], %[[CUR]]
// CHECK: %[[KEPT:.*]] = tensor.extract_slice %[[HX]][1, 0, 0] [15, 1, 1] [1, 1, 1]
// CHECK: %[[R0:.*]] = tensor.insert_slice %[[KEPT]] into %{{.*}}[0, 0, 0] [15, 1, 1] [1, 1, 1]
// CHECK: %[[ROLLED:.*]] = tensor.insert_slice %[[CUR]] into %[[R0]][15, 0, 0] [1, 1, 1] [1, 1, 1]
// CHECK: fp8.quantize %[[X]] amax(%[[USED]] : tensor<1x1xf32>) {fp8.role = "activation", margin = 1 : i64
// CHECK: return %{{.*}}, %[[ROLLED]], %{{.*}} : tensor<64x128xf32>, tensor<16x1x1xf32>, tensor<16x1x1xf32>
// RECENT: tensor.extract_slice %{{.*}}[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
// RECENT-NOT: linalg.reduce
func.func @fprop(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                 %w: tensor<128x256xbf16> {fp8.role = "weight"}) -> tensor<64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x128xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<64x256xbf16>, tensor<128x256xbf16>)
         outs(%i : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}
