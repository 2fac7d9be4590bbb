#!/bin/sh
# `make demo`: what fp8-opt does at this stage, on the files in examples/.
set -e
FP8_OPT=${1:-build/bin/fp8-opt}
DIR=$(dirname "$0")

banner() { printf '\n=== %s ===\n' "$1"; }

banner "one linear layer (Fprop, Dgrad, Wgrad) in bf16: the layouts each recipe derives"
for recipe in tensorwise delayed rowwise rowwise_gw_hp blockwise mxfp8 mxfp8_ocp; do
  "$FP8_OPT" "$DIR/linear_fwd_bwd.mlir" --fp8-quantize-matmuls=recipe=$recipe \
    --fp8-derive-scaling --fp8-print-layouts -o /dev/null
done

banner "an MLP block under blockwise, with 128-wide Hadamard rotations on Fprop"
"$FP8_OPT" "$DIR/mlp_block.mlir" --fp8-quantize-matmuls=recipe=blockwise \
  '--fp8-insert-hadamard=size=128 matmuls=fprop' --fp8-derive-scaling \
  --fp8-print-layouts -o /dev/null

banner "the linear layer under blockwise, legalized for sm_90a (fp8-pipeline) and emitted as PTX kernels"
KERNELS=$(mktemp -d)
"$FP8_OPT" "$DIR/linear_fwd_bwd.mlir" --fp8-pipeline='recipe=blockwise chip=sm_90a' \
  "--fp8-emit=dir=$KERNELS" -o /dev/null
ls "$KERNELS"
# The Fprop GEMM is the first one the pass numbers.
FPROP=$(ls "$KERNELS" | sed -n 's/.*_gemm_\([0-9]*\)\.ptx$/\1/p' | sort -n | head -1)
echo "--- the Fprop GEMM: a TMA load and one wgmma K-step:"
grep -m1 -E 'cp\.async\.bulk\.tensor' "$KERNELS"/*_gemm_$FPROP.ptx | sed 's/^[[:space:]]*//'
grep -m1 -E 'wgmma\.mma_async' "$KERNELS"/*_gemm_$FPROP.ptx | cut -c1-100
rm -rf "$KERNELS"

banner "legalized for sm_90a: X's 1x128 scales in the col_major_tma layout the GEMM loads with TMA (IR)"
"$FP8_OPT" "$DIR/linear_fwd_bwd.mlir" --fp8-quantize-matmuls=recipe=blockwise \
  --fp8-derive-scaling --fp8-legalize --canonicalize |
  grep -E 'fp8\.(tma_align_scales|scaled_matmul)' | head -2 | sed 's/^[[:space:]]*//'

banner "the quantized Fprop of the linear layer under blockwise (IR)"
"$FP8_OPT" "$DIR/linear_fwd_bwd.mlir" --fp8-quantize-matmuls=recipe=blockwise \
  --fp8-derive-scaling --canonicalize | grep -E 'fp8\.(quantize|scaled_matmul|transpose)' | head -3

banner "the contracted-dimension rule: a 1x128 tile cannot serve Wgrad (expected error)"
if "$FP8_OPT" "$DIR/invalid_wgrad_tile.mlir" 2>&1 | head -3; then :; fi
if "$FP8_OPT" "$DIR/invalid_wgrad_tile.mlir" >/dev/null 2>&1; then
  echo "demo: the verifier accepted an invalid tile" >&2
  exit 1
fi

banner "the CPU reference: quantize 1x4 values (tensorwise e4m3), dequantize, print"
"$FP8_OPT" "$DIR/reference_quantize.mlir" --fp8-reference-pipeline |
  /usr/lib/llvm-22/bin/mlir-runner -e main -entry-point-result=void \
    -shared-libs=/usr/lib/llvm-22/lib/libmlir_c_runner_utils.so,/usr/lib/llvm-22/lib/libmlir_runner_utils.so |
  grep -v '^Unranked'
