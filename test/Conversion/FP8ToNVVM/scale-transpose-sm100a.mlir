// fp8-legalize{chip=sm_100a} transposes an MN-major operand's [K/32, rows]
// E8M0 scales before fp8.tcgen05_scales: a linalg.transpose that only moves
// bytes gets an elementwise kernel, while a linalg op that computes on
// 8-bit floats is still refused.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm=chip=sm_100a
// RUN: rm -rf %t && mkdir %t
// RUN: sed "/^\/\/ -----/,\$d" %s > %t/transpose.mlir
// RUN: fp8-opt %t/transpose.mlir --fp8-emit="dir=%t chip=sm_100a" -o /dev/null
// RUN: FileCheck %s < %t/transpose_scales_transpose_0.ptx

// The transpose kernel loads and stores bytes, element by element.
// CHECK: .target sm_100a
// CHECK: ld.global.b8
// CHECK: st.global.b8
func.func @transpose_scales(%s: tensor<8x512xf8E8M0FNU>) -> tensor<512x8xf8E8M0FNU> {
  %e = tensor.empty() : tensor<512x8xf8E8M0FNU>
  %t = linalg.transpose ins(%s : tensor<8x512xf8E8M0FNU>) outs(%e : tensor<512x8xf8E8M0FNU>) permutation = [1, 0]
  return %t : tensor<512x8xf8E8M0FNU>
}

// -----

// Arithmetic on FP8 elements has no kernel (the fp8 ops carry it).
func.func @negate(%x: tensor<64xf8E4M3FN>) -> tensor<64xf8E4M3FN> {
  %e = tensor.empty() : tensor<64xf8E4M3FN>
  // expected-error @+1 {{convert-fp8-to-nvvm: 8-bit float tensors in a linalg op have no kernel (use fp8 ops)}}
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<64xf8E4M3FN>) outs(%e : tensor<64xf8E4M3FN>) {
  ^bb0(%a: f8E4M3FN, %o: f8E4M3FN):
    %n = arith.negf %a : f8E4M3FN
    linalg.yield %n : f8E4M3FN
  } -> tensor<64xf8E4M3FN>
  return %y : tensor<64xf8E4M3FN>
}
