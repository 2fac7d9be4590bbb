// Launch plans that cannot be built are refused with an error naming the op
// and its location, a non-zero exit and no manifest; reshapes are views,
// scalars are argument buffers, and re-emitting removes stale PTX files.
// RUN: rm -rf %t && split-file --leading-lines %s %t

// RUN: not fp8-opt %t/return-argument.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=RETARG
// RUN: not fp8-opt %t/return-twice.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not fp8-opt %t/concat.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=CONCAT
// RUN: not fp8-opt %t/matmul.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=MATMUL
// RUN: not fp8-opt %t/unlaunched.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=UNLAUNCHED
// RUN: test ! -e %t/out

// A result that is an argument unchanged: the runtime's outputs are buffers
// the plan writes.
//--- return-argument.mlir
func.func @f(%x: tensor<64x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<64x128xbf16>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  // RETARG: return-argument.mlir:[[@LINE+1]]:3: error: 'func.return' op fp8-emit: result #2 is argument #0 unchanged; a program's results are buffers it writes
  return %q, %s, %x : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<64x128xbf16>
}

// One value returned twice: the outputs are distinct buffers.
//--- return-twice.mlir
func.func @f(%x: tensor<64x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  // TWICE: return-twice.mlir:[[@LINE+1]]:3: error: 'func.return' op fp8-emit: results #1 and #2 are one value; a program's results are distinct buffers
  return %q, %s, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<64x1xf32>
}

// An op without a GPU kernel: a tensor.concat before a quantization.
//--- concat.mlir
func.func @f(%x: tensor<64x64xbf16>, %y: tensor<64x64xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>) {
  // CONCAT: concat.mlir:[[@LINE+1]]:8: error: 'tensor.concat' op convert-fp8-to-nvvm: has no GPU kernel
  %p = tensor.concat dim(1) %x, %y : (tensor<64x64xbf16>, tensor<64x64xbf16>) -> tensor<64x128xbf16>
  %q, %s = fp8.quantize %p {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
}

// A matmul left in bf16 (no fp8.role reaches it) has no kernel either.
//--- matmul.mlir
func.func @f(%x: tensor<64x128xbf16>, %w: tensor<128x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<64x128xbf16>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<64x128xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<64x128xbf16>) -> tensor<64x128xbf16>
  // MATMUL: matmul.mlir:[[@LINE+1]]:8: error: 'linalg.matmul' op convert-fp8-to-nvvm: has no GPU kernel (a matmul left unquantized
  %y = linalg.matmul ins(%x, %w : tensor<64x128xbf16>, tensor<128x128xbf16>)
         outs(%init : tensor<64x128xbf16>) -> tensor<64x128xbf16>
  return %q, %s, %y : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<64x128xbf16>
}

// A value no launch writes that the function returns: a constant tensor
// (constants are folded into the kernels that read them, so none has a
// buffer). The plan names the op and where the return reads it.
//--- unlaunched.mlir
func.func @f(%x: tensor<64x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<4xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  // UNLAUNCHED: unlaunched.mlir:[[@LINE+1]]:8: error: 'arith.constant' op fp8-emit: has no GPU kernel, and the function returns its result
  %c = arith.constant dense<1.0> : tensor<4xf32>
  // UNLAUNCHED: unlaunched.mlir:[[@LINE+1]]:3: note: read here
  return %q, %s, %c : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<4xf32>
}

