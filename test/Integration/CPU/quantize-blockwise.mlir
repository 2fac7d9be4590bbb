// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py quantize-blockwise | FileCheck %s

// 1x128, 128x1 and 128x128 tiles (DeepSeek-V3 blockwise), with partial edge
// tiles: 200 = 128 + 72 along the tiled dimension. Inputs come from
// @pattern, whose magnitude factor (1 + (i / rd) mod 3) * (1 + (j / cd) mod 3)
// changes at tile borders, so every tile has its own amax. Each case prints
// the data checksum, the scales, and the corner where the partial tiles meet.
// Values of @pattern are v * f * g / 16 with |v| <= 48, so a tile's amax is
// 48 * f * g / 16 = 3 f g where the tile contains v = +-48, e.g. 3 (f = g = 1),
// 6, 9, 12 (f = g = 2), 18 (f = 2, g = 3 or f = 3, g = 2).

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
  %c3 = arith.constant 3 : index
  %c128 = arith.constant 128 : index
  %c160 = arith.constant 160 : index
  %c200 = arith.constant 200 : index
  %ad = call @pattern(%c3, %c200, %c1, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %a = tensor.cast %ad : tensor<?x?xf32> to tensor<3x200xf32>
  %bd = call @pattern(%c200, %c3, %c128, %c1) : (index, index, index, index) -> tensor<?x?xf32>
  %b = tensor.cast %bd : tensor<?x?xf32> to tensor<200x3xf32>
  %cd = call @pattern(%c200, %c160, %c128, %c128) : (index, index, index, index) -> tensor<?x?xf32>
  %c = tensor.cast %cd : tensor<?x?xf32> to tensor<200x160xf32>

  // 1x128 e4m3 exact: scales 3x2. Tile (0, 0): amax 3 (f = g = 1) -> qscale
  // fl32(448/3) = 0x43155555, stored fl32(1/qscale) = 0x3BDB6DB7 = 1004236215;
  // tile (0, 1) is partial (72 columns, g = 2): amax 6 -> qscale 0x42955555,
  // stored 0x3C5B6DB7 = 1012624823. Row 2 (f = 3): amax 9 and 18.
  %q0, %s0 = fp8.quantize %a {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<3x200xf32> -> tensor<3x200xf8E4M3FN>, tensor<3x2xf32>
  %qd0 = tensor.cast %q0 : tensor<3x200xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd0 = tensor.cast %s0 : tensor<3x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [32038041]
  call @checksum_e4m3(%qd0) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1004236215, 1012624823]
  // CHECK-NEXT: [1012624823, 1021013431]
  // CHECK-NEXT: [1017418313, 1025806921]
  call @print_f32_bits(%sd0) : (tensor<?x?xf32>) -> ()
  %sl0 = tensor.extract_slice %qd0[0, 192] [3, 8] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<3x8xf8E4M3FN>
  %sld0 = tensor.cast %sl0 : tensor<3x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [121, 125, 253, 249, 244, 236, 81, 110]
  // CHECK-NEXT: [248, 242, 230, 100, 113, 120, 123, 254]
  // CHECK-NEXT: [106, 116, 121, 124, 253, 250, 245, 237]
  call @print_e4m3(%sld0) : (tensor<?x?xf8E4M3FN>) -> ()

  // 1x128 e5m2 E8M0 pow2_ceil: amax 3 -> 3/57344 = 2^-14.2 -> 2^-14 (code 113);
  // amax 6 -> 2^-13 (114).
  %q1, %s1 = fp8.quantize %a {scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<3x200xf32> -> tensor<3x200xf8E5M2>, tensor<3x2xf8E8M0FNU>
  %qd1 = tensor.cast %q1 : tensor<3x200xf8E5M2> to tensor<?x?xf8E5M2>
  %sd1 = tensor.cast %s1 : tensor<3x2xf8E8M0FNU> to tensor<?x?xf8E8M0FNU>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [32159171]
  call @checksum_e5m2(%qd1) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [113, 114]
  // CHECK-NEXT: [114, 115]
  // CHECK-NEXT: [115, 116]
  call @print_e8m0(%sd1) : (tensor<?x?xf8E8M0FNU>) -> ()
  %sl1 = tensor.extract_slice %qd1[0, 192] [3, 8] [1, 1] : tensor<?x?xf8E5M2> to tensor<3x8xf8E5M2>
  %sld1 = tensor.cast %sl1 : tensor<3x8xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [120, 121, 249, 248, 245, 241, 100, 114]
  // CHECK-NEXT: [247, 244, 238, 109, 116, 119, 121, 250]
  // CHECK-NEXT: [111, 116, 118, 120, 248, 246, 244, 240]
  call @print_e5m2(%sld1) : (tensor<?x?xf8E5M2>) -> ()

  // 128x1 e4m3 exact: scales 2x3, one per 128 rows of a column; row tile 1 is
  // partial (72 rows).
  %q2, %s2 = fp8.quantize %b {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<200x3xf32> -> tensor<200x3xf8E4M3FN>, tensor<2x3xf32>
  %qd2 = tensor.cast %q2 : tensor<200x3xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd2 = tensor.cast %s2 : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [31935999]
  call @checksum_e4m3(%qd2) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1004236215, 1012624823, 1017418313]
  // CHECK-NEXT: [1012624823, 1021013431, 1025806921]
  call @print_f32_bits(%sd2) : (tensor<?x?xf32>) -> ()
  %sl2 = tensor.extract_slice %qd2[124, 0] [8, 3] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<8x3xf8E4M3FN>
  %sld2 = tensor.cast %sl2 : tensor<8x3xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [240, 222, 105]
  // CHECK-NEXT: [117, 122, 125]
  // CHECK-NEXT: [251, 247, 241]
  // CHECK-NEXT: [0, 109, 117]
  // CHECK-NEXT: [123, 126, 251]
  // CHECK-NEXT: [245, 238, 209]
  // CHECK-NEXT: [112, 119, 122]
  // CHECK-NEXT: [253, 250, 246]
  call @print_e4m3(%sld2) : (tensor<?x?xf8E4M3FN>) -> ()

  // 128x1 e5m2 f32 pow2_floor: amax 3 -> 2^(1 - 15) = 2^-14 (0x38800000);
  // amax 6 (row tile 1, f = 2) -> 2^(2 - 15).
  %q3, %s3 = fp8.quantize %b {scaling = #fp8.scaling<tile = [128, 1], scale = f32, round = pow2_floor>}
      : tensor<200x3xf32> -> tensor<200x3xf8E5M2>, tensor<2x3xf32>
  %qd3 = tensor.cast %q3 : tensor<200x3xf8E5M2> to tensor<?x?xf8E5M2>
  %sd3 = tensor.cast %s3 : tensor<2x3xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [32116563]
  call @checksum_e5m2(%qd3) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [947912704, 956301312, 964689920]
  // CHECK-NEXT: [956301312, 964689920, 973078528]
  call @print_f32_bits(%sd3) : (tensor<?x?xf32>) -> ()
  %sl3 = tensor.extract_slice %qd3[124, 0] [8, 3] [1, 1] : tensor<?x?xf8E5M2> to tensor<8x3xf8E5M2>
  %sld3 = tensor.cast %sl3 : tensor<8x3xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [243, 234, 110]
  // CHECK-NEXT: [118, 120, 120]
  // CHECK-NEXT: [249, 246, 242]
  // CHECK-NEXT: [0, 114, 116]
  // CHECK-NEXT: [121, 122, 247]
  // CHECK-NEXT: [246, 242, 226]
  // CHECK-NEXT: [115, 118, 119]
  // CHECK-NEXT: [250, 248, 244]
  call @print_e5m2(%sld3) : (tensor<?x?xf8E5M2>) -> ()

  // 128x128 e4m3 exact: scales 2x2; tiles (0,0) amax 3, (0,1) 6, (1,0) 6,
  // (1,1) 12 -> qscale fl32(448/12) = 0x42155555, stored 0x3CDB6DB7 =
  // 1021013431. The slice spans all four tiles.
  %q4, %s4 = fp8.quantize %c {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<200x160xf32> -> tensor<200x160xf8E4M3FN>, tensor<2x2xf32>
  %qd4 = tensor.cast %q4 : tensor<200x160xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd4 = tensor.cast %s4 : tensor<2x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [538525063]
  call @checksum_e4m3(%qd4) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1004236215, 1012624823]
  // CHECK-NEXT: [1012624823, 1021013431]
  call @print_f32_bits(%sd4) : (tensor<?x?xf32>) -> ()
  %sl4 = tensor.extract_slice %qd4[124, 124] [8, 8] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<8x8xf8E4M3FN>
  %sld4 = tensor.cast %sl4 : tensor<8x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [233, 94, 112, 119, 122, 126, 251, 248]
  // CHECK-NEXT: [120, 124, 253, 250, 246, 239, 217, 106]
  // CHECK-NEXT: [249, 244, 234, 89, 111, 118, 122, 125]
  // CHECK-NEXT: [102, 114, 120, 123, 254, 250, 247, 240]
  // CHECK-NEXT: [125, 253, 249, 244, 236, 81, 110, 117]
  // CHECK-NEXT: [242, 230, 100, 113, 120, 123, 254, 251]
  // CHECK-NEXT: [116, 121, 124, 253, 250, 245, 237, 0]
  // CHECK-NEXT: [252, 248, 242, 232, 97, 113, 119, 123]
  call @print_e4m3(%sld4) : (tensor<?x?xf8E4M3FN>) -> ()

  // 128x128 e5m2 exact: qscale fl32(57344/3) = 0x46955555 for tile (0,0),
  // stored fl32(1/qscale) = 0x385B6DB7 = 945515959.
  %q5, %s5 = fp8.quantize %c {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<200x160xf32> -> tensor<200x160xf8E5M2>, tensor<2x2xf32>
  %qd5 = tensor.cast %q5 : tensor<200x160xf8E5M2> to tensor<?x?xf8E5M2>
  %sd5 = tensor.cast %s5 : tensor<2x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1826149258]
  call @checksum_e5m2(%qd5) : (tensor<?x?xf8E5M2>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [945515959, 953904567]
  // CHECK-NEXT: [953904567, 962293175]
  call @print_f32_bits(%sd5) : (tensor<?x?xf32>) -> ()
  %sl5 = tensor.extract_slice %qd5[124, 124] [8, 8] [1, 1] : tensor<?x?xf8E5M2> to tensor<8x8xf8E5M2>
  %sld5 = tensor.cast %sl5 : tensor<8x8xf8E5M2> to tensor<?x?xf8E5M2>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [241, 107, 116, 119, 121, 123, 250, 248]
  // CHECK-NEXT: [120, 122, 251, 249, 247, 244, 233, 113]
  // CHECK-NEXT: [249, 246, 241, 105, 116, 119, 121, 123]
  // CHECK-NEXT: [111, 117, 120, 122, 251, 249, 247, 244]
  // CHECK-NEXT: [122, 250, 249, 246, 242, 101, 115, 119]
  // CHECK-NEXT: [245, 239, 110, 117, 120, 122, 251, 249]
  // CHECK-NEXT: [118, 121, 122, 250, 249, 246, 242, 0]
  // CHECK-NEXT: [250, 248, 245, 240, 109, 116, 120, 121]
  call @print_e5m2(%sld5) : (tensor<?x?xf8E5M2>) -> ()

  // 128x128 e4m3 f32 pow2_ceil: amax 3 -> 3/448 -> 2^-7 (0x3C000000), amax 6
  // -> 2^-6, amax 12 -> 2^-5 (0x3D000000).
  %q6, %s6 = fp8.quantize %c {scaling = #fp8.scaling<tile = [128, 128], scale = f32, round = pow2_ceil>}
      : tensor<200x160xf32> -> tensor<200x160xf8E4M3FN>, tensor<2x2xf32>
  %qd6 = tensor.cast %q6 : tensor<200x160xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %sd6 = tensor.cast %s6 : tensor<2x2xf32> to tensor<?x?xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [-316609685]
  call @checksum_e4m3(%qd6) : (tensor<?x?xf8E4M3FN>) -> ()
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1006632960, 1015021568]
  // CHECK-NEXT: [1015021568, 1023410176]
  call @print_f32_bits(%sd6) : (tensor<?x?xf32>) -> ()
  %sl6 = tensor.extract_slice %qd6[124, 124] [8, 8] [1, 1] : tensor<?x?xf8E4M3FN> to tensor<8x8xf8E4M3FN>
  %sld6 = tensor.cast %sl6 : tensor<8x8xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [232, 92, 110, 116, 121, 124, 250, 246]
  // CHECK-NEXT: [118, 122, 252, 249, 244, 237, 216, 105]
  // CHECK-NEXT: [248, 242, 233, 88, 109, 116, 121, 124]
  // CHECK-NEXT: [100, 112, 118, 122, 252, 249, 244, 238]
  // CHECK-NEXT: [123, 251, 248, 242, 234, 80, 108, 116]
  // CHECK-NEXT: [240, 228, 98, 112, 118, 122, 252, 249]
  // CHECK-NEXT: [114, 120, 122, 251, 248, 243, 235, 0]
  // CHECK-NEXT: [250, 246, 241, 230, 96, 111, 117, 121]
  call @print_e4m3(%sld6) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}
