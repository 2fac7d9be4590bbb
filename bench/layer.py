#!/usr/bin/env python3
"""Whole-layer benchmark: one linear layer and a SwiGLU MLP block, forward +
backward, under FP8 recipes, against bf16 and a torch-only FP8 baseline.

    python3 bench/layer.py --out bench/results/DATE-h100-layer.md \\
        --json bench/results/DATE-h100-layer.json
    python3 bench/layer.py --list-shapes      # what to precompile

A step is: gradients set to None, forward, backward from a fixed dY; every
quantization, transpose and GEMM is inside it and weights are quantized
every step. Three implementations per shape and recipe:

  ours      fp8_mlir.nn.Linear / fp8_mlir.nn.MLP (compiled programs;
            precompile with `python3 -m fp8_mlir.aot` where fp8-opt is,
            carry FP8_MLIR_CACHE: --list-shapes prints the commands)
  bf16      torch.nn.Linear (and the same MLP in bf16) with autograd
  torch-fp8 bench/torch_fp8.py, written like torchao's float8 training
            recipes: an autograd.Function whose quantizations (with their
            transposes) are torch.compile'd functions and whose matmuls are
            torch._scaled_mm (cuBLASLt): tensorwise e4m3/e5m2 with
            per-tensor scales, rowwise e4m3 with power-of-two row scales
            along each matmul's contracted dim, blockwise 1x128 / 128x128

Time: CUDA events around each step, warmup then --iters steps, median.
Effective TFLOP/s = 6 M N K (summed over the MLP's three linears) / time.
The share of GPU time in GEMMs, quantization (and transposes) and the
rest comes from one profiled step (torch.profiler, kernel durations by
kernel name). One run, one process.
"""

import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

M = 8192
LINEAR_SHAPES = [(4096, 4096), (4096, 14336), (14336, 4096)]  # (K, N)
MLP_SHAPE = (4096, 14336)  # (dim, hidden)
RECIPES = ("tensorwise", "rowwise", "blockwise")

torch = None
torch_fp8 = None  # bench/torch_fp8.py, imported with torch


def flops(kind, a, b):
    return 6 * M * a * b * (3 if kind == "mlp" else 1)


def shapes(selected):
    out = [("linear", k, n) for k, n in LINEAR_SHAPES]
    out.append(("mlp",) + MLP_SHAPE)
    return [s for s in out if not selected or "%s:%d:%d" % s in selected]


def list_shapes(recipes, selected):
    for kind, a, b in shapes(selected):
        if kind == "linear":
            print("python3 -m fp8_mlir.aot linear --m %d --k %d --n %d "
                  "--recipe %s" % (M, a, b, ",".join(recipes)))
        else:
            print("python3 -m fp8_mlir.aot mlp --m %d --dim %d --hidden %d "
                  "--recipe %s" % (M, a, b, ",".join(recipes)))


# ---------------------------------------------------------------------------
# The layers under test
# ---------------------------------------------------------------------------

def build(kind, a, b, impl, recipe):
    """(module-like callable, parameters) for one implementation."""
    import fp8_mlir
    dev, bf = "cuda", torch.bfloat16
    if kind == "linear":
        k, n = a, b
        w = torch.nn.Parameter(torch.randn(n, k, device=dev, dtype=bf) /
                               k ** 0.5)
        if impl == "ours":
            layer = fp8_mlir.nn.Linear(k, n, bias=False, recipe=recipe,
                                       device=dev)
            with torch.no_grad():
                layer.weight.copy_(w)
            return layer, [layer.weight]
        if impl == "bf16":
            return (lambda x: torch.nn.functional.linear(x, w)), [w]
        fn = torch_fp8.linear_function(recipe)
        return (lambda x: fn(x, w)), [w]
    dim, hidden = a, b
    ws = [torch.nn.Parameter(torch.randn(r, c, device=dev, dtype=bf) /
                             c ** 0.5)
          for r, c in ((hidden, dim), (hidden, dim), (dim, hidden))]
    if impl == "ours":
        mlp = fp8_mlir.nn.MLP(dim, hidden, recipe=recipe, device=dev)
        with torch.no_grad():
            for p, w in zip((mlp.w1, mlp.w3, mlp.w2), ws):
                p.copy_(w)
        return mlp, [mlp.w1, mlp.w3, mlp.w2]
    lin = (torch.nn.functional.linear if impl == "bf16"
           else torch_fp8.linear_function(recipe))
    silu = torch.nn.functional.silu

    def mlp_fn(x):
        return lin(silu(lin(x, ws[0])) * lin(x, ws[1]), ws[2])
    return mlp_fn, ws


def classify(name, impl):
    n = name.lower()
    if impl == "ours":
        if "_gemm_" in n:
            return "gemm"
        if any(t in n for t in ("_quantize_", "_cast_transpose_", "_amax_",
                                "_tma_align_scales_", "_transpose_")):
            return "quant"
        return "other"
    if any(t in n for t in ("gemm", "xmma", "cutlass", "nvjet", "sm90_",
                            "cublas")):
        return "gemm"
    if impl == "torch-fp8" and "triton" in n:
        return "quant"
    return "other"


