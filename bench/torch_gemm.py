#!/usr/bin/env python3
"""cuBLASLt's FP8 GEMMs (torch._scaled_mm) timed beside fp8-run's, one table.

    torch_gemm.py [--manifest M --fp8-run-results R] [--shapes MxNxK,...]
                  [--iters N] [--warmup N] [--compile-times FILE]
                  [--peak TFLOPS] [--output FILE]

For every fp8.scaled_matmul kernel of the manifest (its "matmul": m, n, k,
a_scaling, b_scaling, accumulate, out_dtype; A and B dtypes from its
params) it times, on the current CUDA device, torch._scaled_mm on operands of
the same shape, fp8 types, scaling and output type, with use_fast_accum for
"fast" where the scales are constant along K (blockwise scales are promoted
either way; docs/Numerics.md), and puts it beside the kernel's time from
fp8-run's --results. Scalings reach _scaled_mm as check_gemm.py passes
them: tensorwise, rowwise, blockwise 1x128 / 128x128, coarser tiles expanded
exactly, and E8M0 scales are timed as the f32 scales they equal; others
(MXFP8 1x32 on sm_90) get no cuBLASLt time, with the reason below the
table.

For every shape (the manifest's and --shapes) a second table gives the
baselines: _scaled_mm tensorwise with use_fast_accum False and True, rowwise,
blockwise 1x128 x 128x128 (e4m3, bf16 out), and torch.mm in bf16.

Times are CUDA events between back-to-back calls, as fp8-run times its
launches: median and best of --iters after --warmup calls, L2 not flushed
between calls (at these sizes the operands of one call mostly do not fit
in the 50 MB L2 anyway, but the small-M shapes' B does). TFLOP/s =
2 M N K / time; for M <= 256, which is bandwidth bound, GB/s = bytes_moved /
time too. "of peak" is the fraction of --peak (default 1979, the dense FP8
rate of an H100/H200 SXM). The markdown (device, date, torch and CUDA
versions, and fp8-opt's compile times from --compile-times, lines
"NAME SECONDS") goes to stdout and --output.
"""

import argparse
import datetime
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Integration", "GPU"))
import check_gemm as cg  # noqa: E402

import torch  # noqa: E402

cg.import_torch()

SMALL_M = 256
BLOCKWISE = ([1, 128], [128, 128])
TORCH_FP8 = {"f8e4m3": torch.float8_e4m3fn, "f8e5m2": torch.float8_e5m2}
TORCH_OUT = {"bf16": torch.bfloat16, "f16": torch.float16,
             "f32": torch.float32}


def time_calls(fn, iters, warmup):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    events = [torch.cuda.Event(enable_timing=True) for _ in range(iters + 1)]
    events[0].record()
    for n in range(iters):
        fn()
        events[n + 1].record()
    torch.cuda.synchronize()
    times = [events[n].elapsed_time(events[n + 1]) for n in range(iters)]
    return statistics.median(times), min(times)


def tflops(flops, ms):
    return flops / (ms * 1e9) if ms else 0.0


def gbps(nbytes, ms):
    return nbytes / (ms * 1e6) if ms else 0.0


