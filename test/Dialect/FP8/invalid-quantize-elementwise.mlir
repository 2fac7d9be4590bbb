// RUN: fp8-opt %s -split-input-file -verify-diagnostics

#id = affine_map<(i, j) -> (i, j)>

// No input.
func.func @no_input() {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects at least one input}}
  %q, %s = "fp8.quantize_elementwise"() ({
  ^bb0:
    %c = arith.constant 1.0 : bf16
    fp8.yield %c : bf16
  }) {indexing_maps = [], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : () -> (tensor<128x128xf8E4M3FN>, tensor<128x1xf32>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Two inputs, one map.
func.func @maps_count(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects an indexing map per input (2), got 1}}
  %q, %s = fp8.quantize_elementwise %x, %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16>, tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %b: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The transpose's results missing.
func.func @results_count(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects 4 results (with transpose), and the kept value optionally, got 2}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A body argument per input.
func.func @body_arguments(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects a body argument per input (1), got 2}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %b: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The body argument's type is the input's element type.
func.func @body_argument_type(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects body argument #0 of input #0's element type 'bf16', got 'f32'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: f32):
    fp8.yield %a : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Only scalar arith and math ops in the body.
func.func @body_ops(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op body computes one element with scalar arith and math ops, got 'tensor.empty'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    %e = tensor.empty() : tensor<4xbf16>
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The body ends with fp8.yield.
func.func @no_yield(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op body must end with fp8.yield}}
  %q, %s = "fp8.quantize_elementwise"(%x) ({
  ^bb0(%a: bf16):
    llvm.unreachable
  }) {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : (tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<128x1xf32>)
  return
}

// -----

// fp8.yield belongs to fp8.quantize_elementwise.
func.func @yield_outside(%a: bf16) {
  // expected-error @+1 {{'fp8.yield' op expects parent op 'fp8.quantize_elementwise'}}
  fp8.yield %a : bf16
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The data is FP8.
func.func @data_type(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects result #0 to be a matrix of f8E4M3FN or f8E5M2, got 'tensor<128x128xi8>'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xi8>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

// A transposing map needs another kernel.
func.func @transposing_map(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op indexing map #0 affine_map<(d0, d1) -> (d1, d0)> is not the identity or a broadcast of (d0, d1) in order}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [affine_map<(i, j) -> (j, i)>], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The bias row has the data's columns.
func.func @input_shape(%x: tensor<128x256xbf16>, %b: tensor<128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects input #1 of shape 256 through its indexing map affine_map<(d0, d1) -> (d1)>, got 128}}
  %q, %s = fp8.quantize_elementwise %x, %b {indexing_maps = [#id, affine_map<(i, j) -> (j)>], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16>, tensor<128xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32> {
  ^bb0(%a: bf16, %c: bf16):
    %r = arith.addf %a, %c : bf16
    fp8.yield %r : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Scales of the scaling's tile.
func.func @scale_shape(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects scale of shape 128x2 for data 128x256 and tile [1, 128], got 128x1}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The transposed data has the transposed shape.
func.func @transposed_shape(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects result_t of shape 256x128, got 128x256}}
  %q, %s, %qt, %st = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>, tensor<128x256xf8E4M3FN>, tensor<256x1xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// One FP8 type for the data and its transpose.
func.func @transposed_type(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects the data and its transpose of one element type, got 'f8E4M3FN' and 'f8E5M2'}}
  %q, %s, %qt, %st = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>, tensor<128x128xf8E5M2>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The kept value is the produced one: the yield's type.
func.func @kept_type(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects the kept value of type 'tensor<128x128xbf16>' (the data's shape, the yield's type), got 'tensor<128x128xf32>'}}
  %q, %s, %k = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>, tensor<128x128xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Isolated from above: the body takes nothing from outside.
func.func @from_outside(%x: tensor<128x128xbf16>, %c: bf16) {
  // expected-note @+1 {{required by region isolation constraints}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    // expected-error @+1 {{using value defined outside the region}}
    %r = arith.addf %a, %c : bf16
    fp8.yield %r : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// An empty body (no terminator).
func.func @empty_body(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op body must end with fp8.yield}}
  %q, %s = "fp8.quantize_elementwise"(%x) ({
  ^bb0(%a: bf16):
  }) {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : (tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<128x1xf32>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// TMA-laid scales have the transposed, padded shape.
func.func @tma_shape(%x: tensor<98x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects scale of shape 2x100 for data 98x256, tile [1, 128] and scale_layout col_major_tma (the row-major 98x2 scales transposed, rows padded to 16 bytes), got 98x2}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scale_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<98x256xbf16> -> tensor<98x256xf8E4M3FN>, tensor<98x2xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The tcgen05 chunks hold MX scales: E8M0 of 1x32 tiles.
func.func @tcgen05_not_mx(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op scale_layout tcgen05 needs E8M0 scales of tile [1, 32] (MXFP8 along the contracted dim 1), got tile [1, 128] and scale 'f32'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scale_layout = #fp8.scale_layout<tcgen05>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x512xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// tcgen05 scales have the chunked shape of fp8.tcgen05_scales, not the
// row-major one: 250x9 scales are 2 x 3 chunks.
func.func @tcgen05_shape(%x: tensor<250x288xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects scale of shape 6x512 for data 250x288 and scale_layout tcgen05 (the 250x9 [rows, K-blocks] scales in 512-byte chunks), got 250x9}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scale_layout = #fp8.scale_layout<tcgen05>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<250x288xbf16> -> tensor<250x288xf8E4M3FN>, tensor<250x9xf8E8M0FNU> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The transposing quantization stores row_major or col_major_tma scales.
func.func @tcgen05_transpose(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op scale_layout tcgen05 needs a quantization without the transpose}}
  %q, %s, %qt, %st = fp8.quantize_elementwise %x {indexing_maps = [#id], scale_layout = #fp8.scale_layout<tcgen05>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, transpose}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x512xf8E8M0FNU>, tensor<256x128xf8E4M3FN>, tensor<256x4xf8E8M0FNU> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Nor the transpose's scales in the tcgen05 chunks.
func.func @tcgen05_scale_t(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op scale_t_layout tcgen05 is made by fp8.tcgen05_scales, not stored by this quantization (row_major or col_major_tma)}}
  %q, %s, %qt, %st = fp8.quantize_elementwise %x {indexing_maps = [#id], scale_t_layout = #fp8.scale_layout<tcgen05>, scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, transpose}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>, tensor<256x128xf8E4M3FN>, tensor<1x512xf8E8M0FNU> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The transpose's scale layout without the transpose.
func.func @scale_t_layout(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op scale_t_layout needs the transpose}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scale_t_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  }
  return
}

// -----

// The cast-transpose's transposed scales, TMA-laid.
func.func @quantize_transpose_tma(%x: tensor<256x384xbf16>) {
  // expected-error @+1 {{'fp8.quantize_transpose' op expects scale_t of shape 2x384 for data 384x256, tile [1, 128] and scale_t_layout col_major_tma (the row-major 384x2 scales transposed, rows padded to 16 bytes), got 384x2}}
  %q, %s, %qt, %st = fp8.quantize_transpose %x {scale_t_layout = #fp8.scale_layout<col_major_tma>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A rotation's seed without its size.
func.func @seed_without_size(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op hadamard_seed needs hadamard_size}}
  %q, %s = fp8.quantize_elementwise %x {hadamard_seed = 3 : i64, indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32> {
  ^bb0(%e: bf16):
    fp8.yield %e : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

func.func @size_not_power_of_two(%x: tensor<128x240xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op hadamard_size 48 is not a power of two}}
  %q, %s = fp8.quantize_elementwise %x {hadamard_size = 48 : i64, indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<128x240xbf16> -> tensor<128x240xf8E4M3FN>, tensor<128x15xf32> {
  ^bb0(%e: bf16):
    fp8.yield %e : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

func.func @size_not_dividing(%x: tensor<128x192xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op hadamard_size 128 does not divide the 192 columns}}
  %q, %s = fp8.quantize_elementwise %x {hadamard_size = 128 : i64, indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 64], scale = f32>}
      : tensor<128x192xbf16> -> tensor<128x192xf8E4M3FN>, tensor<128x3xf32> {
  ^bb0(%e: bf16):
    fp8.yield %e : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// The rotated value has no other reader: no kept result.
func.func @rotated_kept(%x: tensor<128x256xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op a rotated quantization has neither the transpose nor a kept result}}
  %q, %s, %k = fp8.quantize_elementwise %x {hadamard_size = 128 : i64, indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>, tensor<128x256xbf16> {
  ^bb0(%e: bf16):
    fp8.yield %e : bf16
  }
  return
}
