// An unknown recipe, an unparsable one, and stochastic gradients without a
// seed argument are reported, and fp8-opt fails.
// RUN: not fp8-opt %s --fp8-quantize-matmuls=recipe=deepseek 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<blockwise, hadamard = 3>"' 2>&1 | FileCheck %s --check-prefix=BAD
// RUN: not fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<blockwise, stochastic_gradients = true>"' 2>&1 | FileCheck %s --check-prefix=SEED
// A full recipe given as an attribute is used as written.
// RUN: fp8-opt %s '--fp8-quantize-matmuls=recipe="#fp8.recipe<mxfp8, accumulate = fast>"' | FileCheck %s --check-prefix=FULL

// UNKNOWN: error: unknown recipe 'deepseek', expected one of tensorwise, delayed, rowwise, rowwise_gw_hp, blockwise, mxfp8, mxfp8_ocp or a #fp8.recipe<...> attribute
// BAD: error: hadamard size must be 0 or a power of two, got 3
// SEED: error: the recipe rounds gradients stochastically: add an i64 argument marked {fp8.seed} to @dgrad
// FULL: fp8.scaled_matmul {{.*}}accumulate = #fp8.accumulate<fast>
// FULL-SAME: fp8.matmul = "dgrad"

func.func @dgrad(%dy: tensor<64x128xbf16> {fp8.role = "gradient"},
                 %w: tensor<128x256xbf16> {fp8.role = "weight"},
                 %c: tensor<64x256xf32>) -> tensor<64x256xf32> {
  %y = linalg.matmul ins(%dy, %w : tensor<64x128xbf16>, tensor<128x256xbf16>) outs(%c : tensor<64x256xf32>) -> tensor<64x256xf32>
  return %y : tensor<64x256xf32>
}
