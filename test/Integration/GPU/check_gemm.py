#!/usr/bin/env python3
"""Checks the fp8.scaled_matmul (and grouped) kernels fp8-run ran, two ways.

    check_gemm.py DUMP [DUMP ...] [--tol T] [--device cuda|cpu]
                  [--no-scaled-mm] [--max-report K]
    check_gemm.py --self-test [--device cuda|cpu]

DUMP is what `fp8-run MANIFEST --dump DIR` wrote: DIR itself (every
subdirectory with a meta.json is one kernel) or one DIR/KERNEL. A
"linalg.matmul" kernel with a "matmul" object (a matmul kept in high
precision: bf16/f16 operands as stored, "contracting" 1 K-major or 0
MN-major per operand, f32 accumulation) is compared with the float64
product at hp_tolerance(K). An "fp8.grouped_scaled_matmul" kernel is
checked group by group (Grouped kernels, below). Kernels of any other op
are listed as skipped (check_quantize.py checks those).

What a kernel computes. The entry's "matmul" gives m, n, k, "contracting"
(only [1, 1] is checked: A is M x K and B is N x K, both row-major with K
contiguous, C = A . B^T), "accumulate" ("promoted" or "fast"),
"a_scaling" and "b_scaling" (tile, scale f32 or e8m0, round) and
"out_dtype" (bf16, f16 or f32). The params: the first fp8 input is A
(f8e4m3/f8e5m2, [M, K]), the second B ([N, K]); the first f32/e8m0 input
is A's scale, the second B's, each of shape [ceil(rows/tr), ceil(K/tc)]
for its tile [tr, tc] (-1: the whole extent); one output C [M, N] of
out_dtype. Params of role "tensormap" are not data and are ignored. Scales
are dequantization scales:
    C[m, n] = sum_k sa(m, k) sb(n, k) a[m, k] b[n, k],
    sa(m, k) = a_scale[m // tr][k // tc]
with E8M0 code c meaning 2^(c - 127) (255: NaN).

  (a) The reference: A and B decoded exactly (torch's float8 dtypes, or a
      table of oracle.fp8_value where torch has none), the scales expanded to
      every element, then ref = (A.SA) @ (B.SB)^T and
      bound = |A.SA| @ |B.SB|^T in float64 (every product is exact there, and
      the sums are far more precise than what is checked). Every element
      must satisfy
          |c - ref| <= tol . bound . (1 + u) + u . |ref| + tiny
      where u is the output's rounding (2^-8 bf16, 2^-11 f16, 0 f32), and
      tiny covers f32 underflow (2^-126 per 32-deep K-step). tol is 2^-9 for
      "promoted" and 2^-8 for "fast": the f32 reference semantics
      (docs/Numerics.md) would pass a tol of K . 2^-24, but Hopper's FP8
      wgmma does not sum a 128-deep K-block in f32; its accumulator keeps
      about 13 fraction bits and truncates, so each promoted block carries a
      relative error near 2^-13 of its absolute sum, and "fast" keeps that
      accumulator across all of K. On the H200, cuBLASLt (torch._scaled_mm)
      itself reached 2^-10.4 on a 4096 x 1984 x 256 rowwise case (and 2^-11.2
      on others), hence 2^-9: twice the worst seen. The max of |c - ref| - u|ref| over bound
      is printed as the observed tol, so the tolerance can be tightened
      from measurements (--tol overrides it). A NaN in C where ref is
      finite fails (fp8-run fills outputs with 0xFF bytes, so an element
      never written is NaN); where ref is not finite (NaN or inf inputs)
      C must not be finite either; an infinite C passes where |ref| is
      within the tolerance of the output's largest finite value.
  (b) torch._scaled_mm (cuBLASLt, or CUTLASS for some rowwise cases) with
      the same operands, scales, output type and use_fast_accum = (accumulate
      == "fast"), where PyTorch takes the scaling: tensorwise (a one-element
      scale each), rowwise (scale_a [M, 1], scale_b [1, N]), or blockwise
      1x128 x 128x128, 1x128 x 1x128, 128x128 x 1x128 (cuBLAS 12.9+ on
      sm_90: an 1x128 scale is [rows, K/128] outer-dim-major, i.e.
      stride (1, rows), a 128x128 scale [rows/128, K/128] row-major; B's
      is passed transposed like B, since _scaled_mm computes a @ b with b
      K x N column-major, which is our B^T; K is zero-padded to a multiple
      of 512 there, since cuBLASLt reads a 128x128 scale's rows as if
      padded to 4 K-blocks while torch passes them unpadded, and M to a
      multiple of 16, which its blockwise kernels need). A scaling that
      is a coarsening
      of one of these (tensorwise against rowwise, rowwise against blockwise,
      any tile whose K extent is a multiple of 128) is expanded to it
      exactly; E8M0 scales become the f32 powers of two they stand for.
      Anything else (MXFP8's 1x32 blocks, which _scaled_mm takes only
      swizzled and on sm_100; e5m2 x e5m2; shapes not multiples of 16) is
      reported as skipped with the reason. Its result must be within
      tolerance of ref like C ("references disagree" otherwise: a wrong
      assumption here, not a kernel bug), and |c - torch| within twice
      C's allowance; both max ratios are printed.

Grouped kernels (fp8.grouped_scaled_matmul, mixture of experts): G scaled
matmuls, each of a group of A's rows with its expert's weights. The
params: a [M, K] fp8 (every group's rows in one matrix), a_scale as the op
stores it, b [G*N, K] fp8 (the G experts' [N, K] one after another),
b_scale [G, N', K'] (each expert's scales for b_scaling's tile, row-major),
group_rows [G] i32 (its "group_rows" key gives the layout and the bound on
its values), c [M, N] (bf16 or f32), and tensormaps. "matmul" is as above
(scale layouts row_major, but for a_scale_layout col_major_tma of a
contiguous A) with "groups": {"count": G, "layout", "capacity"}:
  contiguous: a_scale is [M', K'] over all of A (or its col_major_tma
      form [K', M rounded up to 16 bytes]); group g has rows
      [group_rows[g-1], group_rows[g]) (from 0 for g = 0), each bound
      clamped to [0, M] and no end before its start (the op requires
      group_rows non-decreasing and at most M; other values are flagged on
      the kernel's line, the kernel's result then being undefined);
  masked: M = G * capacity and a_scale is [G, capacity', K'], each block
      of capacity rows a matrix of its own; group g has the first
      clamp(group_rows[g], 0, capacity) rows of block g.
Each group with rows is checked as an fp8.scaled_matmul of its rows of A
(with their scales: a scale tile of several rows that starts before the
group is repeated per row, which is exact) and expert g's B and scales, by
(a) and (b) above at the same tolerance (torch._scaled_mm per group, where
it takes the group's shape and scaling; a group it skips is named); the
summary merges the groups, with positions in all of C. Every element of a
row of no group must be exactly 0 (either sign; NaN, i.e. never written,
fails). The kernel's line gives G, the layout and each group's row count
as read from group_rows.

Exit status: 0 when every checked kernel passes, 1 on any failure (or if no
kernel was checked), 2 on bad input or a missing PyTorch.

`--self-test` checks the reference itself on small random cases built in
torch: against a naive Python loop in float64 (math.fsum) for every scaling
shape (tensorwise, rowwise, blockwise 1x128 / 128x128, MXFP8 1x32 with E8M0,
partial K-blocks), that the f32 semantics of oracle.scaled_matmul pass the
tolerance, that a perturbed, NaN or unwritten output fails, a whole dump
directory written and checked through the same code as a real one, grouped
kernels' dumps (contiguous with an empty group and rows of no group, masked
with an empty and a full group; C from oracle.grouped_scaled_matmul) that
must pass and, corrupted (a wrong element in a group, a nonzero or NaN in a
row of no group, a group computed with the next expert), fail, the fp8
decoding of every code, and (on a GPU) torch._scaled_mm's scale layouts
for every scaling it takes. Run it once on a new torch or GPU.
"""

import argparse
import json
import math
import os
import random
import struct
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import check_quantize as cq  # noqa: E402

oracle = cq.oracle
BadInput = cq.BadInput

FP8 = ("f8e4m3", "f8e5m2")
FORMATS = {"f8e4m3": oracle.E4M3, "f8e5m2": oracle.E5M2}
OUT_DTYPES = ("bf16", "f16", "f32")
# Relative rounding of the output type (RNE: half an ulp of a p-bit
# significand), the smallest subnormal, and the largest finite value.
OUT_ROUNDING = {"bf16": 2.0 ** -8, "f16": 2.0 ** -11, "f32": 0.0}
OUT_TINY = {"bf16": 2.0 ** -133, "f16": 2.0 ** -24, "f32": 2.0 ** -149}
F32_MAX = 3.4028234663852886e38
OUT_MAX = {"bf16": 3.3895313892515355e38, "f16": 65504.0, "f32": F32_MAX}
TOL = {"promoted": 2.0 ** -9, "fast": 2.0 ** -8}

torch = None


def import_torch():
    global torch
    cq.import_torch()
    torch = cq.torch


# ---------------------------------------------------------------------------
# What a dumped kernel computes
# ---------------------------------------------------------------------------


class Gemm:
    """One fp8.scaled_matmul kernel's operands (cq.Raw each) and matmul
    description."""

    def __init__(self, a, a_scale, a_scaling, b, b_scale, b_scaling, c,
                 accumulate, a_scale_layout="row_major",
                 b_scale_layout="row_major"):
        self.a, self.a_scale, self.a_scaling = a, a_scale, a_scaling
        self.b, self.b_scale, self.b_scaling = b, b_scale, b_scaling
        self.c, self.accumulate = c, accumulate
        self.a_scale_layout, self.b_scale_layout = a_scale_layout, \
            b_scale_layout
        self.m, self.k = a.shape
        self.n = b.shape[0]


SCALE_LAYOUTS = ("row_major", "col_major_tma")


