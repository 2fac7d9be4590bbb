#!/usr/bin/env bash
# The training runs of bench/results/*-train-gpt.md, in one command:
# examples/train_gpt.py under each recipe on the same seed and data, the
# step-time profiles at the large size, optionally further seeds and a
# monitored run, then the plots. Logs go to OUT_DIR/<run>.jsonl.
#
#   bench/train_gpt.sh aot   [CACHE]           where fp8-opt is: compile
#                                              every program the runs need
#   bench/train_gpt.sh run   [CACHE [OUT_DIR]] on the GPU machine
#
# Environment: RECIPES (default "bf16 blockwise rowwise tensorwise
# delayed"; set but empty runs none), STEPS (1000), SEEDS (extra seeds for bf16 and blockwise at
# SEED_STEPS=500, default none), MONITOR (recipes to run again with
# --monitor for MONITOR_STEPS=300, default none), PROFILE_STEPS (20; 0
# skips the large-size profiles), COMPILE (1: each large-size profile
# again with --compile, as large-<recipe>-compile). CACHE defaults to
# build/gpt-cache, OUT_DIR to build/train-gpt.
set -euo pipefail
cd "$(dirname "$0")/.."

MODE=${1:?usage: bench/train_gpt.sh aot|run [CACHE [OUT_DIR]]}
export FP8_MLIR_CACHE=$(realpath -m "${2:-build/gpt-cache}")
OUT_DIR=${3:-build/train-gpt}
RECIPES=${RECIPES-"bf16 blockwise rowwise tensorwise delayed"}
STEPS=${STEPS:-1000}
SEEDS=${SEEDS:-}
SEED_STEPS=${SEED_STEPS:-500}
MONITOR=${MONITOR:-}
MONITOR_STEPS=${MONITOR_STEPS:-300}
PROFILE_STEPS=${PROFILE_STEPS:-20}
COMPILE=${COMPILE:-}
PYTHON=${PYTHON:-python3}
TRAIN="$PYTHON examples/train_gpt.py"

if [ "$MODE" = aot ]; then
  for size in small large; do $TRAIN --aot --size "$size" --recipe bf16; done
  for r in $MONITOR; do $TRAIN --aot --recipe "$r" --monitor; done
  exit 0
fi
[ "$MODE" = run ] || { echo "train_gpt.sh: aot or run, not $MODE" >&2; exit 2; }

if [ ! -f build-run/lib/libfp8rt.so ]; then
  cmake -G Ninja -S tools/fp8-run -B build-run -DCMAKE_BUILD_TYPE=Release
  ninja -C build-run
fi
mkdir -p "$OUT_DIR"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# One run: NAME, then train_gpt.py's arguments; its log is kept, its
# checkpoint (GBs) is not.
run() {
  local name=$1; shift
  $TRAIN "$@" --out "$tmp/$name" | grep -E "validation|done:|profile:" || true
  cp "$tmp/$name/log.jsonl" "$OUT_DIR/$name.jsonl"
  rm -rf "${tmp:?}/$name"
}
for r in $RECIPES; do
  run "small-$r" --size small --recipe "$r" --steps "$STEPS" --log-every 50
done
for s in $SEEDS; do
  for r in bf16 blockwise; do
    run "small-seed$s-$r" --size small --recipe "$r" --seed "$s" \
      --steps "$SEED_STEPS" --log-every 100
  done
done
for r in $MONITOR; do
  run "small-$r-monitor" --size small --recipe "$r" --monitor \
    --steps "$MONITOR_STEPS" --monitor-every 10 --log-every 50
done
if [ "$PROFILE_STEPS" -gt 0 ]; then
  for r in $RECIPES; do
    # Speed as each recipe runs fastest: PyTorch's deterministic kernels
    # cost bf16 about 40% of its tokens/s (bench/results/
    # 2026-11-25-h100-train-gpt-monitor.md).
    run "large-$r" --size large --recipe "$r" --steps "$PROFILE_STEPS" \
      --profile --no-deterministic
    if [ -n "$COMPILE" ]; then
      run "large-$r-compile" --size large --recipe "$r" \
        --steps "$PROFILE_STEPS" --profile --no-deterministic --compile
    fi
  done
fi
if $PYTHON -c "import matplotlib" 2>/dev/null; then
  $PYTHON examples/plot_training.py --out "$OUT_DIR" "$OUT_DIR"/*.jsonl
fi
echo "train_gpt.sh: logs in $OUT_DIR"
