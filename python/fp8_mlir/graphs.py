"""The training graphs of a linear layer and an MLP block, as MLIR text.

Each graph is written the way a frontend writes it: bf16 `linalg.matmul`s
whose arguments carry `fp8.role`, elementwise `linalg.generic`s, nothing
FP8 yet. `fp8-opt --fp8-pipeline` then quantizes the matmuls by the
recipe. A layer is one module with two functions, so that autograd can run
them apart:

  <name>_fwd  the forward pass; returns what backward needs beyond the
              arguments (the MLP's pre-activations)
  <name>_bwd  Dgrad and Wgrad from the output gradient; it quantizes the
              activations and weights again (for its own contraction
              dims, which differ from the forward's except for 128x128
              weight tiles and tensorwise scales)

Storage conventions are torch.nn.Linear's: X [M, K] row-major, W [N, K]
(out_features x in_features), Y = X W^T + b. The bias gradient (a column
sum of dY) is left to PyTorch: the compiler's reduction kernel runs one
thread per column and is no match for it (docs/Python.md).
"""

# (m, n, k) iteration spaces of the three training matmuls on storage
# layouts: Fprop Y = X W^T, Dgrad dX = dY W, Wgrad dW = dY^T X.
_MAPS = """\
#fprop = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
          affine_map<(m, n, k) -> (m, n)>]
#dgrad = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
          affine_map<(m, n, k) -> (m, n)>]
#wgrad = [affine_map<(n, k, m) -> (m, n)>, affine_map<(n, k, m) -> (m, k)>,
          affine_map<(n, k, m) -> (n, k)>]
#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (j)>
"""

DTYPES = ("bf16", "f16", "f32")
ACTIVATIONS = ("swiglu", "gelu")


def _t(shape, dtype):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [dtype])


class _Writer:
    """Numbered SSA names and indented lines of one function body."""

    def __init__(self):
        self.lines, self.count = [], 0

    def fresh(self, stem):
        self.count += 1
        return "%%%s%d" % (stem, self.count)

    def emit(self, text):
        self.lines.extend("  " + line for line in text.splitlines())

    def zeros(self, shape, dtype):
        """A zero-filled tensor, the init of a matmul."""
        zero, empty, fill = (self.fresh("z"), self.fresh("e"),
                             self.fresh("i"))
        t = _t(shape, dtype)
        self.emit("%s = arith.constant 0.0 : %s\n"
                  "%s = tensor.empty() : %s\n"
                  "%s = linalg.fill ins(%s : %s) outs(%s : %s) -> %s" % (
                      zero, dtype, empty, t, fill, zero, dtype, empty, t, t))
        return fill

    def matmul(self, maps, a, at, b, bt, shape, dtype, init=None):
        out = self.fresh("mm")
        t = _t(shape, dtype)
        init = init or self.zeros(shape, dtype)
        self.emit("%s = linalg.matmul indexing_maps = #%s\n"
                  "       ins(%s, %s : %s, %s)\n"
                  "       outs(%s : %s) -> %s" % (out, maps, a, b, at, bt,
                                                   init, t, t))
        return out

    def elementwise(self, inputs, shape, out_dtype, body, maps=None):
        """A linalg.generic over [M, N]: `inputs` (name, dtype, map) are
        extended to f32 as %a0, %a1, ...; `body` computes %r (f32) from
        them, which is rounded to out_dtype."""
        out, empty = self.fresh("ew"), self.fresh("e")
        t = _t(shape, out_dtype)
        # Block arguments of f32 are used as they are; others are
        # extended to f32 first.
        names = ["%%a%d" % i if d == "f32" else "%%v%d" % i
                 for i, (_, d, _) in enumerate(inputs)]
        args = ", ".join("%s: %s" % (v, d) for v, (_, d, _) in
                         zip(names, inputs))
        lines = ["%s = tensor.empty() : %s" % (empty, t),
                 "%s = linalg.generic {indexing_maps = [%s, #id], "
                 "iterator_types = [\"parallel\", \"parallel\"]}" % (
                     out, ", ".join("#" + m for _, _, m in inputs)),
                 "    ins(%s : %s)" % (
                     ", ".join(n for n, _, _ in inputs),
                     ", ".join(_t(shape if m == "id" else shape[1:], d)
                               for _, d, m in inputs)),
                 "    outs(%s : %s) {" % (empty, t),
                 "^bb0(%s, %%o: %s):" % (args, out_dtype)]
        for i, (_, d, _) in enumerate(inputs):
            if d != "f32":
                lines.append("  %%a%d = arith.extf %%v%d : %s to f32" %
                             (i, i, d))
        lines.extend("  " + line for line in body.strip().splitlines())
        result = "%r"
        if out_dtype != "f32":
            lines.append("  %%y = arith.truncf %%r : f32 to %s" % out_dtype)
            result = "%y"
        lines.append("  linalg.yield %s : %s" % (result, out_dtype))
        lines.append("} -> %s" % t)
        self.emit("\n".join(lines))
        return out


