// fp8-fuse-quantization's producer fusion changes kernels, not bits: GELU
// quantized with its transpose (and kept in bf16), SiLU·mul, a bias add
// chained into a sigmoid GELU, and a tensorwise residual add, scaling and
// cast give the same FP8 data, scales and kept values through
// fp8.quantize_elementwise as through the producers and quantizations they
// replace. The run prints every result as integers (FP8 bytes, bf16 and f32
// bit patterns).
// RUN: fp8-opt %s --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @main
// FUSED-COUNT-4: fp8.quantize_elementwise
// FUSED-NOT: fp8.quantize_elementwise
// FUSED-NOT: linalg.generic
// FUSED-NOT: fp8.quantize %
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %s --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// The data is not trivial: rows of varying values, in every result.
// RUN: FileCheck %s < %t.fused
// CHECK-COUNT-12: [{{-?[0-9]+}}, {{-?[0-9]+}}

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
  %c11 = arith.constant 11 : index
  %h = call @inputBF16(%c5) : (index) -> tensor<256x256xbf16>
  %h3 = call @inputBF16(%c7) : (index) -> tensor<256x256xbf16>
  %y = call @input(%c11) : (index) -> tensor<256x256xf32>
  %e = tensor.empty() : tensor<256x256xbf16>

  // GELU (tanh form), 1x128 along its rows and along the rows of its
  // transpose (the cast-transpose), and returned in bf16.
  %c0 = arith.constant 0.7978846 : f32
  %c1 = arith.constant 0.044715 : f32
  %ga = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h : tensor<256x256xbf16>) outs(%e : tensor<256x256xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    %f = arith.extf %v : bf16 to f32
    %half = arith.constant 0.5 : f32
    %one = arith.constant 1.0 : f32
    %x2 = arith.mulf %f, %f : f32
    %x3 = arith.mulf %x2, %f : f32
    %t0 = arith.mulf %c1, %x3 : f32
    %t1 = arith.addf %f, %t0 : f32
    %u = arith.mulf %c0, %t1 : f32
    %th = math.tanh %u : f32
    %p = arith.addf %one, %th : f32
    %hx = arith.mulf %half, %f : f32
    %g = arith.mulf %hx, %p : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<256x256xbf16>
  %q1, %s1 = fp8.quantize %ga {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>
  %gt = linalg.transpose ins(%ga : tensor<256x256xbf16>) outs(%e : tensor<256x256xbf16>) permutation = [1, 0]
  %q2, %s2 = fp8.quantize %gt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>

  // SiLU(h)·h3, 1x128 with a margin.
  %sw = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%h, %h3 : tensor<256x256xbf16>, tensor<256x256xbf16>) outs(%e : tensor<256x256xbf16>) {
  ^bb0(%v1: bf16, %v3: bf16, %o: bf16):
    %a0 = arith.extf %v1 : bf16 to f32
    %a1 = arith.extf %v3 : bf16 to f32
    %neg = arith.negf %a0 : f32
    %ex = math.exp %neg : f32
    %one = arith.constant 1.0 : f32
    %den = arith.addf %one, %ex : f32
    %sig = arith.divf %one, %den : f32
    %s0 = arith.mulf %a0, %sig : f32
    %r = arith.mulf %s0, %a1 : f32
    %rb = arith.truncf %r : f32 to bf16
    linalg.yield %rb : bf16
  } -> tensor<256x256xbf16>
  %q3, %s3 = fp8.quantize %sw {margin = 1 : i64, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x2xf32>

  // A bias row added to an f32 product, rounded to bf16, then a GELU:
  // one body, rowwise. (Tensorwise, it would not fuse: the kernel would
  // compute the GELU twice, for the amax and for the quantization.)
  %bias = tensor.extract_slice %y[3, 0] [1, 256] [1, 1] : tensor<256x256xf32> to tensor<256xf32>
  %z = linalg.generic {indexing_maps = [#id, #row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : tensor<256x256xf32>, tensor<256xf32>) outs(%e : tensor<256x256xbf16>) {
  ^bb0(%vy: f32, %vb: f32, %o: bf16):
    %sum = arith.addf %vy, %vb : f32
    %sb = arith.truncf %sum : f32 to bf16
    linalg.yield %sb : bf16
  } -> tensor<256x256xbf16>
  %ge = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%z : tensor<256x256xbf16>) outs(%e : tensor<256x256xbf16>) {
  ^bb0(%v: bf16, %o: bf16):
    // gelu(x) ~ x sigmoid(1.702 x) (the reference pipeline has no erf)
    %f = arith.extf %v : bf16 to f32
    %k = arith.constant 1.702 : f32
    %one = arith.constant 1.0 : f32
    %u = arith.mulf %f, %k : f32
    %nu = arith.negf %u : f32
    %ex = math.exp %nu : f32
    %den = arith.addf %one, %ex : f32
    %g = arith.divf %f, %den : f32
    %gb = arith.truncf %g : f32 to bf16
    linalg.yield %gb : bf16
  } -> tensor<256x256xbf16>
  %q4, %s4 = fp8.quantize %ge {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E4M3FN>, tensor<256x1xf32>

  // A residual add, a scaling and a cast as arith ops on tensors,
  // tensorwise, e5m2.
  %quarter = arith.constant dense<0.25> : tensor<256x256xf32>
  %x2 = call @input(%c7) : (index) -> tensor<256x256xf32>
  %sum = arith.addf %y, %x2 : tensor<256x256xf32>
  %m = arith.mulf %sum, %quarter : tensor<256x256xf32>
  %t = arith.truncf %m : tensor<256x256xf32> to tensor<256x256xbf16>
  %q5, %s5 = fp8.quantize %t {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x256xbf16> -> tensor<256x256xf8E5M2>, tensor<1x1xf32>

  %d = tensor.cast %ga : tensor<256x256xbf16> to tensor<?x?xbf16>
  call @printBF16(%d) : (tensor<?x?xbf16>) -> ()
  %q1d = tensor.cast %q1 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %s1d = tensor.cast %s1 : tensor<256x2xf32> to tensor<?x?xf32>
  %q2d = tensor.cast %q2 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %s2d = tensor.cast %s2 : tensor<256x2xf32> to tensor<?x?xf32>
  %q3d = tensor.cast %q3 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %s3d = tensor.cast %s3 : tensor<256x2xf32> to tensor<?x?xf32>
  %q4d = tensor.cast %q4 : tensor<256x256xf8E4M3FN> to tensor<?x?xf8E4M3FN>
  %s4d = tensor.cast %s4 : tensor<256x1xf32> to tensor<?x?xf32>
  %q5d = tensor.cast %q5 : tensor<256x256xf8E5M2> to tensor<?x?xf8E5M2>
  %s5d = tensor.cast %s5 : tensor<1x1xf32> to tensor<?x?xf32>
  call @printBytes(%q1d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printScales(%s1d) : (tensor<?x?xf32>) -> ()
  call @printBytes(%q2d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printScales(%s2d) : (tensor<?x?xf32>) -> ()
  call @printBytes(%q3d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printScales(%s3d) : (tensor<?x?xf32>) -> ()
  call @printBytes(%q4d) : (tensor<?x?xf8E4M3FN>) -> ()
  call @printScales(%s4d) : (tensor<?x?xf32>) -> ()
  call @printBytesE5M2(%q5d) : (tensor<?x?xf8E5M2>) -> ()
  call @printScales(%s5d) : (tensor<?x?xf32>) -> ()
  return
}
