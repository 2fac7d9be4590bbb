// Without a size from the option or the recipe, and with a size that is not
// a power of two, the pass stops with a diagnostic.
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard 2>&1 | FileCheck %s --check-prefix=NOSIZE
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard=size=48 2>&1 | FileCheck %s --check-prefix=POW2
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard=matmuls=forward 2>&1 | FileCheck %s --check-prefix=KIND
// With if-recipe (as fp8-pipeline runs it), a recipe without a size rotates
// nothing and is no error.
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-insert-hadamard=if-recipe=true | FileCheck %s --check-prefix=IFRECIPE
// RUN: fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<blockwise, hadamard = 64>"' --fp8-insert-hadamard=if-recipe=true | FileCheck %s --check-prefix=IFRECIPE64
// NOSIZE: error: 'fp8.scaled_matmul' op fp8-insert-hadamard needs a size: set the pass option or the recipe's hadamard field
// POW2: error: 'fp8.scaled_matmul' op Hadamard size 48 is not a power of two
// KIND: error: fp8-insert-hadamard: unknown matmul 'forward', expected fprop, dgrad or wgrad
// IFRECIPE-LABEL: func.func @fprop
// IFRECIPE-NOT: fp8.hadamard
// IFRECIPE: fp8.scaled_matmul
// IFRECIPE64-LABEL: func.func @fprop
// IFRECIPE64-COUNT-2: fp8.hadamard {{.*}}size = 64 : i64
func.func @fprop(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                 %w: tensor<32x256xbf16> {fp8.role = "weight"},
                 %c: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<64x256xbf16>, tensor<32x256xbf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %y : tensor<64x32xf32>
}
