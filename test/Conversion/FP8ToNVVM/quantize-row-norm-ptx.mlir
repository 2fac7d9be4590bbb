// fp8.quantize_elementwise with `reduce` regions (a norm fused into its row
// quantization) becomes a kernel of W warps per row (a warp taking two of
// the row's rounds of 32 chunks, up to 8 warps): the chunks loaded as
// 16-byte vectors, each chunk's sum into shared memory, a barrier, each
// warp folding its lane's chunk sums and running the butterfly (5
// shuffles), the body per element, the 1x128 amax by 3 more shuffles per
// round (the whole row's by 5 and shared memory), the casts and the
// stores; no spills. Every such kernel keeps two CTAs an SM
// (.minnctapersm 2: at most 128 registers). A row sum alone (linalg, unfused) gets a warp per row
// in the same order.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=RMS < %t/rmsnorm_quantize_row_norm_0.ptx
// RUN: awk '/bar.sync/ { b = 1 } b && /ld.global/ { n++ } END { print "loads after the barrier:", n + 0 }' %t/rmsnorm_quantize_row_norm_0.ptx | FileCheck %s --check-prefix=LOADS-AFTER-BARRIER
// RUN: FileCheck %s --check-prefix=LN < %t/layernorm_quantize_row_norm_1.ptx
// RUN: FileCheck %s --check-prefix=TMA < %t/partial_round_tma_quantize_row_norm_2.ptx
// RUN: FileCheck %s --check-prefix=SUM < %t/row_sum_generic_4.ptx
// RUN: FileCheck %s --check-prefix=WIDE < %t/wide_f32_quantize_row_norm_5.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PREFETCH < %t/rmsnorm_many_rows_quantize_row_norm_6.ptx
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/rmsnorm_quantize_row_norm_0.ptx
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/layernorm_quantize_row_norm_1.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/rmsnorm_quantize_row_norm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/layernorm_quantize_row_norm_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/partial_round_tma_quantize_row_norm_2.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/row_sum_generic_4.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/wide_f32_quantize_row_norm_5.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=WIDE-PTXAS %}
// RUN: rm -rf %t100 && fp8-opt %s '--fp8-emit=dir=%t100 chip=sm_100a' -o /dev/null
// RUN: %if ptxas-sm100a %{ %ptxas -arch=sm_100a %t100/rmsnorm_quantize_row_norm_0.ptx -o /dev/null %}

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>

