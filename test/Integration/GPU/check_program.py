#!/usr/bin/env python3
"""Checks a whole function that `fp8-run --function NAME --dump DIR` ran,
against the launch plan it ran and against the program it came from.

    check_program.py DUMP MANIFEST [--function NAME] [--recipe PRESET]
                     [--tol T] [--device cuda|cpu] [--max-report K]
    check_program.py --self-test [DUMP MANIFEST ...]

DUMP is DIR or DIR/NAME: NAME/meta.json (the function, its arguments and
results: name, dtype, shape, file) beside argN.bin and resultN.bin.
MANIFEST is the manifest.json (version 2) the function was run from; its
entry "functions" holds the launch plan (docs/Manifest.md).

fp8-run dumps only the arguments and results: the intermediates live in one
workspace whose bytes later launches reuse. Two checks, both in PyTorch on
the GPU:

  (a) replay. The plan is replayed launch by launch from the dumped
      arguments with a torch model of each kernel, each taken from
      check_quantize.py or check_gemm.py (the models those scripts check
      single kernels with): fp8.quantize and the fused
      fp8.quantize+transpose (bit-exact, docs/Numerics.md), fp8.dequantize,
      fp8.amax, fp8.transpose, fp8.tma_align_scales, fp8.hadamard (along
      either dim; bit-exact) and fp8.scaled_matmul (float64 reference and
      bound). Buffers are kept
      per id, views as reshapes of their base; workspace offsets are not
      modelled (a plan whose intermediates overlap while live would show
      as a wrong result). A launch that writes a result is compared with
      the GPU's result: bit for bit for the exact kernels (NaN codes match
      any NaN, as in check_quantize.py; data moves compare every bit),
      within check_gemm.py's bound-relative tolerance for a GEMM
      (|c - ref| <= tol.bound.(1+u) + u.|ref| + tiny, tol 2^-9 promoted,
      2^-8 fast), or, where torch._scaled_mm takes the scaling, an element
      beyond that passes when cuBLASLt's result on the same operands is
      within the same allowance of the kernel's and the kernel is within
      2^-7 of the bound of the reference: Hopper's FP8 wgmma truncates
      its products to the largest of each 32-deep step (about 13 bits),
      so a row with an outlier (fp8-run's inputs have 1 in 1024, x16 to
      x2048) loses up to 32 . 2^-13 = 2^-8 of its bound per step. On the
      H100 both the kernel and cuBLASLt reached 2^-8.3 on the linear
      layer (2026-11-23), the same value to the bit at every such element.
      The count of such elements, and cuBLASLt's own distance from the
      reference, are printed (--no-scaled-mm: the strict rule alone).
      Later launches then read the GPU's own result, so every
      launch is checked on the GPU's inputs. A GEMM output that stays an
      intermediate is passed on as the reference rounded to its dtype;
      results computed from it are then not bit-exact and are reported as
      "depends on an intermediate GEMM" and left to (b). A launch whose op
      has no model (an elementwise linalg.generic: the manifest does not
      carry its body) makes its outputs unknown the same way.
  (b) end to end. For a function this script knows (GRAPHS: the programs
      in programs/), its results are recomputed from the arguments by the
      graph itself, independently of the plan: every matmul operand
      oriented [free, contracted] and quantized with the policy of its
      role in the recipe (--recipe, a preset: tensorwise, rowwise,
      blockwise, mxfp8, delayed; PRESET+hN rotates every operand along
      its contracted dim first, as fp8-insert-hadamard does), then the
      float64 product. Under delayed the amax of each value comes from its
      history argument by TransformerEngine's rule, and the rolled
      histories the function returns are checked bit for bit. This catches a compiler
      that quantizes an operand with the wrong tile, format or orientation
      consistently (which (a) alone takes as the plan's intent). GEMM
      results are compared with the same rule as in (a).

Every result must be compared by (a) or (b): one that neither compares (the
replay cannot, and the function has no graph here or no --recipe was
given) fails the run, named. Under rowwise_gw_hp, (b) computes Wgrad in
high precision (its bf16 operands' float64 product, within check_gemm's
hp_tolerance), as the recipe keeps it.

Exit status: 0 when every check passes, 1 on any mismatch or unchecked
result, 2 on bad input (an unreadable dump, a plan that reads a buffer
before it is written, a dump that does not match the plan).

--self-test builds a small plan in memory (quantize 1x128 and 128x128,
fused cast-transpose, transpose, scale alignment, a GEMM), checks that the
model's own outputs pass, and that each of these is caught: one flipped
fp8 code, one scale off by an ulp, a GEMM element off by 2^-5 relative,
an unwritten (0xFF) GEMM row, swapped GEMM results, a plan that
quantizes the weight with the wrong tile (passes (a), fails (b)), and a
result that no rule compares. With
DUMP MANIFEST it also corrupts each result of that real dump in memory
and requires the check to fail.
"""

import argparse
import json
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_quantize as cq  # noqa: E402
import check_gemm as cg  # noqa: E402

oracle = cq.oracle
BadInput = cq.BadInput
torch = None


def import_torch():
    global torch
    cg.import_torch()
    torch = cq.torch


TORCH_DTYPE = {}


def torch_dtype(name):
    if not TORCH_DTYPE:
        TORCH_DTYPE.update({
            "bf16": torch.bfloat16, "f16": torch.float16,
            "f32": torch.float32, "f64": torch.float64,
            "f8e4m3": torch.uint8, "f8e5m2": torch.uint8,
            "e8m0": torch.uint8, "i1": torch.uint8, "i8": torch.int8,
            "i32": torch.int32, "i64": torch.int64})
    return TORCH_DTYPE[name]


# ---------------------------------------------------------------------------
# The plan
# ---------------------------------------------------------------------------


class Plan:
    """One function's launch plan from a manifest (a dict)."""

    def __init__(self, manifest, name):
        if manifest.get("version", 1) < 2:
            raise BadInput("manifest version %r has no launch plans"
                           % manifest.get("version"))
        funcs = {f["name"]: f for f in manifest.get("functions", [])}
        if name not in funcs:
            raise BadInput("the manifest has no function %r (it has %s)" %
                           (name, ", ".join(sorted(funcs)) or "none"))
        f = funcs[name]
        self.name = name
        self.kernels = {k["name"]: k for k in manifest["kernels"]}
        self.buffers = {b["id"]: b for b in f["buffers"]}
        self.arguments, self.results = f["arguments"], f["results"]
        self.launches = f["launches"]
        self.result_index = {bid: n for n, bid in enumerate(self.results)}
        for lau in self.launches:
            if lau["kernel"] not in self.kernels:
                raise BadInput("launch of unknown kernel %r" % lau["kernel"])

    def base(self, bid):
        """The buffer a view's bytes belong to."""
        seen = 0
        while self.buffers[bid]["kind"] == "view":
            bid = self.buffers[bid]["of"]
            seen += 1
            if seen > len(self.buffers):
                raise BadInput("views form a cycle at buffer %d" % bid)
        return bid


class Slot:
    """A kernel parameter bound to a plan buffer: what check_quantize's and
    check_gemm's describe functions take as raw(param)."""

    def __init__(self, param, bid, store):
        self.name, self.dtype = param["name"], param["dtype"]
        self.shape = list(param["shape"])
        self.bid, self.store = bid, store
        buf = store.plan.buffers[bid]
        if buf["dtype"] != self.dtype or math.prod(buf["shape"]) != \
                math.prod(self.shape):
            raise BadInput("parameter %s (%s %s) is bound to buffer %d %s "
                           "(%s %s)" % (self.name, self.dtype, self.shape,
                                        bid, buf["name"], buf["dtype"],
                                        buf["shape"]))

    def scalar(self):
        return int(self.store.read(self.bid).reshape(-1)[0].item())


class Store:
    """The replay's buffers: one tensor per base buffer, plus whether its
    value is exactly what the GPU holds (False after an intermediate GEMM
    or a launch without a model)."""

    def __init__(self, plan):
        self.plan = plan
        self.values, self.exact, self.origin = {}, {}, {}

    def read(self, bid):
        base = self.plan.base(bid)
        if base not in self.values:
            raise BadInput("buffer %d (%s) is read before any launch writes "
                           "it" % (bid, self.plan.buffers[bid]["name"]))
        return self.values[base].reshape(self.plan.buffers[bid]["shape"])

    def write(self, bid, t, exact, origin):
        base = self.plan.base(bid)
        self.values[base] = t.reshape(self.plan.buffers[base]["shape"])
        self.exact[base], self.origin[base] = exact, origin

    def is_exact(self, bid):
        return self.exact.get(self.plan.base(bid), True)


