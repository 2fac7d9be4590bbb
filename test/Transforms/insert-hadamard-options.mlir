// Without a size from the option or the recipe, and with a size that is not
// a power of two, the pass stops with a diagnostic.
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard 2>&1 | FileCheck %s --check-prefix=NOSIZE
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard=size=48 2>&1 | FileCheck %s --check-prefix=POW2
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard=matmuls=forward 2>&1 | FileCheck %s --check-prefix=KIND
// NOSIZE: error: 'fp8.scaled_matmul' op fp8-insert-hadamard needs a size: set the pass option or the recipe's hadamard field
// POW2: error: 'fp8.scaled_matmul' op Hadamard size 48 is not a power of two
// KIND: error: unknown matmul 'forward', expected fprop, dgrad or wgrad
func.func @fprop(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                 %w: tensor<32x256xbf16> {fp8.role = "weight"},
                 %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<64x256xbf16>, tensor<32x256xbf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}
