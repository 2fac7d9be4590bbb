#!/usr/bin/env python3
"""Kernel launches and bytes moved of the MLP (GELU) and SwiGLU blocks,
before and after fp8-fuse-quantization's producer fusion (issue 15, item 5).

    bench/fusion_counts.py [--fp8-opt PATH] [--tokens M] [--dim D]
                           [--hidden H] [--recipes a,b] [--output FILE]

Compiles python/fp8_mlir/graphs.py's `mlp` (activation gelu and swiglu,
forward and backward) for sm_90a twice: "before" with fp8-pipeline's
passes and fp8-fuse-quantization{producers=false scales=false} (the
cast-transpose only), "after" with fp8-pipeline itself (producers and the
TMA scale re-layouts fused too). From each launch plan it counts
the launches of @mlp_fwd and @mlp_bwd, and sums the launches' bytes_moved
(what each kernel must read and write: docs/Manifest.md), all of them and
those of the non-GEMM kernels (the memory-bound part fusion acts on). No
GPU needed; the markdown table goes to stdout and --output.
"""

import argparse
import datetime
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))

from fp8_mlir import graphs  # noqa: E402

BEFORE = ("--fp8-quantize-matmuls=recipe={recipe}", "--fp8-derive-scaling",
          "--fp8-legalize=chip=sm_90a", "--canonicalize", "--cse",
          "--fp8-fuse-quantization=producers=false scales=false")
AFTER = ("--fp8-pipeline=recipe={recipe} chip=sm_90a",)


def plan_counts(fp8_opt, source, passes, recipe, work):
    """{function: (launches, bytes, non-GEMM launches, non-GEMM bytes)}."""
    out = os.path.join(work, "emit")
    subprocess.run(["rm", "-rf", out], check=True)
    subprocess.run([fp8_opt, source] +
                   [p.format(recipe=recipe) for p in passes] +
                   ["--fp8-emit=dir=%s" % out, "-o", os.devnull], check=True)
    with open(os.path.join(out, "manifest.json")) as f:
        manifest = json.load(f)
    kernels = {k["name"]: k for k in manifest["kernels"]}
    counts = {}
    for fn in manifest["functions"]:
        launches = [kernels[l["kernel"]] for l in fn["launches"]]
        other = [k for k in launches if k["op"] != "fp8.scaled_matmul"]
        counts[fn["name"]] = (len(launches),
                              sum(k["bytes_moved"] for k in launches),
                              len(other), sum(k["bytes_moved"] for k in other))
    return counts


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fp8-opt",
                        default=os.path.join(REPO, "build", "bin", "fp8-opt"))
    parser.add_argument("--tokens", type=int, default=8192)
    parser.add_argument("--dim", type=int, default=4096)
    parser.add_argument("--hidden", type=int, default=14336)
    parser.add_argument("--recipes",
                        default="blockwise,tensorwise,rowwise,mxfp8")
    parser.add_argument("--output")
    args = parser.parse_args()
    gib = float(1 << 30)
    lines = [
        "# Producer fusion: kernels and bytes of the MLP and SwiGLU blocks",
        "",
        "%s, fp8-opt (sm_90a launch plans, no GPU), graphs.mlp with "
        "%d tokens, dim %d, hidden %d, bf16; `bench/fusion_counts.py`." %
        (datetime.date.today().isoformat(), args.tokens, args.dim,
         args.hidden),
        "Before: the cast-transpose only (`fp8-fuse-quantization{producers="
        "false scales=false}`); after: `fp8-pipeline` (producers and TMA "
        "scale re-layouts fused). Bytes are the "
        "sum of the launches' `bytes_moved` (GiB); \"other\" excludes the "
        "GEMMs.",
        "",
        "| block | recipe | function | launches before | after | other "
        "launches before | after | bytes before | after | other bytes "
        "before | after | other bytes saved |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory() as work:
        for activation in ("gelu", "swiglu"):
            source = os.path.join(work, activation + ".mlir")
            with open(source, "w") as f:
                f.write(graphs.mlp(args.tokens, args.dim, args.hidden,
                                   activation))
            for recipe in args.recipes.split(","):
                before = plan_counts(args.fp8_opt, source, BEFORE, recipe,
                                     work)
                after = plan_counts(args.fp8_opt, source, AFTER, recipe,
                                    work)
                for fn in sorted(before):
                    b, a = before[fn], after[fn]
                    saved = 1 - a[3] / b[3] if b[3] else 0.0
                    lines.append(
                        "| %s | %s | %s | %d | %d | %d | %d | %.2f | %.2f | "
                        "%.2f | %.2f | %.0f%% |" %
                        ("MLP (GELU)" if activation == "gelu" else "SwiGLU",
                         recipe, fn, b[0], a[0], b[2], a[2], b[1] / gib,
                         a[1] / gib, b[3] / gib, a[3] / gib, 100 * saved))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
