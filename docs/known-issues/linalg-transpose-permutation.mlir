// Upstream MLIR 22.1.8 (Debian's libmlir-22): linalg.transpose's custom
// parser keeps going after a malformed `permutation` list and stores a null
// attribute, then segfaults in NamedAttrList::set (mlir-opt and fp8-opt
// alike). Reproduce with:
//   /usr/lib/llvm-22/bin/mlir-opt docs/known-issues/linalg-transpose-permutation.mlir
// It prints "error: expected ']'" and then crashes (SIGSEGV). See
// docs/KnownIssues.md.
func.func @f(%x: tensor<4x8xf32>, %init: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %t = linalg.transpose ins(%x : tensor<4x8xf32>) outs(%init : tensor<8x4xf32>) permutation = [1 0]
  return %t : tensor<8x4xf32>
}