def _function(name, args, results, writer, returns):
    sig = ",\n    ".join("%s: %s%s" % (n, t, (" {fp8.role = \"%s\"}" % r)
                                       if r else "")
                         for n, t, r in args)
    lines = ["func.func @%s(%s)\n    -> (%s) {" % (
        name, sig, ", ".join(results))]
    lines.extend(writer.lines)
    lines.append("  return %s : %s" % (", ".join(returns),
                                       ", ".join(results)))
    lines.append("}")
    return "\n".join(lines)


def _check_dims(**dims):
    for name, value in dims.items():
        if not isinstance(value, int) or isinstance(value, bool) or \
                value <= 0:
            raise ValueError("%s must be a positive int, got %r" %
                             (name, value))


def _check_dtype(name, dtype):
    if dtype not in DTYPES:
        raise ValueError("%s must be one of %s, got %r" %
                         (name, ", ".join(DTYPES), dtype))


def _linear_forward(wr, m, k, n, bias, dtype, out_dtype):
    """Y = X W^T (+ b) into `wr`; returns Y."""
    tx, tw = _t((m, k), dtype), _t((n, k), dtype)
    # With a bias the product stays f32 until the bias is added, so Y is
    # rounded once, as cuBLAS's bias epilogue does.
    acc = "f32" if bias else out_dtype
    y = wr.matmul("fprop", "%x", tx, "%w", tw, (m, n), acc)
    if bias:
        y = wr.elementwise([(y, acc, "id"), ("%b", dtype, "row")], (m, n),
                           out_dtype, "%r = arith.addf %a0, %a1 : f32")
    return y


def _linear_backward(wr, m, k, n, dtype, out_dtype):
    """Dgrad and Wgrad from %dy into `wr`; returns (dX, dW)."""
    tx, tw = _t((m, k), dtype), _t((n, k), dtype)
    tdy = _t((m, n), out_dtype)
    dx = wr.matmul("dgrad", "%dy", tdy, "%w", tw, (m, k), dtype)
    dw = wr.matmul("wgrad", "%dy", tdy, "%x", tx, (n, k), dtype)
    return dx, dw


def _linear_args(m, k, n, bias, dtype):
    args = [("%x", _t((m, k), dtype), "activation"),
            ("%w", _t((n, k), dtype), "weight")]
    if bias:
        args.append(("%b", _t((n,), dtype), None))
    return args


def _linear_types(m, k, n, dtype, out_dtype):
    """A linear layer's checked dims and dtypes: Y's dtype, and the types
    of X [m, k], W [n, k] and Y [m, n]."""
    _check_dims(m=m, k=k, n=n)
    out_dtype = out_dtype or dtype
    _check_dtype("dtype", dtype)
    _check_dtype("out_dtype", out_dtype)
    return out_dtype, (_t((m, k), dtype), _t((n, k), dtype),
                       _t((m, n), out_dtype))


