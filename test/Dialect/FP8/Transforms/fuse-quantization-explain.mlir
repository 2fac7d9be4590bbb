// RUN: fp8-opt %s -split-input-file --fp8-pipeline='recipe=blockwise chip=sm_90a explain=true' -o /dev/null 2>&1 | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-pipeline='recipe=tensorwise chip=sm_90a explain=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=TW
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization=explain=true -o /dev/null 2>&1 | FileCheck %s --check-prefix=FQ
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization='explain=true producers=false' -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: fp8-opt %s -split-input-file --fp8-pipeline='recipe=blockwise chip=sm_90a' -o /dev/null 2>&1 | FileCheck %s --check-prefix=QUIET --allow-empty
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=delayed chip=sm_90a explain=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=DELAYED
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline='recipe=blockwise chip=sm_90a monitor=true explain=true' -o /dev/null 2>&1 | FileCheck %s --check-prefix=MON

// explain=true: a remark at every quantization, FP8 transpose, and
// elementwise op or row sum left on its own after fp8-fuse-quantization,
// saying what fused or the rule that kept it apart. Without it, nothing.
// QUIET-NOT: remark

// Delayed scaling: each quantization fuses with its amax and history, and
// its transpose stays a kernel of its own (the exact cast-transposes take
// no given amax).
// DELAYED: remark: fp8-fuse-quantization: [activation 256x512xbf16, argument #0] fused with the data's amax and its history (delayed scaling)
// DELAYED: remark: fp8-fuse-quantization: this fp8.transpose stays a kernel that re-reads the FP8 data: its quantization has a given amax (delayed scaling), which the exact cast-transposes do not take
// Monitored quantizations are left unfused, and say so; so do transposes
// of them.
// MON: remark: fp8-fuse-quantization: [activation 256x512xbf16, argument #0] monitored (monitor=true): fp8-fuse-quantization leaves monitored quantizations unfused
// MON: remark: fp8-fuse-quantization: this fp8.transpose stays a kernel that re-reads the FP8 data: its quantization is monitored (monitor=true), and monitored quantizations are left unfused

// A norm before a linear layer, and a residual add after it. Blockwise: the
// norm (its elementwise part and its row sum) and the TMA re-layout of the
// scales fuse into X's quantization; W has nothing to fuse; the residual
// add reads no quantization's input, so it stays a kernel.
// CHECK: remark: fp8-fuse-quantization: [activation 256x512xbf16, argument #0, + 1 more] fused its elementwise producers (one body), 1 row sum (a norm), the re-layout of its scales (col_major_tma)
// CHECK: remark: fp8-fuse-quantization: [weight 1024x512xbf16, argument #2] nothing to fuse: it quantizes a function argument
// CHECK: remark: fp8-fuse-quantization: this elementwise op stays a kernel of its own: no quantization reads its result (read by func.return)
// Tensorwise: one scale for the tensor, so the warp-per-row norm kernel
// does not run it: the elementwise part fuses, the row sum stays, and says
// why.
// TW: remark: fp8-fuse-quantization: this row sum stays a kernel of its own: the norm kernel (a warp per row) quantizes tiles of one row; the quantization that reads this norm has tiles [*, *] (one scale for the tensor)
// TW: remark: fp8-fuse-quantization: [activation 256x512xbf16, argument #0, + 2 more] fused its elementwise producers (one body)
// TW: remark: fp8-fuse-quantization: [weight 1024x512xbf16, argument #2] nothing to fuse: it quantizes a function argument
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
func.func @norm_linear(%x: tensor<256x512xbf16> {fp8.role = "activation"}, %g: tensor<512xbf16>, %w: tensor<1024x512xbf16> {fp8.role = "weight"}, %r0: tensor<256x1024xbf16>) -> tensor<256x1024xbf16> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x512xbf16>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x512xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gg: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %gg : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<256x512xbf16>
  %c0 = arith.constant 0.0 : bf16
  %eo = tensor.empty() : tensor<256x1024xbf16>
  %o = linalg.fill ins(%c0 : bf16) outs(%eo : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %out = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%y, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>) outs(%o : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %er = tensor.empty() : tensor<256x1024xbf16>
  %res = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%out, %r0 : tensor<256x1024xbf16>, tensor<256x1024xbf16>) outs(%er : tensor<256x1024xbf16>) {
  ^bb0(%p: bf16, %q: bf16, %oo: bf16):
    %s = arith.addf %p, %q : bf16
    linalg.yield %s : bf16
  } -> tensor<256x1024xbf16>
  return %res : tensor<256x1024xbf16>
}

