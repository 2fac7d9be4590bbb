// RUN: fp8-opt %s -split-input-file -verify-diagnostics --convert-fp8-to-nvvm=chip=sm_100a

// The tcgen05 scale layout on one operand only: the sm_100a GEMM reads
// tcgen05-layout scales only as MXFP8 on both operands (block-scaled MMA);
// a tensorwise B leaves A's chunks with no kernel to read them.
func.func @tcgen05_one_side(%x: tensor<128x256xf8E4M3FN>, %sx: tensor<2x512xf8E8M0FNU>,
                            %w: tensor<128x256xf8E4M3FN>, %sw: tensor<1x1xf32>) -> tensor<128x128xbf16> {
  // expected-error @+1 {{the tcgen05 scale layout is for MXFP8 (E8M0, 1x32 along K) on both operands}}
  %y = fp8.scaled_matmul %x, %sx, %w, %sw {
         a_scale_layout = #fp8.scale_layout<tcgen05>,
         a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
         b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
         contracting = array<i64: 1, 1>}
      : (tensor<128x256xf8E4M3FN>, tensor<2x512xf8E8M0FNU>, tensor<128x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x128xbf16>
  return %y : tensor<128x128xbf16>
}
