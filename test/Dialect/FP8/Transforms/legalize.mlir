// RUN: fp8-opt %s -split-input-file --fp8-legalize | FileCheck %s
// RUN: fp8-opt %s -split-input-file --fp8-legalize=chip=sm_90a | FileCheck %s

// On sm_100a tcgen05 reads FP8 either major: no data (FP8 or its
// high-precision source) is transposed and no scale goes col_major_tma, so
// those lines are the input's; only MXFP8 scales change layout
// (legalize-sm100a.mlir).
// RUN: fp8-opt %s -split-input-file | grep -cE 'linalg.transpose ins\(%%[^:]* : tensor<[0-9x]*x(f8E4M3FN|f8E5M2|bf16|f16|f32)>|tma_align_scales|col_major_tma' > %t.input
// RUN: fp8-opt %s -split-input-file --fp8-legalize=chip=sm_100a | grep -cE 'linalg.transpose ins\(%%[^:]* : tensor<[0-9x]*x(f8E4M3FN|f8E5M2|bf16|f16|f32)>|tma_align_scales|col_major_tma' > %t.sm100
// RUN: diff %t.input %t.sm100

// Idempotent: a second run changes nothing (K-major operands stay, and
// col_major_tma scales are not aligned again).
// RUN: fp8-opt %s -split-input-file --fp8-legalize > %t.once
// RUN: fp8-opt %s -split-input-file --fp8-legalize --fp8-legalize > %t.twice
// RUN: diff %t.once %t.twice

// The linear layer through the pipeline: every matmul contracts [1, 1].
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=E2E --implicit-check-not='contracting = array<i64: 0' --implicit-check-not='contracting = array<i64: 1, 0'
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=tensorwise --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=E2E --implicit-check-not='contracting = array<i64: 0' --implicit-check-not='contracting = array<i64: 1, 0'
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=rowwise --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=E2E --implicit-check-not='contracting = array<i64: 0' --implicit-check-not='contracting = array<i64: 1, 0'
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=mxfp8 --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=E2E --implicit-check-not='contracting = array<i64: 0' --implicit-check-not='contracting = array<i64: 1, 0'
// E2E-COUNT-3: fp8.scaled_matmul {{.*}}contracting = array<i64: 1, 1>

// Blockwise: X and dY (1x128) of Fprop and Dgrad and both Wgrad operands
// (1x128 after the K-major requantization) get TMA-aligned scales; W
// (128x128) keeps its row-major ones.
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=blockwise --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=BLOCKWISE
// BLOCKWISE: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %arg0
// BLOCKWISE-NEXT: %[[XST:.*]] = fp8.tma_align_scales %[[XS]] : tensor<256x4xf32> -> tensor<4x256xf32>
// BLOCKWISE-NEXT: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %arg1
// BLOCKWISE-NOT: fp8.tma_align_scales %[[WS]]
// BLOCKWISE: fp8.scaled_matmul %[[XQ]], %[[XST]], %[[WQ]], %[[WS]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>, fp8.matmul = "fprop"}
// BLOCKWISE: fp8.tma_align_scales %{{.*}} : tensor<256x8xf32> -> tensor<8x256xf32>
// BLOCKWISE: fp8.scaled_matmul {{.*}} {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>, fp8.matmul = "dgrad"}
// BLOCKWISE: fp8.tma_align_scales %{{.*}} : tensor<1024x2xf32> -> tensor<2x1024xf32>
// BLOCKWISE: fp8.tma_align_scales %{{.*}} : tensor<512x2xf32> -> tensor<2x512xf32>
// BLOCKWISE: fp8.scaled_matmul {{.*}} {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scale_layout = #fp8.scale_layout<col_major_tma>, b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, contracting = array<i64: 1, 1>, fp8.matmul = "wgrad"}
// Tensorwise, rowwise and MXFP8 scales stay row-major.
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=tensorwise --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=ROWMAJOR
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=rowwise --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=ROWMAJOR
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-quantize-matmuls=recipe=mxfp8 --fp8-derive-scaling --fp8-legalize | FileCheck %s --check-prefix=ROWMAJOR
// ROWMAJOR-NOT: tma_align_scales
// ROWMAJOR-NOT: scale_layout
// ROWMAJOR: return

// Fprop contracts both operands along their columns: no transposes. X's
// 1x128 f32 scales go to the col_major_tma layout through
// fp8.tma_align_scales, placed right after their quantization; W's 128x128
// scales stay row-major.
// CHECK-LABEL: func.func @fprop
// CHECK-SAME: (%[[X:.*]]: tensor<64x256xbf16>, %[[W:.*]]: tensor<128x256xbf16>)
// CHECK-NEXT: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %[[X]]
// CHECK-NEXT: %[[XST:.*]] = fp8.tma_align_scales %[[XS]] : tensor<64x2xf32> -> tensor<2x64xf32>
// CHECK-NEXT: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %[[W]]
// CHECK-NEXT: fp8.scaled_matmul %[[XQ]], %[[XST]], %[[WQ]], %[[WS]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<64x256xf8E4M3FN>, tensor<2x64xf32>, tensor<128x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<64x128xf32>
// CHECK-NEXT: return
func.func @fprop(%x: tensor<64x256xbf16>, %w: tensor<128x256xbf16>) -> tensor<64x128xf32> {
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  %wq, %ws = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x2xf32>
  %y = fp8.scaled_matmul %xq, %xs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>, tensor<128x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<64x128xf32>
  return %y : tensor<64x128xf32>
}

