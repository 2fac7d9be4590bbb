// RUN: fp8-opt %s | fp8-opt | FileCheck %s
// RUN: fp8-opt %s --mlir-print-op-generic | fp8-opt | FileCheck %s

// fp8.quantize_delayed keeps its custom form through a round trip, plain
// and in generic form: the history's max (the default) and its most recent
// entry, with a margin.
// CHECK-LABEL: func.func @delayed(
// CHECK: %{{.*}}, %{{.*}}, %{{.*}} = fp8.quantize_delayed %{{.*}} history(%{{.*}} : tensor<1024x1x1xf32>) {fp8.role = "activation", scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
// CHECK: fp8.quantize_delayed %{{.*}} history(%{{.*}} : tensor<16x1x1xf32>) {margin = 1 : i64, most_recent, scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<64x32xf32> -> tensor<64x32xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
func.func @delayed(%x: tensor<256x512xbf16>, %h: tensor<1024x1x1xf32>, %g: tensor<64x32xf32>, %hg: tensor<16x1x1xf32>)
    -> (tensor<256x512xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<64x32xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>) {
  %q, %s, %a = fp8.quantize_delayed %x history(%h : tensor<1024x1x1xf32>) {fp8.role = "activation",
      scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
  %qg, %sg, %ag = fp8.quantize_delayed %g history(%hg : tensor<16x1x1xf32>) {margin = 1, most_recent,
      scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<64x32xf32> -> tensor<64x32xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
  return %q, %s, %a, %qg, %sg, %ag : tensor<256x512xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>, tensor<64x32xf8E5M2>, tensor<1x1xf32>, tensor<1x1xf32>
}
