"""The benchmarks' torch-only FP8 baseline, written like torchao's float8
training: a linear layer is an autograd.Function whose quantizations (with
their transposes) are torch.compile'd functions and whose three matmuls
are torch._scaled_mm (cuBLASLt). No fp8_mlir anywhere.

    import torch_fp8                       # bench/ on sys.path
    y = torch_fp8.linear(x, w, "rowwise")  # x [M, K], w [N, K]
    torch_fp8.convert(model, recipe="blockwise")   # swaps torch.nn.Linear

Recipes (e4m3 for X and W; dY as the recipe says):
  tensorwise  per-tensor scales; dY in e5m2
  rowwise     e4m3 with power-of-two scales per row of each operand along
              its matmul's contracted dim (torchao's rowwise)
  blockwise   1x128 tiles for X and dY, 128x128 for W (DeepSeek-V3's)

Used by bench/layer.py (one layer) and bench/e2e.py (a decoder stack).
Inside a torch.compile'd model the quantizations are plain functions that
dynamo traces into the model's graph, so inductor fuses them with their
neighbours as it does torchao's Float8Linear casts.
"""

import torch

RECIPES = ("tensorwise", "rowwise", "blockwise")

_quantizers = None
_plain = None
_functions = {}


def quantizers():
    """torch.compile'd quantizers, made once: name -> f(x, ...) giving
    (FP8 codes, dequantization scales); `_t` names quantize x's transpose
    (the transpose fused into the quantization's kernel)."""
    global _quantizers, _plain
    if _quantizers is not None:
        return _quantizers
    e4, e5 = torch.float8_e4m3fn, torch.float8_e5m2
    fmax = {e4: 448.0, e5: 57344.0}

    def tensorwise(x, fmt):
        amax = x.abs().amax().float().clamp_min(1e-12)
        s = amax / fmax[fmt]
        return (x.float() / s).clamp(-fmax[fmt], fmax[fmt]).to(fmt), s

    def rowwise(x):
        # Row scales rounded up to powers of two, as torchao's rowwise.
        amax = x.abs().amax(dim=1, keepdim=True).float().clamp_min(1e-12)
        s = torch.exp2(torch.ceil(torch.log2(amax / 448.0)))
        return (x.float() / s).clamp(-448.0, 448.0).to(e4), s

    def block_1x128(x):
        r, c = x.shape
        xb = x.float().view(r, c // 128, 128)
        s = xb.abs().amax(-1, keepdim=True).clamp_min(1e-12) / 448.0
        q = (xb / s).clamp(-448.0, 448.0).to(e4).view(r, c)
        return q, s.view(r, c // 128)

    def block_128x128(x):
        r, c = x.shape
        xb = x.float().view(r // 128, 128, c // 128, 128)
        s = xb.abs().amax(dim=(1, 3), keepdim=True).clamp_min(1e-12) / 448.0
        q = (xb / s).clamp(-448.0, 448.0).to(e4).view(r, c)
        return q, s.view(r // 128, c // 128)

    def transposed(fn):
        return lambda x, *a: fn(x.t().contiguous(), *a)

    # One compilation per input shape: a step has up to a dozen, a run
    # several times that; dynamo's default limit of 8 falls back to eager.
    torch._dynamo.config.recompile_limit = 512
    torch._dynamo.config.cache_size_limit = 512

    def c(fn):
        compiled = torch.compile(fn, dynamic=False)
        return lambda x, *a: compiled(x.detach(), *a)
    _plain = {
        "tensor": tensorwise, "tensor_t": transposed(tensorwise),
        "row": rowwise, "row_t": transposed(rowwise),
        "1x128": block_1x128, "1x128_t": transposed(block_1x128),
        "128x128": block_128x128, "128x128_t": transposed(block_128x128)}
    _quantizers = {name: c(fn) for name, fn in _plain.items()}
    return _quantizers


def quantize(name, x, *args):
    """Quantizer `name` of quantizers() on x: its torch.compile'd kernel
    when called eagerly; inside a model that torch.compile traces, the
    plain function, which inductor fuses with the model's neighbouring
    ops as it fuses torchao's casts (no compiled function nested in
    another). quantizers() must have run, eagerly: linear_function()
    runs it."""
    if torch.compiler.is_compiling():
        return _plain[name](x, *args)
    return _quantizers[name](x, *args)


def scaled_mm(a, sa, fa, b, sb, fb):
    """A [M, K] . B^T for row-major A and B [N, K] (each stored [free,
    contracted]) with torch._scaled_mm's scale conventions; `fa`, `fb`
    name the scaling ("tensor", "row", "1x128", "128x128")."""
    if fa == "tensor":
        scale_a, scale_b = sa, sb
    elif fa == "row":
        scale_a, scale_b = sa, sb.t()                 # [M, 1], [1, N]
    else:
        scale_a = sa.t().contiguous().t()             # [M, K/128], stride (1, M)
        scale_b = (sb.t().contiguous() if fb == "1x128"   # [K/128, N]
                   else sb.contiguous().t())          # [K/128, N/128]
    return torch._scaled_mm(a, b.t(), scale_a=scale_a, scale_b=scale_b,
                            out_dtype=torch.bfloat16)


def check_recipe(recipe):
    if recipe not in RECIPES:
        raise ValueError("torch-fp8 recipe must be one of %s, got %r" % (
            ", ".join(RECIPES), recipe))
    return recipe


def linear_function(recipe):
    """y = f(x, w) for `recipe`: x [M, K] bf16, w [N, K] bf16, y [M, N];
    an autograd.Function's apply (one class per recipe, shared by every
    layer, so that dynamo sees one function)."""
    if recipe in _functions:
        return _functions[recipe]
    check_recipe(recipe)
    quantizers()
    e4, e5 = torch.float8_e4m3fn, torch.float8_e5m2

    def quant(x, role, transposed):
        t = "_t" if transposed else ""
        if recipe == "tensorwise":
            return quantize("tensor" + t, x, e5 if role == "g" else e4) + (
                "tensor",)
        if recipe == "rowwise":
            return quantize("row" + t, x) + ("row",)
        form = "128x128" if role == "w" else "1x128"
        return quantize(form + t, x) + (form,)

    class Fn(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return scaled_mm(*quant(x, "x", False), *quant(w, "w", False))

        @staticmethod
        def backward(ctx, dy):
            x, w = ctx.saved_tensors
            dx = scaled_mm(*quant(dy, "g", False), *quant(w, "w", True))
            dw = scaled_mm(*quant(dy, "g", True), *quant(x, "x", True))
            return dx, dw

    Fn.__name__ = "TorchFp8Linear_" + recipe
    _functions[recipe] = Fn.apply
    return Fn.apply


def linear(x, w, recipe):
    """torch.nn.functional.linear(x, w) without bias through the
    baseline: x [..., K] bf16, w [N, K] bf16."""
    lead = x.shape[:-1]
    y = linear_function(recipe)(x.reshape(-1, x.shape[-1]), w)
    return y.view(*lead, y.shape[-1])


class Linear(torch.nn.Module):
    """A bias-free torch.nn.Linear through the baseline, sharing an
    existing layer's weight (`Linear(linear, recipe)`)."""

    def __init__(self, linear, recipe="tensorwise"):
        super().__init__()
        if linear.bias is not None:
            raise ValueError("the torch-fp8 baseline has no bias; %r has "
                             "one" % (linear,))
        # The quantizers are made here, eagerly: made inside a model that
        # torch.compile traces, they would be traced too.
        linear_function(recipe)
        self.in_features, self.out_features = (linear.in_features,
                                               linear.out_features)
        self.weight, self.recipe = linear.weight, recipe

    def forward(self, x):
        return linear(x, self.weight, self.recipe)

    def extra_repr(self):
        return "in_features=%d, out_features=%d, recipe=%s" % (
            self.in_features, self.out_features, self.recipe)


def convert(model, recipe="tensorwise", filter=None):
    """Swaps the bias-free torch.nn.Linear children of `model` (in place;
    returned) for which filter(fully qualified name, module) is true for
    baseline Linears sharing their weights, like torchao's
    convert_to_float8_training. The default filter keeps layers whose
    features are multiples of 16 (torch._scaled_mm's rule)."""
    def keep(fqn, module):
        if filter is not None:
            return filter(fqn, module)
        return module.in_features % 16 == 0 and module.out_features % 16 == 0

    def visit(module, prefix):
        for name, child in list(module.named_children()):
            fqn = prefix + name
            if (type(child) is torch.nn.Linear and child.bias is None and
                    keep(fqn, child)):
                setattr(module, name, Linear(child, recipe))
            else:
                visit(child, fqn + ".")
    visit(model, "")
    return model
