// fp8.hadamard kernels: in-order f32 sums of sign-flipped inputs (no FMA can
// change a bit: the products are exact), then 1/sqrt(n), 16 outputs per
// thread stored with 16-byte stores.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/rotate_hadamard_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas %{ %ptxas -arch=sm_90a -v %t/rotate_hadamard_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK: popc.b32
// CHECK: add.rn.f32
// CHECK-NOT: fma
// CHECK: st.global.v4.b32
// MANIFEST: "op": "fp8.hadamard",
// MANIFEST: "seed": 7,
// MANIFEST: "size": 32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @rotate(%x: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 32 : i64, seed = 7 : i64} : tensor<64x128xbf16>
  return %h : tensor<64x128xbf16>
}
