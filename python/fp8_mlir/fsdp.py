"""FP8 weight all-gather under PyTorch FSDP2 (fully_shard).

    fp8_mlir.fsdp.enable_fp8_all_gather(model)   # before fully_shard
    for layer in ...: fully_shard(layer)
    fully_shard(model)

Each fp8_mlir.nn.Linear (tensorwise or blockwise recipe) gets its weight
wrapped in an Fp8WeightShard, a torch.Tensor subclass implementing FSDP2's
all-gather extension:

  fsdp_pre_all_gather   quantizes the rank's bf16 shard with the compiled
                        quantize_weight program (graphs.quantize_weight):
                        tensorwise with the global amax (the shard amaxes
                        all-reduced with MAX over the mesh's group first,
                        so every rank uses the whole weight's scale);
                        blockwise with 128x128 tiles, shard rows a
                        multiple of 128 so its tiles are the whole
                        weight's. Returns (FP8 data as uint8, scales).
  fsdp_post_all_gather  wraps the gathered data [N, K] and scales
                        (blockwise [N/128, K/128]; tensorwise one per
                        rank, all equal: the first is used) in an
                        Fp8GatheredWeight, the unsharded parameter.

The layer's forward and backward then run the pre-quantized program
(graphs.linear_prequantized): the weight is not quantized again. The
weight gradient comes back in bf16 and FSDP2 reduce-scatters it to the
bf16 master shards as usual. The compile helpers need no PyTorch (they
serve check_fsdp.py --aot).
"""

from . import compiler, graphs, layers, runtime

from .errors import TorchNotFound, torch_too_old

try:
    import torch
    _TORCH_PROBLEM = {"version": torch_too_old(torch)}
    if _TORCH_PROBLEM["version"]:
        torch = None  # too old: as if missing, with its own message
except ImportError as _e:  # the compile helpers need no PyTorch
    torch, _TORCH_PROBLEM = None, {"cause": _e}


def compile_prequantized_linear(m, n, k, recipe, chip="sm_90a", bias=False,
                                dtype="bf16", cache=None):
    """The LayerProgram of graphs.linear_prequantized: functions
    linear_pq_fwd(x, wq, ws[, b]) and linear_pq_bwd(dy, x, wq, ws)."""
    text = graphs.linear_prequantized(m, k, n, recipe, bias=bias,
                                      dtype=dtype)
    args = dict(m=m, n=n, k=k, recipe=recipe, chip=chip, bias=bool(bias),
                dtype=dtype)
    path = compiler.compile_graph(
        text, recipe, chip, describe=dict(args, kind="linear_prequantized"),
        aot_hint="test/Integration/GPU/check_fsdp.py --aot (or "
        "fp8_mlir.fsdp.compile_prequantized_linear)", cache=cache)
    return layers.LayerProgram(path, "linear", "linear_pq_fwd",
                               "linear_pq_bwd", 4 if bias else 3, 4, args)


def compile_quantize_weight(n, k, recipe, chip="sm_90a", dtype="bf16",
                            cache=None):
    """The runtime.Function quantize_weight(w[, amax]) -> (wq, ws) of an
    [n, k] weight (shard)."""
    text = graphs.quantize_weight(n, k, recipe, dtype=dtype)
    args = dict(n=n, k=k, recipe=recipe, chip=chip, dtype=dtype)
    path = compiler.compile_graph(
        text, recipe, chip, describe=dict(args, kind="quantize_weight"),
        aot_hint="test/Integration/GPU/check_fsdp.py --aot (or "
        "fp8_mlir.fsdp.compile_quantize_weight)", cache=cache)
    return runtime.Program(path)["quantize_weight"]


def check_sharding(out_features, recipe, world_size):
    """ValueError unless FSDP2's dim-0 shards of an [out_features, K]
    weight over world_size ranks are even and, blockwise, whole 128-row
    tiles."""
    graphs.weight_scale_shape(1, 1, recipe)  # refuses other recipes
    if not isinstance(world_size, int) or world_size < 1:
        raise ValueError("FP8 all-gather over %r ranks: the world size must "
                         "be a positive integer" % (world_size,))
    rows = 128 * world_size if recipe == "blockwise" else world_size
    if out_features % rows:
        raise ValueError(
            "FP8 all-gather of a weight with %d rows over %d ranks under "
            "%s: out_features must be a multiple of %d (%s)" % (
                out_features, world_size, recipe, rows,
                "even shards of whole 128x128 tiles" if recipe ==
                "blockwise" else "even shards"))


