// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py transpose | FileCheck %s

// fp8.transpose swaps the matrix dimensions of the data and of the scales
// (lossless for tensorwise and square tiles): q^T[j][i] = q[i][j] bit for
// bit, scale^T[b][a] = scale[a][b].

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

  // Tensorwise, amax 6: qscale fl32(448/6) = 74.666664; 1 -> 72 (0x69 = 105),
  // -2 -> -149.3 -> -144 (0xF1 = 241), 3 -> 224 (0x76 = 118), 4 -> 298.67 ->
  // 288 (0x79 = 121), -5 -> -373.3 -> -384 (0xFC = 252), 6 -> 448 (126).
  // Transposed: rows (1, 4), (-2, -5), (3, 6).
  %x = arith.constant dense<[[1.0, -2.0, 3.0], [4.0, -5.0, 6.0]]> : tensor<2x3xf32>
  %q0, %s0 = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x3xf32> -> tensor<2x3xf8E4M3FN>, tensor<1x1xf32>
  %t0, %ts0 = fp8.transpose %q0, %s0 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x3xf8E4M3FN>, tensor<1x1xf32> -> tensor<3x2xf8E4M3FN>, tensor<1x1xf32>
  %td0 = tensor.cast %t0 : tensor<3x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %tsd0 = tensor.cast %ts0 : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [105, 121]
  // CHECK-NEXT: [241, 252]
  // CHECK-NEXT: [118, 126]
  call @print_e4m3(%td0) : (tensor<?x?xf8E4M3FN>) -> ()
  // stored fl32(1 / 74.666664) = 0x3C5B6DB7 = 1012624823
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1012624823]
  call @print_f32_bits(%tsd0) : (tensor<?x?xf32>) -> ()

  // 128x128 tiles on 200x160 (tile amaxes 3, 6 / 6, 12): the 2x2 scales
  // transpose to [[s00, s10], [s01, s11]], the data to 160x200.
  %wd = call @pattern(%c200, %c160, %c128, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %w = tensor.cast %wd : tensor<?x?xf32> to tensor<200x160xf32>
  %q1, %s1 = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<200x160xf32> -> tensor<200x160xf8E4M3FN>, tensor<2x2xf32>
  %t1, %ts1 = fp8.transpose %q1, %s1 {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<200x160xf8E4M3FN>, tensor<2x2xf32> -> tensor<160x200xf8E4M3FN>, tensor<2x2xf32>
  %qd1 = tensor.cast %t1 : tensor<160x200xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd1 = tensor.cast %ts1 : tensor<2x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [535371195]
  call @checksum_e4m3(%qd1) : (tensor<?x?xf8E4M3FN>) -> ()
  // fl32(3/448)-ish: 0x3BDB6DB7 (amax 3), 0x3C5B6DB7 (6), 0x3CDB6DB7 (12).
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1004236215, 1012624823]
  // CHECK-NEXT: [1012624823, 1021013431]
  call @print_f32_bits(%sd1) : (tensor<?x?xf32>) -> ()
  %sl1 = tensor.extract_slice %qd1[124, 124] [8, 8] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<8x8xf8E4M3FN>
  %sld1 = tensor.cast %sl1 : tensor<8x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [233, 120, 249, 102, 125, 242, 116, 252]
  // CHECK-NEXT: [94, 124, 244, 114, 253, 230, 121, 248]
  // CHECK-NEXT: [112, 253, 234, 120, 249, 100, 124, 242]
  // CHECK-NEXT: [119, 250, 89, 123, 244, 113, 253, 232]
  // CHECK-NEXT: [122, 246, 111, 254, 236, 120, 250, 97]
  // CHECK-NEXT: [126, 239, 118, 250, 81, 123, 245, 113]
  // CHECK-NEXT: [251, 217, 122, 247, 110, 254, 237, 119]
  // CHECK-NEXT: [248, 106, 125, 240, 117, 251, 0, 123]
  call @print_e4m3(%sld1) : (tensor<?x?xf8E4M3FN>) -> ()

  // A batch dimension: each batch element transposes on its own.
  %b = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]],
                             [[-1.0, -0.5, 0.25], [0.125, 0.0, 1.0]]]> : tensor<2x2x3xf32>
  %q2, %s2 = fp8.quantize %b {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x2x3xf32> -> tensor<2x2x3xf8E4M3FN>, tensor<2x1x1xf32>
  %t2, %ts2 = fp8.transpose %q2, %s2 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x2x3xf8E4M3FN>, tensor<2x1x1xf32> -> tensor<2x3x2xf8E4M3FN>, tensor<2x1x1xf32>
  %c2 = tensor.collapse_shape %t2 [[0, 1], [2]] : tensor<2x3x2xf8E4M3FN> into tensor<6x2xf8E4M3FN>
  %cd2 = tensor.cast %c2 : tensor<6x2xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // Batch 0 as above but positive (2 -> 144 = 0x71 = 113); batch 1 amax 1:
  // qscale 448: -1 -> 254, 0.125 -> 56 (0x66 = 102), -0.5 -> 0xF6 = 246, 0 ->
  // 0, 0.25 -> 0x6E = 110, 1 -> 126.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [105, 121]
  // CHECK-NEXT: [113, 124]
  // CHECK-NEXT: [118, 126]
  // CHECK-NEXT: [254, 102]
  // CHECK-NEXT: [246, 0]
  // CHECK-NEXT: [110, 126]
  call @print_e4m3(%cd2) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}
