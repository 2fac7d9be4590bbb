"""The ops fp8_mlir.fx_emit expresses: one canonical name for each op's
torch-level and aten spellings, and what each op is in terms of the
emitter's values (elementwise expressions, views, reductions, matmuls).

A handler is handler(em, node, args, kwargs, module): `em` the emitter,
`args` and `kwargs` the node's with nodes replaced by their Values,
`module` the nn.Module of a call_module node (else None). It returns a
Value (or a tuple of them, for native_layer_norm) or raises em.error.
"""

import functools
import math
import operator
import re

from .fx_expr import (Value, bin, const, gelu_grad, leaf, power, remap,
                      silu_grad, un, varying_dims)

HANDLERS = {}

# Ops that move data without computing: what they read keeps its role, and
# a parameter that a matmul reads through them is a weight.
MOVES = {"view", "reshape", "_unsafe_view", "transpose", "t", "permute",
         "cast", "detach", "clone", "contiguous", "alias", "expand",
         "squeeze", "unsqueeze", "flatten"}
MATMULS = {"mm", "matmul", "linear", "addmm"}

_METHODS = {"float": "cast", "to": "cast", "type_as": "cast",
            "half": "cast", "bfloat16": "cast", "type": "cast",
            "double": "cast"}
_METHODS.update((m, m) for m in (
    "pow", "mean", "sum", "view", "reshape", "transpose", "permute", "t",
    "contiguous", "add", "mul", "sub", "div", "rsqrt", "sqrt", "sigmoid",
    "exp", "tanh", "neg", "matmul", "expand", "unsqueeze", "squeeze",
    "flatten", "detach", "clone", "reciprocal", "abs"))

_ATEN_ALIASES = {"_to_copy": "cast", "convert_element_type": "cast",
                 "_to_dtype": "cast", "_unsafe_view": "view"}


def handles(*names):
    def register(fn):
        for name in names:
            HANDLERS[name] = fn
        return fn
    return register


@functools.lru_cache(maxsize=None)
def _functions(torch):
    F = torch.nn.functional
    table = {operator.add: "add", operator.mul: "mul", operator.sub: "sub",
             operator.truediv: "div", operator.neg: "neg",
             operator.pow: "pow", operator.getitem: "getitem",
             operator.matmul: "matmul", torch.mm: "mm", torch.addmm: "addmm",
             torch.layer_norm: "layer_norm", F.linear: "linear",
             F.silu: "silu", F.gelu: "gelu", F.layer_norm: "layer_norm",
             torch.zeros_like: "zeros_like", torch.ones_like: "ones_like"}
    for name in ("add", "mul", "sub", "div", "matmul", "rsqrt", "sqrt",
                 "sigmoid", "exp", "tanh", "neg", "pow", "mean", "sum",
                 "transpose", "permute", "t", "reshape", "flatten",
                 "reciprocal", "abs", "unsqueeze", "squeeze"):
        table[getattr(torch, name)] = name
    return table


def canonical_name(torch, gm, node):
    """The node's operation as one name for its torch-level and aten
    spellings (a key of HANDLERS where the emitter knows it), or None."""
    if node.op == "call_method":
        return _METHODS.get(node.target)
    if node.op == "call_module":
        return _module_name(torch, gm.get_submodule(node.target))
    if node.op != "call_function":
        return None
    text = str(node.target)
    if text.startswith("aten."):
        # aten.<name>.<overload>, or aten.<name> for the packet.
        name = text[5:].rsplit(".", 1)[0] if text.count(".") > 1 \
            else text[5:]
        return _ATEN_ALIASES.get(name, name)
    try:
        return _functions(torch).get(node.target)
    except TypeError:  # an unhashable target
        return None


def _module_name(torch, mod):
    nn = torch.nn
    if isinstance(mod, nn.Linear):
        return "linear_module"
    if isinstance(mod, nn.SiLU):
        return "silu"
    if isinstance(mod, nn.GELU):
        return "gelu"
    if isinstance(mod, nn.LayerNorm):
        return "layer_norm_module"
    if isinstance(mod, nn.Identity) or (isinstance(mod, nn.Dropout)
                                        and mod.p == 0):
        return "clone"
    return None


def source_line(node):
    """The user's line in a node's stack trace: a frame in `forward`, else
    the first outside torch (traces list frames innermost first in torch
    1.13's tracer, outermost first elsewhere)."""
    trace = node.meta.get("stack_trace") if hasattr(node, "meta") else None
    if not trace:
        return None
    lines = [line.strip() for line in trace.strip().splitlines()]
    frames = []
    for i, line in enumerate(lines):
        if line.startswith("File "):
            code = lines[i + 1] if i + 1 < len(lines) and not \
                lines[i + 1].startswith("File ") else ""
            frames.append("%s: %s" % (line, code) if code else line)
    user = [f for f in frames if not re.search(
        r"/(torch|functorch)/|<frozen|unittest/", f)]
    for f in user:
        if re.search(r", in forward\b", f):
            return f
    return user[0] if user else None


