// A Hadamard rotation fused into the quantization that reads it
// (fp8.quantize_elementwise with hadamard_size, fp8-fuse-quantization):
// the row-tile kernel loads each thread's 32 elements (16 for rotations of
// 16), rotates them in registers (strides 1-16 inside the thread, 32..n/2
// by warp shuffles, the sign flips of the seed, 1/sqrt(n)), rounds them to
// bf16 as fp8.hadamard's
// result is, then takes the tile amax and quantizes: one read of X, one
// write of the FP8 data, no rotated bf16 in memory.
// RUN: rm -rf %t && fp8-opt %s --fp8-fuse-quantization --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/rotated_quantize_elementwise_0.ptx
// RUN: FileCheck %s --check-prefix=ROUND < %t/rotated_quantize_elementwise_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/rotated_quantize_elementwise_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK-COUNT-4: ld.global.v4.b32
// Strides 32 and 64 of a block of 128: two rounds of shuffles of the 32
// values, then the tile amax (two more: 1x128 is 4 lanes).
// CHECK-COUNT-66: shfl.sync.bfly.b32
// CHECK-NOT: shfl.sync
// The rotated values rounded to bf16 and back before the amax.
// ROUND: cvt.rn.bf16.f32
// ROUND: cvt.f32.bf16
// ROUND: cvt.rn.satfinite.e4m3x2.f32
// ROUND-NOT: st.global.b16

// MANIFEST: "name": "rotated_quantize_elementwise_0",
// MANIFEST-NEXT: "op": "fp8.quantize_elementwise",

// PTXAS: 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NOT: error

func.func @rotated(%x: tensor<256x512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) {
  %r = fp8.hadamard %x {dim = 1 : i64, size = 128 : i64, seed = 42 : i64} : tensor<256x512xbf16>
  %q, %s = fp8.quantize %r {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  return %q, %s : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
}
