// A recipe attribute with spaces, unquoted, is cut at the first space by the
// option parser, which then calls the next word an unknown option: the
// error says how to quote it, for the pass, the pipeline and --pass-pipeline.
// RUN: not fp8-opt %s '--fp8-quantize-matmuls=recipe=#fp8.recipe<mxfp8, hadamard = 32>' 2>&1 | FileCheck %s --check-prefix=UNQUOTED
// RUN: not fp8-opt %s '--pass-pipeline=builtin.module(fp8-quantize-matmuls{recipe=#fp8.recipe<mxfp8, hadamard = 32>})' 2>&1 | FileCheck %s --check-prefix=UNQUOTED
// RUN: not fp8-opt %s '--fp8-pipeline=recipe=#fp8.recipe<mxfp8, hadamard = 32> chip=sm_90a' 2>&1 | FileCheck %s --check-prefix=PIPELINE
// UNQUOTED: error: fp8-quantize-matmuls: recipe=#fp8.recipe<mxfp8, hadamard = 32> needs quotes: a space ends an unquoted option value; write recipe="#fp8.recipe<mxfp8, hadamard = 32>" (on a shell command line, quote the whole option too: '--fp8-quantize-matmuls=recipe="#fp8.recipe<mxfp8, hadamard = 32>"')
// UNQUOTED-NOT: no such option
// PIPELINE: error: fp8-pipeline: recipe=#fp8.recipe<mxfp8, hadamard = 32> needs quotes: a space ends an unquoted option value; write recipe="#fp8.recipe<mxfp8, hadamard = 32>" (on a shell command line, quote the whole option too: '--fp8-pipeline=recipe="#fp8.recipe<mxfp8, hadamard = 32>"')

// Quoted, or without spaces, the attribute is taken as written.
// RUN: fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<mxfp8, hadamard = 32>"' | FileCheck %s --check-prefix=QUOTED
// RUN: fp8-opt %s '--pass-pipeline=builtin.module(fp8-quantize-matmuls{recipe="#fp8.recipe<mxfp8, hadamard = 32>"})' | FileCheck %s --check-prefix=QUOTED
// RUN: fp8-opt %s '--fp8-quantize-matmuls=recipe=#fp8.recipe<mxfp8>' | FileCheck %s --check-prefix=QUOTED
// QUOTED: fp8.scaled_matmul {{.*}}scale = f8E8M0FNU

// A misspelt option of an fp8 pass is named, with the closest option and
// the list (the option parser's own error has neither), in either spelling.
// RUN: not fp8-opt %s '--fp8-emit=dir=%t chp=sm_90a' 2>&1 | FileCheck %s --check-prefix=EMITOPT
// RUN: not fp8-opt %s '--pass-pipeline=builtin.module(fp8-emit{dir=%t chp=sm_90a})' 2>&1 | FileCheck %s --check-prefix=EMITOPT
// RUN: not fp8-opt %s --fp8-legalize=chips=sm_90a 2>&1 | FileCheck %s --check-prefix=LEGALIZEOPT
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipes=blockwise 2>&1 | FileCheck %s --check-prefix=QUANTOPT
// RUN: not fp8-opt %s --fp8-quantize-matmuls=size=32 2>&1 | FileCheck %s --check-prefix=FAROPT
// EMITOPT: error: fp8-emit: unknown option 'chp' (did you mean 'chip'?), expected one of chip, dir, line-info
// LEGALIZEOPT: error: fp8-legalize: unknown option 'chips' (did you mean 'chip'?), expected one of chip
// QUANTOPT: error: fp8-quantize-matmuls: unknown option 'recipes' (did you mean 'recipe'?), expected one of recipe
// FAROPT: error: fp8-quantize-matmuls: unknown option 'size', expected one of recipe

// A recipe name close to a preset's gets it suggested, through either pass
// that takes one.
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=rowise 2>&1 | FileCheck %s --check-prefix=NEAR
// RUN: not fp8-opt %s --fp8-convert-scaling=to=mxfp 2>&1 | FileCheck %s --check-prefix=NEARTO
// RUN: not fp8-opt %s --fp8-convert-scaling=to=mxfp8,hadamard=32 2>&1 | FileCheck %s --check-prefix=FIELDSTO
// FIELDSTO: pass-options.mlir:63:12: error: unknown target recipe 'mxfp8,hadamard=32': a preset with changed fields is a #fp8.recipe attribute, write "#fp8.recipe<mxfp8,hadamard=32>"
// NEAR: pass-options.mlir:65:8: error: unknown recipe 'rowise' (did you mean 'rowwise'?), expected one of tensorwise,
// NEARTO: pass-options.mlir:63:12: error: unknown target recipe 'mxfp' (did you mean 'mxfp8'?), expected one of tensorwise,

