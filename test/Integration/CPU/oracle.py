#!/usr/bin/env python3
"""Independent oracle for the CPU reference numerics (docs/Numerics.md).

Plain python3 (struct, math): no MLIR, no numpy, no code shared with the C++
builders. It is written from the formulas of docs/Design.md section 4 and
docs/Numerics.md, and the Philox and cast facts of the research notes
(Random123 known answers, PyTorch's c10 casts).

`oracle.py NAME` prints what test/Integration/CPU/NAME.mlir prints, in the
format of printMemrefI32/F32, so every test runs a second RUN line through
this script and the same CHECK lines: the hand-derived expected values, the
oracle and the MLIR reference must all agree. `oracle.py --checks NAME`
prints those CHECK lines (to start a new test from; check them by hand).
`oracle.py --self-test` checks the oracle itself against published vectors.
"""

import math
import struct
import sys

INF = float("inf")
FLT_MAX = struct.unpack("<f", bytes.fromhex("ffff7f7f"))[0]
NAN = float("nan")

# ---------------------------------------------------------------------------
# f32 arithmetic (a Python float holds every f32 exactly; one rounding of the
# exact double result is a correct f32 rounding for + - * / because double
# has more than 2*24+2 bits)
# ---------------------------------------------------------------------------


def f32(x):
    if math.isnan(x) or math.isinf(x):
        return x
    try:
        return struct.unpack("<f", struct.pack("<f", x))[0]
    except OverflowError:
        return math.copysign(INF, x)


def bits(x):
    return struct.unpack("<I", struct.pack("<f", x))[0]


def from_bits(b):
    return struct.unpack("<f", struct.pack("<I", b & 0xFFFFFFFF))[0]


def fmul(a, b):
    return f32(a * b) if not (math.isinf(a) or math.isinf(b)) else _inf_mul(a, b)


def _inf_mul(a, b):
    if a == 0 or b == 0 or math.isnan(a) or math.isnan(b):
        return NAN
    return math.copysign(INF, a) * math.copysign(1.0, b)


def fadd(a, b):
    return f32(a + b)


def fdiv(a, b):
    if math.isnan(a) or math.isnan(b):
        return NAN
    if b == 0:
        if a == 0:
            return NAN
        return math.copysign(INF, a) * math.copysign(1.0, b)
    if math.isinf(a) and math.isinf(b):
        return NAN
    return f32(a / b)


def fmax_nan(a, b):
    """arith.maximumf / torch.amax: NaN propagates."""
    if math.isnan(a) or math.isnan(b):
        return NAN
    return max(a, b)


def bf16_bits(x):
    """RNE f32 -> bf16; every NaN becomes 0x7FC0 (PyTorch's c10 does the same,
    and so does the reference, with integer operations: a native conversion
    depends on the host, x86 AVX512-BF16 keeping NaN payloads and flushing
    subnormals)."""
    b = bits(x)
    if math.isnan(x):
        return 0x7FC0
    return ((b + 0x7FFF + ((b >> 16) & 1)) >> 16) & 0xFFFF


# ---------------------------------------------------------------------------
# FP8 formats
# ---------------------------------------------------------------------------


class Format:
    def __init__(self, name, m, bias, fmax, maxcode):
        self.name, self.m, self.bias, self.fmax, self.maxcode = (
            name, m, bias, fmax, maxcode)
        self.emin = 1 - bias
        self.emax = math.frexp(fmax)[1] - 1  # floor(log2 fmax): 8, 15


E4M3 = Format("e4m3", 3, 7, 448.0, 0x7E)
E5M2 = Format("e5m2", 2, 15, 57344.0, 0x7B)


def fp8_value(code, fmt):
    s = -1.0 if code & 0x80 else 1.0
    c = code & 0x7F
    e = c >> fmt.m
    mant = c & ((1 << fmt.m) - 1)
    # NaN codes widen keeping their mantissa bits (PyTorch's c10 conversion
    # and APFloat agree): e4m3fn 0x7F -> 0x7FF00000, e5m2 0x7F -> 0x7FE00000.
    sbit = 0x80000000 if code & 0x80 else 0
    if fmt is E4M3 and c == 0x7F:
        return from_bits(sbit | 0x7FF00000)
    if fmt is E5M2 and e == 0x1F:
        return from_bits(sbit | 0x7FC00000 | (mant << 21)) if mant else s * INF
    if e == 0:
        return s * mant * 2.0 ** (fmt.emin - fmt.m)
    return s * (1 + mant / 2.0 ** fmt.m) * 2.0 ** (e - fmt.bias)


def _encode_exact(v, fmt):
    """Code of a non-negative value representable in fmt."""
    if v == 0:
        return 0
    e = math.frexp(v)[1] - 1
    if e < fmt.emin:
        return int(v / 2.0 ** (fmt.emin - fmt.m))
    return ((e + fmt.bias) << fmt.m) | (int(v / 2.0 ** (e - fmt.m)) - (1 << fmt.m))


def cast_rne_sat(x, fmt):
    """RNE(clamp(x, -fmax, fmax)); NaN -> 0x7F with x's sign."""
    sign = 0x80 if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x):
        return sign | 0x7F
    a = min(abs(x), fmt.fmax)
    if a == 0:
        return sign
    e = max(math.frexp(a)[1] - 1, fmt.emin)
    quantum = 2.0 ** (e - fmt.m)
    n = a / quantum
    fl = math.floor(n)
    r = n - fl
    if r > 0.5 or (r == 0.5 and fl % 2 == 1):
        fl += 1
    return sign | _encode_exact(fl * quantum, fmt)


def cast_c10_eager(x, fmt):
    """PyTorch's unsaturated eager cast (overflow -> NaN / Inf), for docs."""
    # RNE past the largest finite value: above 464 (e4m3fn, the tie goes to
    # the even 448) or from 61440 (e5m2, the tie goes to the even 2^16).
    big = abs(x) > 464.0 if fmt is E4M3 else abs(x) >= 61440.0
    if not math.isnan(x) and big:
        sign = 0x80 if x < 0 else 0
        return sign | (0x7F if fmt is E4M3 else 0x7C)
    return cast_rne_sat(x, fmt)


# ---------------------------------------------------------------------------
# Philox4x32-10 and stochastic rounding
# ---------------------------------------------------------------------------

M0, M1, W0, W1 = 0xD2511F53, 0xCD9E8D57, 0x9E3779B9, 0xBB67AE85
U32 = 0xFFFFFFFF


def philox4x32_10(ctr, key):
    c0, c1, c2, c3 = ctr
    k0, k1 = key
    for r in range(10):
        if r:
            k0, k1 = (k0 + W0) & U32, (k1 + W1) & U32
        p0, p1 = M0 * c0, M1 * c2
        c0, c1, c2, c3 = ((p1 >> 32) ^ c1 ^ k0, p1 & U32,
                          (p0 >> 32) ^ c3 ^ k1, p0 & U32)
    return c0, c1, c2, c3


