// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// An operand without elements would give a kernel an empty grid, which no
// runtime can launch: an error at the op, not a manifest with grid [0, 1, 1].
func.func @empty_gemm(%a: tensor<0x256xf8E4M3FN>, %sa: tensor<0x2xf32>, %b: tensor<256x256xf8E4M3FN>, %sb: tensor<2x2xf32>) -> tensor<0x256xbf16> {
  // expected-error @+1 {{'fp8.scaled_matmul' op convert-fp8-to-nvvm: the kernel would launch an empty grid [0, 1, 1]: an operand has no elements ('tensor<0x256xf8E4M3FN>', 'tensor<0x2xf32>', 'tensor<256x256xf8E4M3FN>', 'tensor<2x2xf32>')}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<0x256xf8E4M3FN>, tensor<0x2xf32>, tensor<256x256xf8E4M3FN>, tensor<2x2xf32>) -> tensor<0x256xbf16>
  return %c : tensor<0x256xbf16>
}

// -----

// The same for a quantization of no rows.
func.func @empty_quantize(%x: tensor<0x256xbf16>) -> (tensor<0x256xf8E4M3FN>, tensor<0x2xf32>) {
  // expected-error @+1 {{'fp8.quantize' op convert-fp8-to-nvvm: the kernel would launch an empty grid}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<0x256xbf16> -> tensor<0x256xf8E4M3FN>, tensor<0x2xf32>
  return %q, %s : tensor<0x256xf8E4M3FN>, tensor<0x2xf32>
}

// -----

// A shape whose byte count overflows is refused before any index is built.
func.func @huge(%x: tensor<4294967296x4294967296xbf16>) -> (tensor<4294967296x4294967296xf8E4M3FN>, tensor<4294967296x33554432xf32>) {
  // expected-error @+1 {{'fp8.quantize' op convert-fp8-to-nvvm: 'tensor<4294967296x4294967296xbf16>' is larger than any GPU buffer (2^48 bytes)}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<4294967296x4294967296xbf16> -> tensor<4294967296x4294967296xf8E4M3FN>, tensor<4294967296x33554432xf32>
  return %q, %s : tensor<4294967296x4294967296xf8E4M3FN>, tensor<4294967296x33554432xf32>
}
