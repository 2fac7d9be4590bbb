// Every preset on one linear layer: the exact storage tiles, scale shapes,
// number of quantizations and reuse decisions that fp8-derive-scaling makes.
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=tensorwise --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=TENSORWISE
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=delayed --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=DELAYED
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=rowwise --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=ROWWISE
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=rowwise_gw_hp --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=ROWWISEGWHP
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=BLOCKWISE
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=BLOCKWISE-SM90
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=mxfp8 --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=MXFP8
// RUN: fp8-opt %s --fp8-quantize-matmuls=recipe=mxfp8_ocp --fp8-derive-scaling --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=MXFP8OCP

#fprop = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
          affine_map<(m, n, k) -> (m, n)>]
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
func.func @linear_fwd_bwd(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                          %w: tensor<1024x512xbf16> {fp8.role = "weight"},
                          %dy: tensor<256x1024xbf16> {fp8.role = "gradient"})
    -> (tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>) {
  %zero = arith.constant 0.0 : bf16
  %zero32 = arith.constant 0.0 : f32

  %y0 = tensor.empty() : tensor<256x1024xbf16>
  %yi = linalg.fill ins(%zero : bf16) outs(%y0 : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>
  %y = linalg.matmul indexing_maps = #fprop
         ins(%x, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>)
         outs(%yi : tensor<256x1024xbf16>) -> tensor<256x1024xbf16>

  %dx0 = tensor.empty() : tensor<256x512xbf16>
  %dxi = linalg.fill ins(%zero : bf16) outs(%dx0 : tensor<256x512xbf16>) -> tensor<256x512xbf16>
  %dx = linalg.matmul ins(%dy, %w : tensor<256x1024xbf16>, tensor<1024x512xbf16>)
          outs(%dxi : tensor<256x512xbf16>) -> tensor<256x512xbf16>

  %dw0 = tensor.empty() : tensor<1024x512xf32>
  %dwi = linalg.fill ins(%zero32 : f32) outs(%dw0 : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  %dw = linalg.matmul indexing_maps = #wgrad
          ins(%dy, %x : tensor<256x1024xbf16>, tensor<256x512xbf16>)
          outs(%dwi : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  return %y, %dx, %dw : tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>
}

// TENSORWISE: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<tensorwise>
// TENSORWISE-NEXT: #  matmul op role        source   storage              contract tile        scales             round       decision
// TENSORWISE-NEXT: 0  fprop  a  activation  arg0     256x512xf8E4M3FN     dim 1    [*, *]      1x1xf32            exact       fresh
// TENSORWISE-NEXT: 0  fprop  b  weight      arg1     1024x512xf8E4M3FN    dim 1    [*, *]      1x1xf32            exact       fresh
// TENSORWISE-NEXT: 1  dgrad  a  gradient    arg2     256x1024xf8E5M2      dim 1    [*, *]      1x1xf32            exact       fresh
// TENSORWISE-NEXT: 1  dgrad  b  weight      arg1     1024x512xf8E4M3FN    dim 0    [*, *]      1x1xf32            exact       reused
// TENSORWISE-NEXT: 2  wgrad  a  gradient    arg2     256x1024xf8E5M2      dim 0    [*, *]      1x1xf32            exact       reused
// TENSORWISE-NEXT: 2  wgrad  b  activation  arg0     256x512xf8E4M3FN     dim 0    [*, *]      1x1xf32            exact       reused
// TENSORWISE-NEXT: 3 quantizations (3 fresh, 0 requantized), 3 reused, 0 transposed

// DELAYED: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<delayed>
// DELAYED-NEXT: #  matmul op role        source   storage              contract tile        scales             round       decision
// DELAYED-NEXT: 0  fprop  a  activation  arg0     256x512xf8E4M3FN     dim 1    [*, *]      1x1xf32            exact       fresh
// DELAYED-NEXT: 0  fprop  b  weight      arg1     1024x512xf8E4M3FN    dim 1    [*, *]      1x1xf32            exact       fresh
// DELAYED-NEXT: 1  dgrad  a  gradient    arg2     256x1024xf8E5M2      dim 1    [*, *]      1x1xf32            exact       fresh
// DELAYED-NEXT: 1  dgrad  b  weight      arg1     1024x512xf8E4M3FN    dim 0    [*, *]      1x1xf32            exact       reused
// DELAYED-NEXT: 2  wgrad  a  gradient    arg2     256x1024xf8E5M2      dim 0    [*, *]      1x1xf32            exact       reused
// DELAYED-NEXT: 2  wgrad  b  activation  arg0     256x512xf8E4M3FN     dim 0    [*, *]      1x1xf32            exact       reused
// DELAYED-NEXT: 3 quantizations (3 fresh, 0 requantized), 3 reused, 0 transposed

// ROWWISE: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<rowwise>
// ROWWISE-NEXT: #  matmul op role        source   storage              contract tile        scales             round       decision
// ROWWISE-NEXT: 0  fprop  a  activation  arg0     256x512xf8E4M3FN     dim 1    [1, *]      256x1xf32          pow2_ceil   fresh
// ROWWISE-NEXT: 0  fprop  b  weight      arg1     1024x512xf8E4M3FN    dim 1    [1, *]      1024x1xf32         pow2_ceil   fresh
// ROWWISE-NEXT: 1  dgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 1    [1, *]      256x1xf32          pow2_ceil   fresh
// ROWWISE-NEXT: 1  dgrad  b  weight      arg1     1024x512xf8E4M3FN    dim 0    [*, 1]      1x512xf32          pow2_ceil   requantized
// ROWWISE-NEXT: 2  wgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 0    [*, 1]      1x1024xf32         pow2_ceil   requantized
// ROWWISE-NEXT: 2  wgrad  b  activation  arg0     256x512xf8E4M3FN     dim 0    [*, 1]      1x512xf32          pow2_ceil   requantized
// ROWWISE-NEXT: 6 quantizations (3 fresh, 3 requantized), 0 reused, 0 transposed

// ROWWISEGWHP: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<rowwise_gw_hp>
// ROWWISEGWHP-NEXT: #  matmul op role        source   storage              contract tile        scales             round       decision
// ROWWISEGWHP-NEXT: 0  fprop  a  activation  arg0     256x512xf8E4M3FN     dim 1    [1, *]      256x1xf32          exact       fresh
// ROWWISEGWHP-NEXT: 0  fprop  b  weight      arg1     1024x512xf8E4M3FN    dim 1    [1, *]      1024x1xf32         exact       fresh
// ROWWISEGWHP-NEXT: 1  dgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 1    [1, *]      256x1xf32          exact       fresh
// ROWWISEGWHP-NEXT: 1  dgrad  b  weight      arg1     1024x512xf8E4M3FN    dim 0    [*, 1]      1x512xf32          exact       requantized
// ROWWISEGWHP-NEXT: 4 quantizations (3 fresh, 1 requantized), 0 reused, 0 transposed

// BLOCKWISE: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<blockwise>
// BLOCKWISE-NEXT: #  matmul op role        source   storage              contract tile        scales             round       decision
// BLOCKWISE-NEXT: 0  fprop  a  activation  arg0     256x512xf8E4M3FN     dim 1    [1, 128]    256x4xf32          exact       fresh
// BLOCKWISE-NEXT: 0  fprop  b  weight      arg1     1024x512xf8E4M3FN    dim 1    [128, 128]  8x4xf32            exact       fresh
// BLOCKWISE-NEXT: 1  dgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 1    [1, 128]    256x8xf32          exact       fresh
// BLOCKWISE-NEXT: 1  dgrad  b  weight      arg1     1024x512xf8E4M3FN    dim 0    [128, 128]  8x4xf32            exact       reused
// BLOCKWISE-NEXT: 2  wgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 0    [128, 1]    2x1024xf32         exact       requantized
// BLOCKWISE-NEXT: 2  wgrad  b  activation  arg0     256x512xf8E4M3FN     dim 0    [128, 1]    2x512xf32          exact       requantized
// BLOCKWISE-NEXT: 5 quantizations (3 fresh, 2 requantized), 1 reused, 0 transposed

// After fp8-legalize{chip=sm_90a}: every operand K-major (W transposed for
// Dgrad, dY and X requantized transposed for Wgrad) and the 1x128 scales in
// the col_major_tma layout ("tma": transposed, rows padded to 16 bytes).
// BLOCKWISE-SM90: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<blockwise>
// BLOCKWISE-SM90-NEXT: #  matmul op role        source    storage              contract tile        scales             round       decision
// BLOCKWISE-SM90-NEXT: 0  fprop  a  activation  arg0      256x512xf8E4M3FN     dim 1    [1, 128]    4x256xf32 tma      exact       fresh
// BLOCKWISE-SM90-NEXT: 0  fprop  b  weight      arg1      1024x512xf8E4M3FN    dim 1    [128, 128]  8x4xf32            exact       fresh
// BLOCKWISE-SM90-NEXT: 1  dgrad  a  gradient    arg2      256x1024xf8E4M3FN    dim 1    [1, 128]    8x256xf32 tma      exact       fresh
// BLOCKWISE-SM90-NEXT: 1  dgrad  b  weight      arg1      512x1024xf8E4M3FN    dim 1    [128, 128]  4x8xf32            exact       transposed
// BLOCKWISE-SM90-NEXT: 2  wgrad  a  gradient    arg2^T    1024x256xf8E4M3FN    dim 1    [1, 128]    2x1024xf32 tma     exact       requantized
// BLOCKWISE-SM90-NEXT: 2  wgrad  b  activation  arg0^T    512x256xf8E4M3FN     dim 1    [1, 128]    2x512xf32 tma      exact       requantized
// BLOCKWISE-SM90-NEXT: 5 quantizations (3 fresh, 2 requantized), 0 reused, 1 transposed

// MXFP8: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<mxfp8>
// MXFP8-NEXT: #  matmul op role        source   storage              contract tile        scales             round       decision
// MXFP8-NEXT: 0  fprop  a  activation  arg0     256x512xf8E4M3FN     dim 1    [1, 32]     256x16xf8E8M0FNU   pow2_ceil   fresh
// MXFP8-NEXT: 0  fprop  b  weight      arg1     1024x512xf8E4M3FN    dim 1    [1, 32]     1024x16xf8E8M0FNU  pow2_ceil   fresh
// MXFP8-NEXT: 1  dgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 1    [1, 32]     256x32xf8E8M0FNU   pow2_ceil   fresh
// MXFP8-NEXT: 1  dgrad  b  weight      arg1     1024x512xf8E4M3FN    dim 0    [32, 1]     32x512xf8E8M0FNU   pow2_ceil   requantized
// MXFP8-NEXT: 2  wgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 0    [32, 1]     8x1024xf8E8M0FNU   pow2_ceil   requantized
// MXFP8-NEXT: 2  wgrad  b  activation  arg0     256x512xf8E4M3FN     dim 0    [32, 1]     8x512xf8E8M0FNU    pow2_ceil   requantized
// MXFP8-NEXT: 6 quantizations (3 fresh, 3 requantized), 0 reused, 0 transposed

// MXFP8OCP: fp8 layouts of @linear_fwd_bwd under #fp8.recipe<mxfp8_ocp>
// MXFP8OCP-NEXT: #  matmul op role        source   storage              contract tile        scales             round       decision
// MXFP8OCP-NEXT: 0  fprop  a  activation  arg0     256x512xf8E4M3FN     dim 1    [1, 32]     256x16xf8E8M0FNU   pow2_floor  fresh
// MXFP8OCP-NEXT: 0  fprop  b  weight      arg1     1024x512xf8E4M3FN    dim 1    [1, 32]     1024x16xf8E8M0FNU  pow2_floor  fresh
// MXFP8OCP-NEXT: 1  dgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 1    [1, 32]     256x32xf8E8M0FNU   pow2_floor  fresh
// MXFP8OCP-NEXT: 1  dgrad  b  weight      arg1     1024x512xf8E4M3FN    dim 0    [32, 1]     32x512xf8E8M0FNU   pow2_floor  requantized
// MXFP8OCP-NEXT: 2  wgrad  a  gradient    arg2     256x1024xf8E4M3FN    dim 0    [32, 1]     8x1024xf8E8M0FNU   pow2_floor  requantized
// MXFP8OCP-NEXT: 2  wgrad  b  activation  arg0     256x512xf8E4M3FN     dim 0    [32, 1]     8x512xf8E8M0FNU    pow2_floor  requantized
// MXFP8OCP-NEXT: 6 quantizations (3 fresh, 3 requantized), 0 reused, 0 transposed

