// RUN: fp8-opt %s -split-input-file --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=LAYOUT
// RUN: fp8-opt %s -split-input-file --fp8-quantize-matmuls=recipe=rowwise --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=ROWWISE

// Dgrad reads W through an explicit transpose. fp8-quantize-matmuls sees
// through it (W contracted along its rows), so under blockwise the square
// 128x128 tiles let Dgrad reuse Fprop's quantized W: W is quantized once.
// CHECK-LABEL: func.func @dgrad_through_transpose
// CHECK-NOT: linalg.transpose
// CHECK: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %arg1 {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[WQ]], %[[WS]] {{.*}}fp8.matmul = "fprop"
// CHECK-NOT: fp8.quantize %arg1
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[WQ]], %[[WS]] {{.*}}contracting = array<i64: 1, 0>, fp8.matmul = "dgrad"
// LAYOUT: fprop  b  weight      arg1 {{.*}} fresh
// LAYOUT: dgrad  b  weight      arg1 {{.*}} [128, 128] {{.*}} reused
// LAYOUT: 3 quantizations (3 fresh, 0 requantized), 1 reused, 0 transposed
// Rowwise tiles are not square: W is quantized again from bf16, along its
// rows.
// ROWWISE: dgrad  b  weight      arg1 {{.*}} dim 0 [*, 1] {{.*}} requantized
// ROWWISE: 4 quantizations (3 fresh, 1 requantized), 0 reused, 0 transposed
#nk = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
       affine_map<(m, n, k) -> (m, n)>]
func.func @dgrad_through_transpose(%x: tensor<64x512xbf16> {fp8.role = "activation"},
                                   %w: tensor<256x512xbf16> {fp8.role = "weight"},
                                   %dy: tensor<64x256xbf16> {fp8.role = "gradient"})
    -> (tensor<64x256xf32>, tensor<64x512xf32>) {
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<64x256xf32>
  %y0 = linalg.fill ins(%zero : f32) outs(%e0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %y = linalg.matmul indexing_maps = #nk
         ins(%x, %w : tensor<64x512xbf16>, tensor<256x512xbf16>)
         outs(%y0 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %et = tensor.empty() : tensor<512x256xbf16>
  %wt = linalg.transpose ins(%w : tensor<256x512xbf16>) outs(%et : tensor<512x256xbf16>) permutation = [1, 0]
  %e1 = tensor.empty() : tensor<64x512xf32>
  %dx0 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<64x512xf32>) -> tensor<64x512xf32>
  %dx = linalg.matmul indexing_maps = #nk
          ins(%dy, %wt : tensor<64x256xbf16>, tensor<512x256xbf16>)
          outs(%dx0 : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %y, %dx : tensor<64x256xf32>, tensor<64x512xf32>
}

// -----

// The same value used twice with the same scaling is quantized once.
// CHECK-LABEL: func.func @shared_activation
// CHECK: fp8.quantize %arg0
// CHECK-NOT: fp8.quantize %arg0
// LAYOUT-LABEL: layouts of @shared_activation
// LAYOUT: fprop  a  activation  arg0 {{.*}} fresh
// LAYOUT: fprop  a  activation  arg0 {{.*}} reused
#nk = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
       affine_map<(m, n, k) -> (m, n)>]
func.func @shared_activation(%x: tensor<64x512xbf16> {fp8.role = "activation"},
                             %w1: tensor<256x512xbf16> {fp8.role = "weight"},
                             %w2: tensor<128x512xbf16> {fp8.role = "weight"},
                             %c1: tensor<64x256xf32>, %c2: tensor<64x128xf32>)
    -> (tensor<64x256xf32>, tensor<64x128xf32>) {
  %a = linalg.matmul indexing_maps = #nk ins(%x, %w1 : tensor<64x512xbf16>, tensor<256x512xbf16>)
         outs(%c1 : tensor<64x256xf32>) -> tensor<64x256xf32>
  %b = linalg.matmul indexing_maps = #nk ins(%x, %w2 : tensor<64x512xbf16>, tensor<128x512xbf16>)
         outs(%c2 : tensor<64x128xf32>) -> tensor<64x128xf32>
  return %a, %b : tensor<64x256xf32>, tensor<64x128xf32>
}
