// RUN: fp8-opt %s --fp8-split-forward-backward -split-input-file -verify-diagnostics

// No result depends on the gradient: backward would compute nothing.
// expected-error @+1 {{fp8-split-forward-backward: @fwd_only has no result that depends on a gradient argument; backward would compute nothing}}
func.func @fwd_only(%x: tensor<4xf32>, %dy: tensor<4xf32> {fp8.role = "gradient"}) -> tensor<4xf32> {
  %y = arith.negf %x : tensor<4xf32>
  return %y : tensor<4xf32>
}

// -----

// Every result depends on the gradient: forward would compute nothing.
// expected-error @+1 {{fp8-split-forward-backward: @bwd_only has no result that depends on no gradient argument; forward would compute nothing}}
func.func @bwd_only(%x: tensor<4xf32>, %dy: tensor<4xf32> {fp8.role = "gradient"}) -> tensor<4xf32> {
  %dx = arith.mulf %x, %dy : tensor<4xf32>
  return %dx : tensor<4xf32>
}

// -----

// A result that is an argument unchanged belongs to neither half.
// expected-error @+1 {{fp8-split-forward-backward: @passthrough returns argument #0 as result #0; a split half returns what it computes}}
func.func @passthrough(%x: tensor<4xf32>, %dy: tensor<4xf32> {fp8.role = "gradient"}) -> (tensor<4xf32>, tensor<4xf32>) {
  %dx = arith.mulf %x, %dy : tensor<4xf32>
  return %x, %dx : tensor<4xf32>, tensor<4xf32>
}

// -----

func.func @taken_fwd() {
  return
}

// The name of a half is taken.
// expected-error @+1 {{fp8-split-forward-backward: @taken cannot be split: @taken_fwd exists}}
func.func @taken(%x: tensor<4xf32>, %dy: tensor<4xf32> {fp8.role = "gradient"}) -> (tensor<4xf32>, tensor<4xf32>) {
  %y = arith.negf %x : tensor<4xf32>
  %dx = arith.mulf %dy, %dy : tensor<4xf32>
  return %y, %dx : tensor<4xf32>, tensor<4xf32>
}
