"""Elementwise expressions of fp8_mlir.fx_emit and the f32 scalar code of
the linalg.generic that computes one.

An expression is a tuple tree, hashable so that equal subtrees are
computed once in a body:

  ("leaf", ssa, stored shape, dtype, dims)  a tensor; dims[s] is the
      logical dim that stored dim s runs along, None for a unit dim
  ("const", float)
  ("un", op, e) / ("bin", op, a, b)         f32 arithmetic
  ("round", dtype, e)                        an explicit cast to dtype

A Value is an expression with a logical shape, a dtype and a role. Views
and broadcasts only renumber the leaves' dims, so a chain of elementwise
ops, transposes and broadcasts stays one expression until something
(a matmul, a reduction, the function's result) needs it as a tensor.
"""

import math

from .graphs import _t

DTYPES = {"torch.bfloat16": "bf16", "torch.float16": "f16",
          "torch.float32": "f32", "bf16": "bf16", "f16": "f16",
          "f32": "f32"}
WIDTH = {"bf16": 16, "f16": 16, "f32": 32}


class Value:
    def __init__(self, shape, dtype, expr, role=None):
        self.shape, self.dtype, self.expr = tuple(shape), dtype, expr
        self.role = role

    def __repr__(self):  # as errors show an argument
        return "<tensor %s %s>" % (list(self.shape), self.dtype)


def leaf(ssa, shape, dtype, dims=None):
    return ("leaf", ssa, tuple(shape), dtype,
            tuple(range(len(shape))) if dims is None else tuple(dims))


def const(v):
    return ("const", float(v))


def un(op, e):
    return ("un", op, e)


def bin(op, a, b):  # noqa: A001 (the expression kind's own name)
    return ("bin", op, a, b)


def substitute(expr, on_leaf):
    """`expr` with every leaf replaced by on_leaf(leaf)."""
    kind = expr[0]
    if kind == "leaf":
        return on_leaf(expr)
    if kind == "const":
        return expr
    if kind == "round":
        return ("round", expr[1], substitute(expr[2], on_leaf))
    return expr[:2] + tuple(substitute(e, on_leaf) for e in expr[2:])


def remap(expr, f):
    """`expr` with every leaf's logical dims d replaced by f(d)."""
    return substitute(expr, lambda e: e[:4] + (
        tuple(None if d is None else f(d) for d in e[4]),))


def leaves(expr):
    """The distinct leaves of `expr`, in the order a body reads them."""
    out = []
    substitute(expr, lambda e: out.append(e) if e not in out else None)
    return out


def is_broadcast(leaf_expr, shape, stored_dim):
    """Whether the leaf repeats one element along its stored dim (a unit
    dim of the leaf against a longer logical dim, or no logical dim)."""
    d = leaf_expr[4][stored_dim]
    return d is None or (leaf_expr[2][stored_dim] == 1 and shape[d] != 1)


def varying_dims(expr, shape):
    """The logical dims along which some leaf of `expr` varies."""
    return {e[4][s] for e in leaves(expr) for s in range(len(e[4]))
            if not is_broadcast(e, shape, s)}


def _literal(v):
    v = float(v)
    # MLIR's float literals have no spelling for these.
    if math.isnan(v):
        return "0x7FC00000"
    if math.isinf(v):
        return "0x7F800000" if v > 0 else "0xFF800000"
    return "%.9e" % v


def affine_map(rank, exprs):
    dims = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(exprs))


def leaf_map(leaf_expr, shape):
    """The indexing map of a leaf in a generic over `shape`."""
    return affine_map(len(shape), [
        "0" if is_broadcast(leaf_expr, shape, s) else "d%d" % leaf_expr[4][s]
        for s in range(len(leaf_expr[4]))])


_BINARY = {"add": "arith.addf", "sub": "arith.subf", "mul": "arith.mulf",
           "div": "arith.divf", "max": "arith.maximumf",
           "min": "arith.minimumf", "pow": "math.powf"}
_UNARY = {"neg": "arith.negf", "exp": "math.exp", "log": "math.log",
          "rsqrt": "math.rsqrt", "sqrt": "math.sqrt", "tanh": "math.tanh",
          "erf": "math.erf", "abs": "math.absf"}