def tma_aligned_shape(row_major_shape, dtype):
    """The col_major_tma shape of a [R, C] scale: [C, R rounded up to 16
    bytes]."""
    r, c = row_major_shape
    per16 = 16 // cq.SIZES[dtype]
    return [c, (r + per16 - 1) // per16 * per16]


def check_scale_layout_param(sp, scaling, rows, cols, layout):
    """Like cq._check_scale_param, for either layout."""
    if layout == "row_major":
        return cq._check_scale_param(sp, scaling, rows, cols)
    want = tma_aligned_shape(cq._tile_grid([rows, cols], scaling["tile"]),
                             sp["dtype"])
    if sp["shape"] != want:
        raise BadInput("%s has shape %s; the col_major_tma layout of tile %s "
                       "of a %s matrix gives %s" %
                       (sp["name"], sp["shape"], scaling["tile"],
                        [rows, cols], want))
    cq._check_scale_dtype(sp, scaling)


def scale_as_row_major(scale, layout, rows):
    """A loaded scale tensor in row-major order: a col_major_tma one is
    transposed back and its padding dropped."""
    if layout == "row_major":
        return scale
    return scale[:, :rows].t().contiguous()


def _check_scaling(sc, what):
    if not isinstance(sc, dict) or any(key not in sc for key in
                                       ("tile", "scale")):
        raise BadInput("matmul.%s: expected an object with tile and scale, "
                       "found %r" % (what, sc))
    if sc["scale"] not in ("f32", "e8m0"):
        raise BadInput("matmul.%s.scale: %r (expected f32 or e8m0)" %
                       (what, sc["scale"]))


def check_matmul_object(entry, op, more_keys, forms):
    """The entry's "matmul" object and its accumulate mode, checked for
    what both scaled GEMMs have (`more_keys` too); raises BadInput."""
    mm = entry.get("matmul")
    if not isinstance(mm, dict):
        raise BadInput("%s without a \"matmul\" object" % op)
    for key in ("m", "n", "k", "a_scaling", "b_scaling", "out_dtype") + \
            tuple(more_keys):
        if key not in mm:
            raise BadInput("matmul: missing %r" % key)
    if mm.get("contracting", [1, 1]) != [1, 1]:
        raise BadInput("matmul.contracting %r: only [1, 1] (%s) is checked" %
                       (mm["contracting"], forms))
    accumulate = mm.get("accumulate", "promoted")
    if accumulate not in TOL:
        raise BadInput("matmul.accumulate %r (expected promoted or fast)" %
                       (accumulate,))
    _check_scaling(mm["a_scaling"], "a_scaling")
    _check_scaling(mm["b_scaling"], "b_scaling")
    if mm["out_dtype"] not in OUT_DTYPES:
        raise BadInput("matmul.out_dtype %r (expected bf16, f16 or f32)" %
                       (mm["out_dtype"],))
    return mm, accumulate


def describe_gemm(entry, raw):
    """A Gemm from a manifest entry (raw(param) opens a param's file);
    raises BadInput on anything inconsistent."""
    mm, accumulate = check_matmul_object(entry, "fp8.scaled_matmul", (),
                                         "A M x K, B N x K")
    params = entry["params"]
    inputs = [p for p in params if p["role"] == "input"]
    outputs = [p for p in params if p["role"] == "output"]
    qs = [p for p in inputs if p["dtype"] in FP8]
    scales = [p for p in inputs if p["dtype"] in ("f32", "e8m0")]
    if len(qs) != 2 or len(scales) != 2 or len(inputs) != 4 or \
            len(outputs) != 1 or outputs[0]["dtype"] not in OUT_DTYPES:
        raise BadInput("fp8.scaled_matmul: expected inputs a, b (fp8) and "
                       "their scales (f32/e8m0) and one bf16/f16/f32 output, "
                       "found %s" % [(p["name"], p["role"], p["dtype"])
                                     for p in inputs + outputs])
    M, N, K = mm["m"], mm["n"], mm["k"]
    want = [(qs[0], [M, K]), (qs[1], [N, K]), (outputs[0], [M, N])]
    for p, shape in want:
        if p["shape"] != shape:
            raise BadInput("%s has shape %s; m, n, k = %d, %d, %d give %s" %
                           (p["name"], p["shape"], M, N, K, shape))
    if outputs[0]["dtype"] != mm["out_dtype"]:
        raise BadInput("%s is %s but matmul.out_dtype is %s" %
                       (outputs[0]["name"], outputs[0]["dtype"],
                        mm["out_dtype"]))
    et = entry.get("element_type")
    if et is not None and et != qs[0]["dtype"]:
        raise BadInput("element_type %s but %s is %s" %
                       (et, qs[0]["name"], qs[0]["dtype"]))
    layouts = [mm.get("a_scale_layout", "row_major"),
               mm.get("b_scale_layout", "row_major")]
    for which, layout in zip("ab", layouts):
        if layout not in SCALE_LAYOUTS:
            raise BadInput("matmul.%s_scale_layout %r (expected one of %s)" %
                           (which, layout, ", ".join(SCALE_LAYOUTS)))
    check_scale_layout_param(scales[0], mm["a_scaling"], M, K, layouts[0])
    check_scale_layout_param(scales[1], mm["b_scaling"], N, K, layouts[1])
    return Gemm(raw(qs[0]), raw(scales[0]), mm["a_scaling"], raw(qs[1]),
                raw(scales[1]), mm["b_scaling"], raw(outputs[0]), accumulate,
                *layouts)


GROUP_LAYOUTS = ("contiguous", "masked")


class GroupedGemm:
    """One fp8.grouped_scaled_matmul kernel: G scaled matmuls, each of a
    group of A's rows with expert g's [N, K] rows of B. The operands are
    cq.Raw each, as stored (a_scale [M', K'] contiguous or [G, cap', K']
    masked, b [G*N, K], b_scale [G, N', K']); group_rows is the list of G
    dumped values."""

    def __init__(self, a, a_scale, a_scaling, b, b_scale, b_scaling,
                 group_rows, c, accumulate, count, layout, capacity,
                 rows_bound, a_scale_layout="row_major"):
        self.a, self.a_scale, self.a_scaling = a, a_scale, a_scaling
        self.a_scale_layout = a_scale_layout
        self.b, self.b_scale, self.b_scaling = b, b_scale, b_scaling
        self.group_rows, self.c, self.accumulate = group_rows, c, accumulate
        self.count, self.layout, self.capacity = count, layout, capacity
        self.rows_bound = rows_bound
        self.m, self.k = a.shape
        self.n = b.shape[0] // count

    def spans(self):
        """(start, end) rows of A and C of each group (module docstring)."""
        return group_spans(self.group_rows, self.layout, self.m,
                           self.capacity)


def group_spans(group_rows, layout, m, capacity):
    """Each group's rows [start, end) of an M-row A: contiguous, group g
    from the previous group's end to group_rows[g], each bound clamped to
    [0, M] and no end before its start; masked, the first
    clamp(group_rows[g], 0, capacity) rows of block g."""
    spans = []
    start = 0
    for g, v in enumerate(group_rows):
        if layout == "masked":
            base = g * capacity
            spans.append((base, base + min(max(v, 0), capacity)))
        else:
            end = max(start, min(max(v, 0), m))
            spans.append((start, end))
            start = end
    return spans


def read_i32(path, count):
    """The `count` little-endian i32 values of a dumped file (cq.Raw reads
    no integers but i64)."""
    size = os.path.getsize(path)
    if size != 4 * count:
        raise BadInput("%s: %d bytes, expected %d (i32 [%d])" %
                       (path, size, 4 * count, count))
    with open(path, "rb") as f:
        return list(struct.unpack("<%di" % count, f.read()))


def describe_grouped_gemm(entry, raw, read_ints):
    """A GroupedGemm from a manifest entry (raw(param) opens a param's
    file, read_ints(param, count) reads an i32 one); raises BadInput on
    anything inconsistent."""
    op = "fp8.grouped_scaled_matmul"
    mm, accumulate = check_matmul_object(entry, op, ("groups",),
                                         "A M x K, B G*N x K")
    groups = mm["groups"]
    if not isinstance(groups, dict) or any(
            key not in groups for key in ("count", "layout")):
        raise BadInput("matmul.groups: expected an object with count and "
                       "layout, found %r" % (groups,))
    G, layout = groups["count"], groups["layout"]
    capacity = groups.get("capacity", 0)
    if not isinstance(G, int) or G < 1:
        raise BadInput("matmul.groups.count %r (expected a positive integer)"
                       % (G,))
    if layout not in GROUP_LAYOUTS:
        raise BadInput("matmul.groups.layout %r (expected contiguous or "
                       "masked)" % (layout,))
    a_layout = mm.get("a_scale_layout", "row_major")
    b_layout = mm.get("b_scale_layout", "row_major")
    if b_layout != "row_major" or a_layout not in SCALE_LAYOUTS or (
            a_layout != "row_major" and layout != "contiguous"):
        raise BadInput("matmul a_scale_layout %r, b_scale_layout %r: a "
                       "grouped GEMM's scales are row-major, but for a "
                       "contiguous A's, which may be col_major_tma" %
                       (a_layout, b_layout))
    M, N, K = mm["m"], mm["n"], mm["k"]
    if layout == "masked" and (not isinstance(capacity, int) or
                               capacity < 1 or G * capacity != M):
        raise BadInput("matmul.groups: masked with capacity %r; m = %d "
                       "must be count (%d) x capacity" % (capacity, M, G))
    params = entry["params"]
    inputs = [p for p in params if p["role"] == "input"]
    outputs = [p for p in params if p["role"] == "output"]
    qs = [p for p in inputs if p["dtype"] in FP8]
    scales = [p for p in inputs if p["dtype"] in ("f32", "e8m0")]
    ints = [p for p in inputs if p["dtype"] == "i32"]
    if len(qs) != 2 or len(scales) != 2 or len(ints) != 1 or \
            len(inputs) != 5 or len(outputs) != 1 or \
            outputs[0]["dtype"] not in OUT_DTYPES:
        raise BadInput("%s: expected inputs a, b (fp8), their scales "
                       "(f32/e8m0) and group_rows (i32), and one "
                       "bf16/f16/f32 output, found %s" %
                       (op, [(p["name"], p["role"], p["dtype"])
                             for p in inputs + outputs]))
    want = [(qs[0], [M, K]), (qs[1], [G * N, K]), (ints[0], [G]),
            (outputs[0], [M, N])]
    for p, shape in want:
        if p["shape"] != shape:
            raise BadInput("%s has shape %s; m, n, k = %d, %d, %d and %d "
                           "groups give %s" %
                           (p["name"], p["shape"], M, N, K, G, shape))
    if outputs[0]["dtype"] != mm["out_dtype"]:
        raise BadInput("%s is %s but matmul.out_dtype is %s" %
                       (outputs[0]["name"], outputs[0]["dtype"],
                        mm["out_dtype"]))
    cq._check_element_type(entry, qs[0])
    # A's scale as the op stores it: over all of A (contiguous), or [G,
    # ...] over each group's block of `capacity` rows (masked); B's, [G,
    # ...] over each expert's [N, K].
    sa, sb = scales
    if layout == "contiguous":
        check_scale_layout_param(sa, mm["a_scaling"], M, K, a_layout)
    else:
        want = [G] + cq._tile_grid([capacity, K], mm["a_scaling"]["tile"])
        if sa["shape"] != want:
            raise BadInput("%s has shape %s; tile %s of %d blocks of %s "
                           "gives %s" % (sa["name"], sa["shape"],
                                         mm["a_scaling"]["tile"], G,
                                         [capacity, K], want))
        cq._check_scale_dtype(sa, mm["a_scaling"])
    want = [G] + cq._tile_grid([N, K], mm["b_scaling"]["tile"])
    if sb["shape"] != want:
        raise BadInput("%s has shape %s; tile %s of %d experts' %s gives %s"
                       % (sb["name"], sb["shape"], mm["b_scaling"]["tile"],
                          G, [N, K], want))
    cq._check_scale_dtype(sb, mm["b_scaling"])
    bound = capacity if layout == "masked" else M
    rows = ints[0].get("group_rows")
    if rows is not None:
        if not isinstance(rows, dict) or rows.get("layout") != layout or \
                rows.get("rows") != bound:
            raise BadInput("%s: group_rows %r; the %s layout with m = %d "
                           "and capacity %d gives layout %s, rows %d" %
                           (ints[0]["name"], rows, layout, M, capacity,
                            layout, bound))
    return GroupedGemm(raw(qs[0]), raw(sa), mm["a_scaling"], raw(qs[1]),
                       raw(sb), mm["b_scaling"], read_ints(ints[0], G),
                       raw(outputs[0]), accumulate, G, layout, capacity,
                       bound, a_layout)


def describe_kernel(dump_dir):
    """(meta, Gemm, GroupedGemm or HighPrecisionGemm or None, why
    skipped)."""
    with open(os.path.join(dump_dir, "meta.json")) as f:
        meta = json.load(f)
    entry = meta["entry"]

    def raw(p):
        return cq.Raw(os.path.join(dump_dir, meta["files"][p["name"]]),
                      p["dtype"], p["shape"])

    # A matmul kept in high precision (its GEMM has a matmul object).
    if entry.get("op") == "linalg.matmul" and "matmul" in entry:
        return meta, describe_hp_gemm(entry, raw), None
    if entry.get("op") == "fp8.grouped_scaled_matmul":
        return meta, describe_grouped_gemm(
            entry, raw, lambda p, count: read_i32(
                os.path.join(dump_dir, meta["files"][p["name"]]), count)), \
            None
    if entry.get("op") != "fp8.scaled_matmul":
        return meta, None, "%s is not fp8.scaled_matmul" % entry.get("op")
    return meta, describe_gemm(entry, raw), None


# ---------------------------------------------------------------------------
# The float64 reference
# ---------------------------------------------------------------------------

_TABLES = {}


def decode_table(dtype, device):
    """float64 values of the 256 codes of an fp8 dtype or E8M0, from
    oracle.fp8_value / 2^(c - 127) (NaN codes as NaN)."""
    key = (dtype, str(device))
    if key not in _TABLES:
        if dtype == "e8m0":
            vals = [math.nan if c == 255 else 2.0 ** (c - 127)
                    for c in range(256)]
        else:
            vals = [oracle.fp8_value(c, FORMATS[dtype]) for c in range(256)]
        _TABLES[key] = torch.tensor(vals, dtype=torch.float64, device=device)
    return _TABLES[key]


def has_float8():
    return hasattr(torch, "float8_e4m3fn")


def fp8_to_f64(codes, dtype):
    """uint8 codes -> float64, exactly: through torch's float8 dtypes where
    torch has them (the self-test checks them against decode_table on every
    code), else through the table."""
    if has_float8():
        t = torch.float8_e4m3fn if dtype == "f8e4m3" else torch.float8_e5m2
        # Through f32 (exact), the conversion every torch build has.
        return codes.view(t).to(torch.float32).to(torch.float64)
    return decode_table(dtype, codes.device)[codes.long()]


def scale_to_f64(scale, scaling):
    if scaling["scale"] == "e8m0":
        return decode_table("e8m0", scale.device)[scale.long()]
    return scale.to(torch.float64)


def expand_rows(scale64, tile, r0, r1, rows, cols):
    """The scale of every element [r0:r1, 0:cols] of a [rows, cols] operand
    from its tile grid."""
    tr, tc = cq._resolve_tile(tile, rows, cols)
    dev = scale64.device
    ri = torch.arange(r0, r1, device=dev) // tr
    ci = torch.arange(cols, device=dev) // tc
    return scale64[ri][:, ci]


# A matmul the recipe keeps in high precision (rowwise_gw_hp's Wgrad):
# bf16 or f16 operands, no scales, f32 accumulation on the tensor cores.
HP_DTYPES = ("bf16", "f16")


def hp_tolerance(K):
    """The share of the bound a 16-bit GEMM may be off: its products are
    exact in f32 and only the sums round, so any order of K terms errs by
    at most about K ulps of f32 against the bound (gamma_K; 2^-23 per add,
    not 2^-24, in case the tensor cores truncate), at least 16 of them, and
    never more than FP8's `fast` tolerance."""
    return min(TOL["fast"], max(K, 16) * 2.0 ** -23)


class HighPrecisionGemm:
    """One linalg.matmul kernel's operands (cq.Raw each) as stored and
    whether each is MN-major (stored K x M, K x N)."""

    def __init__(self, a, b, c, m, n, k, a_mn_major, b_mn_major):
        self.a, self.b, self.c = a, b, c
        self.m, self.n, self.k = m, n, k
        self.a_mn_major, self.b_mn_major = a_mn_major, b_mn_major
        self.accumulate = "f32"


def describe_hp_gemm(entry, raw):
    """A HighPrecisionGemm from a linalg.matmul manifest entry; raises
    BadInput on anything inconsistent."""
    mm = entry.get("matmul")
    if not isinstance(mm, dict):
        raise BadInput("linalg.matmul without a \"matmul\" object")
    for key in ("m", "n", "k", "contracting", "out_dtype"):
        if key not in mm:
            raise BadInput("matmul: missing %r" % key)
    if mm.get("accumulate") != "f32":
        raise BadInput("linalg.matmul: accumulate %r (expected f32)" %
                       (mm.get("accumulate"),))
    contracting = mm["contracting"]
    if len(contracting) != 2 or any(c not in (0, 1) for c in contracting):
        raise BadInput("matmul.contracting %r (expected two of 0, 1)" %
                       (contracting,))
    params = entry["params"]
    inputs = [p for p in params if p["role"] == "input"]
    outputs = [p for p in params if p["role"] == "output"]
    if len(inputs) != 2 or len(outputs) != 1 or \
            any(p["dtype"] not in HP_DTYPES for p in inputs) or \
            outputs[0]["dtype"] != mm["out_dtype"] or \
            mm["out_dtype"] not in OUT_DTYPES:
        raise BadInput("linalg.matmul: expected inputs a, b (bf16/f16) and "
                       "one output of out_dtype, found %s" %
                       [(p["name"], p["role"], p["dtype"])
                        for p in inputs + outputs])
    M, N, K = mm["m"], mm["n"], mm["k"]
    a_mn, b_mn = contracting[0] == 0, contracting[1] == 0
    want = [(inputs[0], [K, M] if a_mn else [M, K]),
            (inputs[1], [K, N] if b_mn else [N, K]), (outputs[0], [M, N])]
    for p, shape in want:
        if p["shape"] != shape:
            raise BadInput("%s has shape %s; m, n, k = %d, %d, %d and "
                           "contracting %s give %s" %
                           (p["name"], p["shape"], M, N, K, contracting,
                            shape))
    return HighPrecisionGemm(raw(inputs[0]), raw(inputs[1]), raw(outputs[0]),
                             M, N, K, a_mn, b_mn)


def reference_hp(a, b, a_mn_major, b_mn_major):
    """(ref, bound) in float64 for 16-bit operands as stored: ref = A @ B^T
    with A M x K and B N x K after undoing the MN-major storage, bound =
    |A| @ |B|^T."""
    A = a.to(torch.float64)
    B = b.to(torch.float64)
    A = A.t() if a_mn_major else A
    B = B.t() if b_mn_major else B
    return A @ B.t(), A.abs() @ B.abs().t()


def reference(a, sa, a_scaling, a_dtype, b, sb, b_scaling, b_dtype,
              chunk_elems=1 << 26):
    """(ref, bound) in float64 for uint8 codes a [M, K], b [N, K] and their
    stored scales: ref = (A.SA) @ (B.SB)^T, bound = |A.SA| @ |B.SB|^T. A is
    dequantized a block of rows at a time to bound the memory."""
    M, K = a.shape
    N = b.shape[0]
    sa64, sb64 = scale_to_f64(sa, a_scaling), scale_to_f64(sb, b_scaling)
    bs = fp8_to_f64(b, b_dtype) * expand_rows(sb64, b_scaling["tile"], 0, N,
                                              N, K)
    bs_t, bs_abs_t = bs.t(), bs.abs().t()
    ref = torch.empty((M, N), dtype=torch.float64, device=a.device)
    bound = torch.empty_like(ref)
    step = max(1, chunk_elems // max(K, 1))
    for r0 in range(0, M, step):
        r1 = min(M, r0 + step)
        As = fp8_to_f64(a[r0:r1], a_dtype) * expand_rows(
            sa64, a_scaling["tile"], r0, r1, M, K)
        ref[r0:r1] = As @ bs_t
        bound[r0:r1] = As.abs() @ bs_abs_t
    return ref, bound


def allowance(ref, bound, tol, out_dtype, K):
    """What |c - ref| may be, elementwise (module docstring)."""
    u = OUT_ROUNDING[out_dtype]
    tiny = (K // 32 + 2) * 2.0 ** -126 + OUT_TINY[out_dtype]
    return tol * (1 + u) * bound + u * ref.abs() + tiny


def beyond_f32(ref, bound):
    """Where the terms' magnitudes add up past f32's range (special-value
    inputs): the f32 partial sums and promotion may overflow in some orders
    (inf - inf is NaN) where float64 does not."""
    return torch.isfinite(ref) & (bound > F32_MAX)


def passes(got, ref, bound, allowed, out_dtype):
    """The elementwise rule: True where got (float64) is within allowed of
    ref, or a non-finite result is excused."""
    finite = torch.isfinite(ref)
    ok = (got - ref).abs() <= allowed
    # Overflow: |ref| within the tolerance of the largest finite value
    # may round to inf of ref's sign.
    near_max = finite & (ref.abs() + allowed >= OUT_MAX[out_dtype])
    ok |= near_max & torch.isinf(got) & (torch.sign(got) == torch.sign(ref))
    # NaN or inf inputs: any non-finite result.
    ok |= ~finite & ~torch.isfinite(got)
    # Terms past f32's range: any non-finite result; a finite one is still
    # checked.
    ok |= beyond_f32(ref, bound) & ~torch.isfinite(got)
    return ok


class Comparison:
    """got (float64) against ref within allowed, elementwise."""

    def __init__(self, got, ref, bound, allowed, out_dtype, max_report):
        finite = torch.isfinite(ref)
        diff = (got - ref).abs()
        bad = ~passes(got, ref, bound, allowed, out_dtype)
        self.count = ref.numel()
        self.bad = int(bad.sum())
        self.nonfinite = int((~finite).sum())
        self.beyond_f32 = int(beyond_f32(ref, bound).sum())
        checked = finite & torch.isfinite(got)
        ratio = torch.where(checked, diff / allowed,
                            torch.zeros_like(diff))
        self.max_ratio = float(ratio.max()) if ratio.numel() else 0.0
        u = OUT_ROUNDING[out_dtype]
        pos = checked & (bound > 0)
        obs = torch.where(pos, (diff - u * ref.abs()).clamp(min=0) /
                          torch.where(pos, bound, torch.ones_like(bound)),
                          torch.zeros_like(diff))
        self.observed_tol = float(obs.max()) if obs.numel() else 0.0
        self.first = []
        for i, j in bad.nonzero()[:max_report].tolist():
            self.first.append(((i, j), float(got[i, j]), float(ref[i, j]),
                               float(bound[i, j]), float(allowed[i, j])))
        self.worst = None
        if self.max_ratio > 0:
            flat = int(ratio.argmax())
            i, j = divmod(flat, ref.shape[1])
            self.worst = ((i, j), float(got[i, j]), float(ref[i, j]),
                          float(bound[i, j]), float(allowed[i, j]))


def log2_text(x):
    return "2^%.1f" % math.log2(x) if x > 0 else "0"


def show_element(label, e):
    (i, j), got, want, bound, allowed = e
    print("      %s[%d, %d]: %.9g, expected %.9g (bound %.6g, allowed %.6g)"
          % (label, i, j, got, want, bound, allowed))


# ---------------------------------------------------------------------------
# torch._scaled_mm
# ---------------------------------------------------------------------------


def _k_splits_into(tc, K, block):
    """Whether K-blocks of `block` each lie within one tile of K extent
    tc."""
    return tc >= K or tc % block == 0


def scaled_mm_forms(a_tile, b_tile, M, N, K):
    """The (form of A's scale, form of B's) in which torch._scaled_mm takes
    these scalings, after exact expansion ("tensor", "row", "1x128",
    "128x128"), or (None, why)."""
    atr, atc = cq._resolve_tile(a_tile, M, K)
    btr, btc = cq._resolve_tile(b_tile, N, K)
    a_tensor, b_tensor = atr >= M and atc >= K, btr >= N and btc >= K
    if a_tensor and b_tensor:
        return ("tensor", "tensor"), None
    if atc >= K and btc >= K:
        return ("row", "row"), None
    a1 = _k_splits_into(atc, K, 128)
    b1 = _k_splits_into(btc, K, 128)
    a2 = a1 and (atr >= M or atr % 128 == 0)
    b2 = b1 and (btr >= N or btr % 128 == 0)
    for fa, fb, ok in (("1x128", "128x128", a1 and b2),
                       ("1x128", "1x128", a1 and b1),
                       ("128x128", "1x128", a2 and b1)):
        if ok:
            return (fa, fb), None
    return None, ("tiles %s x %s: a K extent that is not a multiple of 128 "
                  "(torch._scaled_mm takes 1x32 MX scales only swizzled, "
                  "on sm_100)" % (a_tile, b_tile))


def scale_values(s64, tile, rows, K, form):
    """The f32 values of an operand's scale in a torch form, as
    [rows', K'] (row-major): one per tensor, row, 1x128 or 128x128 block,
    sampled from the tile that holds the block's first element."""
    tr, tc = cq._resolve_tile(tile, rows, K)
    dev = s64.device
    step_r = {"tensor": rows, "row": 1, "1x128": 1, "128x128": 128}[form]
    step_k = {"tensor": K, "row": K, "1x128": 128, "128x128": 128}[form]
    ri = torch.arange(0, rows, step_r, device=dev) // tr
    ki = torch.arange(0, K, step_k, device=dev) // tc
    return s64[ri][:, ki].to(torch.float32)


def torch_scale_a(v, form):
    if form == "tensor":
        return v.reshape(())
    if form == "1x128":
        return v.t().contiguous().t()  # [M, K/128], stride (1, M)
    return v.contiguous()  # [M, 1] or [M/128, K/128] row-major


def torch_scale_b(v, form):
    """B's scale as _scaled_mm checks it: scale_b.t() must look like an A
    scale of B^T (our B), so it is passed transposed."""
    if form == "tensor":
        return v.reshape(())
    if form == "1x128":
        return v.t().contiguous()  # .t() is [N, K/128], stride (1, N)
    return v.contiguous().t()  # .t() is [N, 1] or [N/128, K/128] row-major


# cuBLASLt 13 reads a 128x128 block scale with its K-blocks per row rounded
# up to a multiple of 4 (16 bytes), while torch._scaled_mm checks for, and
# passes, an unpadded [N/128, K/128] tensor and rejects a padded stride
# ("Invalid scaling configuration"). Measured on the H100 (torch 2.11): every
# K with ceil(K/128) % 4 != 0 (208, 256, 384, 640, ...) is wrong from column
# 128 on, for e4m3 and e5m2 alike; K = 512 and 1024 are right.
CUBLASLT_SCALE_K_BLOCKS = 4


# cuBLASLt's blockwise kernels also refuse M not a multiple of 16
# (CUBLAS_STATUS_NOT_SUPPORTED at M = 4095, 17, 1 on the H100).
CUBLASLT_BLOCKWISE_M = 16


def pad_for_cublaslt(a, va, b, vb, forms):
    """(a, va, b, vb) with K zero-padded to a multiple of 128 *
    CUBLASLT_SCALE_K_BLOCKS and A's rows to a multiple of
    CUBLASLT_BLOCKWISE_M: zero codes (+0 in e4m3 and e5m2) add nothing to
    any product, the padded scales are 1, and the padded rows of the result
    are dropped, so the result is the same exactly, and every block scale's
    row is 16-byte aligned."""
    M, K = a.shape
    step = 128 * CUBLASLT_SCALE_K_BLOCKS
    padded_k = -(-K // step) * step
    padded_m = -(-M // CUBLASLT_BLOCKWISE_M) * CUBLASLT_BLOCKWISE_M

    def pad_codes(x, rows):
        out = torch.zeros((rows, padded_k), dtype=x.dtype, device=x.device)
        out[:x.shape[0], :K] = x
        return out

    def pad_scale(v, form, rows):
        if form not in ("1x128", "128x128"):
            return v
        rows = rows if form == "1x128" else v.shape[0]
        out = torch.ones((rows, padded_k // 128), dtype=v.dtype,
                         device=v.device)
        out[:v.shape[0], :v.shape[1]] = v
        return out

    return (pad_codes(a, padded_m), pad_scale(va, forms[0], padded_m),
            pad_codes(b, b.shape[0]), pad_scale(vb, forms[1], b.shape[0]))


TORCH_OUT = {"bf16": "bfloat16", "f16": "float16", "f32": "float32"}


def scaled_mm(a, sa, a_scaling, a_dtype, b, sb, b_scaling, b_dtype,
              out_dtype, fast):
    """(result float64, description) of torch._scaled_mm on these operands,
    or (None, why it was skipped)."""
    if not hasattr(torch, "_scaled_mm") or not has_float8():
        return None, "torch %s has no _scaled_mm" % torch.__version__
    if a.device.type != "cuda":
        return None, "needs a CUDA device"
    M, K = a.shape
    N = b.shape[0]
    forms, why = scaled_mm_forms(a_scaling["tile"], b_scaling["tile"], M, N,
                                 K)
    if forms is None:
        return None, why
    fa, fb = forms
    # "fast" skips promotion only where the scales are constant along K
    # (docs/Numerics.md); blockwise scales need it either way.
    fast = fast and fa in ("tensor", "row")
    va = scale_values(scale_to_f64(sa, a_scaling), a_scaling["tile"], M, K,
                      fa)
    vb = scale_values(scale_to_f64(sb, b_scaling), b_scaling["tile"], N, K,
                      fb)
    how = "%s x %s scales, use_fast_accum=%s" % (fa, fb, fast)
    if "1x128" in forms or "128x128" in forms:
        a, va, b, vb = pad_for_cublaslt(a, va, b, vb, forms)
        if a.shape[1] != K:
            how += ", K zero-padded to %d" % a.shape[1]
        if a.shape[0] != M:
            how += ", M zero-padded to %d" % a.shape[0]
    ta = torch.float8_e4m3fn if a_dtype == "f8e4m3" else torch.float8_e5m2
    tb = torch.float8_e4m3fn if b_dtype == "f8e4m3" else torch.float8_e5m2
    try:
        out = torch._scaled_mm(a.view(ta), b.view(tb).t(),
                               scale_a=torch_scale_a(va, fa),
                               scale_b=torch_scale_b(vb, fb),
                               out_dtype=getattr(torch, TORCH_OUT[out_dtype]),
                               use_fast_accum=fast)
        torch.cuda.synchronize()
    except (RuntimeError, ValueError, NotImplementedError, TypeError) as e:
        return None, "%s: %s" % (how, str(e).strip().split("\n")[0])
    if isinstance(out, tuple):  # Older torch: (out, amax).
        out = out[0]
    return out[:M].to(torch.float64), how


# ---------------------------------------------------------------------------
# Checking one kernel
# ---------------------------------------------------------------------------


def c_to_f64(c):
    return c.to(torch.float64)


def report_reference(res, tol, accumulate):
    """Prints a Comparison with the float64 reference and its first and
    worst mismatches."""
    print("    reference: %d elements, tol %s (%s), %d mismatches; max "
          "|c-ref|/allowed %.3g, observed tol %s%s" %
          (res.count, log2_text(tol), accumulate, res.bad, res.max_ratio,
           log2_text(res.observed_tol),
           (", %d non-finite references" % res.nonfinite
            if res.nonfinite else "") +
           (", %d with terms beyond f32" % res.beyond_f32
            if res.beyond_f32 else "")))
    for e in res.first:
        show_element("c", e)
    if res.worst and res.bad:
        show_element("worst c", res.worst)


def check_gemm(g, args, tol=None):
    """Prints the checks of one Gemm; returns the number of failures."""
    dev = args.device
    a, b = cq.load_tensor(g.a, dev), cq.load_tensor(g.b, dev)
    sa = scale_as_row_major(cq.load_tensor(g.a_scale, dev), g.a_scale_layout,
                            cq._tile_grid([g.m, g.k], g.a_scaling["tile"])[0])
    sb = scale_as_row_major(cq.load_tensor(g.b_scale, dev), g.b_scale_layout,
                            cq._tile_grid([g.n, g.k], g.b_scaling["tile"])[0])
    c = c_to_f64(cq.load_tensor(g.c, dev))
    tol = tol if tol is not None else (args.tol if args.tol is not None
                                       else TOL[g.accumulate])
    ref, bound = reference(a, sa, g.a_scaling, g.a.dtype, b, sb, g.b_scaling,
                           g.b.dtype)
    allowed = allowance(ref, bound, tol, g.c.dtype, g.k)
    res = Comparison(c, ref, bound, allowed, g.c.dtype, args.max_report)
    failures = res.bad
    report_reference(res, tol, g.accumulate)
    if args.no_scaled_mm:
        return failures
    t, how = scaled_mm(a, sa, g.a_scaling, g.a.dtype, b, sb, g.b_scaling,
                       g.b.dtype, g.c.dtype, g.accumulate == "fast")
    if t is None:
        print("    torch._scaled_mm: skipped (%s)" % how)
        return failures
    tres = Comparison(t, ref, bound, allowed, g.c.dtype, args.max_report)
    ctres = Comparison(c, t, bound, 2 * allowed, g.c.dtype, args.max_report)
    print("    torch._scaled_mm (%s): max |torch-ref|/allowed %.3g, "
          "observed tol %s; max |c-torch|/(2 allowed) %.3g, %d mismatches" %
          (how, tres.max_ratio, log2_text(tres.observed_tol),
           ctres.max_ratio, ctres.bad))
    return failures + report_torch(ctres, tres)


def report_torch(ctres, tres):
    """Prints the mismatches of c against torch._scaled_mm and of torch
    against the reference; returns their count."""
    for e in ctres.first:
        show_element("c vs torch ", e)
    if tres.bad:
        print("    REFERENCES DISAGREE: torch._scaled_mm is off the float64 "
              "reference at %d elements" % tres.bad)
        for e in tres.first:
            show_element("torch", e)
    return ctres.bad + tres.bad


class MergedComparison:
    """The Comparisons of several groups' rows of one C as one (the fields
    report_reference prints), their positions in all of C."""

    def __init__(self, parts, max_report):
        self.count = sum(r.count for _, r in parts)
        self.bad = sum(r.bad for _, r in parts)
        self.nonfinite = sum(r.nonfinite for _, r in parts)
        self.beyond_f32 = sum(r.beyond_f32 for _, r in parts)
        self.max_ratio = max([r.max_ratio for _, r in parts] + [0.0])
        self.observed_tol = max([r.observed_tol for _, r in parts] + [0.0])
        self.first = [shift_element(e, r0) for r0, r in parts
                      for e in r.first][:max_report]
        self.worst = None
        worst = [(r.max_ratio, r0, r) for r0, r in parts if r.worst]
        if worst:
            _, r0, r = max(worst, key=lambda x: x[0])
            self.worst = shift_element(r.worst, r0)


def shift_element(e, r0):
    (i, j), got, want, bound, allowed = e
    return ((i + r0, j), got, want, bound, allowed)


def group_a_scale(sa, g, r0, r1, gg):
    """(A's stored scale, A's scaling) of the group of rows [r0, r1) as a
    matrix of its own: the rows of its tiles, or where a tile of several
    rows starts before the group, its scales repeated per row with a tile of
    1 row (exact either way)."""
    scaling = gg.a_scaling
    if gg.layout == "masked":
        sa, base, rows = sa[g], g * gg.capacity, gg.capacity
    else:
        sa, base, rows = sa, 0, gg.m
    lo, hi = r0 - base, r1 - base
    if scaling["tile"][0] == -1:  # One tile of rows: the group's too.
        return sa, scaling
    tr, _ = cq._resolve_tile(scaling["tile"], rows, gg.k)
    if lo % tr == 0:
        return sa[lo // tr:-(-hi // tr)], scaling
    ri = torch.arange(lo, hi, device=sa.device) // tr
    return sa[ri], dict(scaling, tile=[1, scaling["tile"][1]])


def check_grouped_gemm(gg, args, tol=None):
    """Prints the checks of one GroupedGemm: each group (with rows) against
    the float64 reference of its rows and its expert (and torch._scaled_mm),
    the rows of no group against 0; returns the number of failures."""
    dev = args.device
    a, b = cq.load_tensor(gg.a, dev), cq.load_tensor(gg.b, dev)
    sa, sb = cq.load_tensor(gg.a_scale, dev), cq.load_tensor(gg.b_scale, dev)
    if gg.a_scale_layout != "row_major":
        rows = cq._tile_grid([gg.m, gg.k], gg.a_scaling["tile"])[0]
        sa = scale_as_row_major(sa, gg.a_scale_layout, rows)
    c = c_to_f64(cq.load_tensor(gg.c, dev))
    tol = tol if tol is not None else (args.tol if args.tol is not None
                                       else TOL[gg.accumulate])
    N, K = gg.n, gg.k
    in_group = torch.zeros(gg.m, dtype=torch.bool, device=dev)
    parts, tparts, ctparts, hows, skipped = [], [], [], [], []
    for g, (r0, r1) in enumerate(gg.spans()):
        if r1 == r0:
            continue
        in_group[r0:r1] = True
        ag = a[r0:r1]
        sag, ascg = group_a_scale(sa, g, r0, r1, gg)
        bg, sbg = b[g * N:(g + 1) * N], sb[g]
        ref, bound = reference(ag, sag, ascg, gg.a.dtype, bg, sbg,
                               gg.b_scaling, gg.b.dtype)
        allowed = allowance(ref, bound, tol, gg.c.dtype, K)
        c_g = c[r0:r1]
        parts.append((r0, Comparison(c_g, ref, bound, allowed, gg.c.dtype,
                                     args.max_report)))
        if args.no_scaled_mm:
            continue
        t, how = scaled_mm(ag.contiguous(), sag.contiguous(), ascg,
                           gg.a.dtype, bg, sbg.contiguous(), gg.b_scaling,
                           gg.b.dtype, gg.c.dtype, gg.accumulate == "fast")
        if t is None:
            skipped.append("group %d: %s" % (g, how))
            continue
        hows.append(how)
        tparts.append((r0, Comparison(t, ref, bound, allowed, gg.c.dtype,
                                      args.max_report)))
        ctparts.append((r0, Comparison(c_g, t, bound, 2 * allowed,
                                       gg.c.dtype, args.max_report)))
    res = MergedComparison(parts, args.max_report)
    failures = res.bad
    report_reference(res, tol, gg.accumulate)
    # The rows of no group: exactly 0 (either sign; NaN, never written,
    # fails).
    none = ~in_group
    rest = c[none]
    nonzero = rest != 0
    bad_zero = int(nonzero.sum())
    print("    rows of no group: %d, %d nonzero elements" %
          (int(none.sum()), bad_zero))
    rows = none.nonzero().flatten()
    for i, j in nonzero.nonzero()[:args.max_report].tolist():
        print("      c[%d, %d]: %.9g, expected 0" %
              (int(rows[i]), j, float(rest[i, j])))
    failures += bad_zero
    if args.no_scaled_mm:
        return failures
    if not tparts:
        print("    torch._scaled_mm: skipped (%s)" %
              (skipped[0] if skipped else "no group has rows"))
        return failures
    tres = MergedComparison(tparts, args.max_report)
    ctres = MergedComparison(ctparts, args.max_report)
    print("    torch._scaled_mm per group (%d of %d with rows; %s): max "
          "|torch-ref|/allowed %.3g, observed tol %s; max |c-torch|/(2 "
          "allowed) %.3g, %d mismatches" %
          (len(tparts), len(parts), "; ".join(sorted(set(hows))),
           tres.max_ratio, log2_text(tres.observed_tol), ctres.max_ratio,
           ctres.bad))
    if skipped:
        print("    torch._scaled_mm skipped %d groups (%s)" %
              (len(skipped), skipped[0]))
    return failures + report_torch(ctres, tres)


def group_sizes_text(gg, most=16):
    """"G contiguous|masked (capacity C), rows s0 s1 ...; R in none"."""
    sizes = [r1 - r0 for r0, r1 in gg.spans()]
    shown = " ".join(str(s) for s in sizes[:most])
    if len(sizes) > most:
        shown += " ... (%d more)" % (len(sizes) - most)
    text = "%d groups %s%s, rows %s; %d rows in none" % (
        gg.count, gg.layout,
        " (capacity %d)" % gg.capacity if gg.layout == "masked" else "",
        shown, gg.m - sum(sizes))
    if not valid_group_rows(gg.group_rows, gg.layout, gg.rows_bound):
        text += " (group_rows %s: not %s, so the kernel's result is " \
            "undefined; checked as clamped)" % (
                gg.group_rows[:most], "non-decreasing within [0, %d]" %
                gg.rows_bound if gg.layout == "contiguous" else
                "within [0, %d]" % gg.rows_bound)
    return text


def valid_group_rows(group_rows, layout, bound):
    """What the op requires of group_rows (beyond that, the GPU kernel's
    result is undefined): all within [0, bound], non-decreasing where
    contiguous."""
    if any(v < 0 or v > bound for v in group_rows):
        return False
    return layout == "masked" or all(
        x <= y for x, y in zip(group_rows, group_rows[1:]))


def scaling_text(sc):
    tile = "x".join("*" if t == -1 else str(t) for t in sc["tile"])
    return "%s %s" % (tile, sc["scale"])


def check_hp_gemm(g, args):
    """Prints the check of one HighPrecisionGemm against the float64
    product; returns the number of failures."""
    dev = args.device
    a, b = cq.load_tensor(g.a, dev), cq.load_tensor(g.b, dev)
    c = c_to_f64(cq.load_tensor(g.c, dev))
    tol = args.tol if args.tol is not None else hp_tolerance(g.k)
    ref, bound = reference_hp(a, b, g.a_mn_major, g.b_mn_major)
    allowed = allowance(ref, bound, tol, g.c.dtype, g.k)
    res = Comparison(c, ref, bound, allowed, g.c.dtype, args.max_report)
    report_reference(res, tol, g.accumulate)
    return res.bad


def check_dump(path, args):
    meta, g, why = describe_kernel(path)
    name = meta.get("kernel", os.path.basename(path))
    if g is None:
        print("kernel %s: skipped (%s)" % (name, why))
        return None
    if isinstance(g, HighPrecisionGemm):
        print("kernel %s (linalg.matmul): %d x %d x %d, a %s%s, b %s%s, "
              "c %s, inputs %s, device %s" %
              (name, g.m, g.n, g.k, g.a.dtype,
               " MN-major" if g.a_mn_major else "", g.b.dtype,
               " MN-major" if g.b_mn_major else "", g.c.dtype,
               meta.get("inputs"), meta.get("device")))
        failures = check_hp_gemm(g, args)
        print("  %s" % ("ok" if not failures else "FAILED (%d)" % failures))
        return failures
    if isinstance(g, GroupedGemm):
        print("kernel %s (fp8.grouped_scaled_matmul): %s; %d x %d x %d, a %s "
              "%s, b %s %s, c %s, %s, inputs %s, device %s" %
              (name, group_sizes_text(g), g.m, g.n, g.k, g.a.dtype,
               scaling_text(g.a_scaling), g.b.dtype,
               scaling_text(g.b_scaling), g.c.dtype, g.accumulate,
               meta.get("inputs"), meta.get("device")))
        failures = check_grouped_gemm(g, args)
        print("  %s" % ("ok" if not failures else "FAILED (%d)" % failures))
        return failures
    print("kernel %s (fp8.scaled_matmul): %d x %d x %d, a %s %s, b %s %s, "
          "c %s, %s, inputs %s, device %s" %
          (name, g.m, g.n, g.k, g.a.dtype, scaling_text(g.a_scaling),
           g.b.dtype, scaling_text(g.b_scaling), g.c.dtype, g.accumulate,
           meta.get("inputs"), meta.get("device")))
    failures = check_gemm(g, args)
    print("  %s" % ("ok" if not failures else "FAILED (%d)" % failures))
    return failures


# ---------------------------------------------------------------------------
# Self test
# ---------------------------------------------------------------------------


def random_codes(rng, rows, cols, fmt_name, device):
    """fp8 codes of moderate magnitude (no NaN or inf), signs random."""
    fmt = FORMATS[fmt_name]
    top = 0x7E if fmt is oracle.E4M3 else 0x7B
    vals = [rng.randrange(0x08, top + 1) | (0x80 * rng.randrange(2))
            for _ in range(rows * cols)]
    return torch.tensor(vals, dtype=torch.uint8,
                        device=device).reshape(rows, cols)


def random_scales(rng, shape, scale, device):
    n = shape[0] * shape[1]
    if scale == "e8m0":
        vals = [127 + rng.randrange(-12, 13) for _ in range(n)]
        return torch.tensor(vals, dtype=torch.uint8,
                            device=device).reshape(shape)
    vals = [oracle.f32(rng.uniform(0.5, 1) * 2.0 ** rng.randrange(-12, 13)
                       * rng.choice((1, -1))) for _ in range(n)]
    return torch.tensor(vals, dtype=torch.float32,
                        device=device).reshape(shape)


def naive(a, sa, asc, fa, b, sb, bsc, fb):
    """ref and bound by a Python loop: exact products in float64, sums
    correctly rounded (math.fsum)."""
    M, K = a.shape
    N = b.shape[0]
    A, B = a.tolist(), b.tolist()
    SA, SB = sa.tolist(), sb.tolist()

    def sval(s, sc, i, k, rows):
        tr, tc = cq._resolve_tile(sc["tile"], rows, K)
        v = s[i // tr][k // tc]
        return oracle.e8m0_to_f32(v) if sc["scale"] == "e8m0" else v

    av = [[oracle.fp8_value(A[i][k], FORMATS[fa]) * sval(SA, asc, i, k, M)
           for k in range(K)] for i in range(M)]
    bv = [[oracle.fp8_value(B[j][k], FORMATS[fb]) * sval(SB, bsc, j, k, N)
           for k in range(K)] for j in range(N)]
    ref = [[math.fsum(x * y for x, y in zip(av[i], bv[j])) for j in range(N)]
           for i in range(M)]
    bound = [[math.fsum(abs(x * y) for x, y in zip(av[i], bv[j]))
              for j in range(N)] for i in range(M)]
    return ref, bound


def oracle_matmul(a, sa, asc, fa, b, sb, bsc, fb, accumulate):
    """oracle.scaled_matmul (the CPU reference's f32 semantics) on tensors."""
    def scaling(sc):
        return oracle.Scaling(["*" if t == -1 else t for t in sc["tile"]],
                              sc["scale"])
    return oracle.scaled_matmul(
        a.tolist(), sa.tolist(), FORMATS[fa], scaling(asc), b.tolist(),
        sb.tolist(), FORMATS[fb], scaling(bsc), [1, 1], accumulate)


SELF_TEST_CASES = [
    # (M, N, K, a tile, a scale, b tile, b scale, a fmt, b fmt)
    (6, 10, 300, [-1, -1], "f32", [-1, -1], "f32", "f8e4m3", "f8e4m3"),
    (6, 10, 300, [1, -1], "f32", [1, -1], "f32", "f8e4m3", "f8e5m2"),
    (6, 10, 300, [1, 128], "f32", [128, 128], "f32", "f8e4m3", "f8e4m3"),
    (6, 10, 300, [1, 128], "f32", [1, 128], "f32", "f8e5m2", "f8e4m3"),
    (6, 10, 300, [1, 32], "e8m0", [1, 32], "e8m0", "f8e4m3", "f8e4m3"),
    (5, 9, 96, [2, 64], "f32", [3, -1], "e8m0", "f8e4m3", "f8e4m3"),
]


class Args:
    def __init__(self, device, max_report=3):
        self.device, self.max_report = device, max_report
        self.tol, self.no_scaled_mm = None, True


def self_test(args):
    rng = random.Random(7)
    dev = args.device
    failures = 0

    if has_float8():  # fp8_to_f64 against the table on every code.
        codes = torch.arange(256, dtype=torch.int64, device=dev).to(
            torch.uint8).reshape(16, 16)
        for name in FP8:
            got = fp8_to_f64(codes, name).flatten()
            want = decode_table(name, dev)
            same = (got == want) | (torch.isnan(got) & torch.isnan(want))
            bad = int((~same).sum())
            if bad:
                print("self-test: %s decoding differs from oracle.fp8_value "
                      "at %d codes" % (name, bad))
            failures += bad
    else:
        print("self-test: torch %s has no float8 dtypes; fp8 is decoded "
              "through oracle.fp8_value's table" % torch.__version__)

    for case in SELF_TEST_CASES:
        M, N, K, at, ascale, bt, bscale, fa, fb = case
        asc = {"tile": at, "scale": ascale, "round": "exact"}
        bsc = {"tile": bt, "scale": bscale, "round": "exact"}
        a = random_codes(rng, M, K, fa, dev)
        b = random_codes(rng, N, K, fb, dev)
        sa = random_scales(rng, cq._tile_grid([M, K], at), ascale, dev)
        sb = random_scales(rng, cq._tile_grid([N, K], bt), bscale, dev)
        label = "%dx%dx%d %s %s x %s %s" % (M, N, K, at, fa, bt, fb)
        # Small chunks, so the row blocking is exercised.
        ref, bound = reference(a, sa, asc, fa, b, sb, bsc, fb,
                               chunk_elems=2 * K)
        nref, nbound = naive(a, sa, asc, fa, b, sb, bsc, fb)
        nref = torch.tensor(nref, dtype=torch.float64, device=dev)
        nbound = torch.tensor(nbound, dtype=torch.float64, device=dev)
        bad = int(((ref - nref).abs() > 2.0 ** -40 * nbound).sum() +
                  ((bound - nbound).abs() > 2.0 ** -40 * nbound).sum())
        if bad:
            print("self-test %s: the reference differs from the naive loop "
                  "at %d elements" % (label, bad))
        failures += bad

        for accumulate in ("promoted", "fast"):
            for out_dtype in OUT_DTYPES:
                tol = TOL[accumulate]
                c32 = torch.tensor(oracle_matmul(a.cpu(), sa.cpu(), asc, fa,
                                                 b.cpu(), sb.cpu(), bsc, fb,
                                                 accumulate),
                                   dtype=torch.float32, device=dev)
                c = c32.to(getattr(torch, TORCH_OUT[out_dtype]))
                allowed = allowance(ref, bound, tol, out_dtype, K)
                res = Comparison(c.to(torch.float64), ref, bound, allowed,
                                 out_dtype, 3)
                if res.bad:
                    print("self-test %s %s %s: oracle.scaled_matmul fails "
                          "the tolerance at %d elements" %
                          (label, accumulate, out_dtype, res.bad))
                failures += res.bad
                failures += self_test_detects(label, c, ref, bound, allowed,
                                              out_dtype)
    failures += self_test_dump(args, rng)
    failures += self_test_grouped(args, rng)
    if dev != "cpu" and torch.cuda.is_available():
        failures += self_test_scaled_mm(rng, dev)
    else:
        print("self-test: no CUDA device, torch._scaled_mm's layouts not "
              "checked")
    print("self-test: %d cases, %d grouped, %s" %
          (len(SELF_TEST_CASES), len(GROUPED_SELF_TEST_CASES),
           "ok" if not failures else "%d failures" % failures))
    return 1 if failures else 0


def self_test_detects(label, c, ref, bound, allowed, out_dtype):
    """A wrong element (just outside the allowance, NaN, or never written)
    must fail at its position."""
    failures = 0
    M, N = ref.shape
    c64 = c.to(torch.float64)
    tests = []
    # The smallest |ref| whose perturbation stays finite in the output type.
    room = ref.abs() + 3 * allowed < OUT_MAX[out_dtype]
    if bool(room.any()):
        flat = int(torch.where(room, ref.abs(),
                               torch.full_like(ref, math.inf)).argmin())
        i, j = divmod(flat, N)
        wrong = c64.clone()
        off = ref[i, j] + 2.5 * allowed[i, j] * (1 if ref[i, j] >= 0 else -1)
        # Representable in the output type, and still outside.
        wrong[i, j] = off.to(c.dtype).to(torch.float64)
        tests.append(("perturbed", wrong, [(i, j)]))
        # An overflow there is excused only where the terms add up past f32.
        inf = c64.clone()
        inf[i, j] = math.inf
        tests.append(("inf", inf, [(i, j)]))
        wide = bound.clone()
        wide[i, j] = 2 * F32_MAX
        res = Comparison(inf, ref, wide, allowed, out_dtype, 4)
        if res.bad or res.beyond_f32 != 1:
            print("self-test %s %s: inf where the terms pass f32's range "
                  "gave %d mismatches" % (label, out_dtype, res.bad))
            failures += 1
    nan = c64.clone()
    nan[0, 0] = math.nan
    tests.append(("NaN", nan, [(0, 0)]))
    tests.append(("unwritten", torch.full_like(c64, math.nan), None))
    for what, got, want in tests:
        res = Comparison(got, ref, bound, allowed, out_dtype, 4)
        ok = (res.bad == M * N if want is None else
              [e[0] for e in res.first] == want)
        if not ok:
            print("self-test %s %s: a %s output gave %d mismatches at %s" %
                  (label, out_dtype, what, res.bad,
                   [e[0] for e in res.first]))
            failures += 1
    return failures


def write_param(d, name, t):
    """NAME.bin as fp8-run --dump writes it: the raw little-endian bytes."""
    data = t.cpu().contiguous().flatten().view(torch.uint8)
    with open(os.path.join(d, name + ".bin"), "wb") as f:
        f.write(bytes(data.tolist()))
    return name + ".bin"


def self_test_dump(args, rng):
    """A dump directory as fp8-run writes it (meta.json with the manifest
    entry, NAME.bin), with the oracle's result as C, must pass check_dump;
    with one element off, fail."""
    M, N, K = 24, 32, 256
    asc = {"tile": [1, 128], "scale": "f32", "round": "exact"}
    bsc = {"tile": [128, 128], "scale": "f32", "round": "exact"}
    a = random_codes(rng, M, K, "f8e4m3", args.device)
    b = random_codes(rng, N, K, "f8e4m3", args.device)
    sa = random_scales(rng, [M, 2], "f32", args.device)
    sb = random_scales(rng, [1, 2], "f32", args.device)
    c = torch.tensor(oracle_matmul(a.cpu(), sa.cpu(), asc, "f8e4m3", b.cpu(),
                                   sb.cpu(), bsc, "f8e4m3", "promoted"),
                     dtype=torch.float32).to(torch.bfloat16)
    entry = {
        "name": "gemm_test", "ptx": "gemm_test.ptx", "op": "fp8.scaled_matmul",
        "grid": [1, 1, 1], "block": [384, 1, 1], "shared_bytes": 0,
        "params": [
            {"name": "a", "role": "input", "dtype": "f8e4m3", "shape": [M, K]},
            {"name": "a_scale", "role": "input", "dtype": "f32",
             "shape": [M, 2]},
            {"name": "b", "role": "input", "dtype": "f8e4m3", "shape": [N, K]},
            {"name": "b_scale", "role": "input", "dtype": "f32",
             "shape": [1, 2]},
            {"name": "c", "role": "output", "dtype": "bf16", "shape": [M, N]},
            {"name": "a_map", "role": "tensormap", "tensor": "a",
             "box": [128, 128], "swizzle": "128B"}],
        "element_type": "f8e4m3", "bytes_moved": 0, "flops": 2 * M * N * K,
        "matmul": {"m": M, "n": N, "k": K, "contracting": [1, 1],
                   "accumulate": "promoted", "a_scaling": asc,
                   "b_scaling": bsc, "out_dtype": "bf16"}}
    failures = 0
    sub = Args(args.device, max_report=2)
    with tempfile.TemporaryDirectory() as top:
        d = os.path.join(top, "gemm_test")
        os.makedirs(d)
        files = {}
        for name, t in (("a", a), ("a_scale", sa), ("b", b), ("b_scale", sb),
                        ("c", c)):
            files[name] = write_param(d, name, t)
        meta = {"kernel": "gemm_test", "inputs": "self-test",
                "device": str(args.device), "files": files, "entry": entry}
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump(meta, f)
        if [check_dump(x, sub) for x in cq.kernel_dirs([top])] != [0]:
            print("self-test: the dump of the oracle's result failed")
            failures += 1
        # The same A scales in the col_major_tma layout (transposed, rows
        # padded to 16 bytes with garbage the kernel never uses).
        padded = torch.full((2, (M + 3) // 4 * 4), 1e30, dtype=torch.float32,
                            device=sa.device)
        padded[:, :M] = sa.t()
        write_param(d, "a_scale", padded)
        entry["params"][1]["shape"] = list(padded.shape)
        entry["matmul"]["a_scale_layout"] = "col_major_tma"
        with open(os.path.join(d, "meta.json"), "w") as f:
            json.dump(meta, f)
        if check_dump(d, sub) != 0:
            print("self-test: the col_major_tma dump of the oracle's result "
                  "failed")
            failures += 1
        # Far outside any allowance: |C| is a fraction of the bound.
        c[M // 2, 3] = 4 * c.float().abs().max() + 1
        write_param(d, "c", c)
        if not check_dump(d, sub):
            print("self-test: a dump with a wrong element passed")
            failures += 1
    return failures


GROUPED_SELF_TEST_CASES = [
    # (layout, G, rows (M contiguous, capacity masked), N, K, group_rows,
    #  a tile, a scale, b tile, b scale, out dtype). N = 128 where
    # torch._scaled_mm takes the scalings (on a GPU it checks those too),
    # as its blockwise kernels are checked at N >= 128 (self_test_scaled_mm).
    # Group 1 empty, rows 19-23 in none.
    ("contiguous", 4, 24, 128, 256, [5, 5, 13, 19], [1, 128], "f32",
     [128, 128], "f32", "bf16"),
    # One tile of all rows for A; a partial K-block; nothing left over.
    ("contiguous", 3, 20, 128, 200, [6, 6, 20], [-1, 128], "f32", [1, 128],
     "f32", "f32"),
    # Group 0 has no rows, group 1 all of its capacity.
    ("masked", 3, 8, 16, 256, [0, 8, 3], [1, 32], "e8m0", [1, 32], "e8m0",
     "bf16"),
    # A tile of 4 rows, the last partial in group 0; B tensorwise.
    ("masked", 3, 8, 16, 192, [5, 0, 8], [4, 64], "f32", [-1, -1], "f32",
     "f32"),
]


def grouped_entry(name, layout, G, M, N, K, capacity, asc, bsc, a_scale,
                  b_scale, out_dtype):
    """A manifest entry of an fp8.grouped_scaled_matmul kernel as
    GemmManifest.cpp writes it."""
    return {
        "name": name, "ptx": name + ".ptx", "op": "fp8.grouped_scaled_matmul",
        "grid": [132, 1, 1], "block": [384, 1, 1], "shared_bytes": 0,
        "params": [
            {"name": "a", "role": "input", "dtype": "f8e4m3", "shape": [M, K]},
            {"name": "a_scale", "role": "input", "dtype": a_scale[0],
             "shape": a_scale[1]},
            {"name": "b", "role": "input", "dtype": "f8e4m3",
             "shape": [G * N, K]},
            {"name": "b_scale", "role": "input", "dtype": b_scale[0],
             "shape": b_scale[1]},
            {"name": "group_rows", "role": "input", "dtype": "i32",
             "shape": [G], "group_rows": {
                 "layout": layout,
                 "rows": capacity if layout == "masked" else M}},
            {"name": "c", "role": "output", "dtype": out_dtype,
             "shape": [M, N]},
            {"name": "a_map", "role": "tensormap", "tensor": "a",
             "box": [128, 128], "swizzle": "128B"},
            {"name": "b_map", "role": "tensormap", "tensor": "b",
             "box": [64, 128], "swizzle": "128B"}],
        "element_type": "f8e4m3", "bytes_moved": 0, "flops": 2 * M * N * K,
        "matmul": {"m": M, "n": N, "k": K, "contracting": [1, 1],
                   "accumulate": "promoted", "a_scaling": asc,
                   "b_scaling": bsc, "a_scale_layout": "row_major",
                   "b_scale_layout": "row_major",
                   "groups": {"count": G, "layout": layout,
                              "capacity": capacity},
                   "out_dtype": out_dtype, "tile": [128, 64, 128]}}


def oracle_grouped(a, sa, asc, b, sb, bsc, G, N, capacity, group_rows,
                   masked):
    """oracle.grouped_scaled_matmul (the CPU reference's definition of the
    op, independent of check_grouped_gemm's grouping) on the tensors as a
    kernel stores them, as float32 [M, N]."""
    def scaling(sc):
        return oracle.Scaling(["*" if t == -1 else t for t in sc["tile"]],
                              sc["scale"])
    A, SA = a.cpu().tolist(), sa.cpu().tolist()
    if masked:
        A = [A[g * capacity:(g + 1) * capacity] for g in range(G)]
    B = b.cpu().tolist()
    B = [B[g * N:(g + 1) * N] for g in range(G)]
    out = oracle.grouped_scaled_matmul(
        A, SA, FORMATS["f8e4m3"], scaling(asc), B, sb.cpu().tolist(),
        FORMATS["f8e4m3"], scaling(bsc), group_rows, masked=masked)
    if masked:
        out = sum(out, [])
    return torch.tensor(out, dtype=torch.float32)


def self_test_grouped(args, rng):
    """Grouped kernels' dumps (GROUPED_SELF_TEST_CASES) with oracle.py's
    result as C must pass check_dump; a wrong element in a group, a nonzero
    or NaN in a row of no group, or a group computed with the next expert
    must fail, the first two at exactly one element; an inconsistent entry
    must raise BadInput."""
    dev = args.device
    failures = 0
    for case in GROUPED_SELF_TEST_CASES:
        layout, G, rows, N, K, group_rows, at, ascale, bt, bscale, out = case
        masked = layout == "masked"
        capacity = rows if masked else 0
        M = G * rows if masked else rows
        asc = {"tile": at, "scale": ascale, "round": "exact"}
        bsc = {"tile": bt, "scale": bscale, "round": "exact"}
        a = random_codes(rng, M, K, "f8e4m3", dev)
        b = random_codes(rng, G * N, K, "f8e4m3", dev)
        a_grid = ([G] + cq._tile_grid([capacity, K], at) if masked else
                  cq._tile_grid([M, K], at))
        sa = random_scales(rng, [math.prod(a_grid[:-1]), a_grid[-1]], ascale,
                           dev).reshape(a_grid)
        b_grid = [G] + cq._tile_grid([N, K], bt)
        sb = random_scales(rng, [G * b_grid[1], b_grid[2]], bscale,
                           dev).reshape(b_grid)
        gr = torch.tensor(group_rows, dtype=torch.int32)
        tdt = getattr(torch, TORCH_OUT[out])
        c = oracle_grouped(a, sa, asc, b, sb, bsc, G, N, capacity,
                           group_rows, masked).to(tdt)
        # Which rows are whose, from the case itself.
        owner = [None] * M
        start = 0
        for g, v in enumerate(group_rows):
            lo, hi = (g * capacity, g * capacity + v) if masked else (start,
                                                                      v)
            for r in range(lo, hi):
                owner[r] = g
            start = v
        spare = [r for r in range(M) if owner[r] is None]
        label = "grouped %s %s" % (layout, group_rows)
        entry = grouped_entry("grouped_test", layout, G, M, N, K, capacity,
                              asc, bsc, ("e8m0" if ascale == "e8m0" else
                                         "f32", a_grid),
                              ("e8m0" if bscale == "e8m0" else "f32",
                               b_grid), out)
        with tempfile.TemporaryDirectory() as top:
            d = os.path.join(top, "grouped_test")
            os.makedirs(d)
            files = {}
            for name, t in (("a", a), ("a_scale", sa), ("b", b),
                            ("b_scale", sb), ("group_rows", gr), ("c", c)):
                files[name] = write_param(d, name, t)
            meta = {"kernel": "grouped_test", "inputs": "self-test",
                    "device": str(dev), "files": files, "entry": entry}

            def write_meta():
                with open(os.path.join(d, "meta.json"), "w") as f:
                    json.dump(meta, f)

            def check(c_out, want, what, compare_torch=False):
                """check_dump's failure count on c_out must be `want`
                (None: any nonzero)."""
                write_param(d, "c", c_out)
                sub = Args(dev, max_report=2)
                sub.no_scaled_mm = not compare_torch
                got = check_dump(d, sub)
                if got is None or (got != want if want is not None else
                                   not got):
                    print("self-test %s: %s gave %s failures, expected %s" %
                          (label, what, got, "some" if want is None
                           else want))
                    return 1
                return 0

            write_meta()
            # torch._scaled_mm too where there is a GPU (its result is
            # within twice the allowance of the oracle's).
            failures += check(c, 0, "the oracle's result", compare_torch=True)
            if not masked and at[0] == 1 and ascale == "f32":
                # The same A scales in the col_major_tma layout (transposed,
                # rows padded to 16 bytes with values no group reads).
                padded = torch.full((a_grid[1], -(-M // 4) * 4), 1e30,
                                    dtype=torch.float32, device=sa.device)
                padded[:, :M] = sa.t()
                write_param(d, "a_scale", padded)
                entry["params"][1]["shape"] = list(padded.shape)
                entry["matmul"]["a_scale_layout"] = "col_major_tma"
                write_meta()
                failures += check(c, 0, "the oracle's result, A's scales "
                                  "col_major_tma")
                write_param(d, "a_scale", sa)
                entry["params"][1]["shape"] = a_grid
                entry["matmul"]["a_scale_layout"] = "row_major"
                write_meta()
            g = next(g for g in range(G) if owner.count(g) > 1)
            r = owner.index(g) + 1
            wrong = c.clone()
            wrong[r, 3] = 4 * c.float().abs().max() + 1
            failures += check(wrong, 1, "a wrong element in group %d" % g)
            if spare:
                wrong = c.clone()
                wrong[spare[-1], N - 1] = 1.0
                failures += check(wrong, 1, "a nonzero in row %d of no group"
                                  % spare[-1])
                wrong = c.clone()
                wrong[spare[0], 0] = -0.0
                failures += check(wrong, 0, "-0 in a row of no group")
                wrong = c.clone()
                wrong[spare] = math.nan
                failures += check(wrong, len(spare) * N,
                                  "rows of no group never written (NaN)")
            # Expert g + 1's product (oracle.py, experts rotated by one) in
            # the rows of group g.
            g = next(g for g in range(G - 1) if owner.count(g))
            rot = torch.cat([b[N:], b[:N]])
            srot = torch.cat([sb[1:], sb[:1]])
            other = oracle_grouped(a, sa, asc, rot, srot, bsc, G, N, capacity,
                                   group_rows, masked).to(tdt)
            mine = [r for r in range(M) if owner[r] == g]
            wrong = c.clone()
            wrong[mine] = other[mine]
            failures += check(wrong, None, "group %d computed with expert %d"
                              % (g, g + 1))
            # An inconsistent entry: B's scales of one expert too few.
            entry["params"][3]["shape"] = [G - 1] + b_grid[1:]
            write_meta()
            try:
                check_dump(d, Args(dev))
                print("self-test %s: a b_scale of %d experts passed" %
                      (label, G - 1))
                failures += 1
            except BadInput:
                pass
    return failures


def self_test_scaled_mm(rng, dev):
    """For each scaling torch._scaled_mm takes, its result on a case whose
    scales differ per row and per K-block must match the reference (a
    transposed or mis-strided scale would be far off); unsupported ones are
    reported, not failed."""
    N = 384
    failures = 0
    cases = [([-1, -1], [-1, -1], False), ([-1, -1], [-1, -1], True),
             ([1, -1], [1, -1], False), ([1, 128], [128, 128], False),
             ([1, 128], [1, 128], False), ([128, 128], [1, 128], False),
             ([1, -1], [128, 128], False), ([1, 32], [1, 32], False)]
    # Partial and unaligned K-block counts (K = 208: 2 blocks, the last
    # partial; K = 384: 3), which cuBLASLt gets wrong without the padding,
    # and M = 17, which it refuses.
    cases += [([1, 128], [128, 128], False, 208),
              ([1, 128], [128, 128], False, 384),
              ([128, 128], [1, 128], False, 208),
              ([1, 128], [128, 128], False, 512, 17)]
    for case in cases:
        at, bt, fast = case[:3]
        K = case[3] if len(case) > 3 else 512
        M = case[4] if len(case) > 4 else 256
        asc = {"tile": at, "scale": "f32", "round": "exact"}
        bsc = {"tile": bt, "scale": "f32", "round": "exact"}
        a = random_codes(rng, M, K, "f8e4m3", dev)
        b = random_codes(rng, N, K, "f8e4m3", dev)
        sa = random_scales(rng, cq._tile_grid([M, K], at), "f32", dev)
        sb = random_scales(rng, cq._tile_grid([N, K], bt), "f32", dev)
        ref, bound = reference(a, sa, asc, "f8e4m3", b, sb, bsc, "f8e4m3")
        accumulate = "fast" if fast else "promoted"
        allowed = allowance(ref, bound, TOL[accumulate], "bf16", K)
        t, how = scaled_mm(a, sa, asc, "f8e4m3", b, sb, bsc, "f8e4m3", "bf16",
                           fast)
        label = "torch._scaled_mm %s x %s, M = %d, K = %d" % (at, bt, M, K)
        if t is None:
            print("self-test %s: skipped (%s)" % (label, how))
            continue
        res = Comparison(t, ref, bound, allowed, "bf16", 3)
        print("self-test %s (%s): max |torch-ref|/allowed %.3g, observed "
              "tol %s, %d mismatches" % (label, how, res.max_ratio,
                                         log2_text(res.observed_tol), res.bad))
        failures += res.bad
    return failures


# ---------------------------------------------------------------------------
# Driver
# ---------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(
        description="Check fp8-run dumps of fp8.scaled_matmul and "
        "fp8.grouped_scaled_matmul kernels against a float64 reference and "
        "torch._scaled_mm.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n\n", 2)[2])
    ap.add_argument("dumps", nargs="*", help="fp8-run --dump directories")
    ap.add_argument("--tol", type=float, default=None,
                    help="relative tolerance against the absolute-value "
                    "bound (default 2^-9 promoted, 2^-8 fast)")
    ap.add_argument("--device", default=None,
                    help="torch device (default: cuda if available, else cpu)")
    ap.add_argument("--no-scaled-mm", action="store_true",
                    help="skip the torch._scaled_mm comparison")
    ap.add_argument("--max-report", type=int, default=5,
                    help="mismatches printed per check (default 5)")
    ap.add_argument("--self-test", action="store_true",
                    help="check the reference math and the checker itself")
    args = ap.parse_args()
    try:
        import_torch()
    except ImportError:
        print("check_gemm: PyTorch is not installed; it needs PyTorch (on "
              "the GPU machine: pip install torch)", file=sys.stderr)
        return 2
    cq.choose_device(torch, args)
    if args.self_test:
        return self_test(args)
    if not args.dumps:
        ap.error("no dump directory given")
    return cq.run_checks("check_gemm", "GEMM kernel", args.dumps,
                         lambda d: check_dump(d, args))


if __name__ == "__main__":
    sys.exit(main())
