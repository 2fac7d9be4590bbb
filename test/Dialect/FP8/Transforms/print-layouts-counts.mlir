// The count fp8-print-layouts prints is the number of fp8.quantize ops in
// the IR, for every preset on the linear layer and the MLP block, before
// and after legalization (which reads some quantizations only through
// fp8.transpose: they are executed all the same).
// RUN: for f in %S/../../../../examples/linear_fwd_bwd.mlir %S/../../../../examples/mlp_block.mlir; do \
// RUN:   for r in tensorwise delayed rowwise rowwise_gw_hp blockwise mxfp8 mxfp8_ocp; do \
// RUN:     for legalize in "" --fp8-legalize=chip=sm_90a; do \
// RUN:       fp8-opt $f --fp8-quantize-matmuls=recipe=$r --fp8-derive-scaling $legalize --fp8-print-layouts > %t || exit 1; \
// RUN:       test "$(grep -c '= fp8.quantize' %t)" = "$(sed -n 's|^// \([0-9]*\) quantizations.*|\1|p' %t)" || exit 1; \
// RUN:     done; \
// RUN:   done; \
// RUN: done
// RUN: fp8-opt %s --fp8-derive-scaling --fp8-print-layouts | FileCheck %s

// A weight quantized for Dgrad through a hand-written transpose becomes the
// fp8.transpose of a quantization that no matmul reads directly: it is
// still one quantization, and fresh.
// CHECK: 0  dgrad  b  weight      arg2 {{.*}} transposed
// CHECK-NEXT: 1 quantizations (1 fresh, 0 requantized), 0 reused, 1 transposed
// CHECK-COUNT-1: = fp8.quantize
// CHECK-NOT: = fp8.quantize
func.func @transposed_only(%dyq: tensor<64x256xf8E4M3FN>, %dys: tensor<64x2xf32>,
                           %w: tensor<256x512xbf16>) -> tensor<64x512xf32>
    attributes {fp8.recipe = #fp8.recipe<blockwise>} {
  %e = tensor.empty() : tensor<512x256xbf16>
  %wt = linalg.transpose ins(%w : tensor<256x512xbf16>) outs(%e : tensor<512x256xbf16>) permutation = [1, 0]
  %wq, %ws = fp8.quantize %wt {fp8.role = "weight", scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<512x256xbf16> -> tensor<512x256xf8E4M3FN>, tensor<4x2xf32>
  %y = fp8.scaled_matmul %dyq, %dys, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>, fp8.matmul = "dgrad"}
      : (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>, tensor<512x256xf8E4M3FN>, tensor<4x2xf32>) -> tensor<64x512xf32>
  return %y : tensor<64x512xf32>
}
