// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-lower-to-reference

// The reference computes on static shapes; a dynamic one is reported at the
// op rather than left unlowered.
func.func @dynamic(%x: tensor<?x64xf32>) {
  // expected-error @+1 {{fp8-lower-to-reference needs static shapes, got 'tensor<?x64xf32>'}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<?x64xf32> -> tensor<?x64xf8E4M3FN>, tensor<?x2xf32>
  return
}

// -----

// More than 2^48 elements: the reference's tile padding would overflow 64
// bits (it did, into a negative tensor.pad size), so it refuses at the op.
func.func @huge(%x: tensor<9223372036854775807x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize' op fp8-lower-to-reference: 'tensor<9223372036854775807x256xbf16>' has more than 2^48 elements, more than the CPU reference computes}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<9223372036854775807x256xbf16> -> tensor<9223372036854775807x256xf8E4M3FN>, tensor<72057594037927936x2xf32>
  return
}
