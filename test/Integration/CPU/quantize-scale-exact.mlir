// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py quantize-scale-exact | FileCheck %s

// The f32 scale rule `exact` to the bit (torchao's amax_to_scale):
//   qscale = fl32(fmax / 2^margin / amax), an IEEE division, not a multiply
//            by fl32(1 / amax); amax <= fl32(1e-12) = 0x2B8CBCCC gives the
//            constant fl32(fmax / 1e-12): 0x57CBBA10 (e4m3), 0x5B4BBA10 (e5m2)
//   stored = fl32(1 / qscale) (div.rn), not fl32(amax / fmax)
// plus the margin and delayed scaling (amax from the `amax` operand).

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
  // amax 0x3F800103: qscale = fl32(448 / amax) = 0x43DFFE3B, stored
  // fl32(1 / 0x43DFFE3B) = 0x3B124A4C = 991054412, while fl32(amax / 448)
  // would be 0x3B124A4D.
  %x0 = arith.constant dense<[[0x3F800103, -0.5]]> : tensor<1x2xf32>

  %q0, %s0 = fp8.quantize %x0 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x2xf32> -> tensor<1x2xf8E4M3FN>, tensor<1x1xf32>
  %qd0 = tensor.cast %q0 : tensor<1x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd0 = tensor.cast %s0 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [991054412]
  call @print_f32_bits(%sd0) : (tensor<?x?xf32>) -> ()

  // amax 0x3F80004A: qscale = fl32(448 / amax) = 0x43DFFF7F (448 *
  // fl32(1 / amax) would be 0x43DFFF7E). x = 0x381B6E11 times 0x43DFFF7F is
  // 0.016601564, just above the tie 8.5 * 2^-9 between 0x08 and 0x09 -> 9;
  // times 0x43DFFF7E it would be the tie itself and round to the even 0x08.
  %x1 = arith.constant dense<[[0x3F80004A, 0x381B6E11]]> : tensor<1x2xf32>

  %q1, %s1 = fp8.quantize %x1 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x2xf32> -> tensor<1x2xf8E4M3FN>, tensor<1x1xf32>
  %qd1 = tensor.cast %q1 : tensor<1x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd1 = tensor.cast %s1 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [126, 9]
  call @print_e4m3(%qd1) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [991054201]
  call @print_f32_bits(%sd1) : (tensor<?x?xf32>) -> ()

  // Rowwise, around the 1e-12 clamp. Row 0: amax = 0x2B8CBCCC = fl32(1e-12)
  // <= the clamp -> qscale 0x57CBBA10, stored fl32(1 / 4.4799999e14) =
  // 0x2720D7C5 = 656463813; data fl32(1e-12) * 0x57CBBA10 = 447.99997 -> 126.
  // Row 1: amax one ulp above -> divided: qscale 0x57CBBA0F, stored
  // 0x2720D7C6. Row 2: amax 0 -> the constant, data 0. Row 3: amax 2^-149 ->
  // the constant; data 2^-149 * 4.48e14 = 6.3e-31 -> 0.
  %c = arith.constant dense<[[0x2B8CBCCC, 0.0], [0x2B8CBCCD, 0.0], [0.0, -0.0],
                             [0x00000001, 0.0]]> : tensor<4x2xf32>

  %q2, %s2 = fp8.quantize %c {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<4x2xf32> -> tensor<4x2xf8E4M3FN>, tensor<4x1xf32>
  %qd2 = tensor.cast %q2 : tensor<4x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd2 = tensor.cast %s2 : tensor<4x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [126, 0]
  // CHECK-NEXT: [126, 0]
  // CHECK-NEXT: [0, 128]
  // CHECK-NEXT: [0, 0]
  call @print_e4m3(%qd2) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [656463813]
  // CHECK-NEXT: [656463814]
  // CHECK-NEXT: [656463813]
  // CHECK-NEXT: [656463813]
  call @print_f32_bits(%sd2) : (tensor<?x?xf32>) -> ()

  // e5m2: the constant 0x5B4BBA10, stored fl32(1 / 5.7344e16) = 0x23A0D7C5 =
  // 597743557; data 1e-12 * 5.7344e16 = 57344 -> 123.
  %q3, %s3 = fp8.quantize %c {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<4x2xf32> -> tensor<4x2xf8E5M2>, tensor<4x1xf32>
  %qd3 = tensor.cast %q3 : tensor<4x2xf8E5M2> to tensor<?x?xf8E5M2>
  %sd3 = tensor.cast %s3 : tensor<4x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [123, 0]
  // CHECK-NEXT: [123, 0]
  // CHECK-NEXT: [0, 128]
  // CHECK-NEXT: [0, 0]
  call @print_e5m2(%qd3) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [597743557]
  // CHECK-NEXT: [597743558]
  // CHECK-NEXT: [597743557]
  // CHECK-NEXT: [597743557]
  call @print_f32_bits(%sd3) : (tensor<?x?xf32>) -> ()

  // The margin divides fmax by 2^margin (TE's formula).
  %m = arith.constant dense<[[10.0, 1.0, -3.0, 0.5]]> : tensor<1x4xf32>

  // margin 2: qscale = fl32(112 / 10) = 11.2 = 0x41333333, stored
  // fl32(1 / 11.2) = 0x3DB6DB6E = 1035393902; 10 -> 112 = 0x6E = 110, 1 -> 11.2
  // -> 11 = 0x53 = 83, -3 -> -33.6 -> -32 = 0xE0 = 224, 0.5 -> 5.6 -> 5.5
  // = 0x4B = 75.
  %q4, %s4 = fp8.quantize %m {margin = 2 : i64, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf32>
  %qd4 = tensor.cast %q4 : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd4 = tensor.cast %s4 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [110, 83, 224, 75]
  call @print_e4m3(%qd4) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1035393902]
  call @print_f32_bits(%sd4) : (tensor<?x?xf32>) -> ()

  // margin 2, pow2_ceil: d = fl32(10 * fl32(1/448)) * 4 = 0.0893 -> 2^-3,
  // code 124.
  %q5, %s5 = fp8.quantize %m {margin = 2 : i64, scaling = #fp8.scaling<tile = [*, *], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
  %qd5 = tensor.cast %q5 : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd5 = tensor.cast %s5 : tensor<1x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [106, 80, 220, 72]
  call @print_e4m3(%qd5) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [124]
  call @print_e8m0(%sd5) : (tensor<?x?xf8E8M0FNU>) -> ()

  // margin 2, pow2_floor: floor(log2 10) - 8 + 2 = -3 -> code 124.
  %q6, %s6 = fp8.quantize %m {margin = 2 : i64, scaling = #fp8.scaling<tile = [*, *], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf8E8M0FNU>
  %qd6 = tensor.cast %q6 : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd6 = tensor.cast %s6 : tensor<1x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [106, 80, 220, 72]
  call @print_e4m3(%qd6) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [124]
  call @print_e8m0(%sd6) : (tensor<?x?xf8E8M0FNU>) -> ()

  // e5m2, margin 1: qscale = fl32(28672 / 10) = 2867.2 = 0x45333333,
  // 10 -> 28672 = 0x77 = 119.
  %q7, %s7 = fp8.quantize %m {margin = 1 : i64, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E5M2>, tensor<1x1xf32>
  %qd7 = tensor.cast %q7 : tensor<1x4xf8E5M2> to tensor<?x?xf8E5M2>
  %sd7 = tensor.cast %s7 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [119, 106, 240, 102]
  call @print_e5m2(%qd7) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [968285038]
  call @print_f32_bits(%sd7) : (tensor<?x?xf32>) -> ()

  // Delayed scaling: the amax operand (e.g. the max of a history) replaces
  // the data's own amax; data above it saturates.
  %a2 = arith.constant dense<2.0> : tensor<1x1xf32>

  // amax 2 (data amax 10): qscale 224, stored fl32(1/224) = 0x3B924925 =
  // 999442725; 10 -> 2240 -> 448 = 126, 1 -> 224 = 0x76 = 118, -3 -> -448 =
  // 254, 0.5 -> 112 = 0x6E = 110.
  %q8, %s8 = fp8.quantize %m amax(%a2 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf32>
  %qd8 = tensor.cast %q8 : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd8 = tensor.cast %s8 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [126, 118, 254, 110]
  call @print_e4m3(%qd8) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [999442725]
  call @print_f32_bits(%sd8) : (tensor<?x?xf32>) -> ()

  // amax 2 with margin 1: qscale 112; 1 -> 112 = 110, 10 -> 1120 -> 126.
  %q9, %s9 = fp8.quantize %m amax(%a2 : tensor<1x1xf32>) {margin = 1 : i64, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf32>
  %qd9 = tensor.cast %q9 : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd9 = tensor.cast %s9 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [126, 110, 250, 102]
  call @print_e4m3(%qd9) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1007831333]
  call @print_f32_bits(%sd9) : (tensor<?x?xf32>) -> ()

  // Rowwise delayed scaling: one amax per row.
  %r = arith.constant dense<[[10.0, 1.0, -3.0, 0.5], [10.0, 1.0, -3.0, 0.5]]> : tensor<2x4xf32>
  %ar = arith.constant dense<[[20.0], [0.5]]> : tensor<2x1xf32>

  // Row 0: qscale fl32(57344 / 20) = 2867.2 -> 10 -> 28672 = 119; row 1:
  // qscale 114688 -> 1 -> 114688 -> 57344 = 123, 0.5 -> 57344 = 123.
  %q10, %s10 = fp8.quantize %r amax(%ar : tensor<2x1xf32>) {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x4xf32> -> tensor<2x4xf8E5M2>, tensor<2x1xf32>
  %qd10 = tensor.cast %q10 : tensor<2x4xf8E5M2> to tensor<?x?xf8E5M2>
  %sd10 = tensor.cast %s10 : tensor<2x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [119, 106, 240, 102]
  // CHECK-NEXT: [123, 123, 251, 123]
  call @print_e5m2(%qd10) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [968285038]
  // CHECK-NEXT: [923945253]
  call @print_f32_bits(%sd10) : (tensor<?x?xf32>) -> ()

  // bf16 input: widened to f32 exactly, then the same rule. amax 100.5 ->
  // qscale fl32(448 / 100.5) = 0x408EA592, stored 0x3E65B6DC = 1046853340;
  // 3.140625 -> 13.999999 -> 14 = 0x56 = 86, -100.5 -> 254, 2^-7 -> 0.0348
  // -> 0.03515625 = 0x11 = 17, bf16 0x3727 (9.95e-6) -> 0.
  %bf = arith.constant dense<[[3.140625, -100.5, 0.0078125, 0x3727]]> : tensor<1x4xbf16>
  %qb, %sb = fp8.quantize %bf {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xbf16> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf32>
  %qbd = tensor.cast %qb : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sbd = tensor.cast %sb : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [86, 254, 17, 0]
  call @print_e4m3(%qbd) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1046853340]
  call @print_f32_bits(%sbd) : (tensor<?x?xf32>) -> ()
  return
}
