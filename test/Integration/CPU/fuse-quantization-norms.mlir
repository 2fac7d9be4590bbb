// fp8-fuse-quantization's norm fusion changes kernels, not bits: RMSNorm
// quantized 1x128 and LayerNorm (two passes: the mean, then the squared
// deviations) quantized rowwise and kept give the same FP8 data, scales
// and kept values through fp8.quantize_elementwise with `reduce` regions
// as through the row sums, generics and quantizations they replace. Rows
// of 1280 elements: two whole rounds of the row-sum order's 32 chunks of
// 16 and half of a third. The run prints every result as integers.
// RUN: fp8-opt %s --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @main
// FUSED-NOT: "reduction"
// FUSED: fp8.quantize_elementwise {{.*}}tile = [1, 128]
// FUSED: } reduce {
// FUSED-NOT: "reduction"
// FUSED: fp8.quantize_elementwise {{.*}}tile = [1, *]
// FUSED: } reduce {
// FUSED-NOT: "reduction"
// FUSED-NOT: fp8.quantize
// FUSED: call @printBytes
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %s --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// The data is not trivial: rows of varying values, in every result.
// RUN: FileCheck %s < %t.fused
// CHECK-COUNT-5: [{{-?[0-9]+}}, {{-?[0-9]+}}

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (i)>
#row = affine_map<(i, j) -> (j)>
#v = affine_map<(i) -> (i)>

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

// x[i][j] = ((a i + 3 j) mod 97 - 48) * 2^-(i mod 4) * 2^(j mod 3) / 16,
// in f32: magnitudes that vary along rows and columns.
func.func @input(%a: index) -> tensor<8x1280xf32> {
  %e = tensor.empty() : tensor<8x1280xf32>
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<8x1280xf32>) {
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
  } -> tensor<8x1280xf32>
  return %r : tensor<8x1280xf32>
}

func.func @inputBF16(%a: index) -> tensor<8x1280xbf16> {
  %x = call @input(%a) : (index) -> tensor<8x1280xf32>
  %b = arith.truncf %x : tensor<8x1280xf32> to tensor<8x1280xbf16>
  return %b : tensor<8x1280xbf16>
}

func.func @printBytes(%q: tensor<?x?xf8E4M3FN>) {
  %bits = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
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
  %c11 = arith.constant 11 : index
  %x = call @inputBF16(%c5) : (index) -> tensor<8x1280xbf16>
  %wm = call @inputBF16(%c7) : (index) -> tensor<8x1280xbf16>
  %bm = call @inputBF16(%c11) : (index) -> tensor<8x1280xbf16>
  %w = tensor.extract_slice %wm[0, 0] [1, 1280] [1, 1] : tensor<8x1280xbf16> to tensor<1280xbf16>
  %bias = tensor.extract_slice %bm[3, 0] [1, 1280] [1, 1] : tensor<8x1280xbf16> to tensor<1280xbf16>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8xf32>) -> tensor<8xf32>
  %ey = tensor.empty() : tensor<8x1280xbf16>

  // RMSNorm, 1x128.
  %ss = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x1280xbf16>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %sq = arith.mulf %f, %f : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %ss, %w : tensor<8x1280xbf16>, tensor<8xf32>, tensor<1280xbf16>) outs(%ey : tensor<8x1280xbf16>) {
  ^bb0(%a: bf16, %s: f32, %g: bf16, %o: bf16):
    %n = arith.constant 1280.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    %f = arith.extf %a : bf16 to f32
    %t = arith.mulf %f, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %b = arith.truncf %u : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<8x1280xbf16>
  %q1, %s1 = fp8.quantize %y {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<8x1280xbf16> -> tensor<8x1280xf8E4M3FN>, tensor<8x10xf32>

  // LayerNorm, rowwise, kept.
  %sum = linalg.generic {indexing_maps = [#id, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<8x1280xbf16>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: bf16, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %s = arith.addf %f, %acc : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %mean = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%sum : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 1280.0 : f32
    %m = arith.divf %s, %n : f32
    linalg.yield %m : f32
  } -> tensor<8xf32>
  %var = linalg.generic {indexing_maps = [#id, #col, #col], iterator_types = ["parallel", "reduction"]}
      ins(%x, %mean : tensor<8x1280xbf16>, tensor<8xf32>) outs(%init : tensor<8xf32>) {
  ^bb0(%a: bf16, %m: f32, %acc: f32):
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %m : f32
    %sq = arith.mulf %d, %d : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<8xf32>
  %rstd = linalg.generic {indexing_maps = [#v, #v], iterator_types = ["parallel"]}
      ins(%var : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%s: f32, %o: f32):
    %n = arith.constant 1280.0 : f32
    %eps = arith.constant 1.0e-5 : f32
    %m = arith.divf %s, %n : f32
    %v = arith.addf %m, %eps : f32
    %r = math.rsqrt %v : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %z = linalg.generic {indexing_maps = [#id, #col, #col, #row, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %mean, %rstd, %w, %bias : tensor<8x1280xbf16>, tensor<8xf32>, tensor<8xf32>, tensor<1280xbf16>, tensor<1280xbf16>) outs(%ey : tensor<8x1280xbf16>) {
  ^bb0(%a: bf16, %m: f32, %r: f32, %g: bf16, %bb: bf16, %o: bf16):
    %f = arith.extf %a : bf16 to f32
    %d = arith.subf %f, %m : f32
    %t = arith.mulf %d, %r : f32
    %gf = arith.extf %g : bf16 to f32
    %bf = arith.extf %bb : bf16 to f32
    %u = arith.mulf %t, %gf : f32
    %zz = arith.addf %u, %bf : f32
    %b = arith.truncf %zz : f32 to bf16
    linalg.yield %b : bf16
  } -> tensor<8x1280xbf16>
  %q2, %s2 = fp8.quantize %z {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<8x1280xbf16> -> tensor<8x1280xf8E4M3FN>, tensor<8x1xf32>

  %q1d = tensor.cast %q1 : tensor<8x1280xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%q1d) : (tensor<?x?xf8E4M3FN>) -> ()
  %s1d = tensor.cast %s1 : tensor<8x10xf32> to tensor<?x?xf32>
  call @printScales(%s1d) : (tensor<?x?xf32>) -> ()
  %q2d = tensor.cast %q2 : tensor<8x1280xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  call @printBytes(%q2d) : (tensor<?x?xf8E4M3FN>) -> ()
  %s2d = tensor.cast %s2 : tensor<8x1xf32> to tensor<?x?xf32>
  call @printScales(%s2d) : (tensor<?x?xf32>) -> ()
  %zd = tensor.cast %z : tensor<8x1280xbf16> to tensor<?x?xbf16>
  call @printBF16(%zd) : (tensor<?x?xbf16>) -> ()

  return
}
