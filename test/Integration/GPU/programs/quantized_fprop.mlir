// An Fprop written at the fp8 level, whose quantizations are results too:
// the launch plan's quantize kernels write results that later launches
// (the scale alignment fp8-legalize inserts, the GEMM) read, so
// check_program.py's replay compares them bit for bit and checks the GEMM
// on the GPU's own operands. make check-gpu compiles it with the same
// passes as the other programs (the recipe has no matmul to rewrite here).
// RUN: rm -rf %t && fp8-opt %s --fp8-legalize --canonicalize --fp8-emit=dir=%t > /dev/null
// RUN: %fp8-run %t/manifest.json --function quantized_fprop --iters 0 --dump %t/dump
// RUN: %check-program %t/dump %t/manifest.json
func.func @quantized_fprop(%x: tensor<512x1024xbf16>, %w: tensor<768x1024xbf16>)
    -> (tensor<512x1024xf8E4M3FN>, tensor<512x8xf32>,
        tensor<768x1024xf8E4M3FN>, tensor<6x8xf32>, tensor<512x768xbf16>) {
  %qx, %sx = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<512x1024xbf16> -> tensor<512x1024xf8E4M3FN>, tensor<512x8xf32>
  %qw, %sw = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<768x1024xbf16> -> tensor<768x1024xf8E4M3FN>, tensor<6x8xf32>
  %y = fp8.scaled_matmul %qx, %sx, %qw, %sw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<512x1024xf8E4M3FN>, tensor<512x8xf32>, tensor<768x1024xf8E4M3FN>, tensor<6x8xf32>) -> tensor<512x768xbf16>
  return %qx, %sx, %qw, %sw, %y : tensor<512x1024xf8E4M3FN>, tensor<512x8xf32>,
                                  tensor<768x1024xf8E4M3FN>, tensor<6x8xf32>, tensor<512x768xbf16>
}
