// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py stochastic-rounding | FileCheck %s

// Stochastic rounding, bit for bit. Element i of a quantize with seed s draws
// 16 random bits R: the low (even i) or high (odd i) half of word
// (i mod 8) / 2 of Philox4x32-10(counter = (lo c, hi c, 0, 0), key =
// (lo s, hi s)) with c = i / 8: eight consecutive elements share one call
// (Triton's tl.randint4x(s, c)). R is added to the top 16 of the B bits
// the cast drops (B = 20 for e4m3, 21 for e5m2), i.e. R << (B - 16), and
// the sum truncated. With qscale = 1 (delayed amax = fmax), x = 1 + f 2^-23
// with f < 2^B rounds up to the next FP8 value iff (f >> (B - 16)) + R >=
// 2^16: the low B - 16 bits of f never matter. So
//   x_up = 0x3F800000 | ((2^16 - R) << (B - 16))  always rounds up,
//   x_dn = x_up - 1 ulp                            never does
// (its top 16 dropped bits are 2^16 - R - 1, its low ones all set), which
// pins R. Hand-derived, e4m3, seed 42, element 0: counter 0 gives the
// published word 0x9CEAF053 (research notes section 6; oracle.py checks it
// against Random123's vectors), element 0 takes its low half R = 0xF053,
// 2^16 - R = 0x0FAD, x_up = 0x3F800000 | 0x0FAD0 = 0x3F80FAD0 (f >> 4 =
// 0x0FAD, + R = 0x10000: a carry into bit 20, 1.0 -> 1.125), x_dn =
// 0x3F80FACF (0x0FAC + R = 0xFFFF: no carry, 1.0).
//   seed 42, counter 0 -> 0x9CEAF053, 0x77F5493B, 0x12BF50AD, 0x5742B3D7:
//     elements 0..7 R = 0xF053, 0x9CEA, 0x493B, 0x77F5, 0x50AD, 0x12BF,
//     0xB3D7, 0x5742; e4m3 x_up of 0..3 = 0x3F80FAD0, 0x3F863160,
//     0x3F8B6C50, 0x3F8880B0
//   seed 0, counter 0 -> 0x6627E8D5, 0xE169C58D, ...: R = 0xE8D5, 0x6627,
//     0xC58D, 0xE169; x_up = 0x3F8172B0, 0x3F899D90, 0x3F83A730, 0x3F81E970
//   (0x0123456789ABCDEF, 0) -> 0xB850222E: R = 0x222E, x_up = 0x3F8DDD20
//   (42, 12345) -> high half of word 0 of counter 1543, 0x729CF3F4:
//     R = 0x729C, x_up = 0x3F88D640
//   e5m2 (B = 21), seed 42: x_up = 0x3F800000 | ((2^16 - R) << 5) =
//     0x3F81F5A0, 0x3F8C62C0, 0x3F96D8A0, 0x3F910160
// Rounding up gives e4m3 1.125 = 0x39 = 57 (down: 1.0 = 0x38 = 56) and e5m2
// 1.25 = 0x3D = 61 (down: 0x3C = 60).

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

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

// Stochastic e4m3 quantization with qscale 1 (amax 448), printed.
func.func @sr_e4m3(%x: tensor<1x4xf32>, %seed: i64) {
  %a = arith.constant dense<448.0> : tensor<1x1xf32>
  %q, %s = fp8.quantize %x amax(%a : tensor<1x1xf32>) seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E4M3FN>, tensor<1x1xf32>
  %d = tensor.cast %q : tensor<1x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @print_e4m3(%d) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}

func.func @sr_e5m2(%x: tensor<1x4xf32>, %seed: i64) {
  %a = arith.constant dense<57344.0> : tensor<1x1xf32>
  %q, %s = fp8.quantize %x amax(%a : tensor<1x1xf32>) seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4xf32> -> tensor<1x4xf8E5M2>, tensor<1x1xf32>
  %d = tensor.cast %q : tensor<1x4xf8E5M2> to tensor<?x?xf8E5M2>
  call @print_e5m2(%d) : (tensor<?x?xf8E5M2>) -> ()
  return
}

