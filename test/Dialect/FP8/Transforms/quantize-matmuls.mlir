// RUN: fp8-opt %s -split-input-file --fp8-quantize-matmuls=recipe=blockwise | FileCheck %s

// Fprop written as linalg.matmul with transposed-B indexing maps: both
// operands are contracted along their columns, so the 1x128 activation policy
// and the 128x128 weight policy apply as written; the zero init is dropped.
// CHECK-LABEL: func.func @fprop
// CHECK-SAME: attributes {fp8.recipe = #fp8.recipe<blockwise>}
// CHECK: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %arg0 {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
// CHECK: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %arg1 {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x2xf32>
// CHECK: %[[Y:.*]] = fp8.scaled_matmul %[[XQ]], %[[XS]], %[[WQ]], %[[WS]] {{{.*}}contracting = array<i64: 1, 1>, fp8.matmul = "fprop"} {{.*}} -> tensor<64x128xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return %[[Y]]
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

// -----

// Roles propagate through a transpose, a cast and an elementwise op; the
// Fprop result (through a GELU-like op) is the next layer's activation.
// The transposed weight is quantized as the stored tensor contracted along
// its rows, and the transpose goes away.
// A matmul accumulating into a live init adds it back; an f16 result comes
// from an f32 product.
// CHECK-LABEL: func.func @propagation
// CHECK-NOT: linalg.transpose
// CHECK: fp8.quantize %arg1 {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<256x128xf16>
// CHECK: fp8.scaled_matmul {{.*}}contracting = array<i64: 1, 0>, fp8.matmul = "fprop"{{.*}} -> tensor<64x128xf32>
// CHECK: fp8.quantize %{{.*}} {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<64x128xf16>
// CHECK: %[[P:.*]] = fp8.scaled_matmul {{.*}}fp8.matmul = "fprop"{{.*}} -> tensor<64x32xf32>
// CHECK: %[[T:.*]] = arith.truncf %[[P]] : tensor<64x32xf32> to tensor<64x32xf16>
// CHECK: arith.addf %{{.*}}, %[[T]] : tensor<64x32xf16>
func.func @propagation(%x: tensor<64x256xf32> {fp8.role = "activation"},
                       %w1t: tensor<256x128xf16> {fp8.role = "weight"},
                       %w2: tensor<32x128xf16> {fp8.role = "weight"},
                       %acc: tensor<64x32xf16>) -> tensor<64x32xf16> {
  %zero = arith.constant 0.0 : f32
  %xh = arith.truncf %x : tensor<64x256xf32> to tensor<64x256xf16>
  %t = tensor.empty() : tensor<128x256xf16>
  %w1 = linalg.transpose ins(%w1t : tensor<256x128xf16>) outs(%t : tensor<128x256xf16>) permutation = [1, 0]
  %e = tensor.empty() : tensor<64x128xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<64x128xf32>) -> tensor<64x128xf32>
  %h = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
         ins(%xh, %w1 : tensor<64x256xf16>, tensor<128x256xf16>)
         outs(%i : tensor<64x128xf32>) -> tensor<64x128xf32>
  %g = math.tanh %h : tensor<64x128xf32>
  %gh = arith.truncf %g : tensor<64x128xf32> to tensor<64x128xf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
         ins(%gh, %w2 : tensor<64x128xf16>, tensor<32x128xf16>)
         outs(%acc : tensor<64x32xf16>) -> tensor<64x32xf16>
  return %y : tensor<64x32xf16>
}

// -----

// A batched matmul keeps its batch dim; scales are per batch element.
// CHECK-LABEL: func.func @batched
// CHECK: fp8.quantize {{.*}} : tensor<4x64x256xbf16> -> tensor<4x64x256xf8E4M3FN>, tensor<4x64x2xf32>
// CHECK: fp8.quantize {{.*}} : tensor<4x256x128xbf16> -> tensor<4x256x128xf8E4M3FN>, tensor<4x2x1xf32>
// CHECK: fp8.scaled_matmul {{.*}}contracting = array<i64: 1, 0>{{.*}} -> tensor<4x64x128xf32>
func.func @batched(%x: tensor<4x64x256xbf16> {fp8.role = "activation"},
                   %w: tensor<4x256x128xbf16> {fp8.role = "weight"}) -> tensor<4x64x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x64x128xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x64x128xf32>) -> tensor<4x64x128xf32>
  %y = linalg.batch_matmul ins(%x, %w : tensor<4x64x256xbf16>, tensor<4x256x128xbf16>)
         outs(%i : tensor<4x64x128xf32>) -> tensor<4x64x128xf32>
  return %y : tensor<4x64x128xf32>
}

// -----

// Integer matmuls are not training matmuls and stay as they are.
// CHECK-LABEL: func.func @integer
// CHECK: linalg.matmul
// CHECK-NOT: fp8.
func.func @integer(%a: tensor<4x8xi8>, %b: tensor<8x4xi8>, %c: tensor<4x4xi32>) -> tensor<4x4xi32> {
  %y = linalg.matmul ins(%a, %b : tensor<4x8xi8>, tensor<8x4xi8>) outs(%c : tensor<4x4xi32>) -> tensor<4x4xi32>
  return %y : tensor<4x4xi32>
}
