#!/usr/bin/env bash
# The GEMMs of a training step's linear layers (bench/layer_gemms.mlir:
# Fprop, Dgrad and Wgrad of bench/layer.py's three shapes at 8192 tokens,
# every recipe, as fp8-pipeline makes them for sm_90a) timed by fp8-run
# beside cuBLASLt in one run: bench/gemm.sh on that file.
#
#   bench/layer_gemms.sh [KERNEL_DIR [OUT_DIR]]
#
# KERNEL_DIR defaults to build/gpu-layer-gemms, OUT_DIR to
# build/bench-layer-gemms; bench/layer_gemms.py regenerates the .mlir.
set -euo pipefail
cd "$(dirname "$0")/.."
GEMM_MLIR=bench/layer_gemms.mlir exec bench/gemm.sh \
  "${1:-build/gpu-layer-gemms}" "${2:-build/bench-layer-gemms}"
