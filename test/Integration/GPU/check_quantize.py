#!/usr/bin/env python3
"""Checks the quantization, dequantization, amax, transpose, Hadamard and
scale-alignment kernels fp8-run ran, bit for bit, two ways.

    check_quantize.py DUMP [DUMP ...] [--oracle-elements N] [--device cuda|cpu]
                      [--no-torch] [--max-report K]
    check_quantize.py --self-test [--device cuda|cpu] [DUMP ...]

DUMP is what `fp8-run MANIFEST --dump DIR` wrote: DIR itself (every
subdirectory with a meta.json is one kernel) or one DIR/KERNEL. meta.json holds
the kernel's manifest entry (params, element_type, scaling); NAME.bin holds
each parameter, raw little-endian.

Every kernel with a real-valued (bf16/f16/f32) input and fp8 outputs is
checked, unless its op names more than a quantization (dequantize,
requantize, hadamard, matmul), and so is every "fp8.dequantize",
"fp8.amax", "fp8.transpose", "fp8.hadamard" and "fp8.tma_align_scales"
kernel; the others are listed as skipped.
Each fp8 output and its scale are recomputed from the dumped input by two
independent references (docs/Design.md section 4):

  (a) the plain-Python oracle of the CPU reference, test/Integration/CPU/
      oracle.py: its amax_tiles, tile_scales, fmul, cast_rne_sat,
      cast_stochastic and rand16, exactly as its quantize() uses them. Pure
      Python runs a few microseconds per element, so on large tensors it
      checks a sample: the four corner tiles, the last (partial) tile row
      and column, and random tiles, up to --oracle-elements elements per
      output (default 2^18). A tile larger than that takes its amax from
      torch.amax (an exact max) and casts a sample of its rows.
  (b) PyTorch (torch float8 dtypes), on every element, vectorized on the GPU:
      per-tile amax with torch.amax, scale = fmax / amax as a tensor-tensor
      f32 division (a Python float divided by a tensor would be a reciprocal
      times the float), amax <= fl32(1e-12) -> fl32(fmax / 1e-12), pow2
      rules by integer operations on the f32 bits as in oracle.py, then
      clamp and `.to(torch.float8_e4m3fn)` (RNE); stochastic rounding with
      Philox4x32-10 in int64 arithmetic.

Pairing: a kernel's k-th fp8 output goes with its k-th f32/e8m0 output. An
output of shape [rows, cols] quantizes the input; one of shape [cols, rows]
quantizes the transposed input (fused quantize + transpose: x^T quantized
along its own rows with the same scaling). For a square input, the second
fp8 output of a kernel with two is the transposed one, unless a param says
"transposed": true/false. A param may also carry its own "scaling". An f32
input named *amax* replaces the computed amax.

Stochastic rounding: the entry's "rounding" is "stochastic" ("nearest" when
absent) and the kernel has one i64 input of one element, the seed; element
(row, col) of an output draws oracle.rand16(seed, row * cols + col), the
row-major index over that output (for an untransposed output, over the
input): the low (even i) or high (odd i) half of word (i % 8) // 2 of the
Philox4x32-10 call at counter i // 8, eight consecutive elements per call,
added to the top 16 of the dropped mantissa bits. Any other combination of "rounding" and i64 inputs is bad input.

Dequantization ("op": "fp8.dequantize"): inputs q (f8e4m3/f8e5m2, [R, C])
and scale (f32, or e8m0 when the scaling's scale is e8m0, one per tile of
the entry's "scaling"), one output of q's shape in bf16, f16 or f32:
out = fl32(f32(q) * f32(scale)), then RNE to bf16/f16; E8M0 code c is
2^(c - 127) (code 0 the subnormal 2^-127, 255 NaN). (a) is
oracle.dequantize_ on sampled tiles as above, (b) is PyTorch:
q.view(torch.float8_*).float() * scale, then .to(bf16/f16).

Amax ("op": "fp8.amax"): one bf16/f16/f32 input [R, C], one f32 output of
shape [ceil(R/tr), ceil(C/tc)] for the entry's top-level "tile": [tr, tc]
(-1: the whole extent); output (ti, tj) is the largest |x| of its tile, in
f32 (bf16 and f16 widen exactly), NaN if the tile holds a NaN, +0 for a tile
of zeros. (a) is oracle.amax_tiles on sampled tiles, always over the whole
tile (a partial amax proves nothing, so a tile larger than --oracle-elements
costs its size), (b) is torch.amax of |x| on every tile. NaN matches any NaN.

Transpose ("op": "fp8.transpose"): inputs q (f8e4m3/f8e5m2 [R, C]) and scale
(f32 or e8m0, any 2-D shape [SR, SC]), outputs qt (q's dtype, [C, R]) and
scale_t (scale's dtype, [SC, SR]); the entry's "scaling" (its tile is the
unit the oracle samples q by; its scale must be scale's dtype). A pure data
move: qt must be q's bytes transposed and scale_t scale's bits transposed,
exactly, NaN payloads included. (a) is oracle.transpose on sampled tiles of q
(blocks of 32 x 32 of scale), (b) is PyTorch's .t() on every element.

Hadamard ("op": "fp8.hadamard"): one bf16/f16/f32 input x [R, C] and one
output of its dtype and shape; the entry's "dim" (1: along the rows, 0:
along the columns), "size" n (a power of two dividing C, or R for dim 0)
and "seed" (an integer, or absent for no signs). Every block of n
consecutive elements of a row (dim 1) or of a column (dim 0) is rotated by
the fast Walsh-Hadamard butterfly of docs/Numerics.md: v_j = x_j * s_j (exact;
s_j = -1 iff bit 0 of rand32(seed, j) is set, j within the block; +1
without a seed), then for h = 1, 2, .. n/2 (stride 1 first) every pair
(v_i, v_i+h) with bit h of i clear becomes (fl32(v_i + v_i+h),
fl32(v_i - v_i+h)), then y_i = fl32(v_i * fl32(1/sqrt(n))), RNE to the
dtype. (a) is oracle.hadamard_rows on sampled blocks (n log2 n adds each,
up to 8 * --oracle-elements n * n in all; a column block for dim 0), (b)
is PyTorch: the same stages as vectorized f32 adds and subtracts on every
block (of x^T for dim 0), times fl32(1/sqrt(n)), then .to(dtype). NaN
matches any NaN.

Scale alignment ("op": "fp8.tma_align_scales"): one input scale (f32 or
e8m0, [R, C]) and one output of its dtype, [C, R'] with R' = R rounded up
to 16 bytes (a multiple of 4 for f32, 16 for e8m0): out[j][i] = scale[i][j]
for i < R, and all-zero bits (f32 +0.0, e8m0 code 0) for R <= i < R'. A
pure data move, compared exactly, NaN payloads included; an unwritten
padding element (fp8-run fills outputs with 0xFF) fails. (a) is
oracle.transpose plus the zero padding on sampled 32 x 32 tiles of out (the
last tile column, which holds the padding, always among them), (b) is
PyTorch: zeros, then scale.t() copied into the first R columns, on every
element.

Comparison is exact on the bits, with one exception: NaN. A NaN fp8 code
matches any NaN code (e4m3: 0x7F or 0xFF; e5m2: exponent all ones, mantissa
non-zero), and an f32 NaN scale (or bf16/f16/f32 dequantized value, or f32
amax) matches any NaN of its type (transposes and scale alignments
excepted: they move bits): the hardware writes NaN without its sign (0x7F, and a
canonical NaN from arithmetic) while torch and the oracle keep it (0xFF for
-NaN), and docs/Design.md section 4 only says NaN stays NaN. Such NaN-sign or
payload differences are counted and printed, not failed. E8M0 NaN is the one
code 0xFF, compared exactly. Exit status: 0 when everything matches, 1 on
any mismatch (or when the two references disagree with each other), 2 on
bad input.

`--self-test` checks the torch reference against the oracle on every element
of small tensors with edge values, for every scaling rule, with nearest and
stochastic rounding, for dequantization (every fp8 and E8M0 code, f32
scales 0, inf, NaN, subnormal; f32, bf16 and f16 outputs), for amax (bf16,
f16 and f32 inputs with NaN, inf, -0 and subnormals, every tile shape), for
transposition (every byte, f32 NaN payloads), for Hadamard rotations
(bf16, f16 and f32, sizes 1 .. 256, with and without seeds, NaN, inf - inf,
f32 overflow, -0, subnormals) and for scale alignment (f32 bits with NaN
payloads and -0, every e8m0 code; row counts on, below and above a multiple
of 16 bytes); run it once on a new torch or GPU. `--self-test DUMP ...`
instead shows that a wrong output is caught: for each quantization kernel
of the dumps (which must pass as they are), a copy with one element of one
output changed (the middle element's top byte XOR 0x40, so that no NaN
becomes another NaN) must fail, for every output this script checks (fp8
data and scales; test_check_quantize.py tests the corruption on the CPU).
"""

import argparse
import contextlib
import io
import json
import math
import mmap
import os
import random
import shutil
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "CPU"))
import oracle  # noqa: E402

FORMATS = {"f8e4m3": oracle.E4M3, "f8e5m2": oracle.E5M2}
REAL = ("bf16", "f16", "f32")
SIZES = {"bf16": 2, "f16": 2, "f32": 4, "f8e4m3": 1, "f8e5m2": 1,
         "e8m0": 1, "i64": 8}


class BadInput(Exception):
    pass


# ---------------------------------------------------------------------------
# Raw parameter files, read without torch (for the oracle)
# ---------------------------------------------------------------------------


class Raw:
    """A dumped 2-D parameter, read element by element from its file."""

    def __init__(self, path, dtype, shape):
        self.path, self.dtype, self.shape = path, dtype, list(shape)
        want = SIZES[dtype] * math.prod(shape)
        size = os.path.getsize(path)
        if size != want:
            raise BadInput("%s: %d bytes, expected %d (%s %s)" %
                           (path, size, want, dtype, shape))
        with open(path, "rb") as f:
            self.buf = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) \
                if size else b""

    def _decode(self, offset, count):
        if self.dtype == "bf16":
            # The f32 of bits h << 16, all at once: each bf16 as the high
            # half of a little-endian f32.
            wide = bytearray(4 * count)
            wide[2::4] = self.buf[offset * 2:(offset + count) * 2:2]
            wide[3::4] = self.buf[offset * 2 + 1:(offset + count) * 2:2]
            return list(struct.unpack("<%df" % count, wide))
        if self.dtype == "f16":
            return list(struct.unpack_from("<%de" % count, self.buf, offset * 2))
        if self.dtype == "f32":
            return list(struct.unpack_from("<%df" % count, self.buf, offset * 4))
        if self.dtype == "i64":
            return list(struct.unpack_from("<%dq" % count, self.buf, offset * 8))
        return list(self.buf[offset:offset + count])

    def row(self, i, j0, j1, transposed=False):
        """Elements [i, j0:j1] of this matrix, or of its transpose."""
        cols = self.shape[1]
        if not transposed:
            return self._decode(i * cols + j0, j1 - j0)
        return [self._decode(j * cols + i, 1)[0] for j in range(j0, j1)]

    def f32_bits(self, i, j):
        return struct.unpack_from("<I", self.buf, (i * self.shape[1] + j) * 4)[0]

    def row_bits(self, i, j0, j1):
        """The raw bits of elements [i, j0:j1] (one-byte codes, bf16, f16,
        f32)."""
        size = SIZES[self.dtype]
        return list(struct.unpack_from(
            "<%d%s" % (j1 - j0, {1: "B", 2: "H", 4: "I"}[size]), self.buf,
            (i * self.shape[1] + j0) * size))

    def scalar(self):
        return self._decode(0, 1)[0]


