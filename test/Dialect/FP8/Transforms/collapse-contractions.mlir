// RUN: fp8-opt %s --split-input-file --fp8-collapse-contractions -verify-diagnostics | FileCheck %s

// Fprop over [batch, sequence, features]: the two M loops become one.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @fprop
// CHECK: %[[X:.*]] = tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<4x128x512xbf16> into tensor<512x512xbf16>
// CHECK: %[[INIT:.*]] = tensor.collapse_shape %{{.*}} {{\[}}[0, 1], [2]] : tensor<4x128x256xbf16> into tensor<512x256xbf16>
// CHECK: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[C]]], iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK-SAME: ins(%[[X]], %arg1 : tensor<512x512xbf16>, tensor<256x512xbf16>) outs(%[[INIT]] : tensor<512x256xbf16>)
// CHECK: tensor.expand_shape %[[Y]] {{\[}}[0, 1], [2]] output_shape [4, 128, 256]
func.func @fprop(%x: tensor<4x128x512xbf16>, %w: tensor<256x512xbf16>) -> tensor<4x128x256xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<4x128x256xbf16>
  %i = linalg.fill ins(%zero : bf16) outs(%e : tensor<4x128x256xbf16>) -> tensor<4x128x256xbf16>
  %y = linalg.generic {indexing_maps = [affine_map<(b, t, n, k) -> (b, t, k)>,
                                        affine_map<(b, t, n, k) -> (n, k)>,
                                        affine_map<(b, t, n, k) -> (b, t, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<4x128x512xbf16>, tensor<256x512xbf16>) outs(%i : tensor<4x128x256xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %c, %p : bf16
    linalg.yield %s : bf16
  } -> tensor<4x128x256xbf16>
  return %y : tensor<4x128x256xbf16>
}

// -----

// Wgrad contracts batch and sequence: one K loop of 512, the result 2-D.
// CHECK-LABEL: func.func @wgrad
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2]] : tensor<4x128x256xbf16> into tensor<512x256xbf16>
// CHECK: tensor.collapse_shape %arg1 {{\[}}[0, 1], [2]] : tensor<4x128x512xbf16> into tensor<512x512xbf16>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-NOT: tensor.expand_shape
func.func @wgrad(%dy: tensor<4x128x256xbf16>, %x: tensor<4x128x512xbf16>) -> tensor<256x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256x512xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<256x512xf32>) -> tensor<256x512xf32>
  %dw = linalg.generic {indexing_maps = [affine_map<(n, k, b, t) -> (b, t, n)>,
                                         affine_map<(n, k, b, t) -> (b, t, k)>,
                                         affine_map<(n, k, b, t) -> (n, k)>],
                        iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%dy, %x : tensor<4x128x256xbf16>, tensor<4x128x512xbf16>) outs(%i : tensor<256x512xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<256x512xf32>
  return %dw : tensor<256x512xf32>
}

// -----

// Attention-like: two batch loops (batch, heads) become one batch loop.
// CHECK-LABEL: func.func @heads
// CHECK: tensor.collapse_shape %arg0 {{\[}}[0, 1], [2], [3]] : tensor<2x8x64x32xbf16> into tensor<16x64x32xbf16>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: tensor.expand_shape {{.*}} output_shape [2, 8, 64, 64]
func.func @heads(%q: tensor<2x8x64x32xbf16>, %k: tensor<2x8x64x32xbf16>, %o: tensor<2x8x64x64xf32>) -> tensor<2x8x64x64xf32> {
  %s = linalg.generic {indexing_maps = [affine_map<(b, h, i, j, d) -> (b, h, i, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, j, d)>,
                                        affine_map<(b, h, i, j, d) -> (b, h, i, j)>],
                       iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%q, %k : tensor<2x8x64x32xbf16>, tensor<2x8x64x32xbf16>) outs(%o : tensor<2x8x64x64xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %r = arith.addf %c, %p : f32
    linalg.yield %r : f32
  } -> tensor<2x8x64x64xf32>
  return %s : tensor<2x8x64x64xf32>
}

// -----

// A plain 2-D matmul is left alone.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: collapse_shape
// CHECK: linalg.matmul
func.func @plain(%x: tensor<64x32xbf16>, %w: tensor<32x16xbf16>, %o: tensor<64x16xbf16>) -> tensor<64x16xbf16> {
  %y = linalg.matmul ins(%x, %w : tensor<64x32xbf16>, tensor<32x16xbf16>)
                     outs(%o : tensor<64x16xbf16>) -> tensor<64x16xbf16>
  return %y : tensor<64x16xbf16>
}

// -----

// [sequence, batch, features] against a [batch, sequence] result: the M
// loops are in different orders, so no collapse makes one matmul of it.
// CHECK-LABEL: func.func @swapped
// CHECK-NOT: collapse_shape
func.func @swapped(%x: tensor<128x4x512xbf16>, %w: tensor<256x512xbf16>, %o: tensor<4x128x256xbf16>) -> tensor<4x128x256xbf16> {
  // expected-warning @+1 {{fp8-collapse-contractions: a contraction over M loops (d0, d1) that are not adjacent and in one order in operand #2, so it is not one matmul and is not quantized; transpose or reshape the operand so that they are}}
  %y = linalg.generic {indexing_maps = [affine_map<(b, t, n, k) -> (t, b, k)>,
                                        affine_map<(b, t, n, k) -> (n, k)>,
                                        affine_map<(b, t, n, k) -> (b, t, n)>],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<128x4x512xbf16>, tensor<256x512xbf16>) outs(%o : tensor<4x128x256xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %c, %p : bf16
    linalg.yield %s : bf16
  } -> tensor<4x128x256xbf16>
  return %y : tensor<4x128x256xbf16>
}
