// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py cast-rne | FileCheck %s
// RUN: %python %S/oracle.py --self-test | FileCheck %s --check-prefix=ORACLE

// The oracle itself reproduces the Random123 and Triton Philox vectors and
// PyTorch's c10 casts.
// ORACLE: oracle self-test passed

// The f32 -> FP8 cast of fp8.quantize: RNE(clamp(x * qscale, -fmax, fmax)),
// ties to even, subnormals, saturation at 448 / 57344, NaN kept, sign kept.
// A delayed amax of exactly fmax makes qscale = fmax / fmax = 1 (and the
// stored dequantization scale 1/1 = 1), so x reaches the cast unscaled.
// Every FP8 result is printed as its raw byte.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @print_e4m3(%q: tensor<1x20xf8E4M3FN>) {
  %b = arith.bitcast %q : tensor<1x20xf8E4M3FN> to tensor<1x20xi8>
  %i = arith.extui %b : tensor<1x20xi8> to tensor<1x20xi32>
  %u = tensor.cast %i : tensor<1x20xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_e5m2(%q: tensor<1x20xf8E5M2>) {
  %b = arith.bitcast %q : tensor<1x20xf8E5M2> to tensor<1x20xi8>
  %i = arith.extui %b : tensor<1x20xi8> to tensor<1x20xi32>
  %u = tensor.cast %i : tensor<1x20xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @print_scale(%s: tensor<1x1xf32>) {
  %b = arith.bitcast %s : tensor<1x1xf32> to tensor<1x1xi32>
  %u = tensor.cast %b : tensor<1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  // e4m3fn: 3 mantissa bits, bias 7, subnormal quantum 2^-9, max 448 (0x7E).
  //  1.0625 = 1 + 1/16, halfway 1.0 (0x38) / 1.125 (0x39): even -> 0x38 = 56
  //  0x3F880001 = 1.0625 + 2^-23, above the tie -> 0x39 = 57
  //  1.1875, halfway 1.125 (0x39) / 1.25 (0x3A): even -> 0x3A = 58
  //  -1.1875 -> 0x80 | 0x3A = 186
  //  2^-9 = the smallest subnormal -> 0x01
  //  2^-10 = half a quantum, tie with 0 -> 0x00
  //  1.5 * 2^-10 = 0.75 quanta -> 0x01
  //  3 * 2^-10 = 1.5 quanta, tie 1 / 2 -> 0x02
  //  15 * 2^-10 = 7.5 quanta, tie 0x07 / 0x08 (2^-6, smallest normal) -> 0x08
  //  2^-6 -> (1 + 7) << 3 = 0x08
  //  432, halfway 416 (0x7D) / 448 (0x7E): even -> 0x7E = 126
  //  448 -> 0x7E; 464 (eager PyTorch: the tie goes to 448 too), 1e9, +inf
  //  are clamped to 448 first -> 0x7E (eager PyTorch gives NaN for > 464)
  //  -inf -> 0xFE = 254
  //  NaN (0x7FC00000) -> 0x7F = 127, -NaN (0xFFC00000) -> 0xFF = 255
  //  -0.0 -> 0x80 = 128; 240 = 1.875 * 2^7 -> (14 << 3) | 7 = 0x77 = 119
  %x = arith.constant dense<[[1.0625, 0x3F880001, 1.1875, -1.1875, 0x3B000000,
      0x3A800000, 0x3AC00000, 0x3B400000, 0x3C700000, 0x3C800000, 432.0, 448.0,
      464.0, 1.0e9, 0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, -0.0, 240.0]]>
      : tensor<1x20xf32>
  %a448 = arith.constant dense<448.0> : tensor<1x1xf32>
  %q, %s = fp8.quantize %x amax(%a448 : tensor<1x1xf32>) {
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x20xf32> -> tensor<1x20xf8E4M3FN>, tensor<1x1xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 57, 58, 186, 1, 0, 1, 2, 8, 8, 126, 126, 126, 126, 126, 254, 127, 255, 128, 119]
  call @print_e4m3(%q) : (tensor<1x20xf8E4M3FN>) -> ()
  // The stored dequantization scale 1/1 = 1.0 = 0x3F800000.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1065353216]
  call @print_scale(%s) : (tensor<1x1xf32>) -> ()

  // e5m2: 2 mantissa bits, bias 15, subnormal quantum 2^-16, max 57344 (0x7B).
  //  1.125, halfway 1.0 (0x3C) / 1.25 (0x3D): even -> 0x3C = 60
  //  1.375, halfway 1.25 (0x3D) / 1.5 (0x3E): even -> 0x3E = 62
  //  -1.375 -> 0xBE = 190
  //  2^-16 -> 0x01; 2^-17 tie with 0 -> 0x00; 3 * 2^-17 tie 1 / 2 -> 0x02
  //  7 * 2^-17 = 3.5 quanta, tie 0x03 / 0x04 (2^-14, smallest normal) -> 0x04
  //  2^-14 -> (1 + 15 - 15 + 0) ... = (1 << 2) = 0x04
  //  53248, halfway 49152 (0x7A) / 57344 (0x7B): even -> 0x7A = 122
  //  57344 -> 0x7B = 123; 61440 (eager PyTorch: tie to 2^16 = Inf), 1e9, +inf
  //  are clamped to 57344 first -> 0x7B
  //  -inf -> 0xFB = 251; NaN -> 0x7F; -NaN -> 0xFF; -0.0 -> 0x80
  //  1.0e-9 (< 2^-17, under half a quantum) -> 0x00; -1.0e-9 -> 0x80 = 128
  //  3.0 = 1.5 * 2^1 -> (16 << 2) | 2 = 0x42 = 66
  %y = arith.constant dense<[[1.125, 1.375, -1.375, 0x37800000, 0x37000000,
      0x37C00000, 0x38600000, 0x38800000, 53248.0, 57344.0, 61440.0, 1.0e9,
      0x7F800000, 0xFF800000, 0x7FC00000, 0xFFC00000, -0.0, 1.0e-9, -1.0e-9, 3.0]]>
      : tensor<1x20xf32>
  %a57344 = arith.constant dense<57344.0> : tensor<1x1xf32>
  %r, %rs = fp8.quantize %y amax(%a57344 : tensor<1x1xf32>) {
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x20xf32> -> tensor<1x20xf8E5M2>, tensor<1x1xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [60, 62, 190, 1, 0, 2, 4, 4, 122, 123, 123, 123, 123, 251, 127, 255, 128, 0, 128, 66]
  call @print_e5m2(%r) : (tensor<1x20xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1065353216]
  call @print_scale(%rs) : (tensor<1x1xf32>) -> ()
  return
}
