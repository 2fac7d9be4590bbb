// fp8-fuse-quantization changes kernels, not bits: X and Xᵀ quantized 1x128
// (the cast-transpose) give the same FP8 data and scales, element for
// element, through the fused fp8.quantize_transpose as through the two
// quantizations and the bf16 transpose it replaces. The run prints all four
// results as integers (FP8 bytes, f32 scale bit patterns).
// RUN: fp8-opt %s --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED: fp8.quantize_transpose %{{.*}} {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<256x384xbf16>
// FUSED-NOT: linalg.transpose
// FUSED-NOT: fp8.quantize %
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %s --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// The data is not trivial: scales differ between rows, and FP8 codes vary.
// RUN: FileCheck %s < %t.fused
// CHECK-COUNT-4: [{{-?[0-9]+}}, {{-?[0-9]+}}

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

// x[i][j] = ((5 i + 3 j) mod 97 - 48) * 2^-(i mod 4) * 2^(j mod 3) / 16:
// magnitudes that vary along rows and columns, so that each 1x128 tile of X
// and of Xᵀ has its own scale.
func.func @input() -> tensor<256x384xbf16> {
  %e = tensor.empty() : tensor<256x384xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<256x384xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index
    %c5 = arith.constant 5 : index
    %c48 = arith.constant 48 : index
    %c97 = arith.constant 97 : index
    %a = arith.muli %i, %c5 : index
    %b = arith.muli %j, %c3 : index
    %s = arith.addi %a, %b : index
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
    %xb = arith.truncf %x : f32 to bf16
    linalg.yield %xb : bf16
  } -> tensor<256x384xbf16>
  return %r : tensor<256x384xbf16>
}

func.func @printBytes(%q: tensor<?x?xf8E4M3FN>) {
  %bits = arith.bitcast %q : tensor<?x?xf8E4M3FN> to tensor<?x?xi8>
  %wide = arith.extsi %bits : tensor<?x?xi8> to tensor<?x?xi32>
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
  %x = call @input() : () -> tensor<256x384xbf16>
  %q, %s = fp8.quantize %x {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  %e = tensor.empty() : tensor<384x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x384xbf16>) outs(%e : tensor<384x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  %q0 = tensor.cast %q : tensor<256x384xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %s0 = tensor.cast %s : tensor<256x3xf32> to tensor<?x?xf32>
  %q1 = tensor.cast %qt : tensor<384x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %s1 = tensor.cast %st : tensor<384x2xf32> to tensor<?x?xf32>
  call @printBytes(%q0) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printScales(%s0) : (tensor<?x?xf32>) -> ()
  call @printBytes(%q1) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printScales(%s1) : (tensor<?x?xf32>) -> ()
  return
}
