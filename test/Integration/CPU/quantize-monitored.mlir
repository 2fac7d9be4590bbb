// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s

// fp8.quantize_monitored on the CPU reference: its q and scale are those of
// fp8.quantize, and its statistics exact. Saturated counts |x * qscale| above
// fmax + ulp/2 (464 for e4m3: below it rounding alone gives 448); flushed
// counts nonzero, non-NaN x whose FP8 code is ±0. Values are printed as
// raw bits (f32 patterns, FP8 bytes) or integers.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @print_e4m3(%q: tensor<?x?xf8E4M3FN>) {
  %b = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  %i = arith.extui %b : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %i : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_f32_bits(%s: tensor<?x?xf32>) {
  %b = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_counts(%c: tensor<2xi64>) {
  %i = arith.trunci %c : tensor<2xi64> to tensor<2xi32>
  %u = tensor.cast %i : tensor<2xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  // Tensorwise, delayed: the given amax 10 (smaller than the data's) gives
  // qscale = fl32(448 / 10) = 44.8. Saturated (|x| > 464 / 44.8 = 10.357):
  // 100, -240, 12.5, +inf, 10.4 (465.9) = 5; 10.3 (461.4) rounds to 448
  // without the clamp and is not counted; NaN is not counted. Flushed
  // (|x * 44.8| below 2^-10, half e4m3's smallest subnormal): 1e-6 and
  // -1e-7 = 2; the zeros are not counted. The data's amax is NaN.
  %x = arith.constant dense<[[1.0, -3.5, 0.25, 7.0, -0.0, 100.0, -240.0, 12.5],
                             [1.0e-6, 2.0, 0x7FC00000, 0x7F800000, 10.4, 10.3, 0.0, -1.0e-7]]> : tensor<2x8xf32>
  %a = arith.constant dense<10.0> : tensor<1x1xf32>
  %q, %s, %ta, %n = fp8.quantize_monitored %x amax(%a : tensor<1x1xf32>)
      {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x8xf32> -> tensor<2x8xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>
  %pq, %ps = fp8.quantize %x amax(%a : tensor<1x1xf32>)
      {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x8xf32> -> tensor<2x8xf8E4M3FN>, tensor<1x1xf32>
  // The data and scale of fp8.quantize, bit for bit.
  // CHECK:      [[ROW0:\[\[[0-9].*]]
  // Row 1: 1e-6 -> +0; 2 -> 0x6B; NaN stays 0x7F; +inf, 10.4 and 10.3 ->
  // 448 = 0x7E; 0 -> 0; -1e-7 -> -0 (0x80).
  // CHECK-NEXT: [[ROW1:\[0, 107, 127, 126, 126, 126, 0, 128\]\]]]
  // CHECK:      [[ROW0]]
  // CHECK-NEXT: [[ROW1]]
  %qd = tensor.cast %q : tensor<2x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @print_e4m3(%qd) : (tensor<?x?xf8E4M3FN>) -> ()
  %pqd = tensor.cast %pq : tensor<2x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @print_e4m3(%pqd) : (tensor<?x?xf8E4M3FN>) -> ()
  // Scales: 1 / 44.8 = 0.022321429 (0x3CB6DB6E) both.
  // CHECK: {{^}}{{\[\[}}1018616686]]
  // CHECK: {{^}}{{\[\[}}1018616686]]
  %sd = tensor.cast %s : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32_bits(%sd) : (tensor<?x?xf32>) -> ()
  %psd = tensor.cast %ps : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32_bits(%psd) : (tensor<?x?xf32>) -> ()
  // tile_amax: the data's NaN (0x7FC00000), not the given 10.
  // CHECK: {{^}}{{\[\[}}2143289344]]
  %tad = tensor.cast %ta : tensor<1x1xf32> to tensor<?x?xf32>
  call @print_f32_bits(%tad) : (tensor<?x?xf32>) -> ()
  // CHECK: {{^}}[5, 2]
  call @print_counts(%n) : (tensor<2xi64>) -> ()

  // 1x128 tiles, current scaling, bf16: ones, and
  //   tile (0, 0): 300 (its amax) and 1e-4 (* 448 / 300 = 1.5e-4: flushed);
  //   tile (0, 1): -2 (its amax);
  //   tile (1, 0): +0 and -0 (zeros are not flushed), amax 1;
  //   tile (1, 1): +inf: exact qscale = 448 / inf = 0, the other 127 ones
  //   are flushed, inf * 0 is NaN (neither count).
  // No saturation: each tile's amax maps to 448 up to one f32 rounding.
  %ones = arith.constant dense<1.0> : tensor<2x256xbf16>
  %v300 = arith.constant 300.0 : bf16
  %vsmall = arith.constant 1.0e-4 : bf16
  %vm2 = arith.constant -2.0 : bf16
  %vz = arith.constant 0.0 : bf16
  %vnz = arith.constant -0.0 : bf16
  %vinf = arith.constant 0x7F80 : bf16
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c130 = arith.constant 130 : index
  %c200 = arith.constant 200 : index
  %y0 = tensor.insert %v300 into %ones[%c0, %c5] : tensor<2x256xbf16>
  %y1 = tensor.insert %vsmall into %y0[%c0, %c6] : tensor<2x256xbf16>
  %y2 = tensor.insert %vm2 into %y1[%c0, %c130] : tensor<2x256xbf16>
  %y3 = tensor.insert %vz into %y2[%c1, %c0] : tensor<2x256xbf16>
  %y4 = tensor.insert %vnz into %y3[%c1, %c1] : tensor<2x256xbf16>
  %y = tensor.insert %vinf into %y4[%c1, %c200] : tensor<2x256xbf16>
  %q2, %s2, %ta2, %n2 = fp8.quantize_monitored %y
      {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<2x256xbf16> -> tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi64>
  // tile_amax: 300 (0x43960000), 2 (0x40000000); 1 (0x3F800000), +inf.
  // CHECK:      {{^}}{{\[\[}}1133903872, 1073741824],
  // CHECK-NEXT: {{^}} [1065353216, 2139095040]]
  %ta2d = tensor.cast %ta2 : tensor<2x2xf32> to tensor<?x?xf32>
  call @print_f32_bits(%ta2d) : (tensor<?x?xf32>) -> ()
  // CHECK: {{^}}[0, 128]
  call @print_counts(%n2) : (tensor<2xi64>) -> ()

  // The same tiles with a margin of 3 (qscale / 8): 1e-4 is still
  // flushed, and nothing saturates.
  %q3, %s3, %ta3, %n3 = fp8.quantize_monitored %y
      {margin = 3 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<2x256xbf16> -> tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xi64>
  // CHECK: {{^}}[0, 128]
  call @print_counts(%n3) : (tensor<2xi64>) -> ()

  // e5m2 at its threshold: fmax 57344 has an odd last mantissa bit, so the
  // tie 61440 would round to 65536 and the clamp changes it: counted, as is
  // 61441; 61439 rounds to 57344 and 57344 is fmax (neither counted).
  // qscale = 57344 / 57344 = 1.
  // CHECK: {{^}}[2, 0]
  %x5 = arith.constant dense<[[61440.0, 61439.0, 61441.0, 57344.0]]> : tensor<1x4xf32>
  %a5 = arith.constant dense<57344.0> : tensor<1x1xf32>
  %q5, %s5, %t5, %n5 = fp8.quantize_monitored %x5 amax(%a5 : tensor<1x1xf32>)
      {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<2xi64>
  call @print_counts(%n5) : (tensor<2xi64>) -> ()
  return
}
