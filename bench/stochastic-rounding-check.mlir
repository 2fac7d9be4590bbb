// The stochastic-rounding check set of bench/results/2026-11-26-h100-stochastic-rounding.md:
// the stochastic kernels of test/Integration/GPU/quantize.mlir and
// quantize-fast-paths.mlir, plus larger row tiles, block tiles and long rows.
//   build/bin/fp8-opt bench/stochastic-rounding-check.mlir --fp8-emit=dir=DIR
//   fp8-run DIR/manifest.json --iters 0 --seed 0 --dump D0 && check_quantize.py D0
//   (and --seed 1 --specials)
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
func.func @q256x300_sr_32x1_e5m2(%x: tensor<256x300xf32>, %seed: i64) -> (tensor<256x300xf8E5M2>, tensor<8x300xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<256x300xf32> -> tensor<256x300xf8E5M2>, tensor<8x300xf8E8M0FNU>
  return %q, %s : tensor<256x300xf8E5M2>, tensor<8x300xf8E8M0FNU>
}
func.func @q1024_tensorwise_sr_e5m2(%x: tensor<1024x3072xf32>, %seed: i64) -> (tensor<1024x3072xf8E5M2>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_ceil>}
      : tensor<1024x3072xf32> -> tensor<1024x3072xf8E5M2>, tensor<1x1xf32>
  return %q, %s : tensor<1024x3072xf8E5M2>, tensor<1x1xf32>
}
func.func @q255x130_partial_cols_sr(%x: tensor<255x130xbf16>, %seed: i64) -> (tensor<255x130xf8E5M2>, tensor<2x130xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<255x130xbf16> -> tensor<255x130xf8E5M2>, tensor<2x130xf32>
  return %q, %s : tensor<255x130xf8E5M2>, tensor<2x130xf32>
}
func.func @c512x640_sr_128x1_e5m2(%x: tensor<512x640xbf16>, %seed: i64) -> (tensor<512x640xf8E5M2>, tensor<4x640xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<512x640xbf16> -> tensor<512x640xf8E5M2>, tensor<4x640xf32>
  return %q, %s : tensor<512x640xf8E5M2>, tensor<4x640xf32>
}
func.func @c1024x192_f32_sr_64x1(%x: tensor<1024x192xf32>, %seed: i64) -> (tensor<1024x192xf8E4M3FN>, tensor<16x192xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [64, 1], scale = f32, round = pow2_ceil>}
      : tensor<1024x192xf32> -> tensor<1024x192xf8E4M3FN>, tensor<16x192xf32>
  return %q, %s : tensor<1024x192xf8E4M3FN>, tensor<16x192xf32>
}
func.func @q2000x1000_tensorwise_sr_e5m2(%x: tensor<2000x1000xf32>, %seed: i64) -> (tensor<2000x1000xf8E5M2>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_ceil>}
      : tensor<2000x1000xf32> -> tensor<2000x1000xf8E5M2>, tensor<1x1xf32>
  return %q, %s : tensor<2000x1000xf8E5M2>, tensor<1x1xf32>
}
func.func @q96x224_sr_1x32_e8m0(%x: tensor<96x224xbf16>, %seed: i64) -> (tensor<96x224xf8E4M3FN>, tensor<96x7xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<96x224xbf16> -> tensor<96x224xf8E4M3FN>, tensor<96x7xf8E8M0FNU>
  return %q, %s : tensor<96x224xf8E4M3FN>, tensor<96x7xf8E8M0FNU>
}
func.func @q4096x2048_sr_1x32_e8m0(%x: tensor<4096x2048xbf16>, %seed: i64) -> (tensor<4096x2048xf8E4M3FN>, tensor<4096x64xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<4096x2048xbf16> -> tensor<4096x2048xf8E4M3FN>, tensor<4096x64xf8E8M0FNU>
  return %q, %s : tensor<4096x2048xf8E4M3FN>, tensor<4096x64xf8E8M0FNU>
}
func.func @q2048x4096_sr_1x128(%x: tensor<2048x4096xbf16>, %seed: i64) -> (tensor<2048x4096xf8E4M3FN>, tensor<2048x32xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<2048x4096xbf16> -> tensor<2048x4096xf8E4M3FN>, tensor<2048x32xf32>
  return %q, %s : tensor<2048x4096xf8E4M3FN>, tensor<2048x32xf32>
}
func.func @q512_sr_128x128(%x: tensor<512x512xbf16>, %seed: i64) -> (tensor<512x512xf8E4M3FN>, tensor<4x4xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<512x512xbf16> -> tensor<512x512xf8E4M3FN>, tensor<4x4xf32>
  return %q, %s : tensor<512x512xf8E4M3FN>, tensor<4x4xf32>
}
func.func @q256x8192_sr_rowwise_e5m2(%x: tensor<256x8192xbf16>, %seed: i64) -> (tensor<256x8192xf8E5M2>, tensor<256x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<256x8192xbf16> -> tensor<256x8192xf8E5M2>, tensor<256x1xf32>
  return %q, %s : tensor<256x8192xf8E5M2>, tensor<256x1xf32>
}
