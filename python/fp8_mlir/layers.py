"""Compiled layers: a linear layer's or an MLP block's program with what
autograd needs to call it (argument order, the delayed recipe's amax
histories). Needs no PyTorch: fp8_mlir.nn builds on this.

A layer is compiled in one of two ways. Split (the default where the
recipe allows it, `split_supported`): the joint training graph
(graphs.linear_train, graphs.mlp_train) through fp8-split-forward-backward,
so that forward also returns the FP8 operands (and scales) that backward's
matmuls read, and backward takes them instead of X and W (`SavedSignature`
says which tensors cross). Otherwise the graph's two functions as written
(graphs.linear, graphs.mlp): backward reads X and W again.

A LayerProgram names the amax histories of the delayed recipe. The
compiler adds one history argument (and one updated-history result) per
quantized tensor, in the order the function's matmuls first quantize them
(fp8-quantize-matmuls); the graphs of graphs.py fix that order, written
down here per graph and checked against the compiled signature.
"""

import json
import os

from . import compiler, graphs, runtime

# The arguments of each graph's functions, for naming what is monitored.
_ARGUMENTS = {
    "linear": (("x", "w", "b"), ("dy", "x", "w")),
    "mlp-swiglu": (("x", "w1", "w3", "w2"),
                   ("dy", "x", "w1", "w3", "w2", "h1", "h3")),
    "mlp-gelu": (("x", "w1", "w2"), ("dy", "x", "w1", "w2", "h1")),
}

# History order per graph and function: forward tensors, then the
# gradient's (dy and the MLP's dh) in backward.
_HISTORIES = {
    "linear": (("x", "w"), ("dy", "w", "x")),
    "mlp-swiglu": (("x", "w1", "w3", "a", "w2"),
                   ("dy", "w2", "a", "dh1", "w1", "dh3", "w3", "x")),
    "mlp-gelu": (("x", "w1", "a", "w2"),
                 ("dy", "w2", "a", "dh1", "w1", "x")),
}


class Monitored:
    """One monitored quantization of a function (fp8-pipeline's
    monitor=true): its `name` (e.g. "x", "w", "dy", "x.T" for the
    quantization of the transpose of x, or the tensor's name in the
    history order for a computed one such as the MLP's "a"), its fp8.role,
    the output indices of its `tile_amax` and `counts` results, and the
    element count of the quantized tensor."""

    def __init__(self, name, role, tile_amax, counts, numel):
        self.name, self.role = name, role
        self.tile_amax, self.counts, self.numel = tile_amax, counts, numel

    def __repr__(self):
        return "<monitored %s (%s): outputs %d, %d; %d elements>" % (
            self.name, self.role, self.tile_amax, self.counts, self.numel)


def monitored_results(manifest, function, arg_names, computed_names=()):
    """The Monitored quantizations of `function` in a manifest (a dict),
    in the order the compiler quantizes them. `arg_names` name the
    function's arguments; `computed_names` (the history order) names
    computed tensors ("op<K>" labels) when there is one per quantization."""
    fn = next(f for f in manifest["functions"] if f["name"] == function)
    buffers = fn["buffers"]
    kernels = {k["name"]: k for k in manifest["kernels"]}
    # The quantized input of each tile_amax buffer, from its launch.
    numel = {}
    for launch in fn["launches"]:
        params = kernels[launch["kernel"]]["params"]
        names = [p["name"] for p in params]
        if "tile_amax" in names:
            shape = params[names.index("input")]["shape"]
            count = 1
            for d in shape:
                count *= d
            numel[launch["args"][names.index("tile_amax")]] = count
    found = {}
    for index, buffer_id in enumerate(fn["results"]):
        label = buffers[buffer_id].get("monitor")
        if not label:
            continue
        tensor, stat = label.rsplit("/", 1)
        entry = found.setdefault(tensor, {})
        entry[stat] = index
        if stat == "tile_amax":
            entry["numel"] = numel.get(buffer_id, 0)
    out = []
    labels = list(found)
    for position, label in enumerate(labels):
        role, source = label.split(":", 1)
        base, _, suffix = source.partition(".")
        if base.startswith("arg") and int(base[3:]) < len(arg_names):
            name = arg_names[int(base[3:])]
        elif len(labels) == len(computed_names):
            name = computed_names[position]
        else:
            name = "%s:%s" % (role, base)
        if suffix:
            name += "." + suffix
        entry = found[label]
        out.append(Monitored(name, role, entry["tile_amax"],
                             entry["counts"], entry["numel"]))
    return out


