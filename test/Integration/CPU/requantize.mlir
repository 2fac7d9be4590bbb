// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py requantize | FileCheck %s

// fp8.requantize = dequantize with the source scaling (f32(q) * scale, one
// rounding), then quantize afresh with the target scaling: the amax of every
// new tile is taken from the dequantized values.

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

// sum(code * (linear index + 1)) mod 2^32 over the raw bytes: one number
// that changes when any element or its position changes.
func.func @checksum(%q: tensor<?x?xi8>) {
  %c1 = arith.constant 1 : index
  %cols = tensor.dim %q, %c1 : tensor<?x?xi8>
  %zero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<1x1xi32>
  %init = linalg.fill ins(%zero : i32) outs(%e : tensor<1x1xi32>) -> tensor<1x1xi32>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (0, 0)>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%q : tensor<?x?xi8>) outs(%init : tensor<1x1xi32>) {
  ^bb0(%v: i8, %acc: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %r = arith.muli %i, %cols : index
    %l = arith.addi %r, %j : index
    %l1 = arith.addi %l, %c1 : index
    %w = arith.index_cast %l1 : index to i32
    %c = arith.extui %v : i8 to i32
    %p = arith.muli %c, %w : i32
    %n = arith.addi %acc, %p : i32
    linalg.yield %n : i32
  } -> tensor<1x1xi32>
  %u = tensor.cast %s : tensor<1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @checksum_e4m3(%q: tensor<?x?xf8E4M3FN>) {
  %b = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  call @checksum(%b) : (tensor<?x?xi8>) -> ()
  return
}

func.func @checksum_e5m2(%q: tensor<?x?xf8E5M2>) {
  %b = arith.bitcast %q : tensor<?x?xf8E5M2> to tensor<?x?xi8>
  call @checksum(%b) : (tensor<?x?xi8>) -> ()
  return
}

// x[i][j] = ((37 i + 11 j + 5) mod 97 - 48) * (1 + (i / rd) mod 3)
//           * (1 + (j / cd) mod 3) / 16: integers times 2^-4, exact in f32,
// with a magnitude that changes every rd rows and cd columns so that
// neighbouring tiles get different amaxes.
func.func @pattern(%rows: index, %cols: index, %rd: index, %cd: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c1 = arith.constant 1 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c11 = arith.constant 11 : index
    %c37 = arith.constant 37 : index
    %c48 = arith.constant 48 : index
    %c97 = arith.constant 97 : index
    %a = arith.muli %i, %c37 : index
    %b = arith.muli %j, %c11 : index
    %s = arith.addi %a, %b : index
    %s5 = arith.addi %s, %c5 : index
    %m = arith.remui %s5, %c97 : index
    %v = arith.subi %m, %c48 : index
    %ib = arith.divui %i, %rd : index
    %jb = arith.divui %j, %cd : index
    %ir = arith.remui %ib, %c3 : index
    %jr = arith.remui %jb, %c3 : index
    %f = arith.addi %ir, %c1 : index
    %g = arith.addi %jr, %c1 : index
    %fg = arith.muli %f, %g : index
    %vfg = arith.muli %v, %fg : index
    %vi = arith.index_cast %vfg : index to i32
    %x = arith.sitofp %vi : i32 to f32
    %sixteenth = arith.constant 0.0625 : f32
    %y = arith.mulf %x, %sixteenth : f32
    linalg.yield %y : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c128 = arith.constant 128 : index
  %c160 = arith.constant 160 : index
  %c200 = arith.constant 200 : index

  // One row of 64: tensorwise e4m3, then 1x32 E8M0 pow2_ceil (MXFP8).
  // Tensorwise: amax 100 -> qscale 4.48, stored s = fl32(1/4.48) = 0x3E649249.
  //   100 -> 448 (0x7E); 1.0 -> 4.48 -> 4.5 (0x49); 0.03 -> 0.1344 -> 0.140625
  //   (0x21); 0.01 -> 0.0448 -> 0.04296875 (0x13).
  // Dequantized: 448 s = 100.0, 4.5 s = 1.0044643, 0.140625 s = 0.031389508,
  //   0.04296875 s = 0.0095912386.
  // Block 0: amax 100 -> d = 100 fl32(1/448) = 0.2232 -> 2^-2 (code 125):
  //   100 * 4 = 400, a tie between 384 (even mantissa) and 416 -> 384 = 0x7C
  //   = 124; 4.0179 -> 4.0 = 0x48 = 72.
  // Block 1: amax 0.031389508 -> d = 7.0e-5 -> 2^-13 (code 114): 257.1 -> 256
  //   = 0x78 = 120; 78.57 -> 80 = 0x6A = 106.
  %x = arith.constant dense<[[100.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
                              1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
                              0.03, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01,
                              0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01, 0.01]]> : tensor<1x64xf32>
  %q0, %s0 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x64xf32> -> tensor<1x64xf8E4M3FN>, tensor<1x1xf32>
  %r0, %rs0 = fp8.requantize %q0, %s0 {
        scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        to = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<1x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x64xf8E4M3FN>, tensor<1x2xf8E8M0FNU>
  %qd0 = tensor.cast %r0 : tensor<1x64xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %a0 = tensor.extract_slice %r0[0, 0] [1, 2] [1, 1] : tensor<1x64xf8E4M3FN> to tensor<1x2xf8E4M3FN>
  %b0 = tensor.extract_slice %r0[0, 32] [1, 2] [1, 1] : tensor<1x64xf8E4M3FN> to tensor<1x2xf8E4M3FN>
  %ad0 = tensor.cast %a0 : tensor<1x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %bd0 = tensor.cast %b0 : tensor<1x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd0 = tensor.cast %rs0 : tensor<1x2xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [124, 72]
  call @print_e4m3(%ad0) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [120, 106]
  call @print_e4m3(%bd0) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [125, 114]
  call @print_e8m0(%sd0) : (tensor<?x?xf8E8M0FNU>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [203042]
  call @checksum_e4m3(%qd0) : (tensor<?x?xf8E4M3FN>) -> ()

  // Requantization can round stochastically too: the same row to e5m2,
  // tensorwise, seed 5 (element i draws half i mod 2 of word (i mod 8) / 2 of
  // Philox(5, i / 8)). amax 100 -> qscale
  // 573.44; 1.0044643 * 573.44 = 575.99 lies between 512 (0x60 = 96) and
  // 640 (0x61 = 97), near the middle: codes 96 and 97 in about equal numbers.
  %seed = arith.constant 5 : i64
  %r5, %rs5 = fp8.requantize %q0, %s0 seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        to = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x64xf8E5M2>, tensor<1x1xf32>
  %qd5 = tensor.cast %r5 : tensor<1x64xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [159031]
  call @checksum_e5m2(%qd5) : (tensor<?x?xf8E5M2>) -> ()
  %a5 = tensor.extract_slice %r5[0, 0] [1, 12] [1, 1] : tensor<1x64xf8E5M2> to tensor<1x12xf8E5M2>
  %ad5 = tensor.cast %a5 : tensor<1x12xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [123, 97, 96, 96, 96, 97, 97, 97, 96, 96, 96, 96]
  call @print_e5m2(%ad5) : (tensor<?x?xf8E5M2>) -> ()

  // 200x160 weights: 128x128 blocks with f32 scales (tiles of amax 3, 6, 6, 12)
  // requantized to 1x32 E8M0 pow2_ceil, the MXFP8 form of the same tensor.
  %wd = call @pattern(%c200, %c160, %c128, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %w = tensor.cast %wd : tensor<?x?xf32> to tensor<200x160xf32>
  %q1, %s1 = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<200x160xf32> -> tensor<200x160xf8E4M3FN>, tensor<2x2xf32>
  %r1, %rs1 = fp8.requantize %q1, %s1 {
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        to = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<200x160xf8E4M3FN>, tensor<2x2xf32> -> tensor<200x160xf8E4M3FN>, tensor<200x5xf8E8M0FNU>
  %qd1 = tensor.cast %r1 : tensor<200x160xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [-401042362]
  call @checksum_e4m3(%qd1) : (tensor<?x?xf8E4M3FN>) -> ()
  // Scales of rows 126..129 (across the row-block border): 1x32 blocks 0..3
  // lie in block column 0, block 4 in block column 1. A 1x32 amax a gets
  // code 127 + ceil(log2(a / 448)): a in (1.75, 3.5] -> 120, (3.5, 7] -> 121,
  // (7, 14] -> 122; here a is 2.79 or 3 (rows 126, 127) and 5.57 or 6 (rows
  // 128, 129) in block column 0, 6 and 12 in block column 1.
  %ss1 = tensor.extract_slice %rs1[126, 0] [4, 5] [1, 1] : tensor<200x5xf8E8M0FNU> to tensor<4x5xf8E8M0FNU>
  %ssd1 = tensor.cast %ss1 : tensor<4x5xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [120, 120, 120, 120, 121]
  // CHECK-NEXT: [120, 120, 120, 120, 121]
  // CHECK-NEXT: [121, 121, 121, 121, 122]
  // CHECK-NEXT: [121, 121, 121, 121, 122]
  call @print_e8m0(%ssd1) : (tensor<?x?xf8E8M0FNU>) -> ()
  %sl1 = tensor.extract_slice %qd1[126, 124] [4, 8] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<4x8xf8E4M3FN>
  %sld1 = tensor.cast %sl1 : tensor<4x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [247, 242, 233, 87, 109, 116, 121, 123]
  // CHECK-NEXT: [100, 113, 118, 121, 252, 249, 245, 238]
  // CHECK-NEXT: [123, 251, 247, 242, 234, 79, 108, 115]
  // CHECK-NEXT: [241, 228, 98, 111, 118, 121, 252, 249]
  call @print_e4m3(%sld1) : (tensor<?x?xf8E4M3FN>) -> ()

  // DeepSeek-V3's backward: 1x128 activations requantized to 128x1 (e4m3,
  // f32 scales) for the Wgrad matmul, which contracts the other dimension.
  %vd = call @pattern(%c200, %c160, %c1, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %v = tensor.cast %vd : tensor<?x?xf32> to tensor<200x160xf32>
  %q2, %s2 = fp8.quantize %v {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<200x160xf32> -> tensor<200x160xf8E4M3FN>, tensor<200x2xf32>
  %r2, %rs2 = fp8.requantize %q2, %s2 {
        scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        to = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<200x160xf8E4M3FN>, tensor<200x2xf32> -> tensor<200x160xf8E4M3FN>, tensor<2x160xf32>
  %qd2 = tensor.cast %r2 : tensor<200x160xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [2112131640]
  call @checksum_e4m3(%qd2) : (tensor<?x?xf8E4M3FN>) -> ()
  %ss2 = tensor.extract_slice %rs2[0, 126] [2, 4] [1, 1] : tensor<2x160xf32> to tensor<2x4xf32>
  %ssd2 = tensor.cast %ss2 : tensor<2x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1017418313, 1017418313, 1025036538, 1025357532]
  // CHECK-NEXT: [1016647930, 1017418313, 1025806921, 1025036538]
  call @print_f32_bits(%ssd2) : (tensor<?x?xf32>) -> ()
  %sl2 = tensor.extract_slice %qd2[124, 124] [8, 8] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<8x8xf8E4M3FN>
  %sld2 = tensor.cast %sl2 : tensor<8x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [229, 89, 107, 114, 118, 122, 247, 243]
  // CHECK-NEXT: [121, 124, 253, 250, 247, 240, 218, 107]
  // CHECK-NEXT: [237, 232, 221, 76, 99, 106, 109, 113]
  // CHECK-NEXT: [98, 109, 115, 119, 250, 247, 242, 234]
  // CHECK-NEXT: [126, 254, 250, 244, 236, 82, 111, 118]
  // CHECK-NEXT: [230, 218, 89, 100, 107, 112, 242, 239]
  // CHECK-NEXT: [113, 117, 121, 249, 245, 241, 233, 0]
  // CHECK-NEXT: [253, 249, 243, 232, 97, 114, 120, 123]
  call @print_e4m3(%sld2) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}
