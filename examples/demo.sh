#!/bin/sh
# `make demo`: what fp8-opt does at this stage, on the files in examples/.
set -e
FP8_OPT=${1:-build/bin/fp8-opt}
DIR=$(dirname "$0")

banner() { printf '\n=== %s ===\n' "$1"; }

banner "round trip: the linear layer's Fprop, Dgrad and Wgrad under blockwise scaling"
"$FP8_OPT" "$DIR/linear_blockwise.mlir"

banner "the contracted-dimension rule: a 1x128 tile cannot serve Wgrad (expected error)"
if "$FP8_OPT" "$DIR/invalid_wgrad_tile.mlir" 2>&1; then
  echo "demo: the verifier accepted an invalid tile" >&2
  exit 1
fi

banner "recipe presets"
printf '%s\n' \
  'func.func private @presets() attributes {' \
  '  tensorwise = #fp8.recipe<tensorwise>, delayed = #fp8.recipe<delayed>,' \
  '  blockwise = #fp8.recipe<blockwise>, mxfp8 = #fp8.recipe<mxfp8>,' \
  '  custom = #fp8.recipe<mxfp8_ocp, hadamard = 32, stochastic_gradients = true>}' |
  "$FP8_OPT"
