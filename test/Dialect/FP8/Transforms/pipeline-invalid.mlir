// fp8-pipeline checks its options when it runs: an unknown recipe or chip
// is an error at the module and fp8-opt fails.
// RUN: not fp8-opt %s --fp8-pipeline='recipe=bogus chip=sm_90a' 2>&1 | FileCheck %s --check-prefix=RECIPE
// RUN: not fp8-opt %s --fp8-pipeline='recipe="#fp8.recipe<blockwise, hadamrd = 128>"' 2>&1 | FileCheck %s --check-prefix=ATTR
// RUN: not fp8-opt %s --fp8-pipeline='recipe=blockwise chip=sm_89' 2>&1 | FileCheck %s --check-prefix=CHIP
// RUN: not fp8-opt %s --pass-pipeline='builtin.module(fp8-pipeline{recipe=blockwise chip=sm_91})' 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not fp8-opt %s --fp8-pipeline='recipe=blockwise arch=sm_90a' 2>&1 | FileCheck %s --check-prefix=OPTION
// RECIPE: pipeline-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: unknown recipe 'bogus', expected one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp or a #fp8.recipe<...> attribute
// ATTR: error: unknown #fp8.recipe parameter 'hadamrd'
// ATTR: pipeline-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: cannot parse recipe '#fp8.recipe<blockwise, hadamrd = 128>'
// CHIP: pipeline-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: fp8-legalize: chip 'sm_89' is not supported
// UNKNOWN: pipeline-invalid.mlir:{{[0-9]+}}:{{[0-9]+}}: error: fp8-legalize: unknown chip 'sm_91': expected one of sm_90a, sm_100a
// OPTION: error: fp8-pipeline: unknown option 'arch', expected one of chip, explain, fuse-producers, monitor, recipe

// A misspelt recipe or option gets the closest name; the recipe error
// points at the matmul, not at the first linalg op of the file (a fill).
// RUN: not fp8-opt %s --fp8-pipeline='recipe=blockwsie chip=sm_90a' 2>&1 | FileCheck %s --check-prefix=TYPO
// RUN: not fp8-opt %s --fp8-pipeline='recpie=blockwise' 2>&1 | FileCheck %s --check-prefix=OPTTYPO
// RUN: not fp8-opt %s --fp8-pipeline='recipe="#fp8.recipe<blockwsie, hadamard = 128>"' 2>&1 | FileCheck %s --check-prefix=ATTRTYPO
// TYPO: pipeline-invalid.mlir:53:10: error: unknown recipe 'blockwsie' (did you mean 'blockwise'?), expected one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp or a #fp8.recipe<...> attribute
// OPTTYPO: error: fp8-pipeline: unknown option 'recpie' (did you mean 'recipe'?), expected one of chip, explain, fuse-producers, monitor, recipe
// ATTRTYPO: error: unknown recipe 'blockwsie' (did you mean 'blockwise'?), expected one of tensorwise,
// ATTRTYPO: error: cannot parse recipe

// A preset with changed fields, written as options, is the attribute form.
// RUN: not fp8-opt %s '--fp8-pipeline=recipe=mxfp8, hadamard = 32' 2>&1 | FileCheck %s --check-prefix=FIELDS
// RUN: not fp8-opt %s '--fp8-pipeline=recipe=mxfp8,hadamard=32 chip=sm_90a' 2>&1 | FileCheck %s --check-prefix=FIELDS-NOSPACE
// FIELDS: error: fp8-pipeline: recipe=mxfp8, hadamard = 32 is a preset with changed fields, which only a #fp8.recipe attribute holds: write recipe="#fp8.recipe<mxfp8, hadamard = 32>" (on a shell command line, quote the whole option too: '--fp8-pipeline=recipe="#fp8.recipe<mxfp8, hadamard = 32>"')
// FIELDS-NOT: no such option
// FIELDS-NOSPACE: error: fp8-pipeline: recipe=mxfp8,hadamard=32 is a preset with changed fields, which only a #fp8.recipe attribute holds: write recipe="#fp8.recipe<mxfp8,hadamard=32>"

// No recipe is tensorwise, and the pipeline says so.
// RUN: fp8-opt %s --fp8-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=DEFAULT
// RUN: fp8-opt %s --fp8-pipeline=recipe=tensorwise -o /dev/null 2>&1 | FileCheck %s --check-prefix=GIVEN --allow-empty
// DEFAULT: pipeline-invalid.mlir:53:10: warning: no recipe given: quantizing with tensorwise; choose one with recipe=NAME (fp8-pipeline or fp8-quantize-matmuls), one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp or a #fp8.recipe<...> attribute
// GIVEN-NOT: warning

// The pipeline runs module passes: nested in a func.func it is an error,
// not an abort of the process (upstream's pass manager aborts there), and
// so are the other pipelines.
// RUN: not fp8-opt %s '--pass-pipeline=builtin.module(func.func(fp8-pipeline{recipe=blockwise}))' 2>&1 | FileCheck %s --check-prefix=NESTED
// RUN: not fp8-opt %s '--pass-pipeline=builtin.module(func.func(fp8-to-ptx))' 2>&1 | FileCheck %s --check-prefix=NESTED-PTX
// RUN: not fp8-opt %s '--pass-pipeline=builtin.module(func.func(fp8-reference-pipeline))' 2>&1 | FileCheck %s --check-prefix=NESTED-REF
// NESTED: error: fp8-pipeline runs module passes and cannot be nested in 'func.func': put it directly in builtin.module(...), e.g. --pass-pipeline='builtin.module(fp8-pipeline{recipe=blockwise})'
// NESTED-NOT: LLVM ERROR
// NESTED-PTX: error: fp8-to-ptx runs module passes and cannot be nested in 'func.func': put it directly in builtin.module(...), e.g. --pass-pipeline='builtin.module(fp8-to-ptx)'
// NESTED-REF: error: fp8-reference-pipeline runs module passes and cannot be nested in 'func.func'
module {
  func.func @fprop(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                   %w: tensor<32x256xbf16> {fp8.role = "weight"},
                   %c: tensor<64x32xf32>, %f: f32) -> (tensor<64x32xf32>, tensor<64x32xf32>) {
    %z = linalg.fill ins(%f : f32) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
    %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
           ins(%x, %w : tensor<64x256xbf16>, tensor<32x256xbf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
    return %y, %z : tensor<64x32xf32>, tensor<64x32xf32>
  }
}