def target_name(node):
    t = node.target
    if isinstance(t, str):
        return t
    name = getattr(t, "__name__", None)
    module = getattr(t, "__module__", None)
    text = str(t)
    if text.startswith("aten.") or not name:
        return text
    return "%s.%s" % (module, name) if module and module != "builtins" \
        else name


def _tensor(em, node, v, what="the input"):
    if not isinstance(v, Value):
        raise em.error(node, "%s %r is not a tensor" % (what, v))
    return v


# ---- elementwise -----------------------------------------------------------

def _binary(op):
    def handler(em, node, args, kwargs, module):
        a = args[0]
        b = args[1] if len(args) > 1 else kwargs.get("other")
        if kwargs.get("rounding_mode") is not None:
            raise em.error(node, "division with rounding_mode=%r; true "
                           "division only" % kwargs["rounding_mode"])
        alpha = kwargs.get("alpha", 1)
        if alpha != 1:
            return em.elementwise(node, [a, b], lambda x, y: bin(
                op, x, bin("mul", y, const(alpha))))
        return em.elementwise(node, [a, b], lambda x, y: bin(op, x, y))
    return handler


for _op in ("add", "sub", "mul", "div"):
    HANDLERS[_op] = _binary(_op)


@handles("rsub")
def _rsub(em, node, args, kwargs, module):
    # aten.rsub(a, b, alpha) = b - alpha * a.
    alpha = kwargs.get("alpha", 1)
    return em.elementwise(node, [args[1], args[0]], lambda x, y: bin(
        "sub", x, y if alpha == 1 else bin("mul", y, const(alpha))))


def _unary(op):
    def handler(em, node, args, kwargs, module):
        return em.elementwise(node, [args[0]], lambda x: un(op, x))
    return handler


for _op, _name in (("neg", "neg"), ("exp", "exp"), ("rsqrt", "rsqrt"),
                   ("sqrt", "sqrt"), ("tanh", "tanh"),
                   ("sigmoid", "sigmoid"), ("silu", "silu"),
                   ("recip", "reciprocal"), ("abs", "abs"), ("log", "log")):
    HANDLERS[_name] = _unary(_op)


@handles("gelu")
def _gelu(em, node, args, kwargs, module):
    approx = kwargs.get("approximate",
                        module.approximate if module else "none")
    return em.elementwise(node, [args[0]], lambda x: un(
        "gelu_tanh" if approx == "tanh" else "gelu", x))


@handles("gelu_backward")
def _gelu_backward(em, node, args, kwargs, module):
    approx = kwargs.get("approximate", "none")
    return em.elementwise(node, args[:2],
                          lambda g, x: gelu_grad(g, x, approx))


@handles("silu_backward")
def _silu_backward(em, node, args, kwargs, module):
    return em.elementwise(node, args[:2], silu_grad)


@handles("pow")
def _pow(em, node, args, kwargs, module):
    p = args[1] if len(args) > 1 else kwargs["exponent"]
    if not isinstance(p, (int, float)) or isinstance(p, bool):
        raise em.error(node, "exponent %r; constant exponents only" % (p,))
    return em.elementwise(node, [_tensor(em, node, args[0], "the base")],
                          lambda x: power(x, p))


@handles("fill")
def _fill(em, node, args, kwargs, module):
    return em.elementwise(node, [args[1]], lambda c: c)


@handles("zeros_like", "empty_like")
def _zeros_like(em, node, args, kwargs, module):
    # empty_like is only ever filled (aten.fill): its contents are unread.
    return em.elementwise(node, [0.0], lambda c: c)


@handles("ones_like")
def _ones_like(em, node, args, kwargs, module):
    return em.elementwise(node, [1.0], lambda c: c)


# ---- moves -----------------------------------------------------------------

@handles("cast")
def _cast(em, node, args, kwargs, module):
    _, dtype = em.meta(node)
    return em.explicit_cast(_tensor(em, node, args[0]), dtype)


@handles("clone", "detach", "alias", "contiguous", "lift_fresh_copy")
def _clone(em, node, args, kwargs, module):
    return _tensor(em, node, args[0])


@handles("t")
def _t(em, node, args, kwargs, module):
    v = _tensor(em, node, args[0])
    return v if len(v.shape) < 2 else em.permute(v, [1, 0])


