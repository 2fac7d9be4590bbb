#!/usr/bin/env python3
"""Train a GPT on real text with fp8_mlir's compiled FP8 programs.

    python3 examples/train_gpt.py --recipe blockwise --steps 1000 --out runs/bw
    python3 examples/train_gpt.py --recipe bf16 --size large --steps 30 --profile

The model: pre-norm GPT, RMSNorm, rotary positions, SwiGLU MLP, no biases,
byte-level tokens (vocabulary 256: nothing to download). Every linear layer
of attention (qkv, out) is an fp8_mlir.nn.Linear and every MLP an
fp8_mlir.nn.MLP (w2 (silu(w1 x) * (w3 x)), compiled with its activation)
under --recipe; `bf16` uses torch.nn.Linear and the same MLP in PyTorch.
Embedding, norms, attention (SDPA) and the output head stay PyTorch bf16.
Parameters are bf16 for compute with fp32 master copies in AdamW.

The text: the Python sources of the standard library and the installed
packages of the interpreter that runs this (they are on every machine that
has PyTorch), read in sorted order; a file goes to the validation split when
a hash of its relative path says so (--val-every), so the split does not
depend on which other files exist.

Every run is seeded (--seed): initialization, batch order and the data are
the same for every recipe, and with PyTorch's deterministic algorithms (the
default; --no-deterministic) a run repeats bit for bit. Progress: one line
per --log-every steps with loss, tokens/s and ETA; validation loss every
--eval-every steps (on --eval-batches random windows, or with --eval-full on
the whole held-out split); a JSON line per logged step in OUT/log.jsonl;
--save-curve PATH writes the loss curve, configuration, device and commit
as one JSON (what bench/loss_parity.py collects);
checkpoints in OUT/ckpt.pt (--resume continues one). --monitor logs fp8_mlir's per-quantization health
statistics (docs/Training.md). --profile splits the step time into GEMMs,
quantization and the rest (torch.profiler, a few steps). --compile runs
every block and the loss through torch.compile, bf16 and FP8 alike (the
FP8 layers stay custom ops inside the compiled blocks).

Programs are compiled per shape on first use, or found in FP8_MLIR_CACHE:
`--aot` compiles every program a configuration needs (where fp8-opt is;
needs no PyTorch) so that a machine without a compiler can run it.
"""

import argparse
import hashlib
import json
import math
import os
import sys
import sysconfig
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(REPO, "python"))

# name: (dim, layers, heads, mlp hidden, sequence length, batch)
SIZES = {
    "tiny": (256, 2, 4, 768, 256, 4),
    "small": (768, 12, 12, 3072, 1024, 8),
    "large": (2048, 16, 16, 5632, 2048, 4),
}
RECIPES = ("bf16", "tensorwise", "delayed", "rowwise", "blockwise", "mxfp8")
VOCAB = 256


# --------------------------------------------------------------------------
# Data (no PyTorch needed)
# --------------------------------------------------------------------------

def source_roots():
    """The directories whose .py files are the corpus: the standard library
    and the installed packages of this interpreter."""
    paths = sysconfig.get_paths()
    roots = []
    for key in ("stdlib", "purelib", "platlib"):
        p = paths.get(key)
        if p and os.path.isdir(p) and p not in roots:
            roots.append(p)
    return roots


def list_sources(roots):
    """(root, relative path) of every .py file under `roots`, sorted; a
    file reachable from two roots is listed once."""
    seen, out = set(), []
    for root in roots:
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames.sort()
            for name in sorted(filenames):
                if not name.endswith(".py"):
                    continue
                full = os.path.realpath(os.path.join(dirpath, name))
                if full in seen:
                    continue
                seen.add(full)
                out.append((root, os.path.relpath(os.path.join(dirpath, name),
                                                  root)))
    out.sort(key=lambda rp: (rp[1], rp[0]))
    return out


def is_validation(relpath, val_every):
    """Whether a file belongs to the validation split: one file in
    `val_every`, by a hash of its relative path."""
    h = hashlib.sha256(relpath.encode("utf-8", "surrogateescape")).digest()
    return int.from_bytes(h[:4], "little") % val_every == 0


def read_corpus(roots, val_every=20, max_bytes=96 << 20):
    """(train bytes, validation bytes, description). Files are joined by a
    NUL byte; reading stops once the training split has `max_bytes`."""
    train, val = bytearray(), bytearray()
    files = [0, 0]
    digest = hashlib.sha256()
    for root, rel in list_sources(roots):
        if len(train) >= max_bytes:
            break
        try:
            with open(os.path.join(root, rel), "rb") as f:
                data = f.read()
        except OSError:
            continue
        split = 1 if is_validation(rel, val_every) else 0
        (val if split else train).extend(data + b"\0")
        files[split] += 1
        digest.update(rel.encode("utf-8", "surrogateescape") + b"\0")
        digest.update(data)
    desc = {"roots": roots, "train_bytes": len(train),
            "val_bytes": len(val), "train_files": files[0],
            "val_files": files[1], "sha256": digest.hexdigest()[:16],
            "val_every": val_every}
    return bytes(train), bytes(val), desc


def lr_at(step, steps, lr, warmup, min_ratio=0.1):
    """Linear warmup to `lr`, then cosine decay to `min_ratio * lr`."""
    if step < warmup:
        return lr * (step + 1) / warmup
    t = min(1.0, (step - warmup) / max(1, steps - warmup))
    return lr * (min_ratio + (1 - min_ratio) * 0.5 * (1 + math.cos(math.pi *
                                                                   t)))


