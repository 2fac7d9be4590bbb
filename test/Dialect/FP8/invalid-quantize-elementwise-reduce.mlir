// fp8.quantize_elementwise's `reduce` regions (row sums of norms): one
// case per diagnostic.
// RUN: fp8-opt %s -split-input-file -verify-diagnostics

#id = affine_map<(i, j) -> (i, j)>

// The body lacks the row sum's argument.
func.func @body_no_sum_argument(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects a body argument per input (1) and per reduction (1), got 1}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %s: f32):
    %f = arith.extf %a : bf16 to f32
    fp8.yield %f : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A reduce region with the input's argument of another type.
func.func @reduce_argument_type(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects reduce region #0 argument #0 of input #0's element type 'bf16', got 'f32'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: f32, %s: f32):
    fp8.yield %a : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A row sum is f32.
func.func @sum_type(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op expects body argument #1 (the sum of reduce region #0) of type f32, got 'bf16'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %s: bf16):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %s: f32):
    %f = arith.extf %a : bf16 to f32
    fp8.yield %f : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A term is f32.
func.func @term_type(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op reduce region #0 yields an f32 term, got 'bf16'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %a : bf16
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A term that reads its own sum.
func.func @reads_own_sum(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op reduce region #0 reads the sum of reduce region #0: a region reads only the sums before it}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %s : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A reduce region with an op that is not scalar arith or math.
func.func @reduce_op(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op reduce region #0 computes one element with scalar arith and math ops, got 'tensor.empty'}}
  %q, %s = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %s: f32):
    %e = tensor.empty() : tensor<4xf32>
    %f = arith.extf %a : bf16 to f32
    fp8.yield %f : f32
  }
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// A reduce region without fp8.yield.
func.func @reduce_no_yield(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op reduce region #0 must end with fp8.yield}}
  %q, %s = "fp8.quantize_elementwise"(%x) ({
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %a : bf16
  }, {
  ^bb0(%a: bf16, %s: f32):
    llvm.unreachable
  }) {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : (tensor<128x128xbf16>) -> (tensor<128x128xf8E4M3FN>, tensor<128x1xf32>)
  return
}

// -----

#id = affine_map<(i, j) -> (i, j)>

// Row sums with the transpose.
func.func @reduce_transpose(%x: tensor<128x128xbf16>) {
  // expected-error @+1 {{'fp8.quantize_elementwise' op row reductions take neither the transpose nor a rotation}}
  %q, %s, %qt, %st = fp8.quantize_elementwise %x {indexing_maps = [#id], scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose}
      : tensor<128x128xbf16> -> tensor<128x128xf8E4M3FN>, tensor<128x1xf32>, tensor<128x128xf8E4M3FN>, tensor<128x1xf32> {
  ^bb0(%a: bf16, %s: f32):
    fp8.yield %a : bf16
  } reduce {
  ^bb0(%a: bf16, %s: f32):
    %f = arith.extf %a : bf16 to f32
    fp8.yield %f : f32
  }
  return
}
