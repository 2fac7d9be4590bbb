// The input of `make check-embed`: fp8-embed prints the `blockwise` preset,
// then parses, verifies and prints this file, and prints it again after
// fp8::buildPipeline; FileCheck matches its output against the directives
// below.

// The preset's parameters, from C++ getters (DeepSeek-V3: 1x128 activations
// and gradients, 128x128 weights, f32 scales).
// CHECK:      recipe #fp8.recipe<blockwise>
// CHECK-NEXT:   activation: f8E4M3FN, tile [1, 128], scale f32, round exact
// CHECK-NEXT:   weight: f8E4M3FN, tile [128, 128], scale f32, round exact
// CHECK-NEXT:   gradient: f8E4M3FN, tile [1, 128], scale f32, round exact
// CHECK-NEXT:   amax: current
// CHECK-NEXT:   margin: 0
// CHECK-NEXT:   accumulate: promoted
// CHECK-NEXT:   hadamard: 0
// CHECK-NEXT:   stochastic gradients: no
// CHECK-NEXT:   high precision: none

// Fprop Y = X * W^T of one linear layer with blockwise scales, printed back
// in the custom assembly format.
// CHECK-LABEL: func.func @fprop
// CHECK:         %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %{{.*}} {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
// CHECK:         %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %{{.*}} {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
// CHECK:         %[[Y:.*]] = fp8.scaled_matmul %[[XQ]], %[[XS]], %[[WQ]], %[[WS]]
// CHECK:         return %[[Y]]

// After fp8::buildPipeline (blockwise, sm_90a): the bf16 Fprop of @linear is
// quantized (1x128 X with TMA-aligned scales, 128x128 W); @fprop, quantized
// already and carrying no recipe, only gets its 1x128 scales aligned. In
// both, fp8-fuse-quantization has the quantization of X store its scales in
// the TMA layout itself (fp8.quantize_elementwise with scale_layout).
// CHECK-LABEL: after fp8-pipeline{recipe=blockwise chip=sm_90a}
// CHECK-LABEL: func.func @fprop
// CHECK:         fp8.quantize_elementwise %arg0 {{.*}}scale_layout = #fp8.scale_layout<col_major_tma>
// CHECK-NOT:     fp8.tma_align_scales
// CHECK:         fp8.scaled_matmul {{.*}}a_scale_layout = #fp8.scale_layout<col_major_tma>
// CHECK-LABEL: func.func @linear
// CHECK-SAME:    fp8.recipe = #fp8.recipe<blockwise>
// CHECK-DAG:     fp8.quantize_elementwise %arg0 {{.*}}tile = [1, 128]
// CHECK-DAG:     fp8.quantize %arg1 {{.*}}tile = [128, 128]
// CHECK:         fp8.scaled_matmul {{.*}}fp8.matmul = "fprop"
// CHECK-NOT:     linalg.matmul
func.func @fprop(%x: tensor<256x512xbf16>, %w: tensor<1024x512xbf16>)
    -> tensor<256x1024xbf16> {
  %xq, %xs = fp8.quantize %x {
        scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
  %wq, %ws = fp8.quantize %w {
        scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<1024x512xbf16> -> tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>
  %y = fp8.scaled_matmul %xq, %xs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
         tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>
  return %y : tensor<256x1024xbf16>
}

// The same Fprop as a bf16 training graph: the roles tell the pipeline which
// operand is the activation and which the weight.
func.func @linear(%x: tensor<256x512xbf16> {fp8.role = "activation"},
                  %w: tensor<1024x512xbf16> {fp8.role = "weight"})
    -> tensor<256x1024xf32> {
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<256x1024xf32>
  %init = linalg.fill ins(%zero : f32) outs(%empty : tensor<256x1024xf32>)
      -> tensor<256x1024xf32>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
      ins(%x, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>)
      outs(%init : tensor<256x1024xf32>) -> tensor<256x1024xf32>
  return %y : tensor<256x1024xf32>
}
