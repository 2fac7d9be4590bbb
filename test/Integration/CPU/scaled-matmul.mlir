// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py scaled-matmul | FileCheck %s

// fp8.scaled_matmul, to the bit. The K loop is cut into chunks; each chunk's
// products (exact in f32: two FP8 significands have at most 8 bits) are
// summed in f32 in order of k, then
//   - where a scale varies along K (K-block r or c not `*`): chunk = the finer
//     K-block, C += term(partial, sa, sb) for each chunk in order (promotion);
//   - where both scales are constant along K: chunk = 128 (promoted) or all of
//     K (fast), C = term(sum of partials in order, sa, sb) once;
// term(P, sa, sb) = fl32(sa * sb) * P where that product is a normal f32,
// else (P * sa) * sb.
// A bf16 result is the f32 result rounded to nearest even.

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

func.func @print_bf16_bits(%s: tensor<?x?xbf16>) {
  %b = arith.bitcast %s : tensor<?x?xbf16> to tensor<?x?xi16>
  %i = arith.extui %b : tensor<?x?xi16> to tensor<?x?xi32>
  %u = tensor.cast %i : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c8_i8 = arith.constant 8 : i8
  %c126_i8 = arith.constant 126 : i8
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c64 = arith.constant 64 : index
  %c128 = arith.constant 128 : index
  %c32 = arith.constant 32 : index
  %c200k = arith.constant 200 : index
  %c256 = arith.constant 256 : index

  // promoted vs fast. With amax 448 the scales are 1 and q = x exactly.
  // a = [448 x128, 1 x128; 1 x128, 448 x128], b = [448 x128, 1 x128; 1 x256].
  // C[0][0]: the first chunk sums 128 * 448^2 = 25690112 (> 2^24, ulp 2).
  //   promoted: the second chunk sums 128 ones on its own -> 25690112 + 128 =
  //   25690240 = 0x4BC40040 = 1271136320.
  //   fast: one chunk; every + 1 onto 25690112 is a tie and rounds back to the
  //   even 25690112 = 0x4BC40000 = 1271136256.
  // C[0][1] = 128 * 448 + 128 = 57472 = 0x47608000 = 1197506560 either way;
  // C[1][0] = 2 * 128 * 448 = 114688 = 0x47E00000 = 1205862400 (the small
  // terms come first, so no precision is lost).
  %ones = arith.constant dense<1.0> : tensor<2x256xf32>
  %big = arith.constant dense<448.0> : tensor<1x128xf32>
  %a1 = tensor.insert_slice %big into %ones[0, 0] [1, 128] [1, 1] : tensor<1x128xf32> into tensor<2x256xf32>
  %a = tensor.insert_slice %big into %a1[1, 128] [1, 128] [1, 1] : tensor<1x128xf32> into tensor<2x256xf32>
  %b = tensor.insert_slice %big into %ones[0, 0] [1, 128] [1, 1] : tensor<1x128xf32> into tensor<2x256xf32>
  %a448 = arith.constant dense<448.0> : tensor<1x1xf32>
  %qa, %sa = fp8.quantize %a amax(%a448 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x256xf32> -> tensor<2x256xf8E4M3FN>, tensor<1x1xf32>
  %qb, %sb = fp8.quantize %b amax(%a448 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x256xf32> -> tensor<2x256xf8E4M3FN>, tensor<1x1xf32>
  %cp = fp8.scaled_matmul %qa, %sa, %qb, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x256xf8E4M3FN>, tensor<1x1xf32>, tensor<2x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<2x2xf32>
  %cpd = tensor.cast %cp : tensor<2x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1271136320, 1197506560]
  // CHECK-NEXT: [1205862400, 1197506560]
  call @print_f32_bits(%cpd) : (tensor<?x?xf32>) -> ()
  %cf = fp8.scaled_matmul %qa, %sa, %qb, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        accumulate = #fp8.accumulate<fast>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x256xf8E4M3FN>, tensor<1x1xf32>, tensor<2x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<2x2xf32>
  %cfd = tensor.cast %cf : tensor<2x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1271136256, 1197506560]
  // CHECK-NEXT: [1205862400, 1197506560]
  call @print_f32_bits(%cfd) : (tensor<?x?xf32>) -> ()

  // The promotion interval of scales constant along K is 128, not less: a
  // row of 96 448s and 32 ones (then zeros) against the same row. In one
  // chunk of 128, the 448^2 terms pass 2^24 (96 * 200704 = 19267584, ulp 2)
  // before the ones arrive, and each + 1 is a tie that rounds back to the
  // even 19267584 = 0x4B930000 = 1267924992; chunks of 64 would keep them
  // (19267616). Together with the case above (fast = one chunk of 256
  // differs), this pins the chunk of 128.
  %zr = arith.constant dense<0.0> : tensor<1x256xf32>
  %r96 = arith.constant dense<448.0> : tensor<1x96xf32>
  %r32 = arith.constant dense<1.0> : tensor<1x32xf32>
  %p1 = tensor.insert_slice %r96 into %zr[0, 0] [1, 96] [1, 1] : tensor<1x96xf32> into tensor<1x256xf32>
  %p = tensor.insert_slice %r32 into %p1[0, 96] [1, 32] [1, 1] : tensor<1x32xf32> into tensor<1x256xf32>
  %qp, %sp = fp8.quantize %p amax(%a448 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x256xf32> -> tensor<1x256xf8E4M3FN>, tensor<1x1xf32>
  %pp = fp8.scaled_matmul %qp, %sp, %qp, %sp {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<1x256xf8E4M3FN>, tensor<1x1xf32>, tensor<1x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<1x1xf32>
  %ppd = tensor.cast %pp : tensor<1x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1267924992]
  call @print_f32_bits(%ppd) : (tensor<?x?xf32>) -> ()

  // Blockwise Fprop: X 2x256 in 1x128 tiles, W 3x256 in 128x128 tiles. Two
  // K-blocks of 128: C = (sx[m][0] sw[0][0]) p0 + (sx[m][1] sw[0][1]) p1.
  %xd = call @pattern(%c2, %c256, %c1, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %x = tensor.cast %xd : tensor<?x?xf32> to tensor<2x256xf32>
  %wd = call @pattern(%c3, %c256, %c128, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %w = tensor.cast %wd : tensor<?x?xf32> to tensor<3x256xf32>
  %qx, %sx = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<2x256xf32> -> tensor<2x256xf8E4M3FN>, tensor<2x2xf32>
  %qw, %sw = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<3x256xf32> -> tensor<3x256xf8E4M3FN>, tensor<1x2xf32>
  %y = fp8.scaled_matmul %qx, %sx, %qw, %sw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<3x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<2x3xf32>
  %yd = tensor.cast %y : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156875068, -1001725207, -1022527253]
  // CHECK-NEXT: [-993336599, 1165373006, -993343723]
  call @print_f32_bits(%yd) : (tensor<?x?xf32>) -> ()
  // fast changes nothing where scales vary along K: promotion is required.
  %yf = fp8.scaled_matmul %qx, %sx, %qw, %sw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        accumulate = #fp8.accumulate<fast>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<3x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<2x3xf32>
  %yfd = tensor.cast %yf : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156875068, -1001725207, -1022527253]
  // CHECK-NEXT: [-993336599, 1165373006, -993343723]
  call @print_f32_bits(%yfd) : (tensor<?x?xf32>) -> ()
  // The same product with a bf16 result: the f32 values above, rounded.
  %yb = fp8.scaled_matmul %qx, %sx, %qw, %sw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<3x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<2x3xbf16>
  %ybd = tensor.cast %yb : tensor<2x3xbf16> to tensor<?x?xbf16>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [17653, 50251, 49933]
  // CHECK-NEXT: [50379, 17782, 50379]
  call @print_bf16_bits(%ybd) : (tensor<?x?xbf16>) -> ()

  // The finer K-block sets the chunk: X in 1x32 E8M0 tiles (eight K-blocks)
  // against W's 128x128 f32 tiles -> chunks of 32, each scaled by its own
  // 2^e * sw product.
  %qm, %sm = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<2x256xf32> -> tensor<2x256xf8E4M3FN>, tensor<2x8xf8E8M0FNU>
  %ym = fp8.scaled_matmul %qm, %sm, %qw, %sw {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x256xf8E4M3FN>, tensor<2x8xf8E8M0FNU>, tensor<3x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<2x3xf32>
  %ymd = tensor.cast %ym : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1156924842, -1001692572, -1022341248]
  // CHECK-NEXT: [-993295241, 1165442197, -993292828]
  call @print_f32_bits(%ymd) : (tensor<?x?xf32>) -> ()

  // The three contracting forms compute the same product Y = X W^T: Fprop
  // (X: MxK, W: NxK, contracting [1, 1]), Dgrad form (X, W^T: KxN, [1, 0]) and
  // Wgrad form (X^T: KxM, W^T, [0, 0]). Tensorwise scales make the
  // transposes lossless, so all three print the same bits.
  %fd = call @pattern(%c4, %c256, %c1, %c64) : (index, index, index, index) -> tensor<?x?xf32>
  %f = tensor.cast %fd : tensor<?x?xf32> to tensor<4x256xf32>
  %gd = call @pattern(%c3, %c256, %c1, %c32) : (index, index, index, index) -> tensor<?x?xf32>
  %g = tensor.cast %gd : tensor<?x?xf32> to tensor<3x256xf32>
  %qf, %sf = fp8.quantize %f {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<4x256xf32> -> tensor<4x256xf8E4M3FN>, tensor<1x1xf32>
  %qg, %sg = fp8.quantize %g {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<3x256xf32> -> tensor<3x256xf8E5M2>, tensor<1x1xf32>
  %ft, %sft = fp8.transpose %qf, %sf {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<4x256xf8E4M3FN>, tensor<1x1xf32> -> tensor<256x4xf8E4M3FN>, tensor<1x1xf32>
  %gt, %sgt = fp8.transpose %qg, %sg {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<3x256xf8E5M2>, tensor<1x1xf32> -> tensor<256x3xf8E5M2>, tensor<1x1xf32>
  %y11 = fp8.scaled_matmul %qf, %sf, %qg, %sg {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<4x256xf8E4M3FN>, tensor<1x1xf32>, tensor<3x256xf8E5M2>, tensor<1x1xf32>) -> tensor<4x3xf32>
  %y10 = fp8.scaled_matmul %qf, %sf, %gt, %sgt {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<4x256xf8E4M3FN>, tensor<1x1xf32>, tensor<256x3xf8E5M2>, tensor<1x1xf32>) -> tensor<4x3xf32>
  %y00 = fp8.scaled_matmul %ft, %sft, %gt, %sgt {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x4xf8E4M3FN>, tensor<1x1xf32>, tensor<256x3xf8E5M2>, tensor<1x1xf32>) -> tensor<4x3xf32>
  %y01 = fp8.scaled_matmul %ft, %sft, %qg, %sg {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 0, 1>}
      : (tensor<256x4xf8E4M3FN>, tensor<1x1xf32>, tensor<3x256xf8E5M2>, tensor<1x1xf32>) -> tensor<4x3xf32>
  %y11d = tensor.cast %y11 : tensor<4x3xf32> to tensor<?x?xf32>
  %y01d = tensor.cast %y01 : tensor<4x3xf32> to tensor<?x?xf32>
  %y10d = tensor.cast %y10 : tensor<4x3xf32> to tensor<?x?xf32>
  %y00d = tensor.cast %y00 : tensor<4x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1160560614, -988870543, -1006419725]
  // CHECK-NEXT: [-988826148, 1177956342, -974773835]
  // CHECK-NEXT: [-1007232922, -974704208, 1187233400]
  // CHECK-NEXT: [1144294375, -1008901112, -984436556]
  call @print_f32_bits(%y11d) : (tensor<?x?xf32>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1160560614, -988870543, -1006419725]
  // CHECK-NEXT: [-988826148, 1177956342, -974773835]
  // CHECK-NEXT: [-1007232922, -974704208, 1187233400]
  // CHECK-NEXT: [1144294375, -1008901112, -984436556]
  call @print_f32_bits(%y10d) : (tensor<?x?xf32>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1160560614, -988870543, -1006419725]
  // CHECK-NEXT: [-988826148, 1177956342, -974773835]
  // CHECK-NEXT: [-1007232922, -974704208, 1187233400]
  // CHECK-NEXT: [1144294375, -1008901112, -984436556]
  call @print_f32_bits(%y00d) : (tensor<?x?xf32>) -> ()
  // The fourth combination (X^T: KxM, W: NxK, [0, 1]) agrees too.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1160560614, -988870543, -1006419725]
  // CHECK-NEXT: [-988826148, 1177956342, -974773835]
  // CHECK-NEXT: [-1007232922, -974704208, 1187233400]
  // CHECK-NEXT: [1144294375, -1008901112, -984436556]
  call @print_f32_bits(%y01d) : (tensor<?x?xf32>) -> ()

  // Blockwise Dgrad: dY (2x256, 1x128 tiles, contracted along dim 1) times W
  // stored NxK = 256x4 in 128x128 tiles, contracted along dim 0.
  %dwd = call @pattern(%c256, %c4, %c128, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %dw = tensor.cast %dwd : tensor<?x?xf32> to tensor<256x4xf32>
  %qdw, %sdw = fp8.quantize %dw {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x4xf32> -> tensor<256x4xf8E4M3FN>, tensor<2x1xf32>
  %dx = fp8.scaled_matmul %qx, %sx, %qdw, %sdw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<2x256xf8E4M3FN>, tensor<2x2xf32>, tensor<256x4xf8E4M3FN>, tensor<2x1xf32>) -> tensor<2x4xf32>
  %dxd = tensor.cast %dx : tensor<2x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1086743531, -1033820056, 1120032486, -1033032993]
  // CHECK-NEXT: [1119829546, 1136981468, 1128290048, -1020318669]
  call @print_f32_bits(%dxd) : (tensor<?x?xf32>) -> ()

  // Blockwise Wgrad: dW = dY^T X with dY (256x3) and X (256x4) both in 128x1
  // tiles, contracted along dim 0 (rows): two K-blocks, each scale product
  // sdy[kb][n] sx[kb][k] applied to its own partial sum.
  %dyd = call @pattern(%c256, %c3, %c128, %c1) : (index, index, index, index) -> tensor<?x?xf32>
  %dy = tensor.cast %dyd : tensor<?x?xf32> to tensor<256x3xf32>
  %xxd = call @pattern(%c256, %c4, %c64, %c1) : (index, index, index, index) -> tensor<?x?xf32>
  %xx = tensor.cast %xxd : tensor<?x?xf32> to tensor<256x4xf32>
  %qdy, %sdy = fp8.quantize %dy {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x3xf32> -> tensor<256x3xf8E5M2>, tensor<2x3xf32>
  %qxx, %sxx = fp8.quantize %xx {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x4xf32> -> tensor<256x4xf8E4M3FN>, tensor<2x4xf32>
  %dwg = fp8.scaled_matmul %qdy, %sdy, %qxx, %sxx {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x3xf8E5M2>, tensor<2x3xf32>, tensor<256x4xf8E4M3FN>, tensor<2x4xf32>) -> tensor<3x4xf32>
  %dwgd = tensor.cast %dwg : tensor<3x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1158144910, 1154289706, -1010620296, -1002812696]
  // CHECK-NEXT: [1154171346, 1174951066, 1168093307, -1022814689]
  // CHECK-NEXT: [-1009537087, 1168155318, 1184410781, 1160272964]
  call @print_f32_bits(%dwgd) : (tensor<?x?xf32>) -> ()

  // A K that is no multiple of the K-block: K = 200 = 128 + 72 with 1x128 /
  // 128x128 tiles (the second K-block is partial; the zero padding adds
  // nothing), and rowwise scales, whose promoted chunks of 128 are 128 + 72.
  %kxd = call @pattern(%c2, %c200k, %c1, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %kx = tensor.cast %kxd : tensor<?x?xf32> to tensor<2x200xf32>
  %kwd = call @pattern(%c3, %c200k, %c128, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %kw = tensor.cast %kwd : tensor<?x?xf32> to tensor<3x200xf32>
  %qkx, %skx = fp8.quantize %kx {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<2x200xf32> -> tensor<2x200xf8E4M3FN>, tensor<2x2xf32>
  %qkw, %skw = fp8.quantize %kw {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<3x200xf32> -> tensor<3x200xf8E4M3FN>, tensor<1x2xf32>
  %ky = fp8.scaled_matmul %qkx, %skx, %qkw, %skw {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x200xf8E4M3FN>, tensor<2x2xf32>, tensor<3x200xf8E4M3FN>, tensor<1x2xf32>) -> tensor<2x3xf32>
  %kyd = tensor.cast %ky : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1151103536, -1006688732, -1028106438]
  // CHECK-NEXT: [-998300124, 1159806953, -997822417]
  call @print_f32_bits(%kyd) : (tensor<?x?xf32>) -> ()
  %rqx, %rsx = fp8.quantize %kx {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x200xf32> -> tensor<2x200xf8E4M3FN>, tensor<2x1xf32>
  %rqw, %rsw = fp8.quantize %kw {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<3x200xf32> -> tensor<3x200xf8E5M2>, tensor<3x1xf32>
  %ry = fp8.scaled_matmul %rqx, %rsx, %rqw, %rsw {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x200xf8E4M3FN>, tensor<2x1xf32>, tensor<3x200xf8E5M2>, tensor<3x1xf32>) -> tensor<2x3xbf16>
  %ryd = tensor.cast %ry : tensor<2x3xbf16> to tensor<?x?xbf16>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [17565, 50177, 49858]
  // CHECK-NEXT: [50304, 17699, 50311]
  call @print_bf16_bits(%ryd) : (tensor<?x?xbf16>) -> ()

  // A batch dimension: 2 x (2x64 . 3x64^T), one tensorwise scale per batch
  // element (rowwise in A, to show per-batch, per-row scale indexing).
  %ba = arith.constant dense<[[[1.0, -2.0, 3.0, 4.0], [0.5, 0.25, -0.125, 8.0]],
                              [[10.0, 20.0, -30.0, 40.0], [1.5, 2.5, 3.5, -4.5]]]> : tensor<2x2x4xf32>
  %bb = arith.constant dense<[[[1.0, 1.0, 1.0, 1.0], [2.0, 0.0, -2.0, 0.0], [0.5, 0.5, 0.5, 100.0]],
                              [[1.0, -1.0, 1.0, -1.0], [3.0, 3.0, 3.0, 3.0], [0.0, 0.0, 0.0, 7.0]]]> : tensor<2x3x4xf32>
  %qba, %sba = fp8.quantize %ba {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<2x2x4xf32> -> tensor<2x2x4xf8E4M3FN>, tensor<2x2x1xf32>
  %qbb, %sbb = fp8.quantize %bb {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x3x4xf32> -> tensor<2x3x4xf8E4M3FN>, tensor<2x1x1xf32>
  %bc = fp8.scaled_matmul %qba, %sba, %qbb, %sbb {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x2x4xf8E4M3FN>, tensor<2x2x1xf32>, tensor<2x3x4xf8E4M3FN>, tensor<2x1x1xf32>) -> tensor<2x2x3xf32>
  %bcc = tensor.collapse_shape %bc [[0, 1], [2]] : tensor<2x2x3xf32> into tensor<4x3xf32>
  %bcd = tensor.cast %bcc : tensor<4x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1086079979, -1066482040, 1137211235]
  // CHECK-NEXT: [1091214775, 1067497179, 1145574423]
  // CHECK-NEXT: [-1029888877, 1123586634, 1133248512]
  // CHECK-NEXT: [1088234642, 1091736137, -1040449536]
  call @print_f32_bits(%bcd) : (tensor<?x?xf32>) -> ()

  // Scale pairs near the f32 limits: C = fl32(sa sb) P where the product of
  // the scales is a normal f32, else (P sa) sb. A rows: 0, 2^-6 (e4m3 0x08)
  // and 448 (0x7E) at k = 0; B rows: 2^-6 and 448. sa = 2^100, 2^100,
  // fl32(1.1 * 2^-100); sb = 2^30, fl32(1.3 * 2^-30).
  //  - sa0 sb0 = 2^130 overflows: 0 (not inf * 0 = NaN);
  //  - sa1 sb0 overflows too: (2^-12 2^100) 2^30 = 2^118 = 0x7A800000, not inf;
  //  - sa2 sb1 is subnormal: (200704 sa2) sb1 = 126624727, where the rounded
  //    product would give 126624729.
  // The same with the scales applied in the epilogue (tile [1, *]) and by
  // promotion (tile [1, 32], one K-block).
  %ec = arith.constant dense<0> : tensor<3x32xi8>
  %ec1 = tensor.insert %c8_i8 into %ec[%c1, %c0] : tensor<3x32xi8>
  %ec2 = tensor.insert %c126_i8 into %ec1[%c2, %c0] : tensor<3x32xi8>
  %eq = arith.bitcast %ec2 : tensor<3x32xi8> to tensor<3x32xf8E4M3FN>
  %nc = arith.constant dense<0> : tensor<2x32xi8>
  %nc1 = tensor.insert %c8_i8 into %nc[%c0, %c0] : tensor<2x32xi8>
  %nc2 = tensor.insert %c126_i8 into %nc1[%c1, %c0] : tensor<2x32xi8>
  %nq = arith.bitcast %nc2 : tensor<2x32xi8> to tensor<2x32xf8E4M3FN>
  %esb = arith.constant dense<[[0x71800000], [0x71800000], [0x0D8CCCCD]]> : tensor<3x1xi32>
  %es = arith.bitcast %esb : tensor<3x1xi32> to tensor<3x1xf32>
  %nsb = arith.constant dense<[[0x4E800000], [0x30A66666]]> : tensor<2x1xi32>
  %ns = arith.bitcast %nsb : tensor<2x1xi32> to tensor<2x1xf32>
  %xe = fp8.scaled_matmul %eq, %es, %nq, %ns {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<3x32xf8E4M3FN>, tensor<3x1xf32>, tensor<2x32xf8E4M3FN>, tensor<2x1xf32>) -> tensor<3x2xf32>
  %xed = tensor.cast %xe : tensor<3x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [2055208960, 1678875033]
  // CHECK-NEXT: [502687335, 126624727]
  call @print_f32_bits(%xed) : (tensor<?x?xf32>) -> ()
  %xp = fp8.scaled_matmul %eq, %es, %nq, %ns {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<3x32xf8E4M3FN>, tensor<3x1xf32>, tensor<2x32xf8E4M3FN>, tensor<2x1xf32>) -> tensor<3x2xf32>
  %xpd = tensor.cast %xp : tensor<3x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [2055208960, 1678875033]
  // CHECK-NEXT: [502687335, 126624727]
  call @print_f32_bits(%xpd) : (tensor<?x?xf32>) -> ()

  // A negative scale: the product's magnitude decides, so a normal negative
  // product goes first like a positive one. sa = 1, 1, -1.1; sb = 1.3, 1:
  // C[2][0] = fl32(-1.1 * 1.3) * 7 = -1054856971 (0xC1209BF5), where
  // (7 * -1.1) * 1.3 would give -1054856970.
  %gsb = arith.constant dense<[[0x3F800000], [0x3F800000], [0xBF8CCCCD]]> : tensor<3x1xi32>
  %gs = arith.bitcast %gsb : tensor<3x1xi32> to tensor<3x1xf32>
  %hsb = arith.constant dense<[[0x3FA66666], [0x3F800000]]> : tensor<2x1xi32>
  %hs = arith.bitcast %hsb : tensor<2x1xi32> to tensor<2x1xf32>
  %ge = fp8.scaled_matmul %eq, %gs, %nq, %hs {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<3x32xf8E4M3FN>, tensor<3x1xf32>, tensor<2x32xf8E4M3FN>, tensor<2x1xf32>) -> tensor<3x2xf32>
  %ged = tensor.cast %ge : tensor<3x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [967206502, 1088421888]
  // CHECK-NEXT: [-1054856971, -933783142]
  call @print_f32_bits(%ged) : (tensor<?x?xf32>) -> ()
  %gp = fp8.scaled_matmul %eq, %gs, %nq, %hs {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<3x32xf8E4M3FN>, tensor<3x1xf32>, tensor<2x32xf8E4M3FN>, tensor<2x1xf32>) -> tensor<3x2xf32>
  %gpd = tensor.cast %gp : tensor<3x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0]
  // CHECK-NEXT: [967206502, 1088421888]
  // CHECK-NEXT: [-1054856971, -933783142]
  call @print_f32_bits(%gpd) : (tensor<?x?xf32>) -> ()
  return
}
