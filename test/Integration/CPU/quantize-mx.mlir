// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py quantize-mx | FileCheck %s

// MX-style 1x32 tiles with E8M0 scales (and f32 power-of-two scales), and the
// edge cases of the E8M0 rules. @main's %e has one row per case; its 4
// columns are one partial 1x32 tile per row:
//   row 0: amax 0                 row 4: amax +inf
//   row 1: amax 2^-140 (f32 subnormal)   row 5: amax NaN
//   row 2: amax 2^-120 (tiny normal)     row 6: amax 448 (exactly fmax)
//   row 3: amax FLT_MAX           row 7: amax 449 (just above fmax)
// pow2_ceil (NVIDIA RCEIL): code = ceil_pow2(fl32(amax * fl32(1/fmax))), as a
//   biased exponent, saturated to [0, 254] (0 = 2^-127); NaN -> 255,
//   +inf -> 254. The data is multiplied by 2^(127 - code).
// pow2_floor (OCP MX): code = clamp(exponent field of amax - emax, 0, 254),
//   emax = 8 (e4m3) / 15 (e5m2); NaN -> 255.

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
  %c4 = arith.constant 4 : index
  %c32 = arith.constant 32 : index
  %c80 = arith.constant 80 : index
  %e = arith.constant dense<[
      [0.0, 0.0, -0.0, 0.0],
      [0x00000200, 0x80000100, 0.0, 0x00000080],
      [0x03800000, 0x833C0000, 0x01000000, 0.0],
      [3.0e38, -1.0e38, 1.0, 0x7F7FFFFF],
      [0x7F800000, 1.0, -2.0, 0.0],
      [0x7FC00000, 1.0, -2.0, 0.0],
      [448.0, 100.0, -1.0, 0.5],
      [449.0, 100.0, -1.0, 0.5]]> : tensor<8x4xf32>

  // e4m3 pow2_ceil. Codes: row 0: d = 0 -> 0. Row 1: d = 2^-140 / 448 is an f32
  // subnormal <= 2^-127 -> 0 (qscale 2^127: 2^-140 * 2^127 = 2^-13, below
  // 2^-10, -> 0).
  // Row 2: 2^-120 / 448 = 2^-128.8 -> 0, the saturated bottom: 2^-120 * 2^127 =
  // 128 -> 0x70 = 112. Row 3: FLT_MAX / 448 = 2^119.2 -> 2^120 = code 247:
  // 3e38 * 2^-120 = 225.7 -> 224 = 0x76 = 118, FLT_MAX -> 256 = 0x78 = 120.
  // Row 4: +inf -> 254, qscale 2^-127: inf -> 448 = 126, finite values -> 0.
  // Row 5: NaN -> 255, every element NaN (0x7F). Row 6: 448 * fl32(1/448) = 1.0
  // exactly -> 127 (scale 1).
  // Row 7: 449 * fl32(1/448) = 1.0022 -> 2^1 = 128: 449 / 2 = 224.5 -> 224
  // (118).
  %q0, %s0 = fp8.quantize %e {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<8x4xf32> -> tensor<8x4xf8E4M3FN>, tensor<8x1xf8E8M0FNU>
  %qd0 = tensor.cast %q0 : tensor<8x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd0 = tensor.cast %s0 : tensor<8x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0, 128, 0]
  // CHECK-NEXT: [0, 128, 0, 0]
  // CHECK-NEXT: [112, 236, 72, 0]
  // CHECK-NEXT: [118, 233, 0, 120]
  // CHECK-NEXT: [126, 0, 128, 0]
  // CHECK-NEXT: [127, 127, 127, 127]
  // CHECK-NEXT: [126, 108, 184, 48]
  // CHECK-NEXT: [118, 100, 176, 40]
  call @print_e4m3(%qd0) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [247]
  // CHECK-NEXT: [254]
  // CHECK-NEXT: [255]
  // CHECK-NEXT: [127]
  // CHECK-NEXT: [128]
  call @print_e8m0(%sd0) : (tensor<?x?xf8E8M0FNU>) -> ()

  // e4m3 pow2_floor: row 0, 1 (exponent field 0) and 2 (field 7) -> 0; row 3
  // field 254 -> 246; row 4 (+inf, field 255) -> 247, torchao's value: inf
  // stays inf and saturates to 126, finite values -> 0; row 5 NaN -> 255;
  // row 6 field 135 -> 127; row 7 field 135 -> 127: 449 is clamped -> 126.
  %q1, %s1 = fp8.quantize %e {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<8x4xf32> -> tensor<8x4xf8E4M3FN>, tensor<8x1xf8E8M0FNU>
  %qd1 = tensor.cast %q1 : tensor<8x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd1 = tensor.cast %s1 : tensor<8x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0, 128, 0]
  // CHECK-NEXT: [0, 128, 0, 0]
  // CHECK-NEXT: [112, 236, 72, 0]
  // CHECK-NEXT: [126, 241, 0, 126]
  // CHECK-NEXT: [126, 0, 128, 0]
  // CHECK-NEXT: [127, 127, 127, 127]
  // CHECK-NEXT: [126, 108, 184, 48]
  // CHECK-NEXT: [126, 108, 184, 48]
  call @print_e4m3(%qd1) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [246]
  // CHECK-NEXT: [247]
  // CHECK-NEXT: [255]
  // CHECK-NEXT: [127]
  // CHECK-NEXT: [127]
  call @print_e8m0(%sd1) : (tensor<?x?xf8E8M0FNU>) -> ()

  // e5m2 pow2_ceil: row 3 FLT_MAX / 57344 = 2^112.2 -> 2^113 = 240; row 6
  // 448 / 57344 = 2^-7 exactly -> 120; row 7 -> 2^-6 = 121.
  %q2, %s2 = fp8.quantize %e {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<8x4xf32> -> tensor<8x4xf8E5M2>, tensor<8x1xf8E8M0FNU>
  %qd2 = tensor.cast %q2 : tensor<8x4xf8E5M2> to tensor<?x?xf8E5M2>
  %sd2 = tensor.cast %s2 : tensor<8x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0, 128, 0]
  // CHECK-NEXT: [8, 132, 0, 2]
  // CHECK-NEXT: [88, 214, 68, 0]
  // CHECK-NEXT: [119, 241, 0, 120]
  // CHECK-NEXT: [123, 0, 128, 0]
  // CHECK-NEXT: [127, 127, 127, 127]
  // CHECK-NEXT: [123, 114, 216, 84]
  // CHECK-NEXT: [119, 110, 212, 80]
  call @print_e5m2(%qd2) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [240]
  // CHECK-NEXT: [254]
  // CHECK-NEXT: [255]
  // CHECK-NEXT: [120]
  // CHECK-NEXT: [121]
  call @print_e8m0(%sd2) : (tensor<?x?xf8E8M0FNU>) -> ()

  // e5m2 pow2_floor: row 3 -> 254 - 15 = 239; row 4 -> 240; rows 6 and 7 ->
  // 135 - 15 = 120.
  %q3, %s3 = fp8.quantize %e {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<8x4xf32> -> tensor<8x4xf8E5M2>, tensor<8x1xf8E8M0FNU>
  %qd3 = tensor.cast %q3 : tensor<8x4xf8E5M2> to tensor<?x?xf8E5M2>
  %sd3 = tensor.cast %s3 : tensor<8x1xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0, 128, 0]
  // CHECK-NEXT: [8, 132, 0, 2]
  // CHECK-NEXT: [88, 214, 68, 0]
  // CHECK-NEXT: [123, 245, 0, 123]
  // CHECK-NEXT: [123, 0, 128, 0]
  // CHECK-NEXT: [127, 127, 127, 127]
  // CHECK-NEXT: [123, 114, 216, 84]
  // CHECK-NEXT: [123, 114, 216, 84]
  call @print_e5m2(%qd3) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [0]
  // CHECK-NEXT: [239]
  // CHECK-NEXT: [240]
  // CHECK-NEXT: [255]
  // CHECK-NEXT: [120]
  // CHECK-NEXT: [120]
  call @print_e8m0(%sd3) : (tensor<?x?xf8E8M0FNU>) -> ()

  // The pow2_ceil codes stored as f32: code 0 is 2^-127 = 0x00400000 = 4194304
  // (an f32 subnormal), code 255 NaN = 0x7FC00000 = 2143289344, 254 = 2^127
  // = 0x7F000000 = 2130706432.
  %q4, %s4 = fp8.quantize %e {scaling = #fp8.scaling<tile = [1, 32], scale = f32, round = pow2_ceil>}
      : tensor<8x4xf32> -> tensor<8x4xf8E4M3FN>, tensor<8x1xf32>
  %qd4 = tensor.cast %q4 : tensor<8x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd4 = tensor.cast %s4 : tensor<8x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0, 128, 0]
  // CHECK-NEXT: [0, 128, 0, 0]
  // CHECK-NEXT: [112, 236, 72, 0]
  // CHECK-NEXT: [118, 233, 0, 120]
  // CHECK-NEXT: [126, 0, 128, 0]
  // CHECK-NEXT: [127, 127, 127, 127]
  // CHECK-NEXT: [126, 108, 184, 48]
  // CHECK-NEXT: [118, 100, 176, 40]
  call @print_e4m3(%qd4) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [4194304]
  // CHECK-NEXT: [4194304]
  // CHECK-NEXT: [4194304]
  // CHECK-NEXT: [2071986176]
  // CHECK-NEXT: [2130706432]
  // CHECK-NEXT: [2143289344]
  // CHECK-NEXT: [1065353216]
  // CHECK-NEXT: [1073741824]
  call @print_f32_bits(%sd4) : (tensor<?x?xf32>) -> ()

  // The same edges with exact f32 scales: rows 0 and 1 (amax <= fl32(1e-12))
  // -> qscale 0x57CBBA10, stored 0x2720D7C5 = 656463813; row 2 too (2^-120 <
  // 1e-12). Row 3: qscale fl32(448 / FLT_MAX) = 2^-119 * 448 / 2^(1 - 2^-24)
  // (normal), stored its reciprocal. Row 4: qscale 448 / inf = 0, stored 1/0
  // = +inf = 0x7F800000 = 2139095040; data x * 0 = 0, inf * 0 = NaN, as in
  // torchao.
  // Row 5: NaN everywhere. Row 6: qscale 1.0; row 7: fl32(448/449).
  %q5, %s5 = fp8.quantize %e {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<8x4xf32> -> tensor<8x4xf8E4M3FN>, tensor<8x1xf32>
  %qd5 = tensor.cast %q5 : tensor<8x4xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd5 = tensor.cast %s5 : tensor<8x1xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0, 0, 128, 0]
  // CHECK-NEXT: [0, 128, 0, 0]
  // CHECK-NEXT: [0, 128, 0, 0]
  // CHECK-NEXT: [124, 240, 0, 126]
  // CHECK-NEXT: [127, 0, 128, 0]
  // CHECK-NEXT: [127, 127, 127, 127]
  // CHECK-NEXT: [126, 108, 184, 48]
  // CHECK-NEXT: [126, 108, 184, 48]
  call @print_e4m3(%qd5) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [656463813]
  // CHECK-NEXT: [656463813]
  // CHECK-NEXT: [656463813]
  // CHECK-NEXT: [2064795940]
  // CHECK-NEXT: [2139095040]
  // CHECK-NEXT: [2143289344]
  // CHECK-NEXT: [1065353216]
  // CHECK-NEXT: [1065371941]
  call @print_f32_bits(%sd5) : (tensor<?x?xf32>) -> ()

  // A 4x80 tensor in 1x32 tiles: two whole tiles and a partial one of 16
  // columns per row; @pattern changes magnitude every 32 columns and every
  // row.
  %pd = call @pattern(%c4, %c80, %c1, %c32) : (index, index, index, index) -> tensor<?x?xf32>
  %p = tensor.cast %pd : tensor<?x?xf32> to tensor<4x80xf32>

  // e4m3: tile amaxes 3 f g (f = 1 + i mod 3, g = 1 + (j / 32) mod 3) where the
  // tile holds v = +-48, e.g. row 0 tile 0 amax 3 -> 3/448 -> 2^-7 = code 120.
  %q6, %s6 = fp8.quantize %p {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<4x80xf32> -> tensor<4x80xf8E4M3FN>, tensor<4x3xf8E8M0FNU>
  %qd6 = tensor.cast %q6 : tensor<4x80xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd6 = tensor.cast %s6 : tensor<4x3xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [9002331]
  call @checksum_e4m3(%qd6) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [120, 121, 122]
  // CHECK-NEXT: [121, 122, 123]
  // CHECK-NEXT: [122, 123, 123]
  // CHECK-NEXT: [120, 121, 122]
  call @print_e8m0(%sd6) : (tensor<?x?xf8E8M0FNU>) -> ()
  %sl6 = tensor.extract_slice %qd6[0, 28] [4, 8] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<4x8xf8E4M3FN>
  %sld6 = tensor.cast %sl6 : tensor<4x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [245, 239, 224, 102, 113, 118, 122, 252]
  // CHECK-NEXT: [107, 115, 120, 123, 250, 248, 242, 233]
  // CHECK-NEXT: [121, 246, 242, 236, 223, 97, 109, 114]
  // CHECK-NEXT: [236, 208, 106, 114, 120, 123, 251, 248]
  call @print_e4m3(%sld6) : (tensor<?x?xf8E4M3FN>) -> ()

  // e5m2 pow2_floor: row 0 tile 0: 3 = 1.5 * 2^1 -> 2^(1 - 15) = code 113.
  %q7, %s7 = fp8.quantize %p {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_floor>}
      : tensor<4x80xf32> -> tensor<4x80xf8E5M2>, tensor<4x3xf8E8M0FNU>
  %qd7 = tensor.cast %q7 : tensor<4x80xf8E5M2> to tensor<?x?xf8E5M2>
  %sd7 = tensor.cast %s7 : tensor<4x3xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [9202798]
  call @checksum_e5m2(%qd7) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [113, 114, 115]
  // CHECK-NEXT: [114, 115, 116]
  // CHECK-NEXT: [115, 116, 116]
  // CHECK-NEXT: [113, 114, 115]
  call @print_e8m0(%sd7) : (tensor<?x?xf8E8M0FNU>) -> ()
  %sl7 = tensor.extract_slice %qd7[0, 60] [4, 8] [1, 1] : tensor<?x?xf8E5M2> to tensor<4x8xf8E5M2>
  %sld7 = tensor.cast %sl7 : tensor<4x8xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [120, 122, 249, 247, 243, 237, 106, 114]
  // CHECK-NEXT: [246, 243, 234, 112, 115, 118, 120, 248]
  // CHECK-NEXT: [112, 116, 118, 120, 250, 248, 245, 240]
  // CHECK-NEXT: [250, 249, 246, 244, 234, 109, 115, 117]
  call @print_e5m2(%sld7) : (tensor<?x?xf8E5M2>) -> ()
  return
}
