// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-quantize-matmuls=recipe=blockwise
// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-pipeline=recipe=blockwise -o /dev/null

// A matmul that no role reaches stays in high precision, with a warning
// that says where the roles go (through the transpose, to the argument);
// a module where nothing was quantized gets a warning of its own.
// expected-warning @+1 {{fp8-quantize-matmuls quantized no matmul: 1 matmul(s) have no fp8 role on either operand (see the warnings on them)}}
module {
  func.func @no_roles(%x: tensor<64x256xbf16>, %w: tensor<128x256xbf16>,
                      %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %e = tensor.empty() : tensor<256x128xbf16>
    %wt = linalg.transpose ins(%w : tensor<128x256xbf16>) outs(%e : tensor<256x128xbf16>) permutation = [1, 0]
    // expected-warning @+1 {{matmul left in high precision: no fp8 role reaches it; to quantize it, mark what its operands come from with fp8.role ("activation", "weight" or "gradient"): operand a ('tensor<64x256xbf16>') comes from function argument #0 of @no_roles, operand b ('tensor<256x128xbf16>') from function argument #1 of @no_roles}}
    %y = linalg.matmul ins(%x, %wt : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %y : tensor<64x128xf32>
  }
}

// -----

// A weight computed in the function: the role goes on the op that makes it.
// Another function is quantized, so the module gets no warning.
module {
  func.func @constant_weight(%x: tensor<64x256xbf16>, %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %w = arith.constant dense<1.0> : tensor<256x128xbf16>
    // expected-warning @+1 {{operand b ('tensor<256x128xbf16>') from the result of 'arith.constant' at}}
    %y = linalg.matmul ins(%x, %w : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %y : tensor<64x128xf32>
  }
  func.func @layer(%x: tensor<64x256xbf16> {fp8.role = "activation"},
                   %w: tensor<256x128xbf16> {fp8.role = "weight"},
                   %c: tensor<64x128xf32>) -> tensor<64x128xf32> {
    %y = linalg.matmul ins(%x, %w : tensor<64x256xbf16>, tensor<256x128xbf16>) outs(%c : tensor<64x128xf32>) -> tensor<64x128xf32>
    return %y : tensor<64x128xf32>
  }
}

// -----

// Nothing to quantize at all.
// expected-warning @+1 {{fp8-quantize-matmuls quantized no matmul: the module has no bf16, f16 or f32 linalg matmul}}
module {
  func.func @no_matmul(%x: tensor<64x256xbf16>) -> tensor<64x256xbf16> {
    return %x : tensor<64x256xbf16>
  }
}
