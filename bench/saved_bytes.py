"""The bytes a layer keeps from forward for backward, per recipe: fp8_mlir's
split programs (fp8-split-forward-backward: forward's FP8 operands and
scales, and any input backward still reads) against bf16 autograd and
bench/torch_fp8.py's baseline, which both save X and W in bf16.

    PYTHONPATH=python python3 bench/saved_bytes.py [--m 8192] [--cache DIR]

Needs fp8-opt (it compiles the programs; no GPU, no PyTorch): the bytes
come from the shapes and dtypes of the split functions' manifests, which
are what fp8_mlir.nn saves (test/Integration/GPU/check_nn.py checks that
autograd's saved tensors add up to them). Prints a Markdown table
(docs/Training.md).

The MLP row (SwiGLU, dim 4096, hidden 14336) compares with the unsplit
programs', which save X, H1 and H3 and the weights in bf16.

"recompute=weight" compiles with fp8-split-forward-backward's option of
that name: backward quantizes the weights again instead of keeping
forward's FP8 copies, so only activations' FP8 (and the MLP's H1, H3)
are new memory.

"extra" counts only what is not a parameter: a layer that saves W itself
(bf16, torch_fp8) adds nothing to the memory the weight already takes,
while a saved FP8 copy of W is new memory until backward frees it.
"""

import argparse
import json
import os
import sys

from fp8_mlir import compiler, graphs, layers

# Llama-3-8B: attention projections (4096 -> 4096), MLP up/gate (4096 ->
# 14336) and down (14336 -> 4096); (K, N) as bench/layer.py names them.
SHAPES = ((4096, 4096), (4096, 14336), (14336, 4096))
RECIPES = ("tensorwise", "rowwise", "rowwise_gw_hp", "blockwise", "mxfp8")
MIB = 1024.0 * 1024.0
MLP_RECIPES = ("tensorwise", "blockwise")


def weight_derived(label, weights):
    """Whether a saved tensor comes from a weight (joint argument index in
    `weights`) alone."""
    source = label.split(":", 1)[0].split(".", 1)[0]
    return source.startswith("arg") and source[3:].isdigit() and \
        int(source[3:]) in weights


def recomputed_extra(text, recipe, chip, cache, fwd, bwd, inputs):
    """The extra bytes with recompute=weight: what forward saves, the
    kept weights being parameters (X, argument 0, would count)."""
    path = compiler.compile_graph(text, recipe, chip,
                                  split="recompute=weight", cache=cache)
    with open(os.path.join(path, "manifest.json")) as f:
        sig = layers.SavedSignature(json.load(f), fwd, bwd, inputs)
    # A kept X (argument 0, rowwise_gw_hp) is new memory; kept weights
    # are the parameters.
    kept_x = sig.kept_bytes if sig.kept == [0] else 0
    if sig.kept not in ([], [0], [1], [0, 1], [1, 2, 3], [0, 1, 2, 3]):
        raise ValueError("unexpected kept inputs %r" % sig.kept)
    if 0 in sig.kept and sig.kept != [0]:
        kept_x = 2 * _numel(json.load(open(os.path.join(
            path, "manifest.json"))), fwd)
    return sum(s.nbytes for s in sig.saved) + kept_x


def _numel(manifest, fwd):
    """Elements of the forward's first argument (X)."""
    f = next(f for f in manifest["functions"] if f["name"] == fwd)
    count = 1
    for d in f["buffers"][f["arguments"][0]]["shape"]:
        count *= d
    return count


def linear_row(m, k, n, recipe, chip, cache):
    text = graphs.linear_train(m, k, n)
    path = compiler.compile_graph(text, recipe, chip, split=True,
                                  cache=cache)
    with open(os.path.join(path, "manifest.json")) as f:
        manifest = json.load(f)
    sig = layers.SavedSignature(manifest, "linear_train_fwd",
                                "linear_train_bwd", 2)
    bf16 = 2 * (m * k + n * k)
    saved = sig.nbytes
    # Kept inputs: X (argument 0) is new memory, W (argument 1) is not.
    kept_x = 2 * m * k if 0 in sig.kept else 0
    extra = sum(s.nbytes for s in sig.saved) + kept_x
    return dict(recipe=recipe, shape="%dx%d" % (k, n), saved=saved,
                bf16=bf16, extra=extra, bf16_extra=2 * m * k,
                recomputed=recomputed_extra(
                    text, recipe, chip, cache, "linear_train_fwd",
                    "linear_train_bwd", 2),
                labels=[s.label for s in sig.saved] +
                ["arg%d (kept)" % i for i in sig.kept])


def mlp_row(m, dim, hidden, recipe, chip, cache):
    """The SwiGLU MLP block, against the unsplit programs' X, H1, H3 and
    the three weights in bf16."""
    text = graphs.mlp_train(m, dim, hidden)
    path = compiler.compile_graph(text, recipe, chip, split=True,
                                  cache=cache)
    with open(os.path.join(path, "manifest.json")) as f:
        manifest = json.load(f)
    sig = layers.SavedSignature(manifest, "mlp_train_fwd", "mlp_train_bwd",
                                4)
    weights = 3 * dim * hidden
    bf16 = 2 * (m * dim + 2 * m * hidden + weights)
    kept = sum(2 * (m * dim if i == 0 else 0) for i in sig.kept)
    extra = sum(s.nbytes for s in sig.saved) + kept
    return dict(recipe=recipe, shape="MLP %dx%d" % (dim, hidden),
                saved=sig.nbytes, bf16=bf16, extra=extra,
                bf16_extra=2 * (m * dim + 2 * m * hidden),
                recomputed=recomputed_extra(text, recipe, chip, cache,
                                            "mlp_train_fwd", "mlp_train_bwd",
                                            4),
                labels=[s.label for s in sig.saved] +
                ["arg%d (kept)" % i for i in sig.kept])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--m", type=int, default=8192)
    p.add_argument("--chip", default="sm_90a", choices=compiler.CHIPS)
    p.add_argument("--cache", help="cache directory (default "
                   "$FP8_MLIR_CACHE or ~/.cache/fp8_mlir)")
    p.add_argument("--labels", action="store_true",
                   help="also list the saved tensors of each row")
    args = p.parse_args(argv)
    if compiler.find_compiler() is None:
        print("saved_bytes.py: needs fp8-opt (set FP8_OPT)", file=sys.stderr)
        return 2
    print("| recipe | K x N | saved (MiB) | bf16 / torch_fp8 X+W (MiB) | "
          "ratio | extra beyond parameters (MiB) | bf16 extra (X) | ratio | "
          "extra, recompute=weight | ratio |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    rows = [(linear_row, (k, n)) for k, n in SHAPES] + [
        (mlp_row, (4096, 14336))]
    for recipe in RECIPES:
        for fn, (a, b) in rows:
            if fn is mlp_row and recipe not in MLP_RECIPES:
                continue
            r = fn(args.m, a, b, recipe, args.chip, args.cache)
            print("| %s | %s | %.1f | %.1f | %.2f | %.1f | %.1f | %.2f | "
                  "%.1f | %.2f |" % (
                      recipe, r["shape"], r["saved"] / MIB, r["bf16"] / MIB,
                      r["saved"] / r["bf16"], r["extra"] / MIB,
                      r["bf16_extra"] / MIB, r["extra"] / r["bf16_extra"],
                      r["recomputed"] / MIB,
                      r["recomputed"] / r["bf16_extra"]))
            if args.labels:
                print("|  | %s |  |  |  |  |  |  |  |  |" %
                      ", ".join(r["labels"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
