#!/usr/bin/env python3
"""End-to-end training steps of a Llama-3-8B-shaped decoder stack: bf16
against fp8_mlir and the torch-only FP8 baseline, eager and compiled.

    python3 bench/e2e.py --dry-run         # variants, shapes, FLOPs (no torch)
    python3 bench/e2e.py --list-shapes     # the aot commands to precompile
    FP8_MLIR_CACHE=DIR python3 bench/e2e.py --aot   # the same, run here
    FP8_MLIR_CACHE=DIR python3 bench/e2e.py \\
        --out bench/results/DATE-h100-e2e.md \\
        --json bench/results/DATE-h100-e2e.json

The model is written as a user writes Llama 3 in plain torch.nn (the
layout of torchtitan's): token embedding, `--layers` blocks of RMSNorm ->
attention (wq, wk, wv, wo; 32 query and 8 KV heads of 128, rotary
positions with theta 500000, K and V repeated to the query heads, causal
F.scaled_dot_product_attention) and RMSNorm -> SwiGLU feed-forward (w1,
w3: 4096 -> 14336, w2 back), residuals around both, a final RMSNorm and an
output head to a small vocabulary (`--vocab`, 256). Parameters are bf16.

A step is: gradients set to None, forward, next-token cross entropy of
the head's logits (in fp32) against random tokens, backward, and
torch.optim.AdamW(fused=True) on the bf16 parameters. The same seed gives
every variant the same weights and tokens, so the first step's loss
should agree across variants to FP8's error.

Variants, one process, in this order (recipes in --recipes' order):
  bf16                 the model as written
  fp8_mlir RECIPE      fp8_mlir.convert: every block's Linear an
                       fp8_mlir.nn.Linear (compiled programs)
  torch-fp8 RECIPE     bench/torch_fp8.py's convert: every block's Linear
                       an autograd.Function of torch.compile'd
                       quantizations and torch._scaled_mm, like torchao's
                       float8 training
each `eager` and `compile` (every block through torch.compile, as
torchtitan compiles per block: blocks whose guards agree share one
compiled graph, so compile time need not grow with --layers; the table
counts the graphs). The output head stays bf16 in every variant
(torchao's default for torchtitan excludes it too).

Measured per variant: the median of --iters back-to-back steps (CUDA
events around each step, no synchronization between them) after --warmup
steps, tokens/s, model TFLOP/s (6 x tokens x matmul parameters plus
causal attention), peak torch.cuda.max_memory_allocated (reset per
variant), the setup time (model, compile, warmup) and the ratio to bf16
compile; then one more step under torch.profiler gives the CUDA time by
kernel class (GEMM, attention, quantization, optimizer, other) and how
busy the GPU was (--no-profile skips it). A variant that fails is
recorded with its error and the run goes on. --out and --json are
rewritten after every variant; --budget SECONDS starts no variant after
that many seconds (the rest are listed as skipped).

fp8_mlir's programs are compiled per shape by fp8-opt, which the GPU
machine does not have: where it is, run the --list-shapes commands (or
--aot) into a cache directory and carry it as FP8_MLIR_CACHE
(docs/Training.md).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))
if HERE not in sys.path:
    sys.path.insert(0, HERE)  # torch_fp8

IMPLS = ("bf16", "fp8_mlir", "torch-fp8")
MODES = ("eager", "compile")
# Issue 38's targets first: where --budget stops a run, they were run.
RECIPES = ("blockwise", "tensorwise", "rowwise")

# Llama 3 8B: dim, query heads, KV heads, SwiGLU hidden, rope theta, eps.
LLAMA3_8B = dict(dim=4096, heads=32, kv_heads=8, hidden=14336,
                 rope_theta=500000.0, norm_eps=1e-5)


class Config:
    """The model's and the step's shapes."""

    def __init__(self, layers=4, seq=8192, batch=1, vocab=256, dim=4096,
                 heads=32, kv_heads=8, hidden=14336, rope_theta=500000.0,
                 norm_eps=1e-5):
        self.layers, self.seq, self.batch, self.vocab = (layers, seq, batch,
                                                         vocab)
        self.dim, self.heads, self.kv_heads, self.hidden = (dim, heads,
                                                            kv_heads, hidden)
        self.rope_theta, self.norm_eps = rope_theta, norm_eps
        self.validate()

    @property
    def head_dim(self):
        return self.dim // self.heads

    @property
    def tokens(self):
        return self.seq * self.batch

    def validate(self):
        for name in ("layers", "seq", "batch", "vocab", "dim", "heads",
                     "kv_heads", "hidden"):
            if getattr(self, name) <= 0:
                raise ValueError("%s must be positive, got %d" % (
                    name, getattr(self, name)))
        if self.dim % self.heads:
            raise ValueError("dim %d is not a multiple of heads %d" % (
                self.dim, self.heads))
        if self.heads % self.kv_heads:
            raise ValueError("heads %d is not a multiple of kv_heads %d" % (
                self.heads, self.kv_heads))
        if self.head_dim % 2:
            raise ValueError("head dim %d is odd (rotary pairs)" %
                             self.head_dim)
        # FP8 GEMMs want 16-byte rows; blockwise scales 128-wide tiles of
        # every dimension a layer quantizes (tokens included).
        for name, v in (("dim", self.dim), ("hidden", self.hidden),
                        ("kv_heads * head_dim",
                         self.kv_heads * self.head_dim),
                        ("tokens (seq * batch)", self.tokens)):
            if v % 128:
                raise ValueError("%s = %d is not a multiple of 128" % (
                    name, v))

    def as_dict(self):
        return dict(layers=self.layers, seq=self.seq, batch=self.batch,
                    tokens=self.tokens, vocab=self.vocab, dim=self.dim,
                    heads=self.heads, kv_heads=self.kv_heads,
                    head_dim=self.head_dim, hidden=self.hidden,
                    rope_theta=self.rope_theta, norm_eps=self.norm_eps)


def block_linears(cfg):
    """(name, in_features, out_features) of one block's linear layers."""
    q, kv = cfg.heads * cfg.head_dim, cfg.kv_heads * cfg.head_dim
    return [("attention.wq", cfg.dim, q), ("attention.wk", cfg.dim, kv),
            ("attention.wv", cfg.dim, kv), ("attention.wo", q, cfg.dim),
            ("feed_forward.w1", cfg.dim, cfg.hidden),
            ("feed_forward.w3", cfg.dim, cfg.hidden),
            ("feed_forward.w2", cfg.hidden, cfg.dim)]


