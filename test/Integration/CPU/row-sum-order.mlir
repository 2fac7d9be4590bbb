// The CPU reference adds a row sum (a linalg.generic adding f32 terms along
// the rows: a norm's) in the row-sum order of docs/Numerics.md, which the
// GPU kernels use too, not in linalg's loop order: each chunk of 16
// elements summed from +0.0, lane l of 32 adding from +0.0 the sums of
// chunks l, l + 32, ..., then the lanes added pairwise, halving, then the
// init. oracle.py's row_sum, written from docs/Numerics.md's pseudocode,
// prints the same.
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py row-sum-order | FileCheck %s

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @rowSum(%x: tensor<4x4096xf32>, %init: tensor<4xf32>) -> tensor<4xf32> {
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x4096xf32>) outs(%init : tensor<4xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.addf %acc, %a : f32
    linalg.yield %n : f32
  } -> tensor<4xf32>
  return %s : tensor<4xf32>
}

// 1000 columns: a partial round and a partial chunk (the missing terms
// add nothing).
func.func @rowSumPartial(%x: tensor<2x1000xf32>, %init: tensor<2xf32>) -> tensor<2xf32> {
  %s = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<2x1000xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %n = arith.addf %acc, %a : f32
    linalg.yield %n : f32
  } -> tensor<2xf32>
  return %s : tensor<2xf32>
}

func.func @print(%v: tensor<?xf32>) {
  %b = arith.bitcast %v : tensor<?xf32> to tensor<?xi32>
  %u = tensor.cast %b : tensor<?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  %big = arith.constant 16777216.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c16 = arith.constant 16 : index
  %e = tensor.empty() : tensor<4x4096xf32>
  %ones = linalg.fill ins(%one : f32) outs(%e : tensor<4x4096xf32>) -> tensor<4x4096xf32>
  // Row 0: 2^24, then ones. In order, every one vanishes beside 2^24
  // (2^24 + 1 rounds to 2^24): 2^24. Here only chunk 0's 15 ones do: lane
  // 0 adds 2^24 and seven chunks of 16, the other lanes 128 each:
  // 2^24 + 112 + 31 * 128 = 16781296.
  %x0 = tensor.insert %big into %ones[%c0, %c0] : tensor<4x4096xf32>
  // Row 1: 2^24 at element 16 (chunk 1, lane 1's first): the same sum.
  %x1 = tensor.insert %big into %x0[%c1, %c16] : tensor<4x4096xf32>
  // Row 2: ones: 4096 in any order. Row 3: ones from an init of 2^24:
  // the init comes last, 2^24 + 4096.
  %e4 = tensor.empty() : tensor<4xf32>
  %z4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<4xf32>) -> tensor<4xf32>
  %init = tensor.insert %big into %z4[%c3] : tensor<4xf32>
  %s = call @rowSum(%x1, %init) : (tensor<4x4096xf32>, tensor<4xf32>) -> tensor<4xf32>
  %sd = tensor.cast %s : tensor<4xf32> to tensor<?xf32>
  // CHECK: [1266681848, 1266681848, 1166016512, 1266681856]
  call @print(%sd) : (tensor<?xf32>) -> ()
  // Partial: row 0 of ones gives 1000; row 1 holds 2^24 at element 992,
  // first of chunk 62 (lane 30's second, a partial chunk of 8) whose 7
  // ones vanish beside it; lane 30 adds 16 and 2^24, the other lanes'
  // even sums add exactly: 2^24 + 999 - 7 = 16778208.
  %e2 = tensor.empty() : tensor<2x1000xf32>
  %p = linalg.fill ins(%one : f32) outs(%e2 : tensor<2x1000xf32>) -> tensor<2x1000xf32>
  %c992 = arith.constant 992 : index
  %p1 = tensor.insert %big into %p[%c1, %c992] : tensor<2x1000xf32>
  %e2v = tensor.empty() : tensor<2xf32>
  %z2 = linalg.fill ins(%zero : f32) outs(%e2v : tensor<2xf32>) -> tensor<2xf32>
  %ps = call @rowSumPartial(%p1, %z2) : (tensor<2x1000xf32>, tensor<2xf32>) -> tensor<2xf32>
  %psd = tensor.cast %ps : tensor<2xf32> to tensor<?xf32>
  // CHECK: [1148846080, 1266680304]
  call @print(%psd) : (tensor<?xf32>) -> ()
  return
}