def parameter_count(size):
    """Parameters of a configuration (embedding and head included)."""
    dim, layers, _, hidden, _, _ = SIZES[size]
    per_layer = 4 * dim * dim + 3 * dim * hidden + 2 * dim
    return layers * per_layer + 2 * VOCAB * dim + dim


def layer_shapes(size, batch=None, mlp="fused", nproc=1):
    """The fp8_mlir programs a configuration needs, per GPU: (kind,
    dict); M is the tokens of one GPU's share of the batch."""
    dim, _, _, hidden, seq, default_batch = SIZES[size]
    m = seq * (batch or default_batch) // nproc
    shapes = [("linear", dict(m=m, n=3 * dim, k=dim)),
              ("linear", dict(m=m, n=dim, k=dim))]
    if mlp == "fused":
        shapes.append(("mlp", dict(m=m, dim=dim, hidden=hidden)))
    else:
        shapes += [("linear", dict(m=m, n=hidden, k=dim)),
                   ("linear", dict(m=m, n=dim, k=hidden))]
    return shapes


def full_eval_windows(n_bytes, seq):
    """The whole split as consecutive windows of seq + 1 bytes that overlap
    by one (each window's targets are the next window's inputs shifted):
    (window count, predicted tokens). Every byte but the first and the
    last (n_bytes - 1) % seq is predicted exactly once."""
    windows = max(0, (n_bytes - 1) // seq)
    return windows, windows * seq


def eval_batch_rows(windows, batch):
    """(first window, real rows) of each evaluation batch of `batch` rows:
    the last batch is padded to `batch` rows (the compiled programs are
    per shape), and its padding is masked out of the loss."""
    return [(i, min(batch, windows - i)) for i in range(0, windows, batch)]


CURVE_FORMAT = "fp8-mlir-loss-curve/1"


def git_commit(repo=REPO):
    """The checkout's commit ('+dirty' when tracked files differ), from
    FP8_MLIR_COMMIT where set (a copy of the tree without .git), else
    None."""
    env = os.environ.get("FP8_MLIR_COMMIT")
    if env:
        return env
    import subprocess
    try:
        head = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"],
                              capture_output=True, text=True, timeout=10)
        if head.returncode:
            return None
        dirty = subprocess.run(["git", "-C", repo, "status", "--porcelain",
                                "--untracked-files=no"],
                               capture_output=True, text=True, timeout=10)
        return head.stdout.strip() + ("+dirty" if dirty.stdout.strip()
                                      else "")
    except (OSError, subprocess.SubprocessError):
        return None


