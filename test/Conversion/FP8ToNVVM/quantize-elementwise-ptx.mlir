// fp8.quantize_elementwise becomes the quantize kernel of its tiling (or
// the cast-transpose with `transpose`), computing the producer's body where
// the kernel loads its input: the inputs are read (16-byte vectors where
// consecutive, the bias row through its map), the body runs per element
// with its math functions expanded (no libdevice call, the exp
// approximation's floor included), the kept value is
// stored beside, and the produced matrix is never read back.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=ROWS < %t/rows_quantize_elementwise_0.ptx
// RUN: FileCheck %s --check-prefix=CT < %t/transposed_quantize_elementwise_t_1.ptx
// RUN: FileCheck %s --check-prefix=NORM < %t/normed_quantize_elementwise_t_6.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=MANIFEST-T < %t/manifest.json
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/rows_quantize_elementwise_0.ptx
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/transposed_quantize_elementwise_t_1.ptx
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/tensorwise_quantize_elementwise_2.ptx
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/columns_quantize_elementwise_3.ptx
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/partial_quantize_elementwise_4.ptx
// RUN: FileCheck %s --check-prefix=NOCALL --input-file %t/blocks_quantize_elementwise_5.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/rows_quantize_elementwise_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/transposed_quantize_elementwise_t_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/tensorwise_quantize_elementwise_2.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/columns_quantize_elementwise_3.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/partial_quantize_elementwise_4.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/blocks_quantize_elementwise_5.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/normed_quantize_elementwise_t_6.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: rm -rf %t100 && fp8-opt %s '--fp8-emit=dir=%t100 chip=sm_100a' -o /dev/null
// RUN: %if ptxas-sm100a %{ %ptxas -arch=sm_100a %t100/rows_quantize_elementwise_0.ptx -o /dev/null %}

// Row tiles: the activation and the bias row loaded as vectors, GELU, the
// kept bf16 stored as a vector, the 1x128 amax by shuffles.
// ROWS: .visible .entry rows_quantize_elementwise_0(
// ROWS: ld.global.v4.b32
// ROWS: ld.global.v4.b32
// ROWS: st.global.v4.b32
// ROWS: shfl.sync.bfly.b32
// ROWS: cvt.rn.satfinite.e4m3x2.f32
// NOCALL-NOT: {{call|__nv_}}

// The cast-transpose: both inputs of four of a thread's eight rows in
// flight (streamed) before the SwiGLU body runs; the body a row at a time,
// each row's product staged in shared memory at once and the next row's
// inputs issued behind it; the rows re-read from the tile to be quantized
// (nothing of the body live across the row pass), then column pairs. Four
// CTAs an SM (at most 64 registers, and ptxas finds no spills).
// CT: .visible .entry transposed_quantize_elementwise_t_1(
// CT: .minnctapersm 4
// CT-COUNT-8: ld.global.nc.L1::no_allocate.v4.b32
// CT-NOT: st.shared
// CT: div.rn.f32
// CT: ld.global.nc.L1::no_allocate.v4.b32
// CT: st.shared.v4.b32
// CT: ld.shared.v4.b32
// CT: cvt.rn.satfinite.e4m3x2.f32
// CT: st.global.cs.v2.b32
// CT: bar.sync 0;
// CT: ld.shared.b32

// A per-row value (i, j) -> (i) is loaded once for a row's 8 elements, so
// that the body's work on it (RMSNorm's rsqrt of the mean square: a
// division, a square root, a reciprocal) runs once a row, not once an
// element: 8 square roots for a thread's 8 rows, not 64. The weight row,
// read again by every row, is a plain (L1-cached) load.
// NORM: .visible .entry normed_quantize_elementwise_t_6(
// NORM: ld.global.nc.L1::no_allocate.v4.b32
// NORM: ld.global.b32
// NORM: ld.global.v4.b32
// NORM-COUNT-8: sqrt.rn.f32
// NORM-NOT: sqrt.rn.f32

// MANIFEST:      "name": "rows_quantize_elementwise_0",
// MANIFEST:      "op": "fp8.quantize_elementwise",
// MANIFEST:      "name": "in0",
// MANIFEST:      "name": "in1",
// MANIFEST-NEXT: "role": "input",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT:   384
// MANIFEST-NEXT: ]
// MANIFEST:      "name": "q",
// MANIFEST:      "name": "scale",
// MANIFEST:      "name": "kept",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-T:      "name": "transposed_quantize_elementwise_t_1",
// MANIFEST-T:      "op": "fp8.quantize_elementwise+transpose",
// MANIFEST-T:      "name": "qt",
// MANIFEST-T:      "name": "scale_t",
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
#col = affine_map<(i, j) -> (i)>

