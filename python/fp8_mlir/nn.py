"""Drop-in FP8 modules: `Linear` for torch.nn.Linear, `MLP` for a
Llama/GPT MLP block, and `convert` to swap a model's linear layers.

Forward runs the compiled forward function; backward the compiled Dgrad
and Wgrad. With split=None (the default; FP8_MLIR_SPLIT=0 turns it off:
layers.default_split) or split=True, where the recipe
allows it (fp8_mlir.layers.split_supported: every recipe but delayed
scaling, and not with monitor=True), the layer is compiled from its joint
training graph split by
fp8-split-forward-backward: forward also returns the FP8 operands and
scales that Dgrad and Wgrad read (quantized from the same read of X and W
as Fprop's), autograd saves those instead of X and W, and backward reads
no bf16 X or W (except X under rowwise_gw_hp, whose Wgrad stays in bf16;
docs/Training.md gives the bytes per recipe). `split=False`
keeps the two functions of the unsplit graphs, which save X and W.

Parameters stay in their dtype (bf16 master weights); gradients
come back in the parameters' dtypes, as torch.nn.Linear's do. A layer is
compiled for each token count M on first use (or found in the cache,
fp8_mlir.compiler). Each call goes through the custom op
torch.ops.fp8_mlir.run, so torch.compile captures it.

The delayed recipe keeps one amax history per quantized tensor as module
buffers (`amax_history_<name>`). Forward updates those of the forward's
tensors; backward quantizes them again with the same history the forward
used, so each tensor has one scale per step, and updates only the
gradients' histories.
"""

import math

try:
    import torch
except ImportError as _e:
    from .errors import TorchNotFound
    raise TorchNotFound("fp8_mlir.nn", _e) from None
from .errors import TorchNotFound, torch_too_old  # noqa: E402

if torch_too_old(torch):
    raise TorchNotFound("fp8_mlir.nn", version=torch_too_old(torch))

from . import layers, torch_bridge

_DTYPE_NAMES = {torch.bfloat16: "bf16", torch.float16: "f16",
                torch.float32: "f32"}
_CHIPS = {(9, 0): "sm_90a", (10, 0): "sm_100a"}


def default_chip(device=None):
    """The chip name of a CUDA device: sm_90a (H100/H200), sm_100a
    (B200/GB200)."""
    cap = torch.cuda.get_device_capability(device)
    if cap not in _CHIPS:
        raise ValueError("fp8_mlir compiles for sm_90a and sm_100a; this "
                         "device is sm_%d%d" % cap)
    return _CHIPS[cap]


def _dtype_name(dtype, what):
    if dtype not in _DTYPE_NAMES:
        raise ValueError("%s has dtype %s; fp8_mlir layers take %s" % (
            what, dtype, ", ".join(map(str, _DTYPE_NAMES))))
    return _DTYPE_NAMES[dtype]


def _run(function, inputs):
    return torch.ops.fp8_mlir.run(function.program.path, function.name,
                                  inputs)


def _take_monitored(outs, monitored, sink, prefix):
    """`outs` less the statistics outputs of `monitored`, which go to
    `sink` (a dict, or None) as prefix + name -> (tile_amax, counts,
    numel)."""
    if not monitored:
        return outs
    drop = set()
    for mon in monitored:
        drop.update((mon.tile_amax, mon.counts))
        if sink is not None:
            sink[prefix + mon.name] = (outs[mon.tile_amax].detach(),
                                       outs[mon.counts].detach(), mon.numel)
    return [o for i, o in enumerate(outs) if i not in drop]


def summarize(tile_amax, counts, numel):
    """The health statistics of one quantization from what its kernel
    returned: amax, the fractions of elements that saturated and that
    flushed to zero, and the tile-amax spread (max / median of the tile
    amaxes; None where the median is 0). Synchronizes with the GPU."""
    tiles = tile_amax.reshape(-1).float()
    amax = tiles.max()
    median = tiles.median()
    sat, flushed = counts.tolist()
    med = median.item()
    return {"amax": amax.item(),
            "saturated": sat / numel if numel else 0.0,
            "flushed": flushed / numel if numel else 0.0,
            "tile_amax_spread": amax.item() / med if med > 0 else None,
            "tiles": tiles.numel(), "elements": numel}