// -----

// Blockwise Dgrad dX = dY * W reads W (N x K) along its rows. Its 128x128
// tiles are square, so the FP8 data and scales are transposed as they are
// (placed after W's quantization, where Fprop could share it), and the
// result keeps its shape: M stays dY's rows.
// CHECK-LABEL: func.func @dgrad_blockwise
// CHECK-SAME: (%[[DY:.*]]: tensor<64x128xbf16>, %[[W:.*]]: tensor<128x256xbf16>)
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DY]]
// CHECK-NEXT: %[[GST:.*]] = fp8.tma_align_scales %[[GS]] : tensor<64x1xf32> -> tensor<1x64xf32>
// CHECK-NEXT: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %[[W]]
// CHECK-NEXT: %[[WT:.*]], %[[WTS:.*]] = fp8.transpose %[[WQ]], %[[WS]] {scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : tensor<128x256xf8E4M3FN>, tensor<1x2xf32> -> tensor<256x128xf8E4M3FN>, tensor<2x1xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GST]], %[[WT]], %[[WTS]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>, contracting = array<i64: 1, 1>, fp8.matmul = "dgrad"} : (tensor<64x128xf8E4M3FN>, tensor<1x64xf32>, tensor<256x128xf8E4M3FN>, tensor<2x1xf32>) -> tensor<64x256xf32>
// CHECK-NEXT: return
func.func @dgrad_blockwise(%dy: tensor<64x128xbf16>, %w: tensor<128x256xbf16>) -> tensor<64x256xf32> {
  %gq, %gs = fp8.quantize %dy {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x128xbf16> -> tensor<64x128xf8E4M3FN>, tensor<64x1xf32>
  %wq, %ws = fp8.quantize %w {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x2xf32>
  %dx = fp8.scaled_matmul %gq, %gs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 0>, fp8.matmul = "dgrad"}
      : (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<128x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<64x256xf32>
  return %dx : tensor<64x256xf32>
}

// -----

// Blockwise Wgrad dW = dY^T * X contracts M, the rows of both operands,
// which carry 128x1 tiles. Transposing them would put 128 elements of a
// column under one scale in a row: instead both are quantized again from
// the transposed bf16 source with 1x128 tiles (the same elements share a
// scale, so the values are the same), keeping their attributes. The
// original quantizations have no other user and go. Both new 1x128 scales
// then go to the col_major_tma layout.
// CHECK-LABEL: func.func @wgrad_blockwise
// CHECK-SAME: (%[[DY:.*]]: tensor<256x128xbf16>, %[[X:.*]]: tensor<256x64xbf16>)
// CHECK-NEXT: %[[E0:.*]] = tensor.empty() : tensor<128x256xbf16>
// CHECK-NEXT: %[[DYT:.*]] = linalg.transpose ins(%[[DY]] : tensor<256x128xbf16>) outs(%[[E0]] : tensor<128x256xbf16>) permutation = [1, 0]
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DYT]] {fp8.role = "gradient", scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
// CHECK-NEXT: %[[GST:.*]] = fp8.tma_align_scales %[[GS]] : tensor<128x2xf32> -> tensor<2x128xf32>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<64x256xbf16>
// CHECK-NEXT: %[[XT:.*]] = linalg.transpose ins(%[[X]] : tensor<256x64xbf16>) outs(%[[E1]] : tensor<64x256xbf16>) permutation = [1, 0]
// CHECK-NEXT: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %[[XT]] {fp8.role = "activation", scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
// CHECK-NEXT: %[[XST:.*]] = fp8.tma_align_scales %[[XS]] : tensor<64x2xf32> -> tensor<2x64xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GST]], %[[XQ]], %[[XST]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scale_layout = #fp8.scale_layout<col_major_tma>, b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, contracting = array<i64: 1, 1>, fp8.matmul = "wgrad"} : (tensor<128x256xf8E4M3FN>, tensor<2x128xf32>, tensor<64x256xf8E4M3FN>, tensor<2x64xf32>) -> tensor<128x64xf32>
// CHECK-NEXT: return
func.func @wgrad_blockwise(%dy: tensor<256x128xbf16>, %x: tensor<256x64xbf16>) -> tensor<128x64xf32> {
  %gq, %gs = fp8.quantize %dy {fp8.role = "gradient", scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<2x128xf32>
  %xq, %xs = fp8.quantize %x {fp8.role = "activation", scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<2x64xf32>
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 0, 0>, fp8.matmul = "wgrad"}
      : (tensor<256x128xf8E4M3FN>, tensor<2x128xf32>, tensor<256x64xf8E4M3FN>, tensor<2x64xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// A quantization that other ops still use stays next to the new one.
// CHECK-LABEL: func.func @wgrad_keeps_shared_quantization
// CHECK-SAME: (%[[DY:.*]]: tensor<256x128xbf16>,
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DY]] {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
// CHECK-NEXT: tensor.empty
// CHECK-NEXT: %[[DYT:.*]] = linalg.transpose ins(%[[DY]]
// CHECK-NEXT: %[[GTQ:.*]], %[[GTS:.*]] = fp8.quantize %[[DYT]] {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
// CHECK-NEXT: %[[GTST:.*]] = fp8.tma_align_scales %[[GTS]]
// CHECK: fp8.scaled_matmul %[[GTQ]], %[[GTST]]
// CHECK-NEXT: fp8.dequantize %[[GQ]], %[[GS]]
func.func @wgrad_keeps_shared_quantization(%dy: tensor<256x128xbf16>, %xq: tensor<256x64xf8E4M3FN>,
                                           %xs: tensor<1x1xf32>) -> (tensor<128x64xf32>, tensor<256x128xf32>) {
  %gq, %gs = fp8.quantize %dy {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<2x128xf32>
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x128xf8E4M3FN>, tensor<2x128xf32>, tensor<256x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x64xf32>
  %g = fp8.dequantize %gq, %gs {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x128xf8E4M3FN>, tensor<2x128xf32> -> tensor<256x128xf32>
  return %dw, %g : tensor<128x64xf32>, tensor<256x128xf32>
}

// -----

// Tensorwise Wgrad: one scale per tensor transposes with its data, even when
// the operands are FP8 values the function receives.
// CHECK-LABEL: func.func @wgrad_tensorwise
// CHECK-SAME: (%[[GQ:.*]]: tensor<256x128xf8E5M2>, %[[GS:.*]]: tensor<1x1xf32>, %[[XQ:.*]]: tensor<256x64xf8E4M3FN>, %[[XS:.*]]: tensor<1x1xf32>)
// CHECK-NEXT: %[[GT:.*]], %[[GTS:.*]] = fp8.transpose %[[GQ]], %[[GS]] {scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<256x128xf8E5M2>, tensor<1x1xf32> -> tensor<128x256xf8E5M2>, tensor<1x1xf32>
// CHECK-NEXT: %[[XT:.*]], %[[XTS:.*]] = fp8.transpose %[[XQ]], %[[XS]] {scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<256x64xf8E4M3FN>, tensor<1x1xf32> -> tensor<64x256xf8E4M3FN>, tensor<1x1xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GT]], %[[GTS]], %[[XT]], %[[XTS]] {a_scaling = #fp8.scaling<tile = [*, *], scale = f32>, b_scaling = #fp8.scaling<tile = [*, *], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<128x256xf8E5M2>, tensor<1x1xf32>, tensor<64x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x64xf32>
func.func @wgrad_tensorwise(%gq: tensor<256x128xf8E5M2>, %gs: tensor<1x1xf32>,
                            %xq: tensor<256x64xf8E4M3FN>, %xs: tensor<1x1xf32>) -> tensor<128x64xf32> {
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x128xf8E5M2>, tensor<1x1xf32>, tensor<256x64xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// Rowwise Dgrad: W scaled per column ([*, 1], constant along the contracted
// N) is quantized again from W^T per row ([1, *]).
// CHECK-LABEL: func.func @dgrad_rowwise
// CHECK-SAME: (%[[GQ:.*]]: tensor<64x128xf8E4M3FN>, %[[GS:.*]]: tensor<64x1xf32>, %[[W:.*]]: tensor<128x256xbf16>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<256x128xbf16>
// CHECK-NEXT: %[[WT:.*]] = linalg.transpose ins(%[[W]] : tensor<128x256xbf16>) outs(%[[E]] : tensor<256x128xbf16>) permutation = [1, 0]
// CHECK-NEXT: %[[WQ:.*]], %[[WS:.*]] = fp8.quantize %[[WT]] {scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>} : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<256x1xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GS]], %[[WQ]], %[[WS]] {a_scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>, b_scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>, contracting = array<i64: 1, 1>} : (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<256x128xf8E4M3FN>, tensor<256x1xf32>) -> tensor<64x256xf32>
func.func @dgrad_rowwise(%gq: tensor<64x128xf8E4M3FN>, %gs: tensor<64x1xf32>,
                         %w: tensor<128x256xbf16>) -> tensor<64x256xf32> {
  %wq, %ws = fp8.quantize %w {scaling = #fp8.scaling<tile = [*, 1], scale = f32, round = pow2_ceil>}
      : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<1x256xf32>
  %dx = fp8.scaled_matmul %gq, %gs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [*, 1], scale = f32, round = pow2_ceil>,
        contracting = array<i64: 1, 0>}
      : (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<128x256xf8E4M3FN>, tensor<1x256xf32>) -> tensor<64x256xf32>
  return %dx : tensor<64x256xf32>
}

// -----

// Rowwise Wgrad: both operands are quantized again per row of the transpose.
// CHECK-LABEL: func.func @wgrad_rowwise
// CHECK-SAME: (%[[DY:.*]]: tensor<256x128xbf16>, %[[X:.*]]: tensor<256x64xbf16>)
// CHECK: %[[DYT:.*]] = linalg.transpose ins(%[[DY]]
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DYT]] {scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x1xf32>
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK-NEXT: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %[[XT]] {scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>} : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x1xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GS]], %[[XQ]], %[[XS]] {a_scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>, b_scaling = #fp8.scaling<tile = [1, *], scale = f32, round = pow2_ceil>, contracting = array<i64: 1, 1>}
func.func @wgrad_rowwise(%dy: tensor<256x128xbf16>, %x: tensor<256x64xbf16>) -> tensor<128x64xf32> {
  %gq, %gs = fp8.quantize %dy {scaling = #fp8.scaling<tile = [*, 1], scale = f32, round = pow2_ceil>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<1x128xf32>
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [*, 1], scale = f32, round = pow2_ceil>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<1x64xf32>
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [*, 1], scale = f32, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [*, 1], scale = f32, round = pow2_ceil>,
        contracting = array<i64: 0, 0>}
      : (tensor<256x128xf8E4M3FN>, tensor<1x128xf32>, tensor<256x64xf8E4M3FN>, tensor<1x64xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// An identical quantization of the transposed source that already exists
// (here one that another matmul reads) is reused, with its transpose, and so
// are the TMA-aligned scales made for the first matmul. Those of a function
// argument are aligned at the start of the function.
// CHECK-LABEL: func.func @reuse_transposed_quantization
// CHECK-SAME: (%[[X:.*]]: tensor<256x64xbf16>, %{{.*}}: tensor<32x256xf8E4M3FN>, %[[AS:.*]]: tensor<32x2xf32>)
// CHECK-NEXT: %[[AST:.*]] = fp8.tma_align_scales %[[AS]] : tensor<32x2xf32> -> tensor<2x32xf32>
// CHECK: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK-NEXT: %[[XTQ:.*]], %[[XTS:.*]] = fp8.quantize %[[XT]] {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
// CHECK-NEXT: %[[XTST:.*]] = fp8.tma_align_scales %[[XTS]] : tensor<64x2xf32> -> tensor<2x64xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[XTQ]], %[[XTST]], %{{.*}}, %[[AST]]
// CHECK-NOT: linalg.transpose
// CHECK-NOT: fp8.quantize
// CHECK-NOT: fp8.tma_align_scales
// CHECK: fp8.scaled_matmul %{{.*}}, %[[AST]], %[[XTQ]], %[[XTST]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scale_layout = #fp8.scale_layout<col_major_tma>, b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, contracting = array<i64: 1, 1>}
func.func @reuse_transposed_quantization(%x: tensor<256x64xbf16>, %a: tensor<32x256xf8E4M3FN>, %as: tensor<32x2xf32>)
    -> (tensor<64x32xf32>, tensor<32x64xf32>) {
  %e = tensor.empty() : tensor<64x256xbf16>
  %xt = linalg.transpose ins(%x : tensor<256x64xbf16>) outs(%e : tensor<64x256xbf16>) permutation = [1, 0]
  %xtq, %xts = fp8.quantize %xt {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x2xf32>
  %y0 = fp8.scaled_matmul %xtq, %xts, %a, %as {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>, tensor<32x256xf8E4M3FN>, tensor<32x2xf32>) -> tensor<64x32xf32>
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<2x64xf32>
  %y1 = fp8.scaled_matmul %a, %as, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>, tensor<256x64xf8E4M3FN>, tensor<2x64xf32>) -> tensor<32x64xf32>
  return %y0, %y1 : tensor<64x32xf32>, tensor<32x64xf32>
}

// -----

// Two matmuls that need the same transposed quantization share the one the
// first of them gets, and one fp8.tma_align_scales of its scales.
// CHECK-LABEL: func.func @share_new_quantization
// CHECK: linalg.transpose
// CHECK-NEXT: %[[Q:.*]], %[[S:.*]] = fp8.quantize
// CHECK-NEXT: %[[ST:.*]] = fp8.tma_align_scales %[[S]]
// CHECK-NOT: linalg.transpose
// CHECK-NOT: fp8.quantize
// CHECK-NOT: fp8.tma_align_scales
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[Q]], %[[ST]]
// CHECK-NOT: fp8.quantize
// CHECK-NOT: fp8.tma_align_scales
// CHECK: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[Q]], %[[ST]]
func.func @share_new_quantization(%x: tensor<256x64xbf16>, %a: tensor<32x256xf8E4M3FN>, %as: tensor<32x2xf32>)
    -> (tensor<32x64xf32>, tensor<32x64xf32>) {
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<2x64xf32>
  %y0 = fp8.scaled_matmul %a, %as, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>, tensor<256x64xf8E4M3FN>, tensor<2x64xf32>) -> tensor<32x64xf32>
  %y1 = fp8.scaled_matmul %a, %as, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        contracting = array<i64: 1, 0>, accumulate = #fp8.accumulate<fast>}
      : (tensor<32x256xf8E4M3FN>, tensor<32x2xf32>, tensor<256x64xf8E4M3FN>, tensor<2x64xf32>) -> tensor<32x64xf32>
  return %y0, %y1 : tensor<32x64xf32>, tensor<32x64xf32>
}

// -----

// Square tiles: two Dgrads of one W share one fp8.transpose, and an operand
// that is already an fp8.transpose is read through it.
// CHECK-LABEL: func.func @share_and_fold_transposes
// CHECK-SAME: (%[[WQ:.*]]: tensor<128x256xf8E4M3FN>, %[[WS:.*]]: tensor<1x2xf32>, %{{.*}}: tensor<64x128xf8E4M3FN>, %[[GS:.*]]: tensor<64x1xf32>, %{{.*}}: tensor<64x256xf8E4M3FN>, %[[XS:.*]]: tensor<64x2xf32>)
// CHECK-DAG: %[[GST:.*]] = fp8.tma_align_scales %[[GS]]
// CHECK-DAG: %[[XST:.*]] = fp8.tma_align_scales %[[XS]]
// CHECK: %[[WT:.*]], %[[WTS:.*]] = fp8.transpose %[[WQ]], %[[WS]]
// CHECK-NEXT: fp8.scaled_matmul %{{.*}}, %[[GST]], %[[WT]], %[[WTS]] {{{.*}}contracting = array<i64: 1, 1>}
// CHECK-NEXT: fp8.scaled_matmul %{{.*}}, %[[GST]], %[[WT]], %[[WTS]] {{{.*}}contracting = array<i64: 1, 1>}
// CHECK-NEXT: fp8.scaled_matmul %{{.*}}, %[[XST]], %[[WQ]], %[[WS]] {{{.*}}contracting = array<i64: 1, 1>}
// CHECK-NOT: fp8.transpose
func.func @share_and_fold_transposes(%wq: tensor<128x256xf8E4M3FN>, %ws: tensor<1x2xf32>,
                                     %gq: tensor<64x128xf8E4M3FN>, %gs: tensor<64x1xf32>,
                                     %xq: tensor<64x256xf8E4M3FN>, %xs: tensor<64x2xf32>)
    -> (tensor<64x256xf32>, tensor<64x256xf32>, tensor<64x128xf32>) {
  %d0 = fp8.scaled_matmul %gq, %gs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<128x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<64x256xf32>
  %d1 = fp8.scaled_matmul %gq, %gs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<64x128xf8E4M3FN>, tensor<64x1xf32>, tensor<128x256xf8E4M3FN>, tensor<1x2xf32>) -> tensor<64x256xf32>
  %wt, %wts = fp8.transpose %wq, %ws {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : tensor<128x256xf8E4M3FN>, tensor<1x2xf32> -> tensor<256x128xf8E4M3FN>, tensor<2x1xf32>
  %y = fp8.scaled_matmul %xq, %xs, %wt, %wts {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        contracting = array<i64: 1, 0>}
      : (tensor<64x256xf8E4M3FN>, tensor<64x2xf32>, tensor<256x128xf8E4M3FN>, tensor<2x1xf32>) -> tensor<64x128xf32>
  return %d0, %d1, %y : tensor<64x256xf32>, tensor<64x256xf32>, tensor<64x128xf32>
}

// -----

// Batched operands transpose their two matrix dims; the batch dim stays.
// Their scales stay row-major: col_major_tma is for matrices.
// CHECK-LABEL: func.func @batched_wgrad
// CHECK-SAME: (%[[DY:.*]]: tensor<2x256x128xbf16>, %[[XQ:.*]]: tensor<2x256x64xf8E4M3FN>, %[[XS:.*]]: tensor<2x1x1xf32>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<2x128x256xbf16>
// CHECK-NEXT: %[[DYT:.*]] = linalg.transpose ins(%[[DY]] : tensor<2x256x128xbf16>) outs(%[[E]] : tensor<2x128x256xbf16>) permutation = [0, 2, 1]
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DYT]] {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<2x128x256xbf16> -> tensor<2x128x256xf8E4M3FN>, tensor<2x128x2xf32>
// CHECK-NEXT: %[[XT:.*]], %[[XTS:.*]] = fp8.transpose %[[XQ]], %[[XS]] {scaling = #fp8.scaling<tile = [*, *], scale = f32>} : tensor<2x256x64xf8E4M3FN>, tensor<2x1x1xf32> -> tensor<2x64x256xf8E4M3FN>, tensor<2x1x1xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GS]], %[[XT]], %[[XTS]] {a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [*, *], scale = f32>, contracting = array<i64: 1, 1>} : (tensor<2x128x256xf8E4M3FN>, tensor<2x128x2xf32>, tensor<2x64x256xf8E4M3FN>, tensor<2x1x1xf32>) -> tensor<2x128x64xf32>
func.func @batched_wgrad(%dy: tensor<2x256x128xbf16>, %xq: tensor<2x256x64xf8E4M3FN>, %xs: tensor<2x1x1xf32>)
    -> tensor<2x128x64xf32> {
  %gq, %gs = fp8.quantize %dy {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<2x256x128xbf16> -> tensor<2x256x128xf8E4M3FN>, tensor<2x2x128xf32>
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 0, 0>}
      : (tensor<2x256x128xf8E4M3FN>, tensor<2x2x128xf32>, tensor<2x256x64xf8E4M3FN>, tensor<2x1x1xf32>) -> tensor<2x128x64xf32>
  return %dw : tensor<2x128x64xf32>
}

// -----

// Stochastic rounding is allowed and keeps its seed; its random bits follow
// the element's index in the transposed storage, so the result is another
// unbiased draw, not the original's bits transposed.
// CHECK-LABEL: func.func @wgrad_stochastic
// CHECK-SAME: (%[[DY:.*]]: tensor<256x128xbf16>, %[[SEED:.*]]: i64,
// CHECK: %[[DYT:.*]] = linalg.transpose ins(%[[DY]]
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DYT]] seed(%[[SEED]]) {rounding = #fp8.rounding<stochastic>, scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<128x256xbf16> -> tensor<128x256xf8E5M2>, tensor<128x2xf32>
// CHECK-NEXT: %[[GST:.*]] = fp8.tma_align_scales %[[GS]]
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GST]]
func.func @wgrad_stochastic(%dy: tensor<256x128xbf16>, %seed: i64, %xq: tensor<64x256xf8E4M3FN>,
                            %xs: tensor<64x2xf32>) -> tensor<128x64xf32> {
  %gq, %gs = fp8.quantize %dy seed(%seed) {rounding = #fp8.rounding<stochastic>,
                                           scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E5M2>, tensor<2x128xf32>
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 0, 1>}
      : (tensor<256x128xf8E5M2>, tensor<2x128xf32>, tensor<64x256xf8E4M3FN>, tensor<64x2xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// Delayed scaling: the per-tile amax of the transposed input is the
// transposed amax tensor; margin and attributes are kept. Rowwise ([1, *])
// scales stay row-major.
// CHECK-LABEL: func.func @wgrad_delayed_amax
// CHECK-SAME: (%[[DY:.*]]: tensor<256x128xbf16>, %[[AMAX:.*]]: tensor<1x128xf32>,
// CHECK: %[[DYT:.*]] = linalg.transpose ins(%[[DY]] : tensor<256x128xbf16>)
// CHECK-NEXT: %[[E:.*]] = tensor.empty() : tensor<128x1xf32>
// CHECK-NEXT: %[[AT:.*]] = linalg.transpose ins(%[[AMAX]] : tensor<1x128xf32>) outs(%[[E]] : tensor<128x1xf32>) permutation = [1, 0]
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DYT]] amax(%[[AT]] : tensor<128x1xf32>) {fp8.role = "gradient", margin = 1 : i64, scaling = #fp8.scaling<tile = [1, *], scale = f32>} : tensor<128x256xbf16> -> tensor<128x256xf8E5M2>, tensor<128x1xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GS]], %{{.*}}, %{{.*}} {a_scaling
func.func @wgrad_delayed_amax(%dy: tensor<256x128xbf16>, %amax: tensor<1x128xf32>, %xq: tensor<64x256xf8E4M3FN>,
                              %xs: tensor<64x1xf32>) -> tensor<128x64xf32> {
  %gq, %gs = fp8.quantize %dy amax(%amax : tensor<1x128xf32>) {fp8.role = "gradient", margin = 1 : i64,
                                                              scaling = #fp8.scaling<tile = [*, 1], scale = f32>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E5M2>, tensor<1x128xf32>
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [*, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        contracting = array<i64: 0, 1>}
      : (tensor<256x128xf8E5M2>, tensor<1x128xf32>, tensor<64x256xf8E4M3FN>, tensor<64x1xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// MXFP8 on sm_90a: K-major 1x32 E8M0 tiles are legal as they are (the kernel
// promotes every 32), and a Wgrad operand's 32x1 tiles become 1x32 ones.
// E8M0 scales stay row-major.
// CHECK-LABEL: func.func @mxfp8
// CHECK-SAME: (%[[X:.*]]: tensor<64x256xbf16>,
// CHECK-NEXT: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %[[X]] {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
// CHECK-NEXT: fp8.scaled_matmul %[[XQ]], %[[XS]], {{.*}}contracting = array<i64: 1, 1>
// CHECK-NEXT: tensor.empty() : tensor<256x64xbf16>
// CHECK-NEXT: %[[XT:.*]] = linalg.transpose ins(%[[X]]
// CHECK-NEXT: %[[XTQ:.*]], %[[XTS:.*]] = fp8.quantize %[[XT]] {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>} : tensor<256x64xbf16> -> tensor<256x64xf8E4M3FN>, tensor<256x2xf8E8M0FNU>
// CHECK-NEXT: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[XTQ]], %[[XTS]] {a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>}
func.func @mxfp8(%x: tensor<64x256xbf16>, %wq: tensor<128x256xf8E4M3FN>, %ws: tensor<128x8xf8E8M0FNU>,
                 %gq: tensor<128x64xf8E4M3FN>, %gs: tensor<128x2xf8E8M0FNU>)
    -> (tensor<64x128xf32>, tensor<128x256xf32>) {
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<64x8xf8E8M0FNU>
  %y = fp8.scaled_matmul %xq, %xs, %wq, %ws {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x256xf8E4M3FN>, tensor<64x8xf8E8M0FNU>, tensor<128x256xf8E4M3FN>, tensor<128x8xf8E8M0FNU>) -> tensor<64x128xf32>
  %xcq, %xcs = fp8.quantize %x {scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>}
      : tensor<64x256xbf16> -> tensor<64x256xf8E4M3FN>, tensor<2x256xf8E8M0FNU>
  %dw = fp8.scaled_matmul %gq, %gs, %xcq, %xcs {
        a_scaling = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>,
        b_scaling = #fp8.scaling<tile = [32, 1], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 0>}
      : (tensor<128x64xf8E4M3FN>, tensor<128x2xf8E8M0FNU>, tensor<64x256xf8E4M3FN>, tensor<2x256xf8E8M0FNU>) -> tensor<128x256xf32>
  return %y, %dw : tensor<64x128xf32>, tensor<128x256xf32>
}

// -----

// A dynamic extent is carried to the transposed shape, and to the
// TMA-aligned scales (a dynamic row count pads to a dynamic extent).
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME: (%[[DY:.*]]: tensor<?x128xbf16>,
// CHECK: %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[M:.*]] = tensor.dim %[[DY]], %[[C0]] : tensor<?x128xbf16>
// CHECK-NEXT: %[[E:.*]] = tensor.empty(%[[M]]) : tensor<128x?xbf16>
// CHECK-NEXT: %[[DYT:.*]] = linalg.transpose ins(%[[DY]] : tensor<?x128xbf16>) outs(%[[E]] : tensor<128x?xbf16>) permutation = [1, 0]
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DYT]] {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<128x?xbf16> -> tensor<128x?xf8E4M3FN>, tensor<128x?xf32>
// CHECK-NEXT: %[[GST:.*]] = fp8.tma_align_scales %[[GS]] : tensor<128x?xf32> -> tensor<?x128xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[GQ]], %[[GST]], %{{.*}}, %{{.*}} {{.*}} : (tensor<128x?xf8E4M3FN>, tensor<?x128xf32>, tensor<64x?xf8E4M3FN>, tensor<?x64xf32>) -> tensor<128x64xf32>
func.func @dynamic_rows(%dy: tensor<?x128xbf16>, %xq: tensor<64x?xf8E4M3FN>, %xs: tensor<64x?xf32>)
    -> tensor<128x64xf32> {
  %gq, %gs = fp8.quantize %dy {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<?x128xbf16> -> tensor<?x128xf8E4M3FN>, tensor<?x128xf32>
  %dw = fp8.scaled_matmul %gq, %gs, %xq, %xs {
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 0, 1>}
      : (tensor<?x128xf8E4M3FN>, tensor<?x128xf32>, tensor<64x?xf8E4M3FN>, tensor<64x?xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// Only f32 scales of one row by a K-block that is a multiple of 128 are
// TMA-aligned: [1, 256] is, [1, 64] (K-block 64) and E8M0 [1, 128] are not.
// CHECK-LABEL: func.func @tma_alignment_rule
// CHECK-SAME: (%{{.*}}: tensor<64x512xf8E4M3FN>, %[[S256:.*]]: tensor<64x2xf32>, %{{.*}}: tensor<32x512xf8E4M3FN>, %[[S64:.*]]: tensor<32x8xf32>, %{{.*}}: tensor<32x512xf8E4M3FN>, %[[SMX:.*]]: tensor<32x4xf8E8M0FNU>)
// CHECK-NEXT: %[[S256T:.*]] = fp8.tma_align_scales %[[S256]] : tensor<64x2xf32> -> tensor<2x64xf32>
// CHECK-NEXT: fp8.scaled_matmul %{{.*}}, %[[S256T]], %{{.*}}, %[[S64]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 256], scale = f32>, b_scaling = #fp8.scaling<tile = [1, 64], scale = f32>, contracting = array<i64: 1, 1>}
// CHECK-NEXT: fp8.scaled_matmul %{{.*}}, %[[S256T]], %{{.*}}, %[[SMX]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 256], scale = f32>, b_scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>, contracting = array<i64: 1, 1>}
// CHECK-NEXT: return
func.func @tma_alignment_rule(%a: tensor<64x512xf8E4M3FN>, %sa: tensor<64x2xf32>,
                              %b: tensor<32x512xf8E4M3FN>, %sb: tensor<32x8xf32>,
                              %m: tensor<32x512xf8E4M3FN>, %sm: tensor<32x4xf8E8M0FNU>)
    -> (tensor<64x32xf32>, tensor<64x32xf32>) {
  %c = fp8.scaled_matmul %a, %sa, %b, %sb {
        a_scaling = #fp8.scaling<tile = [1, 256], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 64], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x2xf32>, tensor<32x512xf8E4M3FN>, tensor<32x8xf32>) -> tensor<64x32xf32>
  %d = fp8.scaled_matmul %a, %sa, %m, %sm {
        a_scaling = #fp8.scaling<tile = [1, 256], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f8E8M0FNU, round = pow2_ceil>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x512xf8E4M3FN>, tensor<64x2xf32>, tensor<32x512xf8E4M3FN>, tensor<32x4xf8E8M0FNU>) -> tensor<64x32xf32>
  return %c, %d : tensor<64x32xf32>, tensor<64x32xf32>
}

// -----

// Scales that are col_major_tma already are left as they are (here given as
// an argument); the other operand is aligned as usual.
// CHECK-LABEL: func.func @already_tma_aligned
// CHECK-SAME: (%[[A:.*]]: tensor<64x256xf8E4M3FN>, %[[SAT:.*]]: tensor<2x64xf32>, %[[B:.*]]: tensor<32x256xf8E4M3FN>, %[[SB:.*]]: tensor<32x2xf32>)
// CHECK-NEXT: %[[SBT:.*]] = fp8.tma_align_scales %[[SB]] : tensor<32x2xf32> -> tensor<2x32xf32>
// CHECK-NEXT: fp8.scaled_matmul %[[A]], %[[SAT]], %[[B]], %[[SBT]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scale_layout = #fp8.scale_layout<col_major_tma>, b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, contracting = array<i64: 1, 1>}
// CHECK-NEXT: return
func.func @already_tma_aligned(%a: tensor<64x256xf8E4M3FN>, %sat: tensor<2x64xf32>,
                               %b: tensor<32x256xf8E4M3FN>, %sb: tensor<32x2xf32>) -> tensor<64x32xf32> {
  %c = fp8.scaled_matmul %a, %sat, %b, %sb {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        contracting = array<i64: 1, 1>}
      : (tensor<64x256xf8E4M3FN>, tensor<2x64xf32>, tensor<32x256xf8E4M3FN>, tensor<32x2xf32>) -> tensor<64x32xf32>
  return %c : tensor<64x32xf32>
}

// -----

// An operand contracted along its rows with col_major_tma scales is made
// K-major from the row-major scales its fp8.tma_align_scales read (that op
// goes with its last use); the new 1x128 scales are aligned again.
// CHECK-LABEL: func.func @rows_contracted_tma_scales
// CHECK-SAME: (%[[DY:.*]]: tensor<256x128xbf16>,
// CHECK-NOT: tensor<128x4xf32>
// CHECK: %[[DYT:.*]] = linalg.transpose ins(%[[DY]]
// CHECK-NEXT: %[[GQ:.*]], %[[GS:.*]] = fp8.quantize %[[DYT]] {scaling = #fp8.scaling<tile = [1, 128], scale = f32>} : tensor<128x256xbf16> -> tensor<128x256xf8E4M3FN>, tensor<128x2xf32>
// CHECK-NEXT: %[[GST:.*]] = fp8.tma_align_scales %[[GS]] : tensor<128x2xf32> -> tensor<2x128xf32>
// CHECK: fp8.scaled_matmul %[[GQ]], %[[GST]], {{.*}} {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [*, *], scale = f32>, contracting = array<i64: 1, 1>}
// CHECK-NOT: fp8.tma_align_scales
// CHECK: return
func.func @rows_contracted_tma_scales(%dy: tensor<256x128xbf16>, %xq: tensor<64x256xf8E4M3FN>,
                                      %xs: tensor<1x1xf32>) -> tensor<128x64xf32> {
  %gq, %gs = fp8.quantize %dy {scaling = #fp8.scaling<tile = [128, 1], scale = f32>}
      : tensor<256x128xbf16> -> tensor<256x128xf8E4M3FN>, tensor<2x128xf32>
  %gst = fp8.tma_align_scales %gs : tensor<2x128xf32> -> tensor<128x4xf32>
  %dw = fp8.scaled_matmul %gq, %gst, %xq, %xs {
        a_scale_layout = #fp8.scale_layout<col_major_tma>,
        a_scaling = #fp8.scaling<tile = [128, 1], scale = f32>,
        b_scaling = #fp8.scaling<tile = [*, *], scale = f32>,
        contracting = array<i64: 0, 1>}
      : (tensor<256x128xf8E4M3FN>, tensor<128x4xf32>, tensor<64x256xf8E4M3FN>, tensor<1x1xf32>) -> tensor<128x64xf32>
  return %dw : tensor<128x64xf32>
}

// -----

// A contiguous grouped GEMM's per-row 1x128 A scales go col_major_tma as a
// scaled_matmul's do (the sm_90a grouped kernel loads them by TMA with each
// K-block); the experts' 128x128 scales stay row-major.
// CHECK-LABEL: func.func @grouped_contiguous
// CHECK-SAME: (%[[X:.*]]: tensor<1000x256xbf16>, %[[WQ:.*]]: tensor<4x128x256xf8E4M3FN>, %[[WS:.*]]: tensor<4x1x2xf32>, %[[R:.*]]: tensor<4xi32>)
// CHECK-NEXT: %[[XQ:.*]], %[[XS:.*]] = fp8.quantize %[[X]]
// CHECK-NEXT: %[[XST:.*]] = fp8.tma_align_scales %[[XS]] : tensor<1000x2xf32> -> tensor<2x1000xf32>
// CHECK-NEXT: fp8.grouped_scaled_matmul %[[XQ]], %[[XST]], %[[WQ]], %[[WS]], %[[R]] {a_scale_layout = #fp8.scale_layout<col_major_tma>, a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>, b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>} : (tensor<1000x256xf8E4M3FN>, tensor<2x1000xf32>, tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>, tensor<4xi32>) -> tensor<1000x128xbf16>
// CHECK-NEXT: return
func.func @grouped_contiguous(%x: tensor<1000x256xbf16>, %wq: tensor<4x128x256xf8E4M3FN>, %ws: tensor<4x1x2xf32>, %r: tensor<4xi32>) -> tensor<1000x128xbf16> {
  %xq, %xs = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
      : tensor<1000x256xbf16> -> tensor<1000x256xf8E4M3FN>, tensor<1000x2xf32>
  %y = fp8.grouped_scaled_matmul %xq, %xs, %wq, %ws, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
      : (tensor<1000x256xf8E4M3FN>, tensor<1000x2xf32>, tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>, tensor<4xi32>) -> tensor<1000x128xbf16>
  return %y : tensor<1000x128xbf16>
}

// -----

// A masked A's scales (one matrix per group) and rowwise scales (one per
// row, read once) stay row-major.
// CHECK-LABEL: func.func @grouped_row_major
// CHECK-NOT: tma_align_scales
// CHECK-NOT: scale_layout
// CHECK: return
func.func @grouped_row_major(%aq: tensor<4x64x256xf8E4M3FN>, %as: tensor<4x64x2xf32>, %xq: tensor<1000x256xf8E4M3FN>, %xs: tensor<1000x1xf32>,
                             %wq: tensor<4x128x256xf8E4M3FN>, %ws: tensor<4x1x2xf32>, %ws1: tensor<4x128x1xf32>, %r: tensor<4xi32>) -> (tensor<4x64x128xbf16>, tensor<1000x128xbf16>) {
  %m = fp8.grouped_scaled_matmul %aq, %as, %wq, %ws, %r {
        a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
        b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
        layout = #fp8.group_layout<masked>}
      : (tensor<4x64x256xf8E4M3FN>, tensor<4x64x2xf32>, tensor<4x128x256xf8E4M3FN>, tensor<4x1x2xf32>, tensor<4xi32>) -> tensor<4x64x128xbf16>
  %y = fp8.grouped_scaled_matmul %xq, %xs, %wq, %ws1, %r {
        a_scaling = #fp8.scaling<tile = [1, *], scale = f32>,
        b_scaling = #fp8.scaling<tile = [1, *], scale = f32>}
      : (tensor<1000x256xf8E4M3FN>, tensor<1000x1xf32>, tensor<4x128x256xf8E4M3FN>, tensor<4x128x1xf32>, tensor<4xi32>) -> tensor<1000x128xbf16>
  return %m, %y : tensor<4x64x128xbf16>, tensor<1000x128xbf16>
}
