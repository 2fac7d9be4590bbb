#!/usr/bin/env bash
# Emits the PTX of every kernel of the GPU tests, the benchmark and the PTX
# tests, so that a refactoring can show that it changes no kernel:
#
#   utils/ptx-identity.sh save    DIR [FP8_OPT]   # before the change
#   utils/ptx-identity.sh compare DIR [FP8_OPT]   # after: exit 1 on any diff
#
# Each input file's kernels go to DIR/<input-name>/. The comparison ignores
# PTX comment lines (the header fp8-emit writes, LLVM's banner) and the
# debug line info (both emitted with line info off), so what it compares is
# the code: every instruction, register and directive.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}; dir=${2:-}; fp8_opt=${3:-build/bin/fp8-opt}
if [ -z "$mode" ] || [ -z "$dir" ] || { [ "$mode" != save ] && [ "$mode" != compare ]; }; then
  echo "usage: $0 save|compare DIR [FP8_OPT]" >&2
  exit 2
fi
inputs="test/Integration/GPU/gemm.mlir test/Integration/GPU/quantize.mlir
        bench/gemm.mlir $(ls test/Conversion/FP8ToNVVM/*-ptx.mlir)"
# fp8-emit with its options (line info off: it changes no instruction), or
# the older `--fp8-emit=DIR` of a baseline built before they existed.
if "$fp8_opt" --help | grep -c "line-info" > /dev/null; then
  emit() { "$fp8_opt" "$1" "--fp8-emit=dir=$2 line-info=false" -o /dev/null; }
else
  emit() { "$fp8_opt" "$1" "--fp8-emit=$2" -o /dev/null; }
fi
out=$dir
[ "$mode" = compare ] && out=$(mktemp -d)
for input in $inputs; do
  name=$(basename "$input" .mlir)-$(basename "$(dirname "$input")")
  mkdir -p "$out/$name"
  emit "$input" "$out/$name"
  # Code only: drop comment lines.
  for f in "$out/$name"/*.ptx; do
    grep -v '^[[:space:]]*//' "$f" > "$f.code"; mv "$f.code" "$f"
  done
  rm -f "$out/$name/manifest.json"
done
[ "$mode" = save ] && { echo "saved $(ls "$dir"/*/*.ptx | wc -l) kernels in $dir"; exit 0; }
if diff -r "$dir" "$out" > "$out.diff"; then
  echo "identical: $(ls "$out"/*/*.ptx | wc -l) kernels"
  rm -rf "$out" "$out.diff"
else
  echo "PTX differs (diff in $out.diff):" >&2
  grep '^diff\|^Only' "$out.diff" | head -20 >&2
  exit 1
fi
