#!/usr/bin/env python3
"""Grouped GEMMs (fp8.grouped_scaled_matmul) beside G separate GEMMs, one table.

    torch_grouped_gemm.py --manifest M --fp8-run-results R [--iters N]
                          [--warmup N] [--peak TFLOPS] [--output FILE]

For every grouped kernel of the manifest (run by fp8-run --even-groups, so
each of its G groups has M / G rows, or its full capacity when masked) the
table gives its time beside:
  - G separate calls of our GEMM: G times the time of the manifest's plain
    fp8.scaled_matmul kernel of one group's shape (m x K times N x K, the
    same scalings and output), where the manifest has one;
  - G separate calls of torch._scaled_mm (cuBLASLt), timed as one loop over
    G different experts' operands (so that, as in the grouped kernel, no
    call finds its B in L2 from the call before), in the form check_gemm.py
    passes the scalings (blockwise 1x128 x 128x128 on sm_90).
Times are CUDA events over back-to-back runs: median and best of --iters
after --warmup. TFLOP/s = 2 (G m) N K / time; "of peak" is of --peak
(default 1979, the dense FP8 rate of an H100/H200 SXM). The markdown
(device, date, torch and CUDA versions) goes to stdout and --output.
"""

import argparse
import datetime
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import torch_gemm as tg  # noqa: E402

torch = tg.torch
cg = tg.cg


def describe(entry):
    """(G, m per group, N, K, layout, scalings, out dtype, a dtype) of a
    grouped kernel's manifest entry."""
    mm = entry["matmul"]
    groups = mm["groups"]
    G = groups["count"]
    m = groups["capacity"] if groups["layout"] == "masked" else mm["m"] // G
    a = next(p for p in entry["params"] if p["name"] == "a")
    return dict(G=G, m=m, N=mm["n"], K=mm["k"], layout=groups["layout"],
                a_tile=mm["a_scaling"]["tile"], b_tile=mm["b_scaling"]["tile"],
                out=mm["out_dtype"], a_dtype=a["dtype"],
                fast=mm.get("accumulate") == "fast")


def plain_match(kernels, d):
    """The manifest's plain GEMM of one group's shape and scalings."""
    for k in kernels:
        mm = k.get("matmul")
        if k.get("op") != "fp8.scaled_matmul" or not mm:
            continue
        if (mm["m"], mm["n"], mm["k"]) == (d["m"], d["N"], d["K"]) and \
                mm["a_scaling"]["tile"] == d["a_tile"] and \
                mm["b_scaling"]["tile"] == d["b_tile"] and \
                mm["out_dtype"] == d["out"]:
            return k
    return None


def torch_loop(d, iters, warmup):
    """((median, best) ms of G _scaled_mm calls, None) or (None, why)."""
    G, m, N, K = d["G"], d["m"], d["N"], d["K"]
    forms, why = cg.scaled_mm_forms(d["a_tile"], d["b_tile"], m, N, K)
    if forms is None:
        return None, why
    torch.manual_seed(0)
    fa, fb = forms
    out = tg.TORCH_OUT[d["out"]]
    calls = []
    for _ in range(G):
        a8 = torch.randn(m, K, device="cuda").to(tg.TORCH_FP8[d["a_dtype"]])
        b8 = torch.randn(N, K, device="cuda").to(torch.float8_e4m3fn)
        va = torch.rand(tg.form_shape(fa, m, K), device="cuda") + 0.5
        vb = torch.rand(tg.form_shape(fb, N, K), device="cuda") + 0.5
        calls.append((a8, b8.t(), cg.torch_scale_a(va, fa),
                      cg.torch_scale_b(vb, fb)))

    def run():
        for a8, b8t, sa, sb in calls:
            torch._scaled_mm(a8, b8t, scale_a=sa, scale_b=sb, out_dtype=out,
                             use_fast_accum=d["fast"])
    try:
        return tg.time_calls(run, iters, warmup), None
    except (RuntimeError, ValueError, NotImplementedError) as e:
        return None, str(e).strip().split("\n")[0][:120]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--fp8-run-results", required=True)
    ap.add_argument("--iters", type=int, default=50)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--peak", type=float, default=1979.0)
    ap.add_argument("--output")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_grouped_gemm: no CUDA device")
    with open(args.manifest) as f:
        kernels = json.load(f)["kernels"]
    with open(args.fp8_run_results) as f:
        results = {k["name"]: k for k in json.load(f)["kernels"]}

    def ours(name):
        r = results.get(name, {}).get("time")
        return (r["median_ms"], r["min_ms"]) if r else None

    lines = ["## Grouped FP8 GEMM (fp8.grouped_scaled_matmul), %s, %s" %
             (torch.cuda.get_device_name(),
              datetime.date.today().isoformat()),
             "",
             "torch %s (CUDA %s); median (best) of %d runs after %d; groups "
             "of equal size (fp8-run --even-groups); TFLOP/s = 2 (G m) N K / "
             "median; of peak = of %g TFLOP/s." %
             (torch.__version__, torch.version.cuda, args.iters, args.warmup,
              args.peak),
             "",
             "| G x m, N, K | layout | grouped ms (best) | TFLOP/s | of peak "
             "| G x our GEMM ms | grouped speedup | G x _scaled_mm ms | vs "
             "_scaled_mm |",
             "|---|---|---|---|---|---|---|---|---|"]
    notes = []
    for k in kernels:
        if k.get("op") != "fp8.grouped_scaled_matmul":
            continue
        d = describe(k)
        flops = 2.0 * d["G"] * d["m"] * d["N"] * d["K"]
        g = ours(k["name"])
        plain = plain_match(kernels, d)
        p = ours(plain["name"]) if plain else None
        t, why = torch_loop(d, args.iters, args.warmup)
        if why:
            notes.append("%s: no _scaled_mm time (%s)" % (k["name"], why))

        def ms(v):
            return "%.3f (%.3f)" % v if v else "-"
        cells = ["%d x %d, %d, %d" % (d["G"], d["m"], d["N"], d["K"]),
                 d["layout"], ms(g),
                 "%.0f" % (flops / g[0] / 1e9) if g else "-",
                 "%.0f%%" % (100 * flops / g[0] / 1e9 / args.peak) if g
                 else "-",
                 "%.3f" % (d["G"] * p[0]) if p else "-",
                 "%.2fx" % (d["G"] * p[0] / g[0]) if p and g else "-",
                 "%.3f" % t[0] if t else "-",
                 "%.2fx" % (t[0] / g[0]) if t and g else "-"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += [""] + ["- " + n for n in notes]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
