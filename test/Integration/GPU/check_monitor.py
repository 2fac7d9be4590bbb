#!/usr/bin/env python3
"""FP8 health monitoring on the GPU: fp8_mlir.nn layers with monitor=True
(fp8-pipeline monitor=true, fp8.quantize_monitored's kernels).

    check_monitor.py --aot    compile the programs into FP8_MLIR_CACHE
                              (where fp8-opt is)
    check_monitor.py          run the checks (a GPU with PyTorch)

What it checks:
  * monitoring changes no bit: Y, dX and dW of a monitored Linear equal
    the unmonitored layer's, for tensorwise, delayed, rowwise, blockwise;
  * the statistics are exact: tensorwise amax is max |x|, the count of
    elements flushed to zero is the count of nonzero x with
    |x * qscale| <= 2^-10 (half e4m3's smallest subnormal: RNE gives 0),
    nothing saturates under current scaling; blockwise 1x128 tile amaxes
    equal PyTorch's per-tile max |x|;
  * every quantization of a tensorwise, rowwise and blockwise Linear
    (X, W, dY and the transposed Wgrad operands) returns PyTorch's tile
    amaxes and saturated and flushed counts, computed from the recipe's
    tiles, formats and scale rule;
  * delayed scaling saturates when the data outgrows the history: the
    count equals that of |x * qscale| > 464 (e4m3's saturation threshold,
    docs/Numerics.md) with qscale = 448 / the history's amax;
  * outlier channels are seen: four input channels scaled by 100 raise
    the tensorwise flushed fraction and the blockwise tile-amax spread
    (max / median of tile amaxes) by more than 10x.
Exit status 0 when every check passes; every check is printed.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "python"))

import fp8_mlir  # noqa: E402

M, K, N = 1024, 1024, 512
RECIPES = ("tensorwise", "delayed", "rowwise", "blockwise")


def aot():
    for recipe in RECIPES:
        for monitor in (False, True):
            fp8_mlir.compile_linear(M, N, K, recipe=recipe, monitor=monitor,
                                    split=None)


class Checks:
    def __init__(self):
        self.failed = 0

    def check(self, ok, what):
        print("%s %s" % ("ok  " if ok else "FAIL", what), flush=True)
        if not ok:
            self.failed += 1


def layer_pair(torch, recipe):
    torch.manual_seed(0)
    plain = fp8_mlir.nn.Linear(K, N, bias=False, recipe=recipe,
                               device="cuda")
    monitored = fp8_mlir.nn.Linear.from_linear(plain, recipe=recipe,
                                               monitor=True)
    return plain, monitored


def run(torch, layer, x, dy):
    x = x.detach().clone().requires_grad_(True)
    layer.weight.grad = None
    y = layer(x)
    y.backward(dy)
    return y.detach(), x.grad.detach(), layer.weight.grad.detach().clone()


def raw(layer, name):
    return layer._monitored[name]


def expected_statistics(torch, recipe, base, t, grid):
    """(tile amaxes, [saturated, flushed]) of quantizing `t` (f32, 2-D) as
    `recipe` quantizes operand `base` ("x", "w", "dy", with ".T"), with
    the tile grid `grid` (the shape of the kernel's tile_amax)."""
    grid = tuple(grid) if len(grid) == 2 else (1, 1)
    rows, cols = t.shape
    tr, tc = rows // grid[0], cols // grid[1]
    amax = t.abs().reshape(grid[0], tr, grid[1], tc).amax(dim=(1, 3))
    e5m2 = recipe == "tensorwise" and base.startswith("dy")
    fmax = 57344.0 if e5m2 else 448.0
    if recipe == "rowwise":  # pow2_ceil: RCEIL of amax / fmax
        d = amax * torch.tensor(1.0 / fmax, device=t.device)
        bits = d.view(torch.int32)
        e, f = (bits >> 23) & 255, bits & 0x7FFFFF
        up = (f != 0) & (e != 254) & ~((e == 0) & (f <= 0x400000))
        code = e + up.int()
        qscale = torch.ldexp(torch.ones_like(d), (127 - code).float())
    else:  # exact: one f32 division (amax > 1e-12 here)
        qscale = torch.tensor(fmax, device=t.device) / amax
    q = qscale.repeat_interleave(tr, 0).repeat_interleave(tc, 1)
    v = (t * q).abs()
    saturated = int((v >= 61440.0).sum() if e5m2 else (v > 464.0).sum())
    tiny = 2.0 ** (-17 if e5m2 else -10)  # half the smallest subnormal
    flushed = int(((v <= tiny) & (t != 0)).sum())
    return amax, [saturated, flushed]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aot", action="store_true")
    args = parser.parse_args()
    if args.aot:
        aot()
        print("check_monitor: compiled into %s" % fp8_mlir.cache_root())
        return 0
    import torch
    c = Checks()
    g = torch.Generator(device="cuda").manual_seed(1)
    x = torch.randn(M, K, device="cuda", generator=g).bfloat16()
    dy = torch.randn(M, N, device="cuda", generator=g).bfloat16()

    for recipe in RECIPES:
        plain, monitored = layer_pair(torch, recipe)
        same = True
        for _ in range(2):  # twice: delayed's second step uses a history
            a = run(torch, plain, x, dy)
            b = run(torch, monitored, x, dy)
            same = same and all(torch.equal(u.view(torch.int16),
                                            v.view(torch.int16))
                                for u, v in zip(a, b))
        c.check(same, "%s: Y, dX, dW with monitoring equal those without, "
                "bit for bit" % recipe)
        stats = monitored.fp8_stats
        c.check(set(stats) >= {"fwd/x", "fwd/w", "bwd/dy"},
                "%s: statistics of %s" % (recipe, ", ".join(sorted(stats))))

    # Tensorwise: exact amax, flushed and saturated counts.
    _, tw = layer_pair(torch, "tensorwise")
    run(torch, tw, x, dy)
    tile_amax, counts, numel = raw(tw, "fwd/x")
    xf = x.float()
    amax = xf.abs().max()
    c.check(torch.equal(tile_amax.reshape(()), amax),
            "tensorwise: amax %g equals max |x|" % amax.item())
    qscale = torch.tensor(448.0, device="cuda") / amax
    v = (xf * qscale).abs()
    flushed = int(((v <= 2.0 ** -10) & (xf != 0)).sum())
    got = counts.tolist()
    c.check(got == [0, flushed], "tensorwise: counts %s equal [0 saturated, "
            "%d flushed] computed by PyTorch" % (got, flushed))
    c.check(numel == M * K, "tensorwise: %d elements" % numel)

    # Every quantization of the current-scaling recipes: tile amaxes and
    # both counts against PyTorch's, from the tiles and scale rule of the
    # recipe (docs/Numerics.md), the transposed operands (".T") included.
    for recipe in ("tensorwise", "rowwise", "blockwise"):
        _, layer = layer_pair(torch, recipe)
        run(torch, layer, x, dy)
        w = layer.weight.detach().bfloat16()
        sources = {"x": x, "w": w, "dy": dy}
        bad = []
        for name, (tile_amax, counts, numel) in sorted(
                layer._monitored.items()):
            base = name.split("/")[1]
            t = sources[base.removesuffix(".T")].float()
            if base.endswith(".T"):
                t = t.t()
            want = expected_statistics(torch, recipe, base, t,
                                       tile_amax.shape)
            got = (tile_amax.float().reshape(want[0].shape), counts.tolist(),
                   numel)
            if not (torch.equal(got[0], want[0]) and got[1] == want[1] and
                    got[2] == t.numel()):
                bad.append("%s: counts %s, PyTorch %s" % (name, got[1],
                                                          want[1]))
        c.check(not bad, "%s: tile amaxes, saturated and flushed counts of "
                "%d quantizations equal PyTorch's%s" % (
                    recipe, len(layer._monitored),
                    "" if not bad else " (" + "; ".join(bad) + ")"))

    # Blockwise: 1x128 tile amaxes.
    _, bw = layer_pair(torch, "blockwise")
    run(torch, bw, x, dy)
    tile_amax, counts, _ = raw(bw, "fwd/x")
    want = xf.abs().view(M, K // 128, 128).amax(-1)
    c.check(torch.equal(tile_amax, want),
            "blockwise: the %s tile amaxes equal PyTorch's" %
            "x".join(map(str, want.shape)))

    # Delayed: data 8x larger than the history's amax saturates.
    _, dl = layer_pair(torch, "delayed")
    run(torch, dl, x, dy)
    run(torch, dl, x, dy)
    sat_before = raw(dl, "fwd/x")[1].tolist()[0]
    big = (x.float() * 8).bfloat16()
    run(torch, dl, big, dy)
    counts = raw(dl, "fwd/x")[1].tolist()
    hist_amax = amax  # the history holds amax(x) only (and zeros)
    v = (big.float() * (torch.tensor(448.0, device="cuda") /
                        hist_amax)).abs()
    want = int((v > 464.0).sum())
    c.check(sat_before == 0 and counts[0] == want and want > 0,
            "delayed: %d saturated after 8x growth (PyTorch: %d; %d before)"
            % (counts[0], want, sat_before))

    # Outlier channels.
    out = x.float().clone()
    out[:, :4] *= 100
    out = out.bfloat16()
    for recipe, stat in (("tensorwise", "flushed"),
                         ("blockwise", "tile_amax_spread"),
                         ("rowwise", "tile_amax_spread")):
        _, layer = layer_pair(torch, recipe)
        run(torch, layer, x, dy)
        clean = layer.fp8_stats["fwd/x"]
        run(torch, layer, out, dy)
        hot = layer.fp8_stats["fwd/x"]
        print("     %s fwd/x clean %s" % (recipe, clean))
        print("     %s fwd/x outliers %s" % (recipe, hot))
        if recipe == "rowwise":
            # Every row holds the outlier channels: row amaxes rise
            # together and their spread stays; amax shows them.
            c.check(hot["amax"] > 20 * clean["amax"],
                    "rowwise: outlier channels raise amax %.3g -> %.3g" % (
                        clean["amax"], hot["amax"]))
            continue
        base = max(clean[stat], 1.0 / clean["elements"])
        c.check(hot[stat] > 10 * base,
                "%s: outlier channels raise %s %.3g -> %.3g" % (
                    recipe, stat, clean[stat], hot[stat]))
    print("check_monitor: %s" % ("passed" if not c.failed else
                                 "%d failed" % c.failed))
    return 1 if c.failed else 0


if __name__ == "__main__":
    sys.exit(main())
