// Upstream MLIR 22.1.8 (Debian's libmlir-22): a dense array attribute of
// `index` elements crashes the attribute parser (it asks an index type for
// its bit width). Reproduce with:
//   /usr/lib/llvm-22/bin/mlir-opt docs/known-issues/dense-array-index.mlir
// It crashes (SIGSEGV in mlir::FloatType::getWidth) without a diagnostic.
// See docs/KnownIssues.md.
func.func @f() attributes {a = array<index: 1, 1>} {
  return
}
