// RUN: fp8-opt %s -split-input-file --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-convert-scaling=to=mxfp8 -verify-diagnostics | FileCheck %s

// A constant weight quantized blockwise (one 128x128 tile, f32 scale) is
// served to an MXFP8 matmul through fp8.requantize to 1x32 tiles with E8M0
// scales. Rows of ones and twos: blockwise scale 2/448 gives q = 224 and 448,
// whose dequantized values are exactly 1 and 2 (7 * fl32(1/7) rounds to 1);
// each 1x32 tile then gets scale 2^-8 or 2^-7 and q = 256: lossless.
// CHECK-LABEL: func.func @lossless
// CHECK: %[[Q:.*]], %[[S:.*]] = fp8.quantize %{{.*}} {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
// CHECK: %[[RQ:.*]], %[[RS:.*]] = fp8.requantize %[[Q]], %[[S]] {scaling = #fp8.scaling<tile = [128, 128], scale = f32>, to = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>} : tensor<2x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<2x64xf8E4M3FN>, tensor<2x2xf8E8M0FNU>
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[RQ]], %[[RS]] {{{.*}}b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>
// The activation is not selected and keeps its blockwise quantization.
// CHECK-NOT: fp8.requantize
func.func @lossless(%x: tensor<8x64xbf16> {fp8.role = "activation"}, %c: tensor<8x2xf32>) -> tensor<8x2xf32> {
  // expected-remark @+2 {{converting tensor<2x64xf32> from f8E4M3FN #fp8.scaling<tile = [128, 128], scale = f32> to f8E4M3FN #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>: max abs error 0.000e+00, relative RMS 0.000e+00 against the source quantization; against the high-precision values relative RMS 0.000e+00, where quantizing them directly gives 0.000e+00}}
  %w = arith.constant {fp8.role = "weight"} dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0], [2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0, 2.0]]> : tensor<2x64xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<8x64xbf16>, tensor<2x64xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}

// -----

// Ones and 1.5s: the blockwise scale 1.5/448 turns 1.0 into 298.7, rounded
// to 288 (0.964 dequantized); in the first 1x32 tile that value is the amax,
// its power-of-two scale 2^-8 maps it to 246.9, rounded to 240: lossy, and
// the remark says how much.
// CHECK-LABEL: func.func @lossy
func.func @lossy(%x: tensor<8x64xbf16> {fp8.role = "activation"}, %c: tensor<8x1xf32>) -> tensor<8x1xf32> {
  // expected-remark-re @+2 {{max abs error {{[1-9]\.[0-9]{3}e-0[1-3]}}, relative RMS {{[1-9]\.[0-9]{3}e-0[1-3]}} against the source quantization}}
  %w = arith.constant {fp8.role = "weight"} dense<[[1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5, 1.0, 1.5]]> : tensor<1x64xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<8x64xbf16>, tensor<1x64xf32>) outs(%c : tensor<8x1xf32>) -> tensor<8x1xf32>
  return %y : tensor<8x1xf32>
}

// -----

// Values that are not constant are converted, but the error is unknown.
func.func @runtime(%x: tensor<8x64xbf16> {fp8.role = "activation"},
                   %w: tensor<2x64xf32> {fp8.role = "weight"}, %c: tensor<8x2xf32>) -> tensor<8x2xf32> {
  // expected-remark @+1 {{error not measurable at compile time}}
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>, affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %w : tensor<8x64xbf16>, tensor<2x64xf32>) outs(%c : tensor<8x2xf32>) -> tensor<8x2xf32>
  return %y : tensor<8x2xf32>
}
