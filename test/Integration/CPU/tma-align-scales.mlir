// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py tma-align-scales | FileCheck %s

// fp8.tma_align_scales moves scales into the col_major_tma layout:
// out[j][i] = scale[i][j], each row of out padded with zero bits to 16 bytes
// (4 f32, 16 E8M0). A scaled_matmul that reads col_major_tma scales computes
// the same bits as with the row-major ones: a layout never changes a value.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @print_f32_bits(%s: tensor<?x?xf32>) {
  %b = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
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

// x[i][j] = ((37 i + 11 j + 5) mod 97 - 48) * (1 + (i / rd) mod 3)
//           * (1 + (j / cd) mod 3) / 16, as in scaled-matmul.mlir.
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
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index

  // 5 rows of f32 scales pad to 8: out[j] = column j of s, then three +0.0
  // (bits 0). -0.0 (0x80000000 = -2147483648) moves like any value. Bits of
  // 0.5, 1, 1.5, 2: 1056964608, 1065353216, 1069547520, 1073741824.
  %s = arith.constant dense<[[0.5, 1.0, 1.5], [2.0, -0.0, 3.0], [3.5, 4.0, 4.5],
                             [5.0, 5.5, 6.0], [6.5, 7.0, 7.5]]> : tensor<5x3xf32>
  %st = fp8.tma_align_scales %s : tensor<5x3xf32> -> tensor<3x8xf32>
  %std = tensor.cast %st : tensor<3x8xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1056964608, 1073741824, 1080033280, 1084227584, 1087373312, 0, 0, 0]
  // CHECK-NEXT: [1065353216, -2147483648, 1082130432, 1085276160, 1088421888, 0, 0, 0]
  // CHECK-NEXT: [1069547520, 1077936128, 1083179008, 1086324736, 1089470464, 0, 0, 0]
  call @print_f32_bits(%std) : (tensor<?x?xf32>) -> ()

  // E8M0 codes (255 is NaN, moved as it is): 3 rows pad to 16 with code 0.
  %codes = arith.constant dense<[[1, 2], [127, -2], [-1, 100]]> : tensor<3x2xi8>
  %e = arith.bitcast %codes : tensor<3x2xi8> to tensor<3x2xf8E8M0FNU>
  %et = fp8.tma_align_scales %e : tensor<3x2xf8E8M0FNU> -> tensor<2x16xf8E8M0FNU>
  %etd = tensor.cast %et : tensor<2x16xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1, 127, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
  // CHECK-NEXT: [2, 254, 100, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
  call @print_e8m0(%etd) : (tensor<?x?xf8E8M0FNU>) -> ()

  // Blockwise Fprop, X 5x256 in 1x128 tiles (scales 5x2, TMA-aligned 2x8),
  // W 3x256 in 128x128 tiles: the same bits with X's scales in either
  // layout.
  %xd = call @pattern(%c5, %c256, %c1, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<5x256xf32>
  %wd = call @pattern(%c3, %c256, %c128, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %w = tensor.cast %wd : tensor<?x?xf32> to tensor<3x256xf32>
  %qx, %sx = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<5x256xf32> -> tensor<5x256xf8E4M3FN>, tensor<5x2xf32>
  %qw, %sw = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<3x256xf32> -> tensor<3x256xf8E4M3FN>, tensor<1x2xf32>
  %y = fp8.scaled_matmul %qx, %sx, %qw, %sw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<5x256xf8E4M3FN>, tensor<5x2xf32>, tensor<3x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<5x3xf32>
  %yd = tensor.cast %y : tensor<5x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156875068, -1001725207, -1022527253]
  // CHECK-NEXT: [-993336599, 1165373006, -993343723]
  // CHECK-NEXT: [-1009502880, -988277425, 1169430209]
  // CHECK-NEXT: [1140498994, -1021189428, -1001942159]
  // CHECK-NEXT: [-990943708, 1147293081, -1014122846]
  call @print_f32_bits(%yd) : (tensor<?x?xf32>) -> ()
  %sxt = fp8.tma_align_scales %sx : tensor<5x2xf32> -> tensor<2x8xf32>
  %yt = fp8.scaled_matmul %qx, %sxt, %qw, %sw {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<5x256xf8E4M3FN>, tensor<2x8xf32>, tensor<3x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<5x3xf32>
  %ytd = tensor.cast %yt : tensor<5x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156875068, -1001725207, -1022527253]
  // CHECK-NEXT: [-993336599, 1165373006, -993343723]
  // CHECK-NEXT: [-1009502880, -988277425, 1169430209]
  // CHECK-NEXT: [1140498994, -1021189428, -1001942159]
  // CHECK-NEXT: [-990943708, 1147293081, -1014122846]
  call @print_f32_bits(%ytd) : (tensor<?x?xf32>) -> ()

  // Wgrad-style 1x128 x 1x128: both operands' scales TMA-aligned (B's 3
  // rows pad to 4), the same bits again.
  %gd = call @pattern(%c3, %c256, %c1, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %g = tensor.cast %gd : tensor<?x?xf32> to tensor<3x256xf32>
  %qg, %sg = fp8.quantize %g {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<3x256xf32> -> tensor<3x256xf8E5M2>, tensor<3x2xf32>
  %d = fp8.scaled_matmul %qx, %sx, %qg, %sg {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<5x256xf8E4M3FN>, tensor<5x2xf32>, tensor<3x256xf8E5M2>, tensor<3x2xf32>) -> tensor<5x3xf32>
  %dd = tensor.cast %d : tensor<5x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156988373, -993199888, -1009347501]
  // CHECK-NEXT: [-993203790, 1173884398, -979766622]
  // CHECK-NEXT: [-1008925586, -979806825, 1183319698]
  // CHECK-NEXT: [1140723516, -1012267092, -988338399]
  // CHECK-NEXT: [-990818304, 1155949670, -1000450650]
  call @print_f32_bits(%dd) : (tensor<?x?xf32>) -> ()
  %sgt = fp8.tma_align_scales %sg : tensor<3x2xf32> -> tensor<2x4xf32>
  %dt = fp8.scaled_matmul %qx, %sxt, %qg, %sgt {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scale_layout = #fp8.scale_layout<col_major_tma>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<5x256xf8E4M3FN>, tensor<2x8xf32>, tensor<3x256xf8E5M2>, tensor<2x4xf32>) -> tensor<5x3xf32>
  %dtd = tensor.cast %dt : tensor<5x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156988373, -993199888, -1009347501]
  // CHECK-NEXT: [-993203790, 1173884398, -979766622]
  // CHECK-NEXT: [-1008925586, -979806825, 1183319698]
  // CHECK-NEXT: [1140723516, -1012267092, -988338399]
  // CHECK-NEXT: [-990818304, 1155949670, -1000450650]
  call @print_f32_bits(%dtd) : (tensor<?x?xf32>) -> ()

  // MXFP8 scales (1x32, E8M0: 5 and 3 rows pad to 16) in col_major_tma, the
  // same bits as row-major.
  %qm, %sm = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<5x256xf32> -> tensor<5x256xf8E4M3FN>, tensor<5x8xf8E8M0FNU>
  %qn, %sn = fp8.quantize %g {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<3x256xf32> -> tensor<3x256xf8E4M3FN>, tensor<3x8xf8E8M0FNU>
  %m = fp8.scaled_matmul %qm, %sm, %qn, %sn {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<5x256xf8E4M3FN>, tensor<5x8xf8E8M0FNU>, tensor<3x256xf8E4M3FN>, tensor<3x8xf8E8M0FNU>) -> tensor<5x3xf32>
  %md = tensor.cast %m : tensor<5x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1157001856, -993269632, -1009275904]
  // CHECK-NEXT: [-993269632, 1173926496, -979797440]
  // CHECK-NEXT: [-1009275904, -979797440, 1183280564]
  // CHECK-NEXT: [1140198528, -1012347904, -988360256]
  // CHECK-NEXT: [-990823936, 1155174400, -1000792576]
  call @print_f32_bits(%md) : (tensor<?x?xf32>) -> ()
  %smt = fp8.tma_align_scales %sm : tensor<5x8xf8E8M0FNU> -> tensor<8x16xf8E8M0FNU>
  %snt = fp8.tma_align_scales %sn : tensor<3x8xf8E8M0FNU> -> tensor<8x16xf8E8M0FNU>
  %mt = fp8.scaled_matmul %qm, %smt, %qn, %snt {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scale_layout = #fp8.scale_layout<col_major_tma>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<5x256xf8E4M3FN>, tensor<8x16xf8E8M0FNU>, tensor<3x256xf8E4M3FN>, tensor<8x16xf8E8M0FNU>) -> tensor<5x3xf32>
  %mtd = tensor.cast %mt : tensor<5x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1157001856, -993269632, -1009275904]
  // CHECK-NEXT: [-993269632, 1173926496, -979797440]
  // CHECK-NEXT: [-1009275904, -979797440, 1183280564]
  // CHECK-NEXT: [1140198528, -1012347904, -988360256]
  // CHECK-NEXT: [-990823936, 1155174400, -1000792576]
  call @print_f32_bits(%mtd) : (tensor<?x?xf32>) -> ()
  return
}
