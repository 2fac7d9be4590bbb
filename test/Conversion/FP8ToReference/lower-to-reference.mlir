// RUN: fp8-opt %s -split-input-file --fp8-lower-to-reference | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-lower-to-reference | FileCheck %s --check-prefix=NOFP8

// No fp8 op or annotation survives the lowering.
// NOFP8-NOT: fp8.

// quantize: a partial edge tile is padded with zeros, the tiled dims split
// into (tile, position), a reduction takes the per-tile amax, a generic
// computes the scales, and a generic scales and casts every element with the
// tile's scale (floordiv map).
// CHECK-LABEL: func.func @quantize
// CHECK: tensor.pad
// CHECK: tensor.expand_shape
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.maximumf
// CHECK: linalg.generic
// CHECK: arith.divf
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[TILE:.*]], #{{.*}}]
// CHECK: arith.mulf
// CHECK: arith.minimumf
// CHECK: arith.bitcast {{.*}} : i8 to f8E4M3FN
func.func @quantize(%x: tensor<4x100xbf16>) -> (tensor<4x100xf8E4M3FN>, tensor<4x4xf32>) {
  %q, %s = fp8.quantize %x {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<4x100xbf16> -> tensor<4x100xf8E4M3FN>, tensor<4x4xf32>
  return %q, %s : tensor<4x100xf8E4M3FN>, tensor<4x4xf32>
}

// -----

// scaled_matmul: f32 partial sums per 128-wide K-chunk, then each chunk
// scaled by its two blocks' scales and added in order.
// CHECK-LABEL: func.func @scaled_matmul
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK: arith.mulf
// CHECK: arith.mulf
// CHECK: arith.addf
func.func @scaled_matmul(%a: tensor<8x256xf8E4M3FN>, %sa: tensor<8x2xf32>,
                         %b: tensor<16x256xf8E4M3FN>, %sb: tensor<1x2xf32>) -> tensor<8x16xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>, fp8.matmul = "fprop"}
      : (tensor<8x256xf8E4M3FN>, tensor<8x2xf32>, tensor<16x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<8x16xf32>
  return %c : tensor<8x16xf32>
}

// -----

// transpose moves data and scales; hadamard multiplies by the seed's signs
// (bit 0 of rand32(3, j): 1, 0, 0, 1), runs one butterfly stage per bit of
// n (two for n = 4: partners by tensor.extract, a + b or a - b), then
// normalizes.
// CHECK-LABEL: func.func @moves
// CHECK-COUNT-2: linalg.transpose
// CHECK: arith.constant dense<[-1.000000e+00, 1.000000e+00, 1.000000e+00, -1.000000e+00]> : tensor<4xf32>
// CHECK: arith.mulf
// CHECK-COUNT-2: tensor.extract
// CHECK: arith.addf
// CHECK: arith.subf
// CHECK: arith.select
// CHECK-COUNT-2: tensor.extract
// CHECK: arith.addf
// CHECK: arith.subf
// CHECK: arith.select
// CHECK-NOT: tensor.extract
// CHECK: arith.mulf
// CHECK: tensor.collapse_shape
func.func @moves(%q: tensor<128x128xf8E4M3FN>, %s: tensor<1x1xf32>, %x: tensor<2x4xf32>)
    -> (tensor<128x128xf8E4M3FN>, tensor<1x1xf32>, tensor<2x4xf32>) {
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<128x128xf8E4M3FN>, tensor<1x1xf32> -> tensor<128x128xf8E4M3FN>, tensor<1x1xf32>
  %h = fp8.hadamard %x {dim = 1 : i64, size = 4 : i64, seed = 3 : i64} : tensor<2x4xf32>
  return %qt, %st, %h : tensor<128x128xf8E4M3FN>, tensor<1x1xf32>, tensor<2x4xf32>
}
