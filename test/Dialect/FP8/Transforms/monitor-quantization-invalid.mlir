// RUN: fp8-opt %s -split-input-file -verify-diagnostics --fp8-monitor-quantization

// A called function would return more results than its call sites take.
// expected-error @+1 {{'func.func' op fp8-monitor-quantization: @callee is called in the module; its callers would need the statistics it returns (monitor a function that nothing calls)}}
func.func @callee(%x: tensor<8x16xbf16>) -> tensor<8x16xf8E4M3FN> {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>
  return %q : tensor<8x16xf8E4M3FN>
}
func.func @caller(%x: tensor<8x16xbf16>) -> tensor<8x16xf8E4M3FN> {
  %q = func.call @callee(%x) : (tensor<8x16xbf16>) -> tensor<8x16xf8E4M3FN>
  return %q : tensor<8x16xf8E4M3FN>
}

// -----

// A quantization inside a region has no value at the function's return.
func.func @nested(%x: tensor<8x16xbf16>, %c: i1) -> tensor<8x16xf8E4M3FN> {
  %r = scf.if %c -> tensor<8x16xf8E4M3FN> {
    // expected-error @+1 {{'fp8.quantize' op fp8-monitor-quantization: a quantization nested in a region cannot return its statistics; move it to the function's body}}
    %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
        : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>
    scf.yield %q : tensor<8x16xf8E4M3FN>
  } else {
    %e = tensor.empty() : tensor<8x16xf8E4M3FN>
    scf.yield %e : tensor<8x16xf8E4M3FN>
  }
  return %r : tensor<8x16xf8E4M3FN>
}

// -----

// The statistics need one return that every quantization dominates.
// expected-error @+1 {{'func.func' op fp8-monitor-quantization: @blocks has more than one block}}
func.func @blocks(%x: tensor<8x16xbf16>) -> tensor<8x16xf8E4M3FN> {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 16], scale = f32>}
      : tensor<8x16xbf16> -> tensor<8x16xf8E4M3FN>, tensor<8x1xf32>
  cf.br ^bb1
^bb1:
  return %q : tensor<8x16xf8E4M3FN>
}
