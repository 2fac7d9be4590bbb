// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s
// RUN: %python %S/oracle.py stochastic-rounding-mean | FileCheck %s

// Stochastic rounding is unbiased: quantize 4096 copies of a value x that
// lies between two FP8 grid points, dequantize, and average. Each element
// rounds up with probability p = (x - lo) / (hi - lo), so the mean is lo +
// (hi - lo) k / 4096 with k ~ Binomial(4096, p), standard deviation
// sigma = (hi - lo) sqrt(p (1 - p) / 4096). Each case prints the mean (6
// digits; the regex allows about +-4 sigma) and 1 if |mean - x| <= 4 sigma.
// Round-to-nearest, for contrast, always gives lo: biased by (hi - lo) p.
// The qscale is 1 (delayed amax = fmax). Sums of the dequantized values are
// exact in f32 (multiples of the grid step / 4096).

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

// Prints mean(d) and [|mean(d) - x| <= tol].
func.func @report(%d: tensor<1x4096xf32>, %x: f32, %tol: f32) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x1xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<1x1xf32>) -> tensor<1x1xf32>
  // sum(v / 4096) in order; v / 4096 and every partial sum are exact.
  %mean = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                           affine_map<(i, j) -> (i, 0)>],
                          iterator_types = ["parallel", "reduction"]}
      ins(%d : tensor<1x4096xf32>) outs(%init : tensor<1x1xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %inv = arith.constant 0.000244140625 : f32
    %w = arith.mulf %v, %inv : f32
    %s = arith.addf %acc, %w : f32
    linalg.yield %s : f32
  } -> tensor<1x1xf32>
  %xt = tensor.from_elements %x : tensor<1x1xf32>
  %tt = tensor.from_elements %tol : tensor<1x1xf32>
  %diff = arith.subf %mean, %xt : tensor<1x1xf32>
  %abs = math.absf %diff : tensor<1x1xf32>
  %ok = arith.cmpf ole, %abs, %tt : tensor<1x1xf32>
  %oki = arith.extui %ok : tensor<1x1xi1> to tensor<1x1xi32>
  // Print last: the printer may write its argument as far as bufferization
  // knows, so %mean is not read after it.
  %u = tensor.cast %mean : tensor<1x1xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %ou = tensor.cast %oki : tensor<1x1xi32> to tensor<*xi32>
  call @printMemrefI32(%ou) : (tensor<*xi32>) -> ()
  return
}

func.func @main() {
  %a448 = arith.constant dense<448.0> : tensor<1x1xf32>
  %a57344 = arith.constant dense<57344.0> : tensor<1x1xf32>
  %seed = arith.constant 1234 : i64
  %seed99 = arith.constant 99 : i64

  // e4m3, x = fl32(1.0375) between 1.0 and 1.125: p = 0.3, sigma = 0.125 *
  // sqrt(0.21 / 4096) = 0.000895, tolerance 4 sigma = 0.0036.
  %x1 = arith.constant 1.0375 : f32
  %tol1 = arith.constant 0.0036 : f32
  %v1 = tensor.splat %x1 : tensor<1x4096xf32>
  %q1, %s1 = fp8.quantize %v1 amax(%a448 : tensor<1x1xf32>) seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf32> -> tensor<1x4096xf8E4M3FN>, tensor<1x1xf32>
  %d1 = fp8.dequantize %q1, %s1 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x4096xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [{{1\.0(3[4-9]|4[01])[0-9]*}}]
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  call @report(%d1, %x1, %tol1) : (tensor<1x4096xf32>, f32, f32) -> ()
  %n1, %ns1 = fp8.quantize %v1 amax(%a448 : tensor<1x1xf32>) {
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf32> -> tensor<1x4096xf8E4M3FN>, tensor<1x1xf32>
  %nd1 = fp8.dequantize %n1, %ns1 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x4096xf32>
  // Nearest: mean exactly 1, off by 0.0375 > tolerance.
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0]
  call @report(%nd1, %x1, %tol1) : (tensor<1x4096xf32>, f32, f32) -> ()

  // e5m2, x = fl32(1.1) between 1.0 and 1.25: p = 0.4, sigma = 0.25 *
  // sqrt(0.24 / 4096) = 0.0019, tolerance 0.0077.
  %x2 = arith.constant 1.1 : f32
  %tol2 = arith.constant 0.0077 : f32
  %v2 = tensor.splat %x2 : tensor<1x4096xf32>
  %q2, %s2 = fp8.quantize %v2 amax(%a57344 : tensor<1x1xf32>) seed(%seed) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf32> -> tensor<1x4096xf8E5M2>, tensor<1x1xf32>
  %d2 = fp8.dequantize %q2, %s2 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf8E5M2>, tensor<1x1xf32> -> tensor<1x4096xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [{{1\.(09[2-9]|10[0-7])[0-9]*}}]
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  call @report(%d2, %x2, %tol2) : (tensor<1x4096xf32>, f32, f32) -> ()

  // e4m3 subnormal range: x = fl32(0.3 * 2^-9) between 0 and 2^-9 (p = 0.3),
  // sigma = 2^-9 * sqrt(0.21 / 4096) = 1.4e-5, tolerance 5.6e-5; nearest
  // gives 0.
  %x3 = arith.constant 5.859375e-04 : f32
  %tol3 = arith.constant 5.6e-05 : f32
  %v3 = tensor.splat %x3 : tensor<1x4096xf32>
  %q3, %s3 = fp8.quantize %v3 amax(%a448 : tensor<1x1xf32>) seed(%seed99) {
        rounding = #fp8.rounding<stochastic>,
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf32> -> tensor<1x4096xf8E4M3FN>, tensor<1x1xf32>
  %d3 = fp8.dequantize %q3, %s3 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x4096xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [{{0\.000(5[3-9]|6[0-4])[0-9]*}}]
  // CHECK: Unranked Memref
  // CHECK-NEXT: [1]
  call @report(%d3, %x3, %tol3) : (tensor<1x4096xf32>, f32, f32) -> ()
  %n3, %ns3 = fp8.quantize %v3 amax(%a448 : tensor<1x1xf32>) {
        scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf32> -> tensor<1x4096xf8E4M3FN>, tensor<1x1xf32>
  %nd3 = fp8.dequantize %n3, %ns3 {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<1x4096xf8E4M3FN>, tensor<1x1xf32> -> tensor<1x4096xf32>
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0]
  // CHECK: Unranked Memref
  // CHECK-NEXT: [0]
  call @report(%nd3, %x3, %tol3) : (tensor<1x4096xf32>, f32, f32) -> ()
  return
}
