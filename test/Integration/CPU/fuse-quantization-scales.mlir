// fp8-fuse-quantization's scale re-layout changes kernels, not bits: scales
// stored col_major_tma by the quantization (plain, with 98 rows padded to
// 100; the cast-transpose; a fused GELU) equal fp8.tma_align_scales of the
// row-major scales, padding zeros included. The run prints the scales' bit
// patterns and the FP8 bytes as integers.
// RUN: fp8-opt %s --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @main
// FUSED-NOT: fp8.tma_align_scales
// FUSED-COUNT-3: col_major_tma
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %s --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// Scales differ from row to row; the padding is zero.
// RUN: FileCheck %s < %t.fused
// CHECK: [{{[0-9]+}}, {{[0-9]+}}, {{[0-9]+}}
// CHECK: 0, 0]

#id = affine_map<(i, j) -> (i, j)>

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

// x[i][j] = ((7 i + 5 j) mod 89 - 44) * 2^(i mod 5 - 2) / 8.
func.func @data(%unused: index) -> tensor<256x384xbf16> {
  %e = tensor.empty() : tensor<256x384xbf16>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x384xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c44 = arith.constant 44 : index
    %c89 = arith.constant 89 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c5 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c89 : index
    %v = arith.subi %m, %c44 : index
    %ir = arith.remui %i, %c5 : index
    %e1 = arith.subi %ir, %c2 : index
    %vi = arith.index_cast %v : index to i32
    %ei = arith.index_cast %e1 : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %ef = arith.sitofp %ei : i32 to f32
    %p = math.exp2 %ef : f32
    %eighth = arith.constant 0.125 : f32
    %x0 = arith.mulf %vf, %p : f32
    %x = arith.mulf %x0, %eighth : f32
    %xb = arith.truncf %x : f32 to bf16
    linalg.yield %xb : bf16
  } -> tensor<256x384xbf16>
  return %r : tensor<256x384xbf16>
}

func.func @printScales(%s: tensor<?x?xf32>) {
  %bits = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %bits : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @printBytes(%q: tensor<?x?xf8E4M3FN>) {
  %bits = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  %wide = arith.extsi %bits : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %wide : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %x = call @data(%c0) : (index) -> tensor<256x384xbf16>
  // 98 rows, 1x128: the re-laid rows are padded to 100.
  %x98 = tensor.extract_slice %x[0, 0] [98, 384] [1, 1] : tensor<256x384xbf16> to tensor<98x384xbf16>
  %q1, %s1 = fp8.quantize %x98 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<98x384xbf16> -> tensor<98x384xf8E4M3FN>, tensor<98x3xf32>
  %a1 = fp8.tma_align_scales %s1 : tensor<98x3xf32> -> tensor<3x100xf32>
  // The cast-transpose of a tanh, both scale matrices re-laid.
  %t = math.tanh %x : tensor<256x384xbf16>
  %q2, %s2 = fp8.quantize %t {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  %e = tensor.empty() : tensor<384x256xbf16>
  %tt = linalg.transpose ins(%t : tensor<256x384xbf16>) outs(%e : tensor<384x256xbf16>) permutation = [1, 0]
  %q3, %s3 = fp8.quantize %tt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  %a2 = fp8.tma_align_scales %s2 : tensor<256x3xf32> -> tensor<3x256xf32>
  %a3 = fp8.tma_align_scales %s3 : tensor<384x2xf32> -> tensor<2x384xf32>

  %a1d = tensor.cast %a1 : tensor<3x100xf32> to tensor<?x?xf32>
  %a2d = tensor.cast %a2 : tensor<3x256xf32> to tensor<?x?xf32>
  %a3d = tensor.cast %a3 : tensor<2x384xf32> to tensor<?x?xf32>
  %q1d = tensor.cast %q1 : tensor<98x384xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %q2d = tensor.cast %q2 : tensor<256x384xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %q3d = tensor.cast %q3 : tensor<384x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printScales(%a1d) : (tensor<?x?xf32>) -> ()
  call @printScales(%a2d) : (tensor<?x?xf32>) -> ()
  call @printScales(%a3d) : (tensor<?x?xf32>) -> ()
  call @printBytes(%q1d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printBytes(%q2d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printBytes(%q3d) : (tensor<?x?xf8E4M3FN>) -> ()
  return
}