@handles("transpose")
def _transpose(em, node, args, kwargs, module):
    v = _tensor(em, node, args[0])
    dims = list(args[1:3]) + [kwargs.get("dim0"), kwargs.get("dim1")]
    d0, d1 = [d for d in dims if d is not None][:2]
    r = max(len(v.shape), 1)
    perm = list(range(len(v.shape)))
    perm[d0 % r], perm[d1 % r] = perm[d1 % r], perm[d0 % r]
    return em.permute(v, perm)


@handles("permute")
def _permute(em, node, args, kwargs, module):
    v = _tensor(em, node, args[0])
    dims = kwargs.get("dims", args[1] if len(args) == 2 and isinstance(
        args[1], (list, tuple)) else args[1:])
    return em.permute(v, [d % len(v.shape) for d in dims])


@handles("view", "reshape", "flatten", "squeeze", "unsqueeze")
def _view(em, node, args, kwargs, module):
    shape, _ = em.meta(node)
    return em.view(node, _tensor(em, node, args[0]), shape)


@handles("expand")
def _expand(em, node, args, kwargs, module):
    shape, _ = em.meta(node)
    v = _tensor(em, node, args[0])
    off = len(shape) - len(v.shape)
    return Value(shape, v.dtype, remap(v.expr, lambda d: d + off), v.role)


@handles("getitem")
def _getitem(em, node, args, kwargs, module):
    if not isinstance(args[0], tuple):
        raise em.error(node, "indexing or slicing a tensor (%r); the "
                       "emitter takes whole tensors only" % (args[1],))
    return args[0][args[1]]


# ---- reductions ------------------------------------------------------------

def reduce(em, node, v, dims, keepdim, mean):
    """The f32 sum (or mean) of `v` over `dims`, rounded to the node's
    dtype."""
    shape, dtype = em.meta(node)
    r = len(v.shape)
    if dims is None or (isinstance(dims, (list, tuple)) and not dims):
        dims = list(range(r))
    dims = sorted({d % max(r, 1) for d in ([dims] if isinstance(dims, int)
                                          else dims)})
    kept = [d for d in range(r) if d not in dims]
    n = math.prod(v.shape[d] for d in dims)
    # A loop along which no input varies has no operand to take its
    # extent from (linalg rejects it): the sum over it is a product.
    varying = varying_dims(v.expr, v.shape)
    repeat = math.prod(v.shape[d] for d in dims if d not in varying)
    dims = [d for d in dims if d in varying]
    loops = sorted(kept + dims)
    v = em.select_dims(v, loops)
    dims = [loops.index(d) for d in dims]
    sshape = tuple(v.shape[loops.index(d)] for d in kept)
    ldims = tuple(kept) if keepdim else tuple(range(len(kept)))
    if not dims:
        e = remap(v.expr, lambda d: ldims[d])
    else:
        e = leaf(_row_sums(em, v, dims, sshape), sshape, "f32", ldims)
    if mean:
        e = bin("div", e, const(n / repeat))
    elif repeat != 1:
        e = bin("mul", e, const(repeat))
    if dtype != "f32":
        e = ("round", dtype, e)
    return Value(shape, dtype, e, v.role)


def _row_sums(em, v, dims, sshape):
    r = len(v.shape)
    if r > 2 and dims == [r - 1]:
        # A row sum over [B, T, D] is written over [B*T, D] (the views go
        # to its inputs), the form a norm feeding a matmul of tokens fuses
        # in; its [B, T] view expands back for free.
        m = math.prod(v.shape[:-1])
        flat = em.push_collapse(v, (m, v.shape[-1]),
                                [list(range(r - 1)), [r - 1]])
        if flat is not None:
            return em.reshape_ssa(em.generic(flat.shape, "f32", flat.expr,
                                             [1]), (m,), "f32", sshape)
    return em.generic(v.shape, "f32", v.expr, dims)


def _dims_keepdim(args, kwargs):
    dims = args[1] if len(args) > 1 else kwargs.get("dim")
    keep = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
    return dims, keep


@handles("sum")
def _sum(em, node, args, kwargs, module):
    return reduce(em, node, _tensor(em, node, args[0]),
                  *_dims_keepdim(args, kwargs), mean=False)


@handles("mean")
def _mean(em, node, args, kwargs, module):
    return reduce(em, node, _tensor(em, node, args[0]),
                  *_dims_keepdim(args, kwargs), mean=True)


