// The PTX a user reads says where it came from: a header that names the op,
// its location, its launch and every parameter in order (the PTX itself only
// says _param_N), and .file/.loc line info that points at the fp8 op. The
// line info is nvcc's -lineinfo kind: no `debug` target, which would make
// ptxas compile device-debug code. line-info=false strips it.
// RUN: rm -rf %t %t.strip
// RUN: fp8-opt %s --fp8-emit=dir=%t -o /dev/null
// RUN: FileCheck %s < %t/fprop_gemm_0.ptx
// RUN: fp8-opt %s "--fp8-emit=dir=%t.strip line-info=false" -o /dev/null
// RUN: FileCheck %s --check-prefix=STRIP < %t.strip/fprop_gemm_0.ptx
// RUN: %if ptxas-sm90a %{ %ptxas -arch=sm_90a -v %t/fprop_gemm_0.ptx -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTXAS %}

// CHECK: // fp8-mlir kernel fprop_gemm_0: fp8.scaled_matmul at {{.*}}emit-ptx-header.mlir:[[LINE:[0-9]+]]:8
// CHECK-NEXT: // sm_90a, grid [8, 1, 1], block [384, 1, 1], {{[0-9]+}} bytes of dynamic shared memory
// CHECK-NEXT: // Parameters
// CHECK-NEXT: //   fprop_gemm_0_param_0  a           input     f8e4m3  [256 x 512]
// CHECK-NEXT: //   fprop_gemm_0_param_1  a_scale     input     f32     [256 x 4]
// CHECK-NEXT: //   fprop_gemm_0_param_2  b           input     f8e4m3  [256 x 512]
// CHECK-NEXT: //   fprop_gemm_0_param_3  b_scale     input     f32     [2 x 4]
// CHECK-NEXT: //   fprop_gemm_0_param_4  c           output    bf16    [256 x 256]
// CHECK-NEXT: //   fprop_gemm_0_param_5  a_map       tensormap of a, box [128 x 128], swizzle 128B
// CHECK-NEXT: //   fprop_gemm_0_param_6  b_map       tensormap of b, box [64 x 128], swizzle 128B
// CHECK-NEXT: //   fprop_gemm_0_param_7  c_map       tensormap of c, box [64 x 64], swizzle 128B
// CHECK: .target sm_90a{{$}}
// CHECK: .entry fprop_gemm_0(
// CHECK: .loc 1 [[LINE]] 8
// CHECK: .file 1 "{{.*}}emit-ptx-header.mlir"
// STRIP: // fp8-mlir kernel fprop_gemm_0
// STRIP-NOT: .loc
// STRIP-NOT: .file
// PTXAS-NOT: cumulative stack
// PTXAS: Used 168 registers
func.func @fprop(%a: tensor<256x512xf8E4M3FN>, %sa: tensor<256x4xf32>, %b: tensor<256x512xf8E4M3FN>, %sb: tensor<2x4xf32>) -> tensor<256x256xbf16> {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>, tensor<256x512xf8E4M3FN>, tensor<2x4xf32>) -> tensor<256x256xbf16>
  return %c : tensor<256x256xbf16>
}
