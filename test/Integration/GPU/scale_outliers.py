#!/usr/bin/env python3
"""Inputs for the GEMM kernels with a few scales outside [2^-63, 2^63].

    scale_outliers.py DUMP OUT

DUMP is what `fp8-run MANIFEST --dump DUMP` wrote (seeded inputs). For every
kernel there, OUT/KERNEL/NAME.bin receives each input unchanged but for the
f32 scales of an fp8.scaled_matmul: A's first and last scale times 2^66, and
B's second (or only) scale times 2^-70. Run the same manifest on them with
`fp8-run MANIFEST --inputs-from OUT --dump DIR` and check DIR with
check_gemm.py.

Why: seeded scales lie far inside [2^-63, 2^63] (below 2^19 in magnitude,
almost never 0), where promotion takes its cheap form, and a kernel that
checks a tile's scales once before the K loop (docs/gpu/gemm-sm90a.md)
then always runs its loop without the per-block test. These few outliers send the tiles that hold them down the
tested path, and every other tile of the same kernel down the checked one,
while every product stays a finite f32: both paths meet the reference in
one run. Powers of two keep the scaled inputs exact.
"""

import array
import json
import os
import shutil
import sys

A_FACTOR = 2.0 ** 66
B_FACTOR = 2.0 ** -70


def scaled(values, index, factor):
    values[index] = values[index] * factor


def write_kernel(kernel_dir, out_dir):
    with open(os.path.join(kernel_dir, "meta.json")) as f:
        meta = json.load(f)
    entry = meta["entry"]
    matmul = entry.get("op") == "fp8.scaled_matmul"
    os.makedirs(out_dir, exist_ok=True)
    inputs = [p for p in entry["params"] if p["role"] == "input"]
    # Other kernels' inputs are copied as they are (fp8-run reads every
    # kernel's from OUT).
    f32_scales = [p["name"] for p in inputs
                  if matmul and p["dtype"] == "f32"]
    for p in inputs:
        source = os.path.join(kernel_dir, meta["files"][p["name"]])
        target = os.path.join(out_dir, p["name"] + ".bin")
        if p["name"] not in f32_scales:
            shutil.copyfile(source, target)
            continue
        values = array.array("f")
        with open(source, "rb") as f:
            values.frombytes(f.read())
        if sys.byteorder != "little":
            values.byteswap()
        if p["name"] == f32_scales[0]:
            scaled(values, 0, A_FACTOR)
            scaled(values, len(values) - 1, A_FACTOR)
        else:
            scaled(values, min(1, len(values) - 1), B_FACTOR)
        if sys.byteorder != "little":
            values.byteswap()
        with open(target, "wb") as f:
            f.write(values.tobytes())
    return matmul


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    dump, out = argv[1], argv[2]
    written = 0
    for name in sorted(os.listdir(dump)):
        kernel_dir = os.path.join(dump, name)
        if os.path.isfile(os.path.join(kernel_dir, "meta.json")):
            written += write_kernel(kernel_dir, os.path.join(out, name))
    if not written:
        sys.stderr.write("scale_outliers.py: no fp8.scaled_matmul kernel in "
                         "%s\n" % dump)
        return 1
    print("scale_outliers.py: %d kernels' inputs in %s" % (written, out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