class Body:
    """The f32 scalar code of an expression inside a linalg.generic.
    `args` maps each leaf to the f32 name of its element. Its names all
    start with %b; the emitter keeps the function's arguments off them."""

    def __init__(self, args):
        self.args, self.lines, self.memo, self.count = args, [], {}, 0

    def line(self, text):
        self.count += 1
        v = "%%b%d" % self.count
        self.lines.append("%s = %s" % (v, text))
        return v

    def const(self, c):
        return self.line("arith.constant %s : f32" % _literal(c))

    def value(self, e):
        if e in self.memo:
            return self.memo[e]
        kind = e[0]
        if kind == "leaf":
            v = self.args[e]
        elif kind == "const":
            v = self.const(e[1])
        elif kind == "round":
            a = self.value(e[2])
            n = self.line("arith.truncf %s : f32 to %s" % (a, e[1]))
            v = self.line("arith.extf %s : %s to f32" % (n, e[1]))
        elif kind == "bin":
            a, b = self.value(e[2]), self.value(e[3])
            v = self.line("%s %s, %s : f32" % (_BINARY[e[1]], a, b))
        else:
            v = self.unary(e[1], self.value(e[2]))
        self.memo[e] = v
        return v

    def unary(self, op, a):
        if op in _UNARY:
            return self.line("%s %s : f32" % (_UNARY[op], a))
        one = self.const(1.0)
        if op == "recip":
            return self.line("arith.divf %s, %s : f32" % (one, a))
        if op in ("sigmoid", "silu"):
            n = self.line("arith.negf %s : f32" % a)
            x = self.line("math.exp %s : f32" % n)
            d = self.line("arith.addf %s, %s : f32" % (one, x))
            s = self.line("arith.divf %s, %s : f32" % (one, d))
            if op == "sigmoid":
                return s
            return self.line("arith.mulf %s, %s : f32" % (a, s))
        half = self.const(0.5)
        if op == "gelu":
            # 0.5 x (1 + erf(x / sqrt(2))), torch's default GELU.
            c = self.const(1 / math.sqrt(2))
            u = self.line("arith.mulf %s, %s : f32" % (a, c))
            t = self.line("math.erf %s : f32" % u)
        else:
            # The tanh approximation, GPT-2's (approximate="tanh").
            c0, c1 = self.const(math.sqrt(2 / math.pi)), self.const(0.044715)
            x2 = self.line("arith.mulf %s, %s : f32" % (a, a))
            x3 = self.line("arith.mulf %s, %s : f32" % (x2, a))
            t0 = self.line("arith.mulf %s, %s : f32" % (c1, x3))
            t1 = self.line("arith.addf %s, %s : f32" % (a, t0))
            u = self.line("arith.mulf %s, %s : f32" % (c0, t1))
            t = self.line("math.tanh %s : f32" % u)
        p = self.line("arith.addf %s, %s : f32" % (one, t))
        h = self.line("arith.mulf %s, %s : f32" % (half, a))
        return self.line("arith.mulf %s, %s : f32" % (h, p))


