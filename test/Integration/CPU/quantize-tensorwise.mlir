// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py quantize-tensorwise | FileCheck %s

// Tensorwise quantization ([*, *] tiles) of one 2x8 tensor with every scale
// rule, to e4m3 and to e5m2. amax = |-240| = 240 = 1.875 * 2^7, chosen so
// that the two power-of-two rules disagree:
//   exact      qscale = fl32(fmax / 240), stored = fl32(1 / qscale)
//   pow2_ceil  d = fl32(240 * fl32(1 / fmax)), rounded up to 2^k; qscale = 2^-k
//   pow2_floor qscale = 2^-(floor(log2 240) - emax) = 2^-(7 - emax)
// Data codes are printed as raw bytes; f32 scales as their bits.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

// Raw bits of FP8 / E8M0 / f32 tensors, printed as i32.
func.func @print_e4m3(%q: tensor<?x?xf8E4M3FN>) {
  %b = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  %i = arith.extui %b : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %i : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_e5m2(%q: tensor<?x?xf8E5M2>) {
  %b = arith.bitcast %q : tensor<?x?xf8E5M2> to tensor<?x?xi8>
  %i = arith.extui %b : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %i : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_e8m0(%s: tensor<?x?xf8E8M0FNU>) {
  %b = arith.bitcast %s : tensor<?x?xf8E8M0FNU> to tensor<?x?xi8>
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

func.func @main() {
  %x = arith.constant dense<[[1.0, -3.5, 0.25, 7.0, -0.0, 100.0, -240.0, 12.5],
                             [0.001, 2.0, -6.0, 150.0, 31.0, -0.5, 64.0, 9.0]]> : tensor<2x8xf32>

  // e4m3 exact: qscale = fl32(448 / 240) = 1.8666667 (0x3FEEEEEF, rounded up),
  // stored = fl32(1 / 0x3FEEEEEF) = 0.53571427 (0x3F092492 = 1057563794).
  // 1.0 -> 1.8666667 rounds to 1.875 = 0x3F = 63; -240 -> -448.00002 is
  // clamped to -448 = 0xFE = 254; 0.001 -> 0.0018667 = 0.96 quanta of 2^-9
  // -> 0x01;
  // -0.0 -> 0x80 = 128.
  %q0, %s0 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x8xf32> -> tensor<2x8xf8E4M3FN>, tensor<1x1xf32>
  %qd0 = tensor.cast %q0 : tensor<2x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd0 = tensor.cast %s0 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [63, 205, 47, 85, 128, 116, 254, 92]
  // CHECK-NEXT: [1, 71, 211, 121, 102, 183, 111, 88]
  call @print_e4m3(%qd0) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1057563794]
  call @print_f32_bits(%sd0) : (tensor<?x?xf32>) -> ()

  // e4m3 pow2_ceil: d = 240 * fl32(1/448) = 0.5357 -> 2^0: qscale 1, stored
  // 1.0 = 0x3F800000 = 1065353216. -240 = -1.875 * 2^7 -> 0x80 | (14 << 3 | 7)
  // = 247; 1.0 -> 0x38 = 56.
  %q1, %s1 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_ceil>}
      : tensor<2x8xf32> -> tensor<2x8xf8E4M3FN>, tensor<1x1xf32>
  %qd1 = tensor.cast %q1 : tensor<2x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd1 = tensor.cast %s1 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 198, 40, 78, 128, 108, 247, 84]
  // CHECK-NEXT: [1, 64, 204, 113, 96, 176, 104, 81]
  call @print_e4m3(%qd1) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1065353216]
  call @print_f32_bits(%sd1) : (tensor<?x?xf32>) -> ()

  // e4m3 pow2_floor (OCP): 2^(7 - 8) = 0.5 = 0x3F000000 = 1056964608, qscale 2:
  // -240 -> -480 is past 448 and clamped -> 254 (the OCP rule's overflow);
  // 1.0 -> 2.0 = 0x40 = 64.
  %q2, %s2 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_floor>}
      : tensor<2x8xf32> -> tensor<2x8xf8E4M3FN>, tensor<1x1xf32>
  %qd2 = tensor.cast %q2 : tensor<2x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd2 = tensor.cast %s2 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [64, 206, 48, 86, 128, 116, 254, 92]
  // CHECK-NEXT: [1, 72, 212, 121, 104, 184, 112, 89]
  call @print_e4m3(%qd2) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1056964608]
  call @print_f32_bits(%sd2) : (tensor<?x?xf32>) -> ()

  // The same two rules with E8M0 scales: the codes are the biased exponents,
  // 127 (2^0) for pow2_ceil and 126 (2^-1) for pow2_floor; data as above.
  %q3, %s3 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<2x8xf32> -> tensor<2x8xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
  %qd3 = tensor.cast %q3 : tensor<2x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd3 = tensor.cast %s3 : tensor<1x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 198, 40, 78, 128, 108, 247, 84]
  // CHECK-NEXT: [1, 64, 204, 113, 96, 176, 104, 81]
  call @print_e4m3(%qd3) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [127]
  call @print_e8m0(%sd3) : (tensor<?x?xf8E8M0FNU>) -> ()

  %q4, %s4 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<2x8xf32> -> tensor<2x8xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
  %qd4 = tensor.cast %q4 : tensor<2x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd4 = tensor.cast %s4 : tensor<1x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [64, 206, 48, 86, 128, 116, 254, 92]
  // CHECK-NEXT: [1, 72, 212, 121, 104, 184, 112, 89]
  call @print_e4m3(%qd4) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [126]
  call @print_e8m0(%sd4) : (tensor<?x?xf8E8M0FNU>) -> ()

  // e5m2 exact: qscale = fl32(57344 / 240) = 238.93333 (0x436EEEEF), stored
  // fl32(1 / qscale) = 0x3B892492 = 998843538; -240 -> -57344.0002 -> clamped
  // -57344 = 0xFB = 251; 1.0 -> 238.9 lies between 224 (0x5B) and 256 (0x5C),
  // nearer 224 -> 91.
  %q5, %s5 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x8xf32> -> tensor<2x8xf8E5M2>, tensor<1x1xf32>
  %qd5 = tensor.cast %q5 : tensor<2x8xf8E5M2> to tensor<?x?xf8E5M2>
  %sd5 = tensor.cast %s5 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [91, 227, 83, 103, 128, 118, 251, 106]
  // CHECK-NEXT: [52, 95, 230, 120, 111, 215, 115, 104]
  call @print_e5m2(%qd5) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [998843538]
  call @print_f32_bits(%sd5) : (tensor<?x?xf32>) -> ()

  // e5m2 pow2_ceil: d = 240 * fl32(1/57344) = 0.0041853 -> 2^-7 = 0x3C000000
  // = 1006632960, qscale 128: -240 -> -30720 = -1.875 * 2^14, a tie between
  // 1.75 * 2^14 (odd mantissa) and 2^15 (even) -> -2^15 = 0x80 | (30 << 2)
  // = 248.
  %q6, %s6 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_ceil>}
      : tensor<2x8xf32> -> tensor<2x8xf8E5M2>, tensor<1x1xf32>
  %qd6 = tensor.cast %q6 : tensor<2x8xf8E5M2> to tensor<?x?xf8E5M2>
  %sd6 = tensor.cast %s6 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [88, 223, 80, 99, 128, 114, 248, 102]
  // CHECK-NEXT: [48, 92, 226, 117, 108, 212, 112, 100]
  call @print_e5m2(%qd6) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1006632960]
  call @print_f32_bits(%sd6) : (tensor<?x?xf32>) -> ()

  // e5m2 pow2_floor: 2^(7 - 15) = 2^-8 = 0x3B800000 = 998244352, qscale 256:
  // -240 -> -61440 -> clamped to -57344 = 251.
  %q7, %s7 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32, round = pow2_floor>}
      : tensor<2x8xf32> -> tensor<2x8xf8E5M2>, tensor<1x1xf32>
  %qd7 = tensor.cast %q7 : tensor<2x8xf8E5M2> to tensor<?x?xf8E5M2>
  %sd7 = tensor.cast %s7 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [92, 227, 84, 103, 128, 118, 251, 106]
  // CHECK-NEXT: [52, 96, 230, 121, 112, 216, 116, 104]
  call @print_e5m2(%qd7) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [998244352]
  call @print_f32_bits(%sd7) : (tensor<?x?xf32>) -> ()

  // E8M0 codes 127 - 7 = 120 (pow2_ceil) and 127 - 8 = 119 (pow2_floor).
  %q8, %s8 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<2x8xf32> -> tensor<2x8xf8E5M2>, tensor<1x1xf8E8M0FNU>
  %qd8 = tensor.cast %q8 : tensor<2x8xf8E5M2> to tensor<?x?xf8E5M2>
  %sd8 = tensor.cast %s8 : tensor<1x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [88, 223, 80, 99, 128, 114, 248, 102]
  // CHECK-NEXT: [48, 92, 226, 117, 108, 212, 112, 100]
  call @print_e5m2(%qd8) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [120]
  call @print_e8m0(%sd8) : (tensor<?x?xf8E8M0FNU>) -> ()

  %q9, %s9 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<2x8xf32> -> tensor<2x8xf8E5M2>, tensor<1x1xf8E8M0FNU>
  %qd9 = tensor.cast %q9 : tensor<2x8xf8E5M2> to tensor<?x?xf8E5M2>
  %sd9 = tensor.cast %s9 : tensor<1x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [92, 227, 84, 103, 128, 118, 251, 106]
  // CHECK-NEXT: [52, 96, 230, 121, 112, 216, 116, 104]
  call @print_e5m2(%qd9) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [119]
  call @print_e8m0(%sd9) : (tensor<?x?xf8E8M0FNU>) -> ()
  return
}
