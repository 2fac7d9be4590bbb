// The generated quantization kernels: the key instructions in the PTX, the
// manifest a launcher reads, and (where ptxas exists) assembly for sm_90a
// with no spills, and for sm_100a.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/rows_quantize_0.ptx
// RUN: FileCheck %s --check-prefix=MX < %t/mx_quantize_1.ptx
// RUN: FileCheck %s --check-prefix=E5M2 < %t/e5m2_quantize_2.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json

// DeepSeek 1x128 activations: 16 bf16 per thread in two 16-byte loads, the
// tile's 8 lanes reduce amax with 3 butterfly shuffles, the scale is a
// correctly rounded division, 8 cvt.rn.satfinite pairs, one 16-byte store.
// PTX: .target sm_90a
// PTX: .visible .entry rows_quantize_0(
// PTX-COUNT-2: ld.global.v4.b32
// PTX: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// PTX: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// PTX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// PTX-NOT: shfl.sync
// PTX: div.rn.f32
// PTX-COUNT-8: cvt.rn.satfinite.e4m3x2.f32
// PTX: st.global.v4.b32
// PTX: st.global.b32
func.func @rows(%x: tensor<64x512xbf16>) -> (tensor<64x512xf8E4M3FN>, tensor<64x4xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x512xbf16> -> tensor<64x512xf8E4M3FN>, tensor<64x4xf32>
  return %q, %s : tensor<64x512xf8E4M3FN>, tensor<64x4xf32>
}

// MXFP8: 2 lanes per 1x32 tile (one shuffle), RCEIL by integer arithmetic
// (no division), one E8M0 byte per tile.
// MX: .visible .entry mx_quantize_1(
// MX: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// MX-NOT: shfl.sync
// MX-NOT: div.rn
// MX-COUNT-8: cvt.rn.satfinite.e4m3x2.f32
// MX: st.global.v4.b32
// MX: st.global.b8
func.func @mx(%x: tensor<64x512xbf16>) -> (tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<64x512xbf16> -> tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
  return %q, %s : tensor<64x512xf8E4M3FN>, tensor<64x16xf8E8M0FNU>
}

// e5m2 from f32 (four 16-byte loads), whole-row tiles of 512 = 32 lanes.
// E5M2-COUNT-4: ld.global.v4.b32
// E5M2: shfl.sync.bfly.b32 {{.*}}, 16, 31, -1;
// E5M2-COUNT-8: cvt.rn.satfinite.e5m2x2.f32
func.func @e5m2(%x: tensor<64x512xf32>) -> (tensor<64x512xf8E5M2>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_floor>}
      : tensor<64x512xf32> -> tensor<64x512xf8E5M2>, tensor<64x1xf32>
  return %q, %s : tensor<64x512xf8E5M2>, tensor<64x1xf32>
}

// MANIFEST: "chip": "sm_90a"
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST: "bytes_moved": 99328,
// MANIFEST: "grid": [
// MANIFEST-NEXT: 8,
// MANIFEST: "name": "rows_quantize_0",
// MANIFEST: "dtype": "bf16",
// MANIFEST-NEXT: "name": "input",
// MANIFEST-NEXT: "role": "input",
// MANIFEST: "ptx": "rows_quantize_0.ptx",
// MANIFEST: "scaling": {
// MANIFEST-NEXT: "round": "exact",
// MANIFEST-NEXT: "scale": "f32",
// MANIFEST-NEXT: "tile": [
// MANIFEST-NEXT: 1,
// MANIFEST-NEXT: 128
