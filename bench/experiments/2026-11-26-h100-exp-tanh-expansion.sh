#!/bin/bash
# exp and tanh expansions on the H100: bits against MLIR's expansion, then time.
set -u
D=.device/me
[ -x build-run/bin/fp8-run ] || { cmake -G Ninja -S tools/fp8-run -B build-run -DCMAKE_BUILD_TYPE=Release >/dev/null && ninja -C build-run >/dev/null; }
R=build-run/bin/fp8-run
nvidia-smi --query-gpu=name,clocks.max.sm,driver_version --format=csv,noheader; date -u
cmpres() { python3 - "$@" <<'PY'
import sys, numpy as np
a, b, dt = sys.argv[1], sys.argv[2], sys.argv[3]
dt = {'f32': np.uint32, 'bf16': np.uint16}[dt]
x = np.fromfile(a, dtype=dt); y = np.fromfile(b, dtype=dt)
if dt == np.uint32:
    nan = lambda v: ((v & 0x7F800000) == 0x7F800000) & ((v & 0x7FFFFF) != 0)
else:
    nan = lambda v: ((v & 0x7F80) == 0x7F80) & ((v & 0x7F) != 0)
bad = (x != y) & ~(nan(x) & nan(y))
n = int(bad.sum())
print("%s: %d of %d differ%s" % ("ok  " if n == 0 else "DIFF", n, x.size,
      "" if n == 0 else "; first " + str([(hex(x[i]), hex(y[i])) for i in np.nonzero(bad)[0][:6]])))
PY
}
echo "== exp: MLIR's expansion (exp-before) vs ExpToArith (exp-after), random bits and specials"
for fn in exp_bits:f32 exp_wide:f32 silu_bf16:bf16; do
  f=${fn%%:*}; t=${fn#*:}
  for run in "0:" "1:" "2:--specials" "3:--specials"; do
    seed=${run%%:*}; extra=${run#*:}; rm -rf /tmp/b /tmp/a
    $R $D/exp-before/manifest.json --function $f --seed $seed $extra --iters 0 --dump /tmp/b >/dev/null || echo "run fail"
    $R $D/exp-after/manifest.json --function $f --iters 0 --inputs-from /tmp/b --dump /tmp/a >/dev/null || echo "run fail"
    echo -n "$f seed $seed $extra: "; cmpres /tmp/b/$f/result0.bin /tmp/a/$f/result0.bin $t
  done
done
echo "== tanh: every non-negative f32 below 2^33 (5 chunks of 2^28), MLIR (before) vs a1, a2"
mkdir -p /tmp/in/tanh_chunk
for k in 0 1 2 3 4; do
  python3 -c "import numpy as np; (np.arange($k<<28, ($k+1)<<28, dtype=np.uint64).astype(np.uint32)).tofile('/tmp/in/tanh_chunk/arg0.bin')"
  for v in before a1 a2; do rm -rf /tmp/o_$v; $R $D/tanh-$v/manifest.json --function tanh_chunk --iters 0 --inputs-from /tmp/in --dump /tmp/o_$v > /dev/null || echo "run fail $v"; done
  for v in a1 a2; do echo -n "tanh chunk $k $v: "; cmpres /tmp/o_before/tanh_chunk/result0.bin /tmp/o_$v/tanh_chunk/result0.bin f32; done
  rm -rf /tmp/o_*
done
echo "== tanh negatives (a sample chunk), random and specials"
python3 -c "import numpy as np; (np.arange(0x40000000, 0x50000000, dtype=np.uint64).astype(np.uint32) | np.uint32(0x80000000)).tofile('/tmp/in/tanh_chunk/arg0.bin')"
for v in before a1 a2; do rm -rf /tmp/o_$v; $R $D/tanh-$v/manifest.json --function tanh_chunk --iters 0 --inputs-from /tmp/in --dump /tmp/o_$v > /dev/null; done
for v in a1 a2; do echo -n "tanh negative chunk $v: "; cmpres /tmp/o_before/tanh_chunk/result0.bin /tmp/o_$v/tanh_chunk/result0.bin f32; done
rm -rf /tmp/o_* /tmp/in
for run in "0:" "1:--specials" "2:--specials"; do
  seed=${run%%:*}; extra=${run#*:}; rm -rf /tmp/b /tmp/a1 /tmp/a2
  $R $D/tanh-before/manifest.json --function tanh_small --seed $seed $extra --iters 0 --dump /tmp/b >/dev/null
  for v in a1 a2; do $R $D/tanh-$v/manifest.json --function tanh_small --iters 0 --inputs-from /tmp/b --dump /tmp/$v >/dev/null; echo -n "tanh_small seed $seed $extra $v: "; cmpres /tmp/b/tanh_small/result0.bin /tmp/$v/tanh_small/result0.bin f32; done
done
echo "== GELU bf16: every bf16 input (65536 patterns x 256)"
mkdir -p /tmp/in/gelu_bf16
python3 -c "import numpy as np; np.tile(np.arange(65536, dtype=np.uint32).astype(np.uint16), 256).tofile('/tmp/in/gelu_bf16/arg0.bin')"
for v in before a1 a2; do rm -rf /tmp/g_$v; $R $D/tanh-$v/manifest.json --function gelu_bf16 --iters 0 --inputs-from /tmp/in --dump /tmp/g_$v > /dev/null; done
for v in a1 a2; do echo -n "gelu_bf16 all inputs $v: "; cmpres /tmp/g_before/gelu_bf16/result0.bin /tmp/g_$v/gelu_bf16/result0.bin bf16; done
echo "== timing (% of copy; medians of 200)"
t() { echo -n "$1 $3: "; $R $2/manifest.json --kernel $3 --iters 200 --warmup 20 --copy-baseline 2>&1 | grep -o "kernel bandwidth: [0-9.]*% of the copy's" | head -1; }
for k in gelu_bf16_generic_2 tanh_small_generic_1; do for v in before a1 a2 before a1 a2; do t $v $D/tanh-$v $k; done; done
for k in gelu_ct_quantize_elementwise_t_0 gelu_ct_kept_quantize_elementwise_t_1 dgelu_ct_quantize_elementwise_t_2 gelu_ct_tma_quantize_elementwise_t_9 swiglu_ct_kept_quantize_elementwise_t_4 swiglu_1x128_quantize_elementwise_3; do
  for v in before a1 a2 before a1 a2; do t $v $D/fus-$v/fused $k; done
done
for v in orig new orig new; do d=$D/before-fus/fused; [ $v = new ] && d=$D/fus-a1/fused; t $v $d swiglu_1x128_quantize_elementwise_3; done
echo "== check_fusion on a1 and a2 (fused == unfused), seed 1"
for v in a1 a2; do python3 test/Integration/GPU/check_fusion.py $D/fus-$v --fp8-run $R --seeds 1 --only 'gelu|swiglu|bias' 2>&1 | tail -14; done
date -u
