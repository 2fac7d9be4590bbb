// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py stochastic-rounding | FileCheck %s

// Stochastic rounding, bit for bit. Element i of a quantize with seed s draws
// r = word (i mod 4) of Philox4x32-10(counter = (lo c, hi c, 0, 0), key =
// (lo s, hi s)) with c = i / 4: four consecutive elements share one call
// (Triton's tl.randint4x(s, c)), and adds its low B bits (B = 20 for e4m3,
// 21 for e5m2: the f32 mantissa bits the cast drops) to |x|'s bits, then
// truncates. With qscale = 1 (delayed amax = fmax), x = 1 + f 2^-23 with
// f < 2^B rounds up to the next FP8 value iff f + (r mod 2^B) >= 2^B. So
//   x_up = 0x3F800000 | (2^B - (r mod 2^B))  always rounds up,
//   x_dn = x_up - 1 ulp                       never does,
// which pins the low B bits of r. Word 0 of each call is a published vector
// (research notes section 6, checked against Random123's known answers;
// oracle.py also checks the four words against Random123's vectors):
//   seed 42, counter 0 -> 0x9CEAF053, 0x77F5493B, 0x12BF50AD, 0x5742B3D7:
//     e4m3 R = 0xAF053, 0x5493B, 0xF50AD, 0x2B3D7,
//     x_up = 0x3F850FAD, 0x3F8AB6C5, 0x3F80AF53, 0x3F8D4C29
//   seed 0, counter 0 -> 0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8:
//     x_up = 0x3F88172B, 0x3F863A73, 0x3F8853B4, 0x3F8F2428
//   (0x0123456789ABCDEF, 0) -> 0xB850222E: x_up = 0x3F8FDDD2
//   (42, 12345) -> word 1 of counter 3086, 0x5BACED71: x_up = 0x3F83128F
//   e5m2 (B = 21), seed 42: R = 0x0AF053, 0x15493B, 0x1F50AD, 0x02B3D7 ->
//     x_up = 0x3F950FAD, 0x3F8AB6C5, 0x3F80AF53, 0x3F9D4C29
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
  %up42 = arith.constant dense<[[0x3F850FAD, 0x3F8AB6C5, 0x3F80AF53, 0x3F8D4C29]]> : tensor<1x4xf32>
  %dn42 = arith.constant dense<[[0x3F850FAC, 0x3F8AB6C4, 0x3F80AF52, 0x3F8D4C28]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57, 57, 57, 57]
  call @sr_e4m3(%up42, %s42) : (tensor<1x4xf32>, i64) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 56, 56]
  call @sr_e4m3(%dn42, %s42) : (tensor<1x4xf32>, i64) -> ()

  // Seed 0: x_up of elements 0 and 1, then at elements 2 and 3 the x_up of
  // elements 3 and 2, which meet the other words: 0x3F8F2428 has f =
  // 0xF2428, + R2 = 0x7AC4C >= 2^20 -> up; 0x3F8853B4: f = 0x853B4, + R3 =
  // 0x0DBD8 < 2^20 -> down.
  %s0v = arith.constant dense<[[0x3F88172B, 0x3F863A73, 0x3F8F2428, 0x3F8853B4]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57, 57, 57, 56]
  call @sr_e4m3(%s0v, %s0) : (tensor<1x4xf32>, i64) -> ()
  // Elements 0 and 1 now get x_dn (down), 2 and 3 their own x_up (up).
  %s0d = arith.constant dense<[[0x3F88172A, 0x3F863A72, 0x3F8853B4, 0x3F8F2428]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 57, 57]
  call @sr_e4m3(%s0d, %s0) : (tensor<1x4xf32>, i64) -> ()

  // A 64-bit seed: both key words matter.
  %bigv = arith.constant dense<[[0x3F8FDDD2, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>
  %bigd = arith.constant dense<[[0x3F8FDDD1, 0.0, 0.0, 0.0]]> : tensor<1x4xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57, 0, 0, 0]
  call @sr_e4m3(%bigv, %sbig) : (tensor<1x4xf32>, i64) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 0, 0, 0]
  call @sr_e4m3(%bigd, %sbig) : (tensor<1x4xf32>, i64) -> ()

  // The linear index reaches the counter: element 12345.
  %v12345 = arith.constant 0x3F83128F : f32
  %d12345 = arith.constant 0x3F83128E : f32
  // CHECK: Unranked Memref
  // CHECK-NEXT: [57]
  call @sr_e4m3_at_12345(%v12345, %s42) : (f32, i64) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56]
  call @sr_e4m3_at_12345(%d12345, %s42) : (f32, i64) -> ()

  // e5m2 keeps 21 random bits.
  %up5 = arith.constant dense<[[0x3F950FAD, 0x3F8AB6C5, 0x3F80AF53, 0x3F9D4C29]]> : tensor<1x4xf32>
  %dn5 = arith.constant dense<[[0x3F950FAC, 0x3F8AB6C4, 0x3F80AF52, 0x3F9D4C28]]> : tensor<1x4xf32>
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
  %edge2 = arith.constant dense<[[-0.0, 447.9, 0x3A800000, 0xBA400000]]> : tensor<1x4xf32>
  // -0.0 -> 128; 447.9 -> 126 (it lies above 416, so down is 416 = 0x7D =
  // 125 and up is 448: r of element 1 is 0x77F5493B, R = 0x5493B, and the
  // dropped bits of 447.9 (0x43DFF333) are 0xFF333: sum >= 2^20 -> up).
  // 2^-10 (half a quantum), element 2, r = 0x12BF50AD: the fraction bits are
  // 2^19 and R = 0xF50AD -> sum >= 2^20 -> up to 2^-9 = 0x01.
  // -0.75 * 2^-10 = -0.375 quanta, element 3, R = 0x2B3D7: 0x60000 + 0x2B3D7
  // < 2^20 -> down to -0 = 0x80 = 128.
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
  // CHECK-NEXT: [13088409]
  call @checksum_e5m2(%qd0) : (tensor<?x?xf8E5M2>) -> ()
  %sl0 = tensor.extract_slice %qd0[0, 0] [2, 12] [1, 1] : tensor<?x?xf8E5M2> to tensor<2x12xf8E5M2>
  %sld0 = tensor.cast %sl0 : tensor<2x12xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [244, 242, 240, 236, 94, 109, 113, 115, 116, 244, 241, 239]
  // CHECK-NEXT: [233, 104, 111, 113, 116, 245, 243, 241, 238, 231, 106, 111]
  call @print_e5m2(%sld0) : (tensor<?x?xf8E5M2>) -> ()
  %q1, %sc1 = fp8.quantize %p seed(%sm1) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<4x96xf32> -> tensor<4x96xf8E4M3FN>, tensor<4x3xf8E8M0FNU>
  %qd1 = tensor.cast %q1 : tensor<4x96xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [12856048]
  call @checksum_e4m3(%qd1) : (tensor<?x?xf8E4M3FN>) -> ()
  %sl1 = tensor.extract_slice %qd1[0, 28] [2, 12] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<2x12xf8E4M3FN>
  %sld1 = tensor.cast %sl1 : tensor<2x12xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [245, 239, 224, 102, 113, 119, 122, 251, 248, 244, 237, 216]
  // CHECK-NEXT: [107, 115, 121, 123, 251, 247, 242, 233, 88, 109, 116, 121]
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
  // CHECK-NEXT: [7030254]
  call @checksum_e4m3(%qd2) : (tensor<?x?xf8E4M3FN>) -> ()
  %sl2 = tensor.extract_slice %qd2[0, 0] [2, 12] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<2x12xf8E4M3FN>
  %sld2 = tensor.cast %sl2 : tensor<2x12xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [156, 153, 148, 140, 2, 14, 22, 26, 30, 156, 152, 147]
  // CHECK-NEXT: [142, 12, 25, 31, 35, 166, 163, 159, 153, 137, 16, 27]
  call @print_e4m3(%sld2) : (tensor<?x?xf8E4M3FN>) -> ()

  // With a batch dimension the index runs over the whole tensor: a 2x1x4
  // quantization (one tensorwise scale per batch element, both 1 here) draws
  // the words of elements 0..7, like the 1x8 one.
  %b3 = arith.constant dense<[[[0x3F850FAC, 0x3F8AB6C4, 0x3F80AF52, 0x3F8D4C28]],
                              [[0x3F850FAC, 0x3F8AB6C4, 0x3F80AF52, 0x3F8D4C28]]]> : tensor<2x1x4xf32>
  %ab3 = arith.constant dense<448.0> : tensor<2x1x1xf32>
  %qb3, %sb3 = fp8.quantize %b3 amax(%ab3 : tensor<2x1x1xf32>) seed(%s42) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<2x1x4xf32> -> tensor<2x1x4xf8E4M3FN>, tensor<2x1x1xf32>
  %cb3 = tensor.collapse_shape %qb3 [[0, 1], [2]] : tensor<2x1x4xf8E4M3FN> into tensor<2x4xf8E4M3FN>
  %db3 = tensor.cast %cb3 : tensor<2x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // x_dn of elements 0..3 in both rows. Row 0: elements 0..3 -> all down,
  // as at the top; row 1: elements 4..7, the words of counter 1 (R =
  // 0xB2127, 0xA6CFD, 0xF5A6E, 0xE06FB), with which all four round up.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 56, 56]
  // CHECK-NEXT: [57, 57, 57, 57]
  call @print_e4m3(%db3) : (tensor<?x?xf8E4M3FN>) -> ()
  %f8 = arith.constant dense<[[0x3F850FAC, 0x3F8AB6C4, 0x3F80AF52, 0x3F8D4C28,
                               0x3F850FAC, 0x3F8AB6C4, 0x3F80AF52, 0x3F8D4C28]]> : tensor<1x8xf32>
  %a1 = arith.constant dense<448.0> : tensor<1x1xf32>
  %qf8, %sf8 = fp8.quantize %f8 amax(%a1 : tensor<1x1xf32>) seed(%s42) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x8xf32> -> tensor<1x8xf8E4M3FN>, tensor<1x1xf32>
  %df8 = tensor.cast %qf8 : tensor<1x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [56, 56, 56, 56, 57, 57, 57, 57]
  call @print_e4m3(%df8) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}