// An option error points at the first op the option is for, not at the
// file's line 0: a recipe at the first matmul, a chip at the first fp8 op
// (fp8-legalize) or the first op that gets a kernel (kernel generation).
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=deepseek 2>&1 | FileCheck %s --check-prefix=RECIPE
// RUN: not fp8-opt %s --fp8-legalize=chip=sm_89 2>&1 | FileCheck %s --check-prefix=LEGALIZE
// RUN: not fp8-opt %s --convert-fp8-to-nvvm=chip=sm_120a 2>&1 | FileCheck %s --check-prefix=NVVM
// RUN: not fp8-opt %s "--fp8-emit=dir=%t chip=sm_" 2>&1 | FileCheck %s --check-prefix=EMIT
// RUN: not fp8-opt %s --fp8-emit 2>&1 | FileCheck %s --check-prefix=EMITDIR
// RUN: not fp8-opt %s --fp8-insert-hadamard=matmuls=forward 2>&1 | FileCheck %s --check-prefix=HADAMARD
// RUN: not fp8-opt %s --fp8-convert-scaling=to=deepseek 2>&1 | FileCheck %s --check-prefix=CONVERT
// A module without such an op: the first op in the file.
// RUN: not fp8-opt %S/../attributes.mlir --fp8-legalize=chip=sm_89 2>&1 | FileCheck %s --check-prefix=NOOP
// RECIPE: pass-options.mlir:65:8: error: unknown recipe 'deepseek', expected one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp or a #fp8.recipe<...> attribute
// LEGALIZE: pass-options.mlir:63:12: error: fp8-legalize: chip 'sm_89' is not supported (Ada (sm_89) has FP8 mma.sync and cvt but no TMA, mbarrier transactions, wgmma or tcgen05, which every kernel here is built on): expected one of sm_90a, sm_100a
// NVVM: pass-options.mlir:63:12: error: convert-fp8-to-nvvm: chip 'sm_120a' is not supported (consumer Blackwell has no tcgen05
// EMIT: pass-options.mlir:63:12: error: fp8-emit: unknown chip 'sm_': expected one of sm_90a, sm_100a
// EMITDIR: pass-options.mlir:63:12: error: fp8-emit needs a directory: --fp8-emit="dir=DIR chip=CHIP"
// HADAMARD: pass-options.mlir:63:12: error: fp8-insert-hadamard: unknown matmul 'forward', expected fprop, dgrad or wgrad
// CONVERT: pass-options.mlir:63:12: error: unknown target recipe 'deepseek', expected one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp or a #fp8.recipe<...> attribute
// NOOP: attributes.mlir:{{[1-9][0-9]*}}:{{[0-9]+}}: error: fp8-legalize: chip 'sm_89' is not supported

func.func @fprop(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                 %w: tensor<32x256xbf16> {fp8.role = "weight"},
                 %c: tensor<64x32xf32>, %y: tensor<64x256xbf16>)
    -> (tensor<64x32xf32>, tensor<64x256xf8E4M3FN>, tensor<64x2xf32>) {
  %q, %s = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<64x256xbf16>, tensor<32x256xbf16>) outs(%c : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %r, %q, %s : tensor<64x32xf32>, tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
}

// fp8-reference-pipeline has no options: one given is an error that says
// so (upstream's option-less pipeline registration exits 1 in silence).
// RUN: not fp8-opt %s '--fp8-reference-pipeline=recipe=blockwise' 2>&1 | FileCheck %s --check-prefix=REFOPTS
// RUN: not fp8-opt %s '--pass-pipeline=builtin.module(fp8-reference-pipeline{recipe=blockwise})' 2>&1 | FileCheck %s --check-prefix=REFOPTS
// REFOPTS: error: fp8-reference-pipeline takes no options, got 'recipe=blockwise' (the recipe is fp8-quantize-matmuls' option)
