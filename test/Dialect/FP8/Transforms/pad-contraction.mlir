// RUN: fp8-opt %s --split-input-file --fp8-pad-contraction | FileCheck %s

// Wgrad of 1000 tokens contracts the token dim: dY and X get 8 zero rows.
// CHECK-LABEL: func.func @wgrad
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : bf16
// CHECK: %[[DY:.*]] = tensor.pad %arg0 low[0, 0] high[8, 0]
// CHECK: tensor.yield %[[ZERO]] : bf16
// CHECK: tensor<1000x64xbf16> to tensor<1008x64xbf16>
// CHECK: %[[X:.*]] = tensor.pad %arg1 low[0, 0] high[8, 0]
// CHECK: tensor<1000x32xbf16> to tensor<1008x32xbf16>
// CHECK: linalg.matmul {{.*}} ins(%[[DY]], %[[X]] : tensor<1008x64xbf16>, tensor<1008x32xbf16>)
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
func.func @wgrad(%dy: tensor<1000x64xbf16> {fp8.role = "gradient"},
                 %x: tensor<1000x32xbf16> {fp8.role = "activation"})
    -> tensor<64x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<64x32xf32>) -> tensor<64x32xf32>
  %dw = linalg.matmul indexing_maps = #wgrad
        ins(%dy, %x : tensor<1000x64xbf16>, tensor<1000x32xbf16>)
        outs(%i : tensor<64x32xf32>) -> tensor<64x32xf32>
  return %dw : tensor<64x32xf32>
}

// -----

// A contracted extent that is a multiple of 16 is left alone; one operand's
// rows and the other's columns are padded when that is where K lies.
// CHECK-LABEL: func.func @fprop_aligned
// CHECK-NOT: tensor.pad
// CHECK-LABEL: func.func @fprop_k40
// CHECK: tensor.pad %arg0 low[0, 0] high[0, 8]
// CHECK: tensor<17x40xbf16> to tensor<17x48xbf16>
// CHECK: tensor.pad %arg1 low[0, 0] high[8, 0]
// CHECK: tensor<40x64xbf16> to tensor<48x64xbf16>
// CHECK: linalg.matmul {{.*}} -> tensor<17x64xbf16>
func.func @fprop_aligned(%x: tensor<17x48xbf16>, %w: tensor<48x64xbf16>) -> tensor<17x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<17x64xbf16>
  %i = linalg.fill ins(%zero : bf16) outs(%e : tensor<17x64xbf16>) -> tensor<17x64xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<17x48xbf16>, tensor<48x64xbf16>)
                     outs(%i : tensor<17x64xbf16>) -> tensor<17x64xbf16>
  return %y : tensor<17x64xbf16>
}
func.func @fprop_k40(%x: tensor<17x40xbf16>, %w: tensor<40x64xbf16>) -> tensor<17x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<17x64xbf16>
  %i = linalg.fill ins(%zero : bf16) outs(%e : tensor<17x64xbf16>) -> tensor<17x64xbf16>
  %y = linalg.matmul ins(%x, %w : tensor<17x40xbf16>, tensor<40x64xbf16>)
                     outs(%i : tensor<17x64xbf16>) -> tensor<17x64xbf16>
  return %y : tensor<17x64xbf16>
}

// -----

// Batched: the contracted dim of each batch's matrices, after the batch dim.
// CHECK-LABEL: func.func @batched
// CHECK: tensor.pad %arg0 low[0, 0, 0] high[0, 0, 7]
// CHECK: tensor<4x8x9xf32> to tensor<4x8x16xf32>
// CHECK: tensor.pad %arg1 low[0, 0, 0] high[0, 7, 0]
// CHECK: tensor<4x9x32xf32> to tensor<4x16x32xf32>
// CHECK: linalg.batch_matmul
func.func @batched(%a: tensor<4x8x9xf32>, %b: tensor<4x9x32xf32>) -> tensor<4x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4x8x32xf32>
  %i = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  %c = linalg.batch_matmul ins(%a, %b : tensor<4x8x9xf32>, tensor<4x9x32xf32>)
                           outs(%i : tensor<4x8x32xf32>) -> tensor<4x8x32xf32>
  return %c : tensor<4x8x32xf32>
}

// -----

// A dynamic extent is left to the kernels' own checks.
// CHECK-LABEL: func.func @dynamic
// CHECK-NOT: tensor.pad
func.func @dynamic(%x: tensor<?x40xbf16>, %w: tensor<40x64xbf16>, %o: tensor<?x64xbf16>) -> tensor<?x64xbf16> {
  %y = linalg.matmul ins(%x, %w : tensor<?x40xbf16>, tensor<40x64xbf16>)
                     outs(%o : tensor<?x64xbf16>) -> tensor<?x64xbf16>
  return %y : tensor<?x64xbf16>
}

// -----

// Elements without a zero to pad with (complex) are left alone.
// CHECK-LABEL: func.func @complex
// CHECK-NOT: tensor.pad
func.func @complex(%a: tensor<4x9xcomplex<f32>>, %b: tensor<9x8xcomplex<f32>>, %o: tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>> {
  %y = linalg.matmul ins(%a, %b : tensor<4x9xcomplex<f32>>, tensor<9x8xcomplex<f32>>) outs(%o : tensor<4x8xcomplex<f32>>) -> tensor<4x8xcomplex<f32>>
  return %y : tensor<4x8xcomplex<f32>>
}
