// RUN: fp8-opt %s --fp8-split-forward-backward | FileCheck %s
// RUN: fp8-opt %s --fp8-split-forward-backward -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK

// Constants, tensor.empty and fills are cloned into each half; a value
// forward computes and backward reads crosses, labelled op<K>:r<i>; the
// slice of an argument that only backward's roll reads moves to backward
// with it (fewer bytes), so that argument is backward's alone.
func.func @train(%x: tensor<4x8xf32> {fp8.role = "activation"},
                 %h: tensor<16x1xf32>,
                 %dy: tensor<4x8xf32> {fp8.role = "gradient"})
    -> (tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x1xf32>) {
  %c = arith.constant 2.0 : f32
  %e = tensor.empty() : tensor<4x8xf32>
  %two = linalg.fill ins(%c : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %y = arith.mulf %x, %two : tensor<4x8xf32>
  %s = arith.addf %y, %two : tensor<4x8xf32>
  %dx = arith.mulf %dy, %s : tensor<4x8xf32>
  %sl = tensor.extract_slice %h[1, 0] [15, 1] [1, 1] : tensor<16x1xf32> to tensor<15x1xf32>
  %eh = tensor.empty() : tensor<16x1xf32>
  %ins = tensor.insert_slice %sl into %eh[0, 0] [15, 1] [1, 1] : tensor<15x1xf32> into tensor<16x1xf32>
  %a = tensor.extract_slice %dy[0, 0] [1, 1] [1, 1] : tensor<4x8xf32> to tensor<1x1xf32>
  %hn = tensor.insert_slice %a into %ins[15, 0] [1, 1] [1, 1] : tensor<1x1xf32> into tensor<16x1xf32>
  return %y, %dx, %hn : tensor<4x8xf32>, tensor<4x8xf32>, tensor<16x1xf32>
}

// An argument both halves read crosses as it is, with a remark; a call of
// the joint function becomes a call of each half; a function without a
// CHECK-LABEL: func.func @train_fwd(
// CHECK-SAME: %[[X:.*]]: tensor<4x8xf32> {fp8.role = "activation"})
// CHECK-SAME: -> (tensor<4x8xf32>, tensor<4x8xf32> {fp8.saved = "op4:r0"})
// CHECK: %[[C:.*]] = arith.constant 2.0
// CHECK: %[[E:.*]] = tensor.empty() : tensor<4x8xf32>
// CHECK: %[[TWO:.*]] = linalg.fill ins(%[[C]] : f32) outs(%[[E]]
// CHECK: %[[Y:.*]] = arith.mulf %[[X]], %[[TWO]]
// CHECK: %[[S:.*]] = arith.addf %[[Y]], %[[TWO]]
// CHECK-NOT: tensor.extract_slice
// CHECK: return %[[Y]], %[[S]]
// CHECK-LABEL: func.func @train_bwd(
// CHECK-SAME: %[[DY:.*]]: tensor<4x8xf32> {fp8.role = "gradient"},
// CHECK-SAME: %[[H:.*]]: tensor<16x1xf32> {fp8.saved = "arg1"},
// CHECK-SAME: %[[SS:.*]]: tensor<4x8xf32> {fp8.saved = "op4:r0"})
// CHECK-SAME: -> (tensor<4x8xf32>, tensor<16x1xf32>)
// CHECK-NOT: arith.constant
// CHECK: %[[DX:.*]] = arith.mulf %[[DY]], %[[SS]]
// CHECK: %[[SL:.*]] = tensor.extract_slice %[[H]][1, 0] [15, 1]
// CHECK: %[[EH:.*]] = tensor.empty() : tensor<16x1xf32>
// CHECK: %[[INS:.*]] = tensor.insert_slice %[[SL]] into %[[EH]]
// CHECK: %[[A:.*]] = tensor.extract_slice %[[DY]]
// CHECK: %[[HN:.*]] = tensor.insert_slice %[[A]] into %[[INS]][15, 0]
// CHECK: return %[[DX]], %[[HN]]

// gradient argument is left as it is.
func.func @keep(%x: tensor<4x8xf32> {fp8.role = "activation"},
                %dy: tensor<4x8xf32> {fp8.role = "gradient"})
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %y = arith.negf %x : tensor<4x8xf32>
  %dx = arith.mulf %dy, %x : tensor<4x8xf32>
  return %y, %dx : tensor<4x8xf32>, tensor<4x8xf32>
}

func.func @caller(%x: tensor<4x8xf32>, %dy: tensor<4x8xf32>)
    -> (tensor<4x8xf32>, tensor<4x8xf32>) {
  %y, %dx = call @keep(%x, %dy) : (tensor<4x8xf32>, tensor<4x8xf32>) -> (tensor<4x8xf32>, tensor<4x8xf32>)
  return %dx, %y : tensor<4x8xf32>, tensor<4x8xf32>
}
// REMARK: remark: fp8-split-forward-backward: argument #0 of @keep ('tensor<4x8xf32>') is read by forward and backward: autograd keeps it for backward as it is
// REMARK-NOT: remark
// CHECK-LABEL: func.func @keep_fwd(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32> {fp8.role = "activation"}) -> tensor<4x8xf32>
// CHECK-LABEL: func.func @keep_bwd(
// CHECK-SAME: %{{.*}}: tensor<4x8xf32> {fp8.role = "gradient"},
// CHECK-SAME: %{{.*}}: tensor<4x8xf32> {fp8.role = "activation", fp8.saved = "arg0"}) -> tensor<4x8xf32>
// CHECK-LABEL: func.func @caller(
// CHECK-SAME: %[[CX:.*]]: tensor<4x8xf32>, %[[CDY:.*]]: tensor<4x8xf32>)
// CHECK: %[[F:.*]] = call @keep_fwd(%[[CX]])
// CHECK: %[[B:.*]] = call @keep_bwd(%[[CDY]], %[[CX]])
// CHECK: return %[[B]], %[[F]]
// CHECK-NOT: func.func @keep(
// CHECK-NOT: @train(
