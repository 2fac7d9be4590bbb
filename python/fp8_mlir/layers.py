"""Compiled layers: a linear layer's or an MLP block's program with what
autograd needs to call it (argument order, the delayed recipe's amax
histories). Needs no PyTorch: fp8_mlir.nn builds on this.

A LayerProgram names the amax histories of the delayed recipe. The
compiler adds one history argument (and one updated-history result) per
quantized tensor, in the order the function's matmuls first quantize them
(fp8-quantize-matmuls); the graphs of graphs.py fix that order, written
down here per graph and checked against the compiled signature.
"""

from . import compiler, graphs, runtime

# History order per graph and function: forward tensors, then the
# gradient's (dy and the MLP's dh) in backward.
_HISTORIES = {
    "linear": (("x", "w"), ("dy", "w", "x")),
    "mlp-swiglu": (("x", "w1", "w3", "a", "w2"),
                   ("dy", "w2", "a", "dh1", "w1", "dh3", "w3", "x")),
    "mlp-gelu": (("x", "w1", "a", "w2"),
                 ("dy", "w2", "a", "dh1", "w1", "x")),
}


class LayerProgram:
    """One compiled layer: `fwd` and `bwd` (runtime.Function), the count of
    their own arguments, and the histories each takes after them."""

    def __init__(self, path, kind, fwd_name, bwd_name, fwd_args, bwd_args,
                 describe):
        self.path, self.kind, self.describe = path, kind, describe
        self.program = runtime.Program(path)
        self.fwd, self.bwd = self.program[fwd_name], self.program[bwd_name]
        self.fwd_args, self.bwd_args = fwd_args, bwd_args
        fwd_h = len(self.fwd.inputs) - fwd_args
        bwd_h = len(self.bwd.inputs) - bwd_args
        if fwd_h == 0 and bwd_h == 0:
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

    @property
    def gradient_histories(self):
        """Histories only backward updates (of dy and the MLP's dh)."""
        return tuple(n for n in self.bwd_histories
                     if n not in self.fwd_histories)

    def __repr__(self):
        return "<fp8_mlir %s program %s>" % (self.kind, self.path)


def _aot_command(kind, args):
    return "python3 -m fp8_mlir.aot %s %s" % (kind, " ".join(
        "--%s %s" % (k.replace("_", "-"), v) if v is not True else
        "--" + k.replace("_", "-") for k, v in args.items()
        if v is not None and v is not False))


def compile_linear(m, n, k, recipe="tensorwise", chip="sm_90a", bias=False,
                   dtype="bf16", out_dtype=None, cache=None):
    """The program of a linear layer Y = X W^T (+ b), X [m, k], W [n, k]:
    functions linear_fwd and linear_bwd (graphs.linear)."""
    text = graphs.linear(m, k, n, bias=bias, dtype=dtype,
                         out_dtype=out_dtype)
    args = dict(m=m, n=n, k=k, recipe=recipe, chip=chip, bias=bool(bias),
                dtype=dtype, out_dtype=out_dtype)
    path = compiler.compile_graph(
        text, recipe, chip, describe=dict(args, kind="linear"),
        aot_hint=_aot_command("linear", args), cache=cache)
    return LayerProgram(path, "linear", "linear_fwd", "linear_bwd",
                        3 if bias else 2, 3, args)


def compile_mlp(m, dim, hidden, recipe="tensorwise", chip="sm_90a",
                activation="swiglu", dtype="bf16", cache=None):
    """The program of an MLP block (graphs.mlp): functions mlp_fwd and
    mlp_bwd."""
    text = graphs.mlp(m, dim, hidden, activation=activation, dtype=dtype)
    args = dict(m=m, dim=dim, hidden=hidden, recipe=recipe, chip=chip,
                activation=activation, dtype=dtype)
    path = compiler.compile_graph(
        text, recipe, chip, describe=dict(args, kind="mlp"),
        aot_hint=_aot_command("mlp", args), cache=cache)
    glu = activation == "swiglu"
    return LayerProgram(path, "mlp-" + activation, "mlp_fwd", "mlp_bwd",
                        4 if glu else 3, 7 if glu else 5, args)
