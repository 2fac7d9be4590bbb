"""Compares the printed errors of hadamard-pass.mlir's three runs.

Each run prints two memrefs of [relative Frobenius error, max relative
error]: first the f32 product of rotated operands against the plain f32
product, then the quantized layer against the f32 product. The first must
be at f32 rounding level, and each rotated layer must be more accurate than
the plain one by more than a factor of 1.25.
"""

import re
import sys


def errors(path):
    values = []
    with open(path) as f:
        for line in f:
            if line.startswith("["):
                values.append([float(v) for v in re.findall(r"[-+0-9.e]+", line)])
    return values


plain, rotated, signed = (errors(p) for p in sys.argv[1:4])
worst = max(run[0][1] for run in (plain, rotated, signed))
ok = worst < 1e-5
print("f32 product, rotated vs plain: max relative difference %s 1e-05" %
      ("below" if ok else "NOT below"))
print("quantized, plain: relative error %.4g" % plain[1][0])
for name, run in (("rotated", rotated), ("rotated with signs", signed)):
    better = run[1][0] * 1.25 < plain[1][0]
    ok &= better
    print("quantized, %s: relative error %.4g, smaller by a factor %s 1.25"
          % (name, run[1][0], "above" if better else "NOT above"))
sys.exit(0 if ok else 1)
