#!/usr/bin/env bash
# FP8 GEMMs on the GPU machine: every fp8.scaled_matmul kernel of a manifest
# timed by fp8-run beside cuBLASLt (torch._scaled_mm) for the same shape,
# scaling and accumulation, in one run, with cuBLASLt's and bf16 torch.mm's
# baselines per shape, as a markdown table (device, date, versions) for
# bench/results/.
#
#   bench/gemm.sh [KERNEL_DIR [OUT_DIR]]
#   GEMM_MLIR=bench/layer_gemms.mlir bench/gemm.sh DIR OUT   (bench/layer_gemms.sh)
#
# KERNEL_DIR (default build/gpu-gemm) holds manifest.json and the PTX that
# `fp8-opt bench/gemm.mlir --fp8-emit=dir=KERNEL_DIR` writes (4096^3, 8192^3,
# 8192x7168x2048, 8192x2048x7168, 16384x4096x14336, and M = 64, 128 with
# N = 7168, K = 2048; MXFP8 at 4096^3, which cuBLASLt does not take on
# sm_90); it is emitted here when missing and fp8-opt exists
# (the compile time goes to OUT_DIR/compile-times.txt), else bring it from a
# machine with MLIR. OUT_DIR (default build/bench-gemm) receives fp8-run.log,
# fp8-run.json and gemm.md. ITERS (default 100) and WARMUP (default 10) set
# the counts; CHECK=1 also dumps one run of every kernel and checks it with
# test/Integration/GPU/check_gemm.py first.
set -euo pipefail
cd "$(dirname "$0")/.."

KERNEL_DIR=${1:-build/gpu-gemm}
OUT_DIR=${2:-build/bench-gemm}
ITERS=${ITERS:-100}
WARMUP=${WARMUP:-10}
CHECK=${CHECK:-0}
GEMM_MLIR=${GEMM_MLIR:-bench/gemm.mlir}
PYTHON=${PYTHON:-python3}
FP8_RUN=build-run/bin/fp8-run

if [ ! -x "$FP8_RUN" ]; then
  cmake -G Ninja -S tools/fp8-run -B build-run -DCMAKE_BUILD_TYPE=Release
  ninja -C build-run
fi
mkdir -p "$OUT_DIR"
if [ ! -f "$KERNEL_DIR/manifest.json" ]; then
  if [ ! -x build/bin/fp8-opt ] || [ ! -f "$GEMM_MLIR" ]; then
    echo "gemm.sh: no $KERNEL_DIR/manifest.json, and no build/bin/fp8-opt" \
         "and $GEMM_MLIR to emit it: where MLIR is, run" \
         "build/bin/fp8-opt $GEMM_MLIR --fp8-emit=dir=$KERNEL_DIR" \
         "and copy $KERNEL_DIR here" >&2
    exit 1
  fi
  start=$(date +%s.%N)
  build/bin/fp8-opt "$GEMM_MLIR" --fp8-emit="dir=$KERNEL_DIR" > /dev/null
  end=$(date +%s.%N)
  echo "$(basename "$GEMM_MLIR") $(awk "BEGIN { printf \"%.3f\", $end - $start }")" \
    > "$OUT_DIR/compile-times.txt"
fi

if [ "$CHECK" = 1 ]; then
  rm -rf "$OUT_DIR/dump"
  "$FP8_RUN" "$KERNEL_DIR/manifest.json" --iters 0 --seed 0 \
    --dump "$OUT_DIR/dump"
  "$PYTHON" test/Integration/GPU/check_gemm.py "$OUT_DIR/dump"
fi
"$FP8_RUN" "$KERNEL_DIR/manifest.json" --iters "$ITERS" --warmup "$WARMUP" \
  --results "$OUT_DIR/fp8-run.json" | tee "$OUT_DIR/fp8-run.log"
"$PYTHON" bench/torch_gemm.py --iters "$ITERS" --warmup "$WARMUP" \
  --manifest "$KERNEL_DIR/manifest.json" \
  --fp8-run-results "$OUT_DIR/fp8-run.json" \
  --compile-times "$OUT_DIR/compile-times.txt" --output "$OUT_DIR/gemm.md"
echo "gemm.sh: table in $OUT_DIR/gemm.md"
