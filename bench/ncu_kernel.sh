#!/usr/bin/env bash
# Profiles kernels that fp8-opt emitted, on the GPU machine: for each
# KERNEL of DIR/manifest.json, its SASS (ptxas + cuobjdump) and one Nsight
# Compute launch with the sections that say where a kernel's cycles go
# (speed of light, warp states and stall reasons, scheduler, instruction
# mix, pipes, memory, source-level stall sampling), plus the tensor-pipe
# and FMA-pipe utilization; and the fp8-run timings of the whole manifest.
#
#   bench/ncu_kernel.sh DIR OUT_DIR KERNEL [KERNEL ...]
#
# E.g. the blockwise Wgrad and Fprop of the layer table (issue 37):
#   awk 'NR<=4 || /wgrad_blockwise_4096x14336x8192|fprop_blockwise_8192x4096x14336/,/^}/' \
#     bench/layer_gemms.mlir > /tmp/wg.mlir
#   build/bin/fp8-opt /tmp/wg.mlir --fp8-emit=dir=build/gpu-wg -o /dev/null
#   # (carry build/gpu-wg to the GPU machine)
#   bench/ncu_kernel.sh build/gpu-wg $OUT wgrad_blockwise_4096x14336x8192_gemm_2 \
#     fprop_blockwise_8192x4096x14336_gemm_1
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { sed -n '2,18p' "$0"; exit 2; }
DIR=$1 OUT_DIR=$2; shift 2
mkdir -p "$OUT_DIR"
cmake -G Ninja -S tools/fp8-run -B build-run -DCMAKE_BUILD_TYPE=Release >/dev/null &&
  ninja -C build-run >/dev/null || exit 1
RUN=build-run/bin/fp8-run
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$OUT_DIR/device.txt"
$RUN "$DIR/manifest.json" --iters 30 --warmup 5 > "$OUT_DIR/time.log" 2>&1
grep -E "^kernel|median" "$OUT_DIR/time.log"
for k in "$@"; do
  ptxas -arch=sm_90a "$DIR/$k.ptx" -o "/tmp/$k.cubin" &&
    cuobjdump -sass "/tmp/$k.cubin" > "$OUT_DIR/$k.sass"
  timeout 300 ncu --section SpeedOfLight --section WarpStateStats \
    --section SchedulerStats --section InstructionStats \
    --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section SourceCounters --section LaunchStats --section Occupancy \
    --metrics sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,smsp__inst_executed.sum \
    --kernel-name "$k" --launch-count 1 \
    $RUN "$DIR/manifest.json" --kernel "$k" --iters 0 > "$OUT_DIR/ncu-$k.txt" 2>&1
  echo "== $k"
  grep -E "Duration|gmma|Issued Warp|Eligible Warps|No Eligible|Warp Cycles Per Issued|pipe_fma" \
    "$OUT_DIR/ncu-$k.txt" | head -20
done
