// RUN: fp8-opt %s -split-input-file --fp8-lower-to-reference | FileCheck %s

// fp8-lower-to-reference reorders the user's row sums
// (fp8/Dialect/FP8/Utils/RowSum.h) into the row-sum order of
// docs/Numerics.md, as the kernels add them; other reductions keep
// linalg's loop order.

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// A sum of squares: the terms (1024: two whole rounds of 32 chunks of 16,
// no padding) split into (round, lane, element), each chunk's sum, each
// lane's, then the lanes pairwise (5 halvings) and the init.
// CHECK-LABEL: func.func @sum_of_squares(
// CHECK:         arith.mulf
// CHECK-NOT:     tensor.pad
// CHECK:         tensor.expand_shape {{.*}} : tensor<64x1024xf32> into tensor<64x2x32x16xf32>
// CHECK:         iterator_types = ["parallel", "parallel", "parallel", "reduction"]
// CHECK:         iterator_types = ["parallel", "reduction", "parallel"]
// CHECK-COUNT-5: tensor.extract_slice
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         return
func.func @sum_of_squares(%x: tensor<64x1024xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %sq = arith.mulf %a, %a : f32
    %n = arith.addf %acc, %sq : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

#t = affine_map<(i, j) -> (j, i)>
#row = affine_map<(i, j) -> (i)>

// Read through a transpose (as convert-fp8-to-nvvm's producer fusion
// leaves it): the same order, which depends on (i, j) only.
// CHECK-LABEL: func.func @transposed(
// CHECK:         tensor.expand_shape {{.*}} into tensor<64x2x32x16xf32>
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         return
func.func @transposed(%x: tensor<1024x64xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %s = linalg.generic {indexing_maps = [#t, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<1024x64xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.addf %acc, %a : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// An addition that another op of the body reads too: not a row sum (its
// term is not the body without the addition), left in loop order.
// CHECK-LABEL: func.func @add_read_twice(
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK-NEXT:    ^bb0
// CHECK-NEXT:      %[[N:.*]] = arith.addf
// CHECK-NEXT:      arith.mulf %[[N]], %[[N]]
// CHECK-NEXT:      linalg.yield %[[N]]
// CHECK-NOT:     tensor.expand_shape
func.func @add_read_twice(%x: tensor<64x1024xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.addf %acc, %a : f32
    %d = arith.mulf %n, %n : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}

// -----

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>

// A count (the term a constant from outside the body): a row sum, the
// constant read as it is.
// CHECK-LABEL: func.func @count(
// CHECK:         %[[ONE:.*]] = arith.constant 1.000000e+00 : f32
// CHECK:         linalg.yield %[[ONE]]
// CHECK:         tensor.expand_shape
// CHECK-NOT:     iterator_types = ["parallel", "reduction"]
// CHECK:         return
func.func @count(%x: tensor<64x1024xf32>, %init: tensor<64xf32>) -> tensor<64xf32> {
  %one = arith.constant 1.0 : f32
  %s = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<64x1024xf32>) outs(%init : tensor<64xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.addf %acc, %one : f32
    linalg.yield %n : f32
  } -> tensor<64xf32>
  return %s : tensor<64xf32>
}
