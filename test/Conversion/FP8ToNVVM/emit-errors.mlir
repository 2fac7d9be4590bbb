// --fp8-emit needs a directory, and something to emit.
// RUN: not fp8-opt %s --fp8-emit= 2>&1 | FileCheck %s --check-prefix=NODIR
// RUN: rm -rf %t && not fp8-opt %s --fp8-emit=%t 2>&1 | FileCheck %s --check-prefix=NOKERNEL
// NODIR: --fp8-emit needs a directory: --fp8-emit=DIR
// NOKERNEL: error: no kernels to emit: run convert-fp8-to-nvvm first or give fp8 ops
func.func @nothing(%x: tensor<4x4xf32>) -> tensor<4x4xf32> {
  return %x : tensor<4x4xf32>
}
