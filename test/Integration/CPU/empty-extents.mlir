// RUN: fp8-opt %s --fp8-reference-pipeline | %mlir-run | FileCheck %s

// Empty extents through the CPU reference (these divided by zero, SIGFPE,
// when a `*` tile or a K-block resolved to an empty dimension):
// - fp8.quantize of no rows with a `*` tile has one scale, that of a tile of
//   nothing: amax 0, qscale = 448 / 1e-12 (f32), the stored scale its
//   reciprocal, 0x2720D7C5 (2.2321429e-15);
// - fp8.scaled_matmul with K = 0 is an empty sum: C = 0.

func.func private @printMemrefI32(tensor<*xi32>) attributes {llvm.emit_c_interface}
func.func private @printMemrefF32(tensor<*xf32>) attributes {llvm.emit_c_interface}

func.func @main() {
  %x = arith.constant dense<0.0> : tensor<0x4xf32>
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<0x4xf32> -> tensor<0x4xf8E4M3FN>, tensor<1x1xf32>
  %bits = arith.bitcast %s : tensor<1x1xf32> to tensor<1x1xi32>
  %ub = tensor.cast %bits : tensor<1x1xi32> to tensor<*xi32>
  // CHECK: sizes = [1, 1]
  // CHECK-NEXT: {{\[\[}}656463813]]
  call @printMemrefI32(%ub) : (tensor<*xi32>) -> ()

  %a = arith.constant dense<0.0> : tensor<2x0xf8E4M3FN>
  %b = arith.constant dense<0.0> : tensor<3x0xf8E4M3FN>
  %one = arith.constant dense<1.0> : tensor<1x1xf32>
  %c = fp8.scaled_matmul %a, %one, %b, %one {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<2x0xf8E4M3FN>, tensor<1x1xf32>, tensor<3x0xf8E4M3FN>, tensor<1x1xf32>) -> tensor<2x3xf32>
  %uc = tensor.cast %c : tensor<2x3xf32> to tensor<*xf32>
  // CHECK: sizes = [2, 3]
  // CHECK-NEXT: {{\[\[}}0,   0,   0],
  // CHECK-NEXT: {{ \[}}0,   0,   0]]
  call @printMemrefF32(%uc) : (tensor<*xf32>) -> ()
  return
}
