"""Ahead-of-time compilation into the cache, for machines without fp8-opt.

    python3 -m fp8_mlir.aot linear --m 8192 --n 4096 --k 4096 \\
        --recipe blockwise,tensorwise [--bias] [--chip sm_90a] [--cache DIR]
    python3 -m fp8_mlir.aot mlp --m 8192 --dim 4096 --hidden 14336 \\
        --recipe blockwise [--activation swiglu|gelu] [--cache DIR]
    python3 -m fp8_mlir.aot graph FILE.mlir --recipe blockwise \
        [--chip sm_90a] [--monitor] [--split] [--cache DIR]
    python3 -m fp8_mlir.aot list [--cache DIR]

`graph` compiles any graph file: bf16/f16/f32 `linalg` ops in `func.func`s
whose matmul operands carry `fp8.role` (docs/Overview.md), as
fp8_mlir.compiler.compile_graph does from Python; it prints each entry's
directory and its functions' signatures, which fp8_mlir.load(DIR) loads.

--split (auto, the default: as fp8_mlir.nn compiles) picks the split
program, whose forward keeps its FP8 operands for backward, or (no) the
two functions that fp8_mlir.compile_linear gives by default.

Run it where fp8-opt is (the repository's build/bin, or $FP8_OPT), then
carry DIR to the GPU machine and point FP8_MLIR_CACHE at it: the same
compile_linear / fp8_mlir.nn call there finds the entry. Several
recipes, or M values (--m 4096,8192), compile every combination.
"""

import argparse
import json
import os
import sys

from . import compiler, layers, runtime


def _ints(text):
    return [int(v) for v in text.split(",")]


def _strs(text):
    """Comma-separated values; a comma inside <...> (a #fp8.recipe<...>)
    does not separate."""
    values, depth, current = [], 0, ""
    for c in text:
        depth += (c == "<") - (c == ">")
        if c == "," and depth == 0:
            values.append(current.strip())
            current = ""
        else:
            current += c
    values.append(current.strip())
    return [v for v in values if v]


