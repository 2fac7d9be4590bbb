// fp8-fuse-quantization's fp8.quantize_delayed of the transpose of the
// value whose amax the history holds changes kernels, not bits. As
// fp8-legalize writes the operands of Wgrad and Dgrad (contracted along
// their rows) under #fp8.recipe<delayed, hadamard = N>, the history holds
// the amax of x rotated along dim 0, and the quantization reads the
// rotation of x's transpose along dim 1 with the chosen amax transposed;
// without the rotation, the transpose of x with the amax of x. The fused
// program quantizes the transpose with the amax of what it quantizes: the
// same FP8 data, scale and history as the unfused program on a first
// step, histories holding inf or NaN, a usable history, and the most
// recent entry (usable, negative). The run prints the FP8 bytes and the
// scale's and the rolled amax's f32 bit patterns as integers.
// RUN: fp8-opt %s --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED-LABEL: func.func @step_rotated(
// FUSED-NOT: fp8.amax
// FUSED-NOT: dim = 0
// FUSED: fp8.quantize_delayed %{{.*}} history(%{{.*}} : tensor<16x1x1xf32>) {scaling
// FUSED-NOT: fp8.amax
// FUSED-LABEL: func.func @step_transposed(
// FUSED-NOT: fp8.amax
// FUSED: fp8.quantize_delayed %{{.*}} history(%{{.*}} : tensor<16x1x1xf32>) {margin = 1 : i64, most_recent
// FUSED-NOT: fp8.amax
// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %s --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// RUN: FileCheck %s < %t.fused
//
// x[i][j] = ((7 i + 5 j) mod 89 - 44) / 8, 16 x 32: amax 5.5. The rotated
// steps (Hadamard 16 with signs along the 16 rows) are checked against the
// unfused program (the diff above), and among themselves: the first three
// (zeros, inf, NaN) quantize with the rotated data's amax, and all four
// roll that amax into the history; the fourth's history max is 11, scale
// 11 / 448 (0x3CC92493).
// CHECK:      {{^\[\[}}[[SCALE:[0-9]+]]{{\]\]$}}
// CHECK-NEXT: {{^\[\[}}[[AMAX:[0-9]+]]{{\]\]$}}
// CHECK:      {{^\[\[}}[[SCALE]]{{\]\]$}}
// CHECK-NEXT: {{^\[\[}}[[AMAX]]{{\]\]$}}
// CHECK:      {{^\[\[}}[[SCALE]]{{\]\]$}}
// CHECK-NEXT: {{^\[\[}}[[AMAX]]{{\]\]$}}
// CHECK:      [1019815059]
// CHECK-NEXT: {{^\[\[}}[[AMAX]]{{\]\]$}}
// Then the transposed ones: row 0 of the transpose is column 0 of x,
// -5.5, -4.625, -3.75, -2.875.
// The most recent entry, 2.75, with margin 1: qscale = 224 / 2.75, scale
// 2.75 / 224 (0x3C492493); -5.5 -> -448 (0xFE = -2), -4.625 -> -376.7 ->
// -384 (0xFC = -4), -3.75 -> -305.5 -> -320 (0xFA = -6), -2.875 ->
// -234.2 -> -240 (0xF7 = -9). The data's amax, 5.5 (0x40B00000), is
// rolled into the history.
// CHECK: [-2, -4, -6, -9
// CHECK: [1011426451]
// CHECK: [1085276160]
// The most recent entry negative: the data's amax with margin 1, qscale
// 224 / 5.5, scale 5.5 / 224 (0x3CC92493): -5.5 -> -224 (0xF6 = -10),
// -4.625 -> -188.4 -> -192 (0xF4 = -12), -3.75 -> -152.7 -> -160 (0xF2 =
// -14), -2.875 -> -117.1 -> -120 (0xEF = -17).
// CHECK: [-10, -12, -14, -17
// CHECK: [1019815059]
// CHECK: [1085276160]

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}

