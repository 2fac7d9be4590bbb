// RUN: fp8-opt %s '--fp8-pipeline=recipe="#fp8.recipe<delayed, amax = delayed<16, max>>" chip=sm_90a' | FileCheck %s
// RUN: fp8-opt %s '--fp8-pipeline=recipe="#fp8.recipe<delayed, amax = delayed<16, most_recent>>" chip=sm_90a' | FileCheck %s --check-prefix=RECENT
// RUN: fp8-opt %s '--fp8-pipeline=recipe="#fp8.recipe<delayed, amax = delayed<16, max>>" chip=sm_90a fuse-producers=false' | FileCheck %s --check-prefix=OFF

// fp8-pipeline under the delayed recipe fuses each quantization with the
// data's amax that its history rolls in: X and W of the linear layer, no
// separate fp8.amax, reduction of the history or choice left; the rolled
// histories read the fused ops' amax.
// CHECK-LABEL: func.func @fprop(
// CHECK-SAME:    %[[X:[^:]*]]: tensor<64x256xbf16> {fp8.role = "activation"}, %[[W:[^:]*]]: tensor<128x256xbf16> {fp8.role = "weight"}, %[[HX:[^:]*]]: tensor<16x1x1xf32> {fp8.amax_history}, %[[HW:[^:]*]]: tensor<16x1x1xf32> {fp8.amax_history})
// CHECK-NOT:     fp8.amax %
// CHECK-NOT:     linalg.reduce
// CHECK-NOT:     arith.select
// CHECK-DAG:     %[[QW:[^,]*]], %[[SW:[^,]*]], %[[AW:[^ ]*]] = fp8.quantize_delayed %[[W]] history(%[[HW]] : tensor<16x1x1xf32>) {fp8.role = "weight"
// CHECK-DAG:     %[[QX:[^,]*]], %[[SX:[^,]*]], %[[AX:[^ ]*]] = fp8.quantize_delayed %[[X]] history(%[[HX]] : tensor<16x1x1xf32>) {fp8.role = "activation"
// CHECK-DAG:     tensor.insert_slice %[[AW]] into %{{.*}}[15, 0, 0]
// CHECK-DAG:     tensor.insert_slice %[[AX]] into %{{.*}}[15, 0, 0]
// CHECK:         fp8.scaled_matmul %[[QX]], %[[SX]], %[[QW]], %[[SW]]
// RECENT-LABEL: func.func @fprop(
// RECENT-COUNT-2: fp8.quantize_delayed %{{.*}} history(%{{.*}} : tensor<16x1x1xf32>) {{{.*}}most_recent
// RECENT-NOT:   fp8.amax %
// OFF-LABEL: func.func @fprop(
// OFF-COUNT-2: fp8.amax %
// OFF-NOT:     fp8.quantize_delayed
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