# ---------------------------------------------------------------------------
# What a dumped kernel computes
# ---------------------------------------------------------------------------


class Output:
    """One quantized output: q (fp8 codes) with its scale."""

    def __init__(self, name, q, scale, transposed, scaling, fmt):
        self.name, self.q, self.scale, self.transposed = name, q, scale, transposed
        self.scaling, self.fmt = scaling, fmt


class Dequant:
    """One dequantization: out = q * scale, rounded to out's dtype."""

    def __init__(self, name, q, scale, out, scaling, fmt):
        self.name, self.q, self.scale, self.out = name, q, scale, out
        self.scaling, self.fmt = scaling, fmt


class Amax:
    """One amax reduction: out[ti, tj] = max |x| over tile (ti, tj)."""

    def __init__(self, name, x, out, tile):
        self.name, self.x, self.out, self.tile = name, x, out, tile


class Transpose:
    """One data move: out = src^T bit for bit; the oracle samples src by
    tiles of `tile`."""

    def __init__(self, name, src, out, tile):
        self.name, self.src, self.out, self.tile = name, src, out, tile


class TmaAlign:
    """One scale alignment: out[j][i] = src[i][j] for i < R, zero bits for
    R <= i < R' (the rows of out padded to 16 bytes)."""

    def __init__(self, name, src, out):
        self.name, self.src, self.out = name, src, out


class Hadamard:
    """One rotation: out = x rotated in blocks of n along dim `dim` (1: each
    row, 0: each column)."""

    def __init__(self, name, x, out, n, seed, dim=1):
        self.name, self.x, self.out, self.n, self.seed = name, x, out, n, seed
        self.dim = dim


def _resolve_tile(tile, rows, cols):
    tr = rows if tile[0] == -1 else tile[0]
    tc = cols if tile[1] == -1 else tile[1]
    return tr, tc


