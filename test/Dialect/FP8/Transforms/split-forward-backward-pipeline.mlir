// fp8-split-forward-backward after fp8-pipeline on the linear layer of
// examples/linear_fwd_bwd.mlir (Y, dX, dW in one function): forward makes
// every FP8 operand of Dgrad and Wgrad from X and W and returns it;
// backward quantizes only dY and takes the rest as arguments.
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=blockwise --fp8-split-forward-backward | FileCheck %s --check-prefix=BLOCKWISE
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=tensorwise --fp8-split-forward-backward | FileCheck %s --check-prefix=TENSORWISE
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=rowwise_gw_hp --fp8-split-forward-backward 2>&1 | FileCheck %s --check-prefix=GWHP
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=delayed --fp8-split-forward-backward | FileCheck %s --check-prefix=DELAYED
// RUN: fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-pipeline=recipe=blockwise --fp8-split-forward-backward=recompute=weight 2>&1 | FileCheck %s --check-prefix=RECOMPUTE
// RUN: not fp8-opt %S/../../../../examples/linear_fwd_bwd.mlir --fp8-split-forward-backward=recompute=gradient 2>&1 | FileCheck %s --check-prefix=BADROLE

// Blockwise: Wgrad's X is the transposed half of Fprop's cast-transpose,
// Dgrad's W the transposed half of Fprop's 128x128-tiled W (its block
// cast-transpose).
// BLOCKWISE-LABEL: func.func @linear_fwd_bwd_fwd(
// BLOCKWISE-SAME: %[[X:.*]]: tensor<256x512xbf16> {fp8.role = "activation"}, %[[W:.*]]: tensor<1024x512xbf16> {fp8.role = "weight"})
// BLOCKWISE-SAME: -> (tensor<256x1024xbf16>, tensor<512x256xf8E4M3FN> {fp8.saved = "arg0:qt"}, tensor<2x512xf32> {fp8.saved = "arg0:scale_t"}, tensor<512x1024xf8E4M3FN> {fp8.saved = "arg1:qt"}, tensor<4x8xf32> {fp8.saved = "arg1:scale_t"})
// BLOCKWISE-SAME: fp8.recipe = #fp8.recipe<blockwise>
// BLOCKWISE: %[[Q:.*]], %[[S:.*]], %[[QT:.*]], %[[ST:.*]] = fp8.quantize_transpose %[[X]]
// BLOCKWISE: %[[WQ:.*]], %[[WS:.*]], %[[WQT:.*]], %[[WST:.*]] = fp8.quantize_transpose %[[W]]
// BLOCKWISE: %[[Y:.*]] = fp8.scaled_matmul %[[Q]], %[[S]], %[[WQ]], %[[WS]]
// BLOCKWISE: return %[[Y]], %[[QT]], %[[ST]], %[[WQT]], %[[WST]]
// BLOCKWISE-LABEL: func.func @linear_fwd_bwd_bwd(
// BLOCKWISE-SAME: %[[DY:.*]]: tensor<256x1024xbf16> {fp8.role = "gradient"}, %[[BQT:.*]]: tensor<512x256xf8E4M3FN> {fp8.saved = "arg0:qt"}, %[[BST:.*]]: tensor<2x512xf32> {fp8.saved = "arg0:scale_t"}, %[[BWQT:.*]]: tensor<512x1024xf8E4M3FN> {fp8.saved = "arg1:qt"}, %[[BWST:.*]]: tensor<4x8xf32> {fp8.saved = "arg1:scale_t"})
// BLOCKWISE-SAME: -> (tensor<256x512xbf16>, tensor<1024x512xf32>)
// BLOCKWISE: %[[GQ:.*]], %[[GS:.*]], %[[GQT:.*]], %[[GST:.*]] = fp8.quantize_transpose %[[DY]]
// BLOCKWISE-NOT: fp8.quantize
// BLOCKWISE-NOT: fp8.transpose
// BLOCKWISE: fp8.scaled_matmul %[[GQ]], %[[GS]], %[[BWQT]], %[[BWST]]
// BLOCKWISE: fp8.scaled_matmul %[[GQT]], %[[GST]], %[[BQT]], %[[BST]]
// BLOCKWISE-NOT: func.func @linear_fwd_bwd(

// Tensorwise: X and W quantized with their transposes (one tensorwise
// cast-transpose each) in forward.
// TENSORWISE-LABEL: func.func @linear_fwd_bwd_fwd(
// TENSORWISE-SAME: -> (tensor<256x1024xbf16>, tensor<512x256xf8E4M3FN> {fp8.saved = "arg0:qt"}, tensor<1x1xf32> {fp8.saved = "arg0:scale_t"}, tensor<512x1024xf8E4M3FN> {fp8.saved = "arg1:qt"}, tensor<1x1xf32> {fp8.saved = "arg1:scale_t"})
// TENSORWISE-COUNT-2: fp8.quantize_transpose
// TENSORWISE-LABEL: func.func @linear_fwd_bwd_bwd(
// TENSORWISE-SAME: %{{.*}}: tensor<256x1024xbf16> {fp8.role = "gradient"}, %{{.*}}: tensor<512x256xf8E4M3FN> {fp8.saved = "arg0:qt"}
// TENSORWISE: fp8.quantize_transpose %arg0
// TENSORWISE-NOT: fp8.quantize
// TENSORWISE-NOT: fp8.transpose

