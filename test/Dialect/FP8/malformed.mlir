// Malformed input and verifier failures end fp8-opt with a located error and
// a non-zero exit status, never a crash.
// RUN: split-file %s %t
// RUN: not fp8-opt %t/truncated.mlir 2>&1 | FileCheck %s --check-prefix=TRUNCATED
// RUN: not fp8-opt %t/bad_tile.mlir 2>&1 | FileCheck %s --check-prefix=TILE
// RUN: not fp8-opt %t/verifier.mlir 2>&1 | FileCheck %s --check-prefix=VERIFY
// RUN: not fp8-opt %t/missing_type.mlir 2>&1 | FileCheck %s --check-prefix=TYPE

//--- truncated.mlir
// TRUNCATED: truncated.mlir:3:{{[0-9]+}}: error:
func.func @f(%x: tensor<4x64xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32

//--- bad_tile.mlir
// TILE: bad_tile.mlir:3:{{[0-9]+}}: error: expected integer value
func.func @f(%x: tensor<4x64xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, x], scale = f32>}
      : tensor<4x64xf32> -> tensor<4x64xf8E4M3FN>, tensor<4x2xf32>
  return
}

//--- verifier.mlir
// VERIFY: verifier.mlir:4:{{[0-9]+}}: error: 'fp8.scaled_matmul' op a_scaling tile [128, 1] varies along contracted dim 1
func.func @f(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<2x512xf32>,
             %b: tensor<64x512xf8E4M3FN>, %sb: tensor<64x4xf32>) -> tensor<256x64xf32> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<2x512xf32>, tensor<64x512xf8E4M3FN>, tensor<64x4xf32>) -> tensor<256x64xf32>
  return %c : tensor<256x64xf32>
}

//--- missing_type.mlir
// TYPE: missing_type.mlir:3:{{[0-9]+}}: error:
func.func @f(%x: tensor<4x64xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>} : tensor<4x64xf32>
  return
}
