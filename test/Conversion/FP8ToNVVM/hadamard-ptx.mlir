// fp8.hadamard kernels: the fast Walsh-Hadamard butterfly in registers.
// A thread holds 16 consecutive elements (two 16-byte loads of bf16); the
// strides 1..8 are f32 adds and subtracts within the thread, stride 16 (of
// size 32) one butterfly shuffle per element between the two lanes of a
// block; no FMA (the sign flips are exact, and nothing is multiplied before
// an add), then 1/sqrt(n) and two 16-byte stores.
// RUN: rm -rf %t && fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/rotate_hadamard_0.ptx
// RUN: FileCheck %s --check-prefix=WIDE < %t/rotate256_hadamard_1.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/rotate_hadamard_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK-COUNT-2: ld.global.v4.b32
// CHECK-NOT: fma
// CHECK: add.rn.f32
// CHECK: sub.rn.f32
// CHECK-COUNT-16: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK-NOT: shfl
// CHECK-NOT: fma
// CHECK: mul.rn.f32
// CHECK: cvt.rn.bf16x2.f32
// CHECK-COUNT-2: st.global.v4.b32
// CHECK-NOT: fma
// Size 256 in f32: four 16-byte loads, the strides 16..128 as shuffles
// with lane masks 1, 2, 4, 8 (16 each), four 16-byte stores.
// WIDE-COUNT-4: ld.global.v4.b32
// WIDE-COUNT-16: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// WIDE-COUNT-16: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// WIDE-COUNT-16: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// WIDE-COUNT-16: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// WIDE-NOT: shfl
// WIDE-COUNT-4: st.global.v4.b32
// MANIFEST: "op": "fp8.hadamard",
// MANIFEST: "seed": 7,
// MANIFEST: "size": 32
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @rotate(%x: tensor<64x128xbf16>) -> tensor<64x128xbf16> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 32 : i64, seed = 7 : i64} : tensor<64x128xbf16>
  return %h : tensor<64x128xbf16>
}
func.func @rotate256(%x: tensor<8x512xf32>) -> tensor<8x512xf32> {
  %h = fp8.hadamard %x {dim = 1 : i64, size = 256 : i64} : tensor<8x512xf32>
  return %h : tensor<8x512xf32>
}
