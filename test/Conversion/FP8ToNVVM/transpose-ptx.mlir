// A 2-D linalg.transpose of bf16 with dims that are multiples of 64 moves
// 64x64 tiles through shared memory with 16-byte global loads and stores;
// another shape takes the elementwise kernel's indexed path.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s --check-prefix=TILED < %t/tiled_transpose_0.ptx
// RUN: FileCheck %s --check-prefix=INDEXED < %t/odd_transpose_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// TILED: ld.global.v4
// TILED: st.shared
// TILED: bar.sync
// TILED: ld.shared
// TILED: st.global.v4
// INDEXED-NOT: .shared
// INDEXED: ld.global.b16
// INDEXED: st.global.b16
// MANIFEST: "name": "tiled_transpose_0",
// MANIFEST-NEXT: "op": "linalg.transpose",
// MANIFEST: "name": "odd_transpose_1",
// MANIFEST-NEXT: "op": "linalg.transpose",
func.func @tiled(%x: tensor<128x256xbf16>) -> tensor<256x128xbf16> {
  %e = tensor.empty() : tensor<256x128xbf16>
  %t = linalg.transpose ins(%x : tensor<128x256xbf16>) outs(%e : tensor<256x128xbf16>) permutation = [1, 0]
  return %t : tensor<256x128xbf16>
}
func.func @odd(%x: tensor<100x60xbf16>) -> tensor<60x100xbf16> {
  %e = tensor.empty() : tensor<60x100xbf16>
  %t = linalg.transpose ins(%x : tensor<100x60xbf16>) outs(%e : tensor<60x100xbf16>) permutation = [1, 0]
  return %t : tensor<60x100xbf16>
}
