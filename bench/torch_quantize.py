#!/usr/bin/env python3
"""torch.compile's quantization kernels, timed beside fp8-run's, one table.

    torch_quantize.py [--shapes 8192x8192,16384x7168] [--iters N] [--warmup N]
                      [--manifest M --fp8-run-results R] [--output FILE]

For each shape (and each bf16 input shape in the manifest) it times, on the
current CUDA device:
  - a bf16 copy (x.clone()): the bandwidth ceiling as torch sees it;
  - torch.compile of 1x128 quantization to e4m3 (f32 dequant scales);
  - torch.compile of the fused job: x quantized 1x128 along its rows and x^T
    quantized 1x128 along its rows (the Wgrad operand), from one input;
and, for every kernel of the manifest, torch.compile of the same job (same
shape, element type, tile, scale type and rounding; both outputs for a fused
quantize+transpose kernel). A stochastic-rounding kernel's job draws its
random bits with torch.randint inside the compiled graph (Inductor's own
Philox: what a PyTorch user would write, not the reference's bits); an
fp8.hadamard kernel's job is the butterfly of docs/Numerics.md on bf16 rows
(f32 adds and subtracts per stage, bit-identical to the kernel). The quantization is docs/Design.md section 4, written
with the scale rules of test/Integration/GPU/check_quantize.py (which checks
them bit for bit against oracle.py).

Times are CUDA events between back-to-back calls (as fp8-run times its
launches): median and best of --iters after --warmup calls, the first of which
compiles. GB/s = bytes read + written / time, with the manifest's bytes_moved
for kernels and the same count for torch's version of the job. The markdown
table (device, date, torch version, shapes) goes to stdout and --output.
"""

import argparse
import datetime
import json
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "test", "Integration", "GPU"))
import check_quantize as cq  # noqa: E402

import torch  # noqa: E402

cq.import_torch()

FORMATS = {"f8e4m3": (cq.oracle.E4M3, torch.float8_e4m3fn),
           "f8e5m2": (cq.oracle.E5M2, torch.float8_e5m2)}
ROWWISE_1x128 = {"tile": [1, 128], "scale": "f32", "round": "exact"}


