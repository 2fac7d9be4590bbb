#!/bin/bash
# Runs one part of an fp8-fuzz campaign from a bundle that pack.sh made:
# JOBS libFuzzer processes for SECONDS each on the corpus in ./corpus (kept
# between parts), crash and timeout inputs in ./artifacts, one log per
# process (fuzz-N.log). Prints how many inputs the part ran in all.
set -u
JOBS=${JOBS:-$(nproc)}
SECONDS_PER_PART=${SECONDS_PER_PART:-520}
bundle=$(cd "$(dirname "$0")" && pwd)
mkdir -p corpus artifacts
export LD_LIBRARY_PATH=$bundle/lib
export ASAN_OPTIONS=allow_user_poisoning=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export FP8_FUZZ_STATS=1
"$bundle/fp8-fuzz" -timeout=10 -rss_limit_mb=4096 -max_len=8192 \
  -print_final_stats=1 -max_total_time="$SECONDS_PER_PART" \
  -jobs="$JOBS" -workers="$JOBS" -artifact_prefix="$PWD/artifacts/" \
  corpus "$bundle/seeds" > launcher.log 2>&1
grep -h "stat::number_of_executed_units" fuzz-*.log |
  awk '{n += $2} END {print "inputs:", n}'
grep -h "^fp8-fuzz:" fuzz-*.log | awk '{for (i = 2; i <= NF; i++) if ($i ~ /^[0-9]+$/) s[i] += $i}
  END {printf "stages:"; for (i in s) printf " %d", s[i]; print ""}'
ls artifacts