def linear_shapes(cfg):
    """The distinct (K, N) of the layers that FP8 variants convert, in
    the order the model first uses them."""
    out = []
    for _, k, n in block_linears(cfg):
        if (k, n) not in out:
            out.append((k, n))
    return out


def parameter_count(cfg):
    """Parameters: embedding, blocks (linears and two norms), final norm,
    head."""
    per_block = sum(k * n for _, k, n in block_linears(cfg)) + 2 * cfg.dim
    return (cfg.vocab * cfg.dim + cfg.layers * per_block + cfg.dim +
            cfg.dim * cfg.vocab)


def step_flops(cfg):
    """Model FLOPs of one training step: 6 per token and matmul parameter
    (forward, Dgrad, Wgrad of the blocks' linears and the head), and the
    attention's two matmuls, causal (half the scores), backward twice the
    forward."""
    matmul = cfg.layers * sum(k * n for _, k, n in block_linears(cfg)) + \
        cfg.dim * cfg.vocab
    attention = cfg.layers * 6 * cfg.batch * cfg.seq * cfg.seq * \
        cfg.heads * cfg.head_dim
    return 6 * cfg.tokens * matmul + attention


def state_bytes(cfg):
    """Parameters, gradients and AdamW's two moments, all bf16: 8 bytes a
    parameter (activations come on top)."""
    return 8 * parameter_count(cfg)


def variants(impls=IMPLS, recipes=RECIPES, modes=MODES):
    """(impl, recipe or None, mode) in the order they run: bf16 first
    (compiled bf16 is every ratio's baseline), then per recipe (in the
    order given) fp8_mlir, then the torch-fp8 baseline."""
    for name in impls:
        if name not in IMPLS:
            raise ValueError("unknown implementation %r: expected %s" % (
                name, ", ".join(IMPLS)))
    for mode in modes:
        if mode not in MODES:
            raise ValueError("unknown mode %r: expected %s" % (
                mode, ", ".join(MODES)))
    for recipe in recipes:
        if recipe not in RECIPES:
            raise ValueError("unknown recipe %r: expected %s" % (
                recipe, ", ".join(RECIPES)))
    out = []
    if "bf16" in impls:
        out += [("bf16", None, m) for m in MODES if m in modes]
    for recipe in recipes:
        for name in ("fp8_mlir", "torch-fp8"):
            if name in impls:
                out += [(name, recipe, m) for m in MODES if m in modes]
    return out


