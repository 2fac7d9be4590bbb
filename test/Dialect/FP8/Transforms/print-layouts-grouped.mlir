// fp8-print-layouts lists a grouped matmul's operands too: A (all groups'
// rows) and B (every expert's weights), and, once fp8-legalize{chip=sm_90a}
// has made them, A's col_major_tma scales (transposed, "tma").
// RUN: fp8-opt %s --fp8-print-layouts -o /dev/null | FileCheck %s
// RUN: fp8-opt %s --fp8-legalize --fp8-print-layouts -o /dev/null | FileCheck %s --check-prefix=SM90

// CHECK-LABEL: // fp8 layouts of @moe
// CHECK-NEXT: // #  matmul op role
// CHECK-NEXT: // 0  grouped a  -           arg0      1000x256xf8E4M3FN    dim 1    [1, 128]    1000x2xf32         exact       fresh
// CHECK-NEXT: // 0  grouped b  -           -         4x128x256xf8E4M3FN   dim 1    [128, 128]  4x1x2xf32          exact       given
// CHECK-NEXT: // 1 quantizations (1 fresh, 0 requantized), 0 reused, 0 transposed
// SM90: // 0  grouped a  -           arg0      1000x256xf8E4M3FN    dim 1    [1, 128]    2x1000xf32 tma     exact       fresh
// SM90-NEXT: // 0  grouped b  -           -         4x128x256xf8E4M3FN   dim 1    [128, 128]  4x1x2xf32          exact       given
func.func @moe(%x: tensor<1000x256xbf16>, %wq: tensor<4x128x256xf8E4M3FN>, %ws: tensor<4x1x2xf32>, %r: tensor<4xi32>) -> tensor<1000x128xbf16> {
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<1000x256xbf16> -> tensor<1000x256xf8E4M3FN>, tensor<1000x2xf32>
  %y = fp8.grouped_scaled_matmul %xq, %xs, %wq, %ws, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<1000x256xf8E4M3FN>, tensor<1000x2xf32>, tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>, tensor<4xi32>) -> tensor<1000x128xbf16>
  return %y : tensor<1000x128xbf16>
}
