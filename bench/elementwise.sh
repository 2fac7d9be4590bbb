#!/usr/bin/env bash
# The standalone kernels of a training graph's non-fp8 ops (bench/elementwise.mlir:
# GELU, residual add, bias add, bf16 transpose at 8192x8192) timed by fp8-run
# beside a device-to-device copy of the same byte count, as a markdown table
# (device, date, % of copy) for bench/results/.
#
#   bench/elementwise.sh [KERNEL_DIR [OUT_DIR]]
#
# KERNEL_DIR (default build/gpu/elementwise) is emitted here when missing and
# fp8-opt exists (`fp8-opt bench/elementwise.mlir --fp8-emit=dir=KERNEL_DIR`),
# else bring it from a machine with MLIR. ITERS (default 100), WARMUP (10).
set -euo pipefail
cd "$(dirname "$0")/.."

KERNEL_DIR=${1:-build/gpu/elementwise}
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
    echo "elementwise.sh: no $KERNEL_DIR/manifest.json and no build/bin/fp8-opt" \
         "to emit it: emit the kernels where MLIR is and copy them here" >&2
    exit 1
  fi
  build/bin/fp8-opt bench/elementwise.mlir --fp8-emit="dir=$KERNEL_DIR" > /dev/null
fi

mkdir -p "$OUT_DIR"
"$FP8_RUN" "$KERNEL_DIR/manifest.json" --iters "$ITERS" --warmup "$WARMUP" \
  --copy-baseline --results "$OUT_DIR/elementwise-fp8-run.json" |
  tee "$OUT_DIR/elementwise-fp8-run.log"
"$PYTHON" - "$OUT_DIR/elementwise-fp8-run.json" > "$OUT_DIR/elementwise.md" <<'PY'
import datetime, json, sys
r = json.load(open(sys.argv[1]))
print(f"# Standalone elementwise and transpose kernels\n")
print(f"{r['device']}, {datetime.date.today()}, {r['iters']} iterations "
      f"(median), bench/elementwise.mlir at 8192x8192 bf16.\n")
print("| kernel | op | MB moved | ms | GB/s | copy GB/s | % of copy |")
print("|---|---|---|---|---|---|---|")
for k in r["kernels"]:
    t, c = k["time"], k["copy"]
    print(f"| {k['name']} | {k['op']} | {k['bytes_moved'] / 1e6:.0f} | "
          f"{t['median_ms']:.3f} | {t['gbps_median']:.0f} | "
          f"{c['gbps_median']:.0f} | {100 * t['gbps_median'] / c['gbps_median']:.0f}% |")
PY
cat "$OUT_DIR/elementwise.md"