class _LayerFunction(torch.autograd.Function):
    """forward(layer, histories, sink, x, *params) -> (y, *new
    histories); `histories` is the module's dict of history buffers (None
    without delayed scaling), `sink` the module's dict of the last
    monitoring statistics (None without monitoring)."""

    @staticmethod
    def forward(ctx, layer, histories, sink, x, *params):
        used = [histories[n] for n in layer.fwd_histories]
        outs = _run(layer.fwd, [x, *params, *used])
        outs = _take_monitored(outs, layer.fwd_monitored, sink, "fwd/")
        n_saved = len(outs) - 1 - len(used)
        y, saved = outs[0], outs[1:1 + n_saved]
        new = outs[1 + n_saved:]
        ctx.layer, ctx.histories, ctx.sink = layer, histories, sink
        ctx.n_params = len(params)
        # Copies of the histories the forward used (the module's buffers
        # move on), for backward's quantization of the same tensors.
        ctx.save_for_backward(x, *params, *saved,
                              *[h.detach().clone() for h in used])
        ctx.mark_non_differentiable(*new)
        return (y, *new)

    @staticmethod
    def backward(ctx, dy, *unused):
        layer = ctx.layer
        tensors = ctx.saved_tensors
        x = tensors[0]
        params = tensors[1:1 + ctx.n_params]
        rest = tensors[1 + ctx.n_params:]
        n_used = len(layer.fwd_histories)
        saved = rest[:len(rest) - n_used]
        used = dict(zip(layer.fwd_histories, rest[len(rest) - n_used:]))
        hist = [used[n] if n in used else ctx.histories[n]
                for n in layer.bwd_histories]
        # The bias (last of a biased linear's parameters) is not an
        # argument of the compiled backward.
        grads_of = params[:-1] if layer.describe.get("bias") else params
        dy = dy.contiguous()
        outs = _run(layer.bwd, [dy, x, *grads_of, *saved, *hist])
        outs = _take_monitored(outs, layer.bwd_monitored, ctx.sink, "bwd/")
        grads = list(outs[:1 + len(grads_of)])
        for n, h in zip(layer.bwd_histories, outs[1 + len(grads_of):]):
            if n not in used:
                ctx.histories[n].copy_(h)
        if len(grads_of) < len(params):
            # The bias gradient: a column sum PyTorch does well.
            grads.append(dy.sum(0, dtype=torch.float32).to(params[-1].dtype))
        return (None, None, None, *grads)


class _SplitLayerFunction(torch.autograd.Function):
    """forward(layer, x, *params) -> y for a split program: saves what its
    forward returns for backward (layer.saved, layers.SavedSignature) and
    the inputs backward still reads, nothing else."""

    @staticmethod
    def forward(ctx, layer, x, *params):
        sig = layer.saved
        inputs = [x, *params]
        outs = _run(layer.fwd, inputs)
        y, saved = outs[0], outs[sig.results:]
        ctx.layer = layer
        ctx.bias_dtype = (params[-1].dtype if layer.describe.get("bias")
                          else None)
        ctx.save_for_backward(*[inputs[i] for i in sig.kept], *saved)
        return y

    @staticmethod
    def backward(ctx, dy):
        layer = ctx.layer
        sig = layer.saved
        tensors = ctx.saved_tensors
        kept = dict(zip(sig.kept, tensors[:len(sig.kept)]))
        saved = tensors[len(sig.kept):]
        dy = dy.contiguous()
        args = []
        for kind, k in sig.bwd_inputs:
            args.append(dy if kind == "gradient" else
                        kept[k] if kind == "input" else saved[k])
        grads = list(_run(layer.bwd, args))
        if ctx.bias_dtype is not None:
            # The bias gradient: a column sum PyTorch does well.
            grads.append(dy.sum(0, dtype=torch.float32).to(ctx.bias_dtype))
        return (None, *grads)


