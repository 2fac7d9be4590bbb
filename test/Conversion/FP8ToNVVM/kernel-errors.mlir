// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// Ops that the elementwise, reduction, slice, transpose and high-precision
// GEMM kernels do not take get a diagnostic at the op, and no kernel.

// An elementwise linalg op on memrefs: the kernels read and write tensors'
// buffers, which the launch plan allocates.
func.func @elementwise_memref(%a: memref<64x128xf32>, %b: memref<64x128xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm: only linalg ops whose loops are all parallel, on tensors, have an elementwise kernel}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<64x128xf32>) outs(%b : memref<64x128xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %x : f32
    linalg.yield %z : f32
  }
  return
}

// -----

// An elementwise kernel is specialized to its static loop ranges. (The
// body reads its init: otherwise the init would become a tensor.empty of
// tensor.dim sizes, refused first as an op with no kernel.)
func.func @elementwise_dynamic(%a: tensor<?x128xf32>, %b: tensor<?x128xf32>) -> tensor<?x128xf32> {
  // expected-error @+1 {{convert-fp8-to-nvvm: needs static shapes}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x128xf32>) outs(%b : tensor<?x128xf32>) {
  ^bb0(%x: f32, %y: f32):
    %z = arith.mulf %x, %y : f32
    linalg.yield %z : f32
  } -> tensor<?x128xf32>
  return %r : tensor<?x128xf32>
}

// -----

// A reduction on memrefs.
func.func @reduce_memref(%a: memref<64x128xf32>, %b: memref<64xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm: only reductions on tensors with one result have a kernel}}
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%a : memref<64x128xf32>) outs(%b : memref<64xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %z = arith.addf %x, %acc : f32
    linalg.yield %z : f32
  }
  return
}

// -----

// A reduction whose result swaps its parallel loops: the kernel writes
// result element i from the i-th combination of parallel loops in order.
func.func @reduce_permuted(%a: tensor<8x16x32xf32>, %init: tensor<32x8xf32>) -> tensor<32x8xf32> {
  // expected-error @+1 {{convert-fp8-to-nvvm: a reduction's result must be indexed by its parallel loops in order}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d2, d0)>],
                       iterator_types = ["parallel", "reduction", "parallel"]}
      ins(%a : tensor<8x16x32xf32>) outs(%init : tensor<32x8xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %z = arith.addf %x, %acc : f32
    linalg.yield %z : f32
  } -> tensor<32x8xf32>
  return %r : tensor<32x8xf32>
}

// -----

// A reduction with a scalar operand: the kernel reads every operand from a
// buffer. (A max, not a product: a multiply-add would be a contraction.)
func.func @reduce_scalar_operand(%a: tensor<64x128xf32>, %s: f32, %init: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{convert-fp8-to-nvvm: a reduction's operands must be tensors}}
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0)>],
                       iterator_types = ["parallel", "reduction"]}
      ins(%a, %s : tensor<64x128xf32>, f32) outs(%init : tensor<64xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %t = arith.maximumf %x, %y : f32
    %z = arith.addf %t, %acc : f32
    linalg.yield %z : f32
  } -> tensor<64xf32>
  return %r : tensor<64xf32>
}

// -----

// A slice at an offset known only at run time.
func.func @slice_dynamic_offset(%a: tensor<64x128xf32>, %i: index) -> tensor<16x128xf32> {
  // expected-error @+1 {{convert-fp8-to-nvvm: a slice needs static shapes, offsets, sizes and strides}}
  %s = tensor.extract_slice %a[%i, 0] [16, 128] [1, 1] : tensor<64x128xf32> to tensor<16x128xf32>
  return %s : tensor<16x128xf32>
}

// -----

// fp8.transpose moves 16-byte rows: its dims are multiples of 16.
func.func @transpose_partial_tile(%q: tensor<100x128xf8E4M3FN>, %s: tensor<1x1xf32>) -> (tensor<128x100xf8E4M3FN>, tensor<1x1xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm transposes static rank-2 data whose dims are multiples of 16 (16-byte rows, as the GEMMs need), got 'tensor<100x128xf8E4M3FN>'}}
  %t, %ts = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<100x128xf8E4M3FN>, tensor<1x1xf32> -> tensor<128x100xf8E4M3FN>, tensor<1x1xf32>
  return %t, %ts : tensor<128x100xf8E4M3FN>, tensor<1x1xf32>
}

// -----

// A batched matmul kept in high precision: the GEMM has one M, N and K.
func.func @high_precision_batch(%a: tensor<2x128x256xbf16>, %b: tensor<2x256x128xbf16>) -> tensor<2x128x128xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x128x128xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<2x128x128xf32>) -> tensor<2x128x128xf32>
  // expected-error @+1 {{convert-fp8-to-nvvm: a matmul kept in high precision needs one M, N and K dim and no batch}}
  %c = linalg.batch_matmul {fp8_high_precision}
         ins(%a, %b : tensor<2x128x256xbf16>, tensor<2x256x128xbf16>) outs(%init : tensor<2x128x128xf32>) -> tensor<2x128x128xf32>
  return %c : tensor<2x128x128xf32>
}

// -----

// A pad kernel writes zeros only (what fp8-pad-contraction inserts).
func.func @pad_nonzero(%x: tensor<100x64xbf16>) -> tensor<112x64xbf16> {
  %one = arith.constant 1.0 : bf16
  // expected-error @+1 {{convert-fp8-to-nvvm: a pad needs static shapes and offsets and a constant zero padding value}}
  %p = tensor.pad %x low[0, 0] high[12, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %one : bf16
  } : tensor<100x64xbf16> to tensor<112x64xbf16>
  return %p : tensor<112x64xbf16>
}