def write_json_atomic(path, obj):
    """Writes `obj` to `path` through a temporary file, so a reader (or a
    run killed mid-write) never sees half a file."""
    d = os.path.dirname(os.path.abspath(path))
    os.makedirs(d, exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def format_eta(seconds):
    seconds = int(max(0, seconds))
    return "%d:%02d:%02d" % (seconds // 3600, seconds // 60 % 60,
                             seconds % 60)


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--recipe", default="blockwise",
                   help="one of %s, or an #fp8.recipe<...> attribute (e.g. "
                   "'#fp8.recipe<blockwise, gradient = e5m2>')" %
                   ", ".join(RECIPES))
    p.add_argument("--size", default="small", choices=sorted(SIZES))
    p.add_argument("--steps", type=int, default=1000)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--warmup", type=int, default=100)
    p.add_argument("--weight-decay", type=float, default=0.1)
    p.add_argument("--clip", type=float, default=1.0)
    p.add_argument("--seed", type=int, default=1234)
    p.add_argument("--batch", type=int, help="sequences per step "
                   "(default: the size's)")
    p.add_argument("--val-every", type=int, default=20,
                   help="one file in N goes to validation")
    p.add_argument("--max-bytes", type=int, default=96 << 20)
    p.add_argument("--eval-every", type=int, default=100)
    p.add_argument("--eval-batches", type=int, default=16,
                   help="batches of random held-out windows per "
                   "validation (without --eval-full)")
    p.add_argument("--eval-full", action="store_true",
                   help="validate on the whole held-out split (every "
                   "byte once, in consecutive windows) instead of "
                   "--eval-batches random windows: what loss comparisons "
                   "use")
    p.add_argument("--save-curve", metavar="PATH",
                   help="write the run's curve (step, tokens, mean training "
                   "loss since the last log, validation loss) with its "
                   "configuration, seed, device, torch version and commit "
                   "as JSON; rewritten at every validation, 'complete' once "
                   "the run ends")
    p.add_argument("--log-every", type=int, default=10)
    p.add_argument("--ckpt-every", type=int, default=0,
                   help="steps between checkpoints (0: only at the end)")
    p.add_argument("--out", help="directory for log.jsonl and ckpt.pt")
    p.add_argument("--resume", action="store_true",
                   help="continue from OUT/ckpt.pt")
    p.add_argument("--monitor", action="store_true",
                   help="log fp8_mlir's quantization health statistics")
    p.add_argument("--monitor-every", type=int, default=10)
    p.add_argument("--profile", action="store_true",
                   help="split step time into GEMMs, quantization, rest")
    p.add_argument("--compile", action="store_true",
                   help="torch.compile every block and the loss: the "
                   "non-FP8 parts (norms, rotary, residuals, bf16's "
                   "linears and SwiGLU) fuse around fp8_mlir's layers, "
                   "which stay custom ops; one GPU, no --monitor")
    p.add_argument("--aot", action="store_true",
                   help="compile the programs this configuration needs "
                   "into FP8_MLIR_CACHE and exit (needs fp8-opt, not torch)")
    p.add_argument("--deterministic", action=argparse.BooleanOptionalAction,
                   default=True,
                   help="PyTorch's deterministic algorithms, so that a "
                   "run repeats bit for bit (fp8_mlir's kernels are "
                   "deterministic); --no-deterministic for PyTorch's "
                   "faster defaults")
    p.add_argument("--chip", default="sm_90a")
    p.add_argument("--nproc", type=int, default=1,
                   help="GPUs: FSDP2 (fully_shard) over N processes; "
                   "started with torchrun unless already under it")
    p.add_argument("--mlp", choices=("fused", "linears"),
                   help="fused: fp8_mlir.nn.MLP (the SwiGLU compiled with "
                   "the GEMMs); linears: three fp8_mlir.nn.Linear and "
                   "SwiGLU in PyTorch (what --nproc > 1 uses, so the "
                   "1-GPU reference of a sharded run passes it too)")
    p.add_argument("--all-gather", choices=("fp8", "bf16"),
                   help="with --nproc > 1: all-gather weights in FP8 "
                   "(tensorwise and blockwise; the default there) or bf16")
    args = p.parse_args(argv)
    if args.steps <= 0:
        p.error("--steps must be positive")
    for name in ("eval_every", "log_every", "eval_batches"):
        if getattr(args, name) <= 0:
            p.error("--%s must be positive" % name.replace("_", "-"))
    if args.save_curve and args.profile:
        p.error("--save-curve records a training run, not --profile")
    if args.resume and not args.out:
        p.error("--resume needs --out")
    if args.recipe not in RECIPES and not args.recipe.startswith(
            "#fp8.recipe<"):
        p.error("--recipe: expected one of %s or an #fp8.recipe<...> "
                "attribute, got %r" % (", ".join(RECIPES), args.recipe))
    if args.monitor and args.recipe == "bf16":
        p.error("--monitor needs an FP8 recipe")
    if args.nproc < 1:
        p.error("--nproc must be positive")
    if args.compile and args.monitor:
        p.error("--compile does not support --monitor (the statistics "
                "are kept in Python dicts from inside the layers)")
    # Under torchrun the world size is torchrun's (--nproc may be left out:
    # torchrun's own parser refuses it among the script's arguments, as an
    # ambiguous abbreviation of its --nproc-per-node).
    world = int(os.environ.get("WORLD_SIZE", "0") or 0)
    if world:
        if args.nproc not in (1, world):
            p.error("--nproc %d, but torchrun started %d processes" % (
                args.nproc, world))
        args.nproc = world
    if args.compile and args.nproc > 1:
        p.error("--compile is for one GPU (FSDP2's hooks around compiled "
                "blocks are not wired up here)")
    if args.mlp is None:
        args.mlp = "linears" if args.nproc > 1 else "fused"
    if args.nproc > 1 and args.mlp != "linears":
        p.error("--nproc > 1 needs --mlp linears (FP8 all-gather shards "
                "fp8_mlir.nn.Linear weights)")
    fp8_gather = args.recipe in ("tensorwise", "blockwise")
    if args.all_gather is None:
        args.all_gather = "fp8" if fp8_gather and args.nproc > 1 else "bf16"
    if args.all_gather == "fp8" and not fp8_gather:
        p.error("--all-gather fp8 supports the tensorwise and blockwise "
                "recipes")
    batch = args.batch or SIZES[args.size][5]
    if batch % args.nproc:
        p.error("the batch (%d sequences) must divide among %d GPUs" % (
            batch, args.nproc))
    return args


def run_aot(args):
    """Compiles every program of the configuration (no torch)."""
    import fp8_mlir
    from fp8_mlir import fsdp
    recipes = RECIPES[1:] if args.recipe == "bf16" else (args.recipe,)
    for recipe in recipes:
        for kind, shape in layer_shapes(args.size, args.batch, args.mlp,
                                        args.nproc):
            # split=None: the programs fp8_mlir.nn uses (forward's FP8
            # kept for backward where the recipe allows it).
            extra = dict(monitor=bool(args.monitor), split=None)
            if args.nproc > 1 and recipe in ("tensorwise", "blockwise"):
                # What FP8 all-gather runs: the rank's shard quantized,
                # and the layer on the gathered FP8 weight.
                fsdp.compile_quantize_weight(shape["n"] // args.nproc,
                                             shape["k"], recipe, args.chip)
                lp = fsdp.compile_prequantized_linear(
                    shape["m"], shape["n"], shape["k"], recipe, args.chip)
                print("%s fp8 all-gather %s: %s" % (recipe, shape, lp.path))
            if kind == "linear":
                lp = fp8_mlir.compile_linear(recipe=recipe, chip=args.chip,
                                             **shape, **extra)
            else:
                lp = fp8_mlir.compile_mlp(recipe=recipe, chip=args.chip,
                                          activation="swiglu", **shape,
                                          **extra)
            print("%s %s %s: %s" % (recipe, kind, shape, lp.path))
    return 0


# --------------------------------------------------------------------------
# Model and training (PyTorch)
# --------------------------------------------------------------------------

