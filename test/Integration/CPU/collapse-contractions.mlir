// fp8-collapse-contractions makes a layer written over [batch, sequence,
// features] the 2-D layer it is: @linear_fwd_bwd below takes the 2-D
// tensors of split-forward-backward.mlir's @main, views them as 2 x 128
// tokens, runs Fprop, Dgrad and Wgrad as rank-3 linalg.generic
// contractions (Wgrad contracting batch and sequence) and returns 2-D
// results. Through fp8-pipeline and the CPU reference it gives the bits of
// examples/linear_fwd_bwd.mlir (the same layer, 2-D) for every recipe.
// RUN: cat %s %S/split-forward-backward.mlir | grep -v '^// ' > %t.rank3.mlir
// RUN: cat %S/../../../examples/linear_fwd_bwd.mlir %S/split-forward-backward.mlir | grep -v '^// ' > %t.rank2.mlir
// RUN: fp8-opt %t.rank3.mlir --fp8-pipeline=recipe=blockwise | FileCheck %s --check-prefix=COLLAPSED
// COLLAPSED-LABEL: func.func @linear_fwd_bwd
// COLLAPSED-COUNT-3: fp8.scaled_matmul
// COLLAPSED-NOT: linalg.generic
// COLLAPSED: return
// RUN: fp8-opt %t.rank2.mlir --fp8-pipeline=recipe=tensorwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.tensorwise.2d
// RUN: fp8-opt %t.rank3.mlir --fp8-pipeline=recipe=tensorwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.tensorwise.3d
// RUN: diff %t.tensorwise.2d %t.tensorwise.3d
// RUN: fp8-opt %t.rank2.mlir --fp8-pipeline=recipe=blockwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.blockwise.2d
// RUN: fp8-opt %t.rank3.mlir --fp8-pipeline=recipe=blockwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.blockwise.3d
// RUN: diff %t.blockwise.2d %t.blockwise.3d
// RUN: fp8-opt %t.rank2.mlir --fp8-pipeline=recipe=rowwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise.2d
// RUN: fp8-opt %t.rank3.mlir --fp8-pipeline=recipe=rowwise --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.rowwise.3d
// RUN: diff %t.rowwise.2d %t.rowwise.3d
// RUN: fp8-opt %t.rank2.mlir --fp8-pipeline=recipe=mxfp8 --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.mxfp8.2d
// RUN: fp8-opt %t.rank3.mlir --fp8-pipeline=recipe=mxfp8 --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.mxfp8.3d
// RUN: diff %t.mxfp8.2d %t.mxfp8.3d
// RUN: FileCheck %s --check-prefix=SUMS < %t.blockwise.3d
// SUMS-COUNT-3: {{^}}[{{-?[1-9][0-9]*}}]{{$}}

#btk = affine_map<(b, t, n, k) -> (b, t, k)>
#nk = affine_map<(b, t, n, k) -> (n, k)>
#btn = affine_map<(b, t, n, k) -> (b, t, n)>
func.func @linear_fwd_bwd(%x2: tensor<256x512xbf16> {fp8.role = "activation"},
                          %w: tensor<1024x512xbf16> {fp8.role = "weight"},
                          %dy2: tensor<256x1024xbf16> {fp8.role = "gradient"})
    -> (tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>) {
  %zero = arith.constant 0.0 : bf16
  %zero32 = arith.constant 0.0 : f32
  %x = tensor.expand_shape %x2 [[0, 1], [2]] output_shape [2, 128, 512]
      : tensor<256x512xbf16> into tensor<2x128x512xbf16>
  %dy = tensor.expand_shape %dy2 [[0, 1], [2]] output_shape [2, 128, 1024]
      : tensor<256x1024xbf16> into tensor<2x128x1024xbf16>

  // Y[b, t, n] = sum_k X[b, t, k] W[n, k]
  %y0 = tensor.empty() : tensor<2x128x1024xbf16>
  %yi = linalg.fill ins(%zero : bf16) outs(%y0 : tensor<2x128x1024xbf16>) -> tensor<2x128x1024xbf16>
  %y = linalg.generic {indexing_maps = [#btk, #nk, #btn],
                       iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x128x512xbf16>, tensor<1024x512xbf16>) outs(%yi : tensor<2x128x1024xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %c, %p : bf16
    linalg.yield %s : bf16
  } -> tensor<2x128x1024xbf16>

  // dX[b, t, k] = sum_n dY[b, t, n] W[n, k]
  %dx0 = tensor.empty() : tensor<2x128x512xbf16>
  %dxi = linalg.fill ins(%zero : bf16) outs(%dx0 : tensor<2x128x512xbf16>) -> tensor<2x128x512xbf16>
  %dx = linalg.generic {indexing_maps = [affine_map<(b, t, k, n) -> (b, t, n)>,
                                         affine_map<(b, t, k, n) -> (n, k)>,
                                         affine_map<(b, t, k, n) -> (b, t, k)>],
                        iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%dy, %w : tensor<2x128x1024xbf16>, tensor<1024x512xbf16>) outs(%dxi : tensor<2x128x512xbf16>) {
  ^bb0(%a: bf16, %b: bf16, %c: bf16):
    %p = arith.mulf %a, %b : bf16
    %s = arith.addf %c, %p : bf16
    linalg.yield %s : bf16
  } -> tensor<2x128x512xbf16>

  // dW[n, k] = sum_{b, t} dY[b, t, n] X[b, t, k], accumulated in f32
  %dw0 = tensor.empty() : tensor<1024x512xf32>
  %dwi = linalg.fill ins(%zero32 : f32) outs(%dw0 : tensor<1024x512xf32>) -> tensor<1024x512xf32>
  %dw = linalg.generic {indexing_maps = [affine_map<(n, k, b, t) -> (b, t, n)>,
                                         affine_map<(n, k, b, t) -> (b, t, k)>,
                                         affine_map<(n, k, b, t) -> (n, k)>],
                        iterator_types = ["parallel", "parallel", "reduction", "reduction"]}
      ins(%dy, %x : tensor<2x128x1024xbf16>, tensor<2x128x512xbf16>) outs(%dwi : tensor<1024x512xf32>) {
  ^bb0(%a: bf16, %b: bf16, %c: f32):
    %a32 = arith.extf %a : bf16 to f32
    %b32 = arith.extf %b : bf16 to f32
    %p = arith.mulf %a32, %b32 : f32
    %s = arith.addf %c, %p : f32
    linalg.yield %s : f32
  } -> tensor<1024x512xf32>

  %y2 = tensor.collapse_shape %y [[0, 1], [2]] : tensor<2x128x1024xbf16> into tensor<256x1024xbf16>
  %dx2 = tensor.collapse_shape %dx [[0, 1], [2]] : tensor<2x128x512xbf16> into tensor<256x512xbf16>
  return %y2, %dx2, %dw : tensor<256x1024xbf16>, tensor<256x512xbf16>, tensor<1024x512xf32>
}
