// sm_100a has quantization and scale-layout kernels but no GEMM yet: the
// first scaled_matmul stops kernel generation with an error that names the
// chip, the function's recipe and the scalings.
// RUN: fp8-opt %s -verify-diagnostics --convert-fp8-to-nvvm=chip=sm_100a
// The whole linear layer through the pipeline: its MXFP8 scale kernels are
// built (fp8.tcgen05_scales is no longer refused), then the Fprop GEMM stops.
// RUN: not fp8-opt %S/../../../examples/linear_fwd_bwd.mlir --fp8-pipeline="recipe=mxfp8 chip=sm_100a" --convert-fp8-to-nvvm=chip=sm_100a 2>&1 | FileCheck %s
// CHECK: error: 'fp8.scaled_matmul' op convert-fp8-to-nvvm has no sm_100a scaled_matmul kernel for recipe #fp8.recipe<mxfp8>
// CHECK-NOT: has no GPU kernel

func.func @mx(%x: tensor<128x256xf8E4M3FN>, %sx: tensor<2x512xf8E8M0FNU>,
              %w: tensor<128x256xf8E4M3FN>, %sw: tensor<2x512xf8E8M0FNU>) -> tensor<128x128xbf16>
    attributes {fp8.recipe = #fp8.recipe<mxfp8>} {
  // expected-error @+1 {{convert-fp8-to-nvvm has no sm_100a scaled_matmul kernel for recipe #fp8.recipe<mxfp8> (a_scaling #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scaling #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>) yet: the tcgen05 GEMM is not built (docs/GPU.md, sm_100a); chip=sm_90a has one}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scale_layout = #fp8.scale_layout<tcgen05>,
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scale_layout = #fp8.scale_layout<tcgen05>,
         b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>, tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>) -> tensor<128x128xbf16>
  return %y : tensor<128x128xbf16>
}