// Element 12345 of a 1x12346 stochastic quantization (other elements 0).
func.func @sr_e4m3_at_12345(%v: f32, %seed: i64) {
  %c0 = arith.constant 0 : index
  %c12345 = arith.constant 12345 : index
  %z = arith.constant dense<0.0> : tensor<1x12346xf32>
  %x = tensor.insert %v into %z[%c0, %c12345] : tensor<1x12346xf32>
  %a = arith.constant dense<448.0> : tensor<1x1xf32>
  %q, %s = fp8.quantize %x amax(%a : tensor<1x1xf32>) seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x12346xf32> -> tensor<1x12346xf8E4M3FN>, tensor<1x1xf32>
  %e = tensor.extract_slice %q[0, 12345] [1, 1] [1, 1] : tensor<1x12346xf8E4M3FN> to tensor<1x1xf8E4M3FN>
  %d = tensor.cast %e : tensor<1x1xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @print_e4m3(%d) : (tensor<?x?xf8E4M3FN>) -> ()
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
  %s42 = arith.constant 42 : i64
  %s0 = arith.constant 0 : i64
  %sbig = arith.constant 81985529216486895 : i64

  // Seed 42, elements 0..3: x_up rounds up, x_dn down.
  %up42 = arith.constant dense<[[0x3F80FAD0, 0x3F863160, 0x3F8B6C50, 0x3F8880B0]]> : tensor<1x4xf32>
  %dn42 = arith.constant dense<[[0x3F80FACF, 0x3F86315F, 0x3F8B6C4F, 0x3F8880AF]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57, 57, 57, 57]
  call @sr_e4m3(%up42, %s42) : (tensor<1x4xf32>, i64) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 56, 56]
  call @sr_e4m3(%dn42, %s42) : (tensor<1x4xf32>, i64) -> ()

  // Seed 0: x_up of elements 0 and 1, then at elements 2 and 3 the x_up of
  // elements 3 and 2, which meet the other halves: 0x3F81E970 has f >> 4 =
  // 0x1E97, + R2 = 0xC58D -> 0xE424 < 2^16 -> down; 0x3F83A730: 0x3A73 +
  // R3 = 0xE169 -> 0x11BDC >= 2^16 -> up.
  %s0v = arith.constant dense<[[0x3F8172B0, 0x3F899D90, 0x3F81E970, 0x3F83A730]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57, 57, 56, 57]
  call @sr_e4m3(%s0v, %s0) : (tensor<1x4xf32>, i64) -> ()
  // Elements 0 and 1 now get x_dn (down), 2 and 3 their own x_up (up).
  %s0d = arith.constant dense<[[0x3F8172AF, 0x3F899D8F, 0x3F83A730, 0x3F81E970]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 57, 57]
  call @sr_e4m3(%s0d, %s0) : (tensor<1x4xf32>, i64) -> ()

  // A 64-bit seed: both key words matter.
  %bigv = arith.constant dense<[[0x3F8DDD20, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>
  %bigd = arith.constant dense<[[0x3F8DDD1F, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57, 0, 0, 0]
  call @sr_e4m3(%bigv, %sbig) : (tensor<1x4xf32>, i64) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 0, 0, 0]
  call @sr_e4m3(%bigd, %sbig) : (tensor<1x4xf32>, i64) -> ()

  // The linear index reaches the counter: element 12345.
  %v12345 = arith.constant 0x3F88D640 : f32
  %d12345 = arith.constant 0x3F88D63F : f32
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57]
  call @sr_e4m3_at_12345(%v12345, %s42) : (f32, i64) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56]
  call @sr_e4m3_at_12345(%d12345, %s42) : (f32, i64) -> ()

  // e5m2 drops 21 bits: R goes to bits 5..20.
  %up5 = arith.constant dense<[[0x3F81F5A0, 0x3F8C62C0, 0x3F96D8A0, 0x3F910160]]> : tensor<1x4xf32>
  %dn5 = arith.constant dense<[[0x3F81F59F, 0x3F8C62BF, 0x3F96D89F, 0x3F91015F]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [61, 61, 61, 61]
  call @sr_e5m2(%up5, %s42) : (tensor<1x4xf32>, i64) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [60, 60, 60, 60]
  call @sr_e5m2(%dn5, %s42) : (tensor<1x4xf32>, i64) -> ()

  // Saturation, NaN, signs and the subnormal range under stochastic rounding
  // (seed 42, qscale 1): 500 and +inf saturate to 448 (0x7E = 126), -inf to
  // 0xFE = 254, NaN -> 0x7F = 127, whatever the random bits.
  %edge = arith.constant dense<[[500.0, 0x7F800000, 0xFF800000, 0x7FC00000]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [126, 126, 254, 127]
  call @sr_e4m3(%edge, %s42) : (tensor<1x4xf32>, i64) -> ()
  %edge2 = arith.constant dense<[[-0.0, 447.9, 0x3AC00000, 0xBA400000]]> : tensor<1x4xf32>
  // -0.0 -> 128; 447.9 -> 126 (it lies above 416, so down is 416 = 0x7D =
  // 125 and up is 448: R of element 1 is 0x9CEA, and the top 16 dropped
  // bits of 447.9 (0x43DFF333) are 0xFF33: sum >= 2^16 -> up).
  // 1.5 * 2^-10 (0.75 of the quantum 2^-9), element 2, R = 0x493B: the
  // fixed-point fraction F = 0.75 * 2^20, its top 16 bits 0xC000, + R =
  // 0x1093B >= 2^16 -> up to 2^-9 = 0x01.
  // -0.75 * 2^-10 = -0.375 quanta, element 3, R = 0x77F5: 0x6000 + 0x77F5
  // < 2^16 -> down to -0 = 0x80 = 128.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [128, 126, 1, 128]
  call @sr_e4m3(%edge2, %s42) : (tensor<1x4xf32>, i64) -> ()

  // Many elements at once, against the oracle: @pattern values scaled into
  // the subnormal and normal ranges, rowwise e5m2 (seed 7) and 1x32 E8M0 e4m3
  // (seed -1: key words 0xFFFFFFFF), checksums of all codes plus a slice.
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c96 = arith.constant 96 : index
  %pd = call @pattern(%c4, %c96, %c1, %c32) : (index, index, index, index) -> tensor<?x?xf32>
  %p = tensor.cast %pd : tensor<?x?xf32> to tensor<4x96xf32>
  %tiny = arith.constant dense<0x38800000> : tensor<4x96xf32>
  %pt = arith.mulf %p, %tiny : tensor<4x96xf32>
  %s7 = arith.constant 7 : i64
  %sm1 = arith.constant -1 : i64
  %q0, %sc0 = fp8.quantize %pt seed(%s7) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<4x96xf32> -> tensor<4x96xf8E5M2>, tensor<4x1xf32>
  %qd0 = tensor.cast %q0 : tensor<4x96xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [13086967]
  call @checksum_e5m2(%qd0) : (tensor<?x?xf8E5M2>) -> ()
  %sl0 = tensor.extract_slice %qd0[0, 0] [2, 12] [1, 1] : tensor<?x?xf8E5M2> to tensor<2x12xf8E5M2>
  %sld0 = tensor.cast %sl0 : tensor<2x12xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [244, 243, 241, 236, 94, 108, 113, 114, 116, 244, 242, 240]
  // CHECK-NEXT: [233, 104, 111, 113, 115, 245, 243, 241, 238, 230, 106, 112]
  call @print_e5m2(%sld0) : (tensor<?x?xf8E5M2>) -> ()
  %q1, %sc1 = fp8.quantize %p seed(%sm1) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<4x96xf32> -> tensor<4x96xf8E4M3FN>, tensor<4x3xf8E8M0FNU>
  %qd1 = tensor.cast %q1 : tensor<4x96xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [12854398]
  call @checksum_e4m3(%qd1) : (tensor<?x?xf8E4M3FN>) -> ()
  %sl1 = tensor.extract_slice %qd1[0, 28] [2, 12] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<2x12xf8E4M3FN>
  %sld1 = tensor.cast %sl1 : tensor<2x12xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [245, 239, 224, 102, 113, 119, 122, 252, 249, 244, 237, 216]
  // CHECK-NEXT: [107, 115, 120, 123, 250, 247, 242, 233, 88, 109, 116, 121]
  call @print_e4m3(%sld1) : (tensor<?x?xf8E4M3FN>) -> ()
  // A tensorwise scale that puts most elements into e4m3's subnormal range:
  // delayed amax 2^12 * 3 -> qscale 448 / 12288 = 0.036458.
  %abig = arith.constant dense<12288.0> : tensor<1x1xf32>
  %q2, %sc2 = fp8.quantize %p amax(%abig : tensor<1x1xf32>) seed(%s7) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<4x96xf32> -> tensor<4x96xf8E4M3FN>, tensor<1x1xf32>
  %qd2 = tensor.cast %q2 : tensor<4x96xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [7030739]
  call @checksum_e4m3(%qd2) : (tensor<?x?xf8E4M3FN>) -> ()
  %sl2 = tensor.extract_slice %qd2[0, 0] [2, 12] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<2x12xf8E4M3FN>
  %sld2 = tensor.cast %sl2 : tensor<2x12xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [157, 154, 149, 140, 1, 14, 22, 26, 29, 156, 153, 147]
  // CHECK-NEXT: [142, 11, 26, 32, 35, 166, 163, 159, 153, 137, 16, 27]
  call @print_e4m3(%sld2) : (tensor<?x?xf8E4M3FN>) -> ()

  // With a batch dimension the index runs over the whole tensor: a 2x1x4
  // quantization (one tensorwise scale per batch element, both 1 here) draws
  // the words of elements 0..7, like the 1x8 one.
  %b3 = arith.constant dense<[[[0x3F80FACF, 0x3F86315F, 0x3F8B6C4F, 0x3F8880AF]],
                              [[0x3F80FACF, 0x3F86315F, 0x3F8B6C4F, 0x3F8880AF]]]> : tensor<2x1x4xf32>
  %ab3 = arith.constant dense<448.0> : tensor<2x1x1xf32>
  %qb3, %sb3 = fp8.quantize %b3 amax(%ab3 : tensor<2x1x1xf32>) seed(%s42) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x1x4xf32> -> tensor<2x1x4xf8E4M3FN>, tensor<2x1x1xf32>
  %cb3 = tensor.collapse_shape %qb3 [[0, 1], [2]] : tensor<2x1x4xf8E4M3FN> into tensor<2x4xf8E4M3FN>
  %db3 = tensor.cast %cb3 : tensor<2x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // x_dn of elements 0..3 in both rows. Row 0: elements 0..3 -> all down,
  // as at the top; row 1: elements 4..7, the halves of words 2 and 3 of
  // counter 0 (R = 0x50AD, 0x12BF, 0xB3D7, 0x5742): top dropped bits 0x0FAC,
  // 0x6315, 0xB6C4, 0x880A plus R -> only element 6 reaches 2^16 (0x16A9B).
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 56, 56]
  // CHECK-NEXT: [56, 56, 57, 56]
  call @print_e4m3(%db3) : (tensor<?x?xf8E4M3FN>) -> ()
  %f8 = arith.constant dense<[[0x3F80FACF, 0x3F86315F, 0x3F8B6C4F, 0x3F8880AF,
                               0x3F80FACF, 0x3F86315F, 0x3F8B6C4F, 0x3F8880AF]]> : tensor<1x8xf32>
  %a1 = arith.constant dense<448.0> : tensor<1x1xf32>
  %qf8, %sf8 = fp8.quantize %f8 amax(%a1 : tensor<1x1xf32>) seed(%s42) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x8xf32> -> tensor<1x8xf8E4M3FN>, tensor<1x1xf32>
  %df8 = tensor.cast %qf8 : tensor<1x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 56, 56, 56, 56, 57, 56]
  call @print_e4m3(%df8) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}