# ---------------------------------------------------------------------------
# Kernel models: (output slot, value, how to compare)
# ---------------------------------------------------------------------------


class Exact:
    """Compare bit for bit; fmt: fp8 codes with NaN leniency; nan_any:
    real values where any NaN matches; neither: every bit (data moves)."""

    def __init__(self, fmt=None, nan_any=False):
        self.fmt, self.nan_any = fmt, nan_any


# Where cuBLASLt is as far off the reference as the kernel, an element may
# be off by up to this much of its bound (module docstring).
HW_CAP = 2.0 ** -7


class Within:
    """A GEMM output: within allowed of ref (float64), or, with cuBLASLt's
    result `torch` on the same operands, within allowed of that and within
    HW_CAP of ref."""

    def __init__(self, ref, bound, allowed, out_dtype, tol, accumulate, k):
        self.ref, self.bound, self.allowed = ref, bound, allowed
        self.out_dtype, self.tol, self.accumulate = out_dtype, tol, accumulate
        self.k = k
        self.torch, self.torch_how = None, None


def model_quantize(info, outs, read):
    x = read(info["x"]).float()
    amax = read(info["amax"]) if info["amax"] is not None else None
    res = []
    for o in outs:
        xs = x.t().contiguous() if o.transposed else x
        q, stored, _ = cq.torch_quantize(xs, o.fmt, o.scaling, info["margin"],
                                         amax, info["seed"],
                                         info["stochastic"])
        res.append((o.q, q, Exact(fmt=o.fmt)))
        e8m0 = o.scaling["scale"] == "e8m0"
        res.append((o.scale, stored, Exact(nan_any=not e8m0)))
    return res


def model_described(info, outs, read):
    kind = info["kind"]
    if kind == "quantize":
        return model_quantize(info, outs, read)
    res = []
    for o in outs:
        if kind == "dequantize":
            want = cq.torch_dequantize(read(o.q), read(o.scale), o.fmt,
                                       o.scaling, o.out.dtype)
            res.append((o.out, want, Exact(nan_any=True)))
        elif kind == "amax":
            want = cq.torch_tile_amax(read(o.x).float(), o.tile)
            res.append((o.out, want, Exact(nan_any=True)))
        elif kind == "transpose":
            res.append((o.out, read(o.src).t().contiguous(), Exact()))
        elif kind == "tma_align":
            res.append((o.out, cq.torch_tma_align(read(o.src),
                                                  o.out.shape[1]), Exact()))
        elif kind == "hadamard":
            want = cq.torch_hadamard(read(o.x).float(), o.n, o.seed,
                                     o.out.dtype, dim=o.dim)
            res.append((o.out, want, Exact(nan_any=True)))
        else:
            raise BadInput("no model for %s" % kind)
    return res


def model_gemm(entry, raw, read, args):
    g = cg.describe_gemm(entry, raw)
    a, b = read(g.a), read(g.b)
    sa = cg.scale_as_row_major(read(g.a_scale), g.a_scale_layout,
                               cq._tile_grid([g.m, g.k],
                                             g.a_scaling["tile"])[0])
    sb = cg.scale_as_row_major(read(g.b_scale), g.b_scale_layout,
                               cq._tile_grid([g.n, g.k],
                                             g.b_scaling["tile"])[0])
    ref, bound = cg.reference(a, sa, g.a_scaling, g.a.dtype, b, sb,
                              g.b_scaling, g.b.dtype)
    tol = args.tol if args.tol is not None else cg.TOL[g.accumulate]
    allowed = cg.allowance(ref, bound, tol, g.c.dtype, g.k)
    how = Within(ref, bound, allowed, g.c.dtype, tol, g.accumulate, g.k)
    if getattr(args, "scaled_mm", False):
        how.torch, how.torch_how = cg.scaled_mm(
            a, sa, g.a_scaling, g.a.dtype, b, sb, g.b_scaling, g.b.dtype,
            g.c.dtype, g.accumulate == "fast")
    return [(g.c, ref, how)]


def model_hp_gemm(entry, raw, read, args):
    """A linalg.matmul kept in high precision (bf16/f16 operands, f32
    accumulation): the float64 product within check_gemm's hp_tolerance(K)
    of the bound."""
    g = cg.describe_hp_gemm(entry, raw)
    ref, bound = cg.reference_hp(read(g.a), read(g.b), g.a_mn_major,
                                 g.b_mn_major)
    out = g.c.dtype
    tol = args.tol if args.tol is not None else cg.hp_tolerance(g.k)
    allowed = cg.allowance(ref, bound, tol, out, g.k)
    return [(g.c, ref, Within(ref, bound, allowed, out, tol, g.accumulate,
                              g.k))]


# ---------------------------------------------------------------------------
# Elementwise kernels (lib/Conversion/FP8ToNVVM/Elementwise/ElementwiseKernel.cpp)
# ---------------------------------------------------------------------------
# The manifest does not carry a linalg.generic's body, so its model comes
# from the program: ELEMENTWISE[function] lists the models of the function's
# linalg.generic launches in plan order. The kernel clones the body op for
# op in f32 (mul.rn, add.rn, no contraction: the PTX has fma only where the
# body has one) and expands math.tanh with MLIR's polynomial approximation
# (populateMathPolynomialApproximationPatterns: clamp to +-7.99881172, x
# itself below |x| < 0.0004, else an odd degree-13 over an even degree-6
# polynomial in fma.rn steps, div.rn). The models below do the same
# operations in the same order, each f32 operation as its float64 result
# rounded to f32 (exact for +, -, *, / of f32 operands: 53 >= 2.24 + 2),
# fma with one rounding (round to odd in float64, then to f32), so the
# kernel's bf16 outputs are expected bit for bit.


def _f32(hexbits):
    import struct
    return struct.unpack("<f", struct.pack("<I", hexbits))[0]


TANH_CLAMP = _f32(0x40FFF644)   # 7.99881172180175781
TANH_TINY = _f32(0x39D1B717)    # 0.0004
TANH_ALPHA = [_f32(h) for h in (0xA59F25C0, 0x2A61337E, 0xAEBD37FF,
                                0x335C0041, 0x3779434A, 0x3A270DED,
                                0x3BA059DC)]  # alpha13 .. alpha1
TANH_BETA = [_f32(h) for h in (0x35A0D3D8, 0x38F895D6, 0x3B14AA05,
                               0x3BA059DD)]  # beta6 .. beta0
GELU_C0 = _f32(0x3F4C422A)      # 0.7978846
GELU_C1 = _f32(0x3D372713)      # 0.044715


def f32_op(t):
    """An f32 operation's result from its exact float64 value."""
    return t.float()


def _f64(v, like):
    """v as a float64 tensor on like's device (v a tensor or a number)."""
    if isinstance(v, torch.Tensor):
        return v.double()
    return torch.full_like(like, v, dtype=torch.float64)


def _like(*vs):
    return next(v for v in vs if isinstance(v, torch.Tensor))


def f32_mul(a, b):
    t = _like(a, b)
    return f32_op(_f64(a, t) * _f64(b, t))


def f32_add(a, b):
    t = _like(a, b)
    return f32_op(_f64(a, t) + _f64(b, t))


def f32_div(a, b):
    return f32_op(a.double() / b.double())


def f32_fma(a, b, c):
    """fl32(a.b + c), one rounding (fma.rn.f32): a.b is exact in float64;
    the sum's float64 rounding is made round-to-odd (its TwoSum error
    decides), which rounds correctly to f32 afterwards."""
    t = _like(a, b, c)
    a, b, c = _f64(a, t), _f64(b, t), _f64(c, t)
    p = a * b
    s = p + c
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    even = (s.view(torch.int64) & 1) == 0
    fix = (err != 0) & even & torch.isfinite(s)
    away = torch.where(err > 0, torch.full_like(s, math.inf),
                       torch.full_like(s, -math.inf))
    return torch.where(fix, torch.nextafter(s, away), s).float()


