"""A torch.fx graph as the bf16 MLIR that fp8-opt --fp8-pipeline takes.

    from fp8_mlir import fx_emit
    gm = torch.fx.symbolic_trace(block)            # or an AOTAutograd graph
    text = fx_emit.emit(gm, [x], name="mlp")       # MLIR, a func.func @mlp

The graph may be torch-level (torch.fx.symbolic_trace: nn.Linear modules,
F.linear, torch.matmul, operator.add, F.silu, x.pow(2).mean(-1,
keepdim=True), .float(), .type_as, view, transpose, get_attr parameters) or
aten-level (functorch.compile.aot_function's forward and backward graphs:
aten.mm, aten.t, aten.addmm, aten.view, aten.mul.Tensor, aten.sum.dim_IntList,
aten._to_copy, ...). The function's arguments are the graph's placeholders
in order, then the parameters it reads (get_attr, nn.Linear weights and
biases); its results are the graph's outputs (None outputs left out).

Roles (`fp8.role`) come from the graph: a parameter that a matmul reads
(through views, transposes and casts) is a "weight", a placeholder named
tangents_* (AOTAutograd's incoming gradients) a "gradient", any other
placeholder an "activation"; parameters no matmul reads (norm gains,
biases) get none. `roles` overrides them per argument; `parameters` names
the placeholders that are parameters (aot_module passes them first).
output_roles() gives the roles of a forward graph's outputs, for the
backward graph that takes the saved ones.

What is written: linalg.matmul with indexing maps (a transpose that a
matmul reads is folded into its map), elementwise chains fused into one
linalg.generic that computes in f32 and rounds once to the result's dtype
(explicit casts round where they are), reductions (sum, mean) as a
linalg.generic accumulating in f32, so that an RMSNorm is the row sum of
squares and the elementwise generic that fp8-fuse-quantization fuses into
the quantization of the matmul it feeds (test/Dialect/FP8/Transforms/
pipeline-norm.mlir). Views that merge or split dims are tensor.collapse_shape
and expand_shape, pushed to the inputs of an elementwise chain where they
can be so that a rank-3 norm feeds the matmul directly. Shapes are static:
from `example_inputs` (tensors, or (shape, dtype) pairs), else from the
nodes' meta (AOTAutograd graphs carry it). Anything else raises
fp8_mlir.EmitError naming the node, its target and the user's line.
"""

import math
import operator
import re

from .errors import EmitError
from .graphs import _Writer, _function, _t

__all__ = ["emit", "output_roles", "EmitError"]

ROLES = ("activation", "weight", "gradient")


def emit(graph_module, example_inputs=None, name="graph", roles=None,
         parameters=None):
    """The MLIR module text of `graph_module` (a torch.fx.GraphModule) as
    func.func @`name`. `example_inputs`: one per placeholder, a tensor or
    a (shape, dtype) pair (a torch dtype or "bf16"/"f16"/"f32"); None
    takes the shapes from the nodes' meta. `roles`: {argument name: role
    or None} (placeholders by node name, parameters by their qualified
    name, "norm.weight"). `parameters`: the placeholders that are
    parameters, as names or as a count of the leading ones."""
    return _Emitter(graph_module, example_inputs, roles,
                    parameters).module(name)


def output_roles(graph_module, example_inputs=None, roles=None,
                 parameters=None):
    """The role (or None) of each of the graph's outputs, as emit derives
    it: for AOTAutograd, the forward graph's saved outputs give the
    backward graph's placeholders their roles (its tangents are
    gradients)."""
    e = _Emitter(graph_module, example_inputs, roles, parameters)
    e.module("graph")
    return e.out_roles


# --------------------------------------------------------------------------
# Values. An expression is a tuple tree (hashable, so equal subtrees are
# computed once in a body):
#   ("leaf", ssa, stored shape, dtype, dims)  a tensor; dims[s] is the
#       logical dim that stored dim s runs along, None for a unit dim
#   ("const", float)
#   ("un", op, e) / ("bin", op, a, b)        f32 arithmetic
#   ("round", dtype, e)                       an explicit cast to dtype
# A value (_Val) is an expression with a logical shape, a dtype and a role.

_DTYPES = {"torch.bfloat16": "bf16", "torch.float16": "f16",
           "torch.float32": "f32", "bf16": "bf16", "f16": "f16",
           "f32": "f32"}
_WIDTH = {"bf16": 16, "f16": 16, "f32": 32}


class _Val:
    def __init__(self, shape, dtype, expr, role=None, sources=()):
        self.shape, self.dtype, self.expr = tuple(shape), dtype, expr
        self.role = role
        # The arguments this value moves (views, casts) without computing.
        self.sources = tuple(sources)


def _leaf(ssa, shape, dtype, dims=None):
    return ("leaf", ssa, tuple(shape), dtype,
            tuple(range(len(shape))) if dims is None else tuple(dims))


def _remap(expr, f):
    """`expr` with every leaf's logical dims d replaced by f(d)."""
    kind = expr[0]
    if kind == "leaf":
        return expr[:4] + (tuple(None if d is None else f(d)
                                 for d in expr[4]),)
    if kind == "const":
        return expr
    if kind == "round":
        return ("round", expr[1], _remap(expr[2], f))
    return expr[:2] + tuple(_remap(e, f) for e in expr[2:])


def _leaves(expr, out):
    if expr[0] == "leaf":
        if expr not in out:
            out.append(expr)
    elif expr[0] == "round":
        _leaves(expr[2], out)
    elif expr[0] != "const":
        for e in expr[2:]:
            _leaves(e, out)
    return out


