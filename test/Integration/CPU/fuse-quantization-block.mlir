// The block cast-transpose changes kernels, not bits: fuse-quantization.mlir's
// input quantized in 128x128 tiles, and that quantization transposed
// (fp8.transpose, exact for square tiles: a tile's transpose is a tile of
// the transpose, with the same amax), give the same FP8 bytes and scales
// through the fused fp8.quantize_transpose as through the two ops.
// RUN: sed -e 's/tile = \[1, 128\]/tile = [128, 128]/g' -e 's/256x3xf32/2x3xf32/g' -e 's/384x2xf32/3x2xf32/g' -e 's/fp8.quantize %xt {margin = 1 : i64, scaling/fp8.transpose %q, %%s {scaling/' -e 's/: tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>/: tensor<256x384xf8E4M3FN>, tensor<2x3xf32> -> tensor<384x256xf8E4M3FN>/' %S/fuse-quantization.mlir | grep -v '^// ' > %t.mlir
// RUN: fp8-opt %t.mlir --fp8-fuse-quantization | FileCheck %s --check-prefix=FUSED
// FUSED: fp8.quantize_transpose %{{.*}} {margin = 1 : i64, scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<256x384xbf16>
// FUSED-NOT: fp8.transpose
// RUN: fp8-opt %t.mlir --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.unfused
// RUN: fp8-opt %t.mlir --fp8-fuse-quantization --fp8-reference-pipeline | %mlir-run | grep -v '^Unranked' > %t.fused
// RUN: diff %t.unfused %t.fused
// RUN: FileCheck %s < %t.fused
// CHECK-COUNT-4: [{{-?[0-9]+}}