def randint(seed, index):
    """Triton's tl.randint(seed, index): word 0 of the call at counter
    index (the published vectors pin it)."""
    seed &= (1 << 64) - 1
    index &= (1 << 64) - 1
    return philox4x32_10((index & U32, index >> 32, 0, 0),
                         (seed & U32, seed >> 32))[0]


def rand32(seed, index):
    """Word index % 4 of Philox4x32-10 with counter index // 4: four
    consecutive elements share one call."""
    seed &= (1 << 64) - 1
    index &= (1 << 64) - 1
    counter = index >> 2
    return philox4x32_10((counter & U32, counter >> 32, 0, 0),
                         (seed & U32, seed >> 32))[index & 3]


def rand16(seed, index):
    """Stochastic rounding's 16 random bits of element index: the low half
    (even index) or high half (odd) of word (index % 8) // 2 of the
    Philox4x32-10 call at counter index // 8: eight consecutive elements
    share one call."""
    seed &= (1 << 64) - 1
    index &= (1 << 64) - 1
    counter = index >> 3
    word = philox4x32_10((counter & U32, counter >> 32, 0, 0),
                         (seed & U32, seed >> 32))[(index & 7) >> 1]
    return (word >> (16 * (index & 1))) & 0xFFFF


def cast_stochastic(x, r, fmt):
    """The research notes' algorithm: add random bits to the dropped bits,
    truncate; saturating, NaN and sign preserving. r holds 16 random bits,
    added to the top 16 of the B dropped bits."""
    B = 23 - fmt.m
    maxbits = bits(fmt.fmax)
    b = bits(x)
    s = (b >> 24) & 0x80
    a = b & 0x7FFFFFFF
    R = (r & 0xFFFF) << (B - 16)
    if a > 0x7F800000:
        return s | 0x7F
    if a >= maxbits:
        return s | fmt.maxcode
    if (a >> 23) >= 127 + fmt.emin:
        return s | ((((a + R) >> B) - ((127 - fmt.bias) << fmt.m)) & 0xFF)
    y = from_bits(a) * 2.0 ** (fmt.m - fmt.emin)
    F = int(math.floor(y * 2.0 ** B))
    return s | (((F + R) >> B) & 0xFF)


# ---------------------------------------------------------------------------
# Scales
# ---------------------------------------------------------------------------

EPS_F32 = f32(1e-12)  # 0x2B8CBCCC, just below 1e-12


def exponent_field(x):
    return (bits(x) >> 23) & 0xFF


def rceil_code(d):
    """cvt.rp.satfinite.ue8m0x2.f32 (TE's software definition)."""
    if math.isnan(d):
        return 0xFF
    if math.isinf(d):
        return 0xFE
    if d == 0:
        return 0
    e = exponent_field(d)
    m = bits(d) & 0x7FFFFF
    if m > 0 and e != 0xFE and not (e == 0 and m <= 0x400000):
        e += 1
    return e


def floor_code(amax, fmt, margin):
    if math.isnan(amax):
        return 0xFF
    return min(max(exponent_field(amax) - fmt.emax + margin, 0), 254)


def e8m0_to_f32(code):
    return NAN if code == 0xFF else 2.0 ** (code - 127)


def tile_scales(amax, fmt, round_mode, margin=0):
    """(qscale f32, dequant scale f32, E8M0 code or None)."""
    if round_mode == "exact":
        scaled_max = fmt.fmax / 2.0 ** margin
        if not math.isnan(amax) and amax <= EPS_F32:
            q = f32(scaled_max / 1e-12)
        else:
            q = fdiv(scaled_max, amax)
        return q, fdiv(1.0, q), None
    if round_mode == "pow2_ceil":
        d = fmul(fmul(amax, f32(1.0 / fmt.fmax)), 2.0 ** margin)
        code = rceil_code(d)
    else:
        code = floor_code(amax, fmt, margin)
    q = NAN if code == 0xFF else 2.0 ** (127 - code)
    return q, e8m0_to_f32(code), code


# ---------------------------------------------------------------------------
# Ops on matrices (lists of lists; batch = list of matrices)
# ---------------------------------------------------------------------------


def resolve(t, n):
    return n if t == "*" else t