def variant_name(variant):
    impl, recipe, mode = variant
    return " ".join(p for p in (impl, recipe, mode) if p)


def aot_commands(cfg, recipes, chip="sm_90a", cache=None):
    """The `python3 -m fp8_mlir.aot` commands that compile every program
    the fp8_mlir variants load."""
    if not recipes:
        return []
    tail = " --chip %s" % chip + (" --cache %s" % cache if cache else "")
    return ["python3 -m fp8_mlir.aot linear --m %d --k %d --n %d "
            "--recipe %s%s" % (cfg.tokens, k, n, ",".join(recipes), tail)
            for k, n in linear_shapes(cfg)]


def run_aot(cfg, recipes, chip, cache=None):
    """Compiles the programs of aot_commands here (needs fp8-opt, not
    torch)."""
    import fp8_mlir
    if fp8_mlir.find_compiler() is None:
        print("e2e.py: no fp8-opt here (set FP8_OPT or build the "
              "repository: make build)", file=sys.stderr)
        return 2
    try:
        for recipe in recipes:
            for k, n in linear_shapes(cfg):
                # split=None: what fp8_mlir.nn loads (split or not).
                lp = fp8_mlir.compile_linear(cfg.tokens, n, k, recipe=recipe,
                                             chip=chip, cache=cache,
                                             split=None)
                print("%s linear m=%d k=%d n=%d: %s" % (
                    recipe, cfg.tokens, k, n, lp.path))
    except (ValueError, fp8_mlir.Fp8MlirError) as e:
        print("e2e.py: %s" % e, file=sys.stderr)
        return 1
    return 0


# --------------------------------------------------------------------------
# The model, as a user writes it (PyTorch)
# --------------------------------------------------------------------------

