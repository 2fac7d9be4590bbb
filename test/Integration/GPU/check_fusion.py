#!/usr/bin/env python3
"""GPU check of fp8-fuse-quantization's producer fusion: every fused kernel
(fp8.quantize_elementwise, and quantizations storing TMA- or tcgen05-laid
scales)
gives, bit for bit, the results of the unfused program it replaces (the
producer's elementwise kernel, the quantization's kernel, the re-layout
kernel) on the same inputs.

    check_fusion.py --emit DIR [--shape MxN] [--fp8-opt PATH]
        where fp8-opt is (no GPU, no torch): writes DIR/fusion.mlir, the
        fused program DIR/fused (fp8-fuse-quantization) and the unfused one
        DIR/unfused (fp8-fuse-quantization{producers=false scales=false}),
        each a
        manifest with its PTX and launch plans
    check_fusion.py DIR [--fp8-run PATH] [--seeds 1,2] [--only REGEX] [--keep]
        on the GPU machine (no LLVM, no torch): runs every function of
        both programs with fp8-run --function on the same inputs (generated
        from a seed, plainly and with special values: NaN, infinities,
        zeros) and compares every result file byte for byte; --only
        checks the functions whose names REGEX finds (re.search)
    check_fusion.py --self-test
        the program text and the comparison, without fp8-opt or a GPU

The functions are the fusions of the MLP and SwiGLU blocks: GELU (tanh
form) quantized 1x128 with its transpose, with and without its bf16
result; GELU' times dA the same way (MLP backward); SiLU(h1) h3 quantized
1x128 (SwiGLU forward) and with the transpose and its bf16 result; a bias
row added then GELU, tensorwise; a residual add, a scaling and a cast to
bf16, 128x128 tiles in e5m2; a per-row scaling with column tiles [128, 1];
the scale re-layout for TMA (fp8.tma_align_scales) stored by the
quantization itself: GELU's cast-transpose, and a plain 1x128
quantization of m - 2 rows (the re-laid rows padded with zeros); sm_100a's
scale-factor layout (fp8.tcgen05_scales) stored by an MX (1x32 E8M0)
quantization itself: of GELU, and plain on m - 2 rows and n - 96 columns
(the 512-byte chunks padded with zero rows and K-blocks); and a
Hadamard rotation along the rows rotated in registers by the quantization
that reads it (blocks of 128 with signs, 256 over two 1x128 tiles, 16
under 1x32 tiles); and norms into the row quantization that reads them
(warps per row, the row sums in the order of docs/Numerics.md): RMSNorm
1x128, rowwise with its bf16 result, and with the scales for TMA;
LayerNorm in two passes 1x128 with its result, and rowwise from f32; and
RMSNorm with its transpose (the cast-transpose reads the row sum); and
RMSNorm 1x128 and LayerNorm rowwise kept on rows of 1280 (a partial
round), 8192 (8 warps a row) and 20480 (the walk loops and loads again),
whatever --shape. Row sums alone (f32 4x4096, squares of bf16 8x1000) are
checked against this script's own model of the row-sum order
(docs/Numerics.md) too, on the seeded inputs and on fixed rows where the
order shows (2^24 then ones: the loop order gives 2^24, the row-sum
order 2^24 + 4080; test/Integration/CPU/row-sum-order.mlir). And the
delayed recipe's amax into its quantization (fp8.quantize_delayed,
tensorwise): a history of 1024 steps as given (its max usable: the
kernel's one pass), zeros (a first step), +inf, NaN (its two passes), and
the most recent of 16 entries usable and negative (e5m2, margin 1); and
of the rotated transpose of the value whose amax the history holds
(Wgrad's X under a Hadamard recipe): blocks of 128 with signs from a
history as given and a first step, and blocks of 16 in e5m2.
Since every fused kernel computes exactly the unfused ops (docs/Passes.md),
any difference is a bug: no tolerance. Exit status 0 when every result of
every function matches, 1 on a mismatch, 2 on bad input or a failed run.
"""

import argparse
import filecmp
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "python"))

from fp8_mlir import graphs  # noqa: E402

MAPS = """#id = affine_map<(i, j) -> (i, j)>
#id3 = affine_map<(h, i, j) -> (h, i, j)>
#row = affine_map<(i, j) -> (j)>
#col = affine_map<(i, j) -> (i)>
"""

# Bodies on f32 %a0, %a1, ... (the inputs extended) giving f32 %r: those
# graphs.mlp writes (GELU's tanh form, its derivative times dA, SiLU).
GELU_R = graphs._GELU + """%hx = arith.mulf %half, %a0 : f32
%r = arith.mulf %hx, %p : f32
"""
DGELU_R = graphs._GELU.replace("%a0", "%a1") + graphs._GELU_GRAD + "\n"
SWIGLU_R = graphs._SILU.format(x="%a0") + """%s0 = arith.mulf %a0, %sig : f32
%r = arith.mulf %s0, %a1 : f32
"""
BIAS_R = "%r = arith.addf %a0, %a1 : f32\n"
# RMSNorm on x, the sum of its squares (f32 per row) and the weight;
# LayerNorm's squared deviation from the mean (x, the row's sum), and
# LayerNorm on x, the sum, the sum of squared deviations, weight and bias.
# {n} is the row length.
RMSNORM_R = """%nn = arith.constant {n}.0 : f32
%eps = arith.constant 1.0e-05 : f32
%ms = arith.divf %a1, %nn : f32
%ve = arith.addf %ms, %eps : f32
%rs = math.rsqrt %ve : f32
%xn = arith.mulf %a0, %rs : f32
%r = arith.mulf %xn, %a2 : f32
"""
LN_DEV_R = """%nn = arith.constant {n}.0 : f32
%mean = arith.divf %a1, %nn : f32
%d = arith.subf %a0, %mean : f32
%r = arith.mulf %d, %d : f32
"""
LAYERNORM_R = """%nn = arith.constant {n}.0 : f32
%eps = arith.constant 1.0e-05 : f32
%mean = arith.divf %a1, %nn : f32
%vn = arith.divf %a2, %nn : f32
%ve = arith.addf %vn, %eps : f32
%rs = math.rsqrt %ve : f32
%d = arith.subf %a0, %mean : f32
%xn = arith.mulf %d, %rs : f32
%sc = arith.mulf %xn, %a3 : f32
%r = arith.addf %sc, %a4 : f32
"""
ROWSCALE_R = "%r = arith.mulf %a0, %a1 : f32\n"


