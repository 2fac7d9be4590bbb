// The transposed matmul ops that upstream linalg no longer has are parse
// errors with a note that shows the linalg.matmul indexing maps that
// replace them (graphs written for older MLIR still use them).
// RUN: not fp8-opt %s 2>&1 | FileCheck %s --check-prefix=TB
// RUN: sed 's/matmul_transpose_b/matmul_transpose_a/' %s | not fp8-opt 2>&1 | FileCheck %s --check-prefix=TA
// RUN: sed 's/linalg.matmul_transpose_b/linalg.batch_matmul_transpose_b/' %s | not fp8-opt 2>&1 | FileCheck %s --check-prefix=BTB
// TB: removed-linalg-ops.mlir:15:8: error: custom op 'linalg.matmul_transpose_b' is unknown
// TB: removed-linalg-ops.mlir:15:8: note: linalg.matmul_transpose_b is no longer in upstream linalg: write linalg.matmul with indexing maps, indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
// TA: error: custom op 'linalg.matmul_transpose_a' is unknown
// TA: note: linalg.matmul_transpose_a is no longer in upstream linalg: write linalg.matmul with indexing maps, indexing_maps = [affine_map<(m, n, k) -> (k, m)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>]
// BTB: error: custom op 'linalg.batch_matmul_transpose_b' is unknown
// BTB: note: linalg.batch_matmul_transpose_b is no longer in upstream linalg: write linalg.batch_matmul with indexing maps, indexing_maps = [affine_map<(b, m, n, k) -> (b, m, k)>, affine_map<(b, m, n, k) -> (b, n, k)>, affine_map<(b, m, n, k) -> (b, m, n)>]

func.func @f(%a: tensor<64x128xbf16>, %b: tensor<32x128xbf16>, %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %r = linalg.matmul_transpose_b ins(%a, %b : tensor<64x128xbf16>, tensor<32x128xbf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r : tensor<64x32xf32>
}
