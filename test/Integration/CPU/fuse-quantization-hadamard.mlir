// fp8-fuse-quantization fuses a Hadamard rotation along the rows into the
// quantization that reads it (fp8.quantize_elementwise with hadamard_size),
// and the bits do not change: rotation sizes 16 and 128, with and without
// random signs, bf16 (rounded after the rotation, as fp8.hadamard rounds)
// and f32 inputs, 1x128 and 1x32 tiles, e4m3 and e5m2. A rotation that
// something else reads, or along dim 0, or whose tiles the row-tile kernel
// does not take (128x128), stays unfused.
// RUN: fp8-opt %s --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @main
// FUSED-COUNT-4: fp8.quantize_elementwise {{.*}}hadamard_size
// FUSED-COUNT-3: fp8.hadamard
// FUSED-NOT: fp8.hadamard
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %s --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// The data is not trivial: rows of varying values, in every result.
// RUN: FileCheck %s < %t.fused
// CHECK-COUNT-14: [{{-?[0-9]+}}, {{-?[0-9]+}}

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

// x[i][j] = ((a i + 3 j) mod 97 - 48) * 2^-(i mod 4) * 2^(j mod 3) / 16,
// in f32: magnitudes that vary along rows and columns.
func.func @input(%a: index) -> tensor<256x256xf32> {
  %e = tensor.empty() : tensor<256x256xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x256xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c48 = arith.constant 48 : index
    %c97 = arith.constant 97 : index
    %ai = arith.muli %i, %a : index
    %b = arith.muli %j, %c3 : index
    %s = arith.addi %ai, %b : index
    %m = arith.remui %s, %c97 : index
    %v = arith.subi %m, %c48 : index
    %ir = arith.remui %i, %c4 : index
    %jr = arith.remui %j, %c3 : index
    %e1 = arith.subi %jr, %ir : index
    %vi = arith.index_cast %v : index to i32
    %ei = arith.index_cast %e1 : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %ef = arith.sitofp %ei : i32 to f32
    %p = math.exp2 %ef : f32
    %sixteenth = arith.constant 0.0625 : f32
    %x0 = arith.mulf %vf, %p : f32
    %x = arith.mulf %x0, %sixteenth : f32
    linalg.yield %x : f32
  } -> tensor<256x256xf32>
  return %r : tensor<256x256xf32>
}

func.func @inputBF16(%a: index) -> tensor<256x256xbf16> {
  %x = call @input(%a) : (index) -> tensor<256x256xf32>
  %b = arith.truncf %x : tensor<256x256xf32> to tensor<256x256xbf16>
  return %b : tensor<256x256xbf16>
}

