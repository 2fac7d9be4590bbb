// A function fp8-emit cannot describe as a launch plan is refused with an
// error naming it, a non-zero exit and no manifest: a body of more than one
// block, and an argument that is neither a static tensor nor a scalar.
// RUN: rm -rf %t && split-file --leading-lines %s %t
// RUN: not fp8-opt %t/blocks.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=BLOCKS
// RUN: not fp8-opt %t/index-arg.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=INDEX
// RUN: not fp8-opt %t/dynamic-arg.mlir --fp8-emit=dir=%t/out 2>&1 | FileCheck %s --check-prefix=DYNAMIC
// RUN: test ! -e %t/out/manifest.json

// A second block (unreachable here): a plan is one straight list of
// launches.
//--- blocks.mlir
// BLOCKS: blocks.mlir:[[@LINE+1]]:1: error: 'func.func' op fp8-emit: a program is one block of ops
func.func @f(%x: tensor<64x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
^bb1:
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
}

// An index argument: the runtime passes buffers and scalars of the
// manifest's dtypes, and index has none.
//--- index-arg.mlir
// INDEX: index-arg.mlir:[[@LINE+1]]:1: error: 'func.func' op fp8-emit: argument #1 ('index') is not a static tensor or a scalar
func.func @f(%x: tensor<64x128xbf16>, %i: index) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
}

// A dynamic tensor argument that no kernel reads (one that a kernel reads
// is refused by the kernel first): a buffer needs a size.
//--- dynamic-arg.mlir
// DYNAMIC: dynamic-arg.mlir:[[@LINE+1]]:1: error: 'func.func' op fp8-emit: argument #1 ('tensor<?x128xbf16>') is not a static tensor or a scalar
func.func @f(%x: tensor<64x128xbf16>, %y: tensor<?x128xbf16>) -> (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  return %q, %s : tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
}
