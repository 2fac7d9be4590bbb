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

This module walks the graph (shapes, roles, tensors written); fx_ops is
the table of the ops it knows, fx_expr the elementwise expressions and
the linalg.generic that computes one.
"""

import math
import re

from . import fx_ops
from .errors import EmitError
from .fx_expr import (DTYPES, WIDTH, Value, leaf, leaves, reassociation,
                      remap, substitute, write_generic)
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
    parameters, as names or as a count of the leading ones.

        text = emit(torch.fx.symbolic_trace(mlp), [x], name="mlp")
    """
    return _Emitter(graph_module, example_inputs, roles,
                    parameters).module(name)


def output_roles(graph_module, example_inputs=None, roles=None,
                 parameters=None):
    """The role (or None) of each of the graph's outputs, as emit derives
    it: for AOTAutograd, the forward graph's saved outputs give the
    backward graph's placeholders their roles (its tangents are
    gradients).

        saved = output_roles(forward, parameters=4)[1:]
    """
    e = _Emitter(graph_module, example_inputs, roles, parameters)
    e.module("graph")
    return e.out_roles


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


# The names the emitter gives its own values (%e1, %mm2, %g3; in a
# generic's body %a0, %x0, %b1, %o, %acc, %sum, %y). A function argument
# so named would be redefined inside a generic, which MLIR rejects.
_RESERVED = re.compile(r"%(?:[a-z]{1,2}\d+|o|acc|sum|y)")


