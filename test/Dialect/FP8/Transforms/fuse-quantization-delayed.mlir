// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-fuse-quantization=producers=false | FileCheck %s --check-prefix=OFF

// Delayed scaling as fp8-quantize-matmuls writes it: the data's amax, the
// history's max, the choice between them and the quantization with it
// become one fp8.quantize_delayed where the quantization was (the FP8
// data made no earlier than before); the history's roll, which reads the
// data's amax, moves after it. producers=false (the unfused program)
// leaves them.
// CHECK-LABEL: func.func @history_max(
// CHECK-SAME:    %[[X:.*]]: tensor<64x256xbf16>, %[[H:.*]]: tensor<16x1x1xf32>)
// CHECK-NEXT:    %[[E:.*]] = tensor.empty() : tensor<16x1x1xf32>
// CHECK-NEXT:    %[[KEPT:.*]] = tensor.extract_slice %[[H]][1, 0, 0] [15, 1, 1] [1, 1, 1]
// CHECK-NEXT:    %[[R0:.*]] = tensor.insert_slice %[[KEPT]] into %[[E]]
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[A:.*]] = fp8.quantize_delayed %[[X]] history(%[[H]] : tensor<16x1x1xf32>) {fp8.role = "activation", margin = 1 : i64, scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
// CHECK-NEXT:    %[[ROLLED:.*]] = tensor.insert_slice %[[A]] into %[[R0]][15, 0, 0]
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[ROLLED]]
// OFF-LABEL: func.func @history_max(
// OFF: fp8.amax
// OFF: linalg.reduce
// OFF: arith.select
// OFF: fp8.quantize %{{.*}} amax(
// OFF-NOT: fp8.quantize_delayed
func.func @history_max(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>)
    -> (tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %cur = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<64x256xbf16> -> tensor<1x1xf32>
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
  %q, %s = fp8.quantize %x amax(%used : tensor<1x1xf32>) {fp8.role = "activation", margin = 1,
      scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s, %rolled : tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>
}

// -----

// amax = delayed<16, most_recent>: the history's last entry
// (most_recent). Where another op reads the history's amax, it stays.
// CHECK-LABEL: func.func @most_recent(
// CHECK-SAME:    %[[X:.*]]: tensor<64x256xf32>, %[[H:.*]]: tensor<16x1x1xf32>)
// CHECK-NEXT:    %[[LAST:.*]] = tensor.extract_slice %[[H]][15, 0, 0] [1, 1, 1] [1, 1, 1]
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[A:.*]] = fp8.quantize_delayed %[[X]] history(%[[H]] : tensor<16x1x1xf32>) {most_recent, scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<64x256xf32> -> tensor<64x256xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
// CHECK-NOT:     arith.select
// CHECK:         return %[[Q]], %[[S]], %[[A]], %[[LAST]]
func.func @most_recent(%x: tensor<64x256xf32>, %h: tensor<16x1x1xf32>)
    -> (tensor<64x256xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %last = tensor.extract_slice %h[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %cur = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<64x256xf32> -> tensor<1x1xf32>
  %positive = arith.cmpf ogt, %last, %zeros : tensor<1x1xf32>
  %finite = arith.cmpf olt, %last, %inf : tensor<1x1xf32>
  %usable = arith.andi %finite, %positive : tensor<1x1xi1>
  %used = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %q, %s = fp8.quantize %x amax(%used : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xf32> -> tensor<64x256xf8E5M2>, tensor<1x1xf32>
  return %q, %s, %cur, %last : tensor<64x256xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}

// -----

// A reader of the data's amax that cannot move after the quantization
// (another op reads it first): the fused op goes to the fp8.amax instead.
// CHECK-LABEL: func.func @read_early(
// CHECK-SAME:    %[[X:.*]]: tensor<64x256xbf16>, %[[H:.*]]: tensor<16x1x1xf32>)
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[A:.*]] = fp8.quantize_delayed %[[X]] history(%[[H]] : tensor<16x1x1xf32>) {most_recent
// CHECK-NEXT:    %[[D:.*]] = arith.addf %[[A]], %[[A]]
// CHECK-NEXT:    %[[F:.*]] = arith.addf %[[D]], %[[D]]
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[F]]
func.func @read_early(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>)
    -> (tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %cur = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<64x256xbf16> -> tensor<1x1xf32>
  %twice = arith.addf %cur, %cur : tensor<1x1xf32>
  %four = arith.addf %twice, %twice : tensor<1x1xf32>
  %last = tensor.extract_slice %h[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %positive = arith.cmpf ogt, %last, %zeros : tensor<1x1xf32>
  %finite = arith.cmpf olt, %last, %inf : tensor<1x1xf32>
  %usable = arith.andi %positive, %finite : tensor<1x1xi1>
  %used = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %q, %s = fp8.quantize %x amax(%used : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s, %four : tensor<64x256xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
}

// -----

// Not fused: the amax chosen is read by another op (it would need the
// choice outside the kernel), the amax of another value, a slice that is
// not the last entry, a history read as usable at 0 (oge), rowwise scales,
// and 40 elements (not whole 16-element chunks).
// CHECK-LABEL: func.func @not_fused(
// CHECK-NOT:     fp8.quantize_delayed
// CHECK:         return
func.func @not_fused(%x: tensor<64x256xbf16>, %y: tensor<64x256xbf16>, %z: tensor<5x8xbf16>, %h: tensor<16x1x1xf32>)
    -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<64x1xf32>, tensor<1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %last = tensor.extract_slice %h[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %first = tensor.extract_slice %h[0, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %positive = arith.cmpf ogt, %last, %zeros : tensor<1x1xf32>
  %finite = arith.cmpf olt, %last, %inf : tensor<1x1xf32>
  %usable = arith.andi %positive, %finite : tensor<1x1xi1>
  %cx = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<64x256xbf16> -> tensor<1x1xf32>
  %cy = fp8.amax %y {tile = #fp8.tile<[*, *]>} : tensor<64x256xbf16> -> tensor<1x1xf32>
  %read = arith.select %usable, %last, %cx : tensor<1x1xi1>, tensor<1x1xf32>
  %q0, %s0 = fp8.quantize %x amax(%read : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  %other = arith.select %usable, %last, %cy : tensor<1x1xi1>, tensor<1x1xf32>
  %q1, %s1 = fp8.quantize %x amax(%other : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  %p2 = arith.cmpf ogt, %first, %zeros : tensor<1x1xf32>
  %f2 = arith.cmpf olt, %first, %inf : tensor<1x1xf32>
  %u2 = arith.andi %p2, %f2 : tensor<1x1xi1>
  %sliced = arith.select %u2, %first, %cx : tensor<1x1xi1>, tensor<1x1xf32>
  %q2, %s2 = fp8.quantize %x amax(%sliced : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  %p3 = arith.cmpf oge, %last, %zeros : tensor<1x1xf32>
  %u3 = arith.andi %p3, %finite : tensor<1x1xi1>
  %oge = arith.select %u3, %last, %cx : tensor<1x1xi1>, tensor<1x1xf32>
  %q3, %s3 = fp8.quantize %x amax(%oge : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
  %rows = fp8.amax %x {tile = #fp8.tile<[1, *]>} : tensor<64x256xbf16> -> tensor<64x1xf32>
  %q4, %s4 = fp8.quantize %x amax(%rows : tensor<64x1xf32>) {scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
  %cz = fp8.amax %z {tile = #fp8.tile<[*, *]>} : tensor<5x8xbf16> -> tensor<1x1xf32>
  %small = arith.select %usable, %last, %cz : tensor<1x1xi1>, tensor<1x1xf32>
  %q5, %s5 = fp8.quantize %z amax(%small : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<5x8xbf16> -> tensor<5x8xf8E4M3FN>, tensor<1x1xf32>
  return %read, %s1, %s2, %s3, %s4, %s5 : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<64x1xf32>, tensor<1x1xf32>
}

// -----

// The quantization of the transpose of the value whose amax the history
// holds, as fp8-legalize writes Wgrad's X under
// #fp8.recipe<delayed, hadamard = 16>: the history holds the amax of X
// rotated along dim 0, and the quantization reads the rotation of X's
// transpose along dim 1 (the same elements, transposed) with the chosen
// amax transposed (1x1: the same value). One fp8.quantize_delayed of the
// rotated transpose where the quantization was; its amax (the same bits)
// goes into the history, and the dim-0 rotation, read only by the amax,
// goes too. producers=false leaves them.
// CHECK-LABEL: func.func @transposed_rotation(
// CHECK-SAME:    %[[X:.*]]: tensor<64x256xbf16>, %[[H:.*]]: tensor<16x1x1xf32>)
// CHECK-NOT:     fp8.amax
// CHECK-NOT:     dim = 0
// CHECK:         %[[R0:.*]] = tensor.insert_slice
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<64x256xbf16>)
// CHECK-NEXT:    %[[W:.*]] = fp8.hadamard %[[XT]] {dim = 1 : i64, seed = 5 : i64, size = 16 : i64} : tensor<256x64xbf16>
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[A:.*]] = fp8.quantize_delayed %[[W]] history(%[[H]] : tensor<16x1x1xf32>) {fp8.role = "activation", scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
// CHECK-NEXT:    %[[ROLLED:.*]] = tensor.insert_slice %[[A]] into %[[R0]][15, 0, 0]
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[ROLLED]]
// OFF-LABEL: func.func @transposed_rotation(
// OFF: fp8.hadamard %{{.*}} {dim = 0
// OFF: fp8.amax
// OFF: fp8.quantize %{{.*}} amax(
// OFF-NOT: fp8.quantize_delayed
func.func @transposed_rotation(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>)
    -> (tensor<256x64xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %zero = arith.constant 0.000000e+00 : f32
  %v = fp8.hadamard %x {dim = 0 : i64, size = 16 : i64, seed = 5 : i64} : tensor<64x256xbf16>
  %cur = fp8.amax %v {tile = #fp8.tile<[*, *]>} : tensor<64x256xbf16> -> tensor<1x1xf32>
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
  %et = tensor.empty() : tensor<256x64xbf16>
  %xt = linalg.transpose ins(%x : tensor<64x256xbf16>) outs(%et : tensor<256x64xbf16>) permutation = [1, 0]
  %w = fp8.hadamard %xt {dim = 1 : i64, size = 16 : i64, seed = 5 : i64} : tensor<256x64xbf16>
  %usedt = linalg.transpose ins(%used : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) permutation = [1, 0]
  %q, %s = fp8.quantize %w amax(%usedt : tensor<1x1xf32>) {fp8.role = "activation",
      scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s, %rolled : tensor<256x64xf8E4M3FN>, tensor<1x1xf32>, tensor<16x1x1xf32>
}

// -----

// Without a rotation: the quantization of linalg.transpose %x with the
// amax of %x (most_recent), the chosen amax read as it is.
// CHECK-LABEL: func.func @transposed(
// CHECK-SAME:    %[[X:.*]]: tensor<64x256xf32>, %[[H:.*]]: tensor<16x1x1xf32>)
// CHECK:         %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<64x256xf32>)
// CHECK-NEXT:    %[[Q:.*]], %[[S:.*]], %[[A:.*]] = fp8.quantize_delayed %[[XT]] history(%[[H]] : tensor<16x1x1xf32>) {most_recent, scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<256x64xf32> -> tensor<256x64xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
// CHECK-NEXT:    return %[[Q]], %[[S]], %[[A]]
func.func @transposed(%x: tensor<64x256xf32>, %h: tensor<16x1x1xf32>)
    -> (tensor<256x64xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %last = tensor.extract_slice %h[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %cur = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<64x256xf32> -> tensor<1x1xf32>
  %positive = arith.cmpf ogt, %last, %zeros : tensor<1x1xf32>
  %finite = arith.cmpf olt, %last, %inf : tensor<1x1xf32>
  %usable = arith.andi %positive, %finite : tensor<1x1xi1>
  %used = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %et = tensor.empty() : tensor<256x64xf32>
  %xt = linalg.transpose ins(%x : tensor<64x256xf32>) outs(%et : tensor<256x64xf32>) permutation = [1, 0]
  %q, %s = fp8.quantize %xt amax(%used : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x64xf32> -> tensor<256x64xf8E5M2>, tensor<1x1xf32>
  return %q, %s, %cur : tensor<256x64xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
}

// -----

// Not fused where the quantized value is not, bit for bit, the transpose
// of the one whose amax the history holds: a rotation with another seed,
// of another size, along the same dim (dim 0 of the transpose); nor where
// the chosen amax, transposed, is read by another op too; nor where a
// reader of the data's amax keeps the fused op at the amax, which comes
// before the transpose it would quantize.
// CHECK-LABEL: func.func @transposed_not_fused(
// CHECK-NOT:     fp8.quantize_delayed
// CHECK:         return
func.func @transposed_not_fused(%x: tensor<64x256xbf16>, %h: tensor<16x1x1xf32>)
    -> (tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %inf = arith.constant dense<0x7F800000> : tensor<1x1xf32>
  %zeros = arith.constant dense<0.000000e+00> : tensor<1x1xf32>
  %last = tensor.extract_slice %h[15, 0, 0] [1, 1, 1] [1, 1, 1] : tensor<16x1x1xf32> to tensor<1x1xf32>
  %positive = arith.cmpf ogt, %last, %zeros : tensor<1x1xf32>
  %finite = arith.cmpf olt, %last, %inf : tensor<1x1xf32>
  %usable = arith.andi %positive, %finite : tensor<1x1xi1>
  %e = tensor.empty() : tensor<1x1xf32>
  %et = tensor.empty() : tensor<256x64xbf16>
  %xt = linalg.transpose ins(%x : tensor<64x256xbf16>) outs(%et : tensor<256x64xbf16>) permutation = [1, 0]
  %v = fp8.hadamard %x {dim = 0 : i64, size = 16 : i64, seed = 5 : i64} : tensor<64x256xbf16>
  %cur = fp8.amax %v {tile = #fp8.tile<[*, *]>} : tensor<64x256xbf16> -> tensor<1x1xf32>
  // Another seed.
  %w0 = fp8.hadamard %xt {dim = 1 : i64, size = 16 : i64, seed = 6 : i64} : tensor<256x64xbf16>
  %u0 = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %q0, %s0 = fp8.quantize %w0 amax(%u0 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x1xf32>
  // Another size.
  %w1 = fp8.hadamard %xt {dim = 1 : i64, size = 32 : i64, seed = 5 : i64} : tensor<256x64xbf16>
  %u1 = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %q1, %s1 = fp8.quantize %w1 amax(%u1 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x1xf32>
  // Along dim 0 of the transpose too.
  %w2 = fp8.hadamard %xt {dim = 0 : i64, size = 16 : i64, seed = 5 : i64} : tensor<256x64xbf16>
  %u2 = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %q2, %s2 = fp8.quantize %w2 amax(%u2 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x1xf32>
  // The transposed amax read twice.
  %w3 = fp8.hadamard %xt {dim = 1 : i64, size = 16 : i64, seed = 5 : i64} : tensor<256x64xbf16>
  %u3 = arith.select %usable, %last, %cur : tensor<1x1xi1>, tensor<1x1xf32>
  %u3t = linalg.transpose ins(%u3 : tensor<1x1xf32>) outs(%e : tensor<1x1xf32>) permutation = [1, 0]
  %q3, %s3 = fp8.quantize %w3 amax(%u3t : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x1xf32>
  // The data's amax read before the quantization by an op that another
  // op reads before it too (it cannot move), the transpose made after
  // the amax.
  %y = arith.addf %x, %x : tensor<64x256xbf16>
  %cy = fp8.amax %y {tile = #fp8.tile<[*, *]>} : tensor<64x256xbf16> -> tensor<1x1xf32>
  %twice = arith.addf %cy, %cy : tensor<1x1xf32>
  %four = arith.addf %twice, %twice : tensor<1x1xf32>
  %eyt = tensor.empty() : tensor<256x64xbf16>
  %yt = linalg.transpose ins(%y : tensor<64x256xbf16>) outs(%eyt : tensor<256x64xbf16>) permutation = [1, 0]
  %u4 = arith.select %usable, %last, %cy : tensor<1x1xi1>, tensor<1x1xf32>
  %q4, %s4 = fp8.quantize %yt amax(%u4 : tensor<1x1xf32>) {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x1xf32>
  return %s0, %s1, %s2, %u3t, %four : tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<1x1xf32>
}