def make_quantize(fmt_name, scaling, stochastic=False):
    """x [R, C] bf16 -> (q [R, C], stored scales), tiles dividing the shape;
    stochastic: rounded with 16 random bits per element from torch.randint
    (the contract's count, docs/Numerics.md)."""
    fmt, dtype = FORMATS[fmt_name]

    def quantize(x):
        R, C = x.shape
        tr, tc = cq._resolve_tile(scaling["tile"], R, C)
        xb = x.float().reshape(R // tr, tr, C // tc, tc)
        amax = xb.abs().amax(dim=(1, 3), keepdim=True)
        qscale, dequant, code = cq.torch_tile_scales(amax, fmt,
                                                     scaling["round"], 0)
        stored = code.to(torch.uint8) if scaling["scale"] == "e8m0" else dequant
        if stochastic:
            v = (xb * qscale).reshape(R, C)
            r = torch.randint(0, 1 << 16, (R, C), device=x.device,
                              dtype=torch.int64)
            return cq.torch_cast_stochastic(v, r, fmt), stored.reshape(
                R // tr, C // tc)
        q = (xb * qscale).clamp(-fmt.fmax, fmt.fmax).to(dtype)
        return q.reshape(R, C), stored.reshape(R // tr, C // tc)

    return quantize


def make_hadamard(n, seed):
    """x [R, C] bf16 -> x rotated in blocks of n along its rows, bf16: the
    butterfly (check_quantize.torch_hadamard without its row chunks)."""

    def hadamard(x):
        R, C = x.shape
        v = x.float().reshape(-1, n) * signs
        h = 1
        while h < n:
            pairs = v.reshape(v.shape[0], n // (2 * h), 2, h)
            a, b = pairs[:, :, 0, :], pairs[:, :, 1, :]
            v = torch.stack((a + b, a - b), dim=2).reshape(-1, n)
            h *= 2
        return (v * torch.full_like(v, norm)).reshape(R, C).to(torch.bfloat16)

    signs = cq.torch_hadamard_signs(n, seed, "cuda")
    norm = (1.0 / torch.tensor(float(n), dtype=torch.float64).sqrt()).to(
        torch.float32).item()
    return hadamard


def make_job(fmt_name, scaling, fused, stochastic=False):
    if fmt_name == "hadamard":
        return make_hadamard(*scaling)
    quantize = make_quantize(fmt_name, scaling, stochastic)
    if not fused:
        return quantize

    def both(x):
        q, s = quantize(x)
        qt, st = quantize(x.t())
        return q, s, qt, st

    return both


def job_bytes(R, C, scaling, fused):
    """bf16 in, fp8 out, scales out: what the kernels count as bytes_moved."""
    tr, tc = cq._resolve_tile(scaling["tile"], R, C)
    sbytes = 1 if scaling["scale"] == "e8m0" else 4
    total = R * C * 2 + R * C + (R // tr) * (C // tc) * sbytes
    if fused:
        ttr, ttc = cq._resolve_tile(scaling["tile"], C, R)
        total += R * C + (C // ttr) * (R // ttc) * sbytes
    return total


def time_calls(fn, x, iters, warmup):
    for _ in range(warmup):
        fn(x)
    torch.cuda.synchronize()
    events = [torch.cuda.Event(enable_timing=True) for _ in range(iters + 1)]
    events[0].record()
    for n in range(iters):
        fn(x)
        events[n + 1].record()
    torch.cuda.synchronize()
    times = [events[n].elapsed_time(events[n + 1]) for n in range(iters)]
    return statistics.median(times), min(times)


def gbps(nbytes, ms):
    return nbytes / (ms * 1e6) if ms else 0.0


def scaling_text(sc):
    tile = "x".join("*" if t == -1 else str(t) for t in sc["tile"])
    return "%s %s %s" % (tile, sc["scale"], sc["round"])


def describe(entry):
    """(shape, element type, scaling, fused, stochastic) of a manifest kernel
    torch can redo, or None; for a bf16 fp8.hadamard kernel (shape,
    "hadamard", (n, seed), False, False)."""
    params = entry["params"]
    reals = [p for p in params if p["role"] == "input" and p["dtype"] == "bf16"]
    if entry.get("op") == "fp8.hadamard":
        if len(reals) != 1 or entry.get("dim") != 1:
            return None
        return (tuple(reals[0]["shape"]), "hadamard",
                (entry["size"], entry.get("seed")), False, False)
    qs = [p for p in params if p["role"] == "output" and p["dtype"] in FORMATS]
    other = [p for p in params if p["role"] == "input" and p not in reals]
    stochastic = entry.get("rounding") == "stochastic"
    if stochastic and len(other) == 1 and other[0]["dtype"] == "i64":
        other = []
    if len(reals) != 1 or not qs or other or "scaling" not in entry:
        return None
    R, C = reals[0]["shape"]
    tr, tc = cq._resolve_tile(entry["scaling"]["tile"], R, C)
    fused = len(qs) == 2
    ttr, ttc = cq._resolve_tile(entry["scaling"]["tile"], C, R)
    if R % tr or C % tc or len(qs) > 2 or (fused and (C % ttr or R % ttc)):
        return None
    return (R, C), qs[0]["dtype"], entry["scaling"], fused, stochastic


def issue15_target(entry):
    """Whether a manifest kernel is one issue 15 sets a copy-speed target
    for here: a Hadamard rotation or a stochastic rounding of at least 2^26
    elements."""
    big = max((p["shape"][0] * p["shape"][1] for p in entry["params"]
               if p["role"] == "input" and len(p["shape"]) == 2), default=0)
    return big >= 1 << 26 and (entry["op"] == "fp8.hadamard" or
                               entry.get("rounding") == "stochastic")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default="8192x8192,16384x7168")
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--warmup", type=int, default=10)
    ap.add_argument("--manifest", help="the kernels' manifest.json")
    ap.add_argument("--fp8-run-results", help="fp8-run --results FILE")
    ap.add_argument("--output", help="also write the table here")
    args = ap.parse_args()
    if not torch.cuda.is_available():
        sys.exit("torch_quantize: no CUDA device")
    if args.warmup < 1:
        sys.exit("torch_quantize: --warmup must be at least 1 (it compiles)")

    kernels, results = [], {}
    if args.manifest:
        with open(args.manifest) as f:
            kernels = json.load(f)["kernels"]
    if args.fp8_run_results:
        with open(args.fp8_run_results) as f:
            results = {k["name"]: k for k in json.load(f)["kernels"]}

    shapes = [tuple(int(d) for d in s.split("x")) for s in args.shapes.split(",")
              if s]
    reference_shapes = list(shapes)
    for k in kernels:
        d = describe(k)
        if d and d[0] not in shapes:
            shapes.append(d[0])

    torch.manual_seed(0)
    inputs = {s: torch.randn(s, dtype=torch.bfloat16, device="cuda")
              for s in shapes}
    compiled = {}

    def torch_time(shape, fmt_name, scaling, fused, stochastic=False):
        key = (shape, fmt_name, json.dumps(scaling, sort_keys=True), fused,
               stochastic)
        if key not in compiled:
            fn = torch.compile(make_job(fmt_name, scaling, fused, stochastic))
            compiled[key] = time_calls(fn, inputs[shape], args.iters,
                                       args.warmup)
        return compiled[key]

    rows = []
    for shape in shapes:
        R, C = shape
        x = inputs[shape]
        # The reference jobs for the benchmark shapes; manifest-only shapes
        # get their kernels' rows alone.
        for fused in (False, True) if shape in reference_shapes else ():
            nbytes = job_bytes(R, C, ROWWISE_1x128, fused)
            rows.append(dict(
                shape=shape, scaling=scaling_text(ROWWISE_1x128), bytes=nbytes,
                what="torch.compile: e4m3 quantize" +
                (" + transpose (x and x^T)" if fused else ""),
                torch=torch_time(shape, "f8e4m3", ROWWISE_1x128, fused)))
        if shape in reference_shapes:
            rows.append(dict(shape=shape, what="torch: bf16 copy (clone)",
                             scaling="", bytes=2 * R * C * 2,
                             torch=time_calls(lambda t: t.clone(), x,
                                              args.iters, args.warmup)))
        for k in kernels:
            d = describe(k)
            r = results.get(k["name"], {})
            in_shape = next((tuple(p["shape"]) for p in k["params"]
                             if p["role"] == "input"), None)
            if in_shape != shape:
                continue
            if "scaling" in k:
                text = scaling_text(k["scaling"])
                if k.get("rounding") == "stochastic":
                    text += " stochastic"
            elif k["op"] == "fp8.hadamard":
                text = "n = %d%s" % (k["size"], ", seed %d" % k["seed"]
                                     if "seed" in k else "")
            else:
                text = ""
            row = dict(shape=shape, what="fp8-run: %s (%s)" % (k["name"], k["op"]),
                       scaling=text, target=issue15_target(k),
                       bytes=k["bytes_moved"], fp8=r.get("time"),
                       copy=r.get("copy"))
            if d:
                row["torch"] = torch_time(*d)
            rows.append(row)

    lines = []
    dev = torch.cuda.get_device_name()
    lines.append("## bf16 -> fp8 quantization, %s, %s" %
                 (dev, datetime.date.today().isoformat()))
    lines.append("")
    lines.append("torch %s (CUDA %s), shapes %s; median (best) of %d calls "
                 "after %d warmup; GB/s = bytes read + written / median time; "
                 "copy = cuMemcpyDtoD moving the kernel's byte count, in the "
                 "same fp8-run." %
                 (torch.__version__, torch.version.cuda,
                  ", ".join("%dx%d" % s for s in shapes), args.iters,
                  args.warmup))
    if args.manifest:
        lines.append("Kernels: %s." % args.manifest)
    lines.append("")
    lines.append("| shape | kernel / job | scaling | MB moved | fp8-run ms | "
                 "fp8-run GB/s | copy GB/s | fp8-run / copy | "
                 "torch.compile ms | torch.compile GB/s | fp8-run speedup |")
    lines.append("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        fp8, copy, tt = row.get("fp8"), row.get("copy"), row.get("torch")
        cells = ["%dx%d" % row["shape"], row["what"], row["scaling"],
                 "%.1f" % (row["bytes"] / 1e6)]
        if fp8:
            cells += ["%.4f (%.4f)" % (fp8["median_ms"], fp8["min_ms"]),
                      "%.0f" % fp8["gbps_median"]]
        else:
            cells += ["", ""]
        if copy and fp8:
            cells += ["%.0f" % copy["gbps_median"],
                      "%.0f%%" % (100 * fp8["gbps_median"] / copy["gbps_median"])]
        else:
            cells += ["", ""]
        if tt:
            cells += ["%.4f (%.4f)" % tt, "%.0f" % gbps(row["bytes"], tt[0])]
            cells += ["%.2fx" % (tt[0] / fp8["median_ms"]) if fp8 else ""]
        else:
            cells += ["n/a" if fp8 else "", "", ""]
        lines.append("| " + " | ".join(cells) + " |")
    # Issue 15's targets: the Hadamard and stochastic-rounding kernels at
    # 85% of a copy of their bytes (8192x8192 and up).
    targets = [row for row in rows if row.get("target") and row.get("fp8")
               and row.get("copy")]
    if targets:
        lines.append("")
        lines.append("Issue 15 targets (kernel GB/s at least 85% of the copy's):")
        lines.append("")
        for row in targets:
            ratio = row["fp8"]["gbps_median"] / row["copy"]["gbps_median"]
            lines.append("- %s %s %s: %.0f%% of copy, %s" % (
                "%dx%d" % row["shape"], row["what"], row["scaling"],
                100 * ratio, "MET" if ratio >= 0.85 else "NOT MET"))
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if args.output:
        with open(args.output, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