// RMSNorm, 2048 columns (4 rounds: 2 warps of 2 rounds, kept in
// registers), 1x128: x and the weight as vectors, the chunk sums through
// shared memory, the butterfly, rsqrt as 1 / sqrt (both correctly rounded,
// as on the CPU), the tile amax, the casts.
// RMS: .visible .entry rmsnorm_quantize_row_norm_0(
// RMS-NEXT: .param
// RMS: .maxntid 256, 1, 1
// RMS-NEXT: .minnctapersm 2
// RMS: ld.global.v4.b32
// RMS: st.shared.b32
// RMS: st.shared.b32
// The weight's chunks are loaded after x's, before the barrier (two
// rounds, 32 bytes each), so that no load waits behind the body's stores:
// none past the barrier (LOADS-AFTER-BARRIER).
// RMS-COUNT-4: ld.global.v4.b32
// RMS-NOT: ld.global
// RMS: bar.sync 0;
// RMS: ld.shared.b32
// RMS-COUNT-5: shfl.sync.bfly.b32
// RMS: sqrt.rn.f32
// RMS: rcp.rn.f32
// RMS-COUNT-3: shfl.sync.bfly.b32
// RMS: cvt.rn.satfinite.e4m3x2.f32
// RMS: st.global.v4.b32
// LOADS-AFTER-BARRIER: loads after the barrier: 0
// With more CTAs than an H100 runs at once, thread 0 asks the L2 for the
// x rows of the CTA 256 ahead (of 2048 CTAs: none past CTA 1791), before
// the first barrier; the weight (a broadcast row) is not prefetched.
// PREFETCH: setp.gt.u32 {{.*}}, 1791;
// PREFETCH: cp.async.bulk.prefetch.L2.global
// PREFETCH-NOT: cp.async.bulk.prefetch
// PREFETCH: bar.sync 0;
// NOCALL-NOT: {{call|__nv_}}
func.func @rmsnorm(%x: tensor<256x2048xbf16>, %w: tensor<2048xbf16>) -> (tensor<256x2048xf8E4M3FN>, tensor<256x16xf32>) {
  %q, %s = fp8.quantize_elementwise %x, %w {indexing_maps = [#id, #row], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x2048xbf16>, tensor<2048xbf16> -> tensor<256x2048xf8E4M3FN>, tensor<256x16xf32> {
  ^bb0(%a: bf16, %g: bf16, %ss: f32):
    %n = arith.constant 2048.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %ss, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    fp8.yield %b : bf16
  } reduce {
  ^bb0(%a: bf16, %g: bf16, %ss: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    fp8.yield %sq : f32
  }
  return %q, %s : tensor<256x2048xf8E4M3FN>, tensor<256x16xf32>
}

// LayerNorm, 8192 columns (16 rounds: 8 warps of 2), rowwise, kept: two
// sums, the whole row's amax (5 more shuffles, then the warps' through
// shared memory), the kept bf16.
// LN: .visible .entry layernorm_quantize_row_norm_1(
// LN-COUNT-10: shfl.sync.bfly.b32
// LN: shfl.sync.bfly.b32
// LN: cvt.rn.satfinite.e4m3x2.f32
// LN: st.global.v4.b32
func.func @layernorm(%x: tensor<128x8192xbf16>, %w: tensor<8192xbf16>, %bias: tensor<8192xbf16>) -> (tensor<128x8192xf8E4M3FN>, tensor<128x1xf32>, tensor<128x8192xbf16>) {
  %q, %s, %k = fp8.quantize_elementwise %x, %w, %bias {indexing_maps = [#id, #row, #row], scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<128x8192xbf16>, tensor<8192xbf16>, tensor<8192xbf16> -> tensor<128x8192xf8E4M3FN>, tensor<128x1xf32>, tensor<128x8192xbf16> {
  ^bb0(%a: bf16, %g: bf16, %bb: bf16, %sum: f32, %var: f32):
    %n = arith.constant 8192.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %mean = arith.divf %sum, %n : f32
    %vn = arith.divf %var, %n : f32
    %v = arith.addf %vn, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %mean : f32
    %t = arith.mulf %d, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %bf = arith.extf %bb : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %z = arith.addf %u, %bf : f32
    %b = arith.truncf %z : f32 to bf16
    fp8.yield %b : bf16
  } reduce {
  ^bb0(%a: bf16, %g: bf16, %bb: bf16, %sum: f32, %var: f32):
    %f = arith.extf %a : bf16 to f32
    fp8.yield %f : f32
  }, {
  ^bb0(%a: bf16, %g: bf16, %bb: bf16, %sum: f32, %var: f32):
    %n = arith.constant 8192.0 : f32
    %mean = arith.divf %sum, %n : f32
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %mean : f32
    %sq = arith.mulf %d, %d : f32
    fp8.yield %sq : f32
  }
  return %q, %s, %k : tensor<128x8192xf8E4M3FN>, tensor<128x1xf32>, tensor<128x8192xbf16>
}

// 1280 columns (two and a half rounds, 2 warps: the second warp's second
// step lies past the row, the last round's upper lanes add nothing and
// store nothing), f32 input, 1x128 scales stored for TMA.
// TMA: .visible .entry partial_round_tma_quantize_row_norm_2(
// TMA: ld.global.v4.b32
// TMA: shfl.sync.bfly.b32
// TMA: cvt.rn.satfinite.e4m3x2.f32
func.func @partial_round_tma(%x: tensor<64x1280xf32>) -> (tensor<64x1280xf8E4M3FN>, tensor<10x64xf32>) {
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scale_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x1280xf32> -> tensor<64x1280xf8E4M3FN>, tensor<10x64xf32> {
  ^bb0(%a: f32, %ss: f32):
    %r = math.rsqrt %ss : f32
    %t = arith.mulf %a, %r : f32
    fp8.yield %t : f32
  } reduce {
  ^bb0(%a: f32, %ss: f32):
    %sq = arith.mulf %a, %a : f32
    fp8.yield %sq : f32
  }
  return %q, %s : tensor<64x1280xf8E4M3FN>, tensor<10x64xf32>
}

// A row sum alone (the unfused program's): a warp per row, the same
// butterfly, the init added by lane 0.
// SUM: .visible .entry row_sum_generic_4(
// SUM-COUNT-5: shfl.sync.bfly.b32
// SUM: st.global.b32
func.func @row_sum(%x: tensor<100x1000xbf16>) -> tensor<100xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<100xf32>) -> tensor<100xf32>
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<100x1000xbf16>) outs(%init : tensor<100xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<100xf32>
  return %ss : tensor<100xf32>
}

// 2 warps per row of 2048, 4 rows per CTA: 256 rows in 64 CTAs; the row
// sum alone a warp per row, 8 rows per CTA: 100 rows in 13.
// MANIFEST: "grid": [
// MANIFEST-NEXT: 64,
// MANIFEST: "name": "rmsnorm_quantize_row_norm_0",
// MANIFEST-NEXT: "op": "fp8.quantize_elementwise",
// MANIFEST: "op": "linalg.fill",
// MANIFEST: "grid": [
// MANIFEST-NEXT: 13,
// MANIFEST: "name": "row_sum_generic_4",
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

// LayerNorm on rows of 14336 f32 (28 rounds: 8 warps of 4 steps, 64 f32
// a lane kept in registers), rowwise: 137 registers without the bound, one
// CTA an SM; with .minnctapersm 2, at most 128 (a few bytes of spills).
// WIDE: .visible .entry wide_f32_quantize_row_norm_5(
// WIDE: .minnctapersm 2
// WIDE-PTXAS: Used {{([0-9]|[1-9][0-9]|1[01][0-9]|12[0-8])}} registers
func.func @wide_f32(%x: tensor<16x14336xf32>, %w: tensor<14336xbf16>, %bias: tensor<14336xbf16>) -> (tensor<16x14336xf8E4M3FN>, tensor<16x1xf32>) {
  %q, %s = fp8.quantize_elementwise %x, %w, %bias {indexing_maps = [#id, #row, #row], scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<16x14336xf32>, tensor<14336xbf16>, tensor<14336xbf16> -> tensor<16x14336xf8E4M3FN>, tensor<16x1xf32> {
  ^bb0(%a: f32, %g: bf16, %bb: bf16, %sum: f32, %var: f32):
    %n = arith.constant 14336.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %mean = arith.divf %sum, %n : f32
    %vn = arith.divf %var, %n : f32
    %v = arith.addf %vn, %eps : f32
    %r = math.rsqrt %v : f32
    %d = arith.subf %a, %mean : f32
    %t = arith.mulf %d, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %bf = arith.extf %bb : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %z = arith.addf %u, %bf : f32
    %b = arith.truncf %z : f32 to bf16
    fp8.yield %b : bf16
  } reduce {
  ^bb0(%a: f32, %g: bf16, %bb: bf16, %sum: f32, %var: f32):
    fp8.yield %a : f32
  }, {
  ^bb0(%a: f32, %g: bf16, %bb: bf16, %sum: f32, %var: f32):
    %n = arith.constant 14336.0 : f32
    %mean = arith.divf %sum, %n : f32
    %d = arith.subf %a, %mean : f32
    %sq = arith.mulf %d, %d : f32
    fp8.yield %sq : f32
  }
  return %q, %s : tensor<16x14336xf8E4M3FN>, tensor<16x1xf32>
}
func.func @rmsnorm_many_rows(%x: tensor<8192x2048xbf16>, %w: tensor<2048xbf16>) -> (tensor<8192x2048xf8E4M3FN>, tensor<8192x16xf32>) {
  %q, %s = fp8.quantize_elementwise %x, %w {indexing_maps = [#id, #row], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<8192x2048xbf16>, tensor<2048xbf16> -> tensor<8192x2048xf8E4M3FN>, tensor<8192x16xf32> {
  ^bb0(%a: bf16, %g: bf16, %ss: f32):
    %n = arith.constant 2048.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %ss, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    fp8.yield %b : bf16
  } reduce {
  ^bb0(%a: bf16, %g: bf16, %ss: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    fp8.yield %sq : f32
  }
  return %q, %s : tensor<8192x2048xf8E4M3FN>, tensor<8192x16xf32>
}