def linear(m, k, n, bias=False, dtype="bf16", out_dtype=None):
    """The module of a linear layer: @linear_fwd(x, w[, b]) -> y and
    @linear_bwd(dy, x, w) -> (dx, dw). `dtype` is that of X, W, dY, dX
    and dW (torch.nn.Linear's gradients have their parameters' dtype);
    `out_dtype` that of Y (default `dtype`)."""
    out_dtype, (tx, tw, ty) = _linear_types(m, k, n, dtype, out_dtype)

    fwd = _Writer()
    y = _linear_forward(fwd, m, k, n, bias, dtype, out_dtype)
    text = [_function("linear_fwd", _linear_args(m, k, n, bias, dtype),
                      [ty], fwd, [y])]

    bwd = _Writer()
    tdy = _t((m, n), out_dtype)
    dx, dw = _linear_backward(bwd, m, k, n, dtype, out_dtype)
    text.append(_function(
        "linear_bwd", [("%dy", tdy, "gradient"), ("%x", tx, "activation"),
                       ("%w", tw, "weight")], [tx, tw], bwd, [dx, dw]))
    return _MAPS + "\n".join(text) + "\n"


def linear_train(m, k, n, bias=False, dtype="bf16", out_dtype=None):
    """The joint training function of a linear layer, forward and backward
    in one: @linear_train(x, w[, b], dy) -> (y, dx, dw), the ops of
    graphs.linear's two functions. `fp8-opt --fp8-pipeline
    --fp8-split-forward-backward` splits it into @linear_train_fwd(x, w[,
    b]) -> (y, saved...) and @linear_train_bwd(dy, saved...) -> (dx, dw):
    backward takes the FP8 operands forward made from X and W (one read of
    each) instead of X and W (docs/Passes.md)."""
    out_dtype, (tx, tw, ty) = _linear_types(m, k, n, dtype, out_dtype)
    wr = _Writer()
    y = _linear_forward(wr, m, k, n, bias, dtype, out_dtype)
    dx, dw = _linear_backward(wr, m, k, n, dtype, out_dtype)
    args = _linear_args(m, k, n, bias, dtype) + [("%dy", ty, "gradient")]
    return _MAPS + _function("linear_train", args, [ty, tx, tw], wr,
                             [y, dx, dw]) + "\n"


# Activation bodies on f32 %a0.. -> %r. SiLU is x * sigmoid(x); GELU is the
# tanh approximation (GPT-2's, torch's approximate="tanh").
_SILU = """\
%neg = arith.negf {x} : f32
%ex = math.exp %neg : f32
%one = arith.constant 1.0 : f32
%den = arith.addf %one, %ex : f32
%sig = arith.divf %one, %den : f32
"""
_GELU = """\
%c0 = arith.constant 0.7978846 : f32
%c1 = arith.constant 0.044715 : f32
%half = arith.constant 0.5 : f32
%one = arith.constant 1.0 : f32
%x2 = arith.mulf %a0, %a0 : f32
%x3 = arith.mulf %x2, %a0 : f32
%t0 = arith.mulf %c1, %x3 : f32
%t1 = arith.addf %a0, %t0 : f32
%u = arith.mulf %c0, %t1 : f32
%th = math.tanh %u : f32
%p = arith.addf %one, %th : f32
"""
# dA * gelu'(v) on %a0 = dA, %a1 = v, after _GELU of %a1:
# gelu'(v) = 0.5 (1 + t) + 0.5 v (1 - t^2) c0 (1 + 3 c1 v^2),
# t = tanh(c0 (v + c1 v^3)).
_GELU_GRAD = """\
%d0 = arith.mulf %half, %p : f32
%t2 = arith.mulf %th, %th : f32
%omt = arith.subf %one, %t2 : f32
%three = arith.constant 3.0 : f32
%c13 = arith.mulf %three, %c1 : f32
%q0 = arith.mulf %c13, %x2 : f32
%q1 = arith.addf %one, %q0 : f32
%q2 = arith.mulf %c0, %q1 : f32
%hv = arith.mulf %half, %a1 : f32
%q3 = arith.mulf %hv, %omt : f32
%q4 = arith.mulf %q3, %q2 : f32
%dg = arith.addf %d0, %q4 : f32
%r = arith.mulf %a0, %dg : f32"""


def _check_mlp(m, dim, hidden, activation, dtype):
    _check_dims(m=m, dim=dim, hidden=hidden)
    _check_dtype("dtype", dtype)
    if activation not in ACTIVATIONS:
        raise ValueError("activation must be one of %s, got %r" %
                         (", ".join(ACTIVATIONS), activation))