def write_generic(w, shape, out_dtype, expr, red_dims=()):
    """Writes into `w` (a graphs._Writer) a linalg.generic over `shape`
    computing `expr` (f32, rounded to out_dtype); with `red_dims` it sums
    it over them into f32. Returns its ssa name."""
    rank = len(shape)
    args, block, ins, tys, maps, extend = {}, [], [], [], [], []
    for i, e in enumerate(leaves(expr)):
        _, ssa, sshape, dt, _ = e
        v = "%%a%d" % i
        block.append("%s: %s" % (v, dt))
        ins.append(ssa)
        tys.append(_t(sshape, dt))
        maps.append(leaf_map(e, shape))
        if dt == "f32":
            args[e] = v
        else:
            args[e] = "%%x%d" % i
            extend.append("%%x%d = arith.extf %s : %s to f32" % (i, v, dt))
    body = Body(args)
    r = body.value(expr)
    kept = [d for d in range(rank) if d not in red_dims]
    oshape = tuple(shape[d] for d in kept)
    if red_dims:
        out_dtype = "f32"
        init = w.zeros(oshape, "f32")
        tail = ["%%sum = arith.addf %%acc, %s : f32" % r,
                "linalg.yield %sum : f32"]
        acc = "%acc"
    else:
        init = w.fresh("e")
        w.emit("%s = tensor.empty() : %s" % (init,
                                                  _t(oshape, out_dtype)))
        acc = "%o"
        if out_dtype != "f32":
            tail = ["%%y = arith.truncf %s : f32 to %s" % (r, out_dtype),
                    "linalg.yield %%y : %s" % out_dtype]
        else:
            tail = ["linalg.yield %s : f32" % r]
    maps.append(affine_map(rank, ["d%d" % d for d in kept]))
    its = ", ".join('"reduction"' if d in red_dims else '"parallel"'
                    for d in range(rank))
    out = w.fresh("g")
    ot = _t(oshape, out_dtype)
    lines = ["%s = linalg.generic {indexing_maps = [%s], "
             "iterator_types = [%s]}" % (out, ", ".join(maps), its),
             # No ins() where there are none (a fill): linalg's parser
             # wants a type list inside it.
             "    ins(%s : %s)" % (", ".join(ins), ", ".join(tys))
             if ins else None,
             "    outs(%s : %s) {" % (init, ot),
             "^bb0(%s):" % ", ".join(block + ["%s: %s" % (
                 acc, out_dtype)])]
    lines = [line for line in lines if line is not None]
    lines += ["  " + s for s in extend + body.lines + tail]
    lines.append("} -> %s" % ot)
    w.emit("\n".join(lines))
    return out


def power(e, p):
    """e ** p for a constant p, as the multiplications it is where it is
    a small integer (the square of an RMSNorm stays a mulf)."""
    p = float(p)
    if p == 1.0:
        return e
    if p == 2.0:
        return bin("mul", e, e)
    if p == 3.0:
        return bin("mul", bin("mul", e, e), e)
    if p == 0.5:
        return un("sqrt", e)
    if p == -0.5:
        return un("rsqrt", e)
    if p == -1.0:
        return un("recip", e)
    return bin("pow", e, const(p))


def gelu_grad(g, x, approximate):
    """dY * gelu'(x)."""
    one, half = const(1.0), const(0.5)
    if approximate == "tanh":
        c0, c1 = const(math.sqrt(2 / math.pi)), const(0.044715)
        x2 = bin("mul", x, x)
        th = un("tanh", bin("mul", c0, bin("add", x, bin(
            "mul", c1, bin("mul", x2, x)))))
        d0 = bin("mul", half, bin("add", one, th))
        q = bin("mul", c0, bin("add", one, bin(
            "mul", const(3 * 0.044715), x2)))
        d1 = bin("mul", bin("mul", bin("mul", half, x), bin(
            "sub", one, bin("mul", th, th))), q)
        return bin("mul", g, bin("add", d0, d1))
    cdf = bin("mul", half, bin("add", one, un("erf", bin(
        "mul", x, const(1 / math.sqrt(2))))))
    pdf = bin("mul", const(1 / math.sqrt(2 * math.pi)), un(
        "exp", bin("mul", const(-0.5), bin("mul", x, x))))
    return bin("mul", g, bin("add", cdf, bin("mul", x, pdf)))


def silu_grad(g, x):
    s = un("sigmoid", x)
    one = const(1.0)
    return bin("mul", g, bin("mul", s, bin("add", one, bin(
        "mul", x, bin("sub", one, s)))))


def reassociation(shape, new_shape):
    """The reassociation of a collapse (new_shape of lower rank) or an
    expand, as groups of the finer shape's dims; None if the view is
    neither (same rank, or dims that do not line up)."""
    if len(shape) == len(new_shape):
        return None
    fine, coarse = (shape, new_shape) if len(shape) > len(new_shape) \
        else (new_shape, shape)
    groups, i = [], 0
    for c in coarse:
        g, p = [], 1
        while i < len(fine) and (p < c or not g):
            g.append(i)
            p *= fine[i]
            i += 1
        # An empty group (the fine dims ran out) is no reassociation.
        if p != c or not g:
            return None
        groups.append(g)
    if i != len(fine):
        if groups and all(fine[j] == 1 for j in range(i, len(fine))):
            groups[-1].extend(range(i, len(fine)))
        else:
            return None
    return groups