// -----

// The norm's sums are also returned (as a backward that saves them would
// read them): the quantization cannot take them over, so the row sum stays
// a kernel and the quantization fuses the elementwise part only.
// CHECK: remark: fp8-fuse-quantization: this row sum stays a kernel of its own: its sums (or what is computed from them) are also read by 'func.return' (the backward saves them?), so the quantization cannot take them over
// CHECK: remark: fp8-fuse-quantization: [activation 256x512xbf16, argument #0, + 2 more] fused its elementwise producers (one body), the re-layout of its scales (col_major_tma)
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
func.func @norm_sums_saved(%x: tensor<256x512xbf16> {fp8.role = "activation"}, %g: tensor<512xbf16>, %w: tensor<1024x512xbf16> {fp8.role = "weight"}, %r0: tensor<256x1024xbf16>) -> (tensor<256x1024xbf16>, tensor<256xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<256xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<256xf32>) -> tensor<256xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<256x512xbf16>) outs(%init : tensor<256xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<256xf32>
  %ey = tensor.empty() : tensor<256x512xbf16>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %g : tensor<256x512xbf16>, tensor<256xf32>, tensor<512xbf16>) outs(%ey : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %s: f32, %gg: bf16, %o: bf16):
    %n = arith.constant 512.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %gg : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<256x512xbf16>
  %c0 = arith.constant 0.0 : bf16
  %eo = tensor.empty() : tensor<256x1024xbf16>
  %o = linalg.fill ins(%c0 : bf16) outs(%eo : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %out = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%y, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>) outs(%o : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %er = tensor.empty() : tensor<256x1024xbf16>
  %res = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%out, %r0 : tensor<256x1024xbf16>, tensor<256x1024xbf16>) outs(%er : tensor<256x1024xbf16>) {
  ^bb0(%p: bf16, %q: bf16, %oo: bf16):
    %s = arith.addf %p, %q : bf16
    linalg.yield %s : bf16
  } -> tensor<256x1024xbf16>
  return %res, %ss : tensor<256x1024xbf16>, tensor<256xf32>
}

// -----