def _t(shape, dtype):
    return "tensor<%s>" % "x".join([str(d) for d in shape] + [dtype])


def _scale_shape(m, n, tile):
    return [(m + tile[0] - 1) // tile[0] if tile[0] else 1,
            (n + tile[1] - 1) // tile[1] if tile[1] else 1]


def _tile_text(tile):
    return ", ".join(str(t) if t else "*" for t in tile)


class _Function:
    """One function: a producer (a linalg.generic) and its quantizations."""

    def __init__(self, name, m, n):
        self.name, self.m, self.n = name, m, n
        self.args, self.lines, self.results = [], [], []
        self.count = 0

    def arg(self, shape, dtype="bf16"):
        name = "%%arg%d" % len(self.args)
        self.args.append((name, _t(shape, dtype)))
        return name

    def generic(self, inputs, body, out="bf16"):
        """inputs: [(value, type, map)]; body on f32 %a0.. gives %r."""
        m, n = self.m, self.n
        self.count += 1
        e, v = "%%e%d" % self.count, "%%v%d" % self.count
        self.lines.append("%s = tensor.empty() : %s" % (e, _t((m, n), out)))
        maps = ", ".join(mp for _, _, mp in inputs) + ", #id"
        ins = ", ".join(x for x, _, _ in inputs)
        tys = ", ".join(t for _, t, _ in inputs)
        dtypes = [t.split("x")[-1].rstrip(">") for _, t, _ in inputs]
        # f32 elements are the body's %aN themselves; others are extended.
        bargs = ", ".join("%%%s%d: %s" % ("a" if d == "f32" else "b", i, d)
                          for i, d in enumerate(dtypes))
        self.lines.append(
            "%s = linalg.generic {indexing_maps = [%s], iterator_types = "
            "[\"parallel\", \"parallel\"]} ins(%s : %s) outs(%s : %s) {" %
            (v, maps, ins, tys, e, _t((m, n), out)))
        self.lines.append("^bb0(%s, %%o: %s):" % (bargs, out))
        for i, dtype in enumerate(dtypes):
            if dtype != "f32":
                self.lines.append("  %%a%d = arith.extf %%b%d : %s to f32" %
                                  (i, i, dtype))
        self.lines.extend("  " + l for l in body.strip().splitlines())
        if out == "f32":
            self.lines.append("  linalg.yield %r : f32")
        else:
            self.lines.append("  %%y = arith.truncf %%r : f32 to %s" % out)
            self.lines.append("  linalg.yield %%y : %s" % out)
        self.lines.append("} -> %s" % _t((m, n), out))
        return v

    def row_sum(self, inputs, term, result="%r"):
        """A row sum of f32 terms from a zero fill (a norm's): inputs
        [(value, type, map)] read over (i, j); `term` on f32 %a0.. gives
        `result`. Returns the f32 vector of the rows' sums."""
        m = self.m
        self.count += 1
        k = self.count
        vec = _t((m,), "f32")
        self.lines.append("%%cz%d = arith.constant 0.0 : f32" % k)
        self.lines.append("%%ez%d = tensor.empty() : %s" % (k, vec))
        self.lines.append("%%z%d = linalg.fill ins(%%cz%d : f32) outs(%%ez%d "
                          ": %s) -> %s" % (k, k, k, vec, vec))
        maps = ", ".join(mp for _, _, mp in inputs) + ", #col"
        ins = ", ".join(x for x, _, _ in inputs)
        tys = ", ".join(t for _, t, _ in inputs)
        dtypes = [t.split("x")[-1].rstrip(">") for _, t, _ in inputs]
        bargs = ", ".join("%%%s%d: %s" % ("a" if d == "f32" else "b", i, d)
                          for i, d in enumerate(dtypes))
        v = "%%rs%d" % k
        self.lines.append(
            "%s = linalg.generic {indexing_maps = [%s], iterator_types = "
            "[\"parallel\", \"reduction\"]} ins(%s : %s) outs(%%z%d : %s) "
            "{" % (v, maps, ins, tys, k, vec))
        self.lines.append("^bb0(%s, %%acc: f32):" % bargs)
        for i, dtype in enumerate(dtypes):
            if dtype != "f32":
                self.lines.append("  %%a%d = arith.extf %%b%d : %s to f32" %
                                  (i, i, dtype))
        self.lines.extend("  " + l for l in term.strip().splitlines())
        self.lines.append("  %%next = arith.addf %%acc, %s : f32" % result)
        self.lines.append("  linalg.yield %next : f32")
        self.lines.append("} -> %s" % vec)
        return v

    def align(self, scale, shape):
        """fp8.tma_align_scales of f32 `scale` [R, C]: [C, R rounded up to
        4]."""
        aligned = "%%a%s" % scale[1:]
        tma = [shape[1], (shape[0] + 3) // 4 * 4]
        self.lines.append("%s = fp8.tma_align_scales %s : %s -> %s" % (
            aligned, scale, _t(shape, "f32"), _t(tma, "f32")))
        return aligned, _t(tma, "f32")

    def quantize(self, value, tile, fp8="f8E4M3FN", transpose=False,
                 tma=False):
        """Quantizes `value`; with `tma` its scales are re-laid for TMA."""
        m, n = self.m, self.n
        self.count += 1
        k = self.count
        sc = "#fp8.scaling<tile = [%s], scale = f32>" % _tile_text(tile)
        s = _scale_shape(m, n, tile)
        self.lines.append(
            "%%q%d, %%s%d = fp8.quantize %s {scaling = %s} : %s -> %s, %s" %
            (k, k, value, sc, _t((m, n), "bf16"), _t((m, n), fp8),
             _t(s, "f32")))
        scale = ("%%s%d" % k, _t(s, "f32"))
        if tma:
            scale = self.align(scale[0], s)
        self.results += [("%%q%d" % k, _t((m, n), fp8)), scale]
        if transpose:
            st = _scale_shape(n, m, tile)
            self.lines.append("%%et%d = tensor.empty() : %s" %
                              (k, _t((n, m), "bf16")))
            self.lines.append(
                "%%vt%d = linalg.transpose ins(%s : %s) outs(%%et%d : %s) "
                "permutation = [1, 0]" % (k, value, _t((m, n), "bf16"), k,
                                          _t((n, m), "bf16")))
            self.lines.append(
                "%%qt%d, %%st%d = fp8.quantize %%vt%d {scaling = %s} : %s -> "
                "%s, %s" % (k, k, k, sc, _t((n, m), "bf16"), _t((n, m), fp8),
                            _t(st, "f32")))
            scale = ("%%st%d" % k, _t(st, "f32"))
            if tma:
                scale = self.align(scale[0], st)
            self.results += [("%%qt%d" % k, _t((n, m), fp8)), scale]

    def quantize_tcgen05(self, value):
        """Quantizes `value` MX (1x32, E8M0 scales rounded up) and re-lays
        its scales for sm_100a (fp8.tcgen05_scales: 512-byte chunks of 128
        rows x 4 K-blocks, padded with zeros)."""
        m, n = self.m, self.n
        self.count += 1
        k = self.count
        sc = ("#fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, "
              "round = pow2_ceil>")
        s = _scale_shape(m, n, (1, 32))
        chunks = [-(-s[0] // 128) * -(-s[1] // 4), 512]
        self.lines.append(
            "%%q%d, %%s%d = fp8.quantize %s {scaling = %s} : %s -> %s, %s" %
            (k, k, value, sc, _t((m, n), "bf16"), _t((m, n), "f8E4M3FN"),
             _t(s, "f8E8M0FNU")))
        self.lines.append("%%c%d = fp8.tcgen05_scales %%s%d : %s -> %s" % (
            k, k, _t(s, "f8E8M0FNU"), _t(chunks, "f8E8M0FNU")))
        self.results += [("%%q%d" % k, _t((m, n), "f8E4M3FN")),
                         ("%%c%d" % k, _t(chunks, "f8E8M0FNU"))]

    def rotate(self, value, size, seed=None):
        """fp8.hadamard of bf16 `value` along its rows in blocks of `size`
        (random signs from `seed`)."""
        self.count += 1
        r = "%%h%d" % self.count
        attrs = "dim = 1 : i64, size = %d : i64" % size
        if seed is not None:
            attrs += ", seed = %d : i64" % seed
        self.lines.append("%s = fp8.hadamard %s {%s} : %s" %
                          (r, value, attrs, _t((self.m, self.n), "bf16")))
        return r

    def history_map(self, history, length, body):
        """A rank-3 generic on f32 history `history` [length, 1, 1]: `body`
        on f32 %a0 gives %r (a first step's zeros, an inf, a NaN)."""
        self.count += 1
        k = self.count
        t = _t((length, 1, 1), "f32")
        self.lines.append("%%eh%d = tensor.empty() : %s" % (k, t))
        self.lines.append(
            "%%hm%d = linalg.generic {indexing_maps = [#id3, #id3], "
            "iterator_types = [\"parallel\", \"parallel\", \"parallel\"]} "
            "ins(%s : %s) outs(%%eh%d : %s) {" % (k, history, t, k, t))
        self.lines.append("^bb0(%a0: f32, %o: f32):")
        self.lines.extend("  " + l for l in body.strip().splitlines())
        self.lines.append("  linalg.yield %r : f32")
        self.lines.append("} -> %s" % t)
        return "%%hm%d" % k

    def delayed(self, value, history, length, most_recent=False,
                fp8="f8E4M3FN", margin=0, transposed=None):
        """Delayed scaling of bf16 `value` from f32 `history` [length, 1,
        1] as fp8-quantize-matmuls writes it: the data's amax, the history's
        max (or last entry), the choice where it is positive and finite,
        the quantization with it, and the history rolled with the data's
        amax; results q, scale and the rolled history. With `transposed`
        (a rotation's (size, seed)), as fp8-legalize writes an operand
        contracted along its rows under a Hadamard recipe: the history
        holds the amax of `value` rotated along dim 0, and the quantization
        reads the rotation of its transpose along dim 1 with the chosen
        amax transposed (q is [n, m])."""
        m, n = self.m, self.n
        self.count += 1
        k = self.count
        one = _t((1, 1), "f32")
        ht = _t((length, 1, 1), "f32")
        sc = "#fp8.scaling<tile = [*, *], scale = f32>"
        L = self.lines
        L.append("%%inf%d = arith.constant dense<0x7F800000> : %s" % (k, one))
        L.append("%%zs%d = arith.constant dense<0.0> : %s" % (k, one))
        data, shape = value, (m, n)
        if transposed:
            size, seed = transposed
            rot = "size = %d : i64, seed = %d : i64" % (size, seed)
            data = "%%hv%d" % k
            L.append("%s = fp8.hadamard %s {dim = 0 : i64, %s} : %s" % (
                data, value, rot, _t((m, n), "bf16")))
        L.append("%%cur%d = fp8.amax %s {tile = #fp8.tile<[*, *]>} : %s -> %s"
                 % (k, data, _t((m, n), "bf16"), one))
        if most_recent:
            L.append("%%hx%d = tensor.extract_slice %s[%d, 0, 0] [1, 1, 1] "
                     "[1, 1, 1] : %s to %s" % (k, history, length - 1, ht,
                                               one))
        else:
            L.append("%%z%d = arith.constant 0.0 : f32" % k)
            L.append("%%e%d = tensor.empty() : %s" % (k, one))
            L.append("%%f%d = linalg.fill ins(%%z%d : f32) outs(%%e%d : %s) "
                     "-> %s" % (k, k, k, one, one))
            L.append("%%hx%d = linalg.reduce ins(%s : %s) outs(%%f%d : %s) "
                     "dimensions = [0]" % (k, history, ht, k, one))
            L.append("  (%in: f32, %acc: f32) {")
            L.append("    %mx = arith.maximumf %in, %acc : f32")
            L.append("    linalg.yield %mx : f32")
            L.append("  }")
        L.append("%%lt%d = arith.cmpf olt, %%hx%d, %%inf%d : %s" % (k, k, k,
                                                                  one))
        L.append("%%gt%d = arith.cmpf ogt, %%hx%d, %%zs%d : %s" % (k, k, k,
                                                                 one))
        L.append("%%ok%d = arith.andi %%gt%d, %%lt%d : tensor<1x1xi1>" %
                 (k, k, k))
        L.append("%%used%d = arith.select %%ok%d, %%hx%d, %%cur%d : "
                 "tensor<1x1xi1>, %s" % (k, k, k, k, one))
        L.append("%%er%d = tensor.empty() : %s" % (k, ht))
        L.append("%%kh%d = tensor.extract_slice %s[1, 0, 0] [%d, 1, 1] "
                 "[1, 1, 1] : %s to %s" % (k, history, length - 1, ht,
                                           _t((length - 1, 1, 1), "f32")))
        L.append("%%r0_%d = tensor.insert_slice %%kh%d into %%er%d[0, 0, 0] "
                 "[%d, 1, 1] [1, 1, 1] : %s into %s" % (
                     k, k, k, length - 1, _t((length - 1, 1, 1), "f32"), ht))
        L.append("%%rolled%d = tensor.insert_slice %%cur%d into %%r0_%d[%d, "
                 "0, 0] [1, 1, 1] [1, 1, 1] : %s into %s" % (
                     k, k, k, length - 1, one, ht))
        used = "%%used%d" % k
        if transposed:
            shape = (n, m)
            L.append("%%et%d = tensor.empty() : %s" % (k, _t(shape, "bf16")))
            L.append("%%xt%d = linalg.transpose ins(%s : %s) outs(%%et%d : "
                     "%s) permutation = [1, 0]" % (
                         k, value, _t((m, n), "bf16"), k, _t(shape, "bf16")))
            data = "%%ht%d" % k
            L.append("%s = fp8.hadamard %%xt%d {dim = 1 : i64, %s} : %s" % (
                data, k, rot, _t(shape, "bf16")))
            L.append("%%eu%d = tensor.empty() : %s" % (k, one))
            L.append("%%usedt%d = linalg.transpose ins(%s : %s) outs(%%eu%d "
                     ": %s) permutation = [1, 0]" % (k, used, one, k, one))
            used = "%%usedt%d" % k
        L.append("%%q%d, %%s%d = fp8.quantize %s amax(%s : %s) "
                 "{margin = %d : i64, scaling = %s} : %s -> %s, %s" % (
                     k, k, data, used, one, margin, sc, _t(shape, "bf16"),
                     _t(shape, fp8), one))
        self.results += [("%%q%d" % k, _t(shape, fp8)), ("%%s%d" % k, one),
                         ("%%rolled%d" % k, ht)]

    def keep(self, value):
        self.results.insert(0, (value, _t((self.m, self.n), "bf16")))

    def text(self):
        sig = ", ".join("%s: %s" % a for a in self.args)
        out = ", ".join(t for _, t in self.results)
        body = "\n".join("  " + l for l in self.lines)
        return "func.func @%s(%s) -> (%s) {\n%s\n  return %s : %s\n}\n" % (
            self.name, sig, out, body, ", ".join(v for v, _ in self.results),
            out)


SQUARE = ("%r = arith.mulf %a0, %a0 : f32\n",)
# Norm rows of other lengths than the main shape's, [m, n].
NORM_SHAPES = ((64, 1280), (64, 8192), (32, 20480))
# Row sums alone: name, shape, input type, (term body, its result).
ROW_SUMS = (("row_sum_f32_4x4096", (4, 4096), "f32", ("", "%a0")),
            ("row_sum_sq_bf16_8x1000", (8, 1000), "bf16", SQUARE))


def _rmsnorm(name, m, n, tile, kept=False, tma=False, transpose=False):
    f = _Function(name, m, n)
    x = f.arg((m, n))
    w = f.arg((n,))
    ss = f.row_sum([(x, _t((m, n), "bf16"), "#id")], *SQUARE)
    y = f.generic([(x, _t((m, n), "bf16"), "#id"),
                   (ss, _t((m,), "f32"), "#col"),
                   (w, _t((n,), "bf16"), "#row")],
                  RMSNORM_R.replace("{n}", str(n)))
    f.quantize(y, tile, tma=tma, transpose=transpose)
    if kept:
        f.keep(y)
    return f


def _layernorm(name, m, n, tile, dtype, kept=False):
    f = _Function(name, m, n)
    x = f.arg((m, n), dtype)
    w = f.arg((n,))
    b = f.arg((n,))
    xin = (x, _t((m, n), dtype), "#id")
    total = f.row_sum([xin], "", result="%a0")
    var = f.row_sum([xin, (total, _t((m,), "f32"), "#col")],
                    LN_DEV_R.replace("{n}", str(n)))
    y = f.generic([xin, (total, _t((m,), "f32"), "#col"),
                   (var, _t((m,), "f32"), "#col"),
                   (w, _t((n,), "bf16"), "#row"),
                   (b, _t((n,), "bf16"), "#row")],
                  LAYERNORM_R.replace("{n}", str(n)))
    f.quantize(y, tile)
    if kept:
        f.keep(y)
    return f


def _f32(x):
    """x rounded to f32 (to nearest, ties to even; inf past the range).
    A sum or product of two f32 is exact in a double, or rounds there
    innocuously (53 >= 2 * 24 + 2), so one rounding here gives IEEE f32
    arithmetic."""
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return float("inf") if x > 0 else float("-inf")


def row_sum_order(terms):
    """The sum of a row's f32 terms in the row-sum order of
    docs/Numerics.md, from an init of +0.0: each chunk of 16 summed from
    +0.0, lane l of 32 adding from +0.0 the sums of chunks l, l + 32, ...
    in order, then the lanes pairwise, halving."""
    lanes = [0.0] * 32
    for c in range(0, (len(terms) + 15) // 16):
        s = 0.0
        for t in terms[16 * c:16 * c + 16]:
            s = _f32(s + t)
        lanes[c % 32] = _f32(lanes[c % 32] + s)
    while len(lanes) > 1:
        half = len(lanes) // 2
        lanes = [_f32(lanes[l] + lanes[l + half]) for l in range(half)]
    return _f32(0.0 + lanes[0])


def _floats(data, dtype):
    """The values of raw little-endian f32 or bf16 `data`."""
    if dtype == "f32":
        return list(struct.unpack("<%df" % (len(data) // 4), data))
    words = struct.unpack("<%dH" % (len(data) // 2), data)
    return list(struct.unpack("<%df" % len(words),
                              struct.pack("<%dI" % len(words),
                                          *(w << 16 for w in words))))


def expected_row_sums(name, arg0):
    """The bits row sum function `name` gives on input bytes `arg0`."""
    _, (m, n), dtype, term = next(r for r in ROW_SUMS if r[0] == name)
    x = _floats(arg0, dtype)
    sums = []
    for i in range(m):
        row = x[i * n:(i + 1) * n]
        if term is SQUARE:
            row = [_f32(v * v) for v in row]
        sums.append(row_sum_order(row))
    return struct.pack("<%df" % m, *sums)


def same_f32(a, b):
    """Whether f32 buffers a and b hold the same bits, NaN against NaN
    whatever its sign and payload."""
    if len(a) != len(b):
        return False
    for x, y in zip(struct.unpack("<%dI" % (len(a) // 4), a),
                    struct.unpack("<%dI" % (len(b) // 4), b)):
        nan = lambda v: (v & 0x7F800000) == 0x7F800000 and v & 0x7FFFFF  # noqa
        if x != y and not (nan(x) and nan(y)):
            return False
    return True


def fixed_rows():
    """Input bytes of row_sum_f32_4x4096 where the order shows: rows of
    ones with 2^24 first (row 0) or at element 16 (row 1); in loop order
    both sum to 2^24, in the row-sum order to 2^24 + 112 + 31 * 128."""
    x = [1.0] * (4 * 4096)
    x[0] = x[4096 + 16] = 16777216.0
    return struct.pack("<%df" % len(x), *x)


def program(m, n):
    """The MLIR of every fusion checked (and benchmarked), on [m, n]."""
    assert m % 128 == 0 and n % 128 == 0, "the cast-transpose's tiles"
    fns = []
    bf = lambda f: (f.arg((m, n)), _t((m, n), "bf16"), "#id")  # noqa: E731

    for kept in (False, True):
        f = _Function("gelu_ct" + ("_kept" if kept else ""), m, n)
        a = f.generic([bf(f)], GELU_R)
        f.quantize(a, (1, 128), transpose=True)
        if kept:
            f.keep(a)
        fns.append(f)
    f = _Function("dgelu_ct", m, n)
    f.quantize(f.generic([bf(f), bf(f)], DGELU_R), (1, 128), transpose=True)
    fns.append(f)
    f = _Function("swiglu_1x128", m, n)
    f.quantize(f.generic([bf(f), bf(f)], SWIGLU_R), (1, 128))
    fns.append(f)
    f = _Function("swiglu_ct_kept", m, n)
    a = f.generic([bf(f), bf(f)], SWIGLU_R)
    f.quantize(a, (1, 128), transpose=True)
    f.keep(a)
    fns.append(f)
    f = _Function("bias_gelu_tensorwise", m, n)
    y = f.arg((m, n), "f32")
    b = f.arg((n,), "f32")
    z = f.generic([(y, _t((m, n), "f32"), "#id"), (b, _t((n,), "f32"),
                                                     "#row")], BIAS_R)
    f.quantize(f.generic([(z, _t((m, n), "bf16"), "#id")], GELU_R), (0, 0))
    fns.append(f)
    # The same bias add alone into the tensorwise quantization: a cheap
    # body fuses there (the GELU's does not: its kernel would compute it
    # twice, for the amax and for the quantization).
    f = _Function("bias_tensorwise", m, n)
    y = f.arg((m, n), "f32")
    b = f.arg((n,), "f32")
    f.quantize(f.generic([(y, _t((m, n), "f32"), "#id"),
                          (b, _t((n,), "f32"), "#row")], BIAS_R), (0, 0))
    fns.append(f)
    f = _Function("residual_128x128_e5m2", m, n)
    x = f.arg((m, n), "f32")
    r = f.arg((m, n), "f32")
    f.quantize(f.generic([(x, _t((m, n), "f32"), "#id"),
                          (r, _t((m, n), "f32"), "#id")],
                         "%sum = arith.addf %a0, %a1 : f32\n"
                         "%c = arith.constant 0.25 : f32\n"
                         "%r = arith.mulf %sum, %c : f32\n"), (128, 128),
               fp8="f8E5M2")
    fns.append(f)
    # The scale re-layout for TMA (fp8.tma_align_scales) into the
    # quantization: the cast-transpose of GELU, and a plain 1x128
    # quantization of m - 2 rows (re-laid rows padded by 2).
    f = _Function("gelu_ct_tma", m, n)
    f.quantize(f.generic([bf(f)], GELU_R), (1, 128), transpose=True,
               tma=True)
    fns.append(f)
    f = _Function("quantize_tma_pad", m - 2, n)
    f.quantize(f.arg((m - 2, n)), (1, 128), tma=True)
    fns.append(f)
    # sm_100a's scale layout (fp8.tcgen05_scales) into an MX quantization:
    # of GELU, and plain on m - 2 rows and n - 96 columns (the chunks
    # padded by 2 rows and, K-blocks n / 32 - 3, by 3 K-blocks).
    f = _Function("gelu_tcgen05", m, n)
    f.quantize_tcgen05(f.generic([bf(f)], GELU_R))
    fns.append(f)
    f = _Function("quantize_tcgen05_pad", m - 2, n - 96)
    f.quantize_tcgen05(f.arg((m - 2, n - 96)))
    fns.append(f)
    # A Hadamard rotation along the rows into the quantization that reads
    # it (the row-tile kernel rotates in registers): blocks of 128 with
    # random signs under 1x128 tiles, of 256 over two tiles, of 16 under
    # 1x32 tiles; from 32 up a thread holds 32 elements: 64 is two lanes
    # of a 1x128 tile's four, 32 one lane with no shuffle.
    for size, seed, tile in ((128, 42, 128), (256, 7, 128), (16, None, 32),
                             (64, 3, 128), (32, 5, 32)):
        if n % size:
            continue
        f = _Function("hadamard%d_1x%d" % (size, tile), m, n)
        f.quantize(f.rotate(f.arg((m, n)), size, seed), (1, tile))
        fns.append(f)
    # Norms into the row quantization that reads them (a warp per row):
    # RMSNorm (its sum of squares a `reduce` region) 1x128 and rowwise
    # with its bf16 result, with the scales for TMA; LayerNorm in two
    # passes (the mean, then the squared deviations) 1x128 kept, and on
    # an f32 input rowwise.
    # With the transpose (the cast-transpose: the sum stays a row sum
    # kernel, the normalization fuses into the cast-transpose).
    for name, tile, kept, tma, transpose in (
            ("rmsnorm_1x128", (1, 128), False, False, False),
            ("rmsnorm_rowwise_kept", (1, 0), True, False, False),
            ("rmsnorm_1x128_tma", (1, 128), False, True, False),
            ("rmsnorm_ct", (1, 128), False, False, True)):
        fns.append(_rmsnorm(name, m, n, tile, kept, tma, transpose))
    fns.append(_layernorm("layernorm_1x128_kept", m, n, (1, 128), "bf16",
                          kept=True))
    fns.append(_layernorm("layernorm_f32_rowwise", m, n, (1, 0), "f32"))
    # Rows the kernel walks otherwise, whatever the main shape: a partial
    # last round (1280: 2.5 rounds, 2 warps), 8 warps of 2 rounds (8192),
    # more rounds than a lane keeps (20480: 5 steps a warp, in a loop).
    for rm, rn in NORM_SHAPES:
        tag = "_%dx%d" % (rm, rn)
        fns.append(_rmsnorm("rmsnorm_1x128" + tag, rm, rn, (1, 128)))
        fns.append(_layernorm("layernorm_rowwise_kept" + tag, rm, rn,
                              (1, 0), "bf16", kept=True))
    # Row sums alone, also compared with row_sum_order (check()).
    for name, (rm, rn), dtype, term in ROW_SUMS:
        f = _Function(name, rm, rn)
        x = f.arg((rm, rn), dtype)
        f.results.append((f.row_sum([(x, _t((rm, rn), dtype), "#id")],
                                    *term), _t((rm,), "f32")))
        fns.append(f)
    # The delayed recipe's amax into its quantization
    # (fp8.quantize_delayed): a history of 1024 steps as given (its max
    # usable: one pass), a first step's zeros, an inf, a NaN (the
    # tensorwise kernel's two passes); the most recent entry usable (its
    # magnitude) and not (minus it), e5m2 with a margin.
    hist = [("delayed_history", None),
            ("delayed_first_step", "%r = arith.constant 0.0 : f32\n"),
            ("delayed_inf", "%c = arith.constant 0x7F800000 : f32\n"
                            "%r = arith.addf %a0, %c : f32\n"),
            ("delayed_nan", "%c = arith.constant 0x7FC00000 : f32\n"
                            "%r = arith.mulf %a0, %c : f32\n")]
    for name, body in hist:
        f = _Function(name, m, n)
        x = f.arg((m, n))
        h = f.arg((1024, 1, 1), "f32")
        if body:
            h = f.history_map(h, 1024, body)
        f.delayed(x, h, 1024)
        fns.append(f)
    for name, body in (("delayed_recent", "%r = math.absf %a0 : f32\n"),
                       ("delayed_recent_negative",
                        "%p = math.absf %a0 : f32\n"
                        "%r = arith.negf %p : f32\n")):
        f = _Function(name, m, n)
        x = f.arg((m, n))
        h = f.history_map(f.arg((16, 1, 1), "f32"), 16, body)
        f.delayed(x, h, 16, most_recent=True, fp8="f8E5M2", margin=1)
        fns.append(f)
    # The quantization of the transpose of the value whose amax the history
    # holds, as fp8-legalize writes Wgrad's X under
    # #fp8.recipe<delayed, hadamard = 128>: the fused program quantizes the
    # rotation of X^T along dim 1 with its own amax, the unfused one takes
    # the amax of X rotated along dim 0. A history as given (one pass), a
    # first step (two passes); e5m2 with a margin and blocks of 16.
    for name, body, rot, fp8, margin in (
            ("delayed_rotated_t_history", None, (128, 42), "f8E4M3FN", 0),
            ("delayed_rotated_t_first_step", "%r = arith.constant 0.0 : f32\n",
             (128, 42), "f8E4M3FN", 0),
            ("delayed_rotated_t_e5m2", None, (16, 3), "f8E5M2", 1)):
        f = _Function(name, m, n)
        x = f.arg((m, n))
        h = f.arg((1024, 1, 1), "f32")
        if body:
            h = f.history_map(h, 1024, body)
        f.delayed(x, h, 1024, fp8=fp8, margin=margin, transposed=rot)
        fns.append(f)
    f = _Function("rowscale_columns", m, n)
    x = f.arg((m, n))
    c = f.arg((m,), "f32")
    f.quantize(f.generic([(x, _t((m, n), "bf16"), "#id"),
                          (c, _t((m,), "f32"), "#col")], ROWSCALE_R),
               (128, 1))
    fns.append(f)
    return MAPS + "\n".join(fn.text() for fn in fns)


def emit(out, shape, fp8_opt):
    m, n = (int(v) for v in shape.split("x"))
    os.makedirs(out, exist_ok=True)
    source = os.path.join(out, "fusion.mlir")
    with open(source, "w") as f:
        f.write(program(m, n))
    for name, fuse in (("fused", "true"), ("unfused", "false")):
        target = os.path.join(out, name)
        shutil.rmtree(target, ignore_errors=True)
        subprocess.run(
            [fp8_opt, source,
             "--fp8-fuse-quantization=producers=%s scales=%s" % (fuse, fuse),
             "--fp8-emit=dir=%s" % target, "-o", os.devnull], check=True)
    with open(os.path.join(out, "fused", "manifest.json")) as f:
        ops = [k["op"] for k in json.load(f)["kernels"]]
    fused = sum(1 for op in ops if op.startswith("fp8.quantize_elementwise")
                or op == "fp8.quantize_delayed")
    print("check_fusion: %s/{fused,unfused} for %dx%d, %d fused kernels" %
          (out, m, n, fused))
    return 0


def functions(manifest):
    with open(manifest) as f:
        return [fn["name"] for fn in json.load(f)["functions"]]


def compare_dumps(fused, unfused):
    """[(file, equal)] for every result file of two dumps of a function."""
    out = []
    for name in sorted(os.listdir(unfused)):
        if not name.startswith("result"):
            continue
        other = os.path.join(fused, name)
        out.append((name, os.path.exists(other) and filecmp.cmp(
            other, os.path.join(unfused, name), shallow=False)))
    return out


ROW_SUM_NAMES = [r[0] for r in ROW_SUMS]


def _matches_order(dump, fn):
    """Whether the row sums dumped in `dump` are row_sum_order's of the
    inputs dumped with them."""
    with open(os.path.join(dump, "arg0.bin"), "rb") as f:
        arg0 = f.read()
    with open(os.path.join(dump, "result0.bin"), "rb") as f:
        return same_f32(f.read(), expected_row_sums(fn, arg0))


def _check_fixed_rows(work, fp8_run, manifest):
    """Runs row_sum_f32_4x4096 on fixed_rows(); returns 1 on a mismatch
    with the row-sum order (or a failed run), else 0."""
    fn = "row_sum_f32_4x4096"
    inputs = os.path.join(work, "fixed", "inputs")
    os.makedirs(os.path.join(inputs, fn), exist_ok=True)
    with open(os.path.join(inputs, fn, "arg0.bin"), "wb") as f:
        f.write(fixed_rows())
    dump = os.path.join(work, "fixed", "dump")
    run = subprocess.run([fp8_run, manifest, "--function", fn,
                          "--inputs-from", inputs, "--dump", dump,
                          "--iters", "0"], capture_output=True, text=True)
    if run.returncode != 0:
        print("FAIL %s fixed rows: fp8-run exited %d:\n%s" %
              (fn, run.returncode, run.stderr))
        return 1
    good = _matches_order(os.path.join(dump, fn), fn)
    print("%s %s fixed rows (2^24 then ones): %s" % (
        "ok  " if good else "FAIL", fn,
        "the row-sum order" if good else "not the row-sum order"))
    return 0 if good else 1


def check(directory, fp8_run, seeds, keep, only=None):
    fused_manifest = os.path.join(directory, "fused", "manifest.json")
    unfused_manifest = os.path.join(directory, "unfused", "manifest.json")
    for path in (fused_manifest, unfused_manifest):
        if not os.path.exists(path):
            print("check_fusion: no %s (run --emit where fp8-opt is)" % path,
                  file=sys.stderr)
            return 2
    names = functions(fused_manifest)
    if names != functions(unfused_manifest):
        print("check_fusion: the programs have different functions",
              file=sys.stderr)
        return 2
    if only:
        names = [fn for fn in names if re.search(only, fn)]
        if not names:
            print("check_fusion: no function matches %r" % only,
                  file=sys.stderr)
            return 2
    work = tempfile.mkdtemp(prefix="check_fusion.")
    bad = 0
    try:
        for seed in seeds:
            for specials in (False, True):
                for fn in names:
                    tag = "%s seed %d%s" % (fn, seed,
                                            " specials" if specials else "")
                    dumps = {}
                    run_dir = os.path.join(work, "%s.%d%s" % (
                        fn, seed, ".specials" if specials else ""))
                    for which, manifest in (("fused", fused_manifest),
                                            ("unfused", unfused_manifest)):
                        dump = os.path.join(run_dir, which)
                        cmd = [fp8_run, manifest, "--function", fn, "--seed",
                               str(seed), "--dump", dump, "--iters", "0"]
                        if which == "unfused":
                            # The very inputs the fused run read (fp8-run
                            # takes --specials only for inputs it makes).
                            cmd += ["--inputs-from", dumps["fused"]]
                        elif specials:
                            cmd.append("--specials")
                        run = subprocess.run(cmd, capture_output=True,
                                             text=True)
                        if run.returncode != 0:
                            print("FAIL %s: fp8-run (%s) exited %d:\n%s" %
                                  (tag, which, run.returncode, run.stderr))
                            return 2
                        dumps[which] = dump
                    results = compare_dumps(os.path.join(dumps["fused"], fn),
                                            os.path.join(dumps["unfused"], fn))
                    if not results:
                        print("FAIL %s: no results dumped" % tag)
                        bad += 1
                        continue
                    wrong = [name for name, equal in results if not equal]
                    if fn in ROW_SUM_NAMES and not _matches_order(
                            os.path.join(dumps["fused"], fn), fn):
                        wrong.append("result0.bin (row-sum order)")
                    if not keep:
                        shutil.rmtree(run_dir, ignore_errors=True)
                    bad += bool(wrong)
                    print("%s %s: %d results%s" % (
                        "FAIL" if wrong else "ok  ", tag, len(results),
                        ", differ: " + ", ".join(wrong) if wrong else
                        ", bit for bit"))
        if "row_sum_f32_4x4096" in names:
            bad += _check_fixed_rows(work, fp8_run, unfused_manifest)
    finally:
        if keep:
            print("check_fusion: dumps kept in %s" % work)
        else:
            shutil.rmtree(work, ignore_errors=True)
    print("check_fusion: %s" % ("passed" if not bad else
                                "%d mismatching runs" % bad))
    return 1 if bad else 0


def self_test():
    text = program(256, 384)
    # 384 columns: no rotation of 256. Six norms at the other shapes, two
    # row sums alone.
    assert text.count("func.func") == 40, text.count("func.func")
    assert text.count("fp8.quantize ") == 44, text.count("fp8.quantize ")
    # The delayed recipe: nine quantizations with a history, seven of its
    # max, three of a rotated transpose with the chosen amax transposed.
    assert text.count("amax(%used") == 9, text.count("amax(%used")
    assert text.count("amax(%usedt") == 3, text.count("amax(%usedt")
    assert text.count("linalg.reduce") == 7, text.count("linalg.reduce")
    # The norms' row sums: one per RMSNorm, two per LayerNorm; two alone.
    assert text.count('"reduction"') == 19, text.count('"reduction"')
    # The order: 2^24 then ones sums to 2^24 + 112 + 31 * 128 (the CPU
    # reference's value in row-sum-order.mlir), ones to 4096; a partial
    # chunk's missing terms add nothing.
    rows = struct.unpack("<4f", expected_row_sums("row_sum_f32_4x4096",
                                                  fixed_rows()))
    assert rows == (16781296.0, 16781296.0, 4096.0, 4096.0), rows
    assert row_sum_order([1.0] * 1000) == 1000.0
    assert row_sum_order([1.0] * 992 + [16777216.0] + [1.0] * 7) == \
        16778208.0, "row-sum-order.mlir's partial row"
    assert _floats(struct.pack("<2H", 0x3F80, 0xC000), "bf16") == [1.0, -2.0]
    assert _f32(3.4028235677973366e38 * 2) == float("inf")
    nan1, nan2 = struct.pack("<I", 0x7FC00000), struct.pack("<I", 0xFFC00001)
    assert same_f32(nan1, nan2) and not same_f32(nan1, struct.pack("<f", 1))
    # Four rotations along the rows; two per rotated transpose.
    assert text.count("fp8.hadamard") == 10, text.count("fp8.hadamard")
    assert text.count("{dim = 0 : i64") == 3, text.count("{dim = 0 : i64")
    assert text.count("fp8.tma_align_scales") == 4, text.count(
        "fp8.tma_align_scales")
    assert text.count("fp8.tcgen05_scales") == 2, text.count(
        "fp8.tcgen05_scales")
    with tempfile.TemporaryDirectory() as d:
        a, b = os.path.join(d, "a"), os.path.join(d, "b")
        os.makedirs(a)
        os.makedirs(b)
        for name, data in (("result0.bin", b"\x01\x02"),
                           ("result1.bin", b"\x03")):
            open(os.path.join(a, name), "wb").write(data)
            open(os.path.join(b, name), "wb").write(data)
        open(os.path.join(a, "arg0.bin"), "wb").write(b"x")
        assert compare_dumps(a, b) == [("result0.bin", True),
                                       ("result1.bin", True)]
        open(os.path.join(a, "result1.bin"), "wb").write(b"\x04")
        assert compare_dumps(a, b)[1] == ("result1.bin", False)
    print("check_fusion: self-test passed")
    return 0


def main():
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("dir", nargs="?")
    parser.add_argument("--emit", metavar="DIR")
    parser.add_argument("--shape", default="1024x2048")
    parser.add_argument("--fp8-opt",
                        default=os.path.join(REPO, "build", "bin", "fp8-opt"))
    parser.add_argument("--fp8-run", default=os.path.join(
        REPO, "build-run", "bin", "fp8-run"))
    parser.add_argument("--seeds", default="1,2")
    parser.add_argument("--keep", action="store_true")
    parser.add_argument("--only", metavar="REGEX")
    parser.add_argument("--self-test", action="store_true")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    if args.emit:
        return emit(args.emit, args.shape, args.fp8_opt)
    if not args.dir:
        parser.error("give DIR (or --emit DIR, --self-test)")
    seeds = [int(s) for s in args.seeds.split(",")]
    return check(args.dir, args.fp8_run, seeds, args.keep, args.only)


if __name__ == "__main__":
    sys.exit(main())
