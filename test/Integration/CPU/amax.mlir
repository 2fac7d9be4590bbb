// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py amax | FileCheck %s

// fp8.amax: max |x| per tile in f32, printed as bits. NaN propagates from any
// position (torch.amax semantics, not CUDA fmaxf's); partial edge tiles; bf16
// input; a batch dimension.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @print_f32_bits(%s: tensor<?x?xf32>) {
  %b = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  // Row 0: max |x| = |-7.5| = 0x40F00000 = 1089470464.
  // Row 1: NaN first, row 2: NaN last -> 0x7FC00000 = 2143289344 both.
  // Row 3: -inf -> +inf = 0x7F800000 = 2139095040.
  // Row 4: only -0.0 and 0.0 -> +0.0 = 0.
  %x = arith.constant dense<[[1.0, -7.5, 3.0, 0.25, 7.0],
                             [0x7FC00000, 1.0, 2.0, 1.0e30, 4.0],
                             [1.0, 1.0e30, 2.0, 3.0, 0xFFC00000],
                             [1.0, 0xFF800000, 2.0, 3.0, 4.0],
                             [-0.0, 0.0, -0.0, -0.0, 0.0]]> : tensor<5x5xf32>
  %r = fp8.amax %x {tile = #fp8.tile<[1, *]>} : tensor<5x5xf32> -> tensor<5x1xf32>
  %rd = tensor.cast %r : tensor<5x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1089470464]
  // CHECK-NEXT: [2143289344]
  // CHECK-NEXT: [2143289344]
  // CHECK-NEXT: [2139095040]
  // CHECK-NEXT: [0]
  call @print_f32_bits(%rd) : (tensor<?x?xf32>) -> ()

  // 2x2 tiles over 5x5: 3x3 tiles, the last row and column partial.
  // Tile (0,0) = {1, 7.5, NaN, 1} -> NaN; (0,1) = {3, .25, 2, 1e30} -> 1e30 =
  // 0x7149F2CA = 1900671690; (0,2) = {7, 4} -> 7 = 0x40E00000 = 1088421888;
  // (1,0) = {1, 1e30, 1, inf} -> inf; (1,1) = {2, 3, 2, 3} -> 3 = 1077936128;
  // (1,2) = {NaN, 4} -> NaN; (2,0) = {0, 0} -> 0; (2,1) -> 0; (2,2) -> 0.
  %t = fp8.amax %x {tile = #fp8.tile<[2, 2]>} : tensor<5x5xf32> -> tensor<3x3xf32>
  %td = tensor.cast %t : tensor<3x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [2143289344, 1900671690, 1088421888]
  // CHECK-NEXT: [2139095040, 1077936128, 2143289344]
  // CHECK-NEXT: [0, 0, 0]
  call @print_f32_bits(%td) : (tensor<?x?xf32>) -> ()

  // bf16 input, columnwise: exact in f32. Column 0 max |-3.5| = 0x40600000 =
  // 1080033280; column 1: 0.0078125 = 2^-7 = 0x3C000000 = 1006632960; column
  // 2: bf16 max finite 0x7F7F -> f32 0x7F7F0000 = 2139029504.
  %b = arith.constant dense<[[1.0, -0.0078125, 0x7F7F], [-3.5, 0.0, 1.0]]> : tensor<2x3xbf16>
  %c = fp8.amax %b {tile = #fp8.tile<[*, 1]>} : tensor<2x3xbf16> -> tensor<1x3xf32>
  %cd = tensor.cast %c : tensor<1x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1080033280, 1006632960, 2139029504]
  call @print_f32_bits(%cd) : (tensor<?x?xf32>) -> ()

  // A batch dimension: one tensorwise amax per batch element, 6 = 0x40C00000
  // = 1086324736 and 0.5 = 0x3F000000 = 1056964608.
  %bt = arith.constant dense<[[[1.0, -6.0], [2.0, 3.0]], [[0.25, 0.5], [-0.125, 0.0]]]> : tensor<2x2x2xf32>
  %ba = fp8.amax %bt {tile = #fp8.tile<[*, *]>} : tensor<2x2x2xf32> -> tensor<2x1x1xf32>
  %bc = tensor.collapse_shape %ba [[0, 1], [2]] : tensor<2x1x1xf32> into tensor<2x1xf32>
  %bd = tensor.cast %bc : tensor<2x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1086324736]
  // CHECK-NEXT: [1056964608]
  call @print_f32_bits(%bd) : (tensor<?x?xf32>) -> ()
  return
}
