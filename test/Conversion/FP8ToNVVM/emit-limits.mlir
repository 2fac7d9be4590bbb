// Inputs that every fp8 pass takes (the CPU reference can run them) but that
// no GPU kernel can: fp8-emit stops at the op with a diagnostic and writes
// nothing.
// RUN: rm -rf %t && split-file %s %t

// M = 0, a batch of no rows: kernels would launch an empty grid.
// RUN: fp8-opt %t/empty.mlir --fp8-pipeline=recipe=blockwise -o /dev/null
// RUN: not fp8-opt %t/empty.mlir --fp8-pipeline=recipe=blockwise --fp8-emit=dir=%t/empty-out 2>&1 | FileCheck %s --check-prefix=EMPTY
// RUN: test ! -e %t/empty-out
// EMPTY: empty.mlir:3:8: error: 'fp8.quantize' op convert-fp8-to-nvvm: the kernel would launch an empty grid: an operand has no elements ('tensor<0x256xbf16>')

// A dynamic batch: kernels and their manifests need static shapes.
// RUN: fp8-opt %t/dynamic.mlir --fp8-pipeline=recipe=blockwise -o /dev/null
// RUN: not fp8-opt %t/dynamic.mlir --fp8-pipeline=recipe=blockwise --fp8-emit=dir=%t/dynamic-out 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: test ! -e %t/dynamic-out
// DYNAMIC: dynamic.mlir:3:8: error: 'fp8.quantize' op convert-fp8-to-nvvm needs a static rank-2 input, got 'tensor<?x256xbf16>'

//--- empty.mlir
func.func @fprop(%x: tensor<0x256xbf16> {fp8.role = "activation"}, %w: tensor<128x256xbf16> {fp8.role = "weight"},
                 %c: tensor<0x128xf32>) -> tensor<0x128xf32> {
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%x, %w : tensor<0x256xbf16>, tensor<128x256xbf16>) outs(%c : tensor<0x128xf32>) -> tensor<0x128xf32>
  return %y : tensor<0x128xf32>
}

//--- dynamic.mlir
func.func @fprop(%x: tensor<?x256xbf16> {fp8.role = "activation"}, %w: tensor<128x256xbf16> {fp8.role = "weight"},
                 %c: tensor<?x128xf32>) -> tensor<?x128xf32> {
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
       ins(%x, %w : tensor<?x256xbf16>, tensor<128x256xbf16>) outs(%c : tensor<?x128xf32>) -> tensor<?x128xf32>
  return %y : tensor<?x128xf32>
}
