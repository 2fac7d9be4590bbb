// The vectorized paths of the column-tile, cast-transpose and tensorwise
// quantization kernels in the shapes quantize.mlir leaves out: column tiles
// of f32 and bf16 (4 and 8 columns a thread, 32 .. 256 rows), stochastic,
// delayed; the cast-transpose in e5m2 with a margin and in f16; the
// rowwise cast-transpose (a CTA per tile, and runs of 2-3 tiles that cross
// column strips and end on an odd tile); the block cast-transpose (square
// tiles of 128 and 64, bf16, f16 and f32); the
// tensorwise kernel where its four-chunk loop iterations overrun the end;
// stochastic row tiles whose last chunks lie past the end.
// Each checked bit for bit against oracle.py, seeded and with special values.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t > /dev/null
// RUN: %fp8-run %t/manifest.json --iters 0 --seed 0 --dump %t/d0
// RUN: %check-quantize %t/d0
// RUN: %fp8-run %t/manifest.json --iters 0 --seed 1 --specials --dump %t/d1
// RUN: %check-quantize %t/d1
func.func @c512x640_sr_128x1_e5m2(%x: tensor<512x640xbf16>, %seed: i64) -> (tensor<512x640xf8E5M2>, tensor<4x640xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<512x640xbf16> -> tensor<512x640xf8E5M2>, tensor<4x640xf32>
  return %q, %s : tensor<512x640xf8E5M2>, tensor<4x640xf32>
}
func.func @c256x512_f32_32x1_e8m0(%x: tensor<256x512xf32>) -> (tensor<256x512xf8E4M3FN>, tensor<8x512xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<256x512xf32> -> tensor<256x512xf8E4M3FN>, tensor<8x512xf8E8M0FNU>
  return %q, %s : tensor<256x512xf8E4M3FN>, tensor<8x512xf8E8M0FNU>
}
func.func @c1024x192_f32_sr_64x1(%x: tensor<1024x192xf32>, %seed: i64) -> (tensor<1024x192xf8E4M3FN>, tensor<16x192xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [64, 1], scale = f32, round = pow2_ceil>}
      : tensor<1024x192xf32> -> tensor<1024x192xf8E4M3FN>, tensor<16x192xf32>
  return %q, %s : tensor<1024x192xf8E4M3FN>, tensor<16x192xf32>
}
func.func @c512x128_f16_256x1(%x: tensor<512x128xf16>) -> (tensor<512x128xf8E4M3FN>, tensor<2x128xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [256, 1], scale = f32>, margin = 1}
      : tensor<512x128xf16> -> tensor<512x128xf8E4M3FN>, tensor<2x128xf32>
  return %q, %s : tensor<512x128xf8E4M3FN>, tensor<2x128xf32>
}
func.func @amax256x192_32x1(%x: tensor<256x192xbf16>) -> tensor<8x192xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[32, 1]>} : tensor<256x192xbf16> -> tensor<8x192xf32>
  return %a : tensor<8x192xf32>
}
func.func @ct384x256_e5m2_margin(%x: tensor<384x256xbf16>) -> (tensor<384x256xf8E5M2>, tensor<384x2xf32>, tensor<256x384xf8E5M2>, tensor<256x3xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>, margin = 2}
      : tensor<384x256xbf16> -> tensor<384x256xf8E5M2>, tensor<384x2xf32>, tensor<256x384xf8E5M2>, tensor<256x3xf32>
  return %q, %s, %qt, %st : tensor<384x256xf8E5M2>, tensor<384x2xf32>, tensor<256x384xf8E5M2>, tensor<256x3xf32>
}
func.func @ct256x512_f16(%x: tensor<256x512xf16>) -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<512x256xf8E4M3FN>, tensor<512x2xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<512x256xf8E4M3FN>, tensor<512x2xf32>
  return %q, %s, %qt, %st : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<512x256xf8E4M3FN>, tensor<512x2xf32>
}
func.func @rct256x192_pow2(%x: tensor<256x192xbf16>) -> (tensor<256x192xf8E4M3FN>, tensor<256x1xf32>, tensor<192x256xf8E4M3FN>, tensor<192x1xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>}
      : tensor<256x192xbf16> -> tensor<256x192xf8E4M3FN>, tensor<256x1xf32>, tensor<192x256xf8E4M3FN>, tensor<192x1xf32>
  return %q, %s, %qt, %st : tensor<256x192xf8E4M3FN>, tensor<256x1xf32>, tensor<192x256xf8E4M3FN>, tensor<192x1xf32>
}
func.func @rct1024x640_f16_e5m2_margin(%x: tensor<1024x640xf16>) -> (tensor<1024x640xf8E5M2>, tensor<1024x1xf32>, tensor<640x1024xf8E5M2>, tensor<640x1xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>, margin = 1}
      : tensor<1024x640xf16> -> tensor<1024x640xf8E5M2>, tensor<1024x1xf32>, tensor<640x1024xf8E5M2>, tensor<640x1xf32>
  return %q, %s, %qt, %st : tensor<1024x640xf8E5M2>, tensor<1024x1xf32>, tensor<640x1024xf8E5M2>, tensor<640x1xf32>
}
func.func @rct2048x1344(%x: tensor<2048x1344xbf16>) -> (tensor<2048x1344xf8E4M3FN>, tensor<2048x1xf32>, tensor<1344x2048xf8E4M3FN>, tensor<1344x1xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2048x1344xbf16> -> tensor<2048x1344xf8E4M3FN>, tensor<2048x1xf32>, tensor<1344x2048xf8E4M3FN>, tensor<1344x1xf32>
  return %q, %s, %qt, %st : tensor<2048x1344xf8E4M3FN>, tensor<2048x1xf32>, tensor<1344x2048xf8E4M3FN>, tensor<1344x1xf32>
}
func.func @bct256x384(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<2x3xf32>, tensor<384x256xf8E4M3FN>, tensor<3x2xf32>
}
func.func @bct128x192_f32_64_e5m2_margin(%x: tensor<128x192xf32>) -> (tensor<128x192xf8E5M2>, tensor<2x3xf32>, tensor<192x128xf8E5M2>, tensor<3x2xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [64, 64], scale = f32>, margin = 1}
      : tensor<128x192xf32> -> tensor<128x192xf8E5M2>, tensor<2x3xf32>, tensor<192x128xf8E5M2>, tensor<3x2xf32>
  return %q, %s, %qt, %st : tensor<128x192xf8E5M2>, tensor<2x3xf32>, tensor<192x128xf8E5M2>, tensor<3x2xf32>
}
func.func @bct384x256_f16_pow2(%x: tensor<384x256xf16>) -> (tensor<384x256xf8E4M3FN>, tensor<3x2xf32>, tensor<256x384xf8E4M3FN>, tensor<2x3xf32>) {
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32, round = pow2_ceil>}
      : tensor<384x256xf16> -> tensor<384x256xf8E4M3FN>, tensor<3x2xf32>, tensor<256x384xf8E4M3FN>, tensor<2x3xf32>
  return %q, %s, %qt, %st : tensor<384x256xf8E4M3FN>, tensor<3x2xf32>, tensor<256x384xf8E4M3FN>, tensor<2x3xf32>
}
func.func @q3000x1000_tensorwise(%x: tensor<3000x1000xbf16>) -> (tensor<3000x1000xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<3000x1000xbf16> -> tensor<3000x1000xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<3000x1000xf8E4M3FN>, tensor<1x1xf32>
}
func.func @q2000x1000_tensorwise_sr_e5m2(%x: tensor<2000x1000xf32>, %seed: i64) -> (tensor<2000x1000xf8E5M2>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_ceil>}
      : tensor<2000x1000xf32> -> tensor<2000x1000xf8E5M2>, tensor<1x1xf32>
  return %q, %s : tensor<2000x1000xf8E5M2>, tensor<1x1xf32>
}
func.func @q3000x1000_delayed_tensorwise(%x: tensor<3000x1000xbf16>, %a: tensor<1x1xf32>) -> (tensor<3000x1000xf8E4M3FN>, tensor<1x1xf32>) {
  %q, %s = fp8.quantize %x amax(%a : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<3000x1000xbf16> -> tensor<3000x1000xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<3000x1000xf8E4M3FN>, tensor<1x1xf32>
}
func.func @amax3000x1000_tensorwise(%x: tensor<3000x1000xbf16>) -> tensor<1x1xf32> {
  %a = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<3000x1000xbf16> -> tensor<1x1xf32>
  return %a : tensor<1x1xf32>
}
// Stochastic row tiles take four chunks a thread, a grid apart: here the
// grid's last chunks run past the end (1344 chunks, 2 CTAs of 4 x 256).
func.func @q96x224_sr_1x32_e8m0(%x: tensor<96x224xbf16>, %seed: i64) -> (tensor<96x224xf8E4M3FN>, tensor<96x7xf8E8M0FNU>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<96x224xbf16> -> tensor<96x224xf8E4M3FN>, tensor<96x7xf8E8M0FNU>
  return %q, %s : tensor<96x224xf8E4M3FN>, tensor<96x7xf8E8M0FNU>
}