def build_model(torch, args, device):
    import fp8_mlir
    import torch.nn.functional as F
    dim, n_layers, heads, hidden, seq, _ = SIZES[args.size]
    fp8 = args.recipe != "bf16"
    monitor = {"monitor": True} if args.monitor else {}

    def linear(n_in, n_out):
        if fp8:
            return fp8_mlir.nn.Linear(n_in, n_out, bias=False,
                                      recipe=args.recipe, chip=args.chip,
                                      device=device, **monitor)
        return torch.nn.Linear(n_in, n_out, bias=False, device=device,
                               dtype=torch.bfloat16)

    class RMSNorm(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.weight = torch.nn.Parameter(
                torch.ones(dim, device=device, dtype=torch.bfloat16))

        def forward(self, x):
            return F.rms_norm(x, (dim,), self.weight, 1e-6)

    class TorchMLP(torch.nn.Module):
        """fp8_mlir.nn.MLP's parameters and math in PyTorch bf16."""

        def __init__(self):
            super().__init__()
            self.w1 = torch.nn.Parameter(torch.empty(
                hidden, dim, device=device, dtype=torch.bfloat16))
            self.w3 = torch.nn.Parameter(torch.empty_like(self.w1))
            self.w2 = torch.nn.Parameter(torch.empty(
                dim, hidden, device=device, dtype=torch.bfloat16))

        def forward(self, x):
            return F.linear(F.silu(F.linear(x, self.w1)) *
                            F.linear(x, self.w3), self.w2)

    class LinearMLP(torch.nn.Module):
        """The same MLP from three fp8_mlir.nn.Linear layers, SwiGLU in
        PyTorch: what FSDP2's FP8 all-gather shards."""

        def __init__(self):
            super().__init__()
            self.w1, self.w3 = linear(dim, hidden), linear(dim, hidden)
            self.w2 = linear(hidden, dim)

        def forward(self, x):
            return self.w2(F.silu(self.w1(x)) * self.w3(x))

    def mlp():
        if not fp8:
            return TorchMLP()
        if args.mlp == "linears":
            return LinearMLP()
        return fp8_mlir.nn.MLP(dim, hidden, activation="swiglu",
                               recipe=args.recipe, chip=args.chip,
                               device=device, **monitor)

    def rotary(t, cos, sin):
        a, b = t[..., ::2], t[..., 1::2]
        return torch.stack((a * cos - b * sin, a * sin + b * cos),
                           dim=-1).flatten(-2)

    class Block(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.norm1, self.norm2 = RMSNorm(), RMSNorm()
            self.qkv = linear(dim, 3 * dim)
            self.out = linear(dim, dim)
            self.mlp = mlp()

        def forward(self, x, cos, sin):
            b, t, _ = x.shape
            q, k, v = self.qkv(self.norm1(x)).view(
                b, t, 3, heads, dim // heads).transpose(1, 3).unbind(2)
            q, k = rotary(q, cos, sin), rotary(k, cos, sin)
            a = F.scaled_dot_product_attention(q, k, v, is_causal=True)
            x = x + self.out(a.transpose(1, 2).reshape(b, t, dim))
            return x + self.mlp(self.norm2(x))

    class GPT(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = torch.nn.Embedding(VOCAB, dim, device=device,
                                            dtype=torch.bfloat16)
            self.blocks = torch.nn.ModuleList(Block()
                                              for _ in range(n_layers))
            self.norm = RMSNorm()
            self.head = torch.nn.Linear(dim, VOCAB, bias=False,
                                        device=device, dtype=torch.bfloat16)
            half = dim // heads // 2
            inv = 1.0 / (10000 ** (torch.arange(half, device=device) / half))
            ang = torch.outer(torch.arange(seq, device=device).float(), inv)
            self.register_buffer("cos", ang.cos().bfloat16(),
                                 persistent=False)
            self.register_buffer("sin", ang.sin().bfloat16(),
                                 persistent=False)

        def forward(self, idx):
            x = self.embed(idx)
            t = idx.shape[1]
            for block in self.blocks:
                x = block(x, self.cos[:t], self.sin[:t])
            return self.head(self.norm(x))

    model = GPT()
    # Initialization drawn after a fresh seed, in the parameters' order
    # (the same names and shapes for every recipe: the layers' own
    # initializations draw different numbers): GPT-2's normal, std 0.02,
    # residual outputs scaled by 1/sqrt(2 layers).
    torch.manual_seed(args.seed)
    with torch.no_grad():
        for name, p in model.named_parameters():
            if p.dim() == 2:
                std = 0.02
                if name.endswith("out.weight") or ".mlp.w2" in name:
                    std /= math.sqrt(2 * n_layers)
                p.normal_(0.0, std)
    return model


def batch_at(torch, data, step, batch, seq, seed, device, split=0):
    """Batch `step` of a split: random windows drawn from (seed, split,
    step), so every recipe sees the same batches in the same order."""
    g = torch.Generator().manual_seed(seed * 1000003 + split * 7919 + step)
    starts = torch.randint(0, data.numel() - seq - 1, (batch,), generator=g)
    rows = torch.stack([data[s:s + seq + 1] for s in starts.tolist()])
    if torch.device(device).type == "cuda":
        # From pageable memory a copy waits for the stream to drain (the
        # previous step's last kernel) before it starts; from pinned
        # memory it is queued, and the host runs ahead.
        rows = rows.pin_memory()
    rows = rows.to(device, non_blocking=True).long()
    return rows[:, :-1], rows[:, 1:]


def grads_to_masters(torch, masters, params):
    """The parameters' bf16 gradients (the rank's shards) cast into new
    fp32 gradients of their masters by one multi-tensor copy, instead of a
    .float() kernel per parameter; the bf16 ones are freed for the next
    backward."""
    grads = [torch.empty_like(m) for m in masters]
    torch._foreach_copy_(grads, [local(p.grad) for p in params])
    for m, g, p in zip(masters, grads, params):
        m.grad = g
        p.grad = None


def masters_to_params(torch, masters, params):
    """The updated fp32 masters rounded into the bf16 parameters the model
    computes with: one multi-tensor copy, not one per parameter."""
    with torch.no_grad():
        torch._foreach_copy_([local(p) for p in params], masters)


def compile_blocks(torch, model, args, x):
    """Compiles every block in place (--compile). fp8_mlir's layers
    find their programs on first use (cache lookups, file reads, a ctypes
    load: nothing dynamo traces), so one forward of `x` without gradients
    loads them first; the delayed recipe's histories are put back as they
    were (zeros where that forward created them). Inside the compiled
    blocks the FP8 layers are custom ops; the norms, rotary positions,
    attention's reshapes, the residuals and bf16's SwiGLU fuse around
    them."""
    if args.recipe != "bf16":
        before = {n: b.clone() for n, b in history_buffers(model).items()}
        with torch.no_grad():
            model(x)
            for n, b in history_buffers(model).items():
                if n in before:
                    b.copy_(before[n])
                else:
                    b.zero_()
    # The blocks share one compiled graph where their guards agree; should
    # a block need its own, dynamo's default limit of 8 would run the rest
    # eagerly without a word.
    limit = max(64, 4 * len(model.blocks))
    torch._dynamo.config.recompile_limit = limit
    torch._dynamo.config.cache_size_limit = limit
    for block in model.blocks:
        block.compile()


def history_buffers(model):
    return {n: b for n, b in model.named_buffers()
            if n.rsplit(".", 1)[-1].startswith("amax_history_")}


def monitor_record(model):
    """{layer.role/tensor: stats} of the fp8_mlir modules' last calls."""
    out = {}
    for name, mod in model.named_modules():
        stats = getattr(mod, "fp8_stats", None)
        if stats:
            for key, value in stats.items():
                out["%s/%s" % (name, key)] = value
    return out


def classify_kernel(name):
    """'gemm', 'attention', 'quantize' or 'other' for a CUDA kernel's
    name."""
    n = name.lower()
    if any(s in n for s in ("sdpa", "flash", "fmha", "attention")):
        return "attention"
    if n.startswith("triton_"):
        # torch.compile's kernels, named after the ops they fuse (which
        # may include a transpose): elementwise work and norms here, or
        # a matmul where inductor wrote one from a template.
        return "gemm" if n.startswith("triton_tem_") else "other"
    # FP8 preparation: quantization, and the transposes and scale
    # re-layouts the FP8 operands need.
    if any(s in n for s in ("quantize", "amax", "cast_transpose",
                            "align_scales", "hadamard", "transpose")):
        return "quantize"
    if any(s in n for s in ("matmul", "gemm", "nvjet", "xmma", "cutlass",
                            "wgmma")):
        return "gemm"
    return "other"


class Dist:
    """The process group of a sharded run (--nproc > 1, under torchrun), or
    nothing: rank 0 of 1."""

    def __init__(self, torch, nproc):
        self.torch, self.world, self.rank, self.dist = torch, 1, 0, None
        self.device = torch.device("cuda")
        if nproc == 1:
            return
        import torch.distributed as dist
        local = int(os.environ["LOCAL_RANK"])
        self.device = torch.device("cuda", local)
        torch.cuda.set_device(self.device)
        dist.init_process_group("nccl", device_id=self.device)
        self.dist, self.world, self.rank = (dist, dist.get_world_size(),
                                            dist.get_rank())

    def mean(self, value):
        """The mean over ranks of a scalar tensor."""
        if self.dist:
            value = value.detach().clone()
            self.dist.all_reduce(value)
            value /= self.world
        return value

    def share(self, rows):
        """This rank's rows of a global batch."""
        n = rows.shape[0] // self.world
        return rows[self.rank * n:(self.rank + 1) * n]


def local(t):
    """The rank's shard of a parameter or gradient (a plain tensor's
    self)."""
    return t.to_local() if hasattr(t, "to_local") else t


def without_nproc(argv):
    """`argv` less its --nproc (torchrun's parser would refuse it; the
    processes take the world size from torchrun)."""
    out, skip = [], False
    for i, a in enumerate(argv):
        if skip:
            skip = False
        elif a == "--nproc":
            skip = True
        elif not a.startswith("--nproc="):
            out.append(a)
    return out


def main(argv=None):
    t_process = time.time()
    args = parse_args(argv)
    if args.aot:
        return run_aot(args)
    if args.nproc > 1 and "LOCAL_RANK" not in os.environ:
        import subprocess
        cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone",
               "--nproc_per_node", str(args.nproc), os.path.abspath(__file__)]
        return subprocess.call(cmd + without_nproc(sys.argv[1:] if argv is None
                                                   else list(argv)))
    if args.deterministic:
        # cuBLAS reproducibility needs a fixed workspace, set before the
        # first handle exists.
        os.environ.setdefault("CUBLAS_WORKSPACE_CONFIG", ":4096:8")
    import torch
    import torch.nn.functional as F
    if args.deterministic:
        torch.use_deterministic_algorithms(True)
        # cuDNN (SDPA's backend among others): no autotuning, which may
        # pick a different algorithm per process, and deterministic ones.
        torch.backends.cudnn.benchmark = False
        torch.backends.cudnn.deterministic = True
    dist = Dist(torch, args.nproc)
    device = dist.device
    lead = dist.rank == 0
    dim, n_layers, heads, hidden, seq, batch = SIZES[args.size]
    batch = args.batch or batch
    tokens_per_step = batch * seq

    def say(text):
        if lead:
            print(text, flush=True)

    t0 = time.time()
    train_bytes, val_bytes, corpus = read_corpus(
        source_roots(), args.val_every, args.max_bytes)
    train = torch.frombuffer(bytearray(train_bytes), dtype=torch.uint8)
    val = torch.frombuffer(bytearray(val_bytes), dtype=torch.uint8)
    say("corpus: %d train bytes (%d files), %d validation bytes (%d "
        "files), sha %s, read in %.1f s" % (
            corpus["train_bytes"], corpus["train_files"],
            corpus["val_bytes"], corpus["val_files"], corpus["sha256"],
            time.time() - t0))

    model = build_model(torch, args, device)
    n_params = sum(p.numel() for p in model.parameters())
    advisor = None
    if args.monitor:
        from fp8_mlir import health
        advisor = health.HealthAdvisor(warn=say)
    if dist.dist:
        from torch.distributed.fsdp import fully_shard
        if args.all_gather == "fp8":
            from fp8_mlir import fsdp
            fsdp.enable_fp8_all_gather(model, world_size=dist.world)
        for block in model.blocks:
            fully_shard(block)
        fully_shard(model)
    params = list(model.parameters())
    # fp32 masters of the rank's shards (the whole parameters on one GPU).
    masters = []
    with torch.no_grad():
        for p in params:
            shard = local(p)
            m = torch.empty(shard.shape, dtype=torch.float32, device=device)
            m.copy_(shard)
            masters.append(m.requires_grad_(True))
    decay = [m for m, p in zip(masters, params) if p.dim() == 2]
    no_decay = [m for m, p in zip(masters, params) if p.dim() < 2]
    opt = torch.optim.AdamW([
        {"params": decay, "weight_decay": args.weight_decay},
        {"params": no_decay, "weight_decay": 0.0}],
        lr=args.lr, betas=(0.9, 0.95), fused=True)
    say("model: %s, %.1fM parameters, recipe %s, %d tokens per step%s" % (
        args.size, n_params / 1e6, args.recipe, tokens_per_step,
        ", FSDP2 over %d GPUs, %s all-gather" % (dist.world, args.all_gather)
        if dist.dist else ""))

    start = 0
    log = None
    ckpt_path = None
    if args.out:
        os.makedirs(args.out, exist_ok=True)
        ckpt_path = os.path.join(args.out, "ckpt.pt" if dist.world == 1
                                 else "ckpt-rank%d.pt" % dist.rank)
        if args.resume:
            ckpt = torch.load(ckpt_path, map_location=device)
            with torch.no_grad():
                for m, p, saved in zip(masters, params, ckpt["masters"]):
                    m.copy_(saved)
                    local(p).copy_(saved)
            opt.load_state_dict(ckpt["optimizer"])
            start = ckpt["step"]
            say("resumed at step %d" % start)
        if lead:
            log = open(os.path.join(args.out, "log.jsonl"),
                       "a" if args.resume else "w")
            if not args.resume:
                log.write(json.dumps({
                    "config": vars(args), "corpus": corpus,
                    "parameters": n_params,
                    "device": torch.cuda.get_device_name(),
                    "gpus": dist.world, "torch": torch.__version__}) + "\n")

    def cross_entropy(logits, y):
        return F.cross_entropy(logits.float().view(-1, VOCAB), y.reshape(-1))

    if args.compile:
        cross_entropy = torch.compile(cross_entropy)

    def forward_loss(x, y):
        return cross_entropy(model(x), y)

    def get_batch(data, step, split=0):
        x, y = batch_at(torch, data, step, batch, seq, args.seed, device,
                        split)
        return dist.share(x), dist.share(y)

    val_windows, val_tokens = full_eval_windows(val.numel(), seq)
    if args.eval_full:
        # Every window of the split, on the GPU once (the split is a few
        # MB): batches are then slices, with no host copies.
        val_rows = val[:val_windows * seq + 1].unfold(0, seq + 1, seq)
        val_rows = val_rows.to(device)
        say("validation: the whole held-out split, %d windows, %d tokens, "
            "%d batches" % (val_windows, val_tokens,
                            len(eval_batch_rows(val_windows, batch))))
    else:
        val_tokens = args.eval_batches * batch * seq

    def evaluate_full():
        """Mean loss per predicted byte over the whole split: sums of the
        per-token losses (padding rows masked), one sync at the end."""
        total = torch.zeros((), dtype=torch.float64, device=device)
        for first, real in eval_batch_rows(val_windows, batch):
            rows = val_rows[first:first + real]
            if real < batch:
                rows = torch.cat([rows, rows[:1].expand(batch - real, -1)])
            rows = rows.long()
            x, y = rows[:, :-1], rows[:, 1:].clone()
            y[real:] = -100
            x, y = dist.share(x), dist.share(y)
            loss = F.cross_entropy(model(x).float().view(-1, VOCAB),
                                   y.reshape(-1), ignore_index=-100,
                                   reduction="sum")
            total += loss.double()
        if dist.dist:
            dist.dist.all_reduce(total)
        return total.item() / val_tokens

    def evaluate():
        # The delayed recipe's histories must not see validation data.
        saved = {n: b.clone() for n, b in history_buffers(model).items()}
        total = 0.0
        with torch.no_grad():
            if args.eval_full:
                total = evaluate_full()
            else:
                for i in range(args.eval_batches):
                    total += dist.mean(
                        forward_loss(*get_batch(val, i, 1))).item()
                total /= args.eval_batches
            for n, b in history_buffers(model).items():
                b.copy_(saved[n])
        return total

    if args.resume and ckpt.get("histories"):
        # The delayed recipe's histories are created on first use: one
        # forward creates them, then they are overwritten.
        with torch.no_grad():
            forward_loss(*get_batch(train, 0))
            for n, b in history_buffers(model).items():
                b.copy_(ckpt["histories"][n])

    if args.compile:
        compile_blocks(torch, model, args, get_batch(train, start)[0])

    def save(step):
        if not ckpt_path:
            return
        torch.save({"step": step, "masters": [m.detach() for m in masters],
                    "optimizer": opt.state_dict(),
                    "histories": {n: b.clone() for n, b in
                                  history_buffers(model).items()},
                    "config": vars(args)}, ckpt_path + ".tmp")
        os.replace(ckpt_path + ".tmp", ckpt_path)

    def clip_grad_norm():
        if not dist.dist:
            return torch.nn.utils.clip_grad_norm_(masters, args.clip)
        # The shards' squares summed over ranks: the whole gradient's norm.
        sq = torch.stack([m.grad.pow(2).sum() for m in masters]).sum()
        dist.dist.all_reduce(sq)
        norm = sq.sqrt()
        coef = torch.clamp(args.clip / (norm + 1e-6), max=1.0)
        torch._foreach_mul_([m.grad for m in masters], coef)
        return norm

    def train_step(step):
        for g in opt.param_groups:
            g["lr"] = lr_at(step, args.steps, args.lr, args.warmup)
        loss = forward_loss(*get_batch(train, step))
        loss.backward()
        grads_to_masters(torch, masters, params)
        norm = clip_grad_norm()
        opt.step()
        opt.zero_grad(set_to_none=True)
        masters_to_params(torch, masters, params)
        return dist.mean(loss), norm

    if args.profile:
        return profile(torch, args, train_step, tokens_per_step, log, dist)

    counter = None
    if dist.dist:
        from fp8_mlir import fsdp
        counter = fsdp.AllGatherCounter(dist.dist)
    curve = None
    if args.save_curve and lead:
        curve = {
            "format": CURVE_FORMAT, "complete": False, "status": "running",
            "recipe": args.recipe, "seed": args.seed, "steps": args.steps,
            "size": args.size, "batch": batch, "seq": seq,
            "tokens_per_step": tokens_per_step, "lr": args.lr,
            "warmup": args.warmup, "deterministic": args.deterministic,
            "config": vars(args), "corpus": corpus, "parameters": n_params,
            "device": torch.cuda.get_device_name(device), "gpus": dist.world,
            "torch": torch.__version__, "cuda": torch.version.cuda,
            "python": sys.version.split()[0], "commit": git_commit(),
            "validation": {"full": args.eval_full, "tokens": val_tokens,
                           "every": args.eval_every},
            "points": [], "timing": {}}
        if args.resume and os.path.exists(args.save_curve):
            with open(args.save_curve) as f:
                curve["points"] = [pt for pt in json.load(f).get("points", [])
                                   if pt["step"] <= start]
    timing = {"startup_s": 0.0, "train_s": 0.0, "eval_s": 0.0, "evals": 0}

    def save_curve(status):
        if curve is None:
            return
        curve["status"] = status
        curve["complete"] = status in ("done", "diverged")
        timing["wall_s"] = time.time() - t_process
        steps_run = max(1, (curve["points"][-1]["step"] if curve["points"]
                            else start) - start)
        timing["s_per_step"] = timing["train_s"] / steps_run
        timing["s_per_eval"] = (timing["eval_s"] / timing["evals"]
                                if timing["evals"] else None)
        curve["timing"] = dict(timing)
        # The last step's validation loss; none for a run that stopped
        # before it.
        last = curve["points"][-1] if curve["points"] else {}
        curve["final_val_loss"] = (last.get("val_loss") if
                                   last.get("step") == args.steps else None)
        write_json_atomic(args.save_curve, curve)

    torch.cuda.synchronize()
    t_start = time.time()
    timing["startup_s"] = t_start - t_process
    t_last, step_last = t_start, start
    # The training loss summed on the GPU between logs (no sync per step):
    # a log's loss_mean is over every step since the last, not one batch.
    loss_sum = torch.zeros((), dtype=torch.float32, device=device)
    for step in range(start, args.steps):
        loss, norm = train_step(step)
        loss_sum += loss.detach().float()
        done = step + 1
        record = None
        if done % args.log_every == 0 or done == args.steps:
            loss_v = loss.item()
            loss_mean = loss_sum.item() / (done - step_last)
            loss_sum.zero_()
            now = time.time()
            tps = (done - step_last) * tokens_per_step / (now - t_last)
            t_last, step_last = now, done
            eta = (args.steps - done) * tokens_per_step / tps
            say("step %5d/%d  loss %.4f  grad %.3f  %8.0f tok/s  eta %s" % (
                done, args.steps, loss_v, norm.item(), tps, format_eta(eta)))
            record = {"step": done, "loss": loss_v, "loss_mean": loss_mean,
                      "grad_norm": norm.item(),
                      "tokens_per_s": tps,
                      "lr": opt.param_groups[0]["lr"],
                      "elapsed_s": now - t_start}
            if counter:
                record["all_gather_bytes_per_step"] = \
                    counter.bytes / (done - start)
            if curve is not None:
                curve["points"].append({"step": done,
                                        "tokens": done * tokens_per_step,
                                        "train_loss": loss_mean})
            if not math.isfinite(loss_v):
                say("loss is not finite at step %d; stopping" % done)
                if log:
                    log.write(json.dumps(record) + "\n")
                timing["train_s"] = now - t_start - timing["eval_s"]
                save_curve("diverged")
                return 1
        if args.monitor and (done % args.monitor_every == 0 or done == 1):
            record = record or {"step": done}
            record["fp8_stats"] = monitor_record(model)
            # A fraction flushed or saturated that stays high: warn once
            # per layer and operand, with the override to try.
            for advice in advisor.observe_model(model):
                record.setdefault("fp8_advice", []).append(advice.message)
        if done % args.eval_every == 0 or done == args.steps:
            record = record or {"step": done}
            t_eval = time.time()
            record["val_loss"] = evaluate()
            t_eval = time.time() - t_eval
            timing["eval_s"] += t_eval
            timing["evals"] += 1
            # Validation's time is not the next interval's training time.
            t_last += t_eval
            say("step %5d  validation loss %.4f  (%.1f s)" % (
                done, record["val_loss"], t_eval))
            if curve is not None:
                if not (curve["points"] and curve["points"][-1]["step"] ==
                        done):
                    curve["points"].append({"step": done, "tokens": done *
                                            tokens_per_step,
                                            "train_loss": None})
                curve["points"][-1]["val_loss"] = record["val_loss"]
                timing["train_s"] = time.time() - t_start - timing["eval_s"]
                save_curve("running")
        if record and log:
            log.write(json.dumps(record) + "\n")
            log.flush()
        if args.ckpt_every and done % args.ckpt_every == 0:
            save(done)
    torch.cuda.synchronize()
    total_s = time.time() - t_start
    timing["train_s"] = total_s - timing["eval_s"]
    save_curve("done")
    summary = {"summary": {"steps": args.steps - start, "seconds": total_s,
                           "tokens_per_s": (args.steps - start) *
                           tokens_per_step / total_s}}
    if counter:
        counter.close()
        summary["summary"]["all_gather_bytes_per_step"] = \
            counter.bytes / (args.steps - start)
        summary["summary"]["all_gathers_per_step"] = \
            counter.calls / (args.steps - start)
    say("done: %s" % json.dumps(summary["summary"]))
    save(args.steps)
    if log:
        log.write(json.dumps(summary) + "\n")
        log.close()
    if dist.dist:
        dist.dist.destroy_process_group()
    return 0


def profile(torch, args, train_step, tokens_per_step, log, dist):
    """Tokens/s over steps 10..steps, and the CUDA time of 3 profiled
    steps split into GEMMs, quantization and the rest."""
    warm = min(10, args.steps // 2)
    for step in range(warm):
        train_step(step)
    torch.cuda.synchronize()
    t = time.time()
    for step in range(warm, args.steps):
        train_step(step)
    torch.cuda.synchronize()
    elapsed = time.time() - t
    tps = (args.steps - warm) * tokens_per_step / elapsed
    from torch.profiler import ProfilerActivity
    with torch.profiler.profile(activities=[ProfilerActivity.CUDA]) as prof:
        for step in range(3):
            train_step(args.steps + step)
        torch.cuda.synchronize()
    # Kernel events only (an aten op's device time would count its
    # kernels twice); CUPTI sees the driver-API launches of libfp8rt too.
    split = {"gemm": 0.0, "attention": 0.0, "quantize": 0.0, "other": 0.0}
    kernels = {}
    for e in prof.events():
        if e.device_type != torch.autograd.DeviceType.CUDA:
            continue
        ms = e.time_range.elapsed_us() / 3 / 1000
        kind = classify_kernel(e.name)
        split[kind] += ms
        prev = kernels.get(e.name, (kind, 0.0))
        kernels[e.name] = (kind, prev[1] + ms)
    top = sorted(kernels.items(), key=lambda kv: -kv[1][1])[:25]
    if dist.rank:
        return 0
    result = {"profile": {"recipe": args.recipe, "size": args.size,
                          "tokens_per_s": tps, "step_ms":
                          1000 * elapsed / (args.steps - warm),
                          "cuda_ms_per_step": split,
                          "top_kernels": [[k, v[0], round(v[1], 3)]
                                          for k, v in top]}}
    print("profile: %s %s  %.0f tok/s  %.1f ms/step  CUDA ms/step: %s" % (
        args.size, args.recipe, tps, result["profile"]["step_ms"],
        "  ".join("%s %.2f" % kv for kv in split.items())), flush=True)
    if log:
        log.write(json.dumps(result) + "\n")
        log.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