func.func @printBytes(%q: tensor<?x?xf8E4M3FN>) {
  %bits = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  %wide = arith.extsi %bits : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %wide : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @printBytesE5M2(%q: tensor<?x?xf8E5M2>) {
  %bits = arith.bitcast %q : tensor<?x?xf8E5M2> to tensor<?x?xi8>
  %wide = arith.extsi %bits : tensor<?x?xi8> to tensor<?x?xi32>
  %u = tensor.cast %wide : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @printBF16(%x: tensor<?x?xbf16>) {
  %bits = arith.bitcast %x : tensor<?x?xbf16> to tensor<?x?xi16>
  %wide = arith.extsi %bits : tensor<?x?xi16> to tensor<?x?xi32>
  %u = tensor.cast %wide : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @printScales(%s: tensor<?x?xf32>) {
  %bits = arith.bitcast %s : tensor<?x?xf32> to tensor<?x?xi32>
  %u = tensor.cast %bits : tensor<?x?xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %h = call @inputBF16(%c5) : (index) -> tensor<256x256xbf16>
  %f = call @input(%c7) : (index) -> tensor<256x256xf32>

  // bf16, n = 128 with signs, 1x128 tiles, e4m3.
  %r1 = fp8.hadamard %h {dim = 1 : i64, size = 128 : i64, seed = 42 : i64} : tensor<256x256xbf16>
  %q1, %s1 = fp8.quantize %r1 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  // f32, n = 16 without signs, 1x32 tiles, e5m2.
  %r2 = fp8.hadamard %f {dim = 1 : i64, size = 16 : i64} : tensor<256x256xf32>
  %q2, %s2 = fp8.quantize %r2 {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<256x256xf32> -> tensor<256x256xf8E5M2>, tensor<256x8xf32>
  // bf16, n = 256 (a rotation block over two tiles of 128), E8M0 scales.
  %r3 = fp8.hadamard %h {dim = 1 : i64, size = 256 : i64, seed = 7 : i64} : tensor<256x256xbf16>
  %q3, %s3 = fp8.quantize %r3 {scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf8E8M0FNU>
  // f32, n = 32, rowwise tiles of whole 256-element rows.
  %r4 = fp8.hadamard %f {dim = 1 : i64, size = 32 : i64, seed = 3 : i64} : tensor<256x256xf32>
  %q4, %s4 = fp8.quantize %r4 {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<256x256xf32> -> tensor<256x256xf8E4M3FN>, tensor<256x1xf32>

  // Unfused: a rotation read twice, one along dim 0, one before 128x128
  // tiles.
  %r5 = fp8.hadamard %h {dim = 1 : i64, size = 64 : i64} : tensor<256x256xbf16>
  %q5, %s5 = fp8.quantize %r5 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  %r6 = fp8.hadamard %h {dim = 0 : i64, size = 128 : i64} : tensor<256x256xbf16>
  %q6, %s6 = fp8.quantize %r6 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  %r7 = fp8.hadamard %h {dim = 1 : i64, size = 128 : i64} : tensor<256x256xbf16>
  %q7, %s7 = fp8.quantize %r7 {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<2x2xf32>

  %d1 = tensor.cast %q1 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%d1) : (tensor<?x?xf8E4M3FN>) -> ()
  %e1 = tensor.cast %s1 : tensor<256x2xf32> to tensor<?x?xf32>
  call @printScales(%e1) : (tensor<?x?xf32>) -> ()
  %d2 = tensor.cast %q2 : tensor<256x256xf8E5M2> to tensor<?x?xf8E5M2>
  call @printBytesE5M2(%d2) : (tensor<?x?xf8E5M2>) -> ()
  %e2 = tensor.cast %s2 : tensor<256x8xf32> to tensor<?x?xf32>
  call @printScales(%e2) : (tensor<?x?xf32>) -> ()
  %d3 = tensor.cast %q3 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%d3) : (tensor<?x?xf8E4M3FN>) -> ()
  %s3b = arith.bitcast %s3 : tensor<256x2xf8E8M0FNU> to tensor<256x2xi8>
  %s3w = arith.extui %s3b : tensor<256x2xi8> to tensor<256x2xi32>
  %s3u = tensor.cast %s3w : tensor<256x2xi32> to tensor<*xi32>
  call @printMemrefI32(%s3u) : (tensor<*xi32>) -> ()
  %d4 = tensor.cast %q4 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%d4) : (tensor<?x?xf8E4M3FN>) -> ()
  %e4 = tensor.cast %s4 : tensor<256x1xf32> to tensor<?x?xf32>
  call @printScales(%e4) : (tensor<?x?xf32>) -> ()
  %d5 = tensor.cast %q5 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%d5) : (tensor<?x?xf8E4M3FN>) -> ()
  %r5d = tensor.cast %r5 : tensor<256x256xbf16> to tensor<?x?xbf16>
  call @printBF16(%r5d) : (tensor<?x?xbf16>) -> ()
  %d6 = tensor.cast %q6 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%d6) : (tensor<?x?xf8E4M3FN>) -> ()
  %d7 = tensor.cast %q7 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%d7) : (tensor<?x?xf8E4M3FN>) -> ()
  %e7 = tensor.cast %s7 : tensor<2x2xf32> to tensor<?x?xf32>
  call @printScales(%e7) : (tensor<?x?xf32>) -> ()
  %e6 = tensor.cast %s6 : tensor<256x2xf32> to tensor<?x?xf32>
  call @printScales(%e6) : (tensor<?x?xf32>) -> ()
  return
}