def _const(v):
    v = float(v)
    if math.isinf(v):
        return "0x7F800000" if v > 0 else "0xFF800000"
    return "%.9e" % v


def _map(rank, exprs):
    dims = ", ".join("d%d" % i for i in range(rank))
    return "affine_map<(%s) -> (%s)>" % (dims, ", ".join(exprs))


def _leaf_map(leaf, shape):
    _, _, sshape, _, dims = leaf
    exprs = []
    for extent, d in zip(sshape, dims):
        if d is None or (extent == 1 and shape[d] != 1):
            exprs.append("0")
        else:
            exprs.append("d%d" % d)
    return _map(len(shape), exprs)


class _Body:
    """The f32 scalar code of an expression inside a linalg.generic."""

    def __init__(self, args):
        self.args, self.lines, self.memo, self.count = args, [], {}, 0

    def fresh(self):
        self.count += 1
        return "%%b%d" % self.count

    def line(self, text):
        v = self.fresh()
        self.lines.append("%s = %s" % (v, text))
        return v

    def const(self, c):
        return self.line("arith.constant %s : f32" % _const(c))

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
            op = {"add": "arith.addf", "sub": "arith.subf",
                  "mul": "arith.mulf", "div": "arith.divf",
                  "max": "arith.maximumf", "min": "arith.minimumf",
                  "pow": "math.powf"}[e[1]]
            v = self.line("%s %s, %s : f32" % (op, a, b))
        else:
            v = self.unary(e[1], self.value(e[2]))
        self.memo[e] = v
        return v

    def unary(self, op, a):
        simple = {"neg": "arith.negf", "exp": "math.exp", "log": "math.log",
                  "rsqrt": "math.rsqrt", "sqrt": "math.sqrt",
                  "tanh": "math.tanh", "erf": "math.erf",
                  "abs": "math.absf"}
        if op in simple:
            return self.line("%s %s : f32" % (simple[op], a))
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


def _un(op, e):
    return ("un", op, e)


def _bin(op, a, b):
    return ("bin", op, a, b)


def _pow(e, p):
    """e ** p for a constant p, as the multiplications it is where it is
    a small integer (the square of an RMSNorm stays a mulf)."""
    p = float(p)
    if p == 1.0:
        return e
    if p == 2.0:
        return _bin("mul", e, e)
    if p == 3.0:
        return _bin("mul", _bin("mul", e, e), e)
    if p == 0.5:
        return _un("sqrt", e)
    if p == -0.5:
        return _un("rsqrt", e)
    if p == -1.0:
        return _un("recip", e)
    return _bin("pow", e, ("const", p))


def _gelu_grad(g, x, approximate):
    """dY * gelu'(x)."""
    one, half = ("const", 1.0), ("const", 0.5)
    if approximate == "tanh":
        c0, c1 = ("const", math.sqrt(2 / math.pi)), ("const", 0.044715)
        x2 = _bin("mul", x, x)
        th = _un("tanh", _bin("mul", c0, _bin("add", x, _bin(
            "mul", c1, _bin("mul", x2, x)))))
        d0 = _bin("mul", half, _bin("add", one, th))
        q = _bin("mul", c0, _bin("add", one, _bin(
            "mul", ("const", 3 * 0.044715), x2)))
        d1 = _bin("mul", _bin("mul", _bin("mul", half, x), _bin(
            "sub", one, _bin("mul", th, th))), q)
        return _bin("mul", g, _bin("add", d0, d1))
    cdf = _bin("mul", half, _bin("add", one, _un("erf", _bin(
        "mul", x, ("const", 1 / math.sqrt(2))))))
    pdf = _bin("mul", ("const", 1 / math.sqrt(2 * math.pi)), _un(
        "exp", _bin("mul", ("const", -0.5), _bin("mul", x, x))))
    return _bin("mul", g, _bin("add", cdf, _bin("mul", x, pdf)))


def _silu_grad(g, x):
    s = _un("sigmoid", x)
    one = ("const", 1.0)
    return _bin("mul", g, _bin("mul", s, _bin("add", one, _bin(
        "mul", x, _bin("sub", one, s)))))


def _combine_roles(roles):
    roles = [r for r in roles if r]
    if "gradient" in roles:
        return "gradient"
    return roles[0] if roles and all(r == roles[0] for r in roles) else None


def _matmul_role(a, b):
    pair = {a, b}
    if pair == {"activation", "weight"}:
        return "activation"
    if pair == {"gradient", "weight"}:
        return "gradient"
    return None


# Ops that move data without computing: what they read keeps its role, and
# a parameter that a matmul reads through them is a weight.
_MOVES = {"view", "reshape", "_unsafe_view", "transpose", "t", "permute",
          "cast", "detach", "clone", "contiguous", "alias", "expand",
          "squeeze", "unsqueeze", "flatten"}


def _source_line(node):
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


def _target_name(node):
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