class _Mlp:
    """The ops of an MLP block's forward and backward, written into a
    _Writer; the values are SSA names."""

    def __init__(self, m, dim, hidden, activation, dtype):
        self.m, self.dim, self.hidden, self.dtype = m, dim, hidden, dtype
        self.glu = activation == "swiglu"
        self.tx, self.th = _t((m, dim), dtype), _t((m, hidden), dtype)
        self.tw1, self.tw2 = _t((hidden, dim), dtype), _t((dim, hidden),
                                                         dtype)

    def weights(self):
        out = [("%w1", self.tw1, "weight")]
        if self.glu:
            out.append(("%w3", self.tw1, "weight"))
        out.append(("%w2", self.tw2, "weight"))
        return out

    def act(self, w, h1, h3):
        """The activation A from the pre-activations."""
        m, hidden, dtype = self.m, self.hidden, self.dtype
        if self.glu:
            body = _SILU.format(x="%a0") + \
                "%s0 = arith.mulf %a0, %sig : f32\n" \
                "%r = arith.mulf %s0, %a1 : f32"
            return w.elementwise([(h1, dtype, "id"), (h3, dtype, "id")],
                                 (m, hidden), dtype, body)
        body = _GELU + "%hx = arith.mulf %half, %a0 : f32\n" \
            "%r = arith.mulf %hx, %p : f32"
        return w.elementwise([(h1, dtype, "id")], (m, hidden), dtype, body)

    def forward(self, w):
        """Y, H1, H3 (None without GLU) and A."""
        m, dim, hidden, dtype = self.m, self.dim, self.hidden, self.dtype
        h1 = w.matmul("fprop", "%x", self.tx, "%w1", self.tw1, (m, hidden),
                      dtype)
        h3 = w.matmul("fprop", "%x", self.tx, "%w3", self.tw1, (m, hidden),
                      dtype) if self.glu else None
        a = self.act(w, h1, h3)
        y = w.matmul("fprop", a, self.th, "%w2", self.tw2, (m, dim), dtype)
        return y, h1, h3, a

    def backward(self, w, h1, h3, a):
        """The gradients (dX, dW1[, dW3], dW2) from %dy, the
        pre-activations and A."""
        m, dim, hidden, dtype = self.m, self.dim, self.hidden, self.dtype
        th, tx, tw1, tw2 = self.th, self.tx, self.tw1, self.tw2
        da = w.matmul("dgrad", "%dy", tx, "%w2", tw2, (m, hidden), dtype)
        dw2 = w.matmul("wgrad", "%dy", tx, a, th, (dim, hidden), dtype)
        if self.glu:
            # dH1 = dA * h3 * silu'(h1), silu'(v) = s (1 + v (1 - s));
            # dH3 = dA * silu(h1).
            dh1 = w.elementwise(
                [(da, dtype, "id"), (h1, dtype, "id"), (h3, dtype, "id")],
                (m, hidden), dtype, _SILU.format(x="%a1") + """\
%oms = arith.subf %one, %sig : f32
%vo = arith.mulf %a1, %oms : f32
%opv = arith.addf %one, %vo : f32
%ds = arith.mulf %sig, %opv : f32
%g3 = arith.mulf %a0, %a2 : f32
%r = arith.mulf %g3, %ds : f32""")
            dh3 = w.elementwise(
                [(da, dtype, "id"), (h1, dtype, "id")], (m, hidden), dtype,
                _SILU.format(x="%a1") + """\
%s1 = arith.mulf %a1, %sig : f32
%r = arith.mulf %a0, %s1 : f32""")
            dx = w.matmul("dgrad", dh1, th, "%w1", tw1, (m, dim), dtype)
            dx = w.matmul("dgrad", dh3, th, "%w3", tw1, (m, dim), dtype,
                          init=dx)
            dw1 = w.matmul("wgrad", dh1, th, "%x", tx, (hidden, dim), dtype)
            dw3 = w.matmul("wgrad", dh3, th, "%x", tx, (hidden, dim), dtype)
            return [dx, dw1, dw3, dw2], [tx, tw1, tw1, tw2]
        dh1 = w.elementwise(
            [(da, dtype, "id"), (h1, dtype, "id")], (m, hidden), dtype,
            _GELU.replace("%a0", "%a1") + _GELU_GRAD)
        dx = w.matmul("dgrad", dh1, th, "%w1", tw1, (m, dim), dtype)
        dw1 = w.matmul("wgrad", dh1, th, "%x", tx, (hidden, dim), dtype)
        return [dx, dw1, dw2], [tx, tw1, tw2]