def split_supported(recipe, monitor=False):
    """Whether a layer under `recipe` is compiled split (forward's FP8
    kept for backward). Not with monitoring (the statistics' labels name
    the functions' own arguments) and not with delayed scaling (the amax
    histories would cross between the halves: both keep graphs.linear's
    two functions)."""
    return not monitor and "delayed" not in recipe


class Saved:
    """One tensor forward returns for backward: its `fp8.saved` label
    (e.g. "arg0:qt", the quantization of joint argument 0 in its transposed
    layout, or "arg0.T:scale_t"), dtype name, shape and bytes."""

    def __init__(self, label, dtype, shape, nbytes):
        self.label, self.dtype = label, dtype
        self.shape, self.nbytes = tuple(shape), nbytes

    def __repr__(self):
        return "<saved %s: %s%s, %d bytes>" % (
            self.label, self.dtype, list(self.shape), self.nbytes)


class SavedSignature:
    """What crosses between a split layer's forward and backward, read
    from the manifest (fp8-emit writes each `fp8.saved` label there).

    `saved`: the Saved tensors forward returns after its first `results`
    outputs, in order. `kept`: the forward inputs (indices into forward's
    arguments, which are the joint function's arguments before the
    gradient) that backward also reads, kept as they are (e.g. X under
    rowwise_gw_hp, whose Wgrad stays in bf16). `bwd_inputs`: backward's
    arguments in order, each ("gradient", i), ("input", i) or ("saved",
    k)."""

    def __init__(self, manifest, fwd_name, bwd_name, num_inputs):
        funcs = {f["name"]: f for f in manifest["functions"]}
        fwd, bwd = funcs[fwd_name], funcs[bwd_name]
        fb, bb = fwd["buffers"], bwd["buffers"]
        if len(fwd["arguments"]) != num_inputs:
            raise ValueError(
                "%s takes %d arguments, expected the joint function's %d "
                "before the gradient" % (fwd_name, len(fwd["arguments"]),
                                         num_inputs))
        labels = [fb[i].get("saved") for i in fwd["results"]]
        self.results = next((i for i, l in enumerate(labels) if l),
                            len(labels))
        if any(not l for l in labels[self.results:]):
            raise ValueError("%s: the saved results are not last" % fwd_name)
        self.saved = [Saved(fb[i]["saved"], fb[i]["dtype"], fb[i]["shape"],
                            fb[i]["bytes"])
                      for i in fwd["results"][self.results:]]
        index = {s.label: k for k, s in enumerate(self.saved)}
        self.kept, self.kept_bytes, self.bwd_inputs = [], 0, []
        gradients = 0
        for i in bwd["arguments"]:
            label = bb[i].get("saved")
            if not label:
                self.bwd_inputs.append(("gradient", gradients))
                gradients += 1
            elif label in index:
                self.bwd_inputs.append(("saved", index[label]))
            elif label.startswith("arg") and label[3:].isdigit() and \
                    int(label[3:]) < num_inputs:
                n = int(label[3:])
                self.kept.append(n)
                self.kept_bytes += bb[i]["bytes"]
                self.bwd_inputs.append(("input", n))
            else:
                raise ValueError("%s: argument %s (%r) is neither a saved "
                                 "result of %s nor an input" % (
                                     bwd_name, bb[i]["name"], label,
                                     fwd_name))
        if [k for kind, k in self.bwd_inputs if kind == "saved"] != \
                list(range(len(self.saved))):
            raise ValueError("%s does not take %s's saved results in order" %
                             (bwd_name, fwd_name))

    @property
    def nbytes(self):
        """The bytes autograd keeps for backward: the saved tensors and
        the kept inputs."""
        return sum(s.nbytes for s in self.saved) + self.kept_bytes