def mlir_tanh(x):
    """math.tanh of f32 x as the kernel computes it (module comment)."""
    c = torch.where(x >= TANH_CLAMP, torch.full_like(x, TANH_CLAMP), x)
    c = torch.where(c <= -TANH_CLAMP, torch.full_like(x, -TANH_CLAMP), c)
    tiny = x.abs() < TANH_TINY
    x2 = f32_mul(c, c)
    p = f32_fma(x2, TANH_ALPHA[0], TANH_ALPHA[1])
    for coef in TANH_ALPHA[2:]:
        p = f32_fma(x2, p, coef)
    p = f32_mul(c, p)
    q = f32_fma(x2, TANH_BETA[0], TANH_BETA[1])
    for coef in TANH_BETA[2:]:
        q = f32_fma(x2, q, coef)
    return torch.where(tiny, c, f32_div(p, q))


def gelu_fwd(h):
    """examples/mlp_block.mlir's first linalg.generic: bf16 h ->
    bf16(0.5 f (1 + tanh(c0 (f + c1 f^3)))), in its order of operations."""
    f = h.float()
    v3 = f32_mul(f32_mul(f, f), f)
    t1 = f32_add(f32_mul(v3, GELU_C1), f)
    t4 = f32_add(mlir_tanh(f32_mul(t1, GELU_C0)), 1.0)
    return f32_mul(f32_mul(f, 0.5), t4).to(torch.bfloat16)


def gelu_bwd(da, h):
    """The second: bf16 dA, H -> bf16(dA . 0.5 (1 + tanh(c0 H)))."""
    g, v = da.float(), h.float()
    d = f32_mul(f32_add(mlir_tanh(f32_mul(v, GELU_C0)), 1.0), 0.5)
    return f32_mul(d, g).to(torch.bfloat16)


# Per function: its linalg.generic launches' models, in plan order (the
# number of inputs must match).
ELEMENTWISE = {
    "mlp_block": [gelu_fwd, gelu_bwd],
}


def model_elementwise(entry, slots, read, fn):
    ins = [slots[p["name"]] for p in entry["params"] if p["role"] == "input"]
    outs = [slots[p["name"]] for p in entry["params"]
            if p["role"] == "output"]
    op = entry.get("op", "")
    if op == "linalg.transpose":
        # 2-D: the only permutation that is not the identity.
        if len(ins) != 1 or len(outs) != 1 or len(ins[0].shape) != 2 or \
                outs[0].shape != ins[0].shape[::-1] or \
                ins[0].dtype != outs[0].dtype:
            raise BadInput("%s: expected one 2-D input and its transposed "
                           "output of the same dtype" % entry["name"])
        return [(outs[0], read(ins[0]).t().contiguous(), Exact())]
    if len(outs) != 1:
        raise BadInput("%s: %d outputs; the models have one" %
                       (entry["name"], len(outs)))
    want = fn(*[read(s) for s in ins]).to(torch_dtype(outs[0].dtype))
    return [(outs[0], want.reshape(outs[0].shape), Exact(nan_any=True))]


def elementwise_model(plan_name, index, entry):
    """The model of a function's index-th linalg.generic launch, or None."""
    models = ELEMENTWISE.get(plan_name, [])
    if index >= len(models):
        return None
    fn = models[index]
    n_in = sum(1 for p in entry["params"] if p["role"] == "input")
    if fn.__code__.co_argcount != n_in:
        raise BadInput("%s (linalg.generic %d of %s) has %d inputs; its model "
                       "%s takes %d" % (entry["name"], index, plan_name, n_in,
                                        fn.__name__,
                                        fn.__code__.co_argcount))
    return fn


def model_launch(entry, slots, read, args, elementwise=None):
    """The outputs of one launch as [(slot, value, Exact|Within)], or
    (None, reason) where there is no model. elementwise: the model of a
    linalg.generic launch (elementwise_model)."""
    op = entry.get("op", "")
    raw = lambda p: slots[p["name"]]  # noqa: E731
    if op == "linalg.transpose" or (op == "linalg.generic" and
                                    elementwise is not None):
        return model_elementwise(entry, slots, read, elementwise), None
    if op == "fp8.scaled_matmul":
        return model_gemm(entry, raw, read, args), None
    if op == "linalg.matmul" and "matmul" in entry:
        return model_hp_gemm(entry, raw, read, args), None
    if op == "fp8.quantize_elementwise":
        # Its producer body is not in the manifest; check_fusion.py checks
        # these kernels against the unfused program bit for bit.
        return None, "a fused producer (check_fusion.py checks it)"
    if op.startswith("fp8."):
        try:
            described, why = cq.describe_entry(entry, raw)
        except BadInput as e:
            # A kernel whose buffers check_quantize's model does not know,
            # e.g. scales that fp8-fuse-quantization stores in the TMA
            # layout directly (the manifest does not say so yet).
            return None, "check_quantize has no model of it (%s)" % e
        if described is None:
            return None, why
        return model_described(described[0], described[1], read), None
    return None, ("no torch model of %s (the manifest does not carry its "
                  "body; ELEMENTWISE has none for it)" % op)


# ---------------------------------------------------------------------------
# Comparison
# ---------------------------------------------------------------------------


class Check:
    def __init__(self, what, count, bad, detail, first=()):
        self.what, self.count, self.bad = what, count, bad
        self.detail, self.first = detail, list(first)


def compare_exact(got, want, how, max_report):
    if got.shape != want.shape:
        got = got.reshape(want.shape)
    gb, wb = cq.torch_bits(got), cq.torch_bits(want)
    bad = gb != wb
    lenient = 0
    if how.fmt is not None:
        both = cq.nan_code_mask(gb, how.fmt) & cq.nan_code_mask(wb, how.fmt)
        lenient = int((bad & both).sum())
        bad &= ~both
    elif how.nan_any and got.is_floating_point():
        both = torch.isnan(got) & torch.isnan(want)
        lenient = int((bad & both).sum())
        bad &= ~both
    nbad = int(bad.sum())
    first = []
    if nbad:
        cols = want.shape[-1] if want.dim() else 1
        gf, wf = gb.reshape(-1), wb.reshape(-1)
        for f in bad.reshape(-1).nonzero()[:max_report].reshape(-1).tolist():
            i, j = divmod(f, cols)
            first.append("[%d, %d]: got 0x%x, expected 0x%x" %
                         (i, j, int(gf[f]), int(wf[f])))
    kind = "codes" if how.fmt is not None else "bits"
    detail = "bit-exact %s" % kind + (", %d NaNs differ in sign/payload only"
                                      % lenient if lenient else "")
    return nbad, detail, first


def compare_within(got, how, max_report):
    c = cg.c_to_f64(got.reshape(how.ref.shape))
    res = cg.Comparison(c, how.ref, how.bound, how.allowed, how.out_dtype,
                        max_report)
    detail = ("tol %s (%s), max |c-ref|/allowed %.3g, observed tol %s" %
              (cg.log2_text(how.tol), how.accumulate, res.max_ratio,
               cg.log2_text(res.observed_tol)))
    ok = cg.passes(c, how.ref, how.bound, how.allowed, how.out_dtype)
    notes = []
    if how.torch is not None:
        t = how.torch
        tres = cg.Comparison(t, how.ref, how.bound, how.allowed,
                             how.out_dtype, max_report)
        # Beyond the tolerance but where cuBLASLt is too: the hardware's
        # accumulation, accepted within HW_CAP of the bound.
        cap = cg.allowance(how.ref, how.bound, HW_CAP, how.out_dtype, how.k)
        excused = ~ok & torch.isfinite(c) & torch.isfinite(how.ref) & \
            ((c - t).abs() <= how.allowed) & ((c - how.ref).abs() <= cap)
        ok |= excused
        n_exc = int(excused.sum())
        detail += ("; cuBLASLt (torch._scaled_mm, %s) on the same operands: "
                   "max |torch-ref|/allowed %.3g, observed tol %s"
                   % (how.torch_how, tres.max_ratio,
                      cg.log2_text(tres.observed_tol)))
        if n_exc:
            detail += ("; %d beyond the tolerance where cuBLASLt is as far "
                       "off (accepted up to %s)" % (n_exc,
                                                    cg.log2_text(HW_CAP)))
    elif how.torch_how is not None:
        notes.append("(torch._scaled_mm: skipped, %s)" % how.torch_how)
    bad = ~ok
    nbad = int(bad.sum())
    first = []
    for i, j in bad.nonzero()[:max_report].tolist():
        line = ("[%d, %d]: got %.9g, expected %.9g (bound %.6g, allowed "
                "%.6g)" % (i, j, float(c[i, j]), float(how.ref[i, j]),
                           float(how.bound[i, j]),
                           float(how.allowed[i, j])))
        if how.torch is not None:
            line += ", cuBLASLt %.9g" % float(how.torch[i, j])
        first.append(line)
    return nbad, detail, first + notes


