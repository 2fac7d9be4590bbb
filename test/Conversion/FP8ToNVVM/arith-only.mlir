// A module of arith ops on tensors and nothing else: kernel generation turns
// them into linalg.generics on tensor.empty first, so it must load the linalg
// and tensor dialects itself (convert-fp8-to-nvvm and fp8-emit crashed in
// linalg::GenericOp::build on this input, found while probing grid limits).
// RUN: fp8-opt %s --convert-fp8-to-nvvm | FileCheck %s
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// CHECK-LABEL: func.func @add
// CHECK: tensor.empty() : tensor<64x32xf32>
// CHECK: linalg.generic {{.*}}fp8.kernel = @add_generic_0::@add_generic_0
// CHECK: gpu.module @add_generic_0
// MANIFEST: "name": "add_generic_0"
func.func @add(%x: tensor<64x32xf32>, %y: tensor<64x32xf32>) -> tensor<64x32xf32> {
  %z = arith.addf %x, %y : tensor<64x32xf32>
  return %z : tensor<64x32xf32>
}
