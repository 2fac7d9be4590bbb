// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py hadamard | FileCheck %s

// fp8.hadamard: every block of `size` along `dim` is multiplied by
// R = diag(s) H / sqrt(n), H[j][i] = (-1)^popcount(i & j) (Sylvester order),
// computed as the fast Walsh-Hadamard butterfly of docs/Numerics.md: v = x s
// (exact), log2 n stages, stride h = 1 first, of (v_i, v_i+h) ->
// (fl32(v_i + v_i+h), fl32(v_i - v_i+h)) for i with bit h clear, then
// y_i = fl32(v_i * fl32(1 / sqrt(n))); s_j = -1 iff bit 0 of the random word
// of element j (docs/Numerics.md, stochastic rounding) is set (all +1 without a seed), the
// same signs for every block. For n = 4 and 16 the factor 1/2, 1/4 is exact,
// so on small dyadic inputs every value below is exact and the identities
// hold bit for bit.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

func.func @print_f32(%s: tensor<?x?xf32>) {
  %u = tensor.cast %s : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}

func.func @print_f32_bits(%s: tensor<?x?xf32>) {
  %b = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %b : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

// C = A B^T in f32, k in order.
func.func @matmul_nt(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c0 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                        affine_map<(i, j, k) -> (j, k)>,
                                        affine_map<(i, j, k) -> (i, j)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %c : tensor<?x?xf32>
}

// 1 where a == b bitwise everywhere, else 0.
func.func @print_equal(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) {
  %ai = arith.bitcast %a : tensor<?x?xf32> to tensor<?x?xi32>
  %bi = arith.bitcast %b : tensor<?x?xf32> to tensor<?x?xi32>
  %one = arith.constant 1 : i32
  %e = tensor.empty() : tensor<1x1xi32>
  %init = linalg.fill ins(%one : i32) outs(%e : tensor<1x1xi32>) -> tensor<1x1xi32>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (0, 0)>],
                       iterator_types = ["reduction", "reduction"]}
      ins(%ai, %bi : tensor<?x?xi32>, tensor<?x?xi32>) outs(%init : tensor<1x1xi32>) {
  ^bb0(%x: i32, %y: i32, %acc: i32):
    %eq = arith.cmpi eq, %x, %y : i32
    %eqi = arith.extui %eq : i1 to i32
    %and = arith.andi %acc, %eqi : i32
    linalg.yield %and : i32
  } -> tensor<1x1xi32>
  %u = tensor.cast %r : tensor<1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  // H4 / 2 from the identity (row j of the result is row j of R), then
  // applied again: H H = 4 I, so (H/2)(H/2) = I exactly.
  %i4 = arith.constant dense<[[1.0, 0.0, 0.0, 0.0], [0.0, 1.0, 0.0, 0.0],
                              [0.0, 0.0, 1.0, 0.0], [0.0, 0.0, 0.0, 1.0]]> : tensor<4x4xf32>
  %h4 = fp8.hadamard %i4 {dim = 1 : i64, size = 4 : i64} : tensor<4x4xf32>
  %h4d = tensor.cast %h4 : tensor<4x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0.5, 0.5, 0.5, 0.5]
  // CHECK-NEXT: [0.5, -0.5, 0.5, -0.5]
  // CHECK-NEXT: [0.5, 0.5, -0.5, -0.5]
  // CHECK-NEXT: [0.5, -0.5, -0.5, 0.5]
  call @print_f32(%h4d) : (tensor<?x?xf32>) -> ()
  %hh4 = fp8.hadamard %h4 {dim = 1 : i64, size = 4 : i64} : tensor<4x4xf32>
  %hh4d = tensor.cast %hh4 : tensor<4x4xf32> to tensor<?x?xf32>
  %i4d = tensor.cast %i4 : tensor<4x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  call @print_equal(%hh4d, %i4d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()

  // Round trip on data, size 16, blocks of 16 in a 2x32 tensor: H16 H16 / 16
  // = I, exact on these small dyadic values.
  %x = arith.constant dense<[
      [1.0, -2.0, 3.0, 0.5, 7.0, -1.25, 0.0, 4.0, 9.0, -8.0, 2.5, 1.0, -3.0, 6.0, 0.75, -5.0,
       100.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -0.0625],
      [-1.0, 2.0, -3.0, -0.5, -7.0, 1.25, 0.0, -4.0, -9.0, 8.0, -2.5, -1.0, 3.0, -6.0, -0.75, 5.0,
       0.125, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0, 512.0, 1024.0, 2048.0, 4096.0]]> : tensor<2x32xf32>
  %hx = fp8.hadamard %x {dim = 1 : i64, size = 16 : i64} : tensor<2x32xf32>
  %hhx = fp8.hadamard %hx {dim = 1 : i64, size = 16 : i64} : tensor<2x32xf32>
  %hhxd = tensor.cast %hhx : tensor<2x32xf32> to tensor<?x?xf32>
  %xd = tensor.cast %x : tensor<2x32xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  call @print_equal(%hhxd, %xd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  // The outlier 100 at the start of block 2 of row 0 is spread evenly:
  // y_i = (100 + (-1)^popcount(i & 15) (-0.0625)) / 4 -> 25 +- 0.015625.
  %hxs = tensor.extract_slice %hx[0, 16] [1, 4] [1, 1] : tensor<2x32xf32> to tensor<1x4xf32>
  %hxsd = tensor.cast %hxs : tensor<1x4xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [24.9844, 25.0156, 25.0156, 24.9844]
  call @print_f32(%hxsd) : (tensor<?x?xf32>) -> ()

  // Seeded signs, size 16, seed 7: from the identity, column 0 of R is
  // s_j / 4. rand32(7, j) for j = 0..15 (the four words of counters 0..3):
  // 0xF4607A2D, 0xC009F9DC, 0x1D3ABA42, 0x15EDAC82, 0x682E8E9B, 0xCB97BC13,
  // 0x2BFAFF6B, 0xF535EEA6, 0x018E23C0, 0x0229FBB4, 0xCEC27C6A, 0xD94320A7,
  // 0x63E41616, 0x40086B6F, 0x25D49543, 0x2397279F: bit 0 set for j = 0, 4,
  // 5, 6, 11, 13, 14, 15 -> s_j = -1 there.
  %i16 = arith.constant dense<[
      [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0],
      [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]]> : tensor<16x16xf32>
  %r = fp8.hadamard %i16 {dim = 1 : i64, size = 16 : i64, seed = 7 : i64} : tensor<16x16xf32>
  %rc = tensor.extract_slice %r[0, 0] [16, 1] [1, 1] : tensor<16x16xf32> to tensor<16x1xf32>
  %rcd = tensor.cast %rc : tensor<16x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [-0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [-0.25]
  // CHECK-NEXT: [-0.25]
  // CHECK-NEXT: [-0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [-0.25]
  // CHECK-NEXT: [0.25]
  // CHECK-NEXT: [-0.25]
  // CHECK-NEXT: [-0.25]
  // CHECK-NEXT: [-0.25]
  call @print_f32(%rcd) : (tensor<?x?xf32>) -> ()
  // R R^T = I: the signed rotation is orthogonal.
  %rd = tensor.cast %r : tensor<16x16xf32> to tensor<?x?xf32>
  %rrt = call @matmul_nt(%rd, %rd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %i16d = tensor.cast %i16 : tensor<16x16xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  call @print_equal(%rrt, %i16d) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  // Rotating both operands along the contracted dim leaves the product
  // unchanged: (x R)(w R)^T = x w^T, with the signed rotation on blocks of 16.
  %w = arith.constant dense<[
      [0.5, 1.0, -1.0, 2.0, 0.0, 0.25, -0.5, 3.0, 1.0, 1.0, 1.0, -1.0, 0.0, 0.0, 2.0, 0.125,
       1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0],
      [-3.0, 0.0, 0.5, 0.5, 0.5, 0.5, 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 4.0, -4.0, 0.25, 0.0,
       0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0, 0.0, 1.0, 0.0, -1.0],
      [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0,
       1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]]> : tensor<3x32xf32>
  %xr = fp8.hadamard %x {dim = 1 : i64, size = 16 : i64, seed = 7 : i64} : tensor<2x32xf32>
  %wr = fp8.hadamard %w {dim = 1 : i64, size = 16 : i64, seed = 7 : i64} : tensor<3x32xf32>
  %xrd = tensor.cast %xr : tensor<2x32xf32> to tensor<?x?xf32>
  %wrd = tensor.cast %wr : tensor<3x32xf32> to tensor<?x?xf32>
  %wd = tensor.cast %w : tensor<3x32xf32> to tensor<?x?xf32>
  %prot = call @matmul_nt(%xrd, %wrd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %pref = call @matmul_nt(%xd, %wd) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  call @print_equal(%prot, %pref) : (tensor<?x?xf32>, tensor<?x?xf32>) -> ()
  // x w^T itself (so that the check above compares something): row 0 . row 2
  // = sum of row 0 = 115.4375 (115.438 printed).
  // CHECK: Unranked Memref
  // CHECK-NEXT: [111.5, -38.125, 115.438]
  // CHECK-NEXT: [4084.56, -3238.56, 8176.38]
  call @print_f32(%pref) : (tensor<?x?xf32>) -> ()

  // The same signs in every block: e_0 in each of two blocks of 4 maps to
  // s_0 (1, 1, 1, 1) / 2 twice; seed 7 gives s_0 = -1.
  %e = arith.constant dense<[[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]]> : tensor<1x8xf32>
  %er = fp8.hadamard %e {dim = 1 : i64, size = 4 : i64, seed = 7 : i64} : tensor<1x8xf32>
  %erd = tensor.cast %er : tensor<1x8xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [-0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5, -0.5]
  call @print_f32(%erd) : (tensor<?x?xf32>) -> ()

  // dim = 0 on bf16: columns are rotated; (1, 2, 3, 4) H4 / 2 = (5, -1, -2,
  // 0), exact in bf16.
  %b = arith.constant dense<[[1.0, 0.5], [2.0, 0.5], [3.0, 0.5], [4.0, 0.5]]> : tensor<4x2xbf16>
  %hb = fp8.hadamard %b {dim = 0 : i64, size = 4 : i64} : tensor<4x2xbf16>
  %hbf = arith.extf %hb : tensor<4x2xbf16> to tensor<4x2xf32>
  %hbd = tensor.cast %hbf : tensor<4x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [5, 1]
  // CHECK-NEXT: [-1, 0]
  // CHECK-NEXT: [-2, 0]
  // CHECK-NEXT: [0, 0]
  call @print_f32(%hbd) : (tensor<?x?xf32>) -> ()

  // Size 128: 1/sqrt(128) is not exact, so H H x = x (1 + e) with
  // e = 128 fl32(1/sqrt 128)^2 - 1 plus the butterfly's rounding (bits: oracle).
  %c128 = arith.constant 128 : index
  %c2 = arith.constant 2 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %pd = call @pattern(%c2, %c128, %c1, %c64) : (index, index, index, index) -> tensor<?x?xf32>
  %p = tensor.cast %pd : tensor<?x?xf32> to tensor<2x128xf32>
  %hp = fp8.hadamard %p {dim = 1 : i64, size = 128 : i64} : tensor<2x128xf32>
  %hhp = fp8.hadamard %hp {dim = 1 : i64, size = 128 : i64} : tensor<2x128xf32>
  %hhs = tensor.extract_slice %hhp[0, 0] [2, 6] [1, 1] : tensor<2x128xf32> to tensor<2x6xf32>
  %hhsd = tensor.cast %hhs : tensor<2x6xf32> to tensor<?x?xf32>
  // x starts with -2.6875, -2, -1.3125, -0.625, 0.0625, 0.75 (row 0) and
  // -0.75, 0.625, 2, 3.375, 4.75, -6 (row 1); H H x is within a few ulps, e.g.
  // -2.6875 = 0xC02C0000 comes back as 0xC02BFFFF = -1070858241, 0.0625 as
  // 0.0625001 (the butterfly rounds log2 n = 7 times per element, not 127).
  // 2 = 0x40000000 comes back exact.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [-1070858241, -1073741825, -1079508994, -1088421890, 1031798793, 1061158911]
  // CHECK-NEXT: [-1086324740, 1059061765, 1073741824, 1079508991, 1083703295, -1061158913]
  call @print_f32_bits(%hhsd) : (tensor<?x?xf32>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [-2.6875, -2, -1.3125, -0.625, 0.0625001, 0.75]
  // CHECK-NEXT: [-0.75, 0.625, 2, 3.375, 4.75, -6]
  call @print_f32(%hhsd) : (tensor<?x?xf32>) -> ()
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