def compare(got, want, how, max_report):
    if isinstance(how, Within):
        return compare_within(got, how, max_report)
    return compare_exact(got, want, how, max_report)


# ---------------------------------------------------------------------------
# (a) Replay
# ---------------------------------------------------------------------------


def replay(plan, gpu_args, gpu_results, args, log=print):
    """Replays the plan; returns [Check] for every result (bad = -1: not
    checkable by the replay)."""
    store = Store(plan)
    for n, bid in enumerate(plan.arguments):
        store.write(bid, gpu_args[n], True, "argument %d" % n)
    checks = {}
    generics = 0
    for li, lau in enumerate(plan.launches):
        entry = plan.kernels[lau["kernel"]]
        params = entry["params"]
        ew = None
        if entry.get("op") == "linalg.generic":
            ew = elementwise_model(plan.name, generics, entry)
            generics += 1
        if len(params) != len(lau["args"]):
            raise BadInput("launch %d (%s): %d args for %d params" %
                           (li, lau["kernel"], len(lau["args"]), len(params)))
        slots = {p["name"]: Slot(p, bid, store)
                 for p, bid in zip(params, lau["args"])
                 if p["role"] != "tensormap"}
        ins = [s for p, s in ((p, slots.get(p["name"])) for p in params)
               if p["role"] == "input"]
        outs = [s for p, s in ((p, slots.get(p["name"])) for p in params)
                if p["role"] == "output"]
        inputs_exact = all(store.is_exact(s.bid) for s in ins)
        produced, why = model_launch(entry, slots,
                                     lambda s: store.read(s.bid), args, ew)
        label = "launch %d %s (%s)" % (li, lau["kernel"], lau["op"])
        if produced is None:
            log("  %s: no model (%s); its outputs are unknown" % (label, why))
            for s in outs:
                if s.bid in plan.result_index:
                    n = plan.result_index[s.bid]
                    # (b) checks it where the graph is known (the delayed
                    # recipe's rolled histories).
                    checks[n] = Check("result %d (%s) from %s" %
                                      (n, s.name, label),
                                      gpu_results[n].numel(), -1,
                                      "no model; see (b)")
                    store.write(s.bid, gpu_results[n], True, label)
                else:
                    store.write(s.bid, torch.zeros(s.shape,
                                                   dtype=torch_dtype(s.dtype),
                                                   device=args.device),
                                False, label)
            continue
        for slot, value, how in produced:
            is_result = slot.bid in plan.result_index
            gemm = isinstance(how, Within)
            if is_result:
                n = plan.result_index[slot.bid]
                got = gpu_results[n]
                name = "result %d (%s) from %s" % (n, slot.name, label)
                if not inputs_exact:
                    checks[n] = Check(name, got.numel(), -1,
                                      "depends on an intermediate GEMM or an "
                                      "unmodelled launch; see (b)")
                else:
                    bad, detail, first = compare(got, value, how,
                                                 args.max_report)
                    checks[n] = Check(name, got.numel(), bad, detail, first)
                # Later launches read what the GPU wrote.
                store.write(slot.bid, got.reshape(slot.shape), True, label)
            else:
                if gemm:
                    value = value.to(torch_dtype(slot.dtype))
                store.write(slot.bid, value.reshape(slot.shape),
                            inputs_exact and not gemm, label)
    for n in range(len(plan.results)):
        if n not in checks:
            raise BadInput("result %d is written by no launch of the plan" % n)
    return [checks[n] for n in range(len(plan.results))]


# ---------------------------------------------------------------------------
# (b) End to end: the program's graph
# ---------------------------------------------------------------------------

# Policies of the recipe presets (lib/Dialect/FP8/IR/RecipeAttr.cpp):
# (element type, tile [across, along] the contracted dim, scale, round).
RECIPES = {
    "tensorwise": {"activation": ("f8e4m3", [-1, -1], "f32", "exact"),
                   "weight": ("f8e4m3", [-1, -1], "f32", "exact"),
                   "gradient": ("f8e5m2", [-1, -1], "f32", "exact")},
    "rowwise": {r: ("f8e4m3", [1, -1], "f32", "pow2_ceil")
                for r in ("activation", "weight", "gradient")},
    "blockwise": {"activation": ("f8e4m3", [1, 128], "f32", "exact"),
                  "weight": ("f8e4m3", [128, 128], "f32", "exact"),
                  "gradient": ("f8e4m3", [1, 128], "f32", "exact")},
    "mxfp8": {r: ("f8e4m3", [1, 32], "e8m0", "pow2_ceil")
              for r in ("activation", "weight", "gradient")},
}
# delayed: tensorwise's policies with the amax from a 1024-step history
# (max), docs/Passes.md: one history argument per quantized value, after
# the graph's own arguments in the order of the values, and its rolled
# history as a result after the graph's own results.
RECIPES["delayed"] = RECIPES["tensorwise"]
DELAYED = {"delayed"}
# rowwise_gw_hp: rowwise with exact f32 scales, and Wgrad (the matmul of a
# gradient and an activation, no weight) kept in high precision: its
# operands enter as they are (bf16) and the product accumulates in f32
# (RecipeAttr.cpp's highPrecision, docs/Overview.md).
RECIPES["rowwise_gw_hp"] = {r: ("f8e4m3", [1, -1], "f32", "exact")
                            for r in ("activation", "weight", "gradient")}
HIGH_PRECISION = {"rowwise_gw_hp": {"wgrad"}}

# Per function: the role of each argument ("roles") and of each result that
# a later node reads ("result_roles"), and per result the node that makes
# it: ("matmul", A, B) for C = A . B^T, A and B given as (value,
# transposed), each oriented [free, contracted]; or (MODEL, value, ...) for
# an elementwise model of ELEMENTWISE's kind. A value is "aN" (argument N)
# or "rN" (result N).
GRAPHS = {
    # Y = X W^T, dX = dY W, dW = dY^T X.
    "linear_fwd_bwd": {
        "roles": ["activation", "weight", "gradient"],
        "results": [("matmul", ("a0", False), ("a1", False)),
                    ("matmul", ("a2", False), ("a1", True)),
                    ("matmul", ("a2", True), ("a0", True))]},
    # programs/mlp_block.mlir: X, W1 [ffn, d], W2 [d, ffn], dY ->
    # Y, dX, dW1, dW2, H, A, dA, dH.
    "mlp_block": {
        "roles": ["activation", "weight", "weight", "gradient"],
        "result_roles": {4: "activation", 5: "activation", 6: "gradient",
                         7: "gradient"},
        "results": [("matmul", ("r5", False), ("a2", False)),   # Y = A W2^T
                    ("matmul", ("r7", False), ("a1", True)),    # dX = dH W1
                    ("matmul", ("r7", True), ("a0", True)),     # dW1 = dH^T X
                    ("matmul", ("a3", True), ("r5", True)),     # dW2 = dY^T A
                    ("matmul", ("a0", False), ("a1", False)),   # H = X W1^T
                    (gelu_fwd, "r4"),                           # A = gelu(H)
                    ("matmul", ("a3", False), ("a2", True)),    # dA = dY W2
                    (gelu_bwd, "r6", "r4")],                    # dH
        # programs/mlp_block.mlir computes H, Y, dA, dW2, dX, dW1.
        "matmul_order": [4, 0, 6, 3, 1, 2]},
    # The self-test's plan: Y = X W^T.
    "selftest_fprop": {
        "roles": ["activation", "weight"],
        "results": [("matmul", ("a0", False), ("a1", False))]},
}