class LayerProgram:
    """One compiled layer: `fwd` and `bwd` (runtime.Function), the count of
    their own arguments, and the histories each takes after them. With
    monitoring, `fwd_monitored` and `bwd_monitored` list the Monitored
    quantizations whose statistics the functions also return."""

    def __init__(self, path, kind, fwd_name, bwd_name, fwd_args, bwd_args,
                 describe, split=False):
        self.path, self.kind, self.describe = path, kind, describe
        self.program = runtime.Program(path)
        self.fwd, self.bwd = self.program[fwd_name], self.program[bwd_name]
        self.fwd_args, self.bwd_args = fwd_args, bwd_args
        # Split: what crosses from forward to backward (SavedSignature).
        self.saved = None
        if split:
            with open(os.path.join(path, "manifest.json")) as f:
                manifest = json.load(f)
            try:
                self.saved = SavedSignature(manifest, fwd_name, bwd_name,
                                            fwd_args)
            except ValueError as e:
                raise compiler.errors.CompileError("%s: %s" % (path, e))
        fwd_h = len(self.fwd.inputs) - fwd_args
        bwd_h = len(self.bwd.inputs) - bwd_args
        if split or (fwd_h == 0 and bwd_h == 0):
            self.fwd_histories, self.bwd_histories = (), ()
        else:
            self.fwd_histories, self.bwd_histories = _HISTORIES[kind]
            if (fwd_h, bwd_h) != (len(self.fwd_histories),
                                  len(self.bwd_histories)):
                raise compiler.errors.CompileError(
                    "%s: the compiled functions take %d and %d amax "
                    "histories, expected %d and %d (%s); fp8-quantize-"
                    "matmuls and fp8_mlir.layers disagree" % (
                        path, fwd_h, bwd_h, len(self.fwd_histories),
                        len(self.bwd_histories), kind))
        self.history_shape = (self.fwd.inputs[-1].shape
                              if self.fwd_histories else None)
        self.fwd_monitored, self.bwd_monitored = [], []
        if describe.get("monitor"):
            with open(os.path.join(path, "manifest.json")) as f:
                manifest = json.load(f)
            fwd_names, bwd_names = _ARGUMENTS[kind]
            fwd_order, bwd_order = _HISTORIES[kind]
            self.fwd_monitored = monitored_results(manifest, fwd_name,
                                                   fwd_names, fwd_order)
            self.bwd_monitored = monitored_results(manifest, bwd_name,
                                                   bwd_names, bwd_order)

    @property
    def gradient_histories(self):
        """Histories only backward updates (of dy and the MLP's dh)."""
        return tuple(n for n in self.bwd_histories
                     if n not in self.fwd_histories)

    def __repr__(self):
        return "<fp8_mlir %s program %s%s>" % (
            self.kind, self.path, " (split)" if self.saved else "")


def _aot_command(kind, args):
    return "python3 -m fp8_mlir.aot %s %s" % (kind, " ".join(
        "--%s %s" % (k.replace("_", "-"), v) if v is not True else
        "--" + k.replace("_", "-") for k, v in args.items()
        if v is not None and v is not False))


RECOMPUTE_ROLES = ("weight", "activation")


def _split_option(split, recompute):
    """compile_graph's `split`: True, or the pass options where roles are
    recomputed."""
    recompute = tuple(recompute or ())
    for role in recompute:
        if role not in RECOMPUTE_ROLES:
            raise ValueError("recompute takes roles among %s, got %r" % (
                ", ".join(RECOMPUTE_ROLES), role))
    if recompute and not split:
        raise ValueError("recompute=%r needs a split layer (split=True or "
                         "None where the recipe allows it)" % (recompute,))
    if not split:
        return False
    return "recompute=" + ",".join(recompute) if recompute else True


def default_split():
    """Whether split=None means a split program: yes, unless
    $FP8_MLIR_SPLIT is 0 (the unsplit programs, e.g. to compare). The split
    programs give the unsplit ones' bits on the H100 (check_nn.py,
    2026-12-07; docs/Training.md)."""
    return os.environ.get("FP8_MLIR_SPLIT", "1") != "0"


