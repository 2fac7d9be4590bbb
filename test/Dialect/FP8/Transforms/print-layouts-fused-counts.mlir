// After the whole pipeline (fusions included), the counts fp8-print-layouts
// prints match the quantize ops in the IR, for every preset on both chips,
// with and without monitoring, on the linear layer and the MLP block:
// Inputs/layout-counts.awk counts the ops (a cast-transpose is two
// quantizations, an exact transpose one, a fused quantization with its
// transpose two) and compares each printed line.
// RUN: for f in %S/../../../../examples/linear_fwd_bwd.mlir %S/../../../../examples/mlp_block.mlir; do \
// RUN:   for r in tensorwise delayed rowwise rowwise_gw_hp blockwise mxfp8 mxfp8_ocp; do \
// RUN:     for c in sm_90a sm_100a; do \
// RUN:       for m in false true; do \
// RUN:         fp8-opt $f "--fp8-pipeline=recipe=$r chip=$c monitor=$m" --fp8-print-layouts > %t 2>/dev/null || exit 1; \
// RUN:         awk -f %S/Inputs/layout-counts.awk %t || { echo "in $f, $r, $c, monitor=$m"; exit 1; }; \
// RUN:       done; \
// RUN:     done; \
// RUN:   done; \
// RUN: done
