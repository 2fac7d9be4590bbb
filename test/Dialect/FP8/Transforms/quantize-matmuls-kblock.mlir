// A custom recipe whose K-block is longer than a matmul's K: legal (one
// partial block, scaled as a '*' K-block would be), but likely a recipe
// written for larger layers, so each operand gets a warning.
// RUN: fp8-opt %s -verify-diagnostics '--fp8-quantize-matmuls=recipe="#fp8.recipe<activation = #fp8.policy<f8E4M3FN, tile = [1, 1024], scale = f32>, weight = #fp8.policy<f8E4M3FN, tile = [128, 1024], scale = f32>, gradient = #fp8.policy<f8E5M2, tile = [1, 1024], scale = f32>>"' | FileCheck %s
// A preset on a small layer (blockwise's 128 on K = 96) is ordinary: no word.
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise 2>&1 | FileCheck %s --check-prefix=PRESET
// CHECK-LABEL: func.func @fprop
// CHECK: fp8.quantize {{.*}}tile = [1, 1024]
// CHECK: fp8.scaled_matmul
// PRESET-NOT: warning: fp8-quantize-matmuls
func.func @fprop(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                 %w: tensor<128x256xbf16> {fp8.role = "weight"},
                 %c: tensor<64x128xf32>, %x2: tensor<64x96xbf16> {fp8.role = "activation"},
                 %w2: tensor<32x96xbf16> {fp8.role = "weight"}, %c2: tensor<64x32xf32>)
    -> (tensor<64x128xf32>, tensor<64x32xf32>) {
  // expected-warning @+2 {{fp8-quantize-matmuls: the activation tile [1, 1024] has a K-block of 1024, longer than K = 256 of fprop operand 'tensor<64x256xbf16>': one scale spans all of K, as a '*' K-block would}}
  // expected-warning @+1 {{fp8-quantize-matmuls: the weight tile [128, 1024] has a K-block of 1024, longer than K = 256 of fprop operand 'tensor<128x256xbf16>': one scale spans all of K, as a '*' K-block would}}
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%x, %w : tensor<64x256xbf16>, tensor<128x256xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
  // expected-warning @+2 {{the activation tile [1, 1024] has a K-block of 1024, longer than K = 96}}
  // expected-warning @+1 {{the weight tile [128, 1024] has a K-block of 1024, longer than K = 96}}
  %y2 = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%x2, %w2 : tensor<64x96xbf16>, tensor<32x96xbf16>) outs(%c2 : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y, %y2 : tensor<64x128xf32>, tensor<64x32xf32>
}