func.func @data() -> tensor<16x32xbf16> {
  %e = tensor.empty() : tensor<16x32xbf16>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<16x32xbf16>) {
  ^bb0(%o: bf16):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c44 = arith.constant 44 : index
    %c89 = arith.constant 89 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c5 : index
    %s = arith.addi %a, %b : index
    %m = arith.remui %s, %c89 : index
    %v = arith.subi %m, %c44 : index
    %vi = arith.index_cast %v : index to i32
    %vf = arith.sitofp %vi : i32 to f32
    %eighth = arith.constant 0.125 : f32
    %x = arith.mulf %vf, %eighth : f32
    %xb = arith.truncf %x : f32 to bf16
    linalg.yield %xb : bf16
  } -> tensor<16x32xbf16>
  return %r : tensor<16x32xbf16>
}

// What fp8-quantize-matmuls, fp8-insert-hadamard and fp8-legalize write
// for Wgrad's x under amax = delayed<16, max> and hadamard = 16 (signs).
func.func @step_rotated(%x: tensor<16x32xbf16>, %h: tensor<16x1x1xf32>)
    -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %v = fp8.hadamard %x {dim = 0 : i64, size = 16 : i64, seed = 7 : i64} : tensor<16x32xbf16>
  %cur = fp8.amax %v {tile = #fp8.tile<[*, *]>} : tensor<16x32xbf16> -> tensor<1x1xf32>
  %e = tensor.empty() : tensor<1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  %max = linalg.reduce ins(%h : tensor<16x1x1xf32>) outs(%init : tensor<1x1xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %finite = arith.cmpf olt, %max, %inf : tensor<1x1xf32>
  %positive = arith.cmpf ogt, %max, %zeros : tensor<1x1xf32>
  %usable = arith.andi %positive, %finite : tensor<1x1xi1>
  %used = arith.select %usable, %max, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %eh = tensor.empty() : tensor<16x1x1xf32>
  %kept = tensor.extract_slice %h[1, 0, 0] [15, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<15x1x1xf32>
  %r0 = tensor.insert_slice %kept into %eh[0, 0, 0] [15, 1, 1] [1, 1, 1] : tensor<15x1x1xf32> into tensor<16x1x1xf32>
  %rolled = tensor.insert_slice %cur into %r0[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<1x1xf32> into tensor<16x1x1xf32>
  %et = tensor.empty() : tensor<32x16xbf16>
  %xt = linalg.transpose ins(%x : tensor<16x32xbf16>) outs(%et : tensor<32x16xbf16>) permutation = [1, 0]
  %w = fp8.hadamard %xt {dim = 1 : i64, size = 16 : i64, seed = 7 : i64} : tensor<32x16xbf16>
  %usedt = linalg.transpose ins(%used : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) permutation = [1, 0]
  %q, %s = fp8.quantize %w amax(%usedt : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<32x16xbf16> -> tensor<32x16xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s, %rolled : tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>
}

// Without the rotation: the transpose of x, amax = delayed<16,
// most_recent>, margin = 1.
func.func @step_transposed(%x: tensor<16x32xbf16>, %h: tensor<16x1x1xf32>)
    -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %cur = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<16x32xbf16> -> tensor<1x1xf32>
  %last = tensor.extract_slice %h[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %positive = arith.cmpf ogt, %last, %zeros : tensor<1x1xf32>
  %finite = arith.cmpf olt, %last, %inf : tensor<1x1xf32>
  %usable = arith.andi %positive, %finite : tensor<1x1xi1>
  %used = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %eh = tensor.empty() : tensor<16x1x1xf32>
  %kept = tensor.extract_slice %h[1, 0, 0] [15, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<15x1x1xf32>
  %r0 = tensor.insert_slice %kept into %eh[0, 0, 0] [15, 1, 1] [1, 1, 1] : tensor<15x1x1xf32> into tensor<16x1x1xf32>
  %rolled = tensor.insert_slice %cur into %r0[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<1x1xf32> into tensor<16x1x1xf32>
  %et = tensor.empty() : tensor<32x16xbf16>
  %xt = linalg.transpose ins(%x : tensor<16x32xbf16>) outs(%et : tensor<32x16xbf16>) permutation = [1, 0]
  %q, %s = fp8.quantize %xt amax(%used : tensor<1x1xf32>) {margin = 1 : i64, scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<32x16xbf16> -> tensor<32x16xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s, %rolled : tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>
}

func.func @print(%q: tensor<32x16xf8E4M3FN>, %s: tensor<1x1xf32>, %h: tensor<16x1x1xf32>) {
  %bits = arith.bitcast %q : tensor<32x16xf8E4M3FN> to tensor<32x16xi8>
  %wide = arith.extsi %bits : tensor<32x16xi8> to tensor<32x16xi32>
  %u = tensor.cast %wide : tensor<32x16xi32> to tensor<*xi32>
  call @printMemrefI32(%u) : (tensor<*xi32>) -> ()
  %sb = arith.bitcast %s : tensor<1x1xf32> to tensor<1x1xi32>
  %su = tensor.cast %sb : tensor<1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%su) : (tensor<*xi32>) -> ()
  // The data's amax, rolled into the history's last entry.
  %a = tensor.extract_slice %h[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %ab = arith.bitcast %a : tensor<1x1xf32> to tensor<1x1xi32>
  %au = tensor.cast %ab : tensor<1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%au) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %x = call @data() : () -> tensor<16x32xbf16>
  %first = arith.constant dense<0.0> : tensor<16x1x1xf32>
  %inf = arith.constant dense<[[[1.0]], [[2.0]], [[0x7F800000]], [[3.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]],
                               [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[2.5]]]> : tensor<16x1x1xf32>
  %nan = arith.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]],
                               [[1.0]], [[0x7FC00000]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[2.5]]]> : tensor<16x1x1xf32>
  %usable = arith.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[1.0]], [[11.0]], [[1.0]], [[-20.0]], [[1.0]],
                                  [[1.0]], [[1.0]], [[0.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[2.75]]]> : tensor<16x1x1xf32>
  %negative = arith.constant dense<[[[1.0]], [[2.0]], [[3.0]], [[1.0]], [[11.0]], [[1.0]], [[1.0]], [[1.0]],
                                    [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[1.0]], [[-1.0]]]> : tensor<16x1x1xf32>
  %q0, %s0, %h0 = call @step_rotated(%x, %first) : (tensor<16x32xbf16>, tensor<16x1x1xf32>) -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>)
  call @print(%q0, %s0, %h0) : (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) -> ()
  %q1, %s1, %h1 = call @step_rotated(%x, %inf) : (tensor<16x32xbf16>, tensor<16x1x1xf32>) -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>)
  call @print(%q1, %s1, %h1) : (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) -> ()
  %q2, %s2, %h2 = call @step_rotated(%x, %nan) : (tensor<16x32xbf16>, tensor<16x1x1xf32>) -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>)
  call @print(%q2, %s2, %h2) : (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) -> ()
  %q3, %s3, %h3 = call @step_rotated(%x, %usable) : (tensor<16x32xbf16>, tensor<16x1x1xf32>) -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>)
  call @print(%q3, %s3, %h3) : (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) -> ()
  %q4, %s4, %h4 = call @step_transposed(%x, %usable) : (tensor<16x32xbf16>, tensor<16x1x1xf32>) -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>)
  call @print(%q4, %s4, %h4) : (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) -> ()
  %q5, %s5, %h5 = call @step_transposed(%x, %negative) : (tensor<16x32xbf16>, tensor<16x1x1xf32>) -> (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>)
  call @print(%q5, %s5, %h5) : (tensor<32x16xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) -> ()
  return
}
