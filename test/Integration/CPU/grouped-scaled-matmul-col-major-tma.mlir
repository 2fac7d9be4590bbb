// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s

// fp8.grouped_scaled_matmul with A's scales in the col_major_tma layout
// (fp8.tma_align_scales: transposed, rows padded to 16 bytes) gives the
// same bits as with the row-major scales they come from: the layout moves
// scales, never changes a value. The bits are those of
// grouped-scaled-matmul.mlir's contiguous case (same inputs).

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @print_f32_bits(%s: tensor<?x?xf32>) {
  %b = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
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
  %c2 = arith.constant 2 : index
  %c6 = arith.constant 6 : index
  %c12 = arith.constant 12 : index
  %c128 = arith.constant 128 : index
  %c256 = arith.constant 256 : index

  // X: 6 x 256 in 1x128 tiles; W: 3 experts of 4 x 256 in 128x128 tiles.
  %x = call @pattern(%c6, %c256, %c1, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %xs = tensor.cast %x : tensor<?x?xf32> to tensor<6x256xf32>
  %qx, %sx = fp8.quantize %xs {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<6x256xf32> -> tensor<6x256xf8E4M3FN>, tensor<6x2xf32>
  %w = call @pattern(%c12, %c256, %c2, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %ws = tensor.cast %w : tensor<?x?xf32> to tensor<12x256xf32>
  %w3 = tensor.expand_shape %ws [[0, 1], [2]] output_shape [3, 4, 256] : tensor<12x256xf32> into tensor<3x4x256xf32>
  %qw, %sw = fp8.quantize %w3 {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<3x4x256xf32> -> tensor<3x4x256xf8E4M3FN>, tensor<3x1x2xf32>
  %ends = arith.constant dense<[2, 2, 5]> : tensor<3xi32>

  // The 6 x 2 scales as 2 x 8: two rows of padding per K-block, which no
  // group reads.
  %sxt = fp8.tma_align_scales %sx : tensor<6x2xf32> -> tensor<2x8xf32>
  %y = fp8.grouped_scaled_matmul %qx, %sxt, %qw, %sw, %ends {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<6x256xf8E4M3FN>, tensor<2x8xf32>, tensor<3x4x256xf8E4M3FN>, tensor<3x1x2xf32>, tensor<3xi32>) -> tensor<6x4xf32>
  %yd = tensor.cast %y : tensor<6x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156875068, -1001725207, -1014138645, 1148887602]
  // CHECK-NEXT: [-993336599, 1165373006, -984955115, -1004412212]
  // CHECK-NEXT: [-987367236, -982889001, 1179199030, -973032160]
  // CHECK-NEXT: [1156970732, -999273318, -990634854, 1166164002]
  // CHECK-NEXT: [-982376376, 1164778044, -988532146, -981991314]
  // CHECK-NEXT: [0, 0, 0, 0]
  call @print_f32_bits(%yd) : (tensor<?x?xf32>) -> ()
  return
}