# (c): a function's results computed from its arguments alone, through the
# graph's own intermediates (every GEMM the float64 reference rounded to its
# dtype), must be within this of the GPU's, relative, in the 2-norm of each
# result (finite elements; a NaN or inf must be where the reference has
# one). The GPU's and the reference's intermediates differ by a GEMM's
# rounding, and that moves some of the next quantization's fp8 codes by one
# ulp and, where an amax moves, a whole tile's scale (tensorwise: every
# element's). On the H100 (bench/results/2026-11-23-h100-mlp-check.md) the
# MLP block reached 2^-8.8 blockwise and 2^-5.9 tensorwise (Y, through A's
# tensor-wide scale). The bound is e4m3's own half ulp, 2^-4: a wrong graph
# (H where A belongs, a missing GELU term, a transpose) is off by O(1); a
# wrong tile or format is (b)'s to catch.
CHAIN_TOL = 2.0 ** -4


def parse_recipe(recipe):
    """(preset, Hadamard size or 0) of a --recipe: PRESET or PRESET+hN
    (the preset with a Hadamard rotation of size N along every matmul's
    contracted dim, as fp8-insert-hadamard inserts it without a seed)."""
    preset, _, h = recipe.partition("+h")
    if preset not in RECIPES or (h and not h.isdigit()):
        raise BadInput("--recipe %r: PRESET or PRESET+hN, PRESET one of %s"
                       % (recipe, ", ".join(sorted(RECIPES))))
    return preset, int(h or 0)


def e2e_operand(x, role, recipe, history=None):
    """Quantizes x (oriented [free, contracted]) as the recipe quantizes
    `role`: rotated along the contracted dim first under PRESET+hN, and
    under delayed scaling with the amax from `history` (f32 [H, 1, 1])."""
    preset, n = parse_recipe(recipe)
    fmt_name, tile, scale, rnd = RECIPES[preset][role]
    scaling = {"tile": tile, "scale": scale, "round": rnd}
    x = rotated(x, n, 1).float().contiguous()
    amax = None if history is None else delayed_amax(history, x)
    q, stored, _ = cq.torch_quantize(x, cq.FORMATS[fmt_name], scaling,
                                     amax=amax)
    return q, stored, scaling, fmt_name


def rotated(x, n, dim):
    """x rotated in blocks of n along dim, rounded to x's dtype (what
    fp8.hadamard returns); x itself where n is 0."""
    if not n:
        return x
    name = {torch.bfloat16: "bf16", torch.float16: "f16",
            torch.float32: "f32"}[x.dtype]
    return cq.torch_hadamard(x.float(), n, None, name, dim=dim)


def delayed_amax(history, x):
    """TransformerEngine's rule (docs/Passes.md): the history's max
    (NaN wins, as arith.maximumf) where positive and finite, else the
    current amax."""
    h = history.float().reshape(history.shape[0], 1, 1).amax(dim=0)
    usable = (h > 0) & (h < math.inf)
    return torch.where(usable, h, x.abs().amax().reshape(1, 1))


def rolled_history(history, x):
    """The history a delayed quantization returns: the oldest entry
    dropped, the current amax of x appended."""
    h = history.float()
    current = x.float().abs().amax().reshape([1] * h.dim())
    return torch.cat([h[1:], current])


def history_keys(graph, recipe):
    """The quantized (value, contracted dim) pairs that own a history under
    a delayed recipe, in the order of their history arguments (after the
    graph's own) and of their rolled histories (after its results):
    fp8-quantize-matmuls makes one per value, or per (value, contracted
    dim) when the recipe rotates, in the order the matmuls first read them
    (the program's order: the graph's "matmul_order" where it has one).
    A key is the value ("aN"), or (value, dim) with a rotation."""
    preset, n = parse_recipe(recipe)
    if preset not in DELAYED:
        return []
    keys = []
    # The program's order of its matmuls where it differs from the order of
    # the results (the histories follow the program).
    order = graph.get("matmul_order")
    nodes = [graph["results"][i] for i in order] if order else graph["results"]
    for node in nodes:
        if node[0] != "matmul":
            continue
        for v, transposed in node[1:]:
            key = (v, 0 if transposed else 1) if n else v
            if key not in keys:
                keys.append(key)
    return keys


def history_of(graph, v, transposed, recipe, value):
    """The history argument of operand (v, transposed) under a delayed
    recipe, else None."""
    keys = history_keys(graph, recipe)
    if not keys:
        return None
    key = (v, 0 if transposed else 1) if parse_recipe(recipe)[1] else v
    return value("a%d" % (len(graph["roles"]) + keys.index(key)))


def history_node(n, dim):
    """The node model of a rolled history of a value rotated along dim."""
    def rolled_history_of_rotation(history, x):
        return rolled_history(history, rotated(x, n, dim))
    return rolled_history_of_rotation if n else rolled_history


def graph_results(graph, recipe):
    """The graph's result nodes, with the rolled histories after them
    under a delayed recipe."""
    nodes = list(graph["results"])
    base, n = len(graph["roles"]), parse_recipe(recipe)[1]
    for k, key in enumerate(history_keys(graph, recipe)):
        v, dim = key if n else (key, 1)
        nodes.append((history_node(n, dim), "a%d" % (base + k), v))
    return nodes


def value_role(graph, v):
    if v[0] == "a":
        return graph["roles"][int(v[1:])]
    n = int(v[1:])
    if n not in graph.get("result_roles", {}):
        raise BadInput("GRAPHS: result %d is read by a matmul but has no "
                       "role" % n)
    return graph["result_roles"][n]


def matmul_kind(graph, node):
    """fprop (activation . weight), dgrad (gradient . weight) or wgrad
    (gradient . activation) of a matmul node, from its operands' roles."""
    roles = {value_role(graph, v) for v, _ in node[1:]}
    if "weight" not in roles:
        return "wgrad"
    return "dgrad" if "gradient" in roles else "fprop"


def node_text(node):
    if node[0] == "matmul":
        (va, ta), (vb, tb) = node[1], node[2]
        return "%s%s . %s%s^T" % (va, "^T" if ta else "", vb,
                                  "^T" if tb else "")
    return "%s(%s)" % (node[0].__name__, ", ".join(node[1:]))


def graph_node(graph, node, recipe, value, out_dtype, args):
    """(value, how) of one node, its operands from value(v); how is Within
    for a matmul, Exact for an elementwise model."""
    if node[0] != "matmul":
        want = node[0](*[value(v) for v in node[1:]])
        return want, Exact(nan_any=True), ""
    preset, rotation = parse_recipe(recipe)
    if matmul_kind(graph, node) in HIGH_PRECISION.get(preset, ()):
        return hp_graph_node(node, recipe, value, out_dtype, args, rotation)
    ops = []
    for v, transposed in node[1:]:
        x = value(v)
        ops.append(e2e_operand(x.t() if transposed else x,
                               value_role(graph, v), recipe,
                               history_of(graph, v, transposed, recipe,
                                          value)))
    (a, sa, asc, af), (b, sb, bsc, bf) = ops
    ref, bound = cg.reference(a, sa, asc, af, b, sb, bsc, bf)
    tol = args.tol if args.tol is not None else cg.TOL["promoted"]
    allowed = cg.allowance(ref, bound, tol, out_dtype, a.shape[1])
    how = Within(ref, bound, allowed, out_dtype, tol, "promoted", a.shape[1])
    if getattr(args, "scaled_mm", False):
        how.torch, how.torch_how = cg.scaled_mm(a, sa, asc, af, b, sb,
                                                bsc, bf, out_dtype, False)
    text = " (%s %s x %s %s)" % (af, cg.scaling_text(asc), bf,
                                 cg.scaling_text(bsc))
    return ref, how, text


def hp_graph_node(node, recipe, value, out_dtype, args, rotation):
    """A matmul the recipe keeps in high precision: the float64 product of
    its operands as they are, within check_gemm's hp_tolerance(K) of the
    bound, as the replay checks a linalg.matmul kernel (model_hp_gemm)."""
    if rotation:
        raise BadInput("--recipe %s: a rotation of a high-precision matmul's "
                       "operands is not modelled" % recipe)
    a, b = [value(v).t() if transposed else value(v)
            for v, transposed in node[1:]]
    ref, bound = cg.reference_hp(a, b, False, False)
    k = a.shape[1]
    tol = args.tol if args.tol is not None else cg.hp_tolerance(k)
    allowed = cg.allowance(ref, bound, tol, out_dtype, k)
    how = Within(ref, bound, allowed, out_dtype, tol, "f32", k)
    return ref, how, " (%s x %s, high precision)" % (a.dtype, b.dtype)


