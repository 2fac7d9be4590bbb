// fp8-print-layouts after fp8-pipeline, where fusion has changed the ops:
// a plain quantization that stores its scales in sm_100a's tcgen05 layout
// (an fp8.quantize_elementwise of its input) is named by its input and
// counted as a scale re-layout, not as a producer, and the counts are the
// same on both chips for the same graph (they were 8/8 against 12/4).
// RUN: fp8-opt %S/../../../../examples/mlp_block.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_100a' --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=SM100
// RUN: fp8-opt %S/../../../../examples/mlp_block.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_90a' --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=SM90
// SM100: 0  fprop  a  activation  arg0 {{.*}} fresh
// SM100-NEXT: 0  fprop  b  weight      arg1 {{.*}} fresh
// SM100: 2  dgrad  b  weight      arg2 {{.*}} requantized
// SM100: 12 quantizations (6 fresh, 6 requantized), 0 reused, 0 transposed
// SM100-NEXT: fused: 2 elementwise producers (fp8.quantize_elementwise, 0 with the cast-transpose)
// SM100-NEXT: fused: 4 scale re-layouts into their quantizations (fp8.quantize_elementwise of the input)
// SM90: 12 quantizations (6 fresh, 6 requantized), 0 reused, 0 transposed
// SM90-NEXT: fused: 2 elementwise producers (fp8.quantize_elementwise, 0 with the cast-transpose)
// SM90-NOT: scale re-layouts

// The SVG directory is created where it does not exist.
// RUN: rm -rf %t && fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=blockwise --fp8-print-layouts=svg-dir=%t/a/b -o /dev/null > /dev/null
// RUN: test -f %t/a/b/linear_fwd_bwd.svg
// A path through a file is an error at the function, with the reason.
// RUN: not fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=blockwise --fp8-print-layouts=svg-dir=%t/a/b/linear_fwd_bwd.svg/c -o /dev/null 2>&1 | FileCheck %s --check-prefix=NODIR
// NODIR: error: cannot create {{.*}}linear_fwd_bwd.svg/c: Not a directory
