#!/usr/bin/env bash
# bf16 -> e4m3 quantization on the GPU machine: every kernel of a manifest
# timed by fp8-run beside a device-to-device copy of the same byte count and
# beside torch.compile's kernels for the same jobs, in one run, as a markdown
# table (device, date, shapes) for bench/results/. Among them the standalone
# Hadamard rotations (n = 16, 32, 64, 128, 256 on 8192x8192 bf16) and the
# stochastic-rounding quantization; the table ends with issue 15's targets
# for those (at least 85% of the copy's GB/s), each MET or NOT MET.
#
#   bench/quantize.sh [KERNEL_DIR [OUT_DIR]]
#
# KERNEL_DIR (default build/gpu) holds manifest.json and the PTX that
# `fp8-opt test/Integration/GPU/quantize.mlir --fp8-emit=dir=KERNEL_DIR` writes
# (8192x8192 and 16384x7168 bf16 -> e4m3 kernels); it is emitted here when
# missing and fp8-opt exists, else bring it from a machine with MLIR.
# OUT_DIR (default build/bench) receives fp8-run.log, fp8-run.json and
# quantize.md. ITERS (default 100) and WARMUP (default 10) set the counts.
set -euo pipefail
cd "$(dirname "$0")/.."

KERNEL_DIR=${1:-build/gpu}
OUT_DIR=${2:-build/bench}
ITERS=${ITERS:-100}
WARMUP=${WARMUP:-10}
PYTHON=${PYTHON:-python3}
FP8_RUN=build-run/bin/fp8-run

if [ ! -x "$FP8_RUN" ]; then
  cmake -G Ninja -S tools/fp8-run -B build-run -DCMAKE_BUILD_TYPE=Release
  ninja -C build-run
fi
if [ ! -f "$KERNEL_DIR/manifest.json" ]; then
  if [ ! -x build/bin/fp8-opt ]; then
    echo "quantize.sh: no $KERNEL_DIR/manifest.json and no build/bin/fp8-opt" \
         "to emit it: emit the kernels where MLIR is and copy them here" >&2
    exit 1
  fi
  build/bin/fp8-opt test/Integration/GPU/quantize.mlir \
    --fp8-emit="dir=$KERNEL_DIR" > /dev/null
fi

mkdir -p "$OUT_DIR"
"$FP8_RUN" "$KERNEL_DIR/manifest.json" --iters "$ITERS" --warmup "$WARMUP" \
  --copy-baseline --results "$OUT_DIR/fp8-run.json" | tee "$OUT_DIR/fp8-run.log"
"$PYTHON" bench/torch_quantize.py --shapes 8192x8192,16384x7168 \
  --iters "$ITERS" --warmup "$WARMUP" --manifest "$KERNEL_DIR/manifest.json" \
  --fp8-run-results "$OUT_DIR/fp8-run.json" --output "$OUT_DIR/quantize.md"
echo "quantize.sh: table in $OUT_DIR/quantize.md"
