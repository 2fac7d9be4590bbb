// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// Kernels are specialized to static shapes: a dynamic one gets a diagnostic
// at the op.
func.func @dynamic(%x: tensor<?x128xbf16>) {
  // expected-error @+1 {{convert-fp8-to-nvvm needs a static rank-2 input, got 'tensor<?x128xbf16>'}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<?x128xbf16> -> tensor<?x128xf8E4M3FN>, tensor<?x1xf32>
  return
}

// -----

// The scale-alignment kernel is specialized to static shapes too.
func.func @tma_align_dynamic(%s: tensor<?x4xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm needs a static, non-empty scale matrix, got 'tensor<?x4xf32>' -> 'tensor<4x?xf32>'}}
  %t = fp8.tma_align_scales %s : tensor<?x4xf32> -> tensor<4x?xf32>
  return
}

// -----

// An empty scale matrix would launch an empty grid.
func.func @tma_align_empty(%s: tensor<0x4xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm: the kernel would launch an empty grid: an operand has no elements ('tensor<0x4xf32>')}}
  %t = fp8.tma_align_scales %s : tensor<0x4xf32> -> tensor<4x0xf32>
  return
}

// -----

// A cast-transpose written by hand with tiles its kernel does not compute.
func.func @cast_transpose_tile(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x12xf32>, tensor<384x256xf8E4M3FN>, tensor<384x8xf32>) {
  // expected-error @+1 {{convert-fp8-to-nvvm: the cast-transpose kernel needs a 16-bit input with both dims multiples of 128 and 1x128 tiles, got 'tensor<256x384xbf16>' and tile [1, 32]}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x12xf32>, tensor<384x256xf8E4M3FN>, tensor<384x8xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x12xf32>, tensor<384x256xf8E4M3FN>, tensor<384x8xf32>
}

// -----

// The tcgen05 scale-factor kernel needs static scales.
func.func @tcgen05_scales_dynamic(%s: tensor<?x16xf8E8M0FNU>) -> tensor<?x512xf8E8M0FNU> {
  // expected-error @+1 {{convert-fp8-to-nvvm needs a static, non-empty scale matrix, got 'tensor<?x16xf8E8M0FNU>' -> 'tensor<?x512xf8E8M0FNU>'}}
  %sf = fp8.tcgen05_scales %s : tensor<?x16xf8E8M0FNU> -> tensor<?x512xf8E8M0FNU>
  return %sf : tensor<?x512xf8E8M0FNU>
}