// The plans that are built. A reshape of an intermediate is a view of its
// bytes; a reshape returned as a result makes the result the storage (the
// kernel's output a view of it); a scalar i64 seed is an argument buffer.
// Re-emitting removes the PTX files the new manifest does not name (old.ptx)
// and leaves other files alone (notes.txt).
// RUN: mkdir -p %t/plan && touch %t/plan/old.ptx && echo keep > %t/plan/notes.txt
// RUN: fp8-opt %t/views.mlir --fp8-emit=dir=%t/plan -o /dev/null
// RUN: FileCheck %s --check-prefix=VIEWS --match-full-lines < %t/plan/manifest.json
// RUN: test ! -e %t/plan/old.ptx && test -s %t/plan/notes.txt
// RUN: ls %t/plan | FileCheck %s --check-prefix=FILES
// FILES-NOT: old.ptx
// FILES: manifest.json
// FILES-NEXT: notes.txt
// FILES-NEXT: reshape_dequantize_1.ptx
// FILES-NEXT: reshape_quantize_0.ptx
// FILES-NEXT: seeded_quantize_2.ptx
// The dequantize reads the quantization's buffers as views (of: their ids)
// in its own shapes; its output is a view of the flat result.
// VIEWS-LABEL: "functions": [
// VIEWS:      "id": [[Q:1]],
// VIEWS-NEXT: "kind": "intermediate",
// VIEWS-NEXT: "name": "reshape_quantize_0.q",
// VIEWS:      "id": [[S:2]],
// VIEWS-NEXT: "kind": "intermediate",
// VIEWS:      "id": [[QV:[0-9]+]],
// VIEWS-NEXT: "kind": "view",
// VIEWS-NEXT: "name": "{{.*}}",
// VIEWS-NEXT: "of": [[Q]],
// VIEWS-NEXT: "shape": [
// VIEWS-NEXT:   32,
// VIEWS-NEXT:   256
// VIEWS:      "id": [[SV:[0-9]+]],
// VIEWS-NEXT: "kind": "view",
// VIEWS-NEXT: "name": "{{.*}}",
// VIEWS-NEXT: "of": [[S]],
// VIEWS-NEXT: "shape": [
// VIEWS-NEXT:   32,
// VIEWS-NEXT:   2
// VIEWS:      "id": [[OUT:[0-9]+]],
// VIEWS-NEXT: "kind": "view",
// VIEWS-NEXT: "name": "reshape_dequantize_1.out",
// VIEWS-NEXT: "of": [[RESULT:[0-9]+]],
// VIEWS:      "id": [[RESULT]],
// VIEWS-NEXT: "index": 0,
// VIEWS-NEXT: "kind": "result",
// VIEWS-NEXT: "name": "result0",
// VIEWS-NEXT: "shape": [
// VIEWS-NEXT:   8192
// VIEWS-NEXT: ]
// VIEWS:      "args": [
// VIEWS-NEXT:   0,
// VIEWS-NEXT:   [[Q]],
// VIEWS-NEXT:   [[S]]
// VIEWS-NEXT: ],
// VIEWS-NEXT: "kernel": "reshape_quantize_0",
// VIEWS:      "args": [
// VIEWS-NEXT:   [[QV]],
// VIEWS-NEXT:   [[SV]],
// VIEWS-NEXT:   [[OUT]]
// VIEWS-NEXT: ],
// VIEWS-NEXT: "kernel": "reshape_dequantize_1",
// VIEWS:      "results": [
// VIEWS-NEXT:   [[RESULT]]
// VIEWS-NEXT: ],
// The seed: argument #1, 8 bytes of i64, which the kernel reads as [1].
// VIEWS:      "arguments": [
// VIEWS-NEXT:   0,
// VIEWS-NEXT:   [[SEED:1]]
// VIEWS-NEXT: ],
// VIEWS:      "bytes": 8,
// VIEWS-NEXT: "dtype": "i64",
// VIEWS-NEXT: "id": [[SEED]],
// VIEWS-NEXT: "index": 1,
// VIEWS-NEXT: "kind": "argument",
// VIEWS:      "bytes": 8,
// VIEWS-NEXT: "dtype": "i64",
// VIEWS-NEXT: "id": [[SEEDV:[0-9]+]],
// VIEWS-NEXT: "kind": "view",
// VIEWS-NEXT: "name": "arg1.view",
// VIEWS-NEXT: "of": [[SEED]],
// VIEWS:      "args": [
// VIEWS-NEXT:   0,
// VIEWS-NEXT:   [[SEEDV]],
//--- views.mlir
// The 64x128 quantization is read as 32x256 (two rows a row, their 1x128
// scales side by side), through a collapse and an expand, and the result is
// returned flat.
func.func @reshape(%x: tensor<64x128xbf16>) -> tensor<8192xf32> {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  %q1 = tensor.collapse_shape %q [[0, 1]] : tensor<64x128xf8E4M3FN> into tensor<8192xf8E4M3FN>
  %q2 = tensor.expand_shape %q1 [[0, 1]] output_shape [32, 256] : tensor<8192xf8E4M3FN> into tensor<32x256xf8E4M3FN>
  %s1 = tensor.collapse_shape %s [[0, 1]] : tensor<64x1xf32> into tensor<64xf32>
  %s2 = tensor.expand_shape %s1 [[0, 1]] output_shape [32, 2] : tensor<64xf32> into tensor<32x2xf32>
  %d = fp8.dequantize %q2, %s2 {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<32x256xf8E4M3FN>, tensor<32x2xf32> -> tensor<32x256xf32>
  %flat = tensor.collapse_shape %d [[0, 1]] : tensor<32x256xf32> into tensor<8192xf32>
  return %flat : tensor<8192xf32>
}
// The seed of stochastic rounding is a scalar argument: a buffer of one i64.
func.func @seeded(%x: tensor<64x128xbf16>, %seed: i64) -> (tensor<64x128xf8E5M2>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x seed(%seed) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E5M2>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E5M2>, tensor<64x1xf32>
}