def end_to_end(name, recipe, gpu_args, gpu_results, result_dtypes, args):
    """[Check] per result of a function in GRAPHS, each node's operands the
    GPU's arguments and results; None if the function is not there."""
    graph = GRAPHS.get(name)
    if graph is None:
        return None

    def value(v):
        return (gpu_args if v[0] == "a" else gpu_results)[int(v[1:])]

    nodes = graph_results(graph, recipe)
    if len(gpu_results) < len(nodes):
        raise BadInput("%s under %s has %d results; GRAPHS expects at "
                       "least %d" % (name, recipe, len(gpu_results),
                                     len(nodes)))
    checks = []
    for n, node in enumerate(nodes):
        want, how, text = graph_node(graph, node, recipe, value,
                                     result_dtypes[n], args)
        bad, detail, first = compare(gpu_results[n], want, how,
                                     args.max_report)
        what = "result %d = %s%s" % (n, node_text(node), text)
        checks.append(Check(what, gpu_results[n].numel(), bad, detail, first))
    return checks


def chain(name, recipe, gpu_args, gpu_results, result_dtypes, args):
    """(c): [Check] per result computed from the arguments alone, for a
    graph with intermediate results (None otherwise)."""
    graph = GRAPHS.get(name)
    if graph is None or not any(v[0] == "r" for node in graph["results"]
                                for v in chain_inputs(node)):
        return None
    nodes = graph_results(graph, recipe)
    memo = {}
    quiet = argparse.Namespace(**vars(args))
    quiet.scaled_mm = False  # no cuBLASLt for the reference's own values

    def value(v):
        if v[0] == "a":
            return gpu_args[int(v[1:])]
        n = int(v[1:])
        if n not in memo:
            memo[n] = None  # a cycle reads None and fails
            want, how, _ = graph_node(graph, nodes[n], recipe,
                                      value, result_dtypes[n], quiet)
            memo[n] = want.to(torch_dtype(result_dtypes[n]))
        if memo[n] is None:
            raise BadInput("GRAPHS %s: result %d depends on itself" %
                           (name, n))
        return memo[n]

    checks = []
    for n in range(len(nodes)):
        ref = value("r%d" % n)
        checks.append(compare_norm("result %d = %s" %
                                   (n, node_text(nodes[n])),
                                   gpu_results[n], ref))
    return checks


def chain_inputs(node):
    if node[0] == "matmul":
        return [node[1][0], node[2][0]]
    return list(node[1:])


def compare_norm(what, got, ref):
    c, r = got.double().reshape(ref.shape), ref.double()
    fc, fr = torch.isfinite(c), torch.isfinite(r)
    misplaced = int((fc != fr).sum())
    both = fc & fr
    zero = torch.zeros((), dtype=torch.float64, device=r.device)
    num = float(torch.where(both, c - r, zero).norm())
    den = float(torch.where(both, r, zero).norm())
    rel = num / den if den > 0 else (0.0 if num == 0 else math.inf)
    bad = int(rel > CHAIN_TOL) + misplaced
    detail = ("relative 2-norm error %s (tol %s), %d of %d elements finite"
              % (cg.log2_text(rel) if rel > 0 else "0",
                 cg.log2_text(CHAIN_TOL), int(both.sum()), r.numel()))
    first = []
    if misplaced:
        first.append("%d elements finite in one and not the other"
                     % misplaced)
    return Check(what, r.numel(), bad, detail, first)


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def report(title, checks):
    failed = 0
    print(title)
    for c in checks:
        if c.bad < 0:
            print("  %s: %d elements, not checked here (%s)" %
                  (c.what, c.count, c.detail))
            continue
        status = "ok" if c.bad == 0 else "MISMATCH (%d of %d)" % (c.bad,
                                                                  c.count)
        print("  %s: %d elements, %s; %s" % (c.what, c.count, c.detail,
                                             status))
        for line in c.first:
            print("      " + line)
        failed += c.bad > 0
    return failed


def unchecked_results(names, replayed, e2e):
    """The results (of `names`) no rule compared: neither the replay
    (`replayed`, one Check per result, bad < 0 where it could not) nor the
    end-to-end check (`e2e`, one Check per result from the first, or
    None)."""
    covered = {n for n, c in enumerate(replayed) if c.bad >= 0}
    covered |= set(range(len(e2e or ())))
    return ["result %d (%s)" % (n, name) for n, name in enumerate(names)
            if n not in covered]


def check_function(plan, gpu_args, gpu_results, recipe, args, quiet=False):
    """Both checks; returns (failures, checked, unchecked): a result that
    no rule compared (unchecked, named) is a failure too."""
    log = (lambda *a: None) if quiet else print
    out = print if not quiet else (lambda *a: None)
    checks = replay(plan, gpu_args, gpu_results, args, log)
    failed = count_failed(checks) if quiet else \
        report("(a) replay of %d launches from the dumped arguments:" %
               len(plan.launches), checks)
    checked = sum(1 for c in checks if c.bad >= 0)
    e2e = None
    if recipe is not None:
        dtypes = [plan.buffers[bid]["dtype"] for bid in plan.results]
        e2e = end_to_end(plan.name, recipe, gpu_args, gpu_results, dtypes,
                         args)
        if e2e is None:
            out("(b) end to end: %s is not a graph this script knows "
                "(GRAPHS); skipped" % plan.name)
        else:
            failed += count_failed(e2e) if quiet else report(
                "(b) end to end, recipe %s, independent of the plan:" %
                recipe, e2e)
            checked += len(e2e)
        ch = chain(plan.name, recipe, gpu_args, gpu_results, dtypes, args)
        if ch is not None:
            failed += count_failed(ch) if quiet else report(
                "(c) chain: every result from the arguments alone, through "
                "the reference's own intermediates:", ch)
            checked += len(ch)
    else:
        out("(b) end to end: no --recipe given; skipped")
    unchecked = unchecked_results(
        [plan.buffers[bid]["name"] for bid in plan.results], checks, e2e)
    if unchecked:
        out("NOT CHECKED: %s: no rule compared %s (replay: depends on an "
            "intermediate GEMM or an unmodelled launch; end to end: %s)" %
            (", ".join(unchecked), "it" if len(unchecked) == 1 else "them",
             "no --recipe" if recipe is None else
             "not a graph this script knows"))
    return failed + len(unchecked), checked, unchecked


def count_failed(checks):
    return sum(1 for c in checks if c.bad > 0)


def load_dump(path, function):
    """(meta, args, results) with args and results as cq.Raw."""
    meta_path = os.path.join(path, "meta.json")
    if not os.path.isfile(meta_path):
        subs = sorted(d for d in os.listdir(path)
                      if os.path.isfile(os.path.join(path, d, "meta.json")))
        if function is not None:
            subs = [d for d in subs if d == function]
        if len(subs) != 1:
            raise BadInput("%s: expected one NAME/meta.json%s, found %s" %
                           (path, " for --function %s" % function
                            if function else "", subs or "none"))
        path = os.path.join(path, subs[0])
        meta_path = os.path.join(path, "meta.json")
    with open(meta_path) as f:
        meta = json.load(f)

    def raws(key):
        return [cq.Raw(os.path.join(path, t["file"]), t["dtype"], t["shape"])
                for t in meta[key]]

    return meta, raws("arguments"), raws("results")


def check_against_plan(plan, meta, arg_raws, res_raws):
    for kind, raws, ids in (("argument", arg_raws, plan.arguments),
                            ("result", res_raws, plan.results)):
        if len(raws) != len(ids):
            raise BadInput("the dump has %d %ss, the plan %d" %
                           (len(raws), kind, len(ids)))
        for n, (r, bid) in enumerate(zip(raws, ids)):
            b = plan.buffers[bid]
            if r.dtype != b["dtype"] or r.shape != b["shape"]:
                raise BadInput("%s %d: dumped %s %s, the plan has %s %s" %
                               (kind, n, r.dtype, r.shape, b["dtype"],
                                b["shape"]))