def _check_split(split, recipe, monitor):
    if split is None:
        return default_split() and split_supported(recipe, monitor)
    if split and not split_supported(recipe, monitor):
        raise ValueError(
            "split=True (forward's FP8 kept for backward) is not available "
            "%s" % ("with monitor=True" if monitor else
                    "under the delayed recipe %r" % recipe))
    return bool(split)


def compile_linear(m, n, k, recipe="tensorwise", chip="sm_90a", bias=False,
                   dtype="bf16", out_dtype=None, cache=None, monitor=False,
                   split=False, recompute=()):
    """The program of a linear layer Y = X W^T (+ b), X [m, k], W [n, k]:
    functions linear_fwd and linear_bwd (graphs.linear). `monitor`: they
    also return the health statistics of their quantizations. `split`
    (True, or None for split_supported(recipe, monitor)): functions
    linear_train_fwd(x, w[, b]) -> (y, saved...) and linear_train_bwd(dy,
    ...) -> (dx, dw) of graphs.linear_train, split by
    fp8-split-forward-backward (the program's `saved` says what
    crosses). `recompute=("weight",)` (split only): backward quantizes W
    again from the bf16 parameter instead of keeping forward's FP8 copy,
    which is new memory (docs/Training.md)."""
    split = _check_split(split, recipe, monitor)
    option = _split_option(split, recompute)
    if split:
        text = graphs.linear_train(m, k, n, bias=bias, dtype=dtype,
                                   out_dtype=out_dtype)
    else:
        text = graphs.linear(m, k, n, bias=bias, dtype=dtype,
                             out_dtype=out_dtype)
    args = dict(m=m, n=n, k=k, recipe=recipe, chip=chip, bias=bool(bias),
                dtype=dtype, out_dtype=out_dtype, monitor=bool(monitor))
    if split:
        args["split"] = True
    if recompute:
        args["recompute"] = ",".join(recompute)
    path = compiler.compile_graph(
        text, recipe, chip, describe=dict(args, kind="linear"),
        aot_hint=_aot_command("linear", dict(args, split="yes" if split
                                             else "no")),
        cache=cache, monitor=monitor, split=option)
    if split:
        return LayerProgram(path, "linear", "linear_train_fwd",
                            "linear_train_bwd", 3 if bias else 2, 1, args,
                            split=True)
    return LayerProgram(path, "linear", "linear_fwd", "linear_bwd",
                        3 if bias else 2, 3, args)


def compile_mlp(m, dim, hidden, recipe="tensorwise", chip="sm_90a",
                activation="swiglu", dtype="bf16", cache=None, monitor=False,
                split=False, recompute=()):
    """The program of an MLP block (graphs.mlp): functions mlp_fwd and
    mlp_bwd (`monitor`: with the statistics of their quantizations).
    `split` as for compile_linear: mlp_train_fwd and mlp_train_bwd of
    graphs.mlp_train, and `recompute` as for compile_linear."""
    split = _check_split(split, recipe, monitor)
    option = _split_option(split, recompute)
    glu = activation == "swiglu"
    if split:
        text = graphs.mlp_train(m, dim, hidden, activation=activation,
                                dtype=dtype)
    else:
        text = graphs.mlp(m, dim, hidden, activation=activation,
                          dtype=dtype)
    args = dict(m=m, dim=dim, hidden=hidden, recipe=recipe, chip=chip,
                activation=activation, dtype=dtype, monitor=bool(monitor))
    if split:
        args["split"] = True
    if recompute:
        args["recompute"] = ",".join(recompute)
    path = compiler.compile_graph(
        text, recipe, chip, describe=dict(args, kind="mlp"),
        aot_hint=_aot_command("mlp", dict(args, split="yes" if split
                                             else "no")),
        cache=cache, monitor=monitor, split=option)
    if split:
        return LayerProgram(path, "mlp-" + activation, "mlp_train_fwd",
                            "mlp_train_bwd", 4 if glu else 3, 1, args,
                            split=True)
    return LayerProgram(path, "mlp-" + activation, "mlp_fwd", "mlp_bwd",
                        4 if glu else 3, 7 if glu else 5, args)
