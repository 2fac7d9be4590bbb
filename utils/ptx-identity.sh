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
        bench/gemm.mlir bench/layer_gemms.mlir
        $(ls test/Conversion/FP8ToNVVM/*-ptx.mlir)"
# fp8-emit with its options (line info off: it changes no instruction), or
# the older `--fp8-emit=DIR` of a baseline built before they existed.
# The chip is the one the input's RUN lines name (sm_90a if none). An input
# that does not emit (its RUN lines run passes first) leaves a note of that,
# so that a change in what emits is a difference too.
if "$fp8_opt" --help | grep -c "line-info" > /dev/null; then
  emit() {
    local chip
    chip=$(grep -o 'chip=sm_[0-9]*a' "$1" | head -1 || true)
    "$fp8_opt" "$1" "--fp8-emit=dir=$2 line-info=false ${chip}" -o /dev/null \
      2> /dev/null || echo "emission failed" > "$2/FAILED"
  }
else
  emit() { "$fp8_opt" "$1" "--fp8-emit=$2" -o /dev/null 2> /dev/null ||
             echo "emission failed" > "$2/FAILED"; }
fi
out=$dir
[ "$mode" = compare ] && out=$(mktemp -d)
for input in $inputs; do
  name=$(basename "$input" .mlir)-$(basename "$(dirname "$input")")
  mkdir -p "$out/$name"
  if grep -q '^//--- ' "$input"; then
    # A split-file test: each part's kernels go to a folder of their own.
    parts=$(mktemp -d)
    "$(command -v split-file || echo /usr/lib/llvm-22/bin/split-file)" "$input" "$parts"
    for part in "$parts"/*.mlir; do
      mkdir -p "$out/$name/$(basename "$part" .mlir)"
      emit "$part" "$out/$name/$(basename "$part" .mlir)"
    done
    rm -rf "$parts"
  else
    emit "$input" "$out/$name"
  fi
  # Code only: drop comment lines.
  find "$out/$name" -name '*.ptx' | while read -r f; do
    grep -v '^[[:space:]]*//' "$f" > "$f.code"; mv "$f.code" "$f"
  done
  find "$out/$name" -name manifest.json -delete
done
[ "$mode" = save ] && { echo "saved $(find "$dir" -name '*.ptx' | wc -l) kernels in $dir"; exit 0; }
if diff -r "$dir" "$out" > "$out.diff"; then
  echo "identical: $(find "$out" -name '*.ptx' | wc -l) kernels"
  rm -rf "$out" "$out.diff"
else
  echo "PTX differs (diff in $out.diff):" >&2
  grep '^diff\|^Only' "$out.diff" | head -20 >&2
  exit 1
fi