def run_check(dump, manifest_path, args):
    meta, arg_raws, res_raws = load_dump(dump, args.function)
    with open(manifest_path) as f:
        manifest = json.load(f)
    plan = Plan(manifest, meta["function"])
    check_against_plan(plan, meta, arg_raws, res_raws)
    print("function %s: %d arguments, %d results, %d launches; dump %s "
          "(device %s, inputs %s, seed %s)" %
          (plan.name, len(plan.arguments), len(plan.results),
           len(plan.launches), dump, meta.get("device"), meta.get("inputs"),
           meta.get("seed")))
    gpu_args = [cq.load_tensor(r, args.device) for r in arg_raws]
    gpu_results = [cq.load_tensor(r, args.device) for r in res_raws]
    return plan, gpu_args, gpu_results


# ---------------------------------------------------------------------------
# Self test
# ---------------------------------------------------------------------------


def selftest_manifest(w_tile):
    """A plan of Y = X W^T (X [256, 512] 1x128 through a fused
    cast-transpose, W [384, 512] with tile w_tile) whose results are Y and
    the quantizations, so both kinds of comparison are exercised."""
    M, N, K = 256, 384, 512
    f32 = lambda t: {"tile": t, "scale": "f32", "round": "exact"}  # noqa
    grid_w = cq._tile_grid([N, K], w_tile)
    def p(name, role, dtype, shape):  # noqa: E306
        return {"name": name, "role": role, "dtype": dtype, "shape": shape}
    kernels = [
        {"name": "qx", "op": "fp8.quantize+transpose", "scaling": f32([1, 128]),
         "params": [p("input", "input", "bf16", [M, K]),
                    p("q", "output", "f8e4m3", [M, K]),
                    p("scale", "output", "f32", [M, K // 128]),
                    p("qt", "output", "f8e4m3", [K, M]),
                    p("scale_t", "output", "f32", [K, M // 128])]},
        {"name": "align", "op": "fp8.tma_align_scales",
         "params": [p("scale", "input", "f32", [M, K // 128]),
                    p("tma_scale", "output", "f32", [K // 128, M])]},
        {"name": "qw", "op": "fp8.quantize", "scaling": f32(w_tile),
         "params": [p("input", "input", "bf16", [N, K]),
                    p("q", "output", "f8e4m3", [N, K]),
                    p("scale", "output", "f32", grid_w)]},
        {"name": "tw", "op": "fp8.transpose", "scaling": f32(w_tile),
         "params": [p("q", "input", "f8e4m3", [N, K]),
                    p("scale", "input", "f32", grid_w),
                    p("qt", "output", "f8e4m3", [K, N]),
                    p("scale_t", "output", "f32", grid_w[::-1])]},
        {"name": "gemm", "op": "fp8.scaled_matmul",
         "matmul": {"m": M, "n": N, "k": K, "contracting": [1, 1],
                    "accumulate": "promoted", "a_scaling": f32([1, 128]),
                    "b_scaling": f32(w_tile), "out_dtype": "bf16",
                    "a_scale_layout": "col_major_tma",
                    "b_scale_layout": "row_major"},
         "params": [p("a", "input", "f8e4m3", [M, K]),
                    p("a_scale", "input", "f32", [K // 128, M]),
                    p("b", "input", "f8e4m3", [N, K]),
                    p("b_scale", "input", "f32", grid_w),
                    p("c", "output", "bf16", [M, N]),
                    {"name": "a_map", "role": "tensormap", "tensor": "a",
                     "box": [128, 128], "swizzle": "128B"}]},
    ]
    bufs = []
    def buf(name, kind, dtype, shape, **kw):  # noqa: E306
        bufs.append(dict(id=len(bufs), name=name, kind=kind, dtype=dtype,
                         shape=shape, **kw))
        return len(bufs) - 1
    x = buf("arg0", "argument", "bf16", [M, K], index=0)
    w = buf("arg1", "argument", "bf16", [N, K], index=1)
    y = buf("result0", "result", "bf16", [M, N], index=0)
    qxt = buf("result1", "result", "f8e4m3", [K, M], index=1)
    sxt = buf("result2", "result", "f32", [K, M // 128], index=2)
    qwt = buf("result3", "result", "f8e4m3", [K, N], index=3)
    qx = buf("qx.q", "intermediate", "f8e4m3", [M, K], offset=0)
    sx = buf("qx.scale", "intermediate", "f32", [M, K // 128], offset=0)
    sxa = buf("align.tma_scale", "intermediate", "f32", [K // 128, M],
              offset=0)
    qw = buf("qw.q", "intermediate", "f8e4m3", [N, K], offset=0)
    sw = buf("qw.scale", "intermediate", "f32", grid_w, offset=0)
    swt = buf("tw.scale_t", "intermediate", "f32", grid_w[::-1], offset=0)
    flat = buf("view", "view", "f8e4m3", [N * K], of=qw)
    qw2 = buf("view2", "view", "f8e4m3", [N, K], of=flat)
    launches = [
        {"kernel": "qx", "op": "fp8.quantize+transpose",
         "args": [x, qx, sx, qxt, sxt]},
        {"kernel": "align", "op": "fp8.tma_align_scales", "args": [sx, sxa]},
        {"kernel": "qw", "op": "fp8.quantize", "args": [w, qw, sw]},
        {"kernel": "tw", "op": "fp8.transpose", "args": [qw2, sw, qwt, swt]},
        {"kernel": "gemm", "op": "fp8.scaled_matmul",
         "args": [qx, sxa, qw, sw, y, qx]},
    ]
    return {"version": 2, "chip": "sm_90a", "kernels": kernels,
            "functions": [{"name": "selftest_fprop", "arguments": [x, w],
                           "results": [y, qxt, sxt, qwt], "buffers": bufs,
                           "launches": launches}]}


def selftest_args(device):
    """bf16 X and W with row gains 2^-6 .. 2^6 and a few outliers."""
    g = torch.Generator(device="cpu").manual_seed(1)
    def mat(r, c):  # noqa: E306
        v = torch.randn(r, c, generator=g)
        v = v * torch.pow(2.0, torch.randint(-6, 7, (r, 1), generator=g))
        v.view(-1)[torch.randint(0, r * c, (8,), generator=g)] *= 300.0
        return v.to(torch.bfloat16).to(device)
    return [mat(256, 512), mat(384, 512)]


def selftest_results(plan, gpu_args, args):
    """What a correct GPU would return: the replay's values, the GEMM
    rounded to its dtype (fed through a replay that records them)."""
    store = Store(plan)
    for n, bid in enumerate(plan.arguments):
        store.write(bid, gpu_args[n], True, "arg")
    generics = 0
    for lau in plan.launches:
        entry = plan.kernels[lau["kernel"]]
        slots = {p["name"]: Slot(p, bid, store)
                 for p, bid in zip(entry["params"], lau["args"])
                 if p["role"] != "tensormap"}
        ew = None
        if entry.get("op") == "linalg.generic":
            ew = elementwise_model(plan.name, generics, entry)
            generics += 1
        produced, _ = model_launch(entry, slots, lambda s: store.read(s.bid),
                                   args, ew)
        for slot, value, how in produced:
            if isinstance(how, Within):
                value = value.to(torch_dtype(slot.dtype))
            store.write(slot.bid, value.reshape(slot.shape), True, "")
    return [store.read(bid).clone() for bid in plan.results]


def expect(label, failed, want_fail):
    ok = (failed > 0) == want_fail
    print("  %-62s %s" % (label, ("caught" if failed else "passes") +
                          ("" if ok else "  <-- WRONG")))
    return 0 if ok else 1


def corruptions(results, plan):
    """(label, corrupted results) for each result: one element changed the
    way a bug would (a code or bit flipped, a GEMM element off by 2^-5, an
    unwritten row)."""
    out = []
    for n, r in enumerate(results):
        dtype = plan.buffers[plan.results[n]]["dtype"]
        bad = [t.clone() for t in results]
        flat = bad[n].view(-1)
        i = flat.numel() // 3
        if dtype in ("f8e4m3", "f8e5m2", "e8m0"):
            flat[i] = flat[i] ^ 1
            out.append(("result %d: one %s code off by one" % (n, dtype), bad))
        elif dtype == "f32" and plan_is_scale(plan, n):
            flat.view(torch.int32)[i] += 1
            out.append(("result %d: one f32 scale off by an ulp" % n, bad))
        else:
            # The largest element off by 2^-5 of itself.
            j = int(flat.float().abs().argmax())
            flat[j] = (flat[j].double() * (1 + 2.0 ** -5)).to(flat.dtype)
            out.append(("result %d: largest element off by 2^-5" % n, bad))
            bad2 = [t.clone() for t in results]
            bad2[n].view(torch.uint8).reshape(bad2[n].shape[0], -1)[7] = 0xFF
            out.append(("result %d: row 7 unwritten (0xFF)" % n, bad2))
    return out


def plan_is_scale(plan, n):
    """Whether result n is written as a quantization's scale."""
    bid = plan.results[n]
    for lau in plan.launches:
        entry = plan.kernels[lau["kernel"]]
        for p, b in zip(entry["params"], lau["args"]):
            if b == bid and p["role"] == "output":
                return entry["op"] != "fp8.scaled_matmul"
    return False


def self_test(args):
    print("check_program self-test (synthetic plan Y = X W^T, blockwise):")
    wrong = 0
    plan = Plan(selftest_manifest([128, 128]), "selftest_fprop")
    gpu_args = selftest_args(args.device)
    good = selftest_results(plan, gpu_args, args)
    failed, checked, _ = check_function(plan, gpu_args, good, "blockwise",
                                        args, quiet=True)
    wrong += expect("the model's own results (%d checks)" % checked, failed,
                    False)
    for label, bad in corruptions(good, plan):
        f, _, _ = check_function(plan, gpu_args, bad, "blockwise", args,
                                 quiet=True)
        wrong += expect(label, f, True)
    y = good[0].clone()
    y[:128], y[128:] = good[0][128:], good[0][:128]
    f, _, _ = check_function(plan, gpu_args, [y] + good[1:], "blockwise",
                             args, quiet=True)
    wrong += expect("result 0: its two halves of rows swapped", f, True)
    # A compiler that quantizes W 1x128 instead of the recipe's 128x128:
    # self-consistent, so (a) passes; (b) knows the recipe.
    plan_w = Plan(selftest_manifest([1, 128]), "selftest_fprop")
    res_w = selftest_results(plan_w, gpu_args, args)
    fa, _, _ = check_function(plan_w, gpu_args, res_w, None, args,
                              quiet=True)
    wrong += expect("W quantized 1x128 (wrong tile), replay (a) only", fa,
                    False)
    fb, _, _ = check_function(plan_w, gpu_args, res_w, "blockwise", args,
                              quiet=True)
    wrong += expect("W quantized 1x128 (wrong tile), with (b)", fb, True)
    # A result that the replay cannot check (it depends on an intermediate
    # GEMM) and no end-to-end check covers is a failure, named.
    unchecked = unchecked_results(
        ["y", "dx"], [Check("y", 1, 0, ""), Check("dx", 1, -1, "")], None)
    wrong += expect("result 1 compared by no rule (%s)" %
                    ", ".join(unchecked), len(unchecked), True)
    wrong += unchecked != ["result 1 (dx)"]
    # The elementwise models' tanh is MLIR's polynomial: within 2^-20 of
    # tanh (float64) on [-10, 10], and 0 outside what bf16 can resolve.
    x = torch.linspace(-10.0, 10.0, 400001, device=args.device)
    err = float((mlir_tanh(x).double() - torch.tanh(x.double())).abs().max())
    print("  %-62s %s" % ("MLIR's tanh polynomial (model) vs tanh: max error "
                          "%s" % cg.log2_text(err),
                          "ok" if err <= 2.0 ** -20 else "<-- WRONG"))
    wrong += err > 2.0 ** -20
    h = torch.randn(4096, device=args.device).clamp(-3, 3).to(torch.bfloat16)
    f = h.double()
    exact = 0.5 * f * (1 + torch.tanh(0.7978846 * (f + 0.044715 * f ** 3)))
    ulps = ((gelu_fwd(h).double() - exact).abs() /
            exact.abs().clamp_min(2.0 ** -126) * 2.0 ** 8).max()
    print("  %-62s %s" % ("gelu_fwd (model) vs float64 GELU: max %.2f bf16 "
                          "ulps" % float(ulps),
                          "ok" if ulps <= 1.0 else "<-- WRONG"))
    wrong += float(ulps) > 1.0
    # The delayed rule: the history's max where positive and finite, the
    # current amax otherwise; the rolled history appends the current amax.
    x = torch.tensor([[1.0, -6.0]], device=args.device)
    cases = [([0.5, 4.0, 2.0], 4.0), ([0.0, 0.0, 0.0], 6.0),
             ([1.0, math.nan, 2.0], 6.0), ([1.0, math.inf, 2.0], 6.0),
             ([-3.0, -1.0, -2.0], 6.0)]
    ok = all(float(delayed_amax(torch.tensor(h, device=args.device)
                                .reshape(3, 1, 1), x)) == want
             for h, want in cases)
    rolled = rolled_history(torch.tensor([1.0, 2.0, 3.0], device=args.device)
                            .reshape(3, 1, 1), x)
    ok = ok and rolled.reshape(-1).tolist() == [2.0, 3.0, 6.0]
    print("  %-62s %s" % ("delayed amax from a history, and its roll "
                          "(%d cases)" % (len(cases) + 1),
                          "ok" if ok else "<-- WRONG"))
    wrong += not ok
    for dump, manifest in zip(args.dumps[0::2], args.dumps[1::2]):
        print("check_program self-test on %s:" % dump)
        plan, gpu_args, gpu_results = run_check(dump, manifest, args)
        f, checked, _ = check_function(plan, gpu_args, gpu_results,
                                       args.recipe, args, quiet=True)
        wrong += expect("the GPU's results (%d checks)" % checked, f, False)
        for label, bad in corruptions(gpu_results, plan):
            f, _, _ = check_function(plan, gpu_args, bad, args.recipe, args,
                                     quiet=True)
            wrong += expect(label, f, True)
    print("self-test %s" % ("passed" if not wrong else
                            "FAILED (%d wrong)" % wrong))
    return 1 if wrong else 0


def main():
    ap = argparse.ArgumentParser(
        description="Check an fp8-run --function dump against its launch "
        "plan (replayed in PyTorch) and against the program's graph.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("dumps", nargs="*", help="DUMP MANIFEST")
    ap.add_argument("--function", default=None,
                    help="the function, where DUMP holds several")
    ap.add_argument("--recipe", default=None,
                    help="the preset the program was quantized with, or "
                    "PRESET+hN with a Hadamard rotation of size N; "
                    "enables the end-to-end check (b)")
    ap.add_argument("--tol", type=float, default=None,
                    help="GEMM tolerance (default 2^-9 promoted, 2^-8 fast)")
    ap.add_argument("--device", default=None,
                    help="torch device (default: cuda if available)")
    ap.add_argument("--max-report", type=int, default=5,
                    help="mismatches printed per result (default 5)")
    ap.add_argument("--no-scaled-mm", dest="scaled_mm", action="store_false",
                    help="no cuBLASLt comparison: every GEMM element within "
                    "the tolerance of the float64 reference")
    ap.add_argument("--self-test", action="store_true",
                    help="show that wrong results are caught")
    args = ap.parse_intermixed_args()
    try:
        import_torch()
    except ImportError:
        print("check_program: PyTorch is not installed", file=sys.stderr)
        return 2
    cq.choose_device(torch, args)
    if len(args.dumps) % 2:
        ap.error("expected DUMP MANIFEST pairs")
    if args.recipe is not None:
        try:
            parse_recipe(args.recipe)
        except BadInput as e:
            ap.error(str(e))
    try:
        if args.self_test:
            return self_test(args)
        if not args.dumps:
            ap.error("no DUMP MANIFEST given")
        failed = 0
        for dump, manifest in zip(args.dumps[0::2], args.dumps[1::2]):
            plan, gpu_args, gpu_results = run_check(dump, manifest, args)
            f, checked, unchecked = check_function(
                plan, gpu_args, gpu_results, args.recipe, args)
            print("function %s: %s" % (plan.name, "ok" if not f else
                                       "FAILED (%d results)" % f))
            failed += f
            if unchecked:
                print("check_program: %s: never compared: %s" %
                      (plan.name, ", ".join(unchecked)), file=sys.stderr)
            if not checked:
                print("check_program: nothing checked", file=sys.stderr)
                return 1
    except (BadInput, OSError, KeyError, ValueError) as e:
        print("check_program: error: %s" % e, file=sys.stderr)
        return 2
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
