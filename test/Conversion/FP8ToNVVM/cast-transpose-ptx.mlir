// X quantized 1x128 along its rows and Xᵀ quantized the same way, fused by
// fp8-fuse-quantization into fp8.quantize_transpose, become
// one cast-transpose kernel that reads X once: rows are quantized on the way
// into shared memory, columns on the way out, written K-major for Wgrad.
// RUN: rm -rf %t && fp8-opt %s --fp8-fuse-quantization --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/fused_cast_transpose_0.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST < %t/manifest.json
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/fused_cast_transpose_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}
// CHECK: .visible .entry fused_cast_transpose_0(
// CHECK: .shared .align 16 .b8 {{.*}}[32768];
// All eight 16-byte loads of a thread's rows before anything is stored,
// streamed (read-only path, no L1 allocation).
// CHECK-COUNT-8: ld.global.nc.L1::no_allocate.v4.b32
// CHECK-NOT: {{ld|st}}.global
// CHECK: st.shared.v4.b32
// Row amaxes on packed pairs, then across the row's 16 lanes.
// CHECK: max.NaN.bf16x2
// CHECK: shfl.sync.bfly.b32 {{.*}}, 8, 31, -1;
// Each lane derives one row's scales; the steps take theirs by shuffle.
// CHECK: div.rn.f32
// CHECK: shfl.sync.idx.b32
// CHECK: cvt.rn.satfinite.e4m3x2.f32
// CHECK: st.global.cs.v2.b32
// CHECK: bar.sync 0;
// Column pairs from the swizzled tile; 16 bytes of a column of qt a lane.
// CHECK: ld.shared.b32
// CHECK: shfl.sync.bfly.b32 {{.*}}, 4, 31, -1;
// CHECK: st.global.cs.v4.b32
// MANIFEST: "op": "fp8.quantize+transpose"
// MANIFEST: "name": "qt",
// MANIFEST: "name": "scale_t",
// PTXAS: 0 bytes spill stores, 0 bytes spill loads
func.func @fused(%x: tensor<256x384xbf16>) -> (tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>) {
  %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<256x384xbf16> -> tensor<256x384xf8E4M3FN>, tensor<256x3xf32>
  %e = tensor.empty() : tensor<384x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x384xbf16>) outs(%e : tensor<384x256xbf16>) permutation = [1, 0]
  %qt, %st = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<384x256xbf16> -> tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
  return %q, %s, %qt, %st : tensor<256x384xf8E4M3FN>, tensor<256x3xf32>, tensor<384x256xf8E4M3FN>, tensor<384x2xf32>
}