// rowwise_gw_hp keeps Wgrad in bf16: X crosses as it is, with a remark;
// Dgrad's W crosses quantized.
// GWHP: remark: fp8-split-forward-backward: argument #0 of @linear_fwd_bwd ('tensor<256x512xbf16>') is read by forward and backward: autograd keeps it for backward as it is
// GWHP-LABEL: func.func @linear_fwd_bwd_fwd(
// GWHP-SAME: -> (tensor<256x1024xbf16>, tensor<512x1024xf8E4M3FN> {fp8.saved = "arg1:qt"}, tensor<512x1xf32> {fp8.saved = "arg1:scale_t"})
// GWHP-LABEL: func.func @linear_fwd_bwd_bwd(
// GWHP-SAME: %{{.*}}: tensor<256x1024xbf16> {fp8.role = "gradient"}, %[[GX:.*]]: tensor<256x512xbf16> {fp8.role = "activation", fp8.saved = "arg0"}, %{{.*}}: tensor<512x1024xf8E4M3FN> {fp8.saved = "arg1:qt"}, %{{.*}}: tensor<512x1xf32> {fp8.saved = "arg1:scale_t"})
// GWHP: linalg.matmul {{.*}}ins(%{{.*}}, %[[GX]] :

// Delayed: forward takes and rolls the histories of X and W; dY's history
// (joint argument 5) goes to backward with the slice its roll keeps,
// rather than crossing as a computed slice.
// DELAYED-LABEL: func.func @linear_fwd_bwd_fwd(
// DELAYED-SAME: %{{.*}}: tensor<1024x1x1xf32> {fp8.amax_history}, %{{.*}}: tensor<1024x1x1xf32> {fp8.amax_history})
// DELAYED-SAME: -> (tensor<256x1024xbf16>, tensor<1024x1x1xf32>, tensor<1024x1x1xf32>, tensor<512x256xf8E4M3FN> {fp8.saved = "arg0.T:qt"}, tensor<1x1xf32> {fp8.saved = "arg0.T:scale_t"}, tensor<512x1024xf8E4M3FN> {fp8.saved = "arg1.T:qt"}, tensor<1x1xf32> {fp8.saved = "arg1.T:scale_t"})
// DELAYED-COUNT-2: fp8.quantize_delayed
// DELAYED-NOT: fp8.quantize_delayed
// DELAYED-LABEL: func.func @linear_fwd_bwd_bwd(
// DELAYED-SAME: %{{.*}}: tensor<256x1024xbf16> {fp8.role = "gradient"}, %[[H:.*]]: tensor<1024x1x1xf32> {fp8.amax_history, fp8.saved = "arg5"}, %{{.*}}: tensor<512x256xf8E4M3FN> {fp8.saved = "arg0.T:qt"}
// DELAYED-SAME: -> (tensor<256x512xbf16>, tensor<1024x512xf32>, tensor<1024x1x1xf32>)
// DELAYED: tensor.extract_slice %[[H]][1, 0, 0]
// DELAYED: fp8.quantize_delayed %arg0 history(%[[H]]

// recompute=weight: W crosses as it is (a parameter) and each half
// quantizes it; only X's FP8 crosses. (Each half runs W's whole block
// cast-transpose and uses one of its halves: a plain quantization in
// forward would write a byte less an element.)
// RECOMPUTE: remark: fp8-split-forward-backward: argument #1 of @linear_fwd_bwd ('tensor<1024x512xbf16>') is read by forward and backward
// RECOMPUTE-LABEL: func.func @linear_fwd_bwd_fwd(
// RECOMPUTE-SAME: -> (tensor<256x1024xbf16>, tensor<512x256xf8E4M3FN> {fp8.saved = "arg0:qt"}, tensor<2x512xf32> {fp8.saved = "arg0:scale_t"})
// RECOMPUTE: fp8.quantize_transpose %arg0
// RECOMPUTE: fp8.quantize_transpose %arg1
// RECOMPUTE-NOT: fp8.transpose
// RECOMPUTE-LABEL: func.func @linear_fwd_bwd_bwd(
// RECOMPUTE-SAME: %{{.*}}: tensor<256x1024xbf16> {fp8.role = "gradient"}, %[[W:.*]]: tensor<1024x512xbf16> {fp8.role = "weight", fp8.saved = "arg1"}, %{{.*}}: tensor<512x256xf8E4M3FN> {fp8.saved = "arg0:qt"}, %{{.*}}: tensor<2x512xf32> {fp8.saved = "arg0:scale_t"})
// RECOMPUTE: %{{.*}}, %{{.*}}, %[[WQT:.*]], %[[WST:.*]] = fp8.quantize_transpose %[[W]]
// RECOMPUTE: fp8.scaled_matmul %{{.*}}, %{{.*}}, %[[WQT]], %[[WST]]

// BADROLE: fp8-split-forward-backward: recompute=gradient: expected activation or weight