class _Fp8Module(torch.nn.Module):
    """What Linear and MLP share: the recipe, the chip, programs per M,
    and the delayed recipe's history buffers."""

    def _setup(self, recipe, chip, monitor=False, split=None, recompute=()):
        layers.compiler.check_recipe(recipe)
        if chip is not None:
            layers.compiler.check_chip(chip)
        self.recipe, self.chip, self.monitor = recipe, chip, bool(monitor)
        # None: split where the recipe allows it; checked here, not at the
        # first call.
        self.split = layers._check_split(split, recipe, self.monitor)
        self.recompute = tuple(recompute or ())
        layers._split_option(self.split, self.recompute)
        self._programs = {}
        self._histories = None
        # The last call's statistics per quantization (monitor=True).
        self._monitored = {} if monitor else None

    @property
    def fp8_stats(self):
        """With monitor=True: {"fwd/x": stats, "bwd/dy": stats, ...} of the
        last forward and backward, each quantization's amax, fractions
        saturated and flushed to zero, and tile-amax spread
        (fp8_mlir.nn.summarize; reading it synchronizes with the GPU).
        Empty before the first call; None without monitoring."""
        if self._monitored is None:
            return None
        return {name: summarize(*raw)
                for name, raw in sorted(self._monitored.items())}

    def _program(self, m, device):
        program = self._programs.get(m)
        if program is None:
            chip = self.chip or default_chip(device)
            program = self._programs[m] = self._compile(m, chip)
            if program.fwd_histories:
                self._init_histories(program, device)
        return program

    def _init_histories(self, program, device):
        names = program.fwd_histories + program.gradient_histories
        for n in names:
            attr = "amax_history_" + n
            buf = getattr(self, attr, None)
            if buf is None or tuple(buf.shape) != program.history_shape:
                self.register_buffer(attr, torch.zeros(
                    program.history_shape, dtype=torch.float32,
                    device=device))
        self._histories = {n: getattr(self, "amax_history_" + n)
                           for n in names}

    def _apply_layer(self, x, params, features):
        if x.shape[-1] != features:
            raise ValueError("%s: input has %d features, expected %d" % (
                type(self).__name__, x.shape[-1], features))
        dtype = params[0].dtype
        if x.dtype != dtype:
            raise ValueError("%s: input dtype %s differs from the "
                             "parameters' %s" % (type(self).__name__,
                                                 x.dtype, dtype))
        if not x.is_cuda:
            raise ValueError("%s: input is on %s; fp8_mlir runs on CUDA" %
                             (type(self).__name__, x.device))
        lead = x.shape[:-1]
        x2 = x.reshape(-1, features).contiguous()
        m = x2.shape[0]
        if m == 0:
            raise ValueError("%s: input has no rows" % type(self).__name__)
        program = self._program(m, x.device)
        if program.saved is not None:
            y = _SplitLayerFunction.apply(program, x2, *params)
            return y.reshape(*lead, y.shape[-1])
        hist = self._histories if program.fwd_histories else None
        outs = _LayerFunction.apply(program, hist, self._monitored, x2,
                                    *params)
        if program.fwd_histories:
            with torch.no_grad():
                for n, h in zip(program.fwd_histories, outs[1:]):
                    self._histories[n].copy_(h)
        y = outs[0]
        return y.reshape(*lead, y.shape[-1])


class Linear(_Fp8Module):
    """torch.nn.Linear whose three matmuls run in FP8 under `recipe`
    (tensorwise, delayed, rowwise, blockwise, mxfp8, ... or an
    #fp8.recipe<...> attribute); `chip` defaults to the device's.
    `split` (None: where the recipe allows it) saves forward's FP8
    operands for backward instead of X and W; `recompute=("weight",)`
    keeps W itself (a parameter) instead of its FP8 copy, which backward
    then makes again.

        layer = fp8_mlir.nn.Linear(4096, 4096, recipe="blockwise",
                                   device="cuda")
        layer(x).sum().backward()
    """

    def __init__(self, in_features, out_features, bias=True,
                 recipe="tensorwise", chip=None, device=None, dtype=None,
                 monitor=False, split=None, recompute=()):
        super().__init__()
        self._setup(recipe, chip, monitor, split, recompute)
        self.in_features, self.out_features = in_features, out_features
        factory = {"device": device, "dtype": dtype or torch.bfloat16}
        self.weight = torch.nn.Parameter(
            torch.empty(out_features, in_features, **factory))
        self.bias = (torch.nn.Parameter(torch.empty(out_features, **factory))
                     if bias else None)
        self.reset_parameters()

    def reset_parameters(self):
        # torch.nn.Linear's initialization.
        torch.nn.init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            bound = 1 / math.sqrt(self.in_features) if self.in_features else 0
            torch.nn.init.uniform_(self.bias, -bound, bound)

    @classmethod
    def from_linear(cls, linear, recipe="tensorwise", chip=None,
                    monitor=False, split=None, recompute=()):
        """An fp8_mlir.nn.Linear sharing `linear`'s parameters."""
        new = cls.__new__(cls)
        _Fp8Module.__init__(new)
        new._setup(recipe, chip, monitor, split, recompute)
        new.in_features, new.out_features = (linear.in_features,
                                              linear.out_features)
        new.weight, new.bias = linear.weight, linear.bias
        return new

    def _compile(self, m, chip):
        return layers.compile_linear(
            m, self.out_features, self.in_features, recipe=self.recipe,
            chip=chip, bias=self.bias is not None,
            dtype=_dtype_name(self.weight.dtype, "the weight"),
            monitor=self.monitor, split=self.split,
            recompute=self.recompute)

    def forward(self, x):
        params = [self.weight] + ([self.bias] if self.bias is not None
                                  else [])
        return self._apply_layer(x, params, self.in_features)

    def extra_repr(self):
        return "in_features=%d, out_features=%d, bias=%s, recipe=%s" % (
            self.in_features, self.out_features, self.bias is not None,
            self.recipe)


