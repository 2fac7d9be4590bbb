"""fp8-opt from Python, and the on-disk cache of what it compiled.

A graph (MLIR text from graphs.py) is compiled with
`fp8-opt --fp8-pipeline='recipe=R chip=C' --fp8-emit=dir=D` (a joint
training graph, graphs.linear_train, with `--fp8-split-forward-backward`
between the two). D is a cache entry:

    CACHE/<graph key>/graph.mlir
    CACHE/<graph key>/<compiler id>/{manifest.json, *.ptx, entry.json}

The graph key hashes the graph's text (its shapes and dtypes included), the
recipe, the chip and the cache format. The compiler id hashes the fp8-opt
binary, so a rebuilt compiler compiles again. Where no fp8-opt is found
(the GPU machine has no MLIR), a lookup takes the newest entry of the
graph key whatever compiler made it: entries are carried from a machine
that has one (`python3 -m fp8_mlir.aot`, then copy CACHE).

CACHE is $FP8_MLIR_CACHE, else ~/.cache/fp8_mlir. fp8-opt is $FP8_OPT, else
the first on PATH, else the repository's build/bin/fp8-opt.
"""

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time

from . import errors

# Bump when the layout of an entry or the meaning of a key changes.
CACHE_FORMAT = 1
CHIPS = ("sm_90a", "sm_100a")
RECIPES = ("tensorwise", "delayed", "rowwise", "rowwise_gw_hp", "blockwise",
           "mxfp8", "mxfp8_ocp")

_REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_ids = {}


def cache_root():
    return os.path.abspath(os.environ.get("FP8_MLIR_CACHE") or
                           os.path.join(os.path.expanduser("~"), ".cache",
                                        "fp8_mlir"))


def find_compiler():
    """The path of fp8-opt, or None."""
    env = os.environ.get("FP8_OPT")
    if env:
        return env if os.path.isfile(env) else None
    found = shutil.which("fp8-opt")
    if found:
        return found
    for rel in (("build", "bin", "fp8-opt"), ("install", "bin", "fp8-opt")):
        path = os.path.join(_REPO, *rel)
        if os.path.isfile(path) and os.access(path, os.X_OK):
            return path
    return None


def compiler_id(path):
    """A short hash of the fp8-opt binary (memoized on its mtime and size)."""
    st = os.stat(path)
    memo = (path, st.st_mtime_ns, st.st_size)
    if memo not in _ids:
        h = hashlib.sha256()
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
        _ids[memo] = h.hexdigest()[:16]
    return _ids[memo]


def check_recipe(recipe):
    """A preset name, or an #fp8.recipe<...> attribute written out."""
    if not isinstance(recipe, str) or not recipe:
        raise ValueError("recipe must be a string, got %r" % (recipe,))
    if recipe.startswith("#fp8.recipe<"):
        return recipe
    if recipe not in RECIPES:
        raise ValueError("unknown recipe %r: expected one of %s, or an "
                         "#fp8.recipe<...> attribute" %
                         (recipe, ", ".join(RECIPES)))
    return recipe


def check_chip(chip):
    if chip not in CHIPS:
        raise ValueError("unknown chip %r: expected one of %s" %
                         (chip, ", ".join(CHIPS)))
    return chip


def graph_key(text, recipe, chip, monitor=False, split=False):
    h = hashlib.sha256()
    # (monitor and split join the key only when on: other keys stay as
    # they were.)
    parts = ("fp8_mlir cache %d" % CACHE_FORMAT, recipe, chip, text) + (
        ("monitor",) if monitor else ()) + (("split",) if split else ()) + (
        (split,) if isinstance(split, str) else ())
    for part in parts:
        h.update(part.encode())
        h.update(b"\0")
    return h.hexdigest()[:24]


def _entries(key_dir):
    """Complete entries under a graph key, newest first."""
    if not os.path.isdir(key_dir):
        return []
    found = [os.path.join(key_dir, d) for d in os.listdir(key_dir)
             if os.path.isfile(os.path.join(key_dir, d, "entry.json"))]
    return sorted(found, key=lambda d: os.path.getmtime(
        os.path.join(d, "entry.json")), reverse=True)