def build_model(torch, cfg, device=None, dtype=None):
    """The decoder stack in plain torch.nn: a module whose forward takes
    tokens [batch, seq] and returns logits [batch, seq, vocab]."""
    F = torch.nn.functional
    dtype = dtype or torch.bfloat16
    factory = dict(device=device, dtype=dtype)

    def linear(n_in, n_out):
        return torch.nn.Linear(n_in, n_out, bias=False, **factory)

    class RMSNorm(torch.nn.Module):
        def __init__(self, dim, eps):
            super().__init__()
            self.eps = eps
            self.weight = torch.nn.Parameter(torch.ones(dim, **factory))

        def forward(self, x):
            return F.rms_norm(x, (x.shape[-1],), self.weight, self.eps)

    def rotate(x, cos, sin):
        # x [b, t, heads, head_dim]; cos, sin [t, head_dim] (the two
        # halves of head_dim are the pairs rotated together).
        x1, x2 = x.chunk(2, dim=-1)
        turned = torch.cat((-x2, x1), dim=-1)
        return x * cos[:, None, :] + turned * sin[:, None, :]

    class Attention(torch.nn.Module):
        def __init__(self):
            super().__init__()
            hd = cfg.head_dim
            self.wq = linear(cfg.dim, cfg.heads * hd)
            self.wk = linear(cfg.dim, cfg.kv_heads * hd)
            self.wv = linear(cfg.dim, cfg.kv_heads * hd)
            self.wo = linear(cfg.heads * hd, cfg.dim)

        def forward(self, x, cos, sin):
            b, t, _ = x.shape
            hd = cfg.head_dim
            q = self.wq(x).view(b, t, cfg.heads, hd)
            k = self.wk(x).view(b, t, cfg.kv_heads, hd)
            v = self.wv(x).view(b, t, cfg.kv_heads, hd)
            q, k = rotate(q, cos, sin), rotate(k, cos, sin)
            q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)
            # Grouped-query attention: each KV head serves heads/kv_heads
            # query heads.
            rep = cfg.heads // cfg.kv_heads
            k = k.repeat_interleave(rep, dim=1)
            v = v.repeat_interleave(rep, dim=1)
            o = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            return self.wo(o.transpose(1, 2).reshape(b, t, cfg.heads * hd))

    class FeedForward(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.w1 = linear(cfg.dim, cfg.hidden)
            self.w3 = linear(cfg.dim, cfg.hidden)
            self.w2 = linear(cfg.hidden, cfg.dim)

        def forward(self, x):
            return self.w2(F.silu(self.w1(x)) * self.w3(x))

    class TransformerBlock(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.attention_norm = RMSNorm(cfg.dim, cfg.norm_eps)
            self.attention = Attention()
            self.ffn_norm = RMSNorm(cfg.dim, cfg.norm_eps)
            self.feed_forward = FeedForward()

        def forward(self, x, cos, sin):
            h = x + self.attention(self.attention_norm(x), cos, sin)
            return h + self.feed_forward(self.ffn_norm(h))

    class Transformer(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.tok_embeddings = torch.nn.Embedding(cfg.vocab, cfg.dim,
                                                     **factory)
            self.layers = torch.nn.ModuleList(
                TransformerBlock() for _ in range(cfg.layers))
            self.norm = RMSNorm(cfg.dim, cfg.norm_eps)
            self.output = linear(cfg.dim, cfg.vocab)
            hd = cfg.head_dim
            inv = 1.0 / cfg.rope_theta ** (
                torch.arange(0, hd, 2, device=device).float() / hd)
            ang = torch.outer(torch.arange(cfg.seq, device=device).float(),
                              inv)
            ang = torch.cat((ang, ang), dim=-1)
            self.register_buffer("cos", ang.cos().to(dtype), persistent=False)
            self.register_buffer("sin", ang.sin().to(dtype), persistent=False)

        def forward(self, tokens):
            t = tokens.shape[1]
            cos, sin = self.cos[:t], self.sin[:t]
            x = self.tok_embeddings(tokens)
            for layer in self.layers:
                x = layer(x, cos, sin)
            return self.output(self.norm(x))

    return Transformer()


def converted(fqn, module):
    """convert's filter: the blocks' linear layers, not the head."""
    return fqn.startswith("layers.")


def loss_fn(torch, logits, targets):
    return torch.nn.functional.cross_entropy(
        logits.flatten(0, 1).float(), targets.flatten())


KERNEL_CLASSES = ("gemm", "attention", "quantize", "optimizer", "other")


def classify_kernel(name):
    """The class of a CUDA kernel by its name, for the profile's split:
    gemm, attention, quantize (with FP8 transposes and scale layouts),
    optimizer (AdamW's multi-tensor kernels) or other."""
    n = name.lower()
    if n.startswith(("linear_", "mlp_")):
        # fp8_mlir's programs: <function>_<kind>_<index>.
        if "_gemm_" in n:
            return "gemm"
        return "other" if "_generic_" in n else "quantize"
    if "multi_tensor_apply" in n or "fusedadam" in n or "fused_adam" in n:
        return "optimizer"
    if any(t in n for t in ("sdpa", "flash", "fmha", "attention")):
        return "attention"
    if n.startswith("triton_"):
        # torch.compile's kernels, named after the ops they fuse: the
        # baseline's quantizations (amax, clamp; fused with a neighbour
        # when the model is compiled), templates' matmuls, the rest.
        if n.startswith("triton_tem_"):
            return "gemm"
        if "amax" in n or "clamp" in n:
            return "quantize"
        return "other"
    if any(t in n for t in ("gemm", "nvjet", "xmma", "cutlass", "cublas",
                            "wgmma")):
        return "gemm"
    return "other"


# --------------------------------------------------------------------------
# Measuring (PyTorch, CUDA)
# --------------------------------------------------------------------------

def dynamo_counts(torch):
    """(graphs compiled, graph breaks) so far, from dynamo's counters."""
    try:
        from torch._dynamo.utils import counters
        return (counters["stats"]["unique_graphs"],
                sum(counters["graph_break"].values()))
    except Exception:  # a private API: leave the columns empty
        return None


def measure(torch, cfg, variant, args, tokens):
    """One variant's result (a dict); raises on failure."""
    import fp8_mlir
    import torch_fp8
    impl, recipe, mode = variant
    t0 = time.perf_counter()
    torch.manual_seed(args.seed)
    model = build_model(torch, cfg, device="cuda")
    if impl == "fp8_mlir":
        fp8_mlir.convert(model, recipe=recipe, filter=converted,
                         chip=args.chip)
    elif impl == "torch-fp8":
        torch_fp8.convert(model, recipe=recipe, filter=converted)
    opt = torch.optim.AdamW(model.parameters(), lr=args.lr, fused=True)
    x, y = tokens[:, :-1].contiguous(), tokens[:, 1:].contiguous()

    def step():
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(torch, model(x), y)
        loss.backward()
        opt.step()
        return loss

    if impl == "fp8_mlir":
        # fp8_mlir's layers load their programs on first use (cache
        # lookups, file reads, a ctypes load: nothing dynamo can trace),
        # so one forward without gradients loads them before compiling.
        # The weights stay as they are: the first step's loss is every
        # variant's loss at the same weights.
        with torch.no_grad():
            model(x)
    counts0 = dynamo_counts(torch)
    if mode == "compile":
        for layer in model.layers:
            layer.compile()
    first_loss = step().item()
    for _ in range(args.warmup - 1):
        step()
    torch.cuda.synchronize()
    setup_s = time.perf_counter() - t0
    counts1 = dynamo_counts(torch)

    events = [(torch.cuda.Event(enable_timing=True),
               torch.cuda.Event(enable_timing=True))
              for _ in range(args.iters)]
    wall0 = time.perf_counter()
    for start, end in events:
        start.record()
        loss = step()
        end.record()
    torch.cuda.synchronize()
    wall_ms = 1000 * (time.perf_counter() - wall0) / args.iters
    times = [start.elapsed_time(end) for start, end in events]
    ms = statistics.median(times)
    result = {"ms": ms, "ms_min": min(times), "ms_max": max(times),
              "wall_ms": wall_ms, "tokens_per_s": cfg.tokens / ms * 1000,
              "tflops": step_flops(cfg) / ms / 1e9,
              "peak_gib": torch.cuda.max_memory_allocated() / 2 ** 30,
              "setup_s": setup_s, "first_loss": first_loss,
              "last_loss": loss.item(), "times_ms": times}
    if counts0 and counts1:
        result["graphs"] = counts1[0] - counts0[0]
        result["graph_breaks"] = counts1[1] - counts0[1]
    if args.profile:
        try:
            result.update(profile_step(torch, step))
        except Exception as e:  # the timings stand without it
            result["profile_error"] = "%s: %s" % (type(e).__name__, e)
    return result


def split_kernel_time(kernels):
    """The kernel time of one step by class, from (name, start_us,
    end_us) per kernel on one stream. A kernel launched with programmatic
    dependent launch starts while the one before it drains and waits for
    it, so the raw durations count the overlap twice: `gpu_ms` gives each
    kernel only the time after every earlier kernel has ended (classes
    then sum to the busy time), `gpu_ms_raw` the durations as measured,
    `idle_ms` the gaps with no kernel running (host-bound time)."""
    split = dict.fromkeys(KERNEL_CLASSES, 0.0)
    raw = dict.fromkeys(KERNEL_CLASSES, 0.0)
    idle, done = 0.0, None
    for name, start, end in sorted(kernels, key=lambda k: (k[1], k[2])):
        kind = classify_kernel(name)
        raw[kind] += (end - start) / 1000
        if done is not None and start > done:
            idle += (start - done) / 1000
        begin = start if done is None else max(start, done)
        split[kind] += max(0.0, end - begin) / 1000
        done = end if done is None else max(done, end)
    return {"gpu_ms": split, "gpu_ms_raw": raw, "idle_ms": idle}


def profile_step(torch, step):
    """The CUDA kernel time of one more step by class (split_kernel_time)
    and its 15 longest kernels by raw duration (torch.profiler; CUPTI sees
    libfp8rt's driver-API launches too)."""
    from torch.profiler import ProfilerActivity, profile
    with profile(activities=[ProfilerActivity.CUDA]) as prof:
        step()
        torch.cuda.synchronize()
    launches, kernels = [], {}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        launches.append((e.name, e.time_range.start, e.time_range.end))
        ms = e.time_range.elapsed_us() / 1000
        kernels[e.name] = kernels.get(e.name, 0.0) + ms
    top = sorted(kernels.items(), key=lambda kv: -kv[1])[:15]
    return dict(split_kernel_time(launches),
                top_kernels=[[k, classify_kernel(k), round(v, 3)]
                             for k, v in top])


def run_variant(torch, cfg, variant, args, tokens):
    """measure(), with a failure recorded instead of raised, and the
    variant's memory and compiled code freed either way."""
    import gc
    import traceback
    gc.collect()
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    try:
        return measure(torch, cfg, variant, args, tokens)
    except Exception as e:  # recorded in the table; the run goes on
        traceback.print_exc()
        first = (str(e).strip().splitlines() or [""])[0]
        return {"error": "%s: %s" % (type(e).__name__, first[:300])}
    finally:
        torch._dynamo.reset()
        gc.collect()
        torch.cuda.empty_cache()


def progress(i, total, elapsed, variant, r):
    """The line printed as each variant ends."""
    if "error" in r:
        note = ("skipped: " if r.get("skipped") else "failed: ") + r["error"]
    else:
        note = ("%.1f ms, %.0f tokens/s, peak %.1f GiB, setup %.0f s, "
                "loss %.4f" % (r["ms"], r["tokens_per_s"], r["peak_gib"],
                               r["setup_s"], r["first_loss"]))
    return "[%d/%d %4.0f s] %s: %s" % (i, total, elapsed,
                                       variant_name(variant), note)


def run_all(variant_list, run_one, budget=None, report=None,
            clock=time.perf_counter):
    """[(variant, run_one(variant))] in order; once `budget` seconds have
    passed, the remaining variants are recorded as skipped. `report` is
    called with the results so far after each."""
    results = []
    t0 = clock()
    for i, v in enumerate(variant_list):
        if budget and clock() - t0 > budget:
            r = {"error": "--budget of %g s spent" % budget, "skipped": True}
        else:
            r = run_one(v)
        results.append((v, r))
        if report:
            report(results)
        print(progress(i + 1, len(variant_list), clock() - t0, v, r),
              file=sys.stderr, flush=True)
    return results


def ratio(num, den):
    if not num or not den or "ms" not in num or "ms" not in den:
        return None
    return num["ms"] / den["ms"]


def rows(results):
    """(variant, result, vs bf16 compile, vs torch-fp8 of the same recipe
    and mode) for each measured variant."""
    by = {v: r for v, r in results}
    base = by.get(("bf16", None, "compile"))
    out = []
    for v, r in results:
        impl, recipe, mode = v
        vs_torch = (ratio(by.get(("torch-fp8", recipe, mode)), r)
                    if impl == "fp8_mlir" else None)
        out.append((v, r, ratio(base, r), vs_torch))
    return out


def markdown(meta, cfg, results):
    c = cfg.as_dict()
    lines = [
        "# End-to-end training step: Llama-3-8B-shaped stack, %d layers" %
        cfg.layers, "",
        "Device: %s; torch %s, CUDA %s; %s; fp8-mlir %s." % (
            meta["device"], meta["torch"], meta["cuda"], meta["date"],
            meta["commit"]),
        "Model: dim %d, %d query / %d KV heads of %d, SwiGLU %d, vocab %d, "
        "%d layers (%.2fB parameters); seq %d x batch %d = %d tokens a "
        "step; %.1f TFLOP a step." % (
            c["dim"], c["heads"], c["kv_heads"], c["head_dim"], c["hidden"],
            c["vocab"], c["layers"], parameter_count(cfg) / 1e9, c["seq"],
            c["batch"], c["tokens"], step_flops(cfg) / 1e12),
        "Step: zero grads, forward, cross entropy, backward, fused AdamW "
        "(bf16 parameters). Median of %d back-to-back steps after %d "
        "warmup (CUDA events); peak = torch.cuda.max_memory_allocated; "
        "setup = build, compile and warmup. fp8_mlir's kernels: "
        "programmatic dependent launch %s." % (
            meta["iters"], meta["warmup"],
            "off (--no-pdl)" if meta.get("pdl") is False else "on"),
        "", "| variant | ms | tokens/s | TFLOP/s | vs bf16 compile | "
        "vs torch-fp8 | peak GiB | setup s | loss step 1 | graphs / breaks |",
        "|---|---|---|---|---|---|---|---|---|---|"]
    for v, r, vs_bf16, vs_torch in rows(results):
        name = variant_name(v)
        if "error" in r:
            lines.append("| %s | %s: %s |||||||||" % (
                name, "skipped" if r.get("skipped") else "failed",
                r["error"].replace("|", "\\|")))
            continue
        graphs = ("%d / %d" % (r["graphs"], r["graph_breaks"])
                  if v[2] == "compile" and "graphs" in r else "")
        lines.append("| %s | %.1f | %.0f | %.0f | %s | %s | %.1f | %.0f | "
                     "%.4f | %s |" % (
                         name, r["ms"], r["tokens_per_s"], r["tflops"],
                         "%.2f" % vs_bf16 if vs_bf16 else "",
                         "%.2f" % vs_torch if vs_torch else "",
                         r["peak_gib"], r["setup_s"], r["first_loss"],
                         graphs))
    profiled = [(v, r) for v, r in results if "gpu_ms" in r]
    if profiled:
        lines += ["", "CUDA kernel time of one profiled step, ms, by class "
                  "(quantize includes FP8 transposes and scale layouts, "
                  "and in compiled torch-fp8 the ops fused with them). "
                  "Each kernel counts from the end of the kernels before "
                  "it, so an overlap (programmatic dependent launch) is "
                  "counted once; overlap = raw durations minus these; "
                  "idle = gaps with no kernel; busy = the classes' sum "
                  "over the step time.", "",
                  "| variant | GEMM | attention | quantize | optimizer | "
                  "other | overlap | idle | busy |",
                  "|---|---|---|---|---|---|---|---|---|"]
        for v, r in profiled:
            g = r["gpu_ms"]
            raw = r.get("gpu_ms_raw", g)
            lines.append("| %s | %s | %.1f | %s | %.0f%% |" % (
                variant_name(v), " | ".join("%.1f" % g[c]
                                            for c in KERNEL_CLASSES),
                sum(raw.values()) - sum(g.values()),
                "%.1f" % r["idle_ms"] if "idle_ms" in r else "",
                100 * sum(g.values()) / r["ms"]))
    lines += ["", "Command: `%s`" % meta["command"], ""]
    return "\n".join(lines)


def to_json(meta, cfg, results):
    out = dict(meta, config=cfg.as_dict(),
               parameters=parameter_count(cfg), step_flops=step_flops(cfg),
               variants=[])
    for v, r, vs_bf16, vs_torch in rows(results):
        out["variants"].append(dict(
            r, name=variant_name(v), impl=v[0], recipe=v[1], mode=v[2],
            vs_bf16_compile=vs_bf16, vs_torch_fp8=vs_torch))
    return out


def write(args, meta, cfg, results):
    text = markdown(meta, cfg, results)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(to_json(meta, cfg, results), f, indent=1)
            f.write("\n")
    return text


def commit():
    try:
        return subprocess.run(
            ["git", "-C", REPO, "rev-parse", "--short", "HEAD"],
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------

def _list(text):
    return [v for v in text.split(",") if v]


def parse_args(argv=None):
    p = argparse.ArgumentParser(prog="bench/e2e.py",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--layers", type=int, default=4)
    p.add_argument("--seq", type=int, default=8192)
    p.add_argument("--batch", type=int, default=1)
    p.add_argument("--vocab", type=int, default=256)
    p.add_argument("--dim", type=int, default=LLAMA3_8B["dim"])
    p.add_argument("--heads", type=int, default=LLAMA3_8B["heads"])
    p.add_argument("--kv-heads", type=int, default=LLAMA3_8B["kv_heads"])
    p.add_argument("--hidden", type=int, default=LLAMA3_8B["hidden"])
    p.add_argument("--recipes", type=_list, default=list(RECIPES),
                   help="comma-separated, of %s" % ", ".join(RECIPES))
    p.add_argument("--impls", type=_list, default=list(IMPLS),
                   help="comma-separated, of %s" % ", ".join(IMPLS))
    p.add_argument("--modes", type=_list, default=list(MODES),
                   help="comma-separated, of %s" % ", ".join(MODES))
    p.add_argument("--iters", type=int, default=10)
    p.add_argument("--warmup", type=int, default=3)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--profile", action=argparse.BooleanOptionalAction,
                   default=True,
                   help="profile one more step per variant: CUDA time by "
                   "kernel class (--no-profile skips it)")
    p.add_argument("--pdl", action=argparse.BooleanOptionalAction,
                   default=True,
                   help="launch fp8_mlir's kernels with programmatic "
                   "dependent launch (--no-pdl: plainly, FP8_MLIR_PDL=0)")
    p.add_argument("--budget", type=float,
                   help="seconds: start no variant after this (the rest "
                   "are recorded as skipped)")
    p.add_argument("--chip", help="fp8_mlir's chip (default: the "
                   "device's; sm_90a for --list-shapes and --aot)")
    p.add_argument("--cache", help="the fp8_mlir cache (default "
                   "$FP8_MLIR_CACHE, else ~/.cache/fp8_mlir)")
    p.add_argument("--out", help="the markdown table")
    p.add_argument("--json", help="the results as JSON")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--list-shapes", action="store_true",
                      help="print the aot commands that precompile the "
                      "fp8_mlir programs, and exit")
    what.add_argument("--aot", action="store_true",
                      help="compile the fp8_mlir programs into the cache "
                      "(needs fp8-opt, not torch), and exit")
    what.add_argument("--dry-run", action="store_true",
                      help="print the configuration and the variants, "
                      "and exit (needs no torch)")
    args = p.parse_args(argv)
    if args.iters < 1 or args.warmup < 1:
        p.error("--iters and --warmup must be at least 1")
    try:
        args.config = Config(
            layers=args.layers, seq=args.seq, batch=args.batch,
            vocab=args.vocab, dim=args.dim, heads=args.heads,
            kv_heads=args.kv_heads, hidden=args.hidden,
            rope_theta=LLAMA3_8B["rope_theta"],
            norm_eps=LLAMA3_8B["norm_eps"])
        args.variants = variants(args.impls, args.recipes, args.modes)
    except ValueError as e:
        p.error(str(e))
    if not args.variants:
        p.error("nothing to run: --impls, --recipes and --modes select no "
                "variant")
    return args


def dry_run(args):
    cfg = args.config
    print("model: %s" % json.dumps(cfg.as_dict()))
    print("parameters: %.3fB; parameters, gradients and AdamW states "
          "(bf16): %.1f GiB; %.1f TFLOP a step" % (
              parameter_count(cfg) / 1e9, state_bytes(cfg) / 2 ** 30,
              step_flops(cfg) / 1e12))
    print("linear shapes (K, N) at M = %d: %s" % (
        cfg.tokens, ", ".join("(%d, %d)" % s for s in linear_shapes(cfg))))
    print("variants (%d):" % len(args.variants))
    for v in args.variants:
        print("  " + variant_name(v))
    fp8 = [r for r in args.recipes if "fp8_mlir" in args.impls]
    for cmd in aot_commands(cfg, fp8, args.chip or "sm_90a", args.cache):
        print("aot: " + cmd)
    return 0


def main(argv=None):
    args = parse_args(argv)
    cfg = args.config
    fp8_recipes = args.recipes if "fp8_mlir" in args.impls else []
    if args.dry_run:
        return dry_run(args)
    if args.list_shapes:
        for cmd in aot_commands(cfg, fp8_recipes, args.chip or "sm_90a",
                                args.cache):
            print(cmd)
        return 0
    if args.aot:
        return run_aot(cfg, fp8_recipes, args.chip or "sm_90a", args.cache)
    if args.cache:
        os.environ["FP8_MLIR_CACHE"] = os.path.abspath(args.cache)
    os.environ["FP8_MLIR_PDL"] = "1" if args.pdl else "0"

    import torch
    if not torch.cuda.is_available():
        print("e2e.py: needs a CUDA device (--dry-run and --list-shapes "
              "do not)", file=sys.stderr)
        return 2
    # Every variant compiles the same block code again (and the baseline
    # one quantizer per shape): dynamo's default limit of 8 would make
    # later variants fall back to eager without a word.
    torch._dynamo.config.recompile_limit = 512
    torch._dynamo.config.cache_size_limit = 512
    meta = {"device": torch.cuda.get_device_name(),
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "commit": commit(), "iters": args.iters, "warmup": args.warmup,
            "pdl": args.pdl,
            "command": " ".join(["python3", "bench/e2e.py"] +
                                (sys.argv[1:] if argv is None else argv))}
    g = torch.Generator(device="cuda").manual_seed(args.seed)
    tokens = torch.randint(cfg.vocab, (cfg.batch, cfg.seq + 1), device="cuda",
                           generator=g)
    results = run_all(
        args.variants, lambda v: run_variant(torch, cfg, v, args, tokens),
        args.budget, lambda done: write(args, meta, cfg, done))
    print(write(args, meta, cfg, results))
    failed = sum("error" in r for _, r in results)
    return 1 if failed == len(results) else 0


if __name__ == "__main__":
    sys.exit(main())