class MLP(_Fp8Module):
    """A transformer MLP block without biases. activation="swiglu"
    (Llama): w2 (silu(w1 x) * (w3 x)); "gelu" (GPT, tanh approximation):
    w2 gelu(w1 x). w1, w3: [hidden, dim]; w2: [dim, hidden]. `split` as
    for Linear: backward then takes the FP8 operands of X, the activation
    and the weights, and the pre-activations, from forward."""

    def __init__(self, dim, hidden, activation="swiglu", recipe="tensorwise",
                 chip=None, device=None, dtype=None, monitor=False,
                 split=None, recompute=()):
        super().__init__()
        self._setup(recipe, chip, monitor, split, recompute)
        if activation not in layers.graphs.ACTIVATIONS:
            raise ValueError("activation must be one of %s, got %r" % (
                ", ".join(layers.graphs.ACTIVATIONS), activation))
        self.dim, self.hidden, self.activation = dim, hidden, activation
        factory = {"device": device, "dtype": dtype or torch.bfloat16}
        self.w1 = torch.nn.Parameter(torch.empty(hidden, dim, **factory))
        self.w3 = (torch.nn.Parameter(torch.empty(hidden, dim, **factory))
                   if activation == "swiglu" else None)
        self.w2 = torch.nn.Parameter(torch.empty(dim, hidden, **factory))
        self.reset_parameters()

    def reset_parameters(self):
        for w in (self.w1, self.w3, self.w2):
            if w is not None:
                torch.nn.init.kaiming_uniform_(w, a=math.sqrt(5))

    def _compile(self, m, chip):
        return layers.compile_mlp(
            m, self.dim, self.hidden, recipe=self.recipe, chip=chip,
            activation=self.activation,
            dtype=_dtype_name(self.w1.dtype, "w1"), monitor=self.monitor,
            split=self.split, recompute=self.recompute)

    def forward(self, x):
        params = [self.w1] + ([self.w3] if self.w3 is not None else []) + \
            [self.w2]
        return self._apply_layer(x, params, self.dim)

    def extra_repr(self):
        return "dim=%d, hidden=%d, activation=%s, recipe=%s" % (
            self.dim, self.hidden, self.activation, self.recipe)


def _default_filter(fqn, module):
    # The GEMMs take any shape, but tensor maps need rows of 16 bytes and
    # tiny layers gain nothing from FP8.
    return module.in_features % 16 == 0 and module.out_features % 16 == 0


def convert(model, recipe="tensorwise", filter=None, chip=None,
            monitor=False, split=None, recompute=()):
    """Replaces every torch.nn.Linear of `model` (in place; returned) for
    which filter(fully qualified name, module) is true with an
    fp8_mlir.nn.Linear sharing its parameters, like torchao's
    convert_to_float8_training. The default filter keeps layers whose
    features are multiples of 16. `split` and `recompute` as for
    Linear."""
    keep = filter or _default_filter

    def visit(module, prefix):
        for name, child in list(module.named_children()):
            fqn = prefix + name
            if type(child) is torch.nn.Linear and keep(fqn, child):
                setattr(module, name,
                        Linear.from_linear(child, recipe=recipe, chip=chip,
                                           monitor=monitor, split=split,
                                           recompute=recompute))
            else:
                visit(child, fqn + ".")

    if type(model) is torch.nn.Linear:
        raise ValueError("convert swaps the children of a model; wrap a "
                         "lone torch.nn.Linear in a module, or use "
                         "fp8_mlir.nn.Linear.from_linear")
    visit(model, "")
    return model