def compile_graph(text, recipe, chip="sm_90a", describe=None, aot_hint=None,
                  cache=None, monitor=False, split=False):
    """The directory of the compiled program of `text`, from the cache or
    compiled now. `describe` (a dict) is stored with the entry; `aot_hint`
    is the `python3 -m fp8_mlir.aot ...` command that produces the entry
    elsewhere, for the error where neither exists. `monitor` compiles with
    fp8-pipeline's monitor=true: every function also returns the health
    statistics of its quantizations (docs/Passes.md). `split` runs
    fp8-split-forward-backward after the pipeline: each joint training
    function of `text` becomes <name>_fwd and <name>_bwd (a string:
    the pass's options, e.g. "recompute=weight")."""
    recipe, chip = check_recipe(recipe), check_chip(chip)
    root = os.path.abspath(cache or cache_root())
    key = graph_key(text, recipe, chip, monitor, split)
    key_dir = os.path.join(root, key)
    fp8_opt = find_compiler()
    if fp8_opt is None:
        entries = _entries(key_dir)
        if entries:
            return entries[0]
        raise errors.CompilerNotFound(
            "no fp8-opt here (set FP8_OPT, or put it on PATH) and no "
            "compiled entry in the cache %s for %s (key %s, recipe %s, chip "
            "%s). On a machine with fp8-opt run\n    %s --cache DIR\nand "
            "carry DIR here as FP8_MLIR_CACHE" % (
                root, describe or "this graph", key, recipe, chip,
                aot_hint or "python3 -m fp8_mlir.aot ..."))

    entry = os.path.join(key_dir, compiler_id(fp8_opt))
    if os.path.isfile(os.path.join(entry, "entry.json")):
        return entry
    os.makedirs(key_dir, exist_ok=True)
    graph = os.path.join(key_dir, "graph.mlir")
    if not os.path.isfile(graph):
        _write_atomic(graph, text)
    # Emit into a fresh directory beside the entry, then rename it into
    # place: a reader never sees half an entry, and two processes
    # compiling the same graph both succeed (the second rename loses).
    tmp = tempfile.mkdtemp(prefix=".tmp-", dir=key_dir)
    try:
        split_flag = []
        if split:
            split_flag = ["--fp8-split-forward-backward" + (
                "=" + split if isinstance(split, str) else "")]
        # A #fp8.recipe<...> has spaces and commas: quoted, it is one
        # option value (a preset name needs no quotes).
        quoted = '"%s"' % recipe if recipe.startswith("#") else recipe
        cmd = [fp8_opt, graph,
               "--fp8-pipeline=recipe=%s chip=%s%s" % (
                   quoted, chip, " monitor=true" if monitor else "")] + \
            split_flag + [
               "--fp8-emit=dir=%s chip=%s" % (tmp, chip), "-o", os.devnull]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise errors.CompileError(
                "fp8-opt failed (exit %d) on %s:\n%s\ncommand: %s" % (
                    proc.returncode, describe or graph,
                    proc.stderr.strip(), " ".join(cmd)))
        info = {"cache_format": CACHE_FORMAT, "key": key, "recipe": recipe,
                "chip": chip, "monitor": bool(monitor),
                "split": split or False, "compiler": fp8_opt,
                "compiler_id": os.path.basename(entry),
                "created": time.strftime("%Y-%m-%dT%H:%M:%S"),
                "graph": describe or {}}
        _write_atomic(os.path.join(tmp, "entry.json"),
                      json.dumps(info, indent=1, sort_keys=True) + "\n")
        try:
            os.rename(tmp, entry)
        except OSError:
            if not os.path.isfile(os.path.join(entry, "entry.json")):
                raise
    finally:
        if os.path.isdir(tmp):
            shutil.rmtree(tmp, ignore_errors=True)
    return entry


def _write_atomic(path, text):
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(path))
    with os.fdopen(fd, "w") as f:
        f.write(text)
    os.replace(tmp, path)
