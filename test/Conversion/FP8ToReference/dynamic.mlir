// RUN: fp8-opt %s -verify-diagnostics --fp8-lower-to-reference

// The reference computes on static shapes; a dynamic one is reported at the
// op rather than left unlowered.
func.func @dynamic(%x: tensor<?x64xf32>) {
  // expected-error @+1 {{fp8-lower-to-reference needs static shapes, got 'tensor<?x64xf32>'}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f32>}
      : tensor<?x64xf32> -> tensor<?x64xf8E4M3FN>, tensor<?x2xf32>
  return
}