def layer_norm(em, node, x, normalized_shape, w, b, eps):
    """LayerNorm over the last dim: mean, then the mean of squared
    deviations (two row sums, as fp8-fuse-quantization fuses). Returns
    the Value and the f32 mean and rstd expressions."""
    x = _tensor(em, node, x)
    if len(normalized_shape) != 1:
        raise em.error(node, "layer_norm over %d dims; the last dim only" %
                       len(normalized_shape))
    r = len(x.shape)
    n = x.shape[-1]
    kept = tuple(range(r - 1))
    s1 = em.generic(x.shape, "f32", x.expr, [r - 1])
    mean = bin("div", leaf(s1, x.shape[:-1], "f32", kept), const(n))
    dev = bin("sub", x.expr, mean)
    s2 = em.generic(x.shape, "f32", bin("mul", dev, dev), [r - 1])
    var = bin("div", leaf(s2, x.shape[:-1], "f32", kept), const(n))
    rstd = un("rsqrt", bin("add", var, const(eps)))
    y = bin("mul", dev, rstd)
    if w is not None:
        y = bin("mul", y, remap(w.expr, lambda d: d + r - 1))
    if b is not None:
        y = bin("add", y, remap(b.expr, lambda d: d + r - 1))
    return Value(x.shape, x.dtype, y, x.role), mean, rstd


@handles("layer_norm")
def _layer_norm(em, node, args, kwargs, module):
    a = list(args) + [None] * (5 - len(args))
    w = kwargs.get("weight", a[2])
    b = kwargs.get("bias", a[3])
    eps = kwargs.get("eps", a[4] if a[4] is not None else 1e-5)
    return layer_norm(em, node, args[0], args[1], w, b, eps)[0]


@handles("layer_norm_module")
def _layer_norm_module(em, node, args, kwargs, module):
    w = em.param(node, node.target + ".weight") \
        if module.weight is not None else None
    b = em.param(node, node.target + ".bias") \
        if module.bias is not None else None
    return layer_norm(em, node, args[0], module.normalized_shape, w, b,
                      module.eps)[0]


@handles("native_layer_norm")
def _native_layer_norm(em, node, args, kwargs, module):
    x = _tensor(em, node, args[0])
    y, mean, rstd = layer_norm(em, node, x, args[1], args[2], args[3],
                               args[4])
    m = node.meta.get("tensor_meta")
    stats = tuple(em.static(node, t.shape) for t in m[1:]) \
        if m else (x.shape[:-1] + (1,),) * 2
    return (y, Value(stats[0], "f32", mean, x.role),
            Value(stats[1], "f32", rstd, x.role))


# ---- matmuls ---------------------------------------------------------------

def _mm(em, node, a, b, bias=None):
    _, dtype = em.meta(node)
    # With a bias the product stays f32 until the bias is added, so the
    # result is rounded once, as cuBLAS's bias epilogue does.
    acc = "f32" if bias is not None else dtype
    y = em.matmul(node, _tensor(em, node, a), _tensor(em, node, b), acc)
    if bias is not None:
        off = len(y.shape) - len(bias.shape)
        y = Value(y.shape, dtype, ("round", dtype, bin(
            "add", y.expr, remap(bias.expr, lambda d: d + off))), y.role)
    return y


def linear(em, node, x, w, b):
    """x W^T + b for x of any rank >= 1: leading dims collapsed."""
    x, w = _tensor(em, node, x), _tensor(em, node, w)
    if len(w.shape) != 2:
        raise em.error(node, "a weight of shape %s; 2-D weights only" %
                       list(w.shape))
    lead = x.shape[:-1]
    x2 = x if len(x.shape) == 2 else em.view(
        node, x, (math.prod(lead), x.shape[-1]))
    y = _mm(em, node, x2, em.permute(w, [1, 0]), b)
    if len(x.shape) != 2:
        y = em.view(node, y, lead + (w.shape[0],))
    return y


@handles("linear")
def _linear(em, node, args, kwargs, module):
    b = args[2] if len(args) > 2 else kwargs.get("bias")
    return linear(em, node, args[0], args[1], b)


@handles("linear_module")
def _linear_module(em, node, args, kwargs, module):
    w = em.param(node, node.target + ".weight")
    b = em.param(node, node.target + ".bias") \
        if module.bias is not None else None
    return linear(em, node, args[0], w, b)


@handles("mm")
def _mm_handler(em, node, args, kwargs, module):
    return _mm(em, node, args[0], args[1])


@handles("addmm")
def _addmm(em, node, args, kwargs, module):
    if kwargs.get("beta", 1) != 1 or kwargs.get("alpha", 1) != 1:
        raise em.error(node, "addmm with alpha or beta other than 1")
    return _mm(em, node, args[1], args[2], args[0])


@handles("matmul")
def _matmul(em, node, args, kwargs, module):
    a, b = _tensor(em, node, args[0]), _tensor(em, node, args[1])
    if len(b.shape) != 2 or len(a.shape) < 2:
        raise em.error(node, "matmul of shapes %s and %s; an [..., K] by "
                       "[K, N] product only" % (list(a.shape),
                                                list(b.shape)))
    return linear(em, node, a, em.permute(b, [1, 0]), None)