func.func @rows(%h: tensor<256x384xbf16>, %b: tensor<384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<256x384xbf16>) {
  %q, %s, %k = fp8.quantize_elementwise %h, %b {indexing_maps = [#id, #row], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16>, tensor<384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<256x384xbf16> {
  ^bb0(%x: bf16, %y: bf16):
    %f = arith.extf %x : bf16 to f32
    %g = arith.extf %y : bf16 to f32
    %v = arith.addf %f, %g : f32
    %c0 = arith.constant 0.7978846 : f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %u = arith.mulf %c0, %v : f32
    %th = math.tanh %u : f32
    %p = arith.addf %one, %th : f32
    %hv = arith.mulf %half, %v : f32
    %r = arith.mulf %hv, %p : f32
    %rb = arith.truncf %r : f32 to bf16
    fp8.yield %rb : bf16
  }
  return %q, %s, %k : tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<256x384xbf16>
}

func.func @transposed(%h1: tensor<256x384xbf16>, %h3: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>) {
  %q, %s, %qt, %st = fp8.quantize_elementwise %h1, %h3 {indexing_maps = [#id, #id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose}
      : tensor<256x384xbf16>, tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32> {
  ^bb0(%x: bf16, %y: bf16):
    %a = arith.extf %x : bf16 to f32
    %b = arith.extf %y : bf16 to f32
    %n = arith.negf %a : f32
    %e = math.exp %n : f32
    %one = arith.constant 1.0 : f32
    %d = arith.addf %one, %e : f32
    %sg = arith.divf %a, %d : f32
    %r = arith.mulf %sg, %b : f32
    %rb = arith.truncf %r : f32 to bf16
    fp8.yield %rb : bf16
  }
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
}

// Tensorwise (two passes over the inputs: the producer runs twice, never
// stored), from f32.
func.func @tensorwise(%x: tensor<512x512xf32>, %r: tensor<512x512xf32>) -> (tensor<512x512xf8E5M2>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize_elementwise %x, %r {indexing_maps = [#id, #id], scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<512x512xf32>, tensor<512x512xf32> -> tensor<512x512xf8E5M2>, tensor<1x1xf32> {
  ^bb0(%a: f32, %b: f32):
    %v = arith.addf %a, %b : f32
    %t = arith.truncf %v : f32 to bf16
    fp8.yield %t : bf16
  }
  return %q, %s : tensor<512x512xf8E5M2>, tensor<1x1xf32>
}

// Column tiles (scalar loads, element by element), a per-row scale read
// through (i, j) -> (i).
func.func @columns(%x: tensor<256x256xbf16>, %c: tensor<256xf32>) -> (tensor<256x256xf8E4M3FN>, tensor<2x256xf32>, tensor<256x256xbf16>) {
  %q, %s, %k = fp8.quantize_elementwise %x, %c {indexing_maps = [#id, #col], scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x256xbf16>, tensor<256xf32> -> tensor<256x256xf8E4M3FN>, tensor<2x256xf32>, tensor<256x256xbf16> {
  ^bb0(%a: bf16, %b: f32):
    %f = arith.extf %a : bf16 to f32
    %v = arith.mulf %f, %b : f32
    %t = arith.truncf %v : f32 to bf16
    fp8.yield %t : bf16
  }
  return %q, %s, %k : tensor<256x256xf8E4M3FN>, tensor<2x256xf32>, tensor<256x256xbf16>
}

// Partial edge tiles (the generic kernel), a bias row of 200 (not whole
// vectors of a row: element by element).
func.func @partial(%x: tensor<100x200xbf16>, %b: tensor<200xbf16>) -> (tensor<100x200xf8E4M3FN>, tensor<100x2xf32>) {
  %q, %s = fp8.quantize_elementwise %x, %b {indexing_maps = [#id, #row], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<100x200xbf16>, tensor<200xbf16> -> tensor<100x200xf8E4M3FN>, tensor<100x2xf32> {
  ^bb0(%a: bf16, %c: bf16):
    %v = arith.addf %a, %c : bf16
    fp8.yield %v : bf16
  }
  return %q, %s : tensor<100x200xf8E4M3FN>, tensor<100x2xf32>
}

// 128x128 blocks.
func.func @blocks(%x: tensor<256x256xbf16>) -> (tensor<256x256xf8E4M3FN>, tensor<2x2xf32>) {
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<2x2xf32> {
  ^bb0(%a: bf16):
    %f = arith.extf %a : bf16 to f32
    %t = math.tanh %f : f32
    %tb = arith.truncf %t : f32 to bf16
    fp8.yield %tb : bf16
  }
  return %q, %s : tensor<256x256xf8E4M3FN>, tensor<2x2xf32>
}

// RMSNorm's normalization fused into a cast-transpose: the rows' mean
// squares (a per-row value) and the weight row.
func.func @normed(%x: tensor<256x384xbf16>, %ss: tensor<256xf32>, %w: tensor<384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>) {
  %q, %s, %qt, %st = fp8.quantize_elementwise %x, %ss, %w {indexing_maps = [#id, #col, #row], scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose}
      : tensor<256x384xbf16>, tensor<256xf32>, tensor<384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32> {
  ^bb0(%a: bf16, %m: f32, %g: bf16):
    %f = arith.extf %a : bf16 to f32
    %gf = arith.extf %g : bf16 to f32
    %n = arith.constant 384.0 : f32
    %eps = arith.constant 1.0e-05 : f32
    %ms = arith.divf %m, %n : f32
    %ve = arith.addf %ms, %eps : f32
    %rs = math.rsqrt %ve : f32
    %xn = arith.mulf %f, %rs : f32
    %r = arith.mulf %xn, %gf : f32
    %y = arith.truncf %r : f32 to bf16
    fp8.yield %y : bf16
  }
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
}
