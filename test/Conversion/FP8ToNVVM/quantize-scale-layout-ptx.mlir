// Scales stored in the TMA layout by the quantization itself (after
// fp8-fuse-quantization fused the fp8.tma_align_scales): no re-layout
// kernel is left, and the quantize kernels' scale parameters have the
// transposed, padded shape; the row-tile kernel writes the padding's zeros
// from the last row's tiles.
// RUN: rm -rf %t && fp8-opt %s --fp8-fuse-quantization --fp8-emit=dir=%t -o /dev/null
// RUN: ls %t | FileCheck %s --check-prefix=FILES
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: FileCheck %s --check-prefix=PAD < %t/plain_quantize_elementwise_0.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/plain_quantize_elementwise_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/cast_transpose_cast_transpose_1.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// FILES: cast_transpose_cast_transpose_1.ptx
// FILES-NEXT: manifest.json
// FILES-NEXT: plain_quantize_elementwise_0.ptx
// MANIFEST:      "name": "scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT:   2,
// MANIFEST-NEXT:   100
// MANIFEST:      "name": "scale",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT:   3,
// MANIFEST-NEXT:   256
// MANIFEST:      "name": "scale_t",
// MANIFEST-NEXT: "role": "output",
// MANIFEST-NEXT: "shape": [
// MANIFEST-NEXT:   2,
// MANIFEST-NEXT:   384
// The two padding slots of a column: zero stores.
// PAD: st.global.b32 [%{{.*}}], 0;
// PAD: st.global.b32 [%{{.*}}], 0;
// PTXAS: 0 bytes spill stores, 0 bytes spill loads

func.func @plain(%x: tensor<98x256xbf16>) -> (tensor<98x256xf8E4M3FN>, tensor<2x100xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<98x256xbf16> -> tensor<98x256xf8E4M3FN>, tensor<98x2xf32>
  %a = fp8.tma_align_scales %s : tensor<98x2xf32> -> tensor<2x100xf32>
  return %q, %a : tensor<98x256xf8E4M3FN>, tensor<2x100xf32>
}

func.func @cast_transpose(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<3x256xf32>, tensor<384x256xf8E4M3FN>, tensor<2x384xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  %e = tensor.empty() : tensor<384x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x384xbf16>) outs(%e : tensor<384x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  %a = fp8.tma_align_scales %s : tensor<256x3xf32> -> tensor<3x256xf32>
  %at = fp8.tma_align_scales %st : tensor<384x2xf32> -> tensor<2x384xf32>
  return %q, %a, %qt, %at : tensor<256x384xf8E4M3FN>, tensor<3x256xf32>, tensor<384x256xf8E4M3FN>, tensor<2x384xf32>
}