def form_shape(form, rows, K):
    """The [rows', K'] of a scale in one of check_gemm's torch forms."""
    kb = -(-K // 128)
    return {"tensor": (1, 1), "row": (rows, 1), "1x128": (rows, kb),
            "128x128": (-(-rows // 128), kb)}[form]


class Operands:
    """Random e4m3/e5m2 A [M, K] and B [N, K] and their bf16 versions, made
    once per shape and dtypes."""

    cache = {}

    @classmethod
    def get(cls, M, N, K, a_dtype="f8e4m3", b_dtype="f8e4m3"):
        key = (M, N, K, a_dtype, b_dtype)
        if key not in cls.cache:
            torch.manual_seed(0)
            a = torch.randn(M, K, device="cuda")
            b = torch.randn(N, K, device="cuda")
            cls.cache[key] = dict(
                a8=a.to(TORCH_FP8[a_dtype]), b8=b.to(TORCH_FP8[b_dtype]),
                a16=a.to(torch.bfloat16), b16=b.to(torch.bfloat16))
        return cls.cache[key]


def scaled_mm_call(M, N, K, forms, fast, out_dtype, a_dtype="f8e4m3",
                   b_dtype="f8e4m3"):
    """A closure calling torch._scaled_mm in this configuration."""
    ops = Operands.get(M, N, K, a_dtype, b_dtype)
    fa, fb = forms
    va = torch.rand(form_shape(fa, M, K), device="cuda") + 0.5
    vb = torch.rand(form_shape(fb, N, K), device="cuda") + 0.5
    sa, sb = cg.torch_scale_a(va, fa), cg.torch_scale_b(vb, fb)
    a8, b8t = ops["a8"], ops["b8"].t()
    out = TORCH_OUT[out_dtype]
    return lambda: torch._scaled_mm(a8, b8t, scale_a=sa, scale_b=sb,
                                    out_dtype=out, use_fast_accum=fast)


class Timer:
    """Times each configuration once; a configuration _scaled_mm rejects is
    remembered with the reason."""

    def __init__(self, iters, warmup):
        self.iters, self.warmup, self.done = iters, warmup, {}

    def scaled_mm(self, M, N, K, forms, fast, out_dtype, a_dtype="f8e4m3",
                  b_dtype="f8e4m3"):
        """((median ms, best ms), None) or (None, why)."""
        key = (M, N, K, forms, fast, out_dtype, a_dtype, b_dtype)
        if key not in self.done:
            try:
                fn = scaled_mm_call(M, N, K, forms, fast, out_dtype, a_dtype,
                                    b_dtype)
                self.done[key] = (time_calls(fn, self.iters, self.warmup),
                                  None)
            except (RuntimeError, ValueError, NotImplementedError) as e:
                self.done[key] = (None, str(e).strip().split("\n")[0][:120])
        return self.done[key]

    def bf16_mm(self, M, N, K):
        key = (M, N, K, "bf16")
        if key not in self.done:
            ops = Operands.get(M, N, K)
            a, bt = ops["a16"], ops["b16"].t()
            self.done[key] = (time_calls(lambda: torch.mm(a, bt), self.iters,
                                         self.warmup), None)
        return self.done[key]


def tile_text(tile):
    return "x".join("*" if t == -1 else str(t) for t in tile)


def describe(entry):
    """The matmul of a manifest kernel: dict(M, N, K, a/b tiles, scale
    types, dtypes, accumulate, out dtype), or None for other ops."""
    if entry.get("op") != "fp8.scaled_matmul" or "matmul" not in entry:
        return None
    mm = entry["matmul"]
    fp8 = [p for p in entry["params"] if p["role"] == "input" and
           p["dtype"] in TORCH_FP8]
    return dict(M=mm["m"], N=mm["n"], K=mm["k"],
                a_tile=mm["a_scaling"]["tile"], b_tile=mm["b_scaling"]["tile"],
                a_scale=mm["a_scaling"].get("scale", "f32"),
                b_scale=mm["b_scaling"].get("scale", "f32"),
                a_dtype=fp8[0]["dtype"] if fp8 else "f8e4m3",
                b_dtype=fp8[1]["dtype"] if len(fp8) > 1 else "f8e4m3",
                accumulate=mm.get("accumulate", "promoted"),
                out_dtype=mm.get("out_dtype", "bf16"),
                bytes=entry.get("bytes_moved", 0))


def read_compile_times(path):
    times = []
    if path and os.path.isfile(path):
        with open(path) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 2:
                    times.append((parts[0], float(parts[1])))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--manifest", help="the kernels' manifest.json")
    ap.add_argument("--fp8-run-results", help="fp8-run --results FILE")
    ap.add_argument("--shapes", default=None,
                    help="more MxNxK shapes for the baseline table (default: "
                    "the manifest's, or the standard set without one)")
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--compile-times", help="lines NAME SECONDS")
    ap.add_argument("--peak", type=float, default=1979.0,
                    help="dense FP8 TFLOP/s of the device (default 1979)")
    ap.add_argument("--output", help="also write the table here")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_gemm: no CUDA device")
    if args.warmup < 1 or args.iters < 1:
        sys.exit("torch_gemm: --iters and --warmup must be at least 1")

    kernels, results = [], {}
    if args.manifest:
        with open(args.manifest) as f:
            kernels = [k for k in json.load(f)["kernels"] if describe(k)]
    if args.fp8_run_results:
        with open(args.fp8_run_results) as f:
            results = {k["name"]: k for k in json.load(f)["kernels"]}
    default = ("4096x4096x4096,8192x8192x8192,8192x7168x2048,8192x2048x7168,"
               "16384x4096x14336,64x7168x2048,128x7168x2048")
    spec = args.shapes if args.shapes is not None else \
        ("" if kernels else default)
    shapes = [tuple(int(d) for d in s.split("x")) for s in spec.split(",")
              if s]
    for k in kernels:
        d = describe(k)
        if (d["M"], d["N"], d["K"]) not in shapes:
            shapes.append((d["M"], d["N"], d["K"]))

    timer = Timer(args.iters, args.warmup)
    peak = args.peak

    def flops(M, N, K):
        return 2.0 * M * N * K

    lines = []
    dev = torch.cuda.get_device_name()
    lines.append("## FP8 GEMM (fp8.scaled_matmul), %s, %s" %
                 (dev, datetime.date.today().isoformat()))
    lines.append("")
    lines.append("torch %s (CUDA %s); median (best) of %d calls after %d "
                 "warmup, CUDA events between back-to-back calls, L2 not "
                 "flushed; TFLOP/s = 2MNK / median time; of peak = of %g "
                 "TFLOP/s dense FP8; GB/s = bytes moved / median time, for "
                 "M <= %d." % (torch.__version__, torch.version.cuda,
                               args.iters, args.warmup, peak, SMALL_M))
    if args.manifest:
        lines.append("Kernels: %s." % args.manifest)
    compile_times = read_compile_times(args.compile_times)
    if compile_times:
        lines.append("fp8-opt compile time: %s." % ", ".join(
            "%s %.2f s" % t for t in compile_times))
    lines.append("")

    if kernels:
        lines.append("| shape MxNxK | kernel | scaling A x B | accumulate | "
                     "out | ours TFLOP/s | cuBLASLt TFLOP/s | ours / "
                     "cuBLASLt | ours of peak | cuBLASLt of peak | ours GB/s "
                     "| cuBLASLt GB/s |")
        lines.append("|---|---|---|---|---|---:|---:|---:|---:|---:|---:|"
                     "---:|")
    notes = []
    for k in kernels:
        d = describe(k)
        M, N, K = d["M"], d["N"], d["K"]
        f = flops(M, N, K)
        r = results.get(k["name"], {}).get("time")
        ours = r["median_ms"] if r else None
        forms, why = cg.scaled_mm_forms(d["a_tile"], d["b_tile"], M, N, K)
        theirs = None
        if forms is not None:
            fast = d["accumulate"] == "fast" and forms[0] in ("tensor", "row")
            t, why = timer.scaled_mm(M, N, K, forms, fast, d["out_dtype"],
                                     d["a_dtype"], d["b_dtype"])
            theirs = t[0] if t else None
        if why:
            notes.append("%s: no cuBLASLt time (%s)." % (k["name"], why))
        small = M <= SMALL_M
        cells = ["%dx%dx%d" % (M, N, K), k["name"],
                 "%s %s x %s %s" % (tile_text(d["a_tile"]), d["a_scale"],
                                    tile_text(d["b_tile"]), d["b_scale"]),
                 d["accumulate"], d["out_dtype"],
                 "%.0f" % tflops(f, ours) if ours else "",
                 "%.0f" % tflops(f, theirs) if theirs else "n/a",
                 "%.2f" % (theirs / ours) if ours and theirs else "",
                 "%.0f%%" % (100 * tflops(f, ours) / peak) if ours else "",
                 "%.0f%%" % (100 * tflops(f, theirs) / peak) if theirs else "",
                 "%.0f" % gbps(d["bytes"], ours) if small and ours else "",
                 "%.0f" % gbps(d["bytes"], theirs) if small and theirs
                 else ""]
        lines.append("| " + " | ".join(cells) + " |")
    if kernels:
        lines.append("")
        lines += notes
        if notes:
            lines.append("")

    # Baselines per shape: e4m3 operands, bf16 output.
    variants = [("tensorwise", ("tensor", "tensor"), False),
                ("tensorwise fast", ("tensor", "tensor"), True),
                ("rowwise", ("row", "row"), False),
                ("blockwise 1x128 x 128x128", ("1x128", "128x128"), False)]
    lines.append("Baselines (e4m3, bf16 out; TFLOP/s, of peak in brackets):")
    lines.append("")
    lines.append("| shape MxNxK | " + " | ".join(
        "cuBLASLt %s" % v[0] for v in variants) + " | bf16 torch.mm |")
    lines.append("|---|" + "---:|" * (len(variants) + 1))
    skipped = []
    for M, N, K in shapes:
        f = flops(M, N, K)
        cells = ["%dx%dx%d" % (M, N, K)]
        for name, forms, fast in variants:
            t, why = timer.scaled_mm(M, N, K, forms, fast, "bf16")
            if t is None:
                cells.append("n/a")
                skipped.append("%dx%dx%d %s: %s" % (M, N, K, name, why))
            else:
                cells.append("%.0f (%.0f%%)" % (tflops(f, t[0]),
                                                100 * tflops(f, t[0]) / peak))
        t, _ = timer.bf16_mm(M, N, K)
        cells.append("%.0f" % tflops(f, t[0]))
        lines.append("| " + " | ".join(cells) + " |")
    if skipped:
        lines.append("")
        lines += ["Not run: %s." % s for s in skipped]
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
