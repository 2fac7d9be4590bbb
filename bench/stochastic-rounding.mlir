// Stochastic-rounding quantization kernels for bench/results' before/after
// comparisons (issue 15 item 3), beside the round-to-nearest kernel of the
// same shape: bf16 -> e4m3/e5m2 at 8192x8192 and 16384x7168.
//   build/bin/fp8-opt bench/stochastic-rounding.mlir --fp8-emit=dir=DIR
//   build-run/bin/fp8-run DIR/manifest.json --copy-baseline --iters 100 --warmup 10
func.func @q8192_1x32_e8m0(%x: tensor<8192x8192xbf16>) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
}
func.func @q8192_sr_1x32_e8m0(%x: tensor<8192x8192xbf16>, %seed: i64) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<8192x256xf8E8M0FNU>
}
func.func @q8192_sr_1x128(%x: tensor<8192x8192xbf16>, %seed: i64) -> (tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<8192x64xf32>
}
func.func @q8192_sr_1x128_e5m2(%x: tensor<8192x8192xbf16>, %seed: i64) -> (tensor<8192x8192xf8E5M2>, tensor<8192x64xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E5M2>, tensor<8192x64xf32>
  return %q, %s : tensor<8192x8192xf8E5M2>, tensor<8192x64xf32>
}
func.func @q16384x7168_sr_1x32_e8m0(%x: tensor<16384x7168xbf16>, %seed: i64) -> (tensor<16384x7168xf8E4M3FN>, tensor<16384x224xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<16384x7168xbf16> -> tensor<16384x7168xf8E4M3FN>, tensor<16384x224xf8E8M0FNU>
  return %q, %s : tensor<16384x7168xf8E4M3FN>, tensor<16384x224xf8E8M0FNU>
}
func.func @q8192_sr_128x1(%x: tensor<8192x8192xbf16>, %seed: i64) -> (tensor<8192x8192xf8E4M3FN>, tensor<64x8192xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<64x8192xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<64x8192xf32>
}
func.func @q8192_sr_tensorwise(%x: tensor<8192x8192xbf16>, %seed: i64) -> (tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<8192x8192xbf16> -> tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<8192x8192xf8E4M3FN>, tensor<1x1xf32>
}