def mlp(m, dim, hidden, activation="swiglu", dtype="bf16"):
    """The module of a transformer MLP block without biases.

    swiglu (Llama): Y = W2 (silu(X W1^T) * (X W3^T)), W1, W3 [hidden, dim],
      W2 [dim, hidden]. @mlp_fwd(x, w1, w3, w2) -> (y, h1, h3) and
      @mlp_bwd(dy, x, w1, w3, w2, h1, h3) -> (dx, dw1, dw3, dw2).
    gelu (GPT): Y = W2 gelu(X W1^T). @mlp_fwd(x, w1, w2) -> (y, h1) and
      @mlp_bwd(dy, x, w1, w2, h1) -> (dx, dw1, dw2).
    The pre-activations h are returned by forward for backward, which
    recomputes the activation from them instead of keeping it."""
    _check_mlp(m, dim, hidden, activation, dtype)
    g = _Mlp(m, dim, hidden, activation, dtype)
    fwd = _Writer()
    y, h1, h3, _ = g.forward(fwd)
    saved = [h1, h3] if g.glu else [h1]
    text = [_function("mlp_fwd", [("%x", g.tx, "activation")] + g.weights(),
                      [g.tx] + [g.th] * len(saved), fwd, [y] + saved)]

    bwd = _Writer()
    h1, h3 = "%h1", "%h3"
    a = g.act(bwd, h1, h3 if g.glu else None)
    grads, gtypes = g.backward(bwd, h1, h3, a)
    args = [("%dy", g.tx, "gradient"), ("%x", g.tx, "activation")] + \
        g.weights() + [(h1, g.th, "activation")] + \
        ([(h3, g.th, "activation")] if g.glu else [])
    text.append(_function("mlp_bwd", args, gtypes, bwd, grads))
    return _MAPS + "\n".join(text) + "\n"


def mlp_train(m, dim, hidden, activation="swiglu", dtype="bf16"):
    """The joint training function of an MLP block (graphs.mlp's forward
    and backward in one, the activation computed once):
    @mlp_train(x, w1[, w3], w2, dy) -> (y, dx, dw1[, dw3], dw2), for
    fp8-split-forward-backward (graphs.linear_train). Backward then takes
    the FP8 operands of X, the weights and the activation from forward,
    and the pre-activations (for the activation's derivative) in
    `dtype`."""
    _check_mlp(m, dim, hidden, activation, dtype)
    g = _Mlp(m, dim, hidden, activation, dtype)
    wr = _Writer()
    y, h1, h3, a = g.forward(wr)
    grads, gtypes = g.backward(wr, h1, h3, a)
    args = [("%x", g.tx, "activation")] + g.weights() + \
        [("%dy", g.tx, "gradient")]
    return _MAPS + _function("mlp_train", args, [g.tx] + gtypes, wr,
                             [y] + grads) + "\n"


# The recipes whose weight quantization serves Fprop and, transposed,
# Dgrad unchanged, so that a weight quantized once (per FSDP shard, then
# all-gathered) feeds both GEMMs: tensorwise and blockwise (128x128).
PREQUANTIZED_RECIPES = ("tensorwise", "blockwise")

# Per recipe: (element type, tile) of X and dY in Fprop/Dgrad, of dY and
# X in Wgrad, and of W; exactly what fp8-quantize-matmuls and
# fp8-derive-scaling choose for graphs.linear under the preset.
_PQ_SCALING = {
    "tensorwise": dict(x=("f8E4M3FN", "*, *"), dy=("f8E5M2", "*, *"),
                       dy_w=("f8E5M2", "*, *"), x_w=("f8E4M3FN", "*, *"),
                       w=("f8E4M3FN", "*, *")),
    "blockwise": dict(x=("f8E4M3FN", "1, 128"), dy=("f8E4M3FN", "1, 128"),
                      dy_w=("f8E4M3FN", "128, 1"),
                      x_w=("f8E4M3FN", "128, 1"),
                      w=("f8E4M3FN", "128, 128")),
}