def main(argv=None):
    parser = argparse.ArgumentParser(
        prog="python3 -m fp8_mlir.aot",
        description="Compile fp8_mlir layers into the cache.")
    sub = parser.add_subparsers(dest="what", required=True)

    def common(p):
        p.add_argument("--recipe", type=_strs, default=["tensorwise"],
                       help="recipe presets, comma-separated")
        p.add_argument("--chip", default="sm_90a",
                       choices=compiler.CHIPS)
        p.add_argument("--dtype", default="bf16", choices=("bf16", "f16",
                                                           "f32"))
        p.add_argument("--cache", help="the cache directory (default "
                       "$FP8_MLIR_CACHE or ~/.cache/fp8_mlir)")
        p.add_argument("--m", type=_ints, required=True,
                       help="token counts, comma-separated")
        p.add_argument("--monitor", action="store_true",
                       help="with the quantizations' health statistics")
        p.add_argument("--split", nargs="?", const="yes", default="auto",
                       choices=("auto", "yes", "no"),
                       help="forward's FP8 kept for backward (the joint "
                       "graph split by fp8-split-forward-backward); auto "
                       "(the default) as fp8_mlir.nn compiles: where the "
                       "recipe allows it")
        p.add_argument("--recompute", type=_strs, default=[],
                       help="roles (weight) backward quantizes again "
                       "instead of keeping forward's FP8 (split only)")

    lin = sub.add_parser("linear", help="a linear layer Y = X W^T (+ b)")
    common(lin)
    lin.add_argument("--n", type=int, required=True, help="out_features")
    lin.add_argument("--k", type=int, required=True, help="in_features")
    lin.add_argument("--bias", action="store_true")
    lin.add_argument("--out-dtype", choices=("bf16", "f16", "f32"))
    mlp = sub.add_parser("mlp", help="an MLP block")
    common(mlp)
    mlp.add_argument("--dim", type=int, required=True)
    mlp.add_argument("--hidden", type=int, required=True)
    mlp.add_argument("--activation", default="swiglu",
                     choices=layers.graphs.ACTIVATIONS)
    gr = sub.add_parser("graph", help="any linalg graph file (.mlir)")
    gr.add_argument("file", help="the graph: func.funcs of linalg ops "
                    "whose matmul operands have fp8.role")
    gr.add_argument("--recipe", type=_strs, default=["tensorwise"],
                    help="recipe presets (or #fp8.recipe<...>), "
                    "comma-separated")
    gr.add_argument("--chip", default="sm_90a", choices=compiler.CHIPS)
    gr.add_argument("--cache", help="the cache directory (default "
                    "$FP8_MLIR_CACHE or ~/.cache/fp8_mlir)")
    gr.add_argument("--monitor", action="store_true",
                    help="with the quantizations' health statistics")
    gr.add_argument("--split", action="store_true",
                    help="split each joint training function into _fwd "
                    "and _bwd (fp8-split-forward-backward)")
    ls = sub.add_parser("list", help="the cache's entries")
    ls.add_argument("--cache")
    args = parser.parse_args(argv)

    if args.what == "list":
        return _list(args.cache or compiler.cache_root())
    if args.what == "graph":
        return _graph(args)
    if compiler.find_compiler() is None:
        print("fp8_mlir.aot: no fp8-opt here (set FP8_OPT or build the "
              "repository: make build)", file=sys.stderr)
        return 2
    split = {"auto": None, "yes": True, "no": False}[args.split]
    try:
        for recipe in args.recipe:
            for m in args.m:
                if args.what == "linear":
                    lp = layers.compile_linear(
                        m, args.n, args.k, recipe=recipe, chip=args.chip,
                        bias=args.bias, dtype=args.dtype,
                        out_dtype=args.out_dtype, cache=args.cache,
                        monitor=args.monitor, split=split,
                        recompute=args.recompute)
                else:
                    lp = layers.compile_mlp(
                        m, args.dim, args.hidden, recipe=recipe,
                        chip=args.chip, activation=args.activation,
                        dtype=args.dtype, cache=args.cache,
                        monitor=args.monitor, split=split,
                        recompute=args.recompute)
                print("%s %s: %s" % (args.what, json.dumps(
                    lp.describe, sort_keys=True), lp.path))
    except (ValueError, compiler.errors.Fp8MlirError) as e:
        print("fp8_mlir.aot: %s" % e, file=sys.stderr)
        return 1
    return 0


def _graph(args):
    """Compiles the graph file for each recipe; prints the entries."""
    try:
        with open(args.file, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        print("fp8_mlir.aot: cannot read the graph %s: %s" % (args.file, e),
              file=sys.stderr)
        return 1
    try:
        for recipe in args.recipe:
            describe = {"kind": "graph", "file": os.path.abspath(args.file),
                        "recipe": recipe, "chip": args.chip,
                        "monitor": args.monitor, "split": args.split}
            path = compiler.compile_graph(
                text, recipe, args.chip, describe=describe,
                aot_hint="python3 -m fp8_mlir.aot graph %s --recipe %s "
                "--chip %s%s%s" % (args.file, recipe, args.chip,
                                   " --monitor" if args.monitor else "",
                                   " --split" if args.split else ""),
                cache=args.cache, monitor=args.monitor, split=args.split)
            print("graph %s %s: %s" % (args.file, recipe, path))
            program = runtime.Program(path)
            for function in program.functions.values():
                print("  %r" % function)
    except (ValueError, compiler.errors.Fp8MlirError) as e:
        print("fp8_mlir.aot: %s" % e, file=sys.stderr)
        return 1
    return 0


def _list(root):
    if not os.path.isdir(root):
        print("%s: no cache" % root)
        return 0
    for key in sorted(os.listdir(root)):
        key_dir = os.path.join(root, key)
        for entry in compiler._entries(key_dir):
            with open(os.path.join(entry, "entry.json")) as f:
                info = json.load(f)
            print("%s/%s  %s" % (key, os.path.basename(entry),
                                 json.dumps(info.get("graph", {}),
                                            sort_keys=True)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
