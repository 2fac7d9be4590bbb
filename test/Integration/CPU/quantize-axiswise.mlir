// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py quantize-axiswise | FileCheck %s

// Rowwise ([1, *]: one scale per row) and columnwise ([*, 1]: one per
// column) quantization of one 4x6 tensor. Row amaxes 6, 1, 0, 60000; column
// amaxes 1000, 2000, 3000, 4, 7, 60000. Row 2 is all zeros: its amax is
// clamped (qscale = fl32(fmax / 1e-12)) and it quantizes to zeros.

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
  %x = arith.constant dense<[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0],
                             [-0.5, 0.25, 0.125, 0.0, 0.75, -1.0],
                             [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                             [1000.0, -2000.0, 3000.0, 0.5, 7.0, 60000.0]]> : tensor<4x6xf32>

  // Rowwise e4m3, exact. Row 0: qscale = fl32(448/6) = 74.666664 (0x42955555),
  // stored fl32(1/qscale) = 0x3C5B6DB7; 6 -> 447.99998 -> 448 = 126, 1 -> 74.67
  // -> 72 (0x69 = 105, grid 72 / 80). Row 1: qscale 448, stored fl32(1/448) =
  // 0x3B124925 = 991054117; -1 -> -448 = 254, -0.5 -> -224 = 0xF6 = 246.
  // Row 2: amax 0 <= fl32(1e-12): qscale 0x57CBBA10, stored fl32(1/4.48e14) =
  // 0x2720D7C5 = 656463813. Row 3: qscale fl32(448/60000) = 0x3BF4AAF1, stored
  // 0x4305EDB7 = 133.92857; 60000 -> 448.00001 -> clamped -> 126.
  %q0, %s0 = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<4x6xf32> -> tensor<4x6xf8E4M3FN>, tensor<4x1xf32>
  %qd0 = tensor.cast %q0 : tensor<4x6xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd0 = tensor.cast %s0 : tensor<4x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [105, 113, 118, 121, 124, 126]
  // CHECK-NEXT: [246, 110, 102, 0, 122, 254]
  // CHECK-NEXT: [0, 0, 0, 0, 0, 0]
  // CHECK-NEXT: [79, 215, 91, 2, 21, 126]
  call @print_e4m3(%qd0) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1012624823]
  // CHECK-NEXT: [991054117]
  // CHECK-NEXT: [656463813]
  // CHECK-NEXT: [1124462007]
  call @print_f32_bits(%sd0) : (tensor<?x?xf32>) -> ()

  // Rowwise e5m2, exact: row 1 qscale 57344, stored fl32(1/57344) = 0x37924925
  // = 932333861; row 2 clamped: qscale 0x5B4BBA10, stored 0x23A0D7C5.
  %q1, %s1 = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<4x6xf32> -> tensor<4x6xf8E5M2>, tensor<4x1xf32>
  %qd1 = tensor.cast %q1 : tensor<4x6xf8E5M2> to tensor<?x?xf8E5M2>
  %sd1 = tensor.cast %s1 : tensor<4x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [113, 117, 119, 121, 122, 123]
  // CHECK-NEXT: [247, 115, 111, 0, 121, 251]
  // CHECK-NEXT: [0, 0, 0, 0, 0, 0]
  // CHECK-NEXT: [99, 231, 106, 56, 71, 123]
  call @print_e5m2(%qd1) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [953904567]
  // CHECK-NEXT: [932333861]
  // CHECK-NEXT: [597743557]
  // CHECK-NEXT: [1065741751]
  call @print_f32_bits(%sd1) : (tensor<?x?xf32>) -> ()

  // Rowwise e4m3, E8M0 pow2_ceil: row 0 d = 6/448 = 0.0134 -> 2^-6 (code 121),
  // row 1 1/448 -> 2^-8 (119), row 2 d = 0 -> code 0 (2^-127, quantized with
  // qscale 2^127), row 3 60000/448 = 133.9 -> 2^8 (135). Row 0: 6 * 64 = 384
  // = 0x7C = 124; row 3: 60000 / 256 = 234.4 -> 240 = 0x77 = 119.
  %q2, %s2 = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, *], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<4x6xf32> -> tensor<4x6xf8E4M3FN>, tensor<4x1xf8E8M0FNU>
  %qd2 = tensor.cast %q2 : tensor<4x6xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd2 = tensor.cast %s2 : tensor<4x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [104, 112, 116, 120, 122, 124]
  // CHECK-NEXT: [240, 104, 96, 0, 116, 248]
  // CHECK-NEXT: [0, 0, 0, 0, 0, 0]
  // CHECK-NEXT: [72, 208, 84, 1, 14, 119]
  call @print_e4m3(%qd2) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [121]
  // CHECK-NEXT: [119]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [135]
  call @print_e8m0(%sd2) : (tensor<?x?xf8E8M0FNU>) -> ()

  // Columnwise e4m3, exact. Column 0: qscale fl32(448/1000) = 0x3EE56042,
  // stored 0x400EDB6D = 2.2321427; 1 -> 0.448 -> 0.4375 = 0x2E = 46. Column 3
  // (amax 4): qscale 112, stored fl32(1/112) = 0x3C124925; 0.5 -> 56 (0x66 =
  // 102).
  %q3, %s3 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, 1], scale = f32>}
      : tensor<4x6xf32> -> tensor<4x6xf8E4M3FN>, tensor<1x6xf32>
  %qd3 = tensor.cast %q3 : tensor<4x6xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd3 = tensor.cast %s3 : tensor<1x6xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [46, 46, 46, 126, 122, 19]
  // CHECK-NEXT: [166, 22, 10, 0, 100, 132]
  // CHECK-NEXT: [0, 0, 0, 0, 0, 0]
  // CHECK-NEXT: [126, 254, 126, 102, 126, 126]
  call @print_e4m3(%qd3) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1074715501, 1083104109, 1087785253, 1007831333, 1015021568, 1124462007]
  call @print_f32_bits(%sd3) : (tensor<?x?xf32>) -> ()

  // Columnwise e5m2, f32 pow2_floor: 2^(floor(log2 amax) - 15): column 0
  // 2^(9-15) = 2^-6 (0x3C800000), column 5 2^(15-15) = 1 (0x3F800000): 60000 ->
  // 57344 = 123.
  %q4, %s4 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, 1], scale = f32, round = pow2_floor>}
      : tensor<4x6xf32> -> tensor<4x6xf8E5M2>, tensor<1x6xf32>
  %qd4 = tensor.cast %q4 : tensor<4x6xf8E5M2> to tensor<?x?xf8E5M2>
  %sd4 = tensor.cast %s4 : tensor<1x6xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [84, 84, 82, 120, 121, 70]
  // CHECK-NEXT: [208, 72, 64, 0, 110, 188]
  // CHECK-NEXT: [0, 0, 0, 0, 0, 0]
  // CHECK-NEXT: [123, 251, 122, 108, 123, 123]
  call @print_e5m2(%qd4) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1015021568, 1023410176, 1031798784, 956301312, 956301312, 1065353216]
  call @print_f32_bits(%sd4) : (tensor<?x?xf32>) -> ()

  // Columnwise e5m2, E8M0 pow2_ceil: column 0 1000/57344 = 0.0174 -> 2^-5
  // (122), column 1 and 2 -> 2^-4 (123), columns 3 and 4 -> 2^-13 (114), column
  // 5 60000/57344 = 1.046 -> 2^1 (128): 60000 / 2 = 30000 -> 28672 (0x77 =
  // 119).
  %q5, %s5 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, 1], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<4x6xf32> -> tensor<4x6xf8E5M2>, tensor<1x6xf8E8M0FNU>
  %qd5 = tensor.cast %q5 : tensor<4x6xf8E5M2> to tensor<?x?xf8E5M2>
  %sd5 = tensor.cast %s5 : tensor<1x6xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [80, 80, 82, 120, 121, 66]
  // CHECK-NEXT: [204, 68, 64, 0, 110, 184]
  // CHECK-NEXT: [0, 0, 0, 0, 0, 0]
  // CHECK-NEXT: [120, 248, 122, 108, 123, 119]
  call @print_e5m2(%qd5) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [122, 123, 123, 114, 114, 128]
  call @print_e8m0(%sd5) : (tensor<?x?xf8E8M0FNU>) -> ()
  return
}
