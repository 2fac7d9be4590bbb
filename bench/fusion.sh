#!/usr/bin/env bash
# Producer fusion on the GPU machine (issue 15): every fused
# producer+quantization kernel (fp8.quantize_elementwise: elementwise
# producers, Hadamard rotations, RMSNorm and LayerNorm) timed by fp8-run
# beside a device copy of its minimal bytes, beside the unfused program it
# replaces (the producer's kernel, then the quantization's; a norm's zero
# fills and row sums first) and beside torch.compile of the same unfused
# graph, in one run, as a markdown table for bench/results/. (The bits of these kernels are
# test/Integration/GPU/check_fusion.py's business, on smaller programs.)
# The delayed recipe's fused amax (fp8.quantize_delayed, check_fusion.py's
# delayed_* functions) gets a table of its own: each function fused and
# unfused (fp8-run --function), and the fused kernel beside its copy.
#
#   bench/fusion.sh [KERNEL_DIR [OUT_DIR]]
#
# KERNEL_DIR (default build/fusion) holds fused/ and unfused/ (manifest and
# PTX each) that `test/Integration/GPU/check_fusion.py --emit KERNEL_DIR
# --shape 8192x14336` writes; it is emitted here when missing and
# build/bin/fp8-opt exists, else bring it from a machine with MLIR. OUT_DIR
# (default build/bench) receives fusion-*.json, fusion.log and fusion.md.
# ITERS (default 100), WARMUP (default 10) and SHAPE (default 8192x14336).
set -euo pipefail
cd "$(dirname "$0")/.."

KERNEL_DIR=${1:-build/fusion}
OUT_DIR=${2:-build/bench}
ITERS=${ITERS:-100}
WARMUP=${WARMUP:-10}
SHAPE=${SHAPE:-8192x14336}
PYTHON=${PYTHON:-python3}
FP8_RUN=build-run/bin/fp8-run

if [ ! -x "$FP8_RUN" ]; then
  cmake -G Ninja -S tools/fp8-run -B build-run -DCMAKE_BUILD_TYPE=Release
  ninja -C build-run
fi
if [ ! -f "$KERNEL_DIR/fused/manifest.json" ]; then
  if [ ! -x build/bin/fp8-opt ]; then
    echo "fusion.sh: no $KERNEL_DIR/fused/manifest.json and no" \
         "build/bin/fp8-opt to emit it: run check_fusion.py --emit where" \
         "MLIR is and copy the directory here" >&2
    exit 1
  fi
  "$PYTHON" test/Integration/GPU/check_fusion.py --emit "$KERNEL_DIR" \
    --shape "$SHAPE"
fi

mkdir -p "$OUT_DIR"
"$FP8_RUN" "$KERNEL_DIR/fused/manifest.json" --iters "$ITERS" \
  --warmup "$WARMUP" --copy-baseline --results "$OUT_DIR/fusion-fused.json" \
  | tee "$OUT_DIR/fusion.log"
mkdir -p "$OUT_DIR/fusion-unfused"
for fn in $("$PYTHON" -c 'import json, sys
print(" ".join(f["name"] for f in json.load(open(sys.argv[1]))["functions"]))' \
    "$KERNEL_DIR/unfused/manifest.json"); do
  "$FP8_RUN" "$KERNEL_DIR/unfused/manifest.json" --function "$fn" \
    --iters "$ITERS" --warmup "$WARMUP" \
    --results "$OUT_DIR/fusion-unfused/$fn.json" | tee -a "$OUT_DIR/fusion.log"
done
# The delayed functions whole, fused as unfused (a history's generic, the
# roll's slices and the fused kernel against the amax, fill, reduce,
# select, slices and quantization).
mkdir -p "$OUT_DIR/fusion-delayed"
for fn in $("$PYTHON" -c 'import json, sys
print(" ".join(f["name"] for f in json.load(open(sys.argv[1]))["functions"]
               if f["name"].startswith("delayed")))' \
    "$KERNEL_DIR/fused/manifest.json"); do
  "$FP8_RUN" "$KERNEL_DIR/fused/manifest.json" --function "$fn" \
    --iters "$ITERS" --warmup "$WARMUP" \
    --results "$OUT_DIR/fusion-delayed/$fn.json" | tee -a "$OUT_DIR/fusion.log"
done
"$PYTHON" - "$OUT_DIR" "$SHAPE" > "$OUT_DIR/fusion-delayed.md" <<'PY'
import json, os, sys
out, shape = sys.argv[1], sys.argv[2]
fused = json.load(open(os.path.join(out, "fusion-fused.json")))
print("# Delayed amax fused into its quantization (fp8.quantize_delayed), "
      "%s, %s\n" % (fused.get("device", "?"), shape))
print("| function | fused ms | unfused ms | fused vs unfused | kernel GB/s "
      "| % of copy |")
print("|---|---|---|---|---|---|")
for name in sorted(os.listdir(os.path.join(out, "fusion-delayed"))):
    fn = name[:-len(".json")]
    f = json.load(open(os.path.join(out, "fusion-delayed", name)))["time"]
    u = json.load(open(os.path.join(out, "fusion-unfused", name)))["time"]
    k = next((k for k in fused["kernels"]
              if k["name"].startswith(fn + "_quantize_delayed_")), None)
    gbps = k["time"]["gbps_median"] if k else 0.0
    copy = k.get("copy", {}).get("gbps_median") if k else None
    print("| %s | %.3f | %.3f | %.2fx | %.0f | %s |" % (
        fn, f["median_ms"], u["median_ms"], u["median_ms"] / f["median_ms"],
        gbps, "%.0f%%" % (100 * gbps / copy) if copy else "-"))
PY
cat "$OUT_DIR/fusion-delayed.md"
"$PYTHON" bench/torch_fusion.py --fused-results "$OUT_DIR/fusion-fused.json" \
  --unfused-dir "$OUT_DIR/fusion-unfused" --shape "$SHAPE" --iters "$ITERS" \
  --warmup "$WARMUP" --output "$OUT_DIR/fusion.md" || true
echo "fusion.sh: tables in $OUT_DIR/fusion.md and $OUT_DIR/fusion-delayed.md"