def amax_tiles(x, tile):
    R, C = len(x), len(x[0])
    tr, tc = resolve(tile[0], R), resolve(tile[1], C)
    out = [[0.0] * -(-C // tc) for _ in range(-(-R // tr))]
    for i in range(R):
        for j in range(C):
            ti, tj = i // tr, j // tc
            out[ti][tj] = fmax_nan(out[ti][tj], abs(x[i][j]))
    return out


class Scaling:
    def __init__(self, tile, scale="f32", round_mode="exact"):
        self.tile, self.scale, self.round = tile, scale, round_mode

    def tile_of(self, i, j, R, C):
        return i // resolve(self.tile[0], R), j // resolve(self.tile[1], C)


def quantize(x, fmt, scaling, amax=None, margin=0, seed=None):
    """Returns (codes, stored scales as f32 or E8M0 codes)."""
    R, C = len(x), len(x[0])
    if amax is None:
        amax = amax_tiles(x, scaling.tile)
    qs, stored = [], []
    for row in amax:
        qrow, srow = [], []
        for a in row:
            q, s, code = tile_scales(a, fmt, scaling.round, margin)
            qrow.append(q)
            srow.append(code if scaling.scale == "e8m0" else s)
        qs.append(qrow)
        stored.append(srow)
    out = []
    for i in range(R):
        row = []
        for j in range(C):
            ti, tj = scaling.tile_of(i, j, R, C)
            v = fmul(x[i][j], qs[ti][tj])
            if seed is None:
                row.append(cast_rne_sat(v, fmt))
            else:
                row.append(cast_stochastic(v, rand16(seed, i * C + j), fmt))
        out.append(row)
    return out, stored


def scale_to_f32(s, scaling):
    return e8m0_to_f32(s) if scaling.scale == "e8m0" else s


def dequantize_(q, s, fmt, scaling):
    R, C = len(q), len(q[0])
    out = []
    for i in range(R):
        row = []
        for j in range(C):
            ti, tj = scaling.tile_of(i, j, R, C)
            row.append(fmul(fp8_value(q[i][j], fmt), scale_to_f32(s[ti][tj], scaling)))
        out.append(row)
    return out


def requantize(q, s, fmt, scaling, to_fmt, to_scaling, seed=None):
    wide = dequantize_(q, s, fmt, scaling)
    return quantize(wide, to_fmt, to_scaling, seed=seed)


def transpose(m):
    return [list(r) for r in zip(*m)]


def kblock(scaling, d):
    """The K-block of an operand contracted along dim d; None for `*`."""
    t = scaling.tile[d]
    return None if t == "*" else t


def scaled_term(p, sa, sb):
    """fl32(sa*sb)*p where the scale product is a normal f32 (of either
    sign), else (p*sa)*sb (docs/Numerics.md)."""
    s = fmul(sa, sb)
    if 2.0 ** -126 <= abs(s) <= FLT_MAX:
        return fmul(s, p)
    return fmul(fmul(p, sa), sb)


def scaled_matmul(a, sa, fa, asc, b, sb, fb, bsc, contracting, accumulate="promoted"):
    """C[m][n] per docs/Numerics.md: f32 partial sums per chunk in order of k,
    promoted with sa*sb per chunk, or scales in the epilogue when both are
    constant along K."""
    da, db = contracting
    A = a if da == 1 else transpose(a)  # M x K
    Bm = b if db == 1 else transpose(b)  # N x K
    K = len(A[0])
    ka, kb = kblock(asc, da), kblock(bsc, db)
    epilogue = ka is None and kb is None
    if epilogue:
        chunk = 128 if accumulate == "promoted" else K
    else:
        chunk = min(x for x in (ka, kb) if x is not None)
    chunk = min(chunk, K)
    nchunks = -(-K // chunk)

    def scale_at(s, scaling, d, free, k, rows, cols):
        # (free index, k index) -> storage (row, col)
        i, j = (free, k) if d == 1 else (k, free)
        ti, tj = scaling.tile_of(i, j, rows, cols)
        return scale_to_f32(s[ti][tj], scaling)

    M, N = len(A), len(Bm)
    C = []
    for m in range(M):
        row = []
        for n in range(N):
            acc = 0.0
            for c in range(nchunks):
                p = 0.0
                for k in range(c * chunk, min((c + 1) * chunk, K)):
                    p = fadd(p, fmul(fp8_value(A[m][k], fa), fp8_value(Bm[n][k], fb)))
                if not epilogue:
                    p = scaled_term(p, scale_at(sa, asc, da, m, c * chunk, len(a), len(a[0])),
                                    scale_at(sb, bsc, db, n, c * chunk, len(b), len(b[0])))
                acc = fadd(acc, p)
            if epilogue:
                acc = scaled_term(acc, scale_at(sa, asc, da, m, 0, len(a), len(a[0])),
                                  scale_at(sb, bsc, db, n, 0, len(b), len(b[0])))
            row.append(acc)
        C.append(row)
    return C


def hadamard_signs(n, seed=None):
    """s_j = -1 iff bit 0 of rand32(seed, j) is set; all +1 without a seed."""
    return [-1.0 if seed is not None and rand32(seed, j) & 1 else 1.0
            for j in range(n)]


def fwht(v):
    """The butterfly of docs/Numerics.md on a list of f32 values (a power of
    two long), stride 1 first: (a, b) -> (fl32(a + b), fl32(a - b))."""
    v = list(v)
    h = 1
    while h < len(v):
        for i in range(len(v)):
            if not i & h:
                a, b = v[i], v[i + h]
                v[i], v[i + h] = fadd(a, b), fadd(a, -b)
        h *= 2
    return v


def hadamard_rows(x, n, seed=None):
    """Rotation along dim 1 (columns) in blocks of n: signs (exact), the
    butterfly, then fl32(v * fl32(1/sqrt(n)))."""
    s = hadamard_signs(n, seed)
    norm = f32(1.0 / math.sqrt(n))
    out = []
    for r in x:
        row = []
        for blk in range(0, len(r), n):
            v = fwht([fmul(r[blk + j], s[j]) for j in range(n)])
            row.extend(fmul(a, norm) for a in v)
        out.append(row)
    return out


# ---------------------------------------------------------------------------
# Printing in printMemref's layout (FileCheck canonicalizes whitespace)
# ---------------------------------------------------------------------------


def signed32(v):
    v &= U32
    return v - (1 << 32) if v & 0x80000000 else v


def fmt_f32(v):
    """std::ostream's default float format (printMemrefF32): %g."""
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return "%g" % v


def print_memref(rows, fmtval=str):
    """A 2-D tensor, one row per line, as printMemref prints it."""
    print("Unranked Memref base@ = 0x0 rank = 2 data = ")
    for ri, r in enumerate(rows):
        pre = "[[" if ri == 0 else " ["
        post = "]]" if ri == len(rows) - 1 else "], "
        print(pre + ", ".join(fmtval(v) for v in r) + post)


def print_i32(rows):
    print_memref([[signed32(v) for v in r] for r in rows])


def print_bits(rows):
    """f32 values printed as their bit patterns (i32)."""
    print_i32([[bits(v) for v in r] for r in rows])


def print_f32(rows):
    print_memref(rows, fmt_f32)


# ---------------------------------------------------------------------------
# Self test against published vectors
# ---------------------------------------------------------------------------


def self_test():
    # Random123 known-answer vectors.
    assert philox4x32_10((0, 0, 0, 0), (0, 0)) == (
        0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)
    assert philox4x32_10((U32,) * 4, (U32, U32)) == (
        0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)
    assert philox4x32_10((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344),
                         (0xA4093822, 0x299F31D0)) == (
        0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)
    # tl.randint(seed, index) vectors (research notes section 6).
    for seed, idx, want in [(0, 0, 0x6627E8D5), (0, 1, 0xF8E4CCA4),
                            (42, 0, 0x9CEAF053), (42, 1, 0xFCDB2127),
                            (42, 12345, 0xEF322867),
                            (0x0123456789ABCDEF, 0, 0xB850222E),
                            (0x0123456789ABCDEF, 2**32 + 5, 0xB8B243F7),
                            (-1, -1, 0x4D18D7D2)]:
        assert randint(seed, idx) == want, (seed, idx, hex(randint(seed, idx)))
        # Element 4 * idx draws word 0 of the same call.
        assert idx < 0 or rand32(seed, 4 * idx) == want, (seed, idx)
    # The other words of a call go to the next three elements, and the
    # counter is index // 4 in 64 bits (2^34 + 6: counter 2^32 + 1, word 2).
    for seed, idx, want in [(42, 1, 0x77F5493B), (42, 2, 0x12BF50AD),
                            (42, 3, 0x5742B3D7), (42, 12345, 0x5BACED71),
                            (0x0123456789ABCDEF, 2**34 + 6, 0x304577BF)]:
        assert rand32(seed, idx) == want, (seed, idx, hex(rand32(seed, idx)))
    # Stochastic rounding's 16 bits: element i takes half i % 2 (low half
    # first) of word (i % 8) // 2 of the call at counter i // 8 (64 bits:
    # 2^36 + 13 is counter 2^33 + 1, word 2, high half).
    for seed, idx, want in [(42, 0, 0xF053), (42, 1, 0x9CEA), (42, 2, 0x493B),
                            (42, 3, 0x77F5), (42, 4, 0x50AD), (42, 5, 0x12BF),
                            (42, 6, 0xB3D7), (42, 7, 0x5742),
                            (0, 8, 0xCCA4), (0, 9, 0xF8E4),
                            (0x0123456789ABCDEF, 0, 0x222E)]:
        assert rand16(seed, idx) == want, (seed, idx, hex(rand16(seed, idx)))
    for seed, idx in [(42, 12345), (0x0123456789ABCDEF, 2**36 + 13), (-1, 77)]:
        c = (idx >> 3) & ((1 << 64) - 1)
        k = seed & ((1 << 64) - 1)
        w = philox4x32_10((c & U32, c >> 32, 0, 0), (k & U32, k >> 32))
        assert rand16(seed, idx) == (w[(idx & 7) >> 1] >> (16 * (idx & 1))) & 0xFFFF
    # PyTorch c10 casts (research notes section 0.1).
    e = lambda v: cast_c10_eager(v, E4M3)
    assert [e(448.0), e(463.9), e(464.0), e(464.1), e(2.0**-9), e(2.0**-10),
            e(1.5 * 2.0**-10)] == [0x7E, 0x7E, 0x7E, 0x7F, 0x01, 0x00, 0x01]
    f = lambda v: cast_c10_eager(v, E5M2)
    assert [f(57344.0), f(61439.0), f(61440.0), f(2.0**-16), f(2.0**-17)] == [
        0x7B, 0x7B, 0x7C, 0x01, 0x00]
    # Decoding round-trips every finite code.
    for fmt in (E4M3, E5M2):
        for c in range(256):
            v = fp8_value(c, fmt)
            if not (math.isnan(v) or math.isinf(v)):
                assert cast_rne_sat(v, fmt) == c, (fmt.name, c)
    # torchao constants.
    assert bits(EPS_F32) == 0x2B8CBCCC
    assert bits(tile_scales(0.0, E4M3, "exact")[0]) == 0x57CBBA10
    assert bits(tile_scales(0.0, E5M2, "exact")[0]) == 0x5B4BBA10
    assert bits(f32(1 / 448)) == 0x3B124925
    print("oracle self-test passed")


# ---------------------------------------------------------------------------
# The expected output of each test
# ---------------------------------------------------------------------------

TESTS = {}


def test(fn):
    """Registers fn as the oracle of test/Integration/CPU/<name>.mlir, where
    <name> is fn's name with '-' for '_' (a trailing '_' avoids shadowing a
    library function of the same name)."""
    TESTS[fn.__name__.rstrip("_").replace("_", "-")] = fn
    return fn


def print_checks(name):
    """CHECK lines for test NAME, one block per printMemref call, for pasting
    into a new test (after checking them by hand)."""
    import contextlib
    import io
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        TESTS[name]()
    for line in out.getvalue().splitlines():
        if line.startswith("Unranked Memref"):
            print("// CHECK: Unranked Memref")
        elif line.strip():
            row = line.strip().lstrip("[").rstrip(", ").rstrip("]")
            print("// CHECK-NEXT: [%s]" % row)


def main():
    usage = "usage: oracle.py NAME | --checks NAME | --self-test | --list"
    args = sys.argv[1:]
    if args == ["--self-test"]:
        self_test()
    elif args == ["--list"]:
        print("\n".join(sorted(TESTS)))
    elif len(args) == 2 and args[0] == "--checks" and args[1] in TESTS:
        print_checks(args[1])
    elif len(args) == 1 and args[0] in TESTS:
        TESTS[args[0]]()
    else:
        sys.exit(usage)


# ---------------------------------------------------------------------------
# Tests (one function per test/Integration/CPU/*.mlir)
# ---------------------------------------------------------------------------


def hexf(*bs):
    return [from_bits(b) for b in bs]


@test
def cast_rne():
    x = [1.0625] + hexf(0x3F880001) + [1.1875, -1.1875] + hexf(
        0x3B000000, 0x3A800000, 0x3AC00000, 0x3B400000, 0x3C700000,
        0x3C800000) + [432.0, 448.0, 464.0, 1.0e9, INF, -INF] + hexf(
        0x7FC00000, 0xFFC00000) + [-0.0, 240.0]
    q, s = quantize([[f32(v) for v in x]], E4M3, Scaling(["*", "*"]), amax=[[448.0]])
    print_i32(q)
    print_bits(s)
    y = [1.125, 1.375, -1.375] + hexf(
        0x37800000, 0x37000000, 0x37C00000, 0x38600000, 0x38800000) + [
        53248.0, 57344.0, 61440.0, 1.0e9, INF, -INF] + hexf(
        0x7FC00000, 0xFFC00000) + [-0.0, 1.0e-9, -1.0e-9, 3.0]
    q, s = quantize([[f32(v) for v in y]], E5M2, Scaling(["*", "*"]), amax=[[57344.0]])
    print_i32(q)
    print_bits(s)


SCALE_RULES = [("f32", "exact"), ("f32", "pow2_ceil"), ("f32", "pow2_floor"),
               ("e8m0", "pow2_ceil"), ("e8m0", "pow2_floor")]


def print_scales(s, scaling):
    if scaling.scale == "e8m0":
        print_i32(s)
    else:
        print_bits(s)


@test
def quantize_tensorwise():
    x = [[1.0, -3.5, 0.25, 7.0, -0.0, 100.0, -240.0, 12.5],
         [0.001, 2.0, -6.0, 150.0, 31.0, -0.5, 64.0, 9.0]]
    x = [[f32(v) for v in r] for r in x]
    for fmt in (E4M3, E5M2):
        for scale, rule in SCALE_RULES:
            sc = Scaling(["*", "*"], scale, rule)
            q, s = quantize(x, fmt, sc)
            print_i32(q)
            print_scales(s, sc)


@test
def quantize_axiswise():
    x = [[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [-0.5, 0.25, 0.125, 0.0, 0.75, -1.0],
         [0.0] * 6, [1000.0, -2000.0, 3000.0, 0.5, 7.0, 60000.0]]
    for fmt, tile, scale, rule in [
            (E4M3, [1, "*"], "f32", "exact"), (E5M2, [1, "*"], "f32", "exact"),
            (E4M3, [1, "*"], "e8m0", "pow2_ceil"), (E4M3, ["*", 1], "f32", "exact"),
            (E5M2, ["*", 1], "f32", "pow2_floor"), (E5M2, ["*", 1], "e8m0", "pow2_ceil")]:
        sc = Scaling(tile, scale, rule)
        q, s = quantize(x, fmt, sc)
        print_i32(q)
        print_scales(s, sc)


def pattern(rows, cols, rd, cd):
    """@pattern of the tests: exact multiples of 2^-4."""
    return [[float(((37 * i + 11 * j + 5) % 97 - 48) * (1 + (i // rd) % 3) *
                   (1 + (j // cd) % 3)) * 0.0625 for j in range(cols)]
            for i in range(rows)]


def checksum(q):
    cols = len(q[0])
    return signed32(sum(v * (i * cols + j + 1) for i, r in enumerate(q)
                        for j, v in enumerate(r)))


def print_checksum(q):
    print_memref([[checksum(q)]])


def block(m, r0, c0, h, w):
    return [r[c0:c0 + w] for r in m[r0:r0 + h]]


@test
def quantize_blockwise():
    a, b, c = pattern(3, 200, 1, 128), pattern(200, 3, 128, 1), pattern(200, 160, 128, 128)
    for x, fmt, tile, scale, rule, sl in [
            (a, E4M3, [1, 128], "f32", "exact", (0, 192, 3, 8)),
            (a, E5M2, [1, 128], "e8m0", "pow2_ceil", (0, 192, 3, 8)),
            (b, E4M3, [128, 1], "f32", "exact", (124, 0, 8, 3)),
            (b, E5M2, [128, 1], "f32", "pow2_floor", (124, 0, 8, 3)),
            (c, E4M3, [128, 128], "f32", "exact", (124, 124, 8, 8)),
            (c, E5M2, [128, 128], "f32", "exact", (124, 124, 8, 8)),
            (c, E4M3, [128, 128], "f32", "pow2_ceil", (124, 124, 8, 8))]:
        sc = Scaling(tile, scale, rule)
        q, s = quantize(x, fmt, sc)
        print_checksum(q)
        print_scales(s, sc)
        print_i32(block(q, *sl))


@test
def quantize_mx():
    e = [[0.0, 0.0, -0.0, 0.0], hexf(0x200, 0x80000100, 0, 0x80),
         hexf(0x03800000, 0x833C0000, 0x01000000, 0),
         [f32(3.0e38), f32(-1.0e38), 1.0] + hexf(0x7F7FFFFF),
         [INF, 1.0, -2.0, 0.0], [NAN, 1.0, -2.0, 0.0],
         [448.0, 100.0, -1.0, 0.5], [449.0, 100.0, -1.0, 0.5]]
    for fmt, scale, rule in [(E4M3, "e8m0", "pow2_ceil"), (E4M3, "e8m0", "pow2_floor"),
                             (E5M2, "e8m0", "pow2_ceil"), (E5M2, "e8m0", "pow2_floor"),
                             (E4M3, "f32", "pow2_ceil"), (E4M3, "f32", "exact")]:
        sc = Scaling([1, 32], scale, rule)
        q, s = quantize(e, fmt, sc)
        print_i32(q)
        print_scales(s, sc)
    p = pattern(4, 80, 1, 32)
    for fmt, rule, sl in [(E4M3, "pow2_ceil", (0, 28, 4, 8)),
                          (E5M2, "pow2_floor", (0, 60, 4, 8))]:
        sc = Scaling([1, 32], "e8m0", rule)
        q, s = quantize(p, fmt, sc)
        print_checksum(q)
        print_scales(s, sc)
        print_i32(block(q, *sl))


@test
def quantize_scale_exact():
    T, R = Scaling(["*", "*"]), Scaling([1, "*"])
    q, s = quantize([hexf(0x3F800103) + [-0.5]], E4M3, T)
    print_bits(s)
    q, s = quantize([hexf(0x3F80004A, 0x381B6E11)], E4M3, T)
    print_i32(q)
    print_bits(s)
    c = [hexf(0x2B8CBCCC, 0), hexf(0x2B8CBCCD, 0), [0.0, -0.0], hexf(1, 0)]
    for fmt in (E4M3, E5M2):
        q, s = quantize(c, fmt, R)
        print_i32(q)
        print_bits(s)
    m = [[10.0, 1.0, -3.0, 0.5]]
    for fmt, sc, kw in [
            (E4M3, T, dict(margin=2)),
            (E4M3, Scaling(["*", "*"], "e8m0", "pow2_ceil"), dict(margin=2)),
            (E4M3, Scaling(["*", "*"], "e8m0", "pow2_floor"), dict(margin=2)),
            (E5M2, T, dict(margin=1)),
            (E4M3, T, dict(amax=[[2.0]])),
            (E4M3, T, dict(amax=[[2.0]], margin=1))]:
        q, s = quantize(m, fmt, sc, **kw)
        print_i32(q)
        print_scales(s, sc)
    q, s = quantize(m + m, E5M2, R, amax=[[20.0], [0.5]])
    print_i32(q)
    print_bits(s)
    q, s = quantize([[3.140625, -100.5, 0.0078125] + hexf(0x37270000)], E4M3, T)
    print_i32(q)
    print_bits(s)


@test
def amax():
    x = [[1.0, -7.5, 3.0, 0.25, 7.0], [NAN, 1.0, 2.0, f32(1.0e30), 4.0],
         [1.0, f32(1.0e30), 2.0, 3.0, -NAN], [1.0, -INF, 2.0, 3.0, 4.0],
         [-0.0, 0.0, -0.0, -0.0, 0.0]]
    print_bits(amax_tiles(x, [1, "*"]))
    print_bits(amax_tiles(x, [2, 2]))
    print_bits(amax_tiles([[1.0, -0.0078125, from_bits(0x7F7F0000)],
                           [-3.5, 0.0, 1.0]], ["*", 1]))
    print_bits([amax_tiles(m, ["*", "*"])[0]
                for m in ([[1.0, -6.0], [2.0, 3.0]], [[0.25, 0.5], [-0.125, 0.0]])])


def bytes_to(codes):
    return [[c & 0xFF for c in r] for r in codes]


@test
def dequantize():
    q = bytes_to([[126, -2, 1, 56], [127, -128, 8, 58]])
    R = Scaling([1, "*"])
    print_bits(dequantize_(q, [[0.5], [3.0]], E4M3, R))
    d = dequantize_(q, [hexf(0x3F800001), hexf(0x3EAAAAAB)], E4M3, R)
    print_i32([[bf16_bits(v) for v in r] for r in d])
    e = bytes_to([[60, 1, 60, 123], [60, 64, 56, 124]])
    ed = dequantize_(e, bytes_to([[0, -1], [-2, 127]]), E5M2,
                     Scaling([1, 2], "e8m0", "pow2_ceil"))
    print_bits(ed)
    print_i32([[bf16_bits(v) for v in r] for r in ed])
    T = Scaling(["*", "*"])
    xq, xs = quantize([[1.0, f32(3.3), -100.0, f32(0.01)]], E4M3, T)
    print_bits(dequantize_(xq, xs, E4M3, T))
    print_bits([dequantize_([[56, 56]], [[2.0]], E4M3, T)[0],
                dequantize_([[56, 184]], [[4.0]], E4M3, T)[0]])


@test
@test
def requantize_():
    x = [[100.0] + [1.0] * 31 + [f32(0.03)] + [f32(0.01)] * 31]
    T, MX = Scaling(["*", "*"]), Scaling([1, 32], "e8m0", "pow2_ceil")
    q, s = quantize(x, E4M3, T)
    r, rs = requantize(q, s, E4M3, T, E4M3, MX)
    print_i32([r[0][0:2]])
    print_i32([r[0][32:34]])
    print_i32(rs)
    print_checksum(r)
    r, _ = requantize(q, s, E4M3, T, E5M2, T, seed=5)
    print_checksum(r)
    print_i32([r[0][:12]])
    B = Scaling([128, 128])
    q, s = quantize(pattern(200, 160, 128, 128), E4M3, B)
    r, rs = requantize(q, s, E4M3, B, E4M3, MX)
    print_checksum(r)
    print_i32(block(rs, 126, 0, 4, 5))
    print_i32(block(r, 126, 124, 4, 8))
    A, C = Scaling([1, 128]), Scaling([128, 1])
    q, s = quantize(pattern(200, 160, 1, 128), E4M3, A)
    r, rs = requantize(q, s, E4M3, A, E4M3, C)
    print_checksum(r)
    print_bits(block(rs, 0, 126, 2, 4))
    print_i32(block(r, 124, 124, 8, 8))



@test
@test
def transpose_():
    T = Scaling(["*", "*"])
    q, s = quantize([[1.0, -2.0, 3.0], [4.0, -5.0, 6.0]], E4M3, T)
    print_i32(transpose(q))
    print_bits(s)
    q, s = quantize(pattern(200, 160, 128, 128), E4M3, Scaling([128, 128]))
    qt = transpose(q)
    print_checksum(qt)
    print_bits(transpose(s))
    print_i32(block(qt, 124, 124, 8, 8))
    out = []
    for m in ([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[-1.0, -0.5, 0.25], [0.125, 0.0, 1.0]]):
        out += transpose(quantize(m, E4M3, T)[0])
    print_i32(out)



def print_bf16(rows):
    print_i32([[bf16_bits(v) for v in r] for r in rows])


@test
@test
def scaled_matmul_():
    T = Scaling(["*", "*"])
    a = [[448.0] * 128 + [1.0] * 128, [1.0] * 128 + [448.0] * 128]
    b = [[448.0] * 128 + [1.0] * 128, [1.0] * 256]
    qa, sa = quantize(a, E4M3, T, amax=[[448.0]])
    qb, sb = quantize(b, E4M3, T, amax=[[448.0]])
    for acc in ("promoted", "fast"):
        print_bits(scaled_matmul(qa, sa, E4M3, T, qb, sb, E4M3, T, (1, 1), acc))
    qp, sp = quantize([[448.0] * 96 + [1.0] * 32 + [0.0] * 128], E4M3, T, amax=[[448.0]])
    print_bits(scaled_matmul(qp, sp, E4M3, T, qp, sp, E4M3, T, (1, 1)))
    X, W = Scaling([1, 128]), Scaling([128, 128])
    qx, sx = quantize(pattern(2, 256, 1, 128), E4M3, X)
    qw, sw = quantize(pattern(3, 256, 128, 128), E4M3, W)
    y = scaled_matmul(qx, sx, E4M3, X, qw, sw, E4M3, W, (1, 1))
    print_bits(y)
    print_bits(scaled_matmul(qx, sx, E4M3, X, qw, sw, E4M3, W, (1, 1), "fast"))
    print_bf16(y)
    MX = Scaling([1, 32], "e8m0", "pow2_ceil")
    qm, sm = quantize(pattern(2, 256, 1, 128), E4M3, MX)
    print_bits(scaled_matmul(qm, sm, E4M3, MX, qw, sw, E4M3, W, (1, 1)))
    qf, sf = quantize(pattern(4, 256, 1, 64), E4M3, T)
    qg, sg = quantize(pattern(3, 256, 1, 32), E5M2, T)
    ft, gt = transpose(qf), transpose(qg)
    print_bits(scaled_matmul(qf, sf, E4M3, T, qg, sg, E5M2, T, (1, 1)))
    print_bits(scaled_matmul(qf, sf, E4M3, T, gt, sg, E5M2, T, (1, 0)))
    print_bits(scaled_matmul(ft, sf, E4M3, T, gt, sg, E5M2, T, (0, 0)))
    print_bits(scaled_matmul(ft, sf, E4M3, T, qg, sg, E5M2, T, (0, 1)))
    qdw, sdw = quantize(pattern(256, 4, 128, 128), E4M3, W)
    print_bits(scaled_matmul(qx, sx, E4M3, X, qdw, sdw, E4M3, W, (1, 0)))
    C = Scaling([128, 1])
    qdy, sdy = quantize(pattern(256, 3, 128, 1), E5M2, C)
    qxx, sxx = quantize(pattern(256, 4, 64, 1), E4M3, C)
    print_bits(scaled_matmul(qdy, sdy, E5M2, C, qxx, sxx, E4M3, C, (0, 0)))
    qkx, skx = quantize(pattern(2, 200, 1, 128), E4M3, X)
    qkw, skw = quantize(pattern(3, 200, 128, 128), E4M3, W)
    print_bits(scaled_matmul(qkx, skx, E4M3, X, qkw, skw, E4M3, W, (1, 1)))
    R = Scaling([1, "*"])
    rqx, rsx = quantize(pattern(2, 200, 1, 128), E4M3, R)
    rqw, rsw = quantize(pattern(3, 200, 128, 128), E5M2, R)
    print_bf16(scaled_matmul(rqx, rsx, E4M3, R, rqw, rsw, E5M2, R, (1, 1)))
    ba = [[[1.0, -2.0, 3.0, 4.0], [0.5, 0.25, -0.125, 8.0]],
          [[10.0, 20.0, -30.0, 40.0], [1.5, 2.5, 3.5, -4.5]]]
    bb = [[[1.0, 1.0, 1.0, 1.0], [2.0, 0.0, -2.0, 0.0], [0.5, 0.5, 0.5, 100.0]],
          [[1.0, -1.0, 1.0, -1.0], [3.0, 3.0, 3.0, 3.0], [0.0, 0.0, 0.0, 7.0]]]
    R = Scaling([1, "*"])
    out = []
    for ma, mb in zip(ba, bb):
        q1, s1 = quantize(ma, E4M3, R)
        q2, s2 = quantize(mb, E4M3, T)
        out += scaled_matmul(q1, s1, E4M3, R, q2, s2, E4M3, T, (1, 1))
    print_bits(out)
    # Scale pairs near the f32 limits: a product that overflows (with a
    # zero and a nonzero sum) and one that is subnormal.
    qe = [[0] * 32, [0x08] + [0] * 31, [0x7E] + [0] * 31]
    qn = [[0x08] + [0] * 31, [0x7E] + [0] * 31]
    se = [[from_bits(0x71800000)], [from_bits(0x71800000)], [from_bits(0x0D8CCCCD)]]
    sn = [[from_bits(0x4E800000)], [from_bits(0x30A66666)]]
    for tile in ([1, "*"], [1, 32]):
        S = Scaling(tile)
        print_bits(scaled_matmul(qe, se, E4M3, S, qn, sn, E4M3, S, (1, 1)))
    # A negative scale: its normal product still goes first (P = 7 with
    # -1.1 * 1.3 gives other bits than (7 * -1.1) * 1.3).
    sg = [[1.0], [1.0], [from_bits(0xBF8CCCCD)]]
    sh = [[from_bits(0x3FA66666)], [1.0]]
    for tile in ([1, "*"], [1, 32]):
        S = Scaling(tile)
        print_bits(scaled_matmul(qe, sg, E4M3, S, qn, sh, E4M3, S, (1, 1)))



def grouped_scaled_matmul(a, sa, fa, asc, b, sb, fb, bsc, group_rows, masked=False):
    """fp8.grouped_scaled_matmul: each group a scaled_matmul of its rows of a
    with b[g]; rows of no group are 0. Contiguous: row m is in group
    #{g : group_rows[g] <= m}; masked: a[g]'s first group_rows[g] rows."""
    G = len(b)
    if masked:
        out = []
        for g in range(G):
            c = scaled_matmul(a[g], sa[g], fa, asc, b[g], sb[g], fb, bsc, (1, 1))
            out.append([row if m < group_rows[g] else [0.0] * len(row)
                        for m, row in enumerate(c)])
        return out
    products = [scaled_matmul(a, sa, fa, asc, b[g], sb[g], fb, bsc, (1, 1)) for g in range(G)]
    out = []
    for m in range(len(a)):
        g = sum(1 for e in group_rows if e <= m)
        out.append(products[g][m] if g < G else [0.0] * len(b[0]))
    return out


@test
def grouped_scaled_matmul_():
    X, W = Scaling([1, 128]), Scaling([128, 128])
    qx, sx = quantize(pattern(6, 256, 1, 128), E4M3, X)
    ws = [quantize(pattern(4 * g + 4, 256, 2, 128)[4 * g:], E4M3, W) for g in range(3)]
    qw, sw = [w[0] for w in ws], [w[1] for w in ws]
    # Group 0: rows 0-1; group 1: none; group 2: rows 2-4; row 5: none.
    print_bits(grouped_scaled_matmul(qx, sx, E4M3, X, qw, sw, E4M3, W, [2, 2, 5]))
    # Masked: 2 groups of capacity 3, with 2 and 3 rows.
    qm = [quantize(pattern(3 * g + 3, 256, 1, 128)[3 * g:], E4M3, X) for g in range(2)]
    print_bits(sum(grouped_scaled_matmul([q[0] for q in qm], [q[1] for q in qm], E4M3, X,
                                         qw[:2], sw[:2], E4M3, W, [2, 3], masked=True), []))


def tma_align(s, per_row):
    """The col_major_tma layout of scales s [R][C]: out[j][i] = s[i][j], R
    padded with zeros to a multiple of per_row (16 bytes: 4 f32, 16 E8M0)."""
    rows = len(s)
    padded = -(-rows // per_row) * per_row
    return [[s[i][j] if i < rows else 0 for i in range(padded)]
            for j in range(len(s[0]))]


@test
def tma_align_scales():
    s = [[0.5, 1.0, 1.5], [2.0, -0.0, 3.0], [3.5, 4.0, 4.5], [5.0, 5.5, 6.0],
         [6.5, 7.0, 7.5]]
    print_bits([[float(v) for v in r] for r in tma_align(s, 4)])
    print_i32(tma_align([[1, 2], [127, 254], [255, 100]], 16))
    # The matmuls take scales in storage order; the layout is a data move,
    # so each result is printed twice (row-major, then col_major_tma).
    X, W = Scaling([1, 128]), Scaling([128, 128])
    qx, sx = quantize(pattern(5, 256, 1, 128), E4M3, X)
    qw, sw = quantize(pattern(3, 256, 128, 128), E4M3, W)
    y = scaled_matmul(qx, sx, E4M3, X, qw, sw, E4M3, W, (1, 1))
    print_bits(y)
    print_bits(y)
    qg, sg = quantize(pattern(3, 256, 1, 128), E5M2, X)
    d = scaled_matmul(qx, sx, E4M3, X, qg, sg, E5M2, X, (1, 1))
    print_bits(d)
    print_bits(d)
    MX = Scaling([1, 32], "e8m0", "pow2_ceil")
    qm, sm = quantize(pattern(5, 256, 1, 128), E4M3, MX)
    qn, sn = quantize(pattern(3, 256, 1, 128), E4M3, MX)
    m = scaled_matmul(qm, sm, E4M3, MX, qn, sn, E4M3, MX, (1, 1))
    print_bits(m)
    print_bits(m)


@test
def stochastic_rounding():
    amax4, amax5 = [[448.0]], [[57344.0]]
    T = Scaling(["*", "*"])

    def sr(vals, fmt, seed, amax):
        return quantize([hexf(*vals)], fmt, T, amax=amax, seed=seed)[0]

    print_i32(sr([0x3F80FAD0, 0x3F863160, 0x3F8B6C50, 0x3F8880B0], E4M3, 42, amax4))
    print_i32(sr([0x3F80FACF, 0x3F86315F, 0x3F8B6C4F, 0x3F8880AF], E4M3, 42, amax4))
    print_i32(sr([0x3F8172B0, 0x3F899D90, 0x3F81E970, 0x3F83A730], E4M3, 0, amax4))
    print_i32(sr([0x3F8172AF, 0x3F899D8F, 0x3F83A730, 0x3F81E970], E4M3, 0, amax4))
    print_i32(sr([0x3F8DDD20, 0, 0, 0], E4M3, 0x0123456789ABCDEF, amax4))
    print_i32(sr([0x3F8DDD1F, 0, 0, 0], E4M3, 0x0123456789ABCDEF, amax4))
    for v in (0x3F88D640, 0x3F88D63F):
        x = [[0.0] * 12345 + hexf(v)]
        print_i32([quantize(x, E4M3, T, amax=amax4, seed=42)[0][0][12345:]])
    print_i32(sr([0x3F81F5A0, 0x3F8C62C0, 0x3F96D8A0, 0x3F910160], E5M2, 42, amax5))
    print_i32(sr([0x3F81F59F, 0x3F8C62BF, 0x3F96D89F, 0x3F91015F], E5M2, 42, amax5))
    print_i32(sr([bits(500.0), 0x7F800000, 0xFF800000, 0x7FC00000], E4M3, 42, amax4))
    print_i32(sr([0x80000000, bits(f32(447.9)), 0x3AC00000, 0xBA400000], E4M3, 42, amax4))
    p = pattern(4, 96, 1, 32)
    pt = [[fmul(v, 2.0 ** -14) for v in r] for r in p]
    q, _ = quantize(pt, E5M2, Scaling([1, "*"]), seed=7)
    print_checksum(q)
    print_i32(block(q, 0, 0, 2, 12))
    q, _ = quantize(p, E4M3, Scaling([1, 32], "e8m0", "pow2_ceil"), seed=-1)
    print_checksum(q)
    print_i32(block(q, 0, 28, 2, 12))
    q, _ = quantize(p, E4M3, T, amax=[[12288.0]], seed=7)
    print_checksum(q)
    print_i32(block(q, 0, 0, 2, 12))
    row = hexf(0x3F80FACF, 0x3F86315F, 0x3F8B6C4F, 0x3F8880AF) * 2
    q, _ = quantize([row], E4M3, T, amax=[[448.0]], seed=42)
    print_i32([q[0][:4], q[0][4:]])
    print_i32(q)


@test
def stochastic_rounding_mean():
    T = Scaling(["*", "*"])

    def report(fmt, x, amax, tol, seed):
        q, s = quantize([[x] * 4096], fmt, T, amax=[[amax]], seed=seed)
        mean = 0.0
        for v in dequantize_(q, s, fmt, T)[0]:
            mean = fadd(mean, fmul(v, 2.0 ** -12))
        print_f32([[mean]])
        print_i32([[int(abs(fadd(mean, -x)) <= tol)]])

    report(E4M3, f32(1.0375), 448.0, f32(0.0036), 1234)
    report(E4M3, f32(1.0375), 448.0, f32(0.0036), None)
    report(E5M2, f32(1.1), 57344.0, f32(0.0077), 1234)
    report(E4M3, f32(5.859375e-04), 448.0, f32(5.6e-05), 99)
    report(E4M3, f32(5.859375e-04), 448.0, f32(5.6e-05), None)


def matmul_nt(a, b):
    out = []
    for r in a:
        row = []
        for c in b:
            acc = 0.0
            for x, y in zip(r, c):
                acc = fadd(acc, fmul(x, y))
            row.append(acc)
        out.append(row)
    return out


def print_equal(a, b):
    print_i32([[int(all(bits(x) == bits(y) for ra, rb in zip(a, b)
                        for x, y in zip(ra, rb)))]])


@test
def hadamard():
    i4 = [[float(i == j) for j in range(4)] for i in range(4)]
    h4 = hadamard_rows(i4, 4)
    print_f32(h4)
    print_equal(hadamard_rows(h4, 4), i4)
    x = [[1.0, -2.0, 3.0, 0.5, 7.0, -1.25, 0.0, 4.0, 9.0, -8.0, 2.5, 1.0, -3.0, 6.0, 0.75,
          -5.0, 100.0] + [0.0] * 14 + [-0.0625]]
    x.append([0.0 - v for v in x[0][:16]] + [2.0 ** k for k in range(-3, 13)])
    hx = hadamard_rows(x, 16)
    print_equal(hadamard_rows(hx, 16), x)
    print_f32(block(hx, 0, 16, 1, 4))
    i16 = [[float(i == j) for j in range(16)] for i in range(16)]
    r = hadamard_rows(i16, 16, seed=7)
    print_f32(block(r, 0, 0, 16, 1))
    print_equal(matmul_nt(r, r), i16)
    w = [[0.5, 1.0, -1.0, 2.0, 0.0, 0.25, -0.5, 3.0, 1.0, 1.0, 1.0, -1.0, 0.0, 0.0, 2.0,
          0.125, 1.0] + [0.0] * 14 + [1.0],
         [-3.0, 0.0, 0.5, 0.5, 0.5, 0.5, 1.0, -1.0, 0.0, 0.0, 0.0, 0.0, 4.0, -4.0, 0.25,
          0.0] + [0.0, 1.0, 0.0, -1.0] * 4,
         [1.0] * 32]
    print_equal(matmul_nt(hadamard_rows(x, 16, 7), hadamard_rows(w, 16, 7)), matmul_nt(x, w))
    print_f32(matmul_nt(x, w))
    print_f32(hadamard_rows([[1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0]], 4, 7))
    print_f32(transpose(hadamard_rows([[1.0, 2.0, 3.0, 4.0], [0.5] * 4], 4)))
    p = pattern(2, 128, 1, 64)
    hhp = hadamard_rows(hadamard_rows(p, 128), 128)
    print_bits(block(hhp, 0, 0, 2, 6))
    print_f32(block(hhp, 0, 0, 2, 6))


def row_sum(terms, init=0.0):
    """docs/Numerics.md "Row sums": chunk sums of 16 from +0.0, lane l of 32
    adding chunks l, l + 32, ... from +0.0, the lanes pairwise, halving,
    then the init."""
    chunks = [0.0] * ((len(terms) + 15) // 16)
    for c in range(len(chunks)):
        for t in terms[16 * c:16 * c + 16]:
            chunks[c] = fadd(chunks[c], t)
    q = [0.0] * 32
    for c, s in enumerate(chunks):
        q[c % 32] = fadd(q[c % 32], s)
    w = 32
    while w > 1:
        q = [fadd(q[l], q[l + w // 2]) for l in range(w // 2)]
        w //= 2
    return fadd(init, q[0])


@test
def row_sum_order():
    big = 2.0 ** 24
    rows = [[1.0] * 4096 for _ in range(4)]
    rows[0][0] = big
    rows[1][16] = big
    print_bits([[row_sum(r, i) for r, i in zip(rows, [0.0, 0.0, 0.0, big])]])
    partial = [[1.0] * 1000, [1.0] * 1000]
    partial[1][992] = big
    print_bits([[row_sum(r) for r in partial]])


if __name__ == "__main__":
    main()
