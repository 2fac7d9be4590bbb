// RUN: fp8-opt %s -split-input-file --fp8-quantize-matmuls=recipe=blockwise '--fp8-insert-hadamard=size=128 matmuls=fprop,wgrad seed=7' --fp8-derive-scaling | FileCheck %s
// RUN: fp8-opt %s -split-input-file '--fp8-quantize-matmuls=recipe="#fp8.recipe<mxfp8, hadamard = 32>"' --fp8-insert-hadamard | FileCheck %s --check-prefix=RECIPE

// Both operands of Fprop are rotated along their contracted dim (cols) and
// both operands of Wgrad along theirs (rows), with the same size and seed;
// Dgrad is not selected, so its W keeps an unrotated quantization.
// CHECK-LABEL: func.func @linear
// CHECK-DAG: %[[HX:.*]] = fp8.hadamard %arg0 {dim = 1 : i64, seed = 7 : i64, size = 128 : i64}
// CHECK-DAG: %[[HW:.*]] = fp8.hadamard %arg1 {dim = 1 : i64, seed = 7 : i64, size = 128 : i64}
// CHECK-DAG: fp8.quantize %[[HX]] {fp8.role = "activation"
// CHECK-DAG: fp8.quantize %[[HW]] {fp8.role = "weight"
// CHECK-DAG: %[[WQ:.*]], %{{.*}} = fp8.quantize %arg1 {fp8.role = "weight"
// CHECK-DAG: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[WQ]], %{{.*}} {{.*}}"dgrad"
// CHECK-DAG: %[[HDY:.*]] = fp8.hadamard %arg2 {dim = 0 : i64, seed = 7 : i64, size = 128 : i64}
// CHECK-DAG: %[[HX0:.*]] = fp8.hadamard %arg0 {dim = 0 : i64, seed = 7 : i64, size = 128 : i64}
// CHECK-DAG: fp8.quantize %[[HDY]] {fp8.role = "gradient", scaling = #fp8.scaling<tile = [128, 1]
// CHECK-DAG: fp8.quantize %[[HX0]] {fp8.role = "activation", scaling = #fp8.scaling<tile = [128, 1]
// RECIPE-LABEL: func.func @linear
// RECIPE-COUNT-6: fp8.hadamard {{.*}}size = 32 : i64
#fprop = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
          affine_map<(m, n, k) -> (m, n)>]
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
func.func @linear(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                  %w: tensor<1024x512xbf16> {fp8.role = "weight"},
                  %dy: tensor<256x1024xbf16> {fp8.role = "gradient"},
                  %y0: tensor<256x1024xf32>, %dx0: tensor<256x512xf32>, %dw0: tensor<1024x512xf32>)
    -> (tensor<256x1024xf32>, tensor<256x512xf32>, tensor<1024x512xf32>) {
  %y = linalg.matmul indexing_maps = #fprop ins(%x, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>)
         outs(%y0 : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x1024xbf16>, tensor<1024x512xbf16>)
          outs(%dx0 : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dw = linalg.matmul indexing_maps = #wgrad ins(%dy, %x : tensor<256x1024xbf16>, tensor<256x512xbf16>)
          outs(%dw0 : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %y, %dx, %dw : tensor<256x1024xf32>, tensor<256x512xf32>, tensor<1024x512xf32>
}