class AllGatherCounter:
    """Counts the bytes and calls of every
    torch.distributed.all_gather_into_tensor (FSDP2's all-gathers go
    through it) while open: `with AllGatherCounter(dist) as c: ...`."""

    def __init__(self, dist):
        self.dist, self.bytes, self.calls = dist, 0, 0
        self.orig = dist.all_gather_into_tensor

        def counted(output_tensor, input_tensor, *args, **kwargs):
            self.bytes += output_tensor.numel() * output_tensor.element_size()
            self.calls += 1
            return self.orig(output_tensor, input_tensor, *args, **kwargs)
        dist.all_gather_into_tensor = counted

    def close(self):
        self.dist.all_gather_into_tensor = self.orig

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


if torch is not None:
    import torch.utils._pytree as _pytree

    from . import nn as _nn

    _functions = {}

    def _quantize_function(n, k, recipe, chip, dtype):
        key = (n, k, recipe, chip, dtype)
        if key not in _functions:
            _functions[key] = compile_quantize_weight(n, k, recipe, chip,
                                                      dtype)
        return _functions[key]

    def quantize_shard(shard, recipe, chip=None, group=None):
        """(data float8_e4m3fn [n, k], dequantization scales f32) of a bf16
        weight shard. Tensorwise all-reduces the amax (MAX) over `group`
        (None: no reduction) first."""
        shard = shard.detach().contiguous()
        n, k = shard.shape
        chip = chip or _nn.default_chip(shard.device)
        fn = _quantize_function(n, k, recipe, chip,
                                _nn._dtype_name(shard.dtype, "the weight"))
        inputs = [shard]
        if recipe == "tensorwise":
            # max |w| over bf16 values is exact in any order, and so is
            # the MAX all-reduce: the global amax is the whole weight's.
            amax = shard.abs().amax().to(torch.float32).reshape(1, 1)
            if group is not None and \
                    torch.distributed.get_world_size(group) > 1:
                torch.distributed.all_reduce(
                    amax, op=torch.distributed.ReduceOp.MAX, group=group)
            inputs.append(amax.contiguous())
        q, s = _nn._run(fn, inputs)
        return q, s

    _aten = torch.ops.aten
    # Ops FSDP2 applies to the original parameter while sharding it
    # (chunk, pad, copy) and the optimizer's: their results stay
    # Fp8WeightShard so the sharded local tensor keeps the extension.
    _PRESERVE = {
        _aten.detach.default, _aten.alias.default, _aten.view.default,
        _aten._unsafe_view.default, _aten.as_strided.default,
        _aten.slice.Tensor, _aten.split.Tensor,
        _aten.split_with_sizes.default, _aten.new_zeros.default,
        _aten.empty_like.default, _aten.zeros_like.default,
        _aten.clone.default, _aten.copy_.default, _aten._to_copy.default,
        _aten._pin_memory.default,
    }

    class Fp8WeightShard(torch.Tensor):
        """A bf16 master weight (or FSDP2 shard of one) that FSDP2
        all-gathers as FP8 data and scales of `recipe`."""

        @staticmethod
        def __new__(cls, tensor, recipe, chip=None):
            return torch.Tensor._make_wrapper_subclass(
                cls, tensor.size(), strides=tensor.stride(),
                storage_offset=tensor.storage_offset(), dtype=tensor.dtype,
                layout=tensor.layout, device=tensor.device,
                requires_grad=tensor.requires_grad)

        def __init__(self, tensor, recipe, chip=None):
            self._tensor, self._recipe, self._chip = tensor, recipe, chip

        def __repr__(self):
            return "Fp8WeightShard(recipe=%s, %r)" % (self._recipe,
                                                      self._tensor)

        @classmethod
        def __torch_dispatch__(cls, func, types, args, kwargs=None):
            meta = []

            def unwrap(t):
                if isinstance(t, Fp8WeightShard):
                    meta.append((t._recipe, t._chip))
                    return t._tensor
                return t

            args, kwargs = _pytree.tree_map(
                unwrap, (args, kwargs or {}))
            out = func(*args, **kwargs)
            if func not in _PRESERVE:
                return out
            recipe, chip = meta[0]
            return _pytree.tree_map_only(
                torch.Tensor, lambda t: Fp8WeightShard(t, recipe, chip), out)

        def fsdp_pre_all_gather(self, mesh, outer_size, outer_stride,
                                module, mp_policy):
            group = mesh.get_group()
            world = torch.distributed.get_world_size(group)
            check_sharding(outer_size[0], self._recipe, world)
            if getattr(mp_policy, "param_dtype", None) not in (
                    None, self._tensor.dtype):
                raise ValueError(
                    "fp8_mlir FP8 all-gather: MixedPrecisionPolicy("
                    "param_dtype=%s) is not supported; keep the masters "
                    "in the dtype the layer computes in" %
                    mp_policy.param_dtype)
            q, s = quantize_shard(self._tensor, self._recipe, self._chip,
                                  group)
            return (q.view(torch.uint8), s), (self._recipe, self._chip)

        def fsdp_post_all_gather(self, all_gather_outputs, metadata,
                                 param_dtype, *, out=None):
            data, scales = all_gather_outputs
            recipe, chip = metadata
            # Tensorwise: one identical [1, 1] scale per rank.
            scale = scales[:1] if recipe == "tensorwise" else scales
            if out is not None:
                if not isinstance(out, Fp8GatheredWeight):
                    raise RuntimeError(
                        "fp8_mlir: FSDP2 passed out=%s, expected the "
                        "Fp8GatheredWeight made by the first all-gather" %
                        type(out).__name__)
                # FSDP2 re-gathers into the same storages, which `out`
                # views; copy only where it does not.
                if out._data.data_ptr() != data.data_ptr():
                    out._data.copy_(data)
                if out._scale.data_ptr() != scale.data_ptr():
                    out._scale.copy_(scale)
                return
            return (Fp8GatheredWeight(data, scale, recipe, chip,
                                      param_dtype), (data, scales))

    class Fp8GatheredWeight(torch.Tensor):
        """The unsharded weight under FP8 all-gather: an [N, K] tensor of
        the master dtype in shape only, holding FP8 data (`_data`, uint8)
        and dequantization scales (`_scale`). Only fp8_mlir.fsdp's linear
        reads it; other ops are refused."""

        @staticmethod
        def __new__(cls, data, scale, recipe, chip, dtype):
            return torch.Tensor._make_wrapper_subclass(
                cls, data.size(), dtype=dtype, device=data.device,
                requires_grad=False)

        def __init__(self, data, scale, recipe, chip, dtype):
            self._data, self._scale = data, scale
            self._recipe, self._chip = recipe, chip

        def __repr__(self):
            return "Fp8GatheredWeight(recipe=%s, shape=%s, scales=%s)" % (
                self._recipe, tuple(self.shape), tuple(self._scale.shape))

        def _same(self):
            return Fp8GatheredWeight(self._data, self._scale, self._recipe,
                                     self._chip, self.dtype)

        @classmethod
        def __torch_dispatch__(cls, func, types, args, kwargs=None):
            kwargs = kwargs or {}
            self = args[0]
            if func in (_aten.detach.default, _aten.alias.default):
                return self._same()
            if func in (_aten.as_strided.default, _aten.view.default):
                # FSDP2 views the unsharded tensor as the original size.
                size = tuple(args[1])
                offset = args[3] if len(args) > 3 else kwargs.get(
                    "storage_offset", 0)
                if size == tuple(self.shape) and not offset:
                    return self._same()
            raise NotImplementedError(
                "fp8_mlir.fsdp: %s on an FP8 all-gathered weight %r; only "
                "the fp8_mlir linear of enable_fp8_all_gather reads it" %
                (func, self))

    class _PrequantizedLinear(torch.autograd.Function):
        """forward(program, weight, x, *bias) with the gathered FP8
        weight; backward runs Dgrad and Wgrad on the same FP8 weight."""

        @staticmethod
        def forward(ctx, program, weight, x, *bias):
            (y,) = _nn._run(program.fwd, [x, weight._data, weight._scale,
                                          *bias])
            ctx.program, ctx.weight = program, weight
            ctx.bias_dtype = bias[0].dtype if bias else None
            ctx.save_for_backward(x)
            return y

        @staticmethod
        def backward(ctx, dy):
            (x,) = ctx.saved_tensors
            w = ctx.weight
            dy = dy.contiguous()
            dx, dw = _nn._run(ctx.program.bwd, [dy, x, w._data, w._scale])
            grads = [None, dw, dx]
            if ctx.bias_dtype is not None:
                grads.append(dy.sum(0, dtype=torch.float32).to(
                    ctx.bias_dtype))
            return tuple(grads)

    class Fp8AllGatherLinear(_nn.Linear):
        """fp8_mlir.nn.Linear whose weight FSDP2 all-gathers in FP8
        (made by enable_fp8_all_gather; not constructed directly).
        `record_gathered = True` keeps a copy of the last gathered FP8
        weight in `gathered` (data, scales), for tests."""

        def _pq_program(self, m, device):
            program = self._pq_programs.get(m)
            if program is None:
                chip = self.chip or _nn.default_chip(device)
                program = self._pq_programs[m] = compile_prequantized_linear(
                    m, self.out_features, self.in_features, self.recipe,
                    chip, bias=self.bias is not None,
                    dtype=_nn._dtype_name(self.weight.dtype, "the weight"))
            return program

        def forward(self, x):
            w = self.weight
            if not isinstance(w, Fp8GatheredWeight):
                raise RuntimeError(
                    "fp8_mlir.fsdp: the weight of this layer is %s, not an "
                    "FP8 all-gathered weight: apply torch.distributed.fsdp."
                    "fully_shard to the model after enable_fp8_all_gather "
                    "and call it through FSDP2" % type(w).__name__)
            if x.shape[-1] != self.in_features:
                raise ValueError("Linear: input has %d features, expected "
                                 "%d" % (x.shape[-1], self.in_features))
            if x.dtype != w.dtype or not x.is_cuda:
                raise ValueError("Linear: input is %s on %s; expected %s "
                                 "on CUDA" % (x.dtype, x.device, w.dtype))
            lead = x.shape[:-1]
            x2 = x.reshape(-1, self.in_features).contiguous()
            if getattr(self, "record_gathered", False):
                self.gathered = (w._data.clone(), w._scale.clone())
            program = self._pq_program(x2.shape[0], x.device)
            bias = [self.bias] if self.bias is not None else []
            y = _PrequantizedLinear.apply(program, w, x2, *bias)
            return y.reshape(*lead, y.shape[-1])

    def enable_fp8_all_gather(model, world_size=None):
        """Makes FSDP2 all-gather the weights of `model`'s
        fp8_mlir.nn.Linear layers in FP8 (in place; returns `model`).
        Call it before fully_shard. Recipes tensorwise and blockwise;
        `world_size` (default: the default process group's) checks that
        out_features shards evenly (blockwise: into whole 128-row
        tiles)."""
        if world_size is None:
            world_size = (torch.distributed.get_world_size()
                          if torch.distributed.is_initialized() else 1)
        if world_size < 2:
            # PyTorch 2.11's FSDP2 special-cases a 1-rank group (no
            # all-gather); its call of fsdp_post_all_gather there does not
            # pass what fsdp_pre_all_gather returned.
            raise ValueError(
                "enable_fp8_all_gather: the world size is %d; FP8 "
                "all-gather needs 2 or more ranks (on one GPU, use the "
                "layers without FSDP2)" % world_size)
        found = 0
        for name, module in model.named_modules():
            if isinstance(module, _nn.MLP):
                raise ValueError(
                    "enable_fp8_all_gather: %s is an fp8_mlir.nn.MLP; only "
                    "fp8_mlir.nn.Linear layers are supported" % (name or
                                                                 "model"))
            if not isinstance(module, _nn.Linear) or \
                    isinstance(module, Fp8AllGatherLinear):
                continue
            what = name or "model"
            if module.recipe not in graphs.PREQUANTIZED_RECIPES:
                raise ValueError(
                    "enable_fp8_all_gather: %s has recipe %r; FP8 "
                    "all-gather supports %s" % (what, module.recipe, ", ".join(
                        graphs.PREQUANTIZED_RECIPES)))
            w = module.weight
            if type(w).__name__ == "DTensor" or hasattr(w, "_local_tensor"):
                raise ValueError("enable_fp8_all_gather: %s is sharded "
                                 "already; call it before fully_shard" % what)
            check_sharding(module.out_features, module.recipe, world_size)
            module.__class__ = Fp8AllGatherLinear
            module._pq_programs = {}
            module.weight = torch.nn.Parameter(
                Fp8WeightShard(w.data, module.recipe, module.chip),
                requires_grad=w.requires_grad)
            found += 1
        if not found:
            raise ValueError("enable_fp8_all_gather: the model has no "
                             "fp8_mlir.nn.Linear layer")
        return model


# What needs PyTorch, for an actionable error where it is missing.
_TORCH_NAMES = ("quantize_shard", "Fp8WeightShard", "Fp8GatheredWeight",
                "Fp8AllGatherLinear", "enable_fp8_all_gather")


def __getattr__(name):
    if torch is None and name in _TORCH_NAMES:
        raise TorchNotFound("fp8_mlir.fsdp.%s" % name, **_TORCH_PROBLEM)
    raise AttributeError("module 'fp8_mlir.fsdp' has no attribute %r" % name)