def _scaling(tile):
    return "#fp8.scaling<tile = [%s], scale = f32>" % tile


def _scale_shape(shape, tile):
    """ceil(rows/r) x ceil(cols/c) of a tile "r, c" ("*" = whole)."""
    out = []
    for extent, t in zip(shape, tile.split(", ")):
        out.append(1 if t == "*" else -(-extent // int(t)))
    return tuple(out)


def _check_prequantized_recipe(recipe):
    if recipe not in PREQUANTIZED_RECIPES:
        raise ValueError(
            "a pre-quantized (FP8 all-gathered) weight needs a recipe whose "
            "weight quantization serves Fprop and Dgrad alike: one of %s, "
            "got %r (row-wise and 1x32 weight tiles differ between the two "
            "GEMMs, and delayed scaling keeps per-layer histories)" %
            (", ".join(PREQUANTIZED_RECIPES), recipe))


def weight_scale_shape(n, k, recipe):
    """The shape of the dequantization scales of an [n, k] weight under
    `recipe`: (1, 1) tensorwise, (ceil(n/128), ceil(k/128)) blockwise."""
    _check_prequantized_recipe(recipe)
    return _scale_shape((n, k), _PQ_SCALING[recipe]["w"][1])


class _FP8Writer(_Writer):
    """_Writer with the fp8 ops of hand-written FP8 IR."""

    def quantize(self, value, shape, dtype, role, elem_tile, amax=None):
        elem, tile = elem_tile
        q, s = self.fresh("q"), self.fresh("s")
        sshape = _scale_shape(shape, tile)
        self.emit("%s, %s = fp8.quantize %s%s {fp8.role = \"%s\", "
                  "scaling = %s}\n    : %s -> %s, %s" % (
                      q, s, value,
                      " amax(%s : tensor<1x1xf32>)" % amax if amax else "",
                      role, _scaling(tile), _t(shape, dtype),
                      _t(shape, elem), _t(sshape, "f32")))
        return q, s, _t(shape, elem), _t(sshape, "f32")

    def scaled_matmul(self, a, b, a_tile, b_tile, contracting, kind,
                      shape, dtype):
        out = self.fresh("mm")
        self.emit("%s = fp8.scaled_matmul %s, %s, %s, %s {a_scaling = %s, "
                  "b_scaling = %s, contracting = array<i64: %d, %d>, "
                  "fp8.matmul = \"%s\"}\n    : (%s, %s, %s, %s) -> %s" % (
                      out, a[0], a[1], b[0], b[1], _scaling(a_tile),
                      _scaling(b_tile), contracting[0], contracting[1],
                      kind, a[2], a[3], b[2], b[3], _t(shape, dtype)))
        return out


def _fp8_function(name, args, results, writer, returns, recipe):
    text = _function(name, args, results, writer, returns)
    head, rest = text.split(") {\n", 1)
    return "%s) attributes {fp8.recipe = #fp8.recipe<%s>} {\n%s" % (
        head, recipe, rest)


def linear_prequantized(m, k, n, recipe, bias=False, dtype="bf16",
                        out_dtype=None):
    """graphs.linear with the weight given already quantized (by
    quantize_weight, e.g. per FSDP shard and all-gathered):
    @linear_pq_fwd(x, wq, ws[, b]) -> y and
    @linear_pq_bwd(dy, x, wq, ws) -> (dx, dw). wq is [n, k] f8E4M3FN, ws
    its dequantization scales (weight_scale_shape). Written as the FP8 IR
    that fp8-quantize-matmuls and fp8-derive-scaling make of
    graphs.linear under `recipe` (same tiles, element types, matmul
    attributes), without the weight's quantize: fp8-pipeline then
    legalizes it (the transposes, Dgrad's W^T included) and fuses it as it
    does the ordinary program, so both compute the same bits for the same
    quantized weight."""
    _check_dims(m=m, k=k, n=n)
    _check_prequantized_recipe(recipe)
    out_dtype = out_dtype or dtype
    _check_dtype("dtype", dtype)
    _check_dtype("out_dtype", out_dtype)
    sc = _PQ_SCALING[recipe]
    wtile = sc["w"][1]
    tx, ty = _t((m, k), dtype), _t((m, n), out_dtype)
    twq = _t((n, k), "f8E4M3FN")
    tws = _t(_scale_shape((n, k), wtile), "f32")
    w = ("%wq", "%ws", twq, tws)

    fwd = _FP8Writer()
    acc = "f32" if bias else out_dtype
    xq = fwd.quantize("%x", (m, k), dtype, "activation", sc["x"])
    y = fwd.scaled_matmul(xq, w, sc["x"][1], wtile, (1, 1), "fprop",
                          (m, n), acc)
    args = [("%x", tx, "activation"), ("%wq", twq, None),
            ("%ws", tws, None)]
    if bias:
        args.append(("%b", _t((n,), dtype), None))
        y = fwd.elementwise([(y, acc, "id"), ("%b", dtype, "row")], (m, n),
                            out_dtype, "%r = arith.addf %a0, %a1 : f32")
    text = [_fp8_function("linear_pq_fwd", args, [ty], fwd, [y], recipe)]

    bwd = _FP8Writer()
    tw = _t((n, k), dtype)
    dyq = bwd.quantize("%dy", (m, n), out_dtype, "gradient", sc["dy"])
    dx = bwd.scaled_matmul(dyq, w, sc["dy"][1], wtile, (1, 0), "dgrad",
                           (m, k), dtype)
    # Wgrad: tensorwise reuses dY's quantization (one scale, any
    # contraction); blockwise quantizes dY and X again along M.
    dyw = dyq if sc["dy_w"] == sc["dy"] else bwd.quantize(
        "%dy", (m, n), out_dtype, "gradient", sc["dy_w"])
    xw = bwd.quantize("%x", (m, k), dtype, "activation", sc["x_w"])
    dw = bwd.scaled_matmul(dyw, xw, sc["dy_w"][1], sc["x_w"][1], (0, 0),
                           "wgrad", (n, k), dtype)
    text.append(_fp8_function(
        "linear_pq_bwd", [("%dy", ty, "gradient"), ("%x", tx, "activation"),
                          ("%wq", twq, None), ("%ws", tws, None)],
        [tx, tw], bwd, [dx, dw], recipe))
    return _MAPS + "\n".join(text) + "\n"


def quantize_weight(n, k, recipe, dtype="bf16", rows_multiple=None):
    """The module of @quantize_weight(w[, amax]) -> (wq, ws): an [n, k]
    weight (or an FSDP shard of one) quantized as the recipe quantizes
    weights, f8E4M3FN data and dequantization scales. Tensorwise takes the
    amax as a tensor<1x1xf32> (the all-reduced maximum over the shards),
    so every shard gets the scale the whole weight would. Blockwise needs
    n to be a multiple of 128 (`rows_multiple`, default 128), so the
    128x128 tiles of a shard are tiles of the whole weight."""
    _check_dims(n=n, k=k)
    _check_prequantized_recipe(recipe)
    _check_dtype("dtype", dtype)
    sc = _PQ_SCALING[recipe]["w"]
    if recipe == "blockwise":
        multiple = rows_multiple or 128
        if n % multiple:
            raise ValueError(
                "blockwise weight quantization of a shard of %d rows: the "
                "rows must be a multiple of %d so that its 128x128 tiles "
                "are tiles of the whole weight (shard the weight so that "
                "out_features / world size is a multiple of 128)" %
                (n, multiple))
    wr = _FP8Writer()
    amax = "%amax" if recipe == "tensorwise" else None
    q, s, tq, ts = wr.quantize("%w", (n, k), dtype, "weight", sc, amax=amax)
    args = [("%w", _t((n, k), dtype), "weight")]
    if amax:
        args.append(("%amax", _t((1, 1), "f32"), None))
    return _fp8_function("quantize_weight", args, [tq, ts], wr, [q, s],
                         recipe) + "\n"
