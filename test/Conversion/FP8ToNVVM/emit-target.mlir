// The chip is said once: fp8-pipeline (through fp8-legalize) records it in
// the module as fp8.target, and kernel generation and emission build for
// it. A different chip named later is an error that names both chips.
// RUN: fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_100a' | FileCheck %s --check-prefix=RECORDED
// RUN: fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=blockwise | FileCheck %s --check-prefix=RECORDED90
// RECORDED: module attributes {{{.*}}fp8.target = "sm_100a"
// RECORDED90: module attributes {{{.*}}fp8.target = "sm_90a"

// fp8-emit without chip= builds the kernels for the recorded chip, and for
// sm_100a says once, in a remark, that they have not run on hardware.
// RUN: rm -rf %t.100 && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_100a' --fp8-emit=dir=%t.100 -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
// RUN: FileCheck %s --check-prefix=MANIFEST100 < %t.100/manifest.json
// RUN: FileCheck %s --check-prefix=PTX100 < %t.100/linear_fwd_bwd_gemm_2.ptx
// REMARK: {{.*}}.mlir:{{[0-9]+}}:{{[0-9]+}}: remark: fp8-emit: sm_100a kernels are checked with ptxas only: this project has not run them on a Blackwell GPU
// MANIFEST100: "chip": "sm_100a"
// PTX100: .target sm_100a

// Naming the recorded chip again is allowed and changes nothing.
// RUN: rm -rf %t.same && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_100a' --fp8-emit="dir=%t.same chip=sm_100a" -o /dev/null
// RUN: diff -r %t.100 %t.same

// sm_90a, recorded by default: no remark.
// RUN: rm -rf %t.90 && fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=blockwise --fp8-emit=dir=%t.90 -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: FileCheck %s --check-prefix=MANIFEST90 < %t.90/manifest.json
// QUIET-NOT: remark
// MANIFEST90: "chip": "sm_90a"

// Either mismatch is an error that names both chips and the fix, and
// writes nothing.
// RUN: rm -rf %t.bad
// RUN: not fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_100a' --fp8-emit="dir=%t.bad chip=sm_90a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TO90
// RUN: not fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a' --fp8-emit="dir=%t.bad chip=sm_100a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=TO100
// RUN: test ! -e %t.bad
// TO90: linear_fwd_bwd.mlir:{{[0-9]+}}:{{[0-9]+}}: error: fp8-emit: chip=sm_90a but the module was legalized for sm_100a (fp8.target = "sm_100a", set by fp8-pipeline or fp8-legalize): drop chip= to build for sm_100a, or run fp8-pipeline with chip=sm_90a
// TO100: linear_fwd_bwd.mlir:{{[0-9]+}}:{{[0-9]+}}: error: fp8-emit: chip=sm_100a but the module was legalized for sm_90a (fp8.target = "sm_90a", set by fp8-pipeline or fp8-legalize): drop chip= to build for sm_90a, or run fp8-pipeline with chip=sm_100a

// convert-fp8-to-nvvm (and so fp8-to-ptx) reads the chip the same way.
// RUN: fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_100a' --convert-fp8-to-nvvm | FileCheck %s --check-prefix=NVVM
// RUN: not fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=mxfp8 chip=sm_100a' --convert-fp8-to-nvvm=chip=sm_90a 2>&1 | FileCheck %s --check-prefix=NVVMBAD
// NVVM: #nvvm.target<{{.*}}chip = "sm_100a"
// NVVMBAD: error: convert-fp8-to-nvvm: chip=sm_90a but the module was legalized for sm_100a

// A module holds one chip's layouts: legalizing it again for the same chip
// changes nothing, for another chip is an error.
// RUN: fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=blockwise > %t.once
// RUN: fp8-opt %t.once --fp8-legalize=chip=sm_90a | diff %t.once -
// RUN: not fp8-opt %t.once --fp8-legalize=chip=sm_100a 2>&1 | FileCheck %s --check-prefix=LEGALIZE
// LEGALIZE: error: fp8-legalize: chip=sm_100a but the module is already legalized for sm_90a (fp8.target = "sm_90a"): a module holds one chip's layouts; legalize the original graph for sm_100a instead

// A module with no recorded chip: chip= decides, else sm_90a, and sm_100a
// gets its remark.
// RUN: rm -rf %t.plain && fp8-opt %S/quantize-ptx.mlir "--fp8-emit=dir=%t.plain chip=sm_100a" -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK --implicit-check-not=remark
// RUN: rm -rf %t.plain90 && fp8-opt %S/quantize-ptx.mlir --fp8-emit=dir=%t.plain90 -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST90 < %t.plain90/manifest.json