class _Emitter:
    """Walks the graph's nodes in order, keeping each as a Value, and
    writes tensors (generics, matmuls, reshapes) only where a value is
    needed as one."""

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
        self.vals = {}          # FX node -> Value (or tuple, or scalar)
        self.args = []          # (ssa, type, role) of the function
        self.arg_of = {}        # parameter qualified name -> Value
        self.reshaped = {}      # (ssa, shape) -> ssa of its reshape
        self.materialized = {}  # (expr, shape, dtype) -> ssa
        if example_inputs is not None:
            self._propagate(placeholders, example_inputs)
        self.matmul_read = self._matmul_read()

    # ---- errors, shapes --------------------------------------------------

    def error(self, node, reason):
        return EmitError(reason, node.name, node.op, fx_ops.target_name(node),
                         fx_ops.source_line(node))

    def dtype(self, node, torch_dtype):
        d = DTYPES.get(str(torch_dtype))
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
                if not isinstance(x, (list, tuple)) or len(x) != 2:
                    raise TypeError("example input %r of %s is neither a "
                                    "tensor nor a (shape, dtype) pair" %
                                    (x, node.name))
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

    def _canon(self, node):
        return fx_ops.canonical_name(self.torch, self.gm, node)

    def _matmul_read(self):
        """The names of the placeholders and the qualified names of the
        parameters that a matmul reads through moves."""
        read = set()

        def back(n):
            if not hasattr(n, "op"):
                return
            if n.op == "placeholder":
                read.add(n.name)
            elif n.op == "get_attr":
                read.add(n.target)
            elif self._canon(n) in fx_ops.MOVES and n.args:
                back(n.args[0])
        for n in self.graph.nodes:
            c = self._canon(n)
            if c in fx_ops.MATMULS:
                for a in (n.args[1:3] if c == "addmm" else n.args[:2]):
                    back(a)
            elif c == "linear_module":
                read.add(n.target + ".weight")
        return read

    def role_of(self, name, is_param):
        if name in self.user_roles:
            return self.user_roles[name]
        if is_param:
            return "weight" if name in self.matmul_read else None
        if name.startswith("tangents"):
            return "gradient"
        return "activation"

    def add_arg(self, name, shape, dtype, is_param):
        ssa = re.sub(r"[^A-Za-z0-9_$.]", "_", name)
        ssa = "%" + ("_" + ssa if ssa[:1].isdigit() else ssa)
        if _RESERVED.fullmatch(ssa):
            ssa += "_"
        taken = {a[0] for a in self.args}
        base, i = ssa, len(self.args)
        while ssa in taken:
            ssa, i = "%s_%d" % (base, i), i + 1
        role = self.role_of(name, is_param)
        self.args.append((ssa, _t(shape, dtype), role))
        return Value(shape, dtype, leaf(ssa, shape, dtype), role)

    def param(self, node, qualname):
        if qualname not in self.arg_of:
            t = self.gm
            for part in qualname.split("."):
                t = getattr(t, part, None)
            if not isinstance(t, self.torch.Tensor):
                raise self.error(node, "attribute %r is not a tensor" %
                                 qualname)
            shape = self.static(node, t.shape)
            self.arg_of[qualname] = self.add_arg(
                qualname, shape, self.dtype(node, t.dtype), True)
        return self.arg_of[qualname]

    # ---- writing ---------------------------------------------------------

    def generic(self, shape, out_dtype, expr, red_dims=()):
        return write_generic(self.w, shape, out_dtype, expr, red_dims)

    def materialize(self, val):
        """`val` as a tensor of its shape and dtype: its ssa name."""
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

    def operand(self, node, val):
        """A matmul operand: (ssa, type, transposed)."""
        if len(val.shape) != 2:
            raise self.error(node, "a matmul operand of rank %d (shape %s); "
                             "2-D operands only" % (len(val.shape),
                                                    list(val.shape)))
        e = val.expr
        # A transpose of a stored tensor is the matmul's map, not a copy.
        if e[0] == "leaf" and e[3] == val.dtype and e[4] == (1, 0) and \
                e[2] == val.shape[::-1]:
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
        return Value((m, n), out_dtype, leaf(out, (m, n), out_dtype),
                     _matmul_role(a.role, b.role))

    def reshape_ssa(self, ssa, shape, dtype, new_shape):
        """tensor.collapse_shape / expand_shape of `ssa` to `new_shape`."""
        key = (ssa, tuple(new_shape))
        if key in self.reshaped:
            return self.reshaped[key]
        groups = reassociation(shape, new_shape)
        if groups is None:
            # Neither a collapse nor an expand: through the flat tensor.
            flat = (math.prod(shape),)
            mid = self.reshape_ssa(ssa, shape, dtype, flat)
            return self.reshape_ssa(mid, flat, dtype, new_shape)
        assoc = "[%s]" % ", ".join("[%s]" % ", ".join(str(i) for i in g)
                                   for g in groups)
        out = self.w.fresh("r")
        if len(new_shape) < len(shape):
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

    # ---- values: views and casts -----------------------------------------

    def permute(self, val, perm):
        inv = {p: i for i, p in enumerate(perm)}
        return Value([val.shape[p] for p in perm], val.dtype,
                     remap(val.expr, lambda d: inv[d]), val.role)

    def select_dims(self, val, dims):
        """`val` over its logical dims `dims` only; no leaf may vary along
        the others."""
        to = {d: i for i, d in enumerate(dims)}
        return Value([val.shape[d] for d in dims], val.dtype,
                     remap(val.expr, to.get), val.role)

    def view(self, node, val, new_shape):
        new_shape = tuple(new_shape)
        if math.prod(new_shape) != math.prod(val.shape):
            raise self.error(node, "view of %s as %s" % (list(val.shape),
                                                         list(new_shape)))
        old = [d for d, s in enumerate(val.shape) if s != 1]
        new = [d for d, s in enumerate(new_shape) if s != 1]
        if [val.shape[d] for d in old] == [new_shape[d] for d in new]:
            # Only unit dims come or go: the same loops, renumbered.
            to = dict(zip(old, new))
            return Value(new_shape, val.dtype, remap(val.expr, to.get),
                         val.role)
        groups = reassociation(val.shape, new_shape)
        if groups is not None and len(new_shape) < len(val.shape):
            pushed = self.push_collapse(val, new_shape, groups)
            if pushed is not None:
                return pushed
        ssa = self.materialize(val)
        out = self.reshape_ssa(ssa, val.shape, val.dtype, new_shape)
        return Value(new_shape, val.dtype, leaf(out, new_shape, val.dtype),
                     val.role)

    def push_collapse(self, val, new_shape, groups):
        """The collapse of an elementwise chain as the same chain over its
        inputs' collapses, where each input runs along a whole group in
        storage order or not at all; None where one does not."""
        old_to_group = {d: gi for gi, g in enumerate(groups) for d in g}
        replace = {}
        for e in leaves(val.expr):
            _, ssa, sshape, dt, dims = e
            new_dims, new_sshape, s = [], [], 0
            while s < len(dims):
                d = dims[s]
                if d is None or (sshape[s] == 1 and val.shape[d] != 1):
                    new_dims.append(None)
                    new_sshape.append(1)
                    s += 1
                    continue
                g = groups[old_to_group[d]]
                if d != g[0] or tuple(dims[s:s + len(g)]) != tuple(g):
                    return None
                new_dims.append(old_to_group[d])
                new_sshape.append(math.prod(sshape[s:s + len(g)]))
                s += len(g)
            new_ssa = ssa
            if len(new_sshape) != len(sshape):
                new_ssa = self.reshape_ssa(ssa, sshape, dt, tuple(new_sshape))
            replace[e] = leaf(new_ssa, new_sshape, dt, new_dims)
        return Value(new_shape, val.dtype, substitute(val.expr, replace.get),
                     val.role)

    def cast(self, val, dtype):
        e = val.expr
        if WIDTH[dtype] < WIDTH[val.dtype] or (
                dtype != val.dtype and WIDTH[dtype] == 16):
            e = ("round", dtype, e)
        return Value(val.shape, dtype, e, val.role)

    def explicit_cast(self, val, dtype):
        """A cast the graph spells out (.float(), _to_copy): torch rounds
        the value to its own dtype before it, so a computed value does
        too (a tensor or a constant of that dtype is exact already)."""
        if dtype == val.dtype:
            return val
        e = val.expr
        exact = e[0] == "const" or (e[0] == "leaf" and e[3] == val.dtype) \
            or (e[0] == "round" and e[1] == val.dtype) or val.dtype == "f32"
        if not exact:
            val = Value(val.shape, val.dtype, ("round", val.dtype, e),
                        val.role)
        return self.cast(val, dtype)

    def elementwise(self, node, vals, f):
        """The elementwise f of `vals` (Values broadcast to the node's
        shape, or Python numbers)."""
        shape, dtype = self.meta(node)
        exprs, roles = [], []
        for v in vals:
            if isinstance(v, Value):
                off = len(shape) - len(v.shape)
                exprs.append(remap(v.expr, lambda d, o=off: d + o))
                roles.append(v.role)
            elif isinstance(v, (int, float)) and not isinstance(v, bool):
                exprs.append(("const", float(v)))
            else:
                raise self.error(node, "argument %r is neither a tensor nor "
                                 "a number" % (v,))
        return Value(shape, dtype, f(*exprs), _combine_roles(roles))

    # ---- nodes -------------------------------------------------------------

    def arg(self, a):
        """An argument: a Value for a node, else the Python value."""
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
        handler = fx_ops.HANDLERS.get(c)
        module = self.gm.get_submodule(node.target) \
            if node.op == "call_module" else None
        if handler is None:
            what = type(module).__name__ if module is not None else \
                fx_ops.target_name(node)
            raise self.error(node, "%s is not an op the emitter expresses "
                             "(linear/matmul, elementwise arithmetic, silu, "
                             "gelu, norms, sum/mean, views, casts)" % what)
        args = [self.arg(a) for a in node.args]
        kwargs = {k: self.arg(a) for k, a in node.kwargs.items()}
        if "input" in kwargs and not args:  # torch.f(input=x, ...)
            args = [kwargs.pop("input")]
        try:
            out = handler(self, node, args, kwargs, module)
        except EmitError:
            raise
        except Exception as e:
            # Arguments of a form the handler does not expect (keywords
            # for positionals, a list of tensors): name the node all the
            # same.
            raise self.error(node, "cannot express its arguments (%s: %s)"
                             % (type(e).__name__, e)) from e
        if isinstance(out, Value):
            shape, dtype = self.meta(node)
            if tuple(out.shape) != shape:
                raise self.error(node, "emitted shape %s, torch says %s" % (
                    list(out.shape), list(shape)))
            if out.dtype != dtype:
                out = self.cast(out, dtype)
        return out

    # ---- the module --------------------------------------------------------

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
            if not isinstance(v, Value):
                raise self.error(out, "output %r is not a tensor" % (o,))
            results.append(self.materialize(v))
            types.append(_t(v.shape, v.dtype))
            self.out_roles.append(v.role)
        if not results:
            raise self.error(out, "the graph returns no tensor")
        return _function(name, self.args, types, self.w, results) + "\n"