def measure(kind, a, b, impl, recipe, iters, warmup):
    # The same X, dY and weights for every implementation.
    torch.manual_seed(0)
    x = torch.randn(M, a, device="cuda", dtype=torch.bfloat16,
                    requires_grad=True)
    dy = torch.randn(M, a if kind == "mlp" else b, device="cuda",
                     dtype=torch.bfloat16) * 1e-2
    torch.manual_seed(1)
    layer, params = build(kind, a, b, impl, recipe)

    def step():
        x.grad = None
        for p in params:
            p.grad = None
        y = layer(x)
        y.backward(dy)
        return y

    for _ in range(warmup):
        step()
    torch.cuda.synchronize()
    times = []
    for _ in range(iters):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        step()
        end.record()
        end.synchronize()
        times.append(start.elapsed_time(end))
    share = {"gemm": 0.0, "quant": 0.0, "other": 0.0}
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step()
        torch.cuda.synchronize()
    for e in prof.events():
        if e.device_type == torch.autograd.DeviceType.CUDA:
            share[classify(e.name, impl)] += e.time_range.elapsed_us()
    y = step()
    grads = [x.grad] + [p.grad for p in params]
    return {"ms": statistics.median(times), "ms_min": min(times),
            "gpu_us": share, "outputs": [y.detach()] +
            [g.detach() for g in grads]}


def rel(a, b):
    a, b = a.double(), b.double()
    return float((a - b).norm() / b.norm().clamp_min(1e-30))


def main():
    global torch, torch_fp8
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--recipes", default=",".join(RECIPES))
    p.add_argument("--shapes", default="",
                   help="kind:a:b,... (linear:K:N, mlp:dim:hidden)")
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--warmup", type=int, default=5)
    p.add_argument("--skip-ours", action="store_true")
    p.add_argument("--list-shapes", action="store_true")
    p.add_argument("--out")
    p.add_argument("--json")
    args = p.parse_args()
    recipes = [r for r in args.recipes.split(",") if r]
    selected = [s for s in args.shapes.split(",") if s]
    if args.list_shapes:
        list_shapes(recipes, selected)
        return 0
    import torch as torch_module
    import torch_fp8 as torch_fp8_module
    torch, torch_fp8 = torch_module, torch_fp8_module
    rows, raw = [], []
    for kind, a, b in shapes(selected):
        fl = flops(kind, a, b)
        base = measure(kind, a, b, "bf16", None, args.iters, args.warmup)
        label = "%s %s" % (kind, "M=%d K=%d N=%d" % (M, a, b)
                           if kind == "linear" else
                           "M=%d dim=%d hidden=%d" % (M, a, b))
        rows.append((label, "bf16", base, fl, base, None))
        for recipe in recipes:
            impls = ["torch-fp8"] + ([] if args.skip_ours else ["ours"])
            results = {}
            for impl in impls:
                try:
                    results[impl] = measure(kind, a, b, impl, recipe,
                                            args.iters, args.warmup)
                except Exception as e:  # reported, and the run goes on
                    results[impl] = {"error": "%s: %s" % (
                        type(e).__name__, str(e).split("\n")[0][:200])}
            for impl in impls:
                rows.append((label, "%s %s" % (impl, recipe),
                             results[impl], fl, base,
                             results.get("torch-fp8")))
        del base
        torch.cuda.empty_cache()

    lines = ["# Layer benchmark: forward + backward, M = %d tokens" % M, "",
             "Device: %s; torch %s, CUDA %s; %s. Median of %d steps after "
             "%d warmup; effective TFLOP/s = 6 M N K per linear." % (
                 torch.cuda.get_device_name(), torch.__version__,
                 torch.version.cuda, time.strftime("%Y-%m-%d"), args.iters,
                 args.warmup), "",
             "| layer | impl | ms | TFLOP/s | vs bf16 | vs torch-fp8 | GEMM "
             "| quant | other | rel. err Y, dX, dW vs bf16 |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for label, impl, r, fl, base, tfp8 in rows:
        if "error" in r:
            lines.append("| %s | %s | unavailable: %s |||||||" %
                         (label, impl, r["error"]))
            raw.append({"layer": label, "impl": impl, "error": r["error"]})
            continue
        total = sum(r["gpu_us"].values()) or 1.0
        vs_t = ("%.2f" % (tfp8["ms"] / r["ms"]) if tfp8 and "ms" in tfp8
                and impl.startswith("ours") else "")
        errs = ("" if impl == "bf16" else ", ".join(
            "%.3f" % rel(o, w) for o, w in
            list(zip(r["outputs"], base["outputs"]))[:3]))
        lines.append("| %s | %s | %.3f | %.0f | %.2f | %s | %.0f%% | %.0f%% "
                     "| %.0f%% | %s |" % (
                         label, impl, r["ms"], fl / r["ms"] / 1e9,
                         base["ms"] / r["ms"], vs_t,
                         100 * r["gpu_us"]["gemm"] / total,
                         100 * r["gpu_us"]["quant"] / total,
                         100 * r["gpu_us"]["other"] / total, errs))
        raw.append({"layer": label, "impl": impl, "ms": r["ms"],
                    "ms_min": r["ms_min"], "tflops": fl / r["ms"] / 1e9,
                    "gpu_us": r["gpu_us"]})
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(),
                       "torch": torch.__version__, "m": M, "rows": raw}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