// SwiGLU's silu(a) * b before the down projection. Tensorwise: one scale
// for the whole tensor needs the amax before quantizing, so a fused kernel
// would compute exp twice; the producer stays apart, and says so.
// TW: remark: fp8-fuse-quantization: [activation 128x512xbf16, from 'linalg.generic'] did not fuse its producer: its scale is one for the whole tensor, so a fused kernel would compute the producer's polynomial math (exp, erf, tanh, log) twice: once for the amax, once to quantize
// Blockwise (1x128): it fuses.
// CHECK: remark: fp8-fuse-quantization: [activation 128x512xbf16, argument #0, + 1 more] fused its elementwise producers (one body), the re-layout of its scales (col_major_tma)
#id2 = affine_map<(i, j) -> (i, j)>
func.func @swiglu(%a: tensor<128x512xbf16> {fp8.role = "activation"}, %b: tensor<128x512xbf16> {fp8.role = "activation"}, %w: tensor<256x512xbf16> {fp8.role = "weight"}) -> tensor<128x256xbf16> {
  %e = tensor.empty() : tensor<128x512xbf16>
  %h = linalg.generic {indexing_maps = [#id2, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<128x512xbf16>, tensor<128x512xbf16>) outs(%e : tensor<128x512xbf16>) {
  ^bb0(%x: bf16, %y: bf16, %o: bf16):
    %xf = arith.extf %x : bf16 to f32
    %yf = arith.extf %y : bf16 to f32
    %n = arith.negf %xf : f32
    %ex = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %ex : f32
    %s = arith.divf %xf, %d : f32
    %m = arith.mulf %s, %yf : f32
    %t = arith.truncf %m : f32 to bf16
    linalg.yield %t : bf16
  } -> tensor<128x512xbf16>
  %c0 = arith.constant 0.0 : bf16
  %eo = tensor.empty() : tensor<128x256xbf16>
  %o = linalg.fill ins(%c0 : bf16) outs(%eo : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  %out = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
      ins(%h, %w : tensor<128x512xbf16>, tensor<256x512xbf16>) outs(%o : tensor<128x256xbf16>) -> tensor<128x256xbf16>
  return %out : tensor<128x256xbf16>
}

// -----

// At the fp8 level (fp8-fuse-quantization alone): a 1x128 quantization of
// a transpose whose input has 1000 columns finds no cast-transpose, and a
// tensorwise fp8.transpose of a 1000-row matrix stays a kernel that
// re-reads the FP8 data.
// FQ: remark: fp8-fuse-quantization: [1000x256xbf16, from 'linalg.transpose'] quantizes a linalg.transpose on its own: the 1x128 cast-transpose takes static 16-bit matrices whose dims are multiples of 128; this is 256x1000xbf16
// FQ: remark: fp8-fuse-quantization: [256x1000xbf16, argument #0] nothing to fuse: it quantizes a function argument
// FQ: remark: fp8-fuse-quantization: [1000x256xbf16, argument #1] nothing to fuse: it quantizes a function argument
// FQ: remark: fp8-fuse-quantization: this fp8.transpose stays a kernel that re-reads the FP8 data: the exact cast-transposes take one scale for a static 16-bit matrix with dims that are multiples of 64, or square tiles of 64 or 128 that divide the dims; this is 1000x256xbf16 with tiles [*, *]
func.func @no_cast_transpose(%x: tensor<256x1000xbf16>, %y: tensor<1000x256xbf16>)
    -> (tensor<1000x256xf8E4M3FN>, tensor<256x1000xf8E4M3FN>, tensor<256x1000xf8E4M3FN>) {
  %e = tensor.empty() : tensor<1000x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x1000xbf16>) outs(%e : tensor<1000x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<1000x256xbf16> -> tensor<1000x256xf8E4M3FN>, tensor<1000x2xf32>
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x1000xbf16> -> tensor<256x1000xf8E4M3FN>, tensor<256x8xf32>
  %y8, %ys = fp8.quantize %y {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1000x256xbf16> -> tensor<1000x256xf8E4M3FN>, tensor<1x1xf32>
  %yt, %yts = fp8.transpose %y8, %ys {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1000x256xf8E4M3FN>, tensor<1x1xf32> -> tensor<256x1000xf8E4M3FN>, tensor<1x1xf32>
  return %qt, %q, %yt : tensor<1000x256xf8E4M3FN>, tensor<256x1000xf8E4M3FN>, tensor<256x1000xf8E4M3FN>
}

// -----

// An FP8 transpose of a function argument (already FP8): nothing to fuse
// it with. A stochastically rounded quantization of a transpose finds no
// cast-transpose. A bias add before a quantization fuses, unless producer
// fusion is off.
// FQ: remark: fp8-fuse-quantization: this fp8.transpose stays a kernel that re-reads the FP8 data: it transposes a function argument (FP8 already), so there is no quantization to compute it with
// FQ: remark: fp8-fuse-quantization: [512x256xbf16, from 'linalg.transpose'] quantizes a linalg.transpose on its own: it rounds stochastically or has a given amax; the cast-transposes take round-to-nearest quantizations with their own amax
// FQ: remark: fp8-fuse-quantization: [256x512xbf16, argument #2, + 1 more] fused its elementwise producers (one body)
// OFF: remark: fp8-fuse-quantization: [256x512xbf16, from 'linalg.generic'] did not fuse its producer: producer fusion is off (producers=false, or the pipeline's fuse-producers=false)
#id3 = affine_map<(i, j) -> (i, j)>
#row3 = affine_map<(i, j) -> (j)>
func.func @fp8_level(%f: tensor<256x128xf8E4M3FN>, %fs: tensor<1x1xf32>, %x: tensor<256x512xbf16>, %b: tensor<512xbf16>, %seed: i64)
    -> (tensor<128x256xf8E4M3FN>, tensor<512x256xf8E5M2>, tensor<256x512xf8E4M3FN>) {
  %ft, %fts = fp8.transpose %f, %fs {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x128xf8E4M3FN>, tensor<1x1xf32> -> tensor<128x256xf8E4M3FN>, tensor<1x1xf32>
  %e = tensor.empty() : tensor<512x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x512xbf16>) outs(%e : tensor<512x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<512x256xbf16> -> tensor<512x256xf8E5M2>, tensor<512x2xf32>
  %eb = tensor.empty() : tensor<256x512xbf16>
  %xb = linalg.generic {indexing_maps = [#id3, #row3, #id3], iterator_types = ["parallel", "parallel"]}
      ins(%x, %b : tensor<256x512xbf16>, tensor<512xbf16>) outs(%eb : tensor<256x512xbf16>) {
  ^bb0(%a: bf16, %c: bf16, %o: bf16):
    %s = arith.addf %a, %c : bf16
    linalg.yield %s : bf16
  } -> tensor<256x512xbf16>
  %q, %s = fp8.quantize %xb {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %ft, %qt, %q : tensor<128x256xf8E4M3FN>, tensor<512x256xf8E5M2>, tensor<256x512xf8E4M3FN>
}
