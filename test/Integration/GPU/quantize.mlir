// Kernels for the GPU tests and benchmarks (make check-gpu, bench/): bf16 ->
// e4m3 quantization in the row-tiled scalings the GPU path supports, and
// the other non-GEMM kernels (dequantize, amax, transpose, Hadamard, scale
// alignment into the col_major_tma layout), and the cast-transpose
// (fp8.quantize_transpose, what fp8-fuse-quantization makes of X and Xᵀ
// quantized alike).
func.func @q8192_1x128(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>
}
func.func @q8192_1x32_e8m0(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
}
func.func @q16384x7168_1x128(%x: tensor<16384x7168xbf16>) -> (tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<16384x7168xbf16> -> tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>
  return %q, %s : tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>
}
func.func @q16384x7168_1x32_e8m0(%x: tensor<16384x7168xbf16>) -> (tensor<16384x7168xf8E4M3FN>, tensor<16384x224xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<16384x7168xbf16> -> tensor<16384x7168xf8E4M3FN>, tensor<16384x224xf8E8M0FNU>
  return %q, %s : tensor<16384x7168xf8E4M3FN>, tensor<16384x224xf8E8M0FNU>
}
func.func @q256_e5m2_pow2floor(%x: tensor<256x512xf32>) -> (tensor<256x512xf8E5M2>, tensor<256x16xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32, round = pow2_floor>}
      : tensor<256x512xf32> -> tensor<256x512xf8E5M2>, tensor<256x16xf32>
  return %q, %s : tensor<256x512xf8E5M2>, tensor<256x16xf32>
}
func.func @q256_rowwise(%x: tensor<256x512xbf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x1xf32>
  return %q, %s : tensor<256x512xf8E4M3FN>, tensor<256x1xf32>
}
func.func @ct8192(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>, tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>, tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>
  return %q, %s, %qt, %st : tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>, tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>
}
func.func @ct16384x7168(%x: tensor<16384x7168xbf16>) -> (tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>, tensor<7168x16384xf8E4M3FN>, tensor<7168x128xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<16384x7168xbf16> -> tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>, tensor<7168x16384xf8E4M3FN>, tensor<7168x128xf32>
  return %q, %s, %qt, %st : tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>, tensor<7168x16384xf8E4M3FN>, tensor<7168x128xf32>
}
func.func @ct256_mx(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf8E8M0FNU>, tensor<384x256xf8E4M3FN>, tensor<384x2xf8E8M0FNU>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf8E8M0FNU>, tensor<384x256xf8E4M3FN>, tensor<384x2xf8E8M0FNU>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x3xf8E8M0FNU>, tensor<384x256xf8E4M3FN>, tensor<384x2xf8E8M0FNU>
}
func.func @q8192_128x128(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32>
}
func.func @q256_64x64_e5m2(%x: tensor<256x512xf32>) -> (tensor<256x512xf8E5M2>, tensor<4x8xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [64, 64], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<256x512xf32> -> tensor<256x512xf8E5M2>, tensor<4x8xf8E8M0FNU>
  return %q, %s : tensor<256x512xf8E5M2>, tensor<4x8xf8E8M0FNU>
}
func.func @q512_sr_1x128_e5m2(%x: tensor<512x1024xbf16>, %seed: i64) -> (tensor<512x1024xf8E5M2>, tensor<512x8xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<512x1024xbf16> -> tensor<512x1024xf8E5M2>, tensor<512x8xf32>
  return %q, %s : tensor<512x1024xf8E5M2>, tensor<512x8xf32>
}
func.func @q8192_sr_1x32_e8m0(%x: tensor<8192x8192xbf16>, %seed: i64) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
}
func.func @dq8192_1x128_bf16(%q: tensor<8192x8192xf8E4M3FN>, %s: tensor<8192x64xf32>) -> tensor<8192x8192xbf16> {
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32> -> tensor<8192x8192xbf16>
  return %x : tensor<8192x8192xbf16>
}
func.func @dq256_mx_e5m2_f32(%q: tensor<256x512xf8E5M2>, %s: tensor<256x16xf8E8M0FNU>) -> tensor<256x512xf32> {
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<256x512xf8E5M2>, tensor<256x16xf8E8M0FNU> -> tensor<256x512xf32>
  return %x : tensor<256x512xf32>
}
func.func @dq256_128x128_f32(%q: tensor<256x256xf8E4M3FN>, %s: tensor<2x2xf32>) -> tensor<256x256xf32> {
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x256xf8E4M3FN>, tensor<2x2xf32> -> tensor<256x256xf32>
  return %x : tensor<256x256xf32>
}
func.func @amax8192_1x128(%x: tensor<8192x8192xbf16>) -> tensor<8192x64xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[1, 128]>} : tensor<8192x8192xbf16> -> tensor<8192x64xf32>
  return %a : tensor<8192x64xf32>
}
func.func @amax256_64x64(%x: tensor<256x512xf32>) -> tensor<4x8xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[64, 64]>} : tensor<256x512xf32> -> tensor<4x8xf32>
  return %a : tensor<4x8xf32>
}
func.func @t8192_128x128(%q: tensor<8192x8192xf8E4M3FN>, %s: tensor<64x64xf32>) -> (tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32>) {
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32> -> tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32>
  return %qt, %st : tensor<8192x8192xf8E4M3FN>, tensor<64x64xf32>
}
func.func @t256x512_tensorwise_e5m2(%q: tensor<256x512xf8E5M2>, %s: tensor<1x1xf32>) -> (tensor<512x256xf8E5M2>, tensor<1x1xf32>) {
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xf8E5M2>, tensor<1x1xf32> -> tensor<512x256xf8E5M2>, tensor<1x1xf32>
  return %qt, %st : tensor<512x256xf8E5M2>, tensor<1x1xf32>
}
func.func @t128x192_32x32_e8m0(%q: tensor<128x192xf8E4M3FN>, %s: tensor<4x6xf8E8M0FNU>) -> (tensor<192x128xf8E4M3FN>, tensor<6x4xf8E8M0FNU>) {
  %qt, %st = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [32, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<128x192xf8E4M3FN>, tensor<4x6xf8E8M0FNU> -> tensor<192x128xf8E4M3FN>, tensor<6x4xf8E8M0FNU>
  return %qt, %st : tensor<192x128xf8E4M3FN>, tensor<6x4xf8E8M0FNU>
}
func.func @q8192_128x1(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<64x8192xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<64x8192xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<64x8192xf32>
}
func.func @q256x300_sr_32x1_e5m2(%x: tensor<256x300xf32>, %seed: i64) -> (tensor<256x300xf8E5M2>, tensor<8x300xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<256x300xf32> -> tensor<256x300xf8E5M2>, tensor<8x300xf8E8M0FNU>
  return %q, %s : tensor<256x300xf8E5M2>, tensor<8x300xf8E8M0FNU>
}
func.func @amax512_128x1(%x: tensor<512x640xbf16>) -> tensor<4x640xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[128, 1]>} : tensor<512x640xbf16> -> tensor<4x640xf32>
  return %a : tensor<4x640xf32>
}
func.func @h8192_128_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 128 : i64, seed = 7 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
func.func @h256_32_f32(%x: tensor<256x512xf32>) -> tensor<256x512xf32> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 32 : i64} : tensor<256x512xf32>
  return %h : tensor<256x512xf32>
}
func.func @h64_256_f16(%x: tensor<64x512xf16>) -> tensor<64x512xf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 256 : i64, seed = 123456789 : i64} : tensor<64x512xf16>
  return %h : tensor<64x512xf16>
}
func.func @h8192_16_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 16 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
func.func @h8192_32_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 32 : i64, seed = 11 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
func.func @h8192_64_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 64 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
func.func @h8192_256_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 256 : i64, seed = -3 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
// 20 threads of 16 elements in blocks of 4 lanes: the rest of the warp joins
// the shuffles on clamped indices and stores nothing.
func.func @h5x64_64_f32(%x: tensor<5x64xf32>) -> tensor<5x64xf32> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 64 : i64, seed = 3 : i64} : tensor<5x64xf32>
  return %h : tensor<5x64xf32>
}
// 9 threads, one per block of 16.
func.func @h3x48_16_bf16(%x: tensor<3x48xbf16>) -> tensor<3x48xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 16 : i64, seed = 5 : i64} : tensor<3x48xbf16>
  return %h : tensor<3x48xbf16>
}
// Along dim 0 (each column's blocks of n rows, as the delayed recipe
// rotates Wgrad's operands): CTAs of 128 threads move tiles of 128 rows (one
// block for n = 256) by 32 KiB of shared memory. The 8192x8192 ones are the
// benchmark's (against a copy of as many bytes).
func.func @h0_8192_16_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 16 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
func.func @h0_8192_128_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 128 : i64, seed = 7 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
func.func @h0_8192_256_bf16(%x: tensor<8192x8192xbf16>) -> tensor<8192x8192xbf16> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 256 : i64, seed = -3 : i64} : tensor<8192x8192xbf16>
  return %h : tensor<8192x8192xbf16>
}
func.func @h0_4096x8192_128_f32(%x: tensor<4096x8192xf32>) -> tensor<4096x8192xf32> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 128 : i64} : tensor<4096x8192xf32>
  return %h : tensor<4096x8192xf32>
}
// Tiles 128 bf16 columns wide: the eighth holds 104 of 1000.
func.func @h0_512x1000_128_bf16(%x: tensor<512x1000xbf16>) -> tensor<512x1000xbf16> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 128 : i64, seed = 11 : i64} : tensor<512x1000xbf16>
  return %h : tensor<512x1000xbf16>
}
// One block of 256 rows x 32 f32 columns a tile: the last holds 8 of 1000.
func.func @h0_768x1000_256_f32(%x: tensor<768x1000xf32>) -> tensor<768x1000xf32> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 256 : i64, seed = 123456789 : i64} : tensor<768x1000xf32>
  return %h : tensor<768x1000xf32>
}
// 48 rows: tiles of one block (16 x 512 f32 columns), 300 used.
func.func @h0_48x300_16_f32(%x: tensor<48x300xf32>) -> tensor<48x300xf32> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 16 : i64, seed = 5 : i64} : tensor<48x300xf32>
  return %h : tensor<48x300xf32>
}
// Rows of 300 bf16 (600 bytes, not 16-byte aligned): 8-byte accesses.
func.func @h0_96x300_32_bf16(%x: tensor<96x300xbf16>) -> tensor<96x300xbf16> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 32 : i64} : tensor<96x300xbf16>
  return %h : tensor<96x300xbf16>
}
// Rows of 7 f16: one element an access.
func.func @h0_64x7_64_f16(%x: tensor<64x7xf16>) -> tensor<64x7xf16> {
  %h = fp8.hadamard %x {dim = 0 : i64, size = 64 : i64, seed = 3 : i64} : tensor<64x7xf16>
  return %h : tensor<64x7xf16>
}
func.func @q8192_rowwise(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x1xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<8192x1xf32>
}
func.func @q4096x16384_rowwise_e5m2_pow2(%x: tensor<4096x16384xbf16>) -> (tensor<4096x16384xf8E5M2>, tensor<4096x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>}
      : tensor<4096x16384xbf16> -> tensor<4096x16384xf8E5M2>, tensor<4096x1xf32>
  return %q, %s : tensor<4096x16384xf8E5M2>, tensor<4096x1xf32>
}
func.func @q8192_tensorwise(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>
}
func.func @q1024_tensorwise_sr_e5m2(%x: tensor<1024x3072xf32>, %seed: i64) -> (tensor<1024x3072xf8E5M2>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_ceil>}
      : tensor<1024x3072xf32> -> tensor<1024x3072xf8E5M2>, tensor<1x1xf32>
  return %q, %s : tensor<1024x3072xf8E5M2>, tensor<1x1xf32>
}
func.func @amax4096_tensorwise(%x: tensor<4096x4096xbf16>) -> tensor<1x1xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<4096x4096xbf16> -> tensor<1x1xf32>
  return %a : tensor<1x1xf32>
}
func.func @q1024_delayed_1x128(%x: tensor<1024x2048xbf16>, %a: tensor<1024x16xf32>) -> (tensor<1024x2048xf8E4M3FN>, tensor<1024x16xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<1024x16xf32>) {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<1024x2048xbf16> -> tensor<1024x2048xf8E4M3FN>, tensor<1024x16xf32>
  return %q, %s : tensor<1024x2048xf8E4M3FN>, tensor<1024x16xf32>
}
func.func @q1024_delayed_128x128(%x: tensor<1024x1024xbf16>, %a: tensor<8x8xf32>) -> (tensor<1024x1024xf8E4M3FN>, tensor<8x8xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<8x8xf32>) {scaling = #fp8.scaling<tile = [128, 128], scale = f32>, margin = 1}
      : tensor<1024x1024xbf16> -> tensor<1024x1024xf8E4M3FN>, tensor<8x8xf32>
  return %q, %s : tensor<1024x1024xf8E4M3FN>, tensor<8x8xf32>
}
func.func @q1024_delayed_cols_e5m2(%x: tensor<1024x512xbf16>, %a: tensor<8x512xf32>) -> (tensor<1024x512xf8E5M2>, tensor<8x512xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<8x512xf32>) {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<1024x512xbf16> -> tensor<1024x512xf8E5M2>, tensor<8x512xf32>
  return %q, %s : tensor<1024x512xf8E5M2>, tensor<8x512xf32>
}
func.func @q4096_delayed_tensorwise(%x: tensor<4096x4096xbf16>, %a: tensor<1x1xf32>) -> (tensor<4096x4096xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<4096x4096xbf16> -> tensor<4096x4096xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<4096x4096xf8E4M3FN>, tensor<1x1xf32>
}
func.func @q1000x7168_rowwise(%x: tensor<1000x7168xbf16>) -> (tensor<1000x7168xf8E4M3FN>, tensor<1000x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<1000x7168xbf16> -> tensor<1000x7168xf8E4M3FN>, tensor<1000x1xf32>
  return %q, %s : tensor<1000x7168xf8E4M3FN>, tensor<1000x1xf32>
}
func.func @q300x200_partial_1x128(%x: tensor<300x200xbf16>) -> (tensor<300x200xf8E4M3FN>, tensor<300x2xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<300x200xbf16> -> tensor<300x200xf8E4M3FN>, tensor<300x2xf32>
  return %q, %s : tensor<300x200xf8E4M3FN>, tensor<300x2xf32>
}
func.func @q300x200_partial_128x128_e8m0(%x: tensor<300x200xf32>) -> (tensor<300x200xf8E5M2>, tensor<3x2xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 128], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<300x200xf32> -> tensor<300x200xf8E5M2>, tensor<3x2xf8E8M0FNU>
  return %q, %s : tensor<300x200xf8E5M2>, tensor<3x2xf8E8M0FNU>
}
func.func @q255x130_partial_cols_sr(%x: tensor<255x130xbf16>, %seed: i64) -> (tensor<255x130xf8E5M2>, tensor<2x130xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<255x130xbf16> -> tensor<255x130xf8E5M2>, tensor<2x130xf32>
  return %q, %s : tensor<255x130xf8E5M2>, tensor<2x130xf32>
}
func.func @amax300x200_partial_64x64(%x: tensor<300x200xbf16>) -> tensor<5x4xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[64, 64]>} : tensor<300x200xbf16> -> tensor<5x4xf32>
  return %a : tensor<5x4xf32>
}
func.func @dq300x200_partial_1x128(%q: tensor<300x200xf8E4M3FN>, %s: tensor<300x2xf32>) -> tensor<300x200xbf16> {
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<300x200xf8E4M3FN>, tensor<300x2xf32> -> tensor<300x200xbf16>
  return %x : tensor<300x200xbf16>
}
func.func @dq255x131_partial_e8m0(%q: tensor<255x131xf8E5M2>, %s: tensor<2x5xf8E8M0FNU>) -> tensor<255x131xf32> {
  %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [128, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<255x131xf8E5M2>, tensor<2x5xf8E8M0FNU> -> tensor<255x131xf32>
  return %x : tensor<255x131xf32>
}
func.func @tma8192x64(%s: tensor<8192x64xf32>) -> tensor<64x8192xf32> {
  %t = fp8.tma_align_scales %s : tensor<8192x64xf32> -> tensor<64x8192xf32>
  return %t : tensor<64x8192xf32>
}
func.func @tma4095x56_pad(%s: tensor<4095x56xf32>) -> tensor<56x4096xf32> {
  %t = fp8.tma_align_scales %s : tensor<4095x56xf32> -> tensor<56x4096xf32>
  return %t : tensor<56x4096xf32>
}
func.func @tma250x3_pad(%s: tensor<250x3xf32>) -> tensor<3x252xf32> {
  %t = fp8.tma_align_scales %s : tensor<250x3xf32> -> tensor<3x252xf32>
  return %t : tensor<3x252xf32>
}
func.func @tma300x7_e8m0_pad(%s: tensor<300x7xf8E8M0FNU>) -> tensor<7x304xf8E8M0FNU> {
  %t = fp8.tma_align_scales %s : tensor<300x7xf8E8M0FNU> -> tensor<7x304xf8E8M0FNU>
  return %t : tensor<7x304xf8E8M0FNU>
}