class _Emitter:
    def __init__(self, gm, example_inputs, roles, parameters):
        try:
            import torch
        except ImportError as e:
            from .errors import TorchNotFound
            raise TorchNotFound("fp8_mlir.fx_emit", e) from None
        self.torch, self.gm = torch, gm
        self.graph = gm.graph
        self.user_roles = dict(roles or {})
        for k, r in self.user_roles.items():
            if r is not None and r not in ROLES:
                raise ValueError("the role of %r must be one of %s or None, "
                                 "got %r" % (k, ", ".join(ROLES), r))
        placeholders = [n for n in self.graph.nodes if n.op == "placeholder"]
        if isinstance(parameters, int):
            self.param_names = {n.name for n in placeholders[:parameters]}
        else:
            self.param_names = set(parameters or ())
        self.w = _Writer()
        self.vals = {}          # FX node -> _Val (or tuple, or scalar)
        self.args = []          # (name, type, default role, is parameter)
        self.arg_of = {}        # parameter qualified name -> _Val
        self.reshaped = {}      # (ssa, shape) -> ssa of its reshape
        self.materialized = {}  # expr -> ssa, shape is the expr's
        if example_inputs is not None:
            self._propagate(placeholders, example_inputs)
        self.matmul_read = self._matmul_read()

    # ---- errors, shapes --------------------------------------------------

    def error(self, node, reason):
        return EmitError(reason, node.name, node.op, _target_name(node),
                         _source_line(node))

    def dtype(self, node, torch_dtype):
        d = _DTYPES.get(str(torch_dtype))
        if d is None:
            raise self.error(node, "dtype %s is not one of bfloat16, float16 "
                             "and float32, the dtypes the pipeline takes" %
                             torch_dtype)
        return d

    def static(self, node, shape):
        shape = tuple(shape)
        for s in shape:
            if not isinstance(s, int) or isinstance(s, bool):
                raise self.error(node, "shape %s is not static (dim %r); "
                                 "give example inputs of a fixed shape" %
                                 (list(shape), s))
        return shape

    def meta(self, node):
        """(shape, dtype) of a node's tensor result."""
        m = node.meta.get("tensor_meta")
        if m is None and "val" in node.meta:
            m = node.meta["val"]
        if m is None or not hasattr(m, "shape"):
            raise self.error(node, "no static shape known (no tensor_meta): "
                             "give example_inputs")
        return self.static(node, m.shape), self.dtype(node, m.dtype)

    def _propagate(self, placeholders, example_inputs):
        torch = self.torch
        if len(example_inputs) != len(placeholders):
            raise ValueError("example_inputs has %d entries, the graph %d "
                             "placeholders" % (len(example_inputs),
                                               len(placeholders)))
        inputs = []
        for node, x in zip(placeholders, example_inputs):
            if not isinstance(x, torch.Tensor):
                shape, dt = x
                shape = self.static(node, shape)
                if isinstance(dt, str):
                    dt = {"bf16": torch.bfloat16, "f16": torch.float16,
                          "f32": torch.float32}.get(dt, dt)
                self.dtype(node, dt)
                x = torch.zeros(shape, dtype=dt)
            else:
                self.static(node, x.shape)
                self.dtype(node, x.dtype)
            inputs.append(x)
        from torch.fx.passes.shape_prop import ShapeProp
        try:
            ShapeProp(self.gm).propagate(*inputs)
        except Exception as e:  # the node that failed is unknown here
            raise EmitError("running the graph on the example inputs for "
                            "its shapes failed: %s: %s" % (
                                type(e).__name__, e)) from e

    # ---- roles -----------------------------------------------------------

    def _matmul_read(self):
        """The placeholders and parameters that a matmul reads through
        moves; ("param", qualname) for parameters."""
        read = set()

        def back(n):
            if not hasattr(n, "op"):
                return
            if n.op == "placeholder":
                read.add(n.name)
            elif n.op == "get_attr":
                read.add(n.target)
            elif self._canon(n) in _MOVES:
                back(n.args[0])
        for n in self.graph.nodes:
            c = self._canon(n) if n.op != "output" else None
            if c in ("mm", "matmul", "linear", "addmm"):
                ops = n.args[1:3] if c == "addmm" else n.args[:2]
                for a in ops:
                    back(a)
            elif n.op == "call_module":
                mod = self.gm.get_submodule(n.target)
                if isinstance(mod, self.torch.nn.Linear):
                    read.add(n.target + ".weight")
        return read

    def default_role(self, name, is_param):
        if is_param:
            return "weight" if name in self.matmul_read else None
        if name.startswith("tangents"):
            return "gradient"
        return "activation"

    def role_of(self, name, is_param):
        if name in self.user_roles:
            return self.user_roles[name]
        return self.default_role(name, is_param)

    def add_arg(self, name, shape, dtype, is_param):
        ssa = re.sub(r"[^A-Za-z0-9_$.]", "_", name)
        ssa = "%" + ("_" + ssa if ssa[:1].isdigit() else ssa)
        if any(a[0] == ssa for a in self.args):
            ssa += "_%d" % len(self.args)
        role = self.role_of(name, is_param)
        self.args.append((ssa, _t(shape, dtype), role))
        return _Val(shape, dtype, _leaf(ssa, shape, dtype), role, (name,))

    def param(self, node, qualname):
        if qualname not in self.arg_of:
            t = self.gm
            for part in qualname.split("."):
                t = getattr(t, part)
            if not isinstance(t, self.torch.Tensor):
                raise self.error(node, "attribute %r is not a tensor" %
                                 qualname)
            shape = self.static(node, t.shape)
            self.arg_of[qualname] = self.add_arg(
                qualname, shape, self.dtype(node, t.dtype), True)
        return self.arg_of[qualname]

    # ---- writing ---------------------------------------------------------

    def generic(self, shape, out_dtype, expr, red_dims=()):
        """A linalg.generic over `shape` computing `expr` (f32, rounded to
        out_dtype); with `red_dims` it sums it over them into f32."""
        rank = len(shape)
        leaves = _leaves(expr, [])
        args = {}
        block, ins, tys, maps = [], [], [], []
        pre = []
        for i, leaf in enumerate(leaves):
            _, ssa, sshape, dt, _ = leaf
            v = "%%a%d" % i
            block.append("%s: %s" % (v, dt))
            ins.append(ssa)
            tys.append(_t(sshape, dt))
            maps.append(_leaf_map(leaf, shape))
            if dt == "f32":
                args[leaf] = v
            else:
                args[leaf] = "%%x%d" % i
                pre.append("%%x%d = arith.extf %s : %s to f32" % (i, v, dt))
        body = _Body(args)
        r = body.value(expr)
        kept = [d for d in range(rank) if d not in red_dims]
        oshape = tuple(shape[d] for d in kept)
        if red_dims:
            out_dtype = "f32"
            init = self.w.zeros(oshape, "f32")
            tail = ["%%sum = arith.addf %%acc, %s : f32" % r,
                    "linalg.yield %sum : f32"]
            acc = "%acc"
        else:
            init = self.w.fresh("e")
            self.w.emit("%s = tensor.empty() : %s" % (init,
                                                      _t(oshape, out_dtype)))
            acc = "%o"
            if out_dtype != "f32":
                tail = ["%%y = arith.truncf %s : f32 to %s" % (r, out_dtype),
                        "linalg.yield %%y : %s" % out_dtype]
            else:
                tail = ["linalg.yield %s : f32" % r]
        maps.append(_map(rank, ["d%d" % d for d in kept]))
        its = ", ".join('"reduction"' if d in red_dims else '"parallel"'
                        for d in range(rank))
        out = self.w.fresh("g")
        ot = _t(oshape, out_dtype)
        lines = ["%s = linalg.generic {indexing_maps = [%s], "
                 "iterator_types = [%s]}" % (out, ", ".join(maps), its),
                 "    ins(%s : %s)" % (", ".join(ins), ", ".join(tys))
                 if ins else "    ins()",
                 "    outs(%s : %s) {" % (init, ot),
                 "^bb0(%s):" % ", ".join(block + ["%s: %s" % (
                     acc, out_dtype)])]
        lines += ["  " + s for s in pre + body.lines + tail]
        lines.append("} -> %s" % ot)
        self.w.emit("\n".join(lines))
        return out

    def materialize(self, val):
        """`val` as a tensor of its shape and dtype: (ssa, shape)."""
        e = val.expr
        if e[0] == "leaf" and e[2] == val.shape and e[3] == val.dtype and \
                e[4] == tuple(range(len(val.shape))):
            return e[1]
        key = (e, val.shape, val.dtype)
        if key not in self.materialized:
            if e[0] == "round" and e[1] == val.dtype:
                e = e[2]
            self.materialized[key] = self.generic(val.shape, val.dtype, e)
        return self.materialized[key]

    def as_leaf(self, val):
        return _Val(val.shape, val.dtype,
                    _leaf(self.materialize(val), val.shape, val.dtype),
                    val.role)

    def operand(self, node, val):
        """A matmul operand: (ssa, type, transposed)."""
        if len(val.shape) != 2:
            raise self.error(node, "a matmul operand of rank %d (shape %s); "
                             "2-D operands only" % (len(val.shape),
                                                    list(val.shape)))
        e = val.expr
        if e[0] == "leaf" and e[3] == val.dtype and len(e[2]) == 2 and \
                e[4] == (1, 0) and e[2] == val.shape[::-1]:
            return e[1], _t(e[2], e[3]), True
        return self.materialize(val), _t(val.shape, val.dtype), False

    def matmul(self, node, a, b, out_dtype):
        (sa, ta, tra), (sb, tb, trb) = self.operand(node, a), \
            self.operand(node, b)
        m, n = a.shape[0], b.shape[1]
        init = self.w.zeros((m, n), out_dtype)
        out = self.w.fresh("mm")
        t = _t((m, n), out_dtype)
        maps = "[%s, %s, %s]" % (
            "affine_map<(m, n, k) -> (%s)>" % ("k, m" if tra else "m, k"),
            "affine_map<(m, n, k) -> (%s)>" % ("n, k" if trb else "k, n"),
            "affine_map<(m, n, k) -> (m, n)>")
        self.w.emit("%s = linalg.matmul indexing_maps = %s\n"
                    "       ins(%s, %s : %s, %s)\n"
                    "       outs(%s : %s) -> %s" % (out, maps, sa, sb, ta, tb,
                                                    init, t, t))
        return _Val((m, n), out_dtype, _leaf(out, (m, n), out_dtype),
                    _matmul_role(a.role, b.role))

    def reshape_ssa(self, ssa, shape, dtype, new_shape):
        """tensor.collapse_shape / expand_shape of `ssa` to `new_shape`."""
        key = (ssa, tuple(new_shape))
        if key in self.reshaped:
            return self.reshaped[key]
        groups = _groups(shape, new_shape)
        if groups is None:
            flat = (math.prod(shape),)
            mid = self.reshape_ssa(ssa, shape, dtype, flat)
            return self.reshape_ssa(mid, flat, dtype, new_shape)
        collapse = len(new_shape) < len(shape)
        assoc = "[%s]" % ", ".join("[%s]" % ", ".join(str(i) for i in g)
                                   for g in groups)
        out = self.w.fresh("r")
        if collapse:
            self.w.emit("%s = tensor.collapse_shape %s %s : %s into %s" % (
                out, ssa, assoc, _t(shape, dtype), _t(new_shape, dtype)))
        else:
            self.w.emit("%s = tensor.expand_shape %s %s output_shape [%s] "
                        ": %s into %s" % (
                            out, ssa, assoc,
                            ", ".join(str(s) for s in new_shape),
                            _t(shape, dtype), _t(new_shape, dtype)))
        self.reshaped[key] = out
        self.reshaped[(out, tuple(shape))] = ssa
        return out

    # ---- views -------------------------------------------------------------

    def permute(self, val, perm):
        inv = {p: i for i, p in enumerate(perm)}
        return _Val([val.shape[p] for p in perm], val.dtype,
                    _remap(val.expr, lambda d: inv[d]), val.role,
                    val.sources)

    def view(self, node, val, new_shape):
        new_shape = tuple(new_shape)
        if -1 in new_shape:
            known = math.prod(s for s in new_shape if s != -1)
            new_shape = tuple(math.prod(val.shape) // known if s == -1
                              else s for s in new_shape)
        if math.prod(new_shape) != math.prod(val.shape):
            raise self.error(node, "view of %s as %s" % (list(val.shape),
                                                         list(new_shape)))
        old = [d for d, s in enumerate(val.shape) if s != 1]
        new = [d for d, s in enumerate(new_shape) if s != 1]
        if [val.shape[d] for d in old] == [new_shape[d] for d in new]:
            # Only unit dims come or go: the same loops, renumbered.
            to = dict(zip(old, new))
            return _Val(new_shape, val.dtype,
                        _remap(val.expr, lambda d: to.get(d)), val.role,
                        val.sources)
        groups = _groups(val.shape, new_shape)
        if groups is not None and len(new_shape) < len(val.shape):
            pushed = self.push_collapse(val, new_shape, groups)
            if pushed is not None:
                return pushed
        ssa = self.materialize(val)
        out = self.reshape_ssa(ssa, val.shape, val.dtype, new_shape)
        return _Val(new_shape, val.dtype, _leaf(out, new_shape, val.dtype),
                    val.role, val.sources)

    def push_collapse(self, val, new_shape, groups):
        """The collapse of an elementwise chain as the same chain over its
        inputs' collapses, where each input runs along a whole group in
        storage order or not at all; None where one does not."""
        old_to_group = {d: gi for gi, g in enumerate(groups) for d in g}
        replace = {}
        for leaf in _leaves(val.expr, []):
            _, ssa, sshape, dt, dims = leaf
            new_dims, new_sshape, assoc, s = [], [], [], 0
            while s < len(dims):
                d = dims[s]
                if d is None or val.shape[d] == 1 != sshape[s] or (
                        sshape[s] == 1 and val.shape[d] != 1):
                    if sshape[s] != 1:
                        return None
                    new_dims.append(None)
                    new_sshape.append(1)
                    assoc.append([s])
                    s += 1
                    continue
                g = groups[old_to_group[d]]
                if d != g[0] or tuple(dims[s:s + len(g)]) != tuple(g):
                    return None
                new_dims.append(old_to_group[d])
                new_sshape.append(math.prod(sshape[s:s + len(g)]))
                assoc.append(list(range(s, s + len(g))))
                s += len(g)
            if len(new_sshape) == len(sshape):
                replace[leaf] = leaf[:2] + (tuple(sshape), dt,
                                            tuple(new_dims))
            else:
                out = self.reshape_ssa(ssa, sshape, dt, tuple(new_sshape))
                replace[leaf] = ("leaf", out, tuple(new_sshape), dt,
                                 tuple(new_dims))

        def sub(e):
            if e[0] == "leaf":
                return replace[e]
            if e[0] == "const":
                return e
            if e[0] == "round":
                return ("round", e[1], sub(e[2]))
            return e[:2] + tuple(sub(x) for x in e[2:])
        return _Val(new_shape, val.dtype, sub(val.expr), val.role,
                    val.sources)

    # ---- nodes -------------------------------------------------------------

    def _canon(self, node):
        """The node's operation as one name for its torch-level and aten
        spellings, or None."""
        torch = self.torch
        if node.op == "call_method":
            return {"float": "cast", "to": "cast", "type_as": "cast",
                    "half": "cast", "bfloat16": "cast", "type": "cast",
                    "double": "cast", "size": "size", "dim": "dim",
                    "pow": "pow", "mean": "mean", "sum": "sum",
                    "view": "view", "reshape": "reshape",
                    "transpose": "transpose", "permute": "permute",
                    "t": "t", "contiguous": "contiguous", "add": "add",
                    "mul": "mul", "sub": "sub", "div": "div",
                    "rsqrt": "rsqrt", "sqrt": "sqrt", "sigmoid": "sigmoid",
                    "exp": "exp", "tanh": "tanh", "neg": "neg",
                    "matmul": "matmul", "expand": "expand",
                    "unsqueeze": "unsqueeze", "squeeze": "squeeze",
                    "flatten": "flatten", "detach": "detach",
                    "clone": "clone", "reciprocal": "reciprocal",
                    "abs": "abs"}.get(node.target)
        if node.op != "call_function":
            return None
        t = node.target
        if str(t).startswith("aten."):
            name = str(t)[5:].rsplit(".", 1)[0] if str(t).count(".") > 1 \
                else str(t)[5:]
            if name in ("_to_copy", "convert_element_type", "_to_dtype"):
                return "cast"
            if name == "_unsafe_view":
                return "view"
            return name
        F = torch.nn.functional
        table = {operator.add: "add", operator.mul: "mul",
                 operator.sub: "sub", operator.truediv: "div",
                 operator.neg: "neg", operator.getitem: "getitem",
                 operator.matmul: "matmul",
                 torch.add: "add", torch.mul: "mul", torch.sub: "sub",
                 torch.div: "div", torch.matmul: "matmul", torch.mm: "mm",
                 torch.rsqrt: "rsqrt", torch.sqrt: "sqrt",
                 torch.sigmoid: "sigmoid", torch.exp: "exp",
                 torch.tanh: "tanh", torch.neg: "neg", torch.pow: "pow",
                 torch.mean: "mean", torch.sum: "sum",
                 torch.transpose: "transpose", torch.permute: "permute",
                 torch.t: "t", torch.reshape: "reshape",
                 torch.flatten: "flatten", torch.addmm: "addmm",
                 torch.reciprocal: "reciprocal", torch.abs: "abs",
                 F.linear: "linear", F.silu: "silu", F.gelu: "gelu",
                 F.layer_norm: "layer_norm", torch.layer_norm: "layer_norm",
                 torch.unsqueeze: "unsqueeze", torch.squeeze: "squeeze"}
        try:
            return table.get(t)
        except TypeError:
            return None

    def arg(self, node, a):
        """An argument: a _Val for a node, else the Python value."""
        if hasattr(a, "op") and hasattr(a, "meta"):
            return self.vals[a]
        return a

    def run(self):
        for node in self.graph.nodes:
            if node.op == "placeholder":
                shape, dtype = self.meta(node)
                self.vals[node] = self.add_arg(
                    node.name, shape, dtype, node.name in self.param_names)
            elif node.op == "get_attr":
                self.vals[node] = self.param(node, node.target)
            elif node.op == "output":
                return node
            else:
                self.vals[node] = self.node(node)

    def node(self, node):
        c = self._canon(node)
        mod = None
        if node.op == "call_module":
            mod = self.gm.get_submodule(node.target)
            nn = self.torch.nn
            if isinstance(mod, nn.Linear):
                c = "linear_module"
            elif isinstance(mod, nn.SiLU):
                c = "silu"
            elif isinstance(mod, nn.GELU):
                c = "gelu"
            elif isinstance(mod, nn.LayerNorm):
                c = "layer_norm_module"
            elif isinstance(mod, (nn.Identity,)) or (
                    isinstance(mod, nn.Dropout) and mod.p == 0):
                c = "clone"
            else:
                c = None
        handler = getattr(self, "op_" + c, None) if c else None
        if handler is None:
            what = type(mod).__name__ if mod is not None else \
                _target_name(node)
            raise self.error(node, "%s is not an op the emitter expresses "
                             "(linear/matmul, elementwise arithmetic, silu, "
                             "gelu, norms, sum/mean, views, casts)" % what)
        args = [self.arg(node, a) for a in node.args]
        kwargs = {k: self.arg(node, a) for k, a in node.kwargs.items()}
        if c == "getitem":
            return handler(node, args, kwargs)
        out = handler(node, args, kwargs) if mod is None else \
            handler(node, args, kwargs, mod)
        if isinstance(out, _Val):
            shape, dtype = self.meta(node)
            if tuple(out.shape) != shape:
                raise self.error(node, "emitted shape %s, torch says %s" % (
                    list(out.shape), list(shape)))
            if out.dtype != dtype:
                out = self.cast(out, dtype)
        return out

    def cast(self, val, dtype):
        e = val.expr
        if _WIDTH[dtype] < _WIDTH[val.dtype] or (
                dtype != val.dtype and _WIDTH[dtype] == 16):
            e = ("round", dtype, e)
        return _Val(val.shape, dtype, e, val.role, val.sources)

    # Elementwise.

    def ew(self, node, vals, f, out_shape=None):
        """The elementwise f of `vals` (_Vals broadcast to the node's shape,
        or Python numbers)."""
        shape, dtype = self.meta(node)
        exprs, roles = [], []
        for v in vals:
            if isinstance(v, _Val):
                off = len(shape) - len(v.shape)
                exprs.append(_remap(v.expr, lambda d, o=off: d + o))
                roles.append(v.role)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                exprs.append(("const", float(v)))
            else:
                raise self.error(node, "argument %r is neither a tensor nor "
                                 "a number" % (v,))
        return _Val(shape, dtype, f(*exprs), _combine_roles(roles))

    def _binary(op):
        def handler(self, node, args, kwargs):
            a, b = args[0], args[1] if len(args) > 1 else kwargs["other"]
            alpha = kwargs.get("alpha", 1)
            if alpha != 1:
                return self.ew(node, [a, b], lambda x, y: _bin(
                    op, x, _bin("mul", y, ("const", alpha))))
            return self.ew(node, [a, b], lambda x, y: _bin(op, x, y))
        return handler

    op_add, op_sub, op_mul, op_div = (_binary("add"), _binary("sub"),
                                      _binary("mul"), _binary("div"))

    def op_rsub(self, node, args, kwargs):
        return self.ew(node, [args[1], args[0]],
                       lambda x, y: _bin("sub", x, y))

    def _unary(op):
        def handler(self, node, args, kwargs, mod=None):
            return self.ew(node, [args[0]], lambda x: _un(op, x))
        return handler

    op_neg, op_exp, op_rsqrt, op_sqrt, op_tanh, op_sigmoid, op_silu = (
        _unary("neg"), _unary("exp"), _unary("rsqrt"), _unary("sqrt"),
        _unary("tanh"), _unary("sigmoid"), _unary("silu"))
    op_reciprocal, op_abs, op_log = (_unary("recip"), _unary("abs"),
                                     _unary("log"))

    def op_gelu(self, node, args, kwargs, mod=None):
        approx = kwargs.get("approximate", mod.approximate if mod else "none")
        return self.ew(node, [args[0]], lambda x: _un(
            "gelu_tanh" if approx == "tanh" else "gelu", x))

    def op_gelu_backward(self, node, args, kwargs):
        approx = kwargs.get("approximate", "none")
        return self.ew(node, args[:2],
                       lambda g, x: _gelu_grad(g, x, approx))

    def op_silu_backward(self, node, args, kwargs):
        return self.ew(node, args[:2], _silu_grad)

    def op_pow(self, node, args, kwargs):
        p = args[1] if len(args) > 1 else kwargs["exponent"]
        if not isinstance(p, (int, float)):
            raise self.error(node, "a tensor exponent; constant exponents "
                             "only")
        return self.ew(node, [args[0]], lambda x: _pow(x, p))

    def op_fill(self, node, args, kwargs):
        return self.ew(node, [args[1]], lambda c: c)

    def op_zeros_like(self, node, args, kwargs):
        return self.ew(node, [0.0], lambda c: c)

    def op_ones_like(self, node, args, kwargs):
        return self.ew(node, [1.0], lambda c: c)

    def op_empty_like(self, node, args, kwargs):
        # Only ever filled (aten.fill); its contents are unread.
        return self.ew(node, [0.0], lambda c: c)

    # Moves.

    def op_cast(self, node, args, kwargs):
        shape, dtype = self.meta(node)
        v = args[0]
        return _Val(v.shape, v.dtype, v.expr, v.role, v.sources) \
            if dtype == v.dtype else self.cast(v, dtype)

    def op_clone(self, node, args, kwargs, mod=None):
        return args[0]

    op_detach = op_alias = op_contiguous = op_lift_fresh_copy = op_clone

    def op_t(self, node, args, kwargs):
        v = args[0]
        return v if len(v.shape) < 2 else self.permute(v, [1, 0])

    def op_transpose(self, node, args, kwargs):
        v = args[0]
        r = len(v.shape)
        d0, d1 = args[1] % r, args[2] % r
        perm = list(range(r))
        perm[d0], perm[d1] = d1, d0
        return self.permute(v, perm)

    def op_permute(self, node, args, kwargs):
        v = args[0]
        dims = args[1] if len(args) == 2 and isinstance(
            args[1], (list, tuple)) else args[1:]
        return self.permute(v, [d % len(v.shape) for d in dims])

    def op_view(self, node, args, kwargs):
        shape, _ = self.meta(node)
        return self.view(node, args[0], shape)

    op_reshape = op_flatten = op_squeeze = op_unsqueeze = op_view

    def op_expand(self, node, args, kwargs):
        shape, _ = self.meta(node)
        v = args[0]
        off = len(shape) - len(v.shape)
        return _Val(shape, v.dtype, _remap(v.expr, lambda d: d + off),
                    v.role, v.sources)

    # Reductions.

    def reduce(self, node, v, dims, keepdim, mean):
        shape, dtype = self.meta(node)
        r = len(v.shape)
        if dims is None or dims == []:
            dims = list(range(r))
        dims = sorted({d % r for d in ([dims] if isinstance(dims, int)
                                       else dims)})
        kept = [d for d in range(r) if d not in dims]
        sshape = tuple(v.shape[d] for d in kept)
        flat = None
        if r > 2 and dims == [r - 1]:
            # A row sum over [B, T, D] is written over [B*T, D] (the
            # views go to its inputs), the form a norm feeding a matmul of
            # tokens fuses in; its [B, T] view collapses back for free.
            m = math.prod(v.shape[:-1])
            flat = self.push_collapse(v, (m, v.shape[-1]),
                                      [list(range(r - 1)), [r - 1]])
        if flat is not None:
            ssa = self.reshape_ssa(self.generic(flat.shape, "f32", flat.expr,
                                                [1]), (m,), "f32", sshape)
        else:
            ssa = self.generic(v.shape, "f32", v.expr, dims)
        if keepdim:
            ldims = tuple(kept)
        else:
            ldims = tuple(range(len(kept)))
        e = _leaf(ssa, sshape, "f32", ldims)
        if mean:
            n = math.prod(v.shape[d] for d in dims)
            e = _bin("div", e, ("const", n))
        if dtype != "f32":
            e = ("round", dtype, e)
        return _Val(shape, dtype, e, v.role)

    def op_sum(self, node, args, kwargs):
        dims = args[1] if len(args) > 1 else kwargs.get("dim")
        keep = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
        return self.reduce(node, args[0], dims, keep, False)

    def op_mean(self, node, args, kwargs):
        dims = args[1] if len(args) > 1 else kwargs.get("dim")
        keep = args[2] if len(args) > 2 else kwargs.get("keepdim", False)
        return self.reduce(node, args[0], dims, keep, True)

    def layer_norm(self, node, x, normalized_shape, w, b, eps):
        """LayerNorm over the last dim: mean, then the mean of squared
        deviations (two row sums, as fp8-fuse-quantization fuses)."""
        if len(normalized_shape) != 1:
            raise self.error(node, "layer_norm over %d dims; the last dim "
                             "only" % len(normalized_shape))
        r = len(x.shape)
        n = x.shape[-1]
        s1 = self.generic(x.shape, "f32", x.expr, [r - 1])
        kept = tuple(range(r - 1))
        mean = _bin("div", _leaf(s1, x.shape[:-1], "f32", kept),
                    ("const", n))
        dev = _bin("sub", x.expr, mean)
        s2 = self.generic(x.shape, "f32", _bin("mul", dev, dev), [r - 1])
        var = _bin("div", _leaf(s2, x.shape[:-1], "f32", kept),
                   ("const", n))
        rstd = _un("rsqrt", _bin("add", var, ("const", eps)))
        y = _bin("mul", dev, rstd)
        if w is not None:
            y = _bin("mul", y, _remap(w.expr, lambda d: d + r - 1))
        if b is not None:
            y = _bin("add", y, _remap(b.expr, lambda d: d + r - 1))
        return _Val(x.shape, x.dtype, y, x.role), mean, rstd

    def op_layer_norm(self, node, args, kwargs):
        a = list(args) + [None] * (5 - len(args))
        w = kwargs.get("weight", a[2])
        b = kwargs.get("bias", a[3])
        eps = kwargs.get("eps", a[4] if a[4] is not None else 1e-5)
        return self.layer_norm(node, args[0], args[1], w, b, eps)[0]

    def op_layer_norm_module(self, node, args, kwargs, mod):
        w = self.param(node, node.target + ".weight") \
            if mod.weight is not None else None
        b = self.param(node, node.target + ".bias") \
            if mod.bias is not None else None
        return self.layer_norm(node, args[0], mod.normalized_shape, w, b,
                               mod.eps)[0]

    def op_native_layer_norm(self, node, args, kwargs):
        x = args[0]
        y, mean, rstd = self.layer_norm(node, x, args[1], args[2], args[3],
                                        args[4])
        m = node.meta.get("tensor_meta")
        stats = tuple(self.static(node, t.shape) for t in m[1:]) \
            if m else (x.shape[:-1] + (1,),) * 2
        r = len(x.shape)
        return (y, _Val(stats[0], "f32", mean, x.role),
                _Val(stats[1], "f32", rstd, x.role)) if r else (y,)

    def op_getitem(self, node, args, kwargs):
        return args[0][args[1]]

    # Matmuls.

    def mm2(self, node, a, b, bias=None):
        shape, dtype = self.meta(node)
        acc = "f32" if bias is not None else dtype
        y = self.matmul(node, a, b, acc)
        if bias is not None:
            off = len(y.shape) - len(bias.shape)
            y = _Val(y.shape, dtype, ("round", dtype, _bin(
                "add", y.expr, _remap(bias.expr, lambda d: d + off))),
                y.role)
        return y

    def linear(self, node, x, w, b):
        """x W^T + b for x of any rank >= 2: leading dims collapsed."""
        lead = x.shape[:-1]
        x2 = x if len(x.shape) == 2 else self.view(
            node, x, (math.prod(lead), x.shape[-1]))
        y = self.mm2(node, x2, self.permute(w, [1, 0]), b)
        if len(x.shape) != 2:
            y = self.view(node, y, lead + (w.shape[0],))
        return y

    def op_linear(self, node, args, kwargs):
        b = args[2] if len(args) > 2 else kwargs.get("bias")
        return self.linear(node, args[0], args[1], b)

    def op_linear_module(self, node, args, kwargs, mod):
        w = self.param(node, node.target + ".weight")
        b = self.param(node, node.target + ".bias") \
            if mod.bias is not None else None
        return self.linear(node, args[0], w, b)

    def op_mm(self, node, args, kwargs):
        return self.mm2(node, args[0], args[1])

    def op_addmm(self, node, args, kwargs):
        if kwargs.get("beta", 1) != 1 or kwargs.get("alpha", 1) != 1:
            raise self.error(node, "addmm with alpha or beta other than 1")
        return self.mm2(node, args[1], args[2], args[0])

    def op_matmul(self, node, args, kwargs):
        a, b = args[0], args[1]
        if len(b.shape) != 2 or len(a.shape) < 2:
            raise self.error(node, "matmul of shapes %s and %s; an [..., K] "
                             "by [K, N] product only" % (list(a.shape),
                                                         list(b.shape)))
        return self.linear(node, a, self.permute(b, [1, 0]), None)

    # ---- the module ------------------------------------------------------------

    def module(self, name):
        out = self.run()
        results, types, self.out_roles = [], [], []
        outs = out.args[0]
        if not isinstance(outs, (list, tuple)):
            outs = [outs]
        for o in outs:
            if o is None:
                continue
            v = self.vals.get(o) if hasattr(o, "op") else None
            if not isinstance(v, _Val):
                raise self.error(out, "output %r is not a tensor" % (o,))
            results.append(self.materialize(v))
            types.append(_t(v.shape, v.dtype))
            self.out_roles.append(v.role)
        return _function(name, self.args, types, self.w, results) + "\n"


def _groups(shape, new_shape):
    """The reassociation of a collapse (new_shape coarser) or an expand,
    as groups of the finer shape's dims; None if the view is neither."""
    fine, coarse = (shape, new_shape) if len(shape) >= len(new_shape) \
        else (new_shape, shape)
    groups, i = [], 0
    for c in coarse:
        g, p = [], 1
        while i < len(fine) and (p < c or not g):
            g.append(i)
            p *= fine[i]
            i += 1
        if p != c:
            return None
        groups.append(g)
    if i != len(fine):
        if groups and all(fine[j] == 1 for j in range(i, len(fine))):
            groups[-1].extend(range(i, len(fine)))
        else:
            return None
    return groups