def _tile_grid(shape, tile):
    """The shape of the grid of tiles [tr, tc] (-1: the whole extent) over a
    matrix of shape [rows, cols]."""
    if not (isinstance(tile, list) and len(tile) == 2 and
            all(isinstance(t, int) and (t == -1 or t > 0) for t in tile)):
        raise BadInput("tile %r: expected 2 extents, positive or -1" % (tile,))
    rows, cols = shape
    tr, tc = _resolve_tile(tile, rows, cols)
    return [-(-rows // tr), -(-cols // tc)]


def _check_scale_param(sp, scaling, rows, cols):
    """The scale parameter's shape and dtype against the scaling."""
    want = _tile_grid([rows, cols], scaling["tile"])
    if sp["shape"] != want:
        raise BadInput("%s has shape %s; tile %s of a %s matrix gives %s" %
                       (sp["name"], sp["shape"], scaling["tile"],
                        [rows, cols], want))
    _check_scale_dtype(sp, scaling)


def _check_scale_dtype(sp, scaling):
    if (sp["dtype"] == "e8m0") != (scaling["scale"] == "e8m0"):
        raise BadInput("%s is %s but the scaling's scale is %s" %
                       (sp["name"], sp["dtype"], scaling["scale"]))


def _check_element_type(entry, qp):
    et = entry.get("element_type")
    if et is not None and et != qp["dtype"]:
        raise BadInput("element_type %s but %s is %s" %
                       (et, qp["name"], qp["dtype"]))


def _expect_params(op, inputs, outputs, want):
    """The kernel's params matched to `want`, a list of (role, dtypes, what):
    exactly one param of each, in order of `want`; else BadInput."""
    found = []
    for role, dtypes, what in want:
        pool = inputs if role == "input" else outputs
        ps = [p for p in pool if p["dtype"] in dtypes]
        if len(ps) != 1:
            found = None
            break
        found.append(ps[0])
    if found is None or len(inputs) + len(outputs) != len(want):
        raise BadInput("%s: expected %s, found %s" %
                       (op, ", ".join("%s (%s)" % (w[0], w[2]) for w in want),
                        [(p["name"], p["role"], p["dtype"])
                         for p in inputs + outputs]))
    for p in found:
        if len(p["shape"]) != 2:
            raise BadInput("%s: %s has shape %s, expected 2-D" %
                           (op, p["name"], p["shape"]))
    return found


def describe_dequantize(entry, inputs, outputs, raw):
    """fp8.dequantize: (info, [Dequant]) from an fp8 input q, its scale input
    and one bf16/f16/f32 output of q's shape."""
    qp, sp, op = _expect_params("dequantize", inputs, outputs, [
        ("input", FORMATS, "fp8"), ("input", ("f32", "e8m0"), "f32/e8m0"),
        ("output", REAL, "bf16/f16/f32")])
    if op["shape"] != qp["shape"]:
        raise BadInput("dequantize: %s has shape %s, %s has %s (equal)" %
                       (qp["name"], qp["shape"], op["name"], op["shape"]))
    scaling = qp.get("scaling", entry.get("scaling"))
    if scaling is None:
        raise BadInput("no scaling for %s" % qp["name"])
    _check_scale_param(sp, scaling, *qp["shape"])
    _check_element_type(entry, qp)
    q = raw(qp)
    info = dict(kind="dequantize", x=q)
    return info, [Dequant(op["name"], q, raw(sp), raw(op), scaling,
                          FORMATS[qp["dtype"]])]


def describe_amax(entry, inputs, outputs, raw):
    """fp8.amax: (info, [Amax]) from one bf16/f16/f32 input and one f32
    output, one element per tile of the entry's "tile"."""
    xp, op = _expect_params("amax", inputs, outputs, [
        ("input", REAL, "bf16/f16/f32"), ("output", ("f32",), "f32")])
    if "tile" not in entry:
        raise BadInput("amax: no \"tile\" in the entry")
    tile = entry["tile"]
    want = _tile_grid(xp["shape"], tile)
    if op["shape"] != want:
        raise BadInput("%s has shape %s; tile %s of a %s matrix gives %s" %
                       (op["name"], op["shape"], tile, xp["shape"], want))
    x = raw(xp)
    return dict(kind="amax", x=x), [Amax(op["name"], x, raw(op), tile)]


def describe_transpose(entry, inputs, outputs, raw):
    """fp8.transpose: (info, [Transpose of q, Transpose of scale]) from
    inputs q (fp8) and scale (f32/e8m0) and their transposes."""
    qp, sp, qtp, stp = _expect_params("transpose", inputs, outputs, [
        ("input", FORMATS, "fp8"), ("input", ("f32", "e8m0"), "f32/e8m0"),
        ("output", FORMATS, "fp8"), ("output", ("f32", "e8m0"), "f32/e8m0")])
    for src, dst in ((qp, qtp), (sp, stp)):
        if dst["dtype"] != src["dtype"] or dst["shape"] != src["shape"][::-1]:
            raise BadInput("%s is %s %s; the transpose of %s (%s %s) is %s %s"
                           % (dst["name"], dst["dtype"], dst["shape"],
                              src["name"], src["dtype"], src["shape"],
                              src["dtype"], src["shape"][::-1]))
    scaling = qp.get("scaling", entry.get("scaling"))
    if scaling is None:
        raise BadInput("no scaling for %s" % qp["name"])
    _tile_grid(qp["shape"], scaling["tile"])
    _check_scale_dtype(sp, scaling)
    _check_element_type(entry, qp)
    q = raw(qp)
    return dict(kind="transpose", x=q), [
        Transpose(qtp["name"], q, raw(qtp), scaling["tile"]),
        Transpose(stp["name"], raw(sp), raw(stp), [32, 32])]


def tma_aligned_rows(rows, dtype):
    """The row count R' of the col_major_tma layout of R rows of `dtype`
    scales: R rounded up to 16 bytes."""
    per_row = 16 // SIZES[dtype]
    return -(-rows // per_row) * per_row


def describe_tma_align(entry, inputs, outputs, raw):
    """fp8.tma_align_scales: (info, [TmaAlign]) from one f32/e8m0 input
    [R, C] and one output of its dtype [C, R'], R' = R padded to 16 bytes."""
    sp, op = _expect_params("tma_align_scales", inputs, outputs, [
        ("input", ("f32", "e8m0"), "f32/e8m0"),
        ("output", ("f32", "e8m0"), "f32/e8m0")])
    R, C = sp["shape"]
    want = [C, tma_aligned_rows(R, sp["dtype"])]
    if op["dtype"] != sp["dtype"] or op["shape"] != want:
        raise BadInput("tma_align_scales: %s is %s %s; the aligned %s (%s %s) "
                       "is %s %s" % (op["name"], op["dtype"], op["shape"],
                                     sp["name"], sp["dtype"], sp["shape"],
                                     sp["dtype"], want))
    src = raw(sp)
    return dict(kind="tma_align", x=src), [TmaAlign(op["name"], src, raw(op))]


def describe_hadamard(entry, inputs, outputs, raw):
    """fp8.hadamard: (info, [Hadamard]) from one bf16/f16/f32 input and one
    output of its dtype and shape, the entry's "dim" (0 or 1), "size" (a
    power of two dividing that dim) and optional integer "seed"."""
    xp, op = _expect_params("hadamard", inputs, outputs, [
        ("input", REAL, "bf16/f16/f32"), ("output", REAL, "bf16/f16/f32")])
    if op["dtype"] != xp["dtype"] or op["shape"] != xp["shape"]:
        raise BadInput("hadamard: %s is %s %s, %s is %s %s (equal)" %
                       (xp["name"], xp["dtype"], xp["shape"], op["name"],
                        op["dtype"], op["shape"]))
    dim = entry.get("dim")
    if dim not in (0, 1) or isinstance(dim, bool) or len(xp["shape"]) != 2:
        raise BadInput("hadamard: \"dim\" is %r of a %d-D input; expected "
                       "0 or 1 of a matrix" % (dim, len(xp["shape"])))
    n = entry.get("size")
    if not (isinstance(n, int) and not isinstance(n, bool) and n > 0 and
            n & (n - 1) == 0 and xp["shape"][dim] % n == 0):
        raise BadInput("hadamard: \"size\" is %r; expected a power of two "
                       "dividing %d" % (n, xp["shape"][dim]))
    seed = entry.get("seed")
    if seed is not None and (not isinstance(seed, int) or
                             isinstance(seed, bool)):
        raise BadInput("hadamard: \"seed\" is %r; expected an integer"
                       % (seed,))
    x = raw(xp)
    return dict(kind="hadamard", x=x), [Hadamard(op["name"], x, raw(op), n,
                                                 seed, dim)]


# Ops that are not quantizations, by "op".
DESCRIBE = {"fp8.dequantize": describe_dequantize, "fp8.amax": describe_amax,
            "fp8.transpose": describe_transpose,
            "fp8.hadamard": describe_hadamard,
            "fp8.tma_align_scales": describe_tma_align}


def describe_kernel(dump_dir):
    """Returns ((info, outputs), None): info a dict (kind "quantize",
    "dequantize", "amax", "transpose", "hadamard" or "tma_align", x the
    input, ...), outputs a list of Output, Dequant, Amax, Transpose,
    Hadamard or TmaAlign; (None, reason) for kernels it does not check;
    raises BadInput."""
    with open(os.path.join(dump_dir, "meta.json")) as f:
        meta = json.load(f)

    def raw(p):
        return Raw(os.path.join(dump_dir, meta["files"][p["name"]]),
                   p["dtype"], p["shape"])

    return describe_entry(meta["entry"], raw, meta)


def describe_entry(entry, raw, meta=None):
    """describe_kernel of a manifest entry: raw(param) gives each param's
    data (an object with dtype, shape and, for a seed, scalar()), so that
    check_program.py can describe the launches of a plan the same way."""
    params = entry["params"]
    op = entry.get("op", "")
    inputs = [p for p in params if p["role"] == "input"]
    outputs = [p for p in params if p["role"] == "output"]
    if op in DESCRIBE:
        return DESCRIBE[op](entry, inputs, outputs, raw), None
    reals = [p for p in inputs if p["dtype"] in REAL and "amax" not in p["name"]]
    qs = [p for p in outputs if p["dtype"] in FORMATS]
    # An f32 output named *amax* (for delayed scaling) is not a scale.
    scales = [p for p in outputs if p["dtype"] in ("f32", "e8m0")
              and "amax" not in p["name"]]
    # A quantization: a real-valued input and fp8 outputs, and not an op
    # that does more than quantize (a fused Hadamard would fail the check).
    other = [w for w in ("dequantize", "requantize", "hadamard", "matmul")
             if w in op]
    if other or not reals or not qs:
        return None, "%s is not a quantization of a bf16/f16/f32 input" % op
    if len(reals) != 1 or len(reals[0]["shape"]) != 2:
        raise BadInput("expected one 2-D real input, found %s" %
                       [(p["name"], p["shape"]) for p in reals])
    if len(scales) != len(qs):
        raise BadInput("%d fp8 outputs but %d scale outputs" %
                       (len(qs), len(scales)))
    x = raw(reals[0])
    rows, cols = x.shape
    amax = [p for p in inputs if p["dtype"] == "f32" and "amax" in p["name"]]
    # "rounding": "stochastic" reads the seed from an i64 input of one
    # element; absent means nearest.
    rounding = entry.get("rounding", "nearest")
    seeds = [p for p in inputs if p["dtype"] == "i64"]
    if rounding not in ("nearest", "stochastic"):
        raise BadInput("unknown rounding %r" % rounding)
    stochastic = rounding == "stochastic"
    if stochastic != bool(seeds) or len(seeds) > 1 or \
            any(math.prod(p["shape"]) != 1 for p in seeds):
        raise BadInput("rounding %s needs %s, found i64 inputs %s" %
                       (rounding, "one i64 seed input of one element"
                        if stochastic else "no i64 input",
                        [(p["name"], p["shape"]) for p in seeds]))
    seed = raw(seeds[0]).scalar() if seeds else None

    outs = []
    for k, (qp, sp) in enumerate(zip(qs, scales)):
        scaling = qp.get("scaling", entry.get("scaling"))
        if scaling is None:
            raise BadInput("no scaling for %s" % qp["name"])
        if "transposed" in qp:
            transposed = bool(qp["transposed"])
        elif rows != cols:
            if qp["shape"] == [rows, cols]:
                transposed = False
            elif qp["shape"] == [cols, rows]:
                transposed = True
            else:
                raise BadInput("%s has shape %s; the input is %s" %
                               (qp["name"], qp["shape"], x.shape))
        else:
            transposed = len(qs) == 2 and k == 1
        src_rows, src_cols = (cols, rows) if transposed else (rows, cols)
        if qp["shape"] != [src_rows, src_cols]:
            raise BadInput("%s has shape %s, expected %s" %
                           (qp["name"], qp["shape"], [src_rows, src_cols]))
        _check_scale_param(sp, scaling, src_rows, src_cols)
        _check_element_type(entry, qp)
        outs.append(Output(qp["name"], raw(qp), raw(sp), transposed, scaling,
                           FORMATS[qp["dtype"]]))
    amax_raw = None
    if amax:
        amax_raw = raw(amax[0])
        for o in outs:
            if amax_raw.shape != o.scale.shape:
                raise BadInput("amax %s does not match scale %s" %
                               (amax_raw.shape, o.scale.shape))
    info = dict(kind="quantize", meta=meta, x=x, amax=amax_raw, seed=seed,
                stochastic=stochastic, margin=entry.get("margin", 0))
    return (info, outs), None


# ---------------------------------------------------------------------------
# Comparison rules
# ---------------------------------------------------------------------------


def is_nan_code(c, fmt):
    c &= 0x7F
    return c == 0x7F if fmt is oracle.E4M3 else c > 0x7C


def codes_match(a, b, fmt):
    """(equal, nan-sign-or-payload difference only)"""
    if a == b:
        return True, False
    both = is_nan_code(a, fmt) and is_nan_code(b, fmt)
    return both, both


# Real dtypes: (width in bits, bits of +inf).
REAL_BITS = {"f32": (32, 0x7F800000), "bf16": (16, 0x7F80),
             "f16": (16, 0x7C00)}


def bits_match(a, b, dtype="f32"):
    """Raw bits of a bf16/f16/f32: (equal, NaN sign-or-payload difference
    only)."""
    if a == b:
        return True, False
    width, inf = REAL_BITS[dtype]
    magnitude = (1 << (width - 1)) - 1
    both = (a & magnitude) > inf and (b & magnitude) > inf
    return both, both


def f32_bits_match(a, b):
    return bits_match(a, b, "f32")


def f16_bits(x):
    """RNE f32 -> f16 bits (overflow to inf, NaN stays NaN)."""
    try:
        return struct.unpack("<H", struct.pack("<e", x))[0]
    except OverflowError:
        return 0xFC00 if x < 0 else 0x7C00


def real_bits(v, dtype):
    """The bits of f32 value v rounded (RNE) to dtype."""
    if dtype == "bf16":
        return oracle.bf16_bits(v)
    if dtype == "f16":
        return f16_bits(v)
    return oracle.bits(v)


def fmt_real(b, dtype):
    if dtype == "bf16":
        return "0x%04x (%g)" % (b, oracle.from_bits(b << 16))
    if dtype == "f16":
        return "0x%04x (%g)" % (b, struct.unpack("<e", struct.pack("<H", b))[0])
    return fmt_bits(b)


def fmt_code(c, fmt):
    return "0x%02x (%g)" % (c, oracle.fp8_value(c, fmt))


def fmt_bits(b):
    return "0x%08x (%g)" % (b, oracle.from_bits(b))


# ---------------------------------------------------------------------------
# (a) The oracle on sampled tiles
# ---------------------------------------------------------------------------


def sample_tiles(nr, nc, tile_elems, budget, rng):
    """Every tile when they fit in the budget; else the corner tiles, the
    last tile row and column, then random tiles."""
    if nr * nc * tile_elems <= budget:
        return [(i, j) for i in range(nr) for j in range(nc)]
    chosen, seen = [], set()

    def add(t):
        if t not in seen:
            seen.add(t)
            chosen.append(t)

    for t in [(0, 0), (0, nc - 1), (nr - 1, 0), (nr - 1, nc - 1)]:
        add(t)
    edge = [(nr - 1, j) for j in range(nc)] + [(i, nc - 1) for i in range(nr)]
    rng.shuffle(edge)
    for t in edge[:8]:
        add(t)
    limit = max(len(chosen), budget // max(tile_elems, 1))
    tries = 0
    while len(chosen) < min(limit, nr * nc) and tries < 4 * limit:
        add((rng.randrange(nr), rng.randrange(nc)))
        tries += 1
    return chosen


def _tile_rows(r0, r1, c0, c1, budget, rng):
    """The rows of a tile the oracle looks at: all of them, or for a tile
    larger than the budget its first and last and random ones."""
    rows = list(range(r0, r1))
    if (r1 - r0) * (c1 - c0) <= budget:
        return rows
    keep = max(1, budget // max(c1 - c0, 1))
    return sorted(set([r0, r1 - 1] + rng.sample(rows, min(keep, len(rows)))))


def oracle_tile_amax(x, r0, r1, c0, c1, transposed=False, chunk=1 << 16):
    """oracle.amax_tiles over the whole tile x[r0:r1, c0:c1] (of x^T when
    transposed), read in blocks of about `chunk` elements."""
    step = max(1, chunk // max(c1 - c0, 1))
    amax = 0.0
    for i0 in range(r0, r1, step):
        block = [x.row(i, c0, c1, transposed)
                 for i in range(i0, min(r1, i0 + step))]
        tile_amax = oracle.amax_tiles(block, ["*", "*"])[0][0]
        amax = oracle.fmax_nan(amax, tile_amax)
        if math.isnan(amax):  # NaN stays NaN.
            break
    return amax


class OracleResult:
    def __init__(self):
        self.elements = self.tiles = 0
        self.q_mismatch = []
        self.s_mismatch = []
        self.nan_sign = 0
        self.expected = {}  # (i, j) -> code, for comparing with torch
        self.expected_scale = {}  # (ti, tj) -> stored bits or code
        self.torch_amax_tiles = 0


def oracle_check(info, out, budget, rng, torch_amax=None):
    x, fmt, sc = info["x"], out.fmt, out.scaling
    R, C = (x.shape[1], x.shape[0]) if out.transposed else x.shape
    tr, tc = _resolve_tile(sc["tile"], R, C)
    nr, nc = -(-R // tr), -(-C // tc)
    res = OracleResult()
    for ti, tj in sample_tiles(nr, nc, tr * tc, budget, rng):
        r0, r1 = ti * tr, min((ti + 1) * tr, R)
        c0, c1 = tj * tc, min((tj + 1) * tc, C)
        rows = list(range(r0, r1))
        block = None
        if (r1 - r0) * (c1 - c0) <= budget:
            block = [x.row(i, c0, c1, out.transposed) for i in rows]
        if info["amax"] is not None:
            amax = oracle.from_bits(info["amax"].f32_bits(ti, tj))
        elif block is not None:
            amax = oracle.amax_tiles(block, ["*", "*"])[0][0]
        elif torch_amax is not None:
            amax = torch_amax(ti, tj)
            res.torch_amax_tiles += 1
        else:
            amax = oracle_tile_amax(x, r0, r1, c0, c1, out.transposed)
        rows = _tile_rows(r0, r1, c0, c1, budget, rng)
        qscale, dequant, code = oracle.tile_scales(amax, fmt, sc["round"],
                                                   info["margin"])
        # What quantize() stores: the E8M0 code, or the f32 dequant scale.
        if sc["scale"] == "e8m0":
            want = code
            got = out.scale.row(ti, tj, tj + 1)[0]
            ok, nan_only = (want == got), False
        else:
            want = oracle.bits(oracle.f32(dequant))
            got = out.scale.f32_bits(ti, tj)
            ok, nan_only = f32_bits_match(got, want)
        res.expected_scale[(ti, tj)] = want
        res.nan_sign += nan_only
        if not ok:
            res.s_mismatch.append(((ti, tj), got, want, amax))
        res.tiles += 1
        for n, i in enumerate(rows):
            xs = block[n] if block is not None else x.row(i, c0, c1, out.transposed)
            gs = out.q.row(i, c0, c1)
            for j, v, g in zip(range(c0, c1), xs, gs):
                scaled = oracle.fmul(v, qscale)
                if info["stochastic"]:
                    w = oracle.cast_stochastic(
                        scaled, oracle.rand16(info["seed"], i * C + j), fmt)
                else:
                    w = oracle.cast_rne_sat(scaled, fmt)
                res.expected[(i, j)] = w
                ok, nan_only = codes_match(g, w, fmt)
                res.nan_sign += nan_only
                if not ok:
                    res.q_mismatch.append(((i, j), g, w, v, amax))
                res.elements += 1
    return res


def oracle_check_dequant(d, budget, rng):
    """oracle.dequantize_ on sampled tiles of q: res.expected holds the
    expected output bits, res.q_mismatch the mismatches as (position, got,
    expected, q code, scale)."""
    R, C = d.q.shape
    tr, tc = _resolve_tile(d.scaling["tile"], R, C)
    nr, nc = -(-R // tr), -(-C // tc)
    one = oracle.Scaling(["*", "*"], d.scaling["scale"])
    dtype = d.out.dtype
    res = OracleResult()
    for ti, tj in sample_tiles(nr, nc, tr * tc, budget, rng):
        r0, r1 = ti * tr, min((ti + 1) * tr, R)
        c0, c1 = tj * tc, min((tj + 1) * tc, C)
        s = d.scale.row(ti, tj, tj + 1)[0]  # f32 value or E8M0 code
        res.tiles += 1
        for i in _tile_rows(r0, r1, c0, c1, budget, rng):
            qs = d.q.row(i, c0, c1)
            want = oracle.dequantize_([qs], [[s]], d.fmt, one)[0]
            got = d.out.row_bits(i, c0, c1)
            for j, c, v, g in zip(range(c0, c1), qs, want, got):
                w = real_bits(v, dtype)
                res.expected[(i, j)] = w
                ok, nan_only = bits_match(g, w, dtype)
                res.nan_sign += nan_only
                if not ok:
                    res.q_mismatch.append(((i, j), g, w, c, s))
                res.elements += 1
    return res


def oracle_check_amax(a, budget, rng):
    """oracle.amax_tiles on whole sampled tiles of x: res.expected holds the
    expected f32 bits by tile, res.q_mismatch the mismatches as (tile, got,
    expected)."""
    R, C = a.x.shape
    tr, tc = _resolve_tile(a.tile, R, C)
    nr, nc = -(-R // tr), -(-C // tc)
    res = OracleResult()
    for ti, tj in sample_tiles(nr, nc, tr * tc, budget, rng):
        r0, r1 = ti * tr, min((ti + 1) * tr, R)
        c0, c1 = tj * tc, min((tj + 1) * tc, C)
        want = oracle.bits(oracle_tile_amax(a.x, r0, r1, c0, c1))
        got = a.out.f32_bits(ti, tj)
        res.expected[(ti, tj)] = want
        ok, nan_only = f32_bits_match(got, want)
        res.nan_sign += nan_only
        if not ok:
            res.q_mismatch.append(((ti, tj), got, want))
        res.tiles += 1
        res.elements += (r1 - r0) * (c1 - c0)
    return res


def oracle_check_transpose(t, budget, rng):
    """oracle.transpose of the raw bits of sampled tiles of src: res.expected
    holds the expected bits of out, res.q_mismatch the mismatches as
    (position in out, got, expected)."""
    R, C = t.src.shape
    tr, tc = _resolve_tile(t.tile, R, C)
    nr, nc = -(-R // tr), -(-C // tc)
    res = OracleResult()
    for ti, tj in sample_tiles(nr, nc, tr * tc, budget, rng):
        r0, r1 = ti * tr, min((ti + 1) * tr, R)
        c0, c1 = tj * tc, min((tj + 1) * tc, C)
        rows = _tile_rows(r0, r1, c0, c1, budget, rng)
        # Row j of the transposed block is out[j, rows].
        want = oracle.transpose([t.src.row_bits(i, c0, c1) for i in rows])
        res.tiles += 1
        for j, wrow in zip(range(c0, c1), want):
            got = t.out.row_bits(j, r0, r1)
            for i, w in zip(rows, wrow):
                g = got[i - r0]
                res.expected[(j, i)] = w
                if g != w:
                    res.q_mismatch.append(((j, i), g, w))
                res.elements += 1
    return res


def oracle_check_tma_align(t, budget, rng):
    """oracle.transpose of sampled 32 x 32 tiles of out's source, and zero
    bits where out's tile reaches into the padding: res.expected holds the
    expected bits of out, res.q_mismatch the mismatches as (position in out,
    got, expected)."""
    R, C = t.src.shape
    _, RP = t.out.shape
    nr, nc = -(-C // 32), -(-RP // 32)
    res = OracleResult()
    for tj, ti in sample_tiles(nr, nc, 32 * 32, budget, rng):
        j0, j1 = tj * 32, min((tj + 1) * 32, C)
        i0, i1 = ti * 32, min((ti + 1) * 32, RP)
        inside = range(i0, min(i1, R))
        # Row j - j0 of the transposed block is scale[inside, j].
        want = oracle.transpose([t.src.row_bits(i, j0, j1) for i in inside])
        if not inside:
            want = [[] for _ in range(j0, j1)]
        res.tiles += 1
        for j, wrow in zip(range(j0, j1), want):
            wrow = list(wrow) + [0] * (i1 - i0 - len(wrow))
            for i, g, w in zip(range(i0, i1), t.out.row_bits(j, i0, i1), wrow):
                res.expected[(j, i)] = w
                if g != w:
                    res.q_mismatch.append(((j, i), g, w))
                res.elements += 1
    return res


def oracle_check_hadamard(h, budget, rng):
    """oracle.hadamard_rows on sampled blocks (1 x n, or n x 1 for dim 0)
    of x, about n * n multiply-adds each, up to 8 * budget in all:
    res.expected holds the expected output bits, res.q_mismatch the
    mismatches as (position, got, expected, first index of the block along
    dim)."""
    R, C = h.x.shape
    n, dtype = h.n, h.out.dtype
    res = OracleResult()
    # Blocks (line, b): elements b*n .. b*n+n-1 of row `line` (dim 1) or of
    # column `line` (dim 0), read as a row of x or of x^T.
    lines, along = (R, C) if h.dim == 1 else (C, R)
    blocks = sample_tiles(lines, along // n, n * n, 8 * budget, rng)
    transposed = h.dim == 0
    # One call, so that the signed matrix is built once.
    want = oracle.hadamard_rows([h.x.row(i, b * n, (b + 1) * n, transposed)
                                 for i, b in blocks], n, h.seed)
    for (i, b), wrow in zip(blocks, want):
        c0 = b * n
        if transposed:
            got = [h.out.row_bits(r, i, i + 1)[0] for r in range(c0, c0 + n)]
            where = [(r, i) for r in range(c0, c0 + n)]
        else:
            got = h.out.row_bits(i, c0, c0 + n)
            where = [(i, j) for j in range(c0, c0 + n)]
        for pos, v, g in zip(where, wrow, got):
            w = real_bits(v, dtype)
            res.expected[pos] = w
            ok, nan_only = bits_match(g, w, dtype)
            res.nan_sign += nan_only
            if not ok:
                res.q_mismatch.append((pos, g, w, c0))
            res.elements += 1
        res.tiles += 1
    return res


# ---------------------------------------------------------------------------
# (b) PyTorch on every element
# ---------------------------------------------------------------------------

torch = None


def import_torch():
    global torch
    import torch as t
    torch = t


U32 = 0xFFFFFFFF


def _mulhilo(m, c):
    """(hi, lo) 32-bit halves of m * c for a constant m < 2^32 and an int64
    tensor c of values < 2^32, without overflowing int64."""
    ch, cl = c >> 16, c & 0xFFFF
    a = ch * m  # < 2^48
    low = ((a & 0xFFFF) << 16) + cl * m  # < 2^49
    return (a >> 16) + (low >> 32), low & U32


def torch_philox(seed, counter):
    """The four words of the Philox4x32-10 calls at an int64 tensor of
    counters (>= 0) under seed."""
    seed &= (1 << 64) - 1
    k0, k1 = seed & U32, seed >> 32
    c0, c1 = counter & U32, counter >> 32
    c2 = torch.zeros_like(counter)
    c3 = torch.zeros_like(counter)
    for r in range(10):
        if r:
            k0, k1 = (k0 + oracle.W0) & U32, (k1 + oracle.W1) & U32
        hi0, lo0 = _mulhilo(oracle.M0, c0)
        hi1, lo1 = _mulhilo(oracle.M1, c2)
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
    return c0, c1, c2, c3


def _pick_word(words, word):
    c0, c1, c2, c3 = words
    return torch.where(word == 0, c0, torch.where(
        word == 1, c1, torch.where(word == 2, c2, c3)))


def torch_rand32(seed, index):
    """oracle.rand32 on an int64 tensor of element indices (>= 0): word
    index % 4 of the Philox call at counter index // 4 (Hadamard signs)."""
    return _pick_word(torch_philox(seed, index >> 2), index & 3)


def torch_rand16(seed, index):
    """oracle.rand16 on an int64 tensor of element indices (>= 0): half
    index % 2 (low first) of word (index % 8) // 2 of the Philox call at
    counter index // 8 (stochastic rounding)."""
    word = _pick_word(torch_philox(seed, index >> 3), (index >> 1) & 3)
    return (word >> ((index & 1) * 16)) & 0xFFFF


def torch_cast_stochastic(v, r, fmt):
    """oracle.cast_stochastic on f32 tensor v with random bits r (int64; its
    low 16 bits are used)."""
    B = 23 - fmt.m
    b = v.view(torch.int32).to(torch.int64) & U32
    s = (b >> 24) & 0x80
    a = b & 0x7FFFFFFF
    R = (r & 0xFFFF) << (B - 16)
    normal = (((a + R) >> B) - ((127 - fmt.bias) << fmt.m)) & 0xFF
    F = torch.floor(v.abs().to(torch.float64) * 2.0 ** (23 - fmt.emin)).to(torch.int64)
    sub = ((F + R) >> B) & 0xFF
    code = torch.where((a >> 23) >= 127 + fmt.emin, normal, sub)
    code = torch.where(a >= oracle.bits(fmt.fmax), fmt.maxcode, code)
    code = torch.where(a > 0x7F800000, 0x7F, code)
    return (code | s).to(torch.uint8)


def _f32_from_bits(bits_i64):
    return bits_i64.to(torch.int32).view(torch.float32)


def torch_e8m0_to_f32(code):
    """oracle.e8m0_to_f32 on an int64 tensor of codes: 2^(code - 127) from
    its bits (code 0 is the f32 subnormal 0x00400000), 255 is NaN."""
    dbits = torch.where(code == 0, 0x00400000, code << 23)
    dbits = torch.where(code == 0xFF, 0x7FC00000, dbits)
    return _f32_from_bits(dbits)


def torch_bits(t):
    """The raw bits of a uint8 (fp8/e8m0 codes), bf16, f16 or f32 tensor as
    non-negative int64."""
    if t.element_size() == 1:
        return t.view(torch.uint8).to(torch.int64)
    if t.element_size() == 2:
        return t.view(torch.int16).to(torch.int64) & 0xFFFF
    return t.view(torch.int32).to(torch.int64) & U32


def torch_tile_scales(amax, fmt, round_mode, margin):
    """oracle.tile_scales on an f32 tensor of tile amaxes:
    (qscale f32, dequant scale f32, E8M0 code as int64 or None)."""
    if round_mode == "exact":
        scaled_max = fmt.fmax / 2.0 ** margin
        # Tensor / tensor: an IEEE f32 division on every device.
        q = torch.full_like(amax, scaled_max) / amax
        tiny = torch.full_like(amax, oracle.f32(scaled_max / 1e-12))
        q = torch.where(amax <= oracle.EPS_F32, tiny, q)
        return q, torch.ones_like(q) / q, None
    if round_mode == "pow2_ceil":
        d = amax * torch.full_like(amax, oracle.f32(1.0 / fmt.fmax))
        d = d * torch.full_like(amax, 2.0 ** margin)
        b = d.view(torch.int32).to(torch.int64) & U32
        e, m = (b >> 23) & 0xFF, b & 0x7FFFFF
        bump = (m > 0) & (e != 0xFE) & ~((e == 0) & (m <= 0x400000))
        code = e + bump.to(torch.int64)
        code = torch.where(d == 0, 0, code)
        code = torch.where(torch.isinf(d), 0xFE, code)
        code = torch.where(torch.isnan(d), 0xFF, code)
    else:
        e = (amax.view(torch.int32).to(torch.int64) >> 23) & 0xFF
        code = torch.clamp(e - fmt.emax + margin, 0, 254)
        code = torch.where(torch.isnan(amax), 0xFF, code)
    # 2^(127 - code) and 2^(code - 127) from their bits; 2^-127 is the f32
    # subnormal 0x00400000.
    qbits = torch.where(code == 254, 0x00400000, (254 - code).clamp(min=0) << 23)
    qbits = torch.where(code == 0xFF, 0x7FC00000, qbits)
    return _f32_from_bits(qbits), torch_e8m0_to_f32(code), code


def torch_tile_amax(x, tile):
    """max |x| over each tile of a 2-D f32 tensor (NaN propagates)."""
    R, C = x.shape
    tr, tc = _resolve_tile(tile, R, C)
    nr, nc = -(-R // tr), -(-C // tc)
    # Zero padding leaves every amax as it is (|x| >= 0, oracle starts its
    # max at 0).
    xp = torch.nn.functional.pad(x, (0, nc * tc - C, 0, nr * tr - R))
    return xp.view(nr, tr, nc, tc).abs().amax(dim=(1, 3))


def torch_quantize(x, fmt, scaling, margin=0, amax=None, seed=None,
                   stochastic=False, chunk_rows=2048):
    """docs/Design.md section 4 on a 2-D f32 tensor x: (codes uint8, stored scale:
    f32 tensor or uint8 E8M0 codes, tile amax f32)."""
    R, C = x.shape
    tr, tc = _resolve_tile(scaling["tile"], R, C)
    if amax is None:
        amax = torch_tile_amax(x, scaling["tile"])
    qscale, dequant, code = torch_tile_scales(amax, fmt, scaling["round"], margin)
    stored = code.to(torch.uint8) if scaling["scale"] == "e8m0" else dequant
    dtype = torch.float8_e4m3fn if fmt is oracle.E4M3 else torch.float8_e5m2
    out = torch.empty((R, C), dtype=torch.uint8, device=x.device)
    cols = torch.arange(C, device=x.device)
    col_tile = cols // tc
    for r0 in range(0, R, chunk_rows):
        r1 = min(R, r0 + chunk_rows)
        rows = torch.arange(r0, r1, device=x.device)
        qs = qscale[rows // tr][:, col_tile]
        v = x[r0:r1] * qs
        if stochastic:
            index = rows[:, None].to(torch.int64) * C + cols[None, :]
            out[r0:r1] = torch_cast_stochastic(v, torch_rand16(seed, index), fmt)
        else:
            v = torch.clamp(v, -fmt.fmax, fmt.fmax)
            out[r0:r1] = v.to(dtype).view(torch.uint8)
    return out, stored, amax


TORCH_REAL = {"bf16": "bfloat16", "f16": "float16", "f32": "float32"}


def torch_fp8_to_f32(q, fmt):
    """uint8 codes -> f32 through PyTorch's float8 dtypes (exact)."""
    dtype = torch.float8_e4m3fn if fmt is oracle.E4M3 else torch.float8_e5m2
    return q.view(dtype).float()


def torch_dequantize(q, scale, fmt, scaling, out_dtype, chunk_rows=2048):
    """docs/Design.md section 4's dequantize on uint8 codes q [R, C] with their
    tile scales (f32, or uint8 E8M0 codes): f32(q) * f32(scale) in f32, then
    .to(out_dtype) (RNE) for bf16/f16."""
    R, C = q.shape
    tr, tc = _resolve_tile(scaling["tile"], R, C)
    if scaling["scale"] == "e8m0":
        scale = torch_e8m0_to_f32(scale.to(torch.int64))
    dtype = getattr(torch, TORCH_REAL[out_dtype])
    out = torch.empty((R, C), dtype=dtype, device=q.device)
    col_tile = torch.arange(C, device=q.device) // tc
    for r0 in range(0, R, chunk_rows):
        r1 = min(R, r0 + chunk_rows)
        rows = torch.arange(r0, r1, device=q.device)
        v = torch_fp8_to_f32(q[r0:r1], fmt) * scale[rows // tr][:, col_tile]
        out[r0:r1] = v.to(dtype)
    return out


def torch_hadamard_signs(n, seed, device):
    """s_j as an f32 tensor: -1 where bit 0 of rand32(seed, j) is set
    (torch_rand32, not the oracle's), +1 elsewhere and without a seed."""
    if seed is None:
        return torch.ones(n, dtype=torch.float32, device=device)
    idx = torch.arange(n, dtype=torch.int64, device=device)
    return torch.where(torch_rand32(seed, idx) & 1 == 1, -1.0, 1.0).to(
        torch.float32)


def torch_hadamard(x, n, seed, out_dtype, chunk_rows=2048, dim=1):
    """The rotation of a 2-D f32 tensor x in blocks of n along its rows
    (dim 1) or columns (dim 0: that of x^T, transposed back; every block is
    rotated on its own, so the order of the elements in memory does not
    matter), the butterfly of docs/Numerics.md: x * s (exact), then for h =
    1, 2, .. n/2 the pairs (i, i + h) with bit h of i clear become (a + b,
    a - b) (one vectorized f32 add and subtract per stage), times
    fl32(1/sqrt(n)), then .to(out_dtype) (RNE)."""
    if dim == 0:
        return torch_hadamard(x.t().contiguous(), n, seed, out_dtype,
                              chunk_rows).t().contiguous()
    R, C = x.shape
    s = torch_hadamard_signs(n, seed, x.device)
    norm = (1.0 / torch.tensor(float(n), dtype=torch.float64).sqrt()).to(
        torch.float32).item()
    dtype = getattr(torch, TORCH_REAL[out_dtype])
    out = torch.empty((R, C), dtype=dtype, device=x.device)
    for r0 in range(0, R, chunk_rows):
        r1 = min(R, r0 + chunk_rows)
        blocks = (r1 - r0) * (C // n)
        v = x[r0:r1].reshape(blocks, n) * s
        h = 1
        while h < n:
            pairs = v.reshape(blocks, n // (2 * h), 2, h)
            a, b = pairs[:, :, 0, :], pairs[:, :, 1, :]
            v = torch.stack((a + b, a - b), dim=2).reshape(blocks, n)
            h *= 2
        v = v * torch.full_like(v, norm)
        out[r0:r1] = v.reshape(r1 - r0, C).to(dtype)
    return out


def load_tensor(raw, device):
    tdt = {"bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
           "f8e4m3": torch.uint8, "f8e5m2": torch.uint8, "e8m0": torch.uint8,
           "i64": torch.int64}[raw.dtype]
    data = bytearray(raw.buf[:]) if len(raw.buf) else bytearray()
    t = torch.frombuffer(data, dtype=tdt) if data else torch.empty(0, dtype=tdt)
    return t.reshape(raw.shape).to(device)


class TorchResult:
    def __init__(self):
        self.q_bad = self.s_bad = self.nan_sign = 0
        self.q_first, self.s_first = [], []
        self.q = self.scale = self.amax = None


def nan_code_mask(c, fmt):
    c = c & 0x7F
    return c == 0x7F if fmt is oracle.E4M3 else c > 0x7C


def torch_compare(got, want, max_report, nan_any=True, extra=lambda i, j: ()):
    """got against want on every element's bits (NaN matching any NaN when
    nan_any): res.q holds want's bits, res.q_first the first mismatches as
    (position, got, expected) + extra(i, j)."""
    gb, wb = torch_bits(got), torch_bits(want)
    res = TorchResult()
    res.q = wb
    bad = gb != wb
    if nan_any:
        both_nan = torch.isnan(got) & torch.isnan(want)
        res.nan_sign = int((bad & both_nan).sum())
        bad &= ~both_nan
    res.q_bad = int(bad.sum())
    for i, j in bad.nonzero()[:max_report].tolist():
        res.q_first.append(((i, j), int(gb[i, j]), int(wb[i, j])) +
                           extra(i, j))
    return res


def torch_check_dequant(d, device, max_report):
    """torch_dequantize against the dumped output on every element."""
    q = load_tensor(d.q, device)
    scale = load_tensor(d.scale, device)
    want = torch_dequantize(q, scale, d.fmt, d.scaling, d.out.dtype)
    tr, tc = _resolve_tile(d.scaling["tile"], *d.q.shape)
    return torch_compare(load_tensor(d.out, device), want, max_report,
                         extra=lambda i, j: (int(q[i, j]),
                                             scale[i // tr, j // tc].item()))


def torch_check_amax(a, device, max_report):
    """torch_tile_amax of every tile against the dumped amax."""
    want = torch_tile_amax(load_tensor(a.x, device).float(), a.tile)
    return torch_compare(load_tensor(a.out, device), want, max_report)


def torch_check_transpose(t, device, max_report):
    """src.t() against the dumped output, every element's bits exactly."""
    want = load_tensor(t.src, device).t()
    return torch_compare(load_tensor(t.out, device), want, max_report,
                         nan_any=False)


def torch_tma_align(src, padded_rows):
    """The col_major_tma layout of a 2-D tensor src [R, C]: zeros [C, R'],
    then src.t() in the first R columns (a copy: every bit moves)."""
    out = torch.zeros((src.shape[1], padded_rows), dtype=src.dtype,
                      device=src.device)
    out[:, :src.shape[0]] = src.t()
    return out


def torch_check_tma_align(t, device, max_report):
    """torch_tma_align against the dumped output, every element's bits
    exactly."""
    want = torch_tma_align(load_tensor(t.src, device), t.out.shape[1])
    return torch_compare(load_tensor(t.out, device), want, max_report,
                         nan_any=False)


def torch_check_hadamard(h, device, max_report):
    """torch_hadamard against the dumped output on every element."""
    want = torch_hadamard(load_tensor(h.x, device).float(), h.n, h.seed,
                          h.out.dtype, dim=h.dim)
    return torch_compare(load_tensor(h.out, device), want, max_report,
                         extra=lambda i, j: ((i, j)[h.dim] -
                                             (i, j)[h.dim] % h.n,))


def torch_check(info, out, device, max_report):
    x = load_tensor(info["x"], device).float()
    if out.transposed:
        x = x.t().contiguous()
    amax = load_tensor(info["amax"], device) if info["amax"] is not None else None
    q, stored, amax = torch_quantize(x, out.fmt, out.scaling, info["margin"],
                                     amax, info["seed"], info["stochastic"])
    res = TorchResult()
    res.q, res.amax = q, amax
    gq = load_tensor(out.q, device)
    same = gq == q
    both_nan = nan_code_mask(gq, out.fmt) & nan_code_mask(q, out.fmt)
    res.nan_sign += int((~same & both_nan).sum())
    bad = ~(same | both_nan)
    res.q_bad = int(bad.sum())
    if res.q_bad:
        for i, j in bad.nonzero()[:max_report].tolist():
            tr, tc = _resolve_tile(out.scaling["tile"], *x.shape)
            res.q_first.append(((i, j), int(gq[i, j]), int(q[i, j]),
                                float(x[i, j]), float(amax[i // tr, j // tc])))
    gs = load_tensor(out.scale, device)
    if out.scaling["scale"] == "e8m0":
        bad = gs != stored
        want_bits = stored.to(torch.int64)
        got_bits = gs.to(torch.int64)
    else:
        gsf = gs.view(torch.float32) if gs.dtype != torch.float32 else gs
        got_bits = gsf.view(torch.int32).to(torch.int64) & U32
        want_bits = stored.view(torch.int32).to(torch.int64) & U32
        both = torch.isnan(gsf) & torch.isnan(stored)
        res.nan_sign += int(((got_bits != want_bits) & both).sum())
        bad = (got_bits != want_bits) & ~both
    res.scale = want_bits
    res.s_bad = int(bad.sum())
    for ti, tj in bad.nonzero()[:max_report].tolist():
        res.s_first.append(((ti, tj), int(got_bits[ti, tj]),
                            int(want_bits[ti, tj]), float(amax[ti, tj])))
    return res


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def kernel_dirs(paths):
    dirs = []
    for p in paths:
        if os.path.isfile(os.path.join(p, "meta.json")):
            dirs.append(p)
            continue
        subs = sorted(d for d in (os.listdir(p) if os.path.isdir(p) else [])
                      if os.path.isfile(os.path.join(p, d, "meta.json")))
        if not subs:
            raise BadInput("%s: no meta.json in it or its subdirectories "
                           "(is it an fp8-run --dump directory?)" % p)
        dirs += [os.path.join(p, d) for d in subs]
    return dirs


def show_code_mismatches(label, rows, fmt):
    for (i, j), got, want, v, amax in rows:
        print("    %s [%d, %d]: gpu %s, expected %s; x = %s, tile amax %s" %
              (label, i, j, fmt_code(got, fmt), fmt_code(want, fmt),
               fmt_bits(oracle.bits(v)), fmt_bits(oracle.bits(amax))))


def show_scale_mismatches(label, rows, e8m0):
    for (ti, tj), got, want, amax in rows:
        shown = (lambda c: "%d" % c) if e8m0 else fmt_bits
        print("    %s [%d, %d]: gpu %s, expected %s; tile amax %s" %
              (label, ti, tj, shown(got), shown(want),
               fmt_bits(oracle.bits(amax))))


def show_dequant_mismatches(label, rows, d):
    e8m0 = d.scaling["scale"] == "e8m0"
    for (i, j), got, want, c, s in rows:
        scale = ("%d (%g)" % (s, oracle.e8m0_to_f32(s)) if e8m0
                 else fmt_bits(oracle.bits(s)))
        print("    %s [%d, %d]: gpu %s, expected %s; q %s, scale %s" %
              (label, i, j, fmt_real(got, d.out.dtype),
               fmt_real(want, d.out.dtype), fmt_code(c, d.fmt), scale))


def show_amax_mismatches(label, rows, a):
    R, C = a.x.shape
    tr, tc = _resolve_tile(a.tile, R, C)
    for (ti, tj), got, want in rows:
        print("    %s [%d, %d]: gpu %s, expected %s; x[%d:%d, %d:%d]" %
              (label, ti, tj, fmt_bits(got), fmt_bits(want), ti * tr,
               min((ti + 1) * tr, R), tj * tc, min((tj + 1) * tc, C)))


def fmt_any(b, dtype):
    """Raw bits b of a dtype, with their value."""
    if dtype in FORMATS:
        return fmt_code(b, FORMATS[dtype])
    if dtype == "e8m0":
        return "%d (%g)" % (b, oracle.e8m0_to_f32(b))
    return fmt_real(b, dtype)


def show_transpose_mismatches(label, rows, t):
    src = os.path.basename(t.src.path)[:-4]
    for (i, j), got, want in rows:
        print("    %s [%d, %d]: gpu %s, expected %s = %s[%d, %d]" %
              (label, i, j, fmt_any(got, t.out.dtype),
               fmt_any(want, t.out.dtype), src, j, i))


def show_tma_align_mismatches(label, rows, t):
    src = os.path.basename(t.src.path)[:-4]
    R = t.src.shape[0]
    for (j, i), got, want in rows:
        print("    %s [%d, %d]: gpu %s, expected %s = %s" %
              (label, j, i, fmt_any(got, t.out.dtype),
               fmt_any(want, t.out.dtype),
               "%s[%d, %d]" % (src, i, j) if i < R else "padding"))


def show_hadamard_mismatches(label, rows, h):
    src = os.path.basename(h.x.path)[:-4]
    for (i, j), got, want, c0 in rows:
        block = ("%s[%d, %d:%d]" % (src, i, c0, c0 + h.n) if h.dim == 1 else
                 "%s[%d:%d, %d]" % (src, c0, c0 + h.n, j))
        print("    %s [%d, %d]: gpu %s, expected %s; block %s, "
              "x[%d, %d] = %s" %
              (label, i, j, fmt_real(got, h.out.dtype),
               fmt_real(want, h.out.dtype), block, i, j,
               fmt_real(h.x.row_bits(i, j, j + 1)[0], h.x.dtype)))


def references_disagree(table, ref, same):
    """[(position, oracle, torch)] where the oracle's table {(i, j): value}
    and the torch tensor ref differ, by same(oracle, torch)."""
    if not table:
        return []
    keys = list(table)
    ii = torch.tensor([k[0] for k in keys], device=ref.device)
    jj = torch.tensor([k[1] for k in keys], device=ref.device)
    return [(k, table[k], t) for k, t in zip(keys, ref[ii, jj].tolist())
            if not same(table[k], t)]


def report_disagreement(disagree, args):
    if disagree:
        print("    REFERENCES DISAGREE at %d sampled places (oracle, "
              "torch): %s" % (len(disagree), disagree[:args.max_report]))
    return len(disagree)


def report_checks(torch_check, torch_what, oracle_check, elements, show,
                  same, args):
    """Runs and prints the torch check (torch_check() -> TorchResult over
    torch_what, e.g. "N elements") and the oracle's (oracle_check() ->
    OracleResult; `elements` is the size of what it samples) of one output,
    with show(mismatches) and same(oracle, torch) for their disagreement;
    returns the number of failures."""
    failures = 0
    tres = None
    if torch is not None:
        tres = torch_check()
        print("    torch:  %s, %d mismatches" % (torch_what, tres.q_bad))
        show(tres.q_first)
        failures += tres.q_bad
    ores = oracle_check()
    print("    oracle: %d elements (%s) in %d tiles, %d mismatches" %
          (ores.elements, "all" if ores.elements == elements else "sampled",
           ores.tiles, len(ores.q_mismatch)))
    show(ores.q_mismatch[:args.max_report])
    failures += len(ores.q_mismatch)
    if tres is not None:
        failures += report_disagreement(
            references_disagree(ores.expected, tres.q, same), args)
    nan_sign = ores.nan_sign + (tres.nan_sign if tres else 0)
    if nan_sign:
        print("    %d NaNs differ only in sign or payload (accepted)" %
              nan_sign)
    return failures


def check_dequant_output(info, d, args, rng):
    """Prints the comparison of one dequantization; returns the number of
    failures."""
    R, C = d.q.shape
    print("  %s = dequantize(%s %s, %s %s) %s, tile %s" %
          (d.name, os.path.basename(d.q.path)[:-4], d.q.dtype,
           os.path.basename(d.scale.path)[:-4], d.scale.dtype, d.out.dtype,
           d.scaling["tile"]))
    return report_checks(
        lambda: torch_check_dequant(d, args.device, args.max_report),
        "%d elements" % (R * C),
        lambda: oracle_check_dequant(d, args.oracle_elements, rng), R * C,
        lambda rows: show_dequant_mismatches("out", rows, d),
        lambda a, b: bits_match(a, b, d.out.dtype)[0], args)


def check_amax_output(info, a, args, rng):
    """Prints the comparison of one amax reduction; returns the number of
    failures."""
    R, C = a.x.shape
    print("  %s = amax(%s %s) f32, tile %s" %
          (a.name, os.path.basename(a.x.path)[:-4], a.x.dtype, a.tile))
    return report_checks(
        lambda: torch_check_amax(a, args.device, args.max_report),
        "%d tiles (%d elements)" % (math.prod(a.out.shape), R * C),
        lambda: oracle_check_amax(a, args.oracle_elements, rng), R * C,
        lambda rows: show_amax_mismatches(a.name, rows, a),
        lambda x, y: f32_bits_match(x, y)[0], args)


def check_transpose_output(info, t, args, rng):
    """Prints the comparison of one transposition; returns the number of
    failures."""
    R, C = t.src.shape
    print("  %s = transpose(%s %s), bit for bit" %
          (t.name, os.path.basename(t.src.path)[:-4], t.src.dtype))
    return report_checks(
        lambda: torch_check_transpose(t, args.device, args.max_report),
        "%d elements" % (R * C),
        lambda: oracle_check_transpose(t, args.oracle_elements, rng), R * C,
        lambda rows: show_transpose_mismatches(t.name, rows, t),
        lambda x, y: x == y, args)


def check_tma_align_output(info, t, args, rng):
    """Prints the comparison of one scale alignment; returns the number of
    failures."""
    R, C = t.src.shape
    print("  %s = tma_align_scales(%s %s) [%d, %d], bit for bit" %
          (t.name, os.path.basename(t.src.path)[:-4], t.src.dtype,
           t.out.shape[0], t.out.shape[1]))
    return report_checks(
        lambda: torch_check_tma_align(t, args.device, args.max_report),
        "%d elements" % math.prod(t.out.shape),
        lambda: oracle_check_tma_align(t, args.oracle_elements, rng),
        math.prod(t.out.shape),
        lambda rows: show_tma_align_mismatches(t.name, rows, t),
        lambda x, y: x == y, args)


def check_hadamard_output(info, h, args, rng):
    """Prints the comparison of one Hadamard rotation; returns the number of
    failures."""
    R, C = h.x.shape
    print("  %s = hadamard(%s %s) %s, dim %d, size %d, %s" %
          (h.name, os.path.basename(h.x.path)[:-4], h.x.dtype, h.out.dtype,
           h.dim, h.n,
           "seed %d" % h.seed if h.seed is not None else "no signs"))
    return report_checks(
        lambda: torch_check_hadamard(h, args.device, args.max_report),
        "%d elements" % (R * C),
        lambda: oracle_check_hadamard(h, args.oracle_elements, rng), R * C,
        lambda rows: show_hadamard_mismatches("out", rows, h),
        lambda a, b: bits_match(a, b, h.out.dtype)[0], args)


def check_output(info, out, args, rng):
    """Prints the comparison of one output; returns the number of failures."""
    R, C = out.q.shape
    sc = out.scaling
    what = "x^T" if out.transposed else "x"
    print("  %s, %s = quantize(%s) %s, tile %s, scale %s, round %s%s" %
          (out.name, out.scale.path and os.path.basename(out.scale.path)[:-4],
           what, out.q.dtype, sc["tile"], sc["scale"],
           sc["round"], ", stochastic (seed 0x%016x)" %
           (info["seed"] & (2 ** 64 - 1))
           if info["stochastic"] else ""))
    failures = 0
    tres = None
    torch_amax = None
    if torch is not None:
        tres = torch_check(info, out, args.device, args.max_report)
        print("    torch:  %d elements, %d q mismatches; %d scales, %d "
              "mismatches" % (R * C, tres.q_bad, tres.scale.numel(), tres.s_bad))
        show_code_mismatches("q", tres.q_first, out.fmt)
        show_scale_mismatches("scale", tres.s_first, sc["scale"] == "e8m0")
        failures += tres.q_bad + tres.s_bad
        amax_cpu = tres.amax.cpu()
        torch_amax = lambda ti, tj: float(amax_cpu[ti, tj])

    ores = oracle_check(info, out, args.oracle_elements, rng, torch_amax)
    sampled = "all" if ores.elements == R * C else "sampled"
    print("    oracle: %d elements (%s) in %d tiles, %d q mismatches; %d "
          "scale mismatches%s" %
          (ores.elements, sampled, ores.tiles, len(ores.q_mismatch),
           len(ores.s_mismatch),
           "; amax of %d huge tiles from torch" % ores.torch_amax_tiles
           if ores.torch_amax_tiles else ""))
    show_code_mismatches("q", ores.q_mismatch[:args.max_report], out.fmt)
    show_scale_mismatches("scale", ores.s_mismatch[:args.max_report],
                          sc["scale"] == "e8m0")
    failures += len(ores.q_mismatch) + len(ores.s_mismatch)

    if tres is not None:
        # The two references must agree wherever both ran.
        disagree = []
        for table, ref, same in (
                (ores.expected, tres.q,
                 lambda a, b: codes_match(a, b, out.fmt)[0]),
                (ores.expected_scale, tres.scale,
                 (lambda a, b: f32_bits_match(a, b)[0]) if sc["scale"] == "f32"
                 else (lambda a, b: a == b))):
            disagree += references_disagree(table, ref, same)
        failures += report_disagreement(disagree, args)
    nan_sign = ores.nan_sign + (tres.nan_sign if tres else 0)
    if nan_sign:
        print("    %d NaN codes differ only in sign or payload (accepted)" %
              nan_sign)
    return failures


def check_dump(path, args):
    described, why = describe_kernel(path)
    with open(os.path.join(path, "meta.json")) as f:
        meta = json.load(f)
    name = meta.get("kernel", os.path.basename(path))
    if described is None:
        print("kernel %s: skipped (%s)" % (name, why))
        return None
    info, outs = described
    print("kernel %s (%s): input %s %s, inputs %s, device %s" %
          (name, meta["entry"].get("op"), info["x"].dtype, info["x"].shape,
           meta.get("inputs"), meta.get("device")))
    rng = random.Random(args.sample_seed)
    check = {"quantize": check_output, "dequantize": check_dequant_output,
             "amax": check_amax_output,
             "transpose": check_transpose_output,
             "hadamard": check_hadamard_output,
             "tma_align": check_tma_align_output}[info["kind"]]
    failures = 0
    for out in outs:
        failures += check(info, out, args, rng)
    print("  %s" % ("ok" if not failures else "FAILED (%d)" % failures))
    return failures


# ---------------------------------------------------------------------------
# Self test: the torch reference against the oracle on every element
# ---------------------------------------------------------------------------


def checked_outputs(entry):
    """The outputs of a quantization's manifest entry that check_dump
    compares (describe_entry's fp8 data and scales; not an *amax* output,
    which delayed scaling's checks own)."""
    return [p for p in entry["params"] if p["role"] == "output" and
            (p["dtype"] in FORMATS or (p["dtype"] in ("f32", "e8m0") and
                                       "amax" not in p["name"]))]


def self_test_dumps(args):
    """Each quantization kernel of args.dumps passes as dumped, and fails
    with any one of its outputs corrupted in one element (in a copy).
    Returns the exit status."""
    wrong = checked = 0
    for d in kernel_dirs(args.dumps):
        described, _ = describe_kernel(d)
        if described is None or described[0]["kind"] != "quantize":
            continue
        with open(os.path.join(d, "meta.json")) as f:
            meta = json.load(f)
        name = meta.get("kernel", os.path.basename(d))
        with contextlib.redirect_stdout(io.StringIO()):
            good = check_dump(d, args)
        print("  %-60s %s" % ("kernel %s as dumped" % name,
                              "passes" if not good else "FAILS  <-- WRONG"))
        wrong += bool(good)
        for p in checked_outputs(meta["entry"]):
            size = SIZES[p["dtype"]]
            with tempfile.TemporaryDirectory() as tmp:
                copy = os.path.join(tmp, os.path.basename(d))
                shutil.copytree(d, copy)
                path = os.path.join(copy, meta["files"][p["name"]])
                with open(path, "rb") as f:
                    data = bytearray(f.read())
                if len(data) < size:
                    continue
                # The middle element's most significant byte (little
                # endian): bit 6 of it turns any NaN code finite.
                data[(len(data) // size // 2) * size + size - 1] ^= 0x40
                with open(path, "wb") as f:
                    f.write(data)
                with contextlib.redirect_stdout(io.StringIO()):
                    caught = check_dump(copy, args)
            checked += 1
            print("  %-60s %s" % ("kernel %s: one element of %s changed" %
                                  (name, p["name"]),
                                  "caught" if caught else
                                  "passes  <-- WRONG"))
            wrong += not caught
    if not checked:
        print("self-test: no quantization kernel in %s" % args.dumps,
              file=sys.stderr)
        return 1
    print("self-test on dumps: %d corrupted outputs, %s" %
          (checked, "all caught" if not wrong else "%d WRONG" % wrong))
    return 1 if wrong else 0


def self_test(args):
    """torch_quantize against oracle.quantize itself on every element."""
    rng = random.Random(1)
    R, C = 136, 160  # Partial edge tiles for 128 (136 = 128 + 8) and 32.
    # f32 values (the oracle computes on Python floats, torch on f32).
    edge = [oracle.f32(v) for v in (
        0.0, -0.0, 1.0, -1.0, 448.0, 449.0, 464.0, 57344.0, 61440.0, 1e-30,
        -1e-40, oracle.from_bits(1), 3e38, math.inf, -math.inf,
        oracle.from_bits(0x2B8CBCCC), oracle.from_bits(0x2B8CBCCD))]

    def matrix(specials):
        m = [[oracle.f32(rng.gauss(0, 1) * 2.0 ** rng.randint(-8, 8))
              for _ in range(C)] for _ in range(R)]
        for i in range(R):  # Zero rows and tiny rows (the 1e-12 rule).
            if i % 37 == 5:
                m[i] = [0.0] * C
            if i % 37 == 11:
                m[i] = [oracle.f32(v * 1e-14) for v in m[i]]
        if specials:
            for v in edge + [math.nan, -math.nan]:
                m[rng.randrange(R)][rng.randrange(C)] = v
        return m

    cases = []
    for fmt in (oracle.E4M3, oracle.E5M2):
        for tile in ([1, 128], [128, 1], [128, 128], [1, 32], [1, -1],
                     [-1, 1], [-1, -1]):
            for scale, rnd in oracle.SCALE_RULES:
                cases.append((fmt, tile, scale, rnd, None, 0))
        cases.append((fmt, [1, 32], "f32", "exact", 0x0123456789ABCDEF, 0))
        cases.append((fmt, [-1, -1], "f32", "exact", 7, 0))
        # MX with stochastic rounding; a seed of 2^63 or more, as a dump's
        # i64 reads it (negative).
        cases.append((fmt, [1, 32], "e8m0", "pow2_ceil", -0x220FF8D8AFC09BFE,
                      0))
        cases.append((fmt, [1, -1], "e8m0", "pow2_ceil", None, 2))
        cases.append((fmt, [1, 128], "f32", "exact", None, 1))
    failures = 0
    for fmt, tile, scale, rnd, seed, margin in cases:
        for specials in (False, True):
            m = matrix(specials)
            sc = {"tile": tile, "scale": scale, "round": rnd}
            x = torch.tensor(m, dtype=torch.float32, device=args.device)
            q, stored, _ = torch_quantize(x, fmt, sc, margin, None, seed,
                                          seed is not None, chunk_rows=50)
            want_q, want_s = oracle.quantize(
                m, fmt, oracle.Scaling(["*" if t == -1 else t for t in tile],
                                       scale, rnd), margin=margin, seed=seed)
            # NaNs made by arithmetic (inf * 0) carry the sign the machine
            # gives them, so NaN matches NaN here too.
            bad = sum(not codes_match(a, b, fmt)[0]
                      for ra, rb in zip(q.cpu().tolist(), want_q)
                      for a, b in zip(ra, rb))
            got_s = (stored.to(torch.int64) if scale == "e8m0" else
                     stored.view(torch.int32).to(torch.int64) & U32)
            for rg, rw in zip(got_s.cpu().tolist(), want_s):
                for g, w in zip(rg, rw):
                    bad += (g != w if scale == "e8m0" else
                            not f32_bits_match(g, oracle.bits(oracle.f32(w)))[0])
            if bad:
                print("self-test %s tile %s %s %s%s%s%s: %d mismatches" %
                      (fmt.name, tile, scale, rnd,
                       " seed %d" % seed if seed is not None else "",
                       " margin %d" % margin if margin else "",
                       " specials" if specials else "", bad))
            failures += bad
    count = 2 * len(cases)
    for test in (self_test_dequantize, self_test_amax, self_test_transpose,
                 self_test_hadamard, self_test_tma_align):
        n, bad = test(args)
        count += n
        failures += bad
    print("self-test: %d cases, %s" % (count, "ok" if not failures
                                       else "%d mismatches" % failures))
    return 1 if failures else 0


def self_test_dequantize(args):
    """torch_dequantize against oracle.dequantize_ on every element: every
    fp8 code, E8M0 codes 0 .. 255 and f32 scales with edge values (0, inf,
    NaN, subnormal, huge). Returns (cases, mismatches)."""
    rng = random.Random(2)
    R, C = 136, 160
    q = [[rng.randrange(256) for _ in range(C)] for _ in range(R)]
    for n in range(256):  # Every code at least once.
        q[n // C][n % C] = n
    f32_edge = [0.0, -0.0, math.inf, -math.inf, math.nan, 3e38,
                oracle.from_bits(1), oracle.from_bits(0x00400000), 1e-30]
    cases = failures = 0
    for fmt in (oracle.E4M3, oracle.E5M2):
        for tile in ([1, 32], [1, 128], [128, 1], [128, 128], [-1, -1]):
            tr, tc = _resolve_tile(tile, R, C)
            nr, nc = -(-R // tr), -(-C // tc)
            for scale in ("f32", "e8m0"):
                if scale == "e8m0":
                    # The extremes first, then every code where there are
                    # enough tiles.
                    codes = [0, 1, 254, 255, 127] + list(range(256))
                    s = [[codes[(i * nc + j) % len(codes)] for j in range(nc)]
                         for i in range(nr)]
                    st = torch.tensor(s, dtype=torch.uint8)
                else:
                    s = [[oracle.f32(rng.gauss(0, 1) * 2.0 ** rng.randint(-40, 40))
                          for _ in range(nc)] for _ in range(nr)]
                    for n, v in enumerate(f32_edge[:nr * nc - 1]):
                        s[(n + 1) // nc][(n + 1) % nc] = v
                    st = torch.tensor(s, dtype=torch.float32)
                sc = {"tile": tile, "scale": scale, "round": "exact"}
                want = oracle.dequantize_(
                    q, s, fmt, oracle.Scaling(["*" if t == -1 else t
                                               for t in tile], scale))
                for out_dtype in REAL:
                    got = torch_dequantize(
                        torch.tensor(q, dtype=torch.uint8).to(args.device),
                        st.to(args.device), fmt, sc, out_dtype, chunk_rows=50)
                    bad = sum(not bits_match(g, real_bits(w, out_dtype),
                                             out_dtype)[0]
                              for rg, rw in zip(torch_bits(got).cpu().tolist(),
                                                want)
                              for g, w in zip(rg, rw))
                    if bad:
                        print("self-test dequantize %s tile %s %s -> %s: %d "
                              "mismatches" % (fmt.name, tile, scale,
                                              out_dtype, bad))
                    cases += 1
                    failures += bad
    return cases, failures


def self_test_amax(args):
    """torch_tile_amax against oracle.amax_tiles on every tile: bf16, f16
    and f32 inputs with NaN (either sign), inf, -0, subnormals and huge
    values, a tile of zeros and -0s. Returns (cases, mismatches)."""
    rng = random.Random(3)
    R, C = 136, 160
    m = [[oracle.f32(rng.gauss(0, 1) * 2.0 ** rng.randint(-30, 30))
          for _ in range(C)] for _ in range(R)]
    m[3] = [-0.0, 0.0] * (C // 2)
    for v in (math.nan, -math.nan, math.nan, math.inf, -math.inf, 3e38,
              -3.3e38, oracle.from_bits(1), -oracle.from_bits(0x00400000)):
        m[rng.randrange(R)][rng.randrange(C)] = v
    m[R - 1][C - 1] = math.nan  # In the partial corner tile.
    to = {"f32": lambda v: v,
          "bf16": lambda v: oracle.from_bits(oracle.bf16_bits(v) << 16)
          if not math.isnan(v) else v,
          "f16": lambda v: struct.unpack("<e", struct.pack(
              "<H", f16_bits(v)))[0] if not math.isnan(v) else v}
    cases = failures = 0
    for dtype in REAL:
        md = [[to[dtype](v) for v in r] for r in m]
        x = torch.tensor(md, dtype=torch.float32).to(
            getattr(torch, TORCH_REAL[dtype])).to(args.device)
        for tile in ([1, 128], [128, 1], [128, 128], [1, 32], [1, -1],
                     [-1, 1], [-1, -1], [3, 7]):
            got = torch_bits(torch_tile_amax(x.float(), tile)).cpu().tolist()
            want = oracle.amax_tiles(md, ["*" if t == -1 else t for t in tile])
            bad = sum(not f32_bits_match(g, oracle.bits(w))[0]
                      for rg, rw in zip(got, want) for g, w in zip(rg, rw))
            if bad:
                print("self-test amax %s tile %s: %d mismatches" %
                      (dtype, tile, bad))
            cases += 1
            failures += bad
    return cases, failures


def self_test_transpose(args):
    """torch's transpose of raw bits against oracle.transpose: every byte
    and f32 bits with NaN payloads of both signs. Returns (cases,
    mismatches)."""
    rng = random.Random(4)
    R, C = 136, 160
    codes = [[(i * C + j) % 256 for j in range(C)] for i in range(R)]
    words = [[rng.getrandbits(32) for _ in range(C)] for _ in range(R)]
    for n, b in enumerate((0x7F800001, 0xFFC12345, 0x7FFFFFFF, 0xFF800000,
                           0x80000000, 0x00000001)):
        words[n][n] = b
    cases = failures = 0
    for m, dtype in ((codes, torch.uint8), (words, torch.float32)):
        t = torch.tensor([[v - (1 << 32) if v >> 31 else v for v in r]
                          for r in m], dtype=torch.int64)
        t = t.to(torch.uint8 if dtype is torch.uint8 else torch.int32)
        t = t.view(dtype).to(args.device)
        got = torch_bits(t.t()).cpu().tolist()
        bad = sum(g != w for rg, rw in zip(got, oracle.transpose(m))
                  for g, w in zip(rg, rw))
        if bad:
            print("self-test transpose %s: %d mismatches" % (dtype, bad))
        cases += 1
        failures += bad
    return cases, failures


def self_test_tma_align(args):
    """torch_tma_align against oracle.tma_align on every element: f32 bits
    (random, NaN payloads of both signs, -0, inf) and every e8m0 code, with
    row counts on, below and above a multiple of 16 bytes. Returns (cases,
    mismatches)."""
    rng = random.Random(6)
    cases = failures = 0
    for dtype, tdtype, rows_list in (
            ("f32", torch.float32, (1, 3, 4, 5, 130)),
            ("e8m0", torch.uint8, (1, 15, 16, 17, 40))):
        for R in rows_list:
            C = 7
            if dtype == "f32":
                m = [[rng.getrandbits(32) for _ in range(C)] for _ in range(R)]
                specials = (0x7F800001, 0xFFC12345, 0x80000000, 0x7F800000)
            else:
                m = [[(i * C + j) % 256 for j in range(C)] for i in range(R)]
                specials = (0xFF, 0x00)
            for n, b in enumerate(specials):
                m[n % R][n % C] = b
            t = torch.tensor([[v - (1 << 32) if v >> 31 else v for v in r]
                              for r in m], dtype=torch.int64)
            t = t.to(torch.uint8 if tdtype is torch.uint8 else torch.int32)
            t = t.view(tdtype).to(args.device)
            padded = tma_aligned_rows(R, dtype)
            got = torch_bits(torch_tma_align(t, padded)).cpu().tolist()
            want = oracle.tma_align(m, 16 // SIZES[dtype])
            bad = (len(got) != len(want) or
                   any(len(rg) != len(rw) for rg, rw in zip(got, want)) or
                   sum(g != w for rg, rw in zip(got, want)
                       for g, w in zip(rg, rw)))
            if bad:
                print("self-test tma_align_scales %s %d rows: %d mismatches"
                      % (dtype, R, bad))
            cases += 1
            failures += bad
    return cases, failures


def self_test_hadamard(args):
    """torch_hadamard against oracle.hadamard_rows on every element, along
    dim 1 and (on x^T) dim 0: bf16,
    f16 and f32 inputs and outputs, sizes 1 .. 256, without and with seeds
    (one of 2^63 or more, as an i64 reads it), with NaN, inf (and inf - inf
    in one block), sums that overflow f32, -0 and subnormals. Returns (cases,
    mismatches)."""
    rng = random.Random(5)
    R, C = 6, 512
    m = [[oracle.f32(rng.gauss(0, 1) * 2.0 ** rng.randint(-20, 20))
          for _ in range(C)] for _ in range(R)]
    m[1][:C // 2] = [-0.0] * (C // 2)  # Blocks of -0.
    m[2][:C // 2] = [oracle.f32(v * 2.0 ** -140) for v in m[2][:C // 2]]
    m[3][:C // 2] = [3e38 if k % 2 else -3.2e38 for k in range(C // 2)]
    for j, v in ((5, math.nan), (40, -math.nan), (70, math.inf),
                 (300, math.inf), (301, -math.inf), (420, -math.inf),
                 (257, oracle.from_bits(1))):
        m[4][j] = v
    cases = failures = 0
    for dtype in REAL:
        to = {"f32": lambda v: v,
              "bf16": lambda v: oracle.from_bits(oracle.bf16_bits(v) << 16),
              "f16": lambda v: struct.unpack("<e", struct.pack(
                  "<H", f16_bits(v)))[0]}[dtype]
        md = [[v if math.isnan(v) else to(v) for v in r] for r in m]
        x = torch.tensor(md, dtype=torch.float32).to(
            getattr(torch, TORCH_REAL[dtype])).to(args.device)
        for n, seed in ((1, 3), (2, None), (16, None), (16, 1), (32, 7),
                        (128, -0x220FF8D8AFC09BFE), (256, None),
                        (256, 0x0123456789ABCDEF)):
            got = torch_bits(torch_hadamard(x.float(), n, seed, dtype,
                                            chunk_rows=4)).cpu().tolist()
            # Along dim 0 of x^T: the same blocks, transposed back.
            got_t = torch_bits(torch_hadamard(
                x.t().contiguous().float(), n, seed, dtype, chunk_rows=4,
                dim=0).t()).cpu().tolist()
            want = oracle.hadamard_rows(md, n, seed)
            bad = sum(not bits_match(g, real_bits(w, dtype), dtype)[0]
                      for rg, rw in zip(got, want) for g, w in zip(rg, rw))
            bad += sum(not bits_match(g, real_bits(w, dtype), dtype)[0]
                       for rg, rw in zip(got_t, want) for g, w in zip(rg, rw))
            if bad:
                print("self-test hadamard %s size %d seed %s: %d mismatches"
                      % (dtype, n, seed, bad))
            cases += 1
            failures += bad
    return cases, failures


def main():
    ap = argparse.ArgumentParser(
        description="Check fp8-run dumps of quantization kernels bit for bit "
        "against oracle.py and PyTorch.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("dumps", nargs="*", help="fp8-run --dump directories")
    ap.add_argument("--oracle-elements", type=int, default=1 << 18,
                    help="elements per output the Python oracle checks "
                    "(default 2^18; tensors at most this big are checked whole)")
    ap.add_argument("--sample-seed", type=int, default=0,
                    help="seed of the oracle's tile sample")
    ap.add_argument("--device", default=None,
                    help="torch device (default: cuda if available, else cpu)")
    ap.add_argument("--no-torch", action="store_true",
                    help="check against the oracle alone (where PyTorch is "
                    "missing; not a full check)")
    ap.add_argument("--max-report", type=int, default=5,
                    help="mismatches printed per output (default 5)")
    ap.add_argument("--self-test", action="store_true",
                    help="compare the torch reference with the oracle")
    args = ap.parse_args()
    if not args.no_torch:
        try:
            import_torch()
        except ImportError:
            print("check_quantize: PyTorch is not installed; --no-torch "
                  "checks against the oracle alone", file=sys.stderr)
            return 2
        choose_device(torch, args)
    if args.self_test:
        if torch is None:
            print("check_quantize: --self-test needs PyTorch", file=sys.stderr)
            return 2
        if args.dumps:
            try:
                return self_test_dumps(args)
            except (BadInput, OSError, KeyError, ValueError) as e:
                print("check_quantize: error: %s" % e, file=sys.stderr)
                return 2
        return self_test(args)
    if not args.dumps:
        ap.error("no dump directory given")
    return run_checks("check_quantize", "kernel it checks", args.dumps,
                      lambda d: check_dump(d, args))


def choose_device(torch_module, args):
    """args.device, or CUDA where there is one (else the CPU), printed with
    the torch version."""
    if args.device is None:
        args.device = "cuda" if torch_module.cuda.is_available() else "cpu"
    print("torch %s on %s" % (torch_module.__version__, args.device if
                              args.device == "cpu" else
                              torch_module.cuda.get_device_name(args.device)))


def run_checks(tool, what, dumps, check):
    """Runs `check` (None: skipped, else True on failure) on every kernel
    directory of `dumps`, prints the tally and returns the exit status: 0
    all passed, 1 a failure or nothing checked, 2 unreadable input."""
    try:
        results = [check(d) for d in kernel_dirs(dumps)]
    except (BadInput, OSError, KeyError, ValueError) as e:
        print("%s: error: %s" % (tool, e), file=sys.stderr)
        return 2
    checked = [r for r in results if r is not None]
    failed = sum(1 for r in checked if r)
    skipped = len(results) - len(checked)
    print("%d passed, %d failed" % (len(checked) - failed, failed) +
          (", %d skipped" % skipped if skipped else ""))
    if not checked:
        print("%s: no %s in %s" % (tool, what, dumps), file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
