// Shapes that are not multiples of the kernels' tiles. fp8.transpose of
// 80x48 bytes (multiples of 16, not of 64) runs ceil(80/64) x ceil(48/64) = 2
// CTAs whose 16-byte loads and stores are predicated to the tensor; the
// tensor.pad that fp8-pad-contraction inserts (100 -> 112 rows) writes the
// source inside its box and zeros after it, one element per thread.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=TRANSPOSE < %t/partial_transpose_0.ptx
// RUN: FileCheck %s --check-prefix=PAD < %t/pad_pad_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// TRANSPOSE: setp.gt.u64 {{.*}}, 79;
// TRANSPOSE: bra
// TRANSPOSE: ld.global.v4.b32
// TRANSPOSE: bar.sync
// TRANSPOSE: setp.gt.u64 {{.*}}, 79;
// TRANSPOSE: bra
// TRANSPOSE: st.global.v4.b32
// PAD: setp.gt.u64 {{.*}}, 7167;
// PAD: setp.gt.u64 {{.*}}, 6399;
// PAD: mov.b16 {{.*}}, 0x0000;
// PAD: ld.global.b16
// PAD: st.global.b16
// MANIFEST: "grid": [
// MANIFEST-NEXT: 2,
// MANIFEST: "name": "partial_transpose_0",
// MANIFEST-NEXT: "op": "fp8.transpose",
// MANIFEST: "grid": [
// MANIFEST-NEXT: 28,
// MANIFEST: "name": "pad_pad_1",
// MANIFEST-NEXT: "op": "tensor.pad",
func.func @partial(%q: tensor<80x48xf8E4M3FN>, %s: tensor<1x1xf32>) -> (tensor<48x80xf8E4M3FN>, tensor<1x1xf32>) {
  %t, %ts = fp8.transpose %q, %s {scaling = #fp8.scaling<tile = [*, *], scale = f32>}
      : tensor<80x48xf8E4M3FN>, tensor<1x1xf32> -> tensor<48x80xf8E4M3FN>, tensor<1x1xf32>
  return %t, %ts : tensor<48x80xf8E4M3FN>, tensor<1x1xf32>
}
func.func @pad(%x: tensor<100x64xbf16>) -> tensor<112x64xbf16> {
  %zero = arith.constant 0.0 : bf16
  %p = tensor.pad %x low[0, 0] high[12, 0] {
  ^bb0(%i: index, %j: index):
    tensor.yield %zero : bf16
  } : tensor<100x64xbf16> to tensor<112x64xbf16>
  return %p : tensor<112x64xbf16>
}
