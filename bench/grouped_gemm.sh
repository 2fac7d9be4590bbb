#!/usr/bin/env bash
# Grouped FP8 GEMMs (fp8.grouped_scaled_matmul) on the GPU machine, beside G
# separate calls of our GEMM and of cuBLASLt (torch._scaled_mm), as a
# markdown table (device, date, versions) for bench/results/.
#
#   bench/grouped_gemm.sh [KERNEL_DIR [OUT_DIR]]
#
# KERNEL_DIR (default build/gpu-grouped-gemm) holds what `fp8-opt
# bench/grouped_gemm.mlir --fp8-emit=dir=KERNEL_DIR` writes (8 experts of
# N = 4096, K = 7168, 512 to 4096 rows each, and the masked layout of
# decoding; the plain GEMM of each group's shape); it is emitted here when
# missing and fp8-opt exists, else bring it from a machine with MLIR.
# OUT_DIR (default build/bench-grouped-gemm) receives fp8-run.log,
# fp8-run.json and grouped-gemm.md. ITERS (default 50) and WARMUP (default
# 5) set the counts; CHECK=1 first dumps one run of every kernel with random
# group sizes and checks it with test/Integration/GPU/check_gemm.py.
set -euo pipefail
cd "$(dirname "$0")/.."

KERNEL_DIR=${1:-build/gpu-grouped-gemm}
OUT_DIR=${2:-build/bench-grouped-gemm}
ITERS=${ITERS:-50}
WARMUP=${WARMUP:-5}
CHECK=${CHECK:-0}
PYTHON=${PYTHON:-python3}
FP8_RUN=build-run/bin/fp8-run

if [ ! -x "$FP8_RUN" ]; then
  cmake -G Ninja -S tools/fp8-run -B build-run -DCMAKE_BUILD_TYPE=Release
  ninja -C build-run
fi
mkdir -p "$OUT_DIR"
if [ ! -f "$KERNEL_DIR/manifest.json" ]; then
  if [ ! -x build/bin/fp8-opt ]; then
    echo "grouped_gemm.sh: no $KERNEL_DIR/manifest.json and no" \
         "build/bin/fp8-opt to emit it: where MLIR is, run" \
         "build/bin/fp8-opt bench/grouped_gemm.mlir" \
         "--fp8-emit=dir=$KERNEL_DIR and copy $KERNEL_DIR here" >&2
    exit 1
  fi
  build/bin/fp8-opt bench/grouped_gemm.mlir --fp8-emit="dir=$KERNEL_DIR" \
    > /dev/null
fi

if [ "$CHECK" = 1 ]; then
  rm -rf "$OUT_DIR/dump"
  "$FP8_RUN" "$KERNEL_DIR/manifest.json" --iters 0 --seed 0 \
    --dump "$OUT_DIR/dump"
  "$PYTHON" test/Integration/GPU/check_gemm.py "$OUT_DIR/dump"
fi
"$FP8_RUN" "$KERNEL_DIR/manifest.json" --even-groups --iters "$ITERS" \
  --warmup "$WARMUP" --results "$OUT_DIR/fp8-run.json" \
  | tee "$OUT_DIR/fp8-run.log"
"$PYTHON" bench/torch_grouped_gemm.py --iters "$ITERS" --warmup "$WARMUP" \
  --manifest "$KERNEL_DIR/manifest.json" \
  --fp8-run-results "$OUT_DIR/fp8-run.json" \
  --output "$OUT_DIR/grouped-gemm.md"
echo "grouped_gemm.sh: table in $OUT_DIR/grouped-gemm.md"
