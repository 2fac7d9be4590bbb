// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py dequantize | FileCheck %s

// fp8.dequantize: f32(q) * scale of the element's tile, one f32 rounding,
// then rounded to the result type. FP8 data and E8M0 scales are built from
// raw bytes; results are printed as bits.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @print_f32_bits(%s: tensor<?x?xf32>) {
  %b = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_bf16_bits(%s: tensor<?x?xbf16>) {
  %b = arith.bitcast %s : tensor<?x?xbf16> to tensor<?x?xi16>
  %i = arith.extui %b : tensor<?x?xi16> to tensor<?x?xi32>
  %u = tensor.cast %i : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  // e4m3 bytes: 0x7E = 448, 0xFE = -448, 0x01 = 2^-9, 0x38 = 1.0;
  //             0x7F = NaN, 0x80 = -0.0, 0x08 = 2^-6, 0x3A = 1.25.
  %qb = arith.constant dense<[[126, -2, 1, 56], [127, -128, 8, 58]]> : tensor<2x4xi8>
  %q = arith.bitcast %qb : tensor<2x4xi8> to tensor<2x4xf8E4M3FN>

  // Rowwise f32 scales 0.5 and 3.0: 224 = 0x43600000 = 1130364928, -224 =
  // 0xC3600000 = -1017118720, 2^-10 = 0x3A800000 = 981467136, 0.5 =
  // 1056964608; NaN = 0x7FF00000 = 2146435072 (0x7F widened keeping its
  // mantissa bits, as PyTorch's c10 conversion does), -0.0 = 0x80000000 =
  // -2147483648, 2^-6 * 3 = 0.046875 = 0x3D400000 = 1027604480, 3.75 =
  // 0x40700000 = 1081081856.
  %s = arith.constant dense<[[0.5], [3.0]]> : tensor<2x1xf32>
  %d = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x4xf8E4M3FN>, tensor<2x1xf32> -> tensor<2x4xf32>
  %dd = tensor.cast %d : tensor<2x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1130364928, -1017118720, 981467136, 1056964608]
  // CHECK-NEXT: [2146435072, -2147483648, 1027604480, 1081081856]
  call @print_f32_bits(%dd) : (tensor<?x?xf32>) -> ()

  // bf16 result: the f32 product is rounded once more. Row 0 scale 1 + 2^-23:
  // 448 (1 + 2^-23) -> bf16 448 = 0x43E0 = 17376, 2^-9 -> 0x3B00 = 15104;
  // row 1 scale fl32(1/3) = 0x3EAAAAAB: 2^-6 * fl32(1/3) = 0x3BAAAAAB -> bf16
  // RNE 0x3BAB = 15275, 1.25 * fl32(1/3) = 0x3ED55555 -> 0x3ED5 = 16085; NaN
  // -> 0x7FC0 = 32704 (any NaN, as PyTorch's bf16 conversion), -0.0 ->
  // 0x8000 = 32768.
  %s2 = arith.constant dense<[[0x3F800001], [0x3EAAAAAB]]> : tensor<2x1xf32>
  %b = fp8.dequantize %q, %s2 {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x4xf8E4M3FN>, tensor<2x1xf32> -> tensor<2x4xbf16>
  %bd = tensor.cast %b : tensor<2x4xbf16> to tensor<?x?xbf16>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [17376, 50144, 15104, 16256]
  // CHECK-NEXT: [32704, 32768, 15275, 16085]
  call @print_bf16_bits(%bd) : (tensor<?x?xbf16>) -> ()

  // E8M0 scales on 1x2 tiles of e5m2 data, with the edge codes:
  //   code 0 = 2^-127: 1.0 -> 2^-127 = 0x00400000 = 4194304 (f32 subnormal);
  //     2^-16 -> 2^-143 = 0x00000040 = 64
  //   code 255 = NaN: both elements NaN
  //   code 254 = 2^127: 1.0 -> 0x7F000000 = 2130706432, 2.0 -> +inf
  //   code 127 = 1: 0.5 -> 0x3F000000, e5m2 +inf (0x7C) -> +inf
  %eb = arith.constant dense<[[60, 1, 60, 123], [60, 64, 56, 124]]> : tensor<2x4xi8>
  %e = arith.bitcast %eb : tensor<2x4xi8> to tensor<2x4xf8E5M2>
  %cb = arith.constant dense<[[0, -1], [-2, 127]]> : tensor<2x2xi8>
  %c = arith.bitcast %cb : tensor<2x2xi8> to tensor<2x2xf8E8M0FNU>
  %ed = fp8.dequantize %e, %c {scaling = #fp8.scaling<tile = [1, 2], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<2x4xf8E5M2>, tensor<2x2xf8E8M0FNU> -> tensor<2x4xf32>
  %edd = tensor.cast %ed : tensor<2x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [4194304, 64, 2143289344, 2143289344]
  // CHECK-NEXT: [2130706432, 2139095040, 1056964608, 2139095040]
  call @print_f32_bits(%edd) : (tensor<?x?xf32>) -> ()

  // The same to bf16, rounded on the bits as c10 does on any host: 2^-127
  // -> bf16 subnormal 0x0040 = 64 (not flushed), 2^-143 -> 0 (RNE), NaN ->
  // 0x7FC0 = 32704, 2^127 -> 0x7F00 = 32512, +inf -> 0x7F80 = 32640, 0.5 ->
  // 0x3F00 = 16128.
  %eh = fp8.dequantize %e, %c {scaling = #fp8.scaling<tile = [1, 2], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<2x4xf8E5M2>, tensor<2x2xf8E8M0FNU> -> tensor<2x4xbf16>
  %ehd = tensor.cast %eh : tensor<2x4xbf16> to tensor<?x?xbf16>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [64, 0, 32704, 32704]
  // CHECK-NEXT: [32512, 32640, 16128, 32640]
  call @print_bf16_bits(%ehd) : (tensor<?x?xbf16>) -> ()

  // Round trip: amax 100 -> qscale 4.48, stored fl32(1/4.48) = 0x3E649249.
  // 1.0 -> 4.48 -> 4.5 (0x49), back 4.5 * 0x3E649249 = 1.0044643 = 0x3F809249;
  // -100 -> -448, back -448 * 0x3E649249 = -100.0 exactly (0xC2C80000).
  %x = arith.constant dense<[[1.0, 3.3, -100.0, 0.01]]> : tensor<1x4xf32>
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf32>
  %xd = fp8.dequantize %xq, %xs {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x4xf32>
  %xdd = tensor.cast %xd : tensor<1x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1065390665, 1079396644, -1027080192, 1008542866]
  call @print_f32_bits(%xdd) : (tensor<?x?xf32>) -> ()

  // A batch dimension with one scale per batch element: 1.0 * 2 and 1.0 * 4.
  %bq = arith.constant dense<[[[56, 56]], [[56, 184]]]> : tensor<2x1x2xi8>
  %bf = arith.bitcast %bq : tensor<2x1x2xi8> to tensor<2x1x2xf8E4M3FN>
  %bs = arith.constant dense<[[[2.0]], [[4.0]]]> : tensor<2x1x1xf32>
  %bdq = fp8.dequantize %bf, %bs {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x1x2xf8E4M3FN>, tensor<2x1x1xf32> -> tensor<2x1x2xf32>
  %bc = tensor.collapse_shape %bdq [[0, 1], [2]] : tensor<2x1x2xf32> into tensor<2x2xf32>
  %bcd = tensor.cast %bc : tensor<2x2xf32> to tensor<?x?xf32>
  // 2.0 = 0x40000000 = 1073741824, 4.0 = 1082130432, -4.0 = 0xC0800000.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1073741824, 1073741824]
  // CHECK-NEXT: [1082130432, -1065353216]
  call @print_f32_bits(%bcd) : (tensor<?x?xf32>) -> ()
  return
}
