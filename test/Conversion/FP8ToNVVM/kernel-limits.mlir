// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm

// An operand without elements would give a kernel an empty grid, which no
// runtime can launch: an error at the op, not a manifest with grid [0, 1, 1].
func.func @empty_gemm(%a: tensor<0x256xf8E4M3FN>, %sa: tensor<0x2xf32>, %b: tensor<256x256xf8E4M3FN>, %sb: tensor<2x2xf32>) -> tensor<0x256xbf16> {
  // expected-error @+1 {{'fp8.scaled_matmul' op convert-fp8-to-nvvm: the kernel would launch an empty grid: an operand has no elements ('tensor<0x256xf8E4M3FN>', 'tensor<0x2xf32>', 'tensor<256x256xf8E4M3FN>', 'tensor<2x2xf32>')}}
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

// A `*` tile over no rows resolves to a 0-row tile; the kernel builders
// divided by it (UBSan: division by zero, found by fp8-fuzz). Refused before
// any kernel is built.
func.func @empty_whole_tile(%x: tensor<0x4xf32>) -> (tensor<0x4xf8E4M3FN>, tensor<1x1xf32>) {
  // expected-error @+1 {{'fp8.quantize' op convert-fp8-to-nvvm: the kernel would launch an empty grid: an operand has no elements ('tensor<0x4xf32>')}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<0x4xf32> -> tensor<0x4xf8E4M3FN>, tensor<1x1xf32>
  return %q, %s : tensor<0x4xf8E4M3FN>, tensor<1x1xf32>
}

// -----

// A shape whose byte count overflows is refused before any index is built.
func.func @huge(%x: tensor<4294967296x4294967296xbf16>) -> (tensor<4294967296x4294967296xf8E4M3FN>, tensor<4294967296x33554432xf32>) {
  // expected-error @+1 {{'fp8.quantize' op convert-fp8-to-nvvm: 'tensor<4294967296x4294967296xbf16>' is larger than any GPU buffer (2^48 bytes)}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<4294967296x4294967296xbf16> -> tensor<4294967296x4294967296xf8E4M3FN>, tensor<4294967296x33554432xf32>
  return %q, %s : tensor<4294967296x4294967296xf8E4M3FN>, tensor<4294967296x33554432xf32>
}

// -----

// A byte count that would overflow 64 bits (2^63 elements of 2 bytes) is
// refused the same way, before any product of extents wraps.
func.func @overflow(%x: tensor<9223372036854775807x2xbf16>) -> (tensor<9223372036854775807x2xf8E4M3FN>, tensor<9223372036854775807x1xf32>) {
  // expected-error @+1 {{'fp8.quantize' op convert-fp8-to-nvvm: 'tensor<9223372036854775807x2xbf16>' is larger than any GPU buffer (2^48 bytes)}}
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<9223372036854775807x2xbf16> -> tensor<9223372036854775807x2xf8E4M3FN>, tensor<9223372036854775807x1xf32>
  return %q, %s : tensor<9223372036854775807x2xf8E4M3FN>, tensor<9223372036854775807x1xf32>
}

// -----

// 2^45 elements fit a GPU buffer but not CUDA's grid (x < 2^31 CTAs).
func.func @grid(%x: tensor<1099511627776x32xf32>, %y: tensor<1099511627776x32xf32>) -> tensor<1099511627776x32xf32> {
  // expected-error @+1 {{'linalg.generic' op convert-fp8-to-nvvm: the kernel's grid [34359738368, 1, 1] exceeds CUDA's launch limits (x < 2^31, y and z < 2^16)}}
  %z = arith.addf %x, %y : tensor<1099511627776x32xf32>
  return %z : tensor<1099511627776x32xf32>
}

// -----

// TMA coordinates are signed 32-bit: a GEMM's K of 2^33 (a 2^39-byte A, a
// valid buffer) cannot be addressed by its tensor maps.
func.func @tma_extent(%a: tensor<64x8589934592xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<128x8589934592xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<64x128xbf16> {
  // expected-error @+1 {{'fp8.scaled_matmul' op K = 8589934592 exceeds 2^31 - 1, the largest TMA coordinate}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x8589934592xf8E4M3FN>, tensor<1x1xf32>, tensor<128x8589934592xf8E4M3FN>, tensor<1x1xf32>) -> tensor<64x128xbf16>
  return %c : tensor<64x128xbf16>
}

// -----

// M and N each within TMA's reach, but their C tiles more than the kernel's
// 32-bit tile index counts.
func.func @tiles(%a: tensor<8388608x16xf8E4M3FN>, %sa: tensor<1x1xf32>, %b: tensor<8388608x16xf8E4M3FN>, %sb: tensor<1x1xf32>) -> tensor<8388608x8388608xbf16> {
  // expected-error @+1 {{'fp8.scaled_matmul' op M x N = 8388608 x 8388608 makes 2863333376 tiles of 128 x 192, more than the kernel's 32-bit tile index counts (2^31 - 1)}}
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<8388608x16xf8E4M3FN>, tensor<1x1xf32>, tensor<8388608x16xf8E4M3FN>, tensor<1x1xf32>) -> tensor<8388608x8388608xbf16>
  return %c : tensor<8388608x8388608xbf16>
}
