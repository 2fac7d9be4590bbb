#!/usr/bin/env python3
"""GPU tests of the Python package: fp8_mlir.nn.Linear and MLP, forward and
every gradient, on the H100.

    check_nn.py            run the tests (needs torch, CUDA, libfp8rt and
                           the compiled programs: fp8-opt or a cache)
    check_nn.py --aot      compile every program the tests use into the
                           cache (FP8_MLIR_CACHE), where fp8-opt is; no
                           torch needed

Checks, per recipe:
  * Linear forward Y, dX and dW (at 512 tokens, and at 1, 17, 1000 and
    4095: partial tiles and a padded Wgrad contraction) against the float64 product of the same
    FP8 operands (each operand quantized by the recipe's policy for its
    role, with check_quantize.py's bit-exact model, then
    check_gemm.py's reference and bound-relative tolerance, as
    check_program.py's end-to-end check does);
  * the same layer against bf16 torch.nn.Linear, within the recipe's
    expected error (relative 2-norm);
  * the bias gradient, exactly PyTorch's column sum;
  * the delayed recipe's amax histories (the forward's tensors' amaxes
    enter their histories; backward updates dY's);
  * MLP (SwiGLU and GELU) against the same block in PyTorch bf16;
  * the split programs (forward's FP8 kept for backward, fp8_mlir.nn's
    default) give the unsplit programs' bits for Y and every gradient,
    and autograd saves exactly the manifest's saved tensors (printed
    with the unsplit layer's bytes);
  * a torch.nn.Sequential of fp8_mlir.nn.Linear trained a few steps
    (the loss falls), fp8_mlir.convert, torch.compile (same bits as
    eager), and ValueErrors for bad inputs.
Exit status 0 when everything passes, 1 otherwise.
"""

import argparse
import os
import sys
import traceback
import types

# split=None means split (the default) unless FP8_MLIR_SPLIT=0: the
# check is of the split programs.
os.environ.pop("FP8_MLIR_SPLIT", None)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, HERE)

import fp8_mlir  # noqa: E402

M, K, N = 512, 1024, 768
# Token counts that are not multiples of a tile or of 16 (Wgrad contracts
# the token dim: fp8-pad-contraction pads it with zeros).
TOKEN_COUNTS = (1, 17, 1000, 4095)
DIM, HIDDEN = 512, 1536
FLOAT64_RECIPES = ("tensorwise", "rowwise", "blockwise", "mxfp8")
RECIPES = FLOAT64_RECIPES + ("delayed",)
# Recipes only test_split runs.
SPLIT_ONLY_RECIPES = ("rowwise_gw_hp",)
# Relative 2-norm error against bf16 torch that each recipe stays within on
# Gaussian data (e4m3 has a relative half-ulp of 2^-4, e5m2 2^-3; the norm
# of the rounding error is a fraction of that).
BF16_TOL = {"tensorwise": 0.08, "delayed": 0.08, "rowwise": 0.06,
            "blockwise": 0.05, "mxfp8": 0.05}


def programs():
    """Every (function, kwargs) the tests compile: what fp8_mlir.nn uses
    (split=None: split where the recipe allows it) and, for test_split,
    the unsplit programs of the same layers."""
    out = []
    for r in RECIPES + SPLIT_ONLY_RECIPES:
        for split in (None, False):
            out.append((fp8_mlir.compile_linear,
                        dict(m=M, n=N, k=K, recipe=r, split=split)))
    for r in FLOAT64_RECIPES:
        for m in TOKEN_COUNTS:
            out.append((fp8_mlir.compile_linear,
                        dict(m=m, n=N, k=K, recipe=r, split=None)))
    out.append((fp8_mlir.compile_linear,
                dict(m=M, n=N, k=K, recipe="blockwise", bias=True,
                     split=None)))
    out.append((fp8_mlir.compile_linear,
                dict(m=M, n=N, k=K, recipe="blockwise", split=None,
                     recompute=("weight",))))
    for r in ("tensorwise", "blockwise"):
        for act in ("swiglu", "gelu"):
            for split in (None, False):
                out.append((fp8_mlir.compile_mlp,
                            dict(m=M, dim=DIM, hidden=HIDDEN, recipe=r,
                                 activation=act, split=split)))
    # The Sequential: 256 tokens through 256 -> 512 -> 256.
    for n, k in ((512, 256), (256, 512)):
        out.append((fp8_mlir.compile_linear,
                    dict(m=256, n=n, k=k, recipe="blockwise", bias=True,
                         split=None)))
    return out


def aot():
    for fn, kw in programs():
        lp = fn(**kw)
        print("compiled %s %s -> %s" % (fn.__name__, kw, lp.path))
    return 0


# ---------------------------------------------------------------------------

torch = cp = cg = None
failures = []


def check(cond, what):
    print("%s %s" % ("ok  " if cond else "FAIL", what))
    if not cond:
        failures.append(what)


def rel(got, want):
    got, want = got.detach().double(), want.detach().double()
    return float((got - want).norm() / want.norm().clamp_min(1e-30))


def gaussian(*shape, scale=1.0):
    return (torch.randn(*shape, device="cuda") * scale).to(torch.bfloat16)


def float64_check(what, got, a, a_role, b, b_role, recipe, out_dtype):
    """got ~ A B^T from the same FP8 operands (check_program's rule)."""
    graph = {"roles": [a_role, b_role],
             "results": [("matmul", ("a0", False), ("a1", False))]}
    args = types.SimpleNamespace(tol=None, scaled_mm=False)
    ref, how, text = cp.graph_node(graph, graph["results"][0], recipe,
                                   lambda v: (a, b)[int(v[1:])], out_dtype,
                                   args)
    nbad, detail, first = cp.compare_within(got, how, 3)
    check(nbad == 0, "%s vs float64 of the same fp8 operands%s: %d bad; %s%s"
          % (what, text, nbad, detail,
             "".join("\n      " + f for f in first)))


def test_linear(recipe, m=M):
    """Y, dX and dW of a layer on m tokens."""
    what = recipe if m == M else "%s, %d tokens" % (recipe, m)
    torch.manual_seed(1)
    layer = fp8_mlir.nn.Linear(K, N, bias=False, recipe=recipe,
                               device="cuda")
    ref = torch.nn.Linear(K, N, bias=False, device="cuda",
                          dtype=torch.bfloat16)
    with torch.no_grad():
        ref.weight.copy_(layer.weight)
    x = gaussian(m, K).requires_grad_()
    xr = x.detach().clone().requires_grad_()
    dy = gaussian(m, N, scale=1e-3)
    y = layer(x)
    y.backward(dy)
    yr = ref(xr)
    yr.backward(dy)
    w = layer.weight.detach()
    check(y.dtype == torch.bfloat16 and x.grad.dtype == torch.bfloat16 and
          layer.weight.grad.dtype == torch.bfloat16,
          "%s: Y, dX, dW are bf16 like torch.nn.Linear's" % what)
    if recipe in FLOAT64_RECIPES:
        xd = x.detach()
        float64_check("%s Y" % what, y.detach(), xd, "activation", w,
                      "weight", recipe, "bf16")
        float64_check("%s dX" % what, x.grad, dy, "gradient",
                      w.t().contiguous(), "weight", recipe, "bf16")
        float64_check("%s dW" % what, layer.weight.grad,
                      dy.t().contiguous(), "gradient", xd.t().contiguous(),
                      "activation", recipe, "bf16")
    tol = BF16_TOL[recipe]
    for name, got, want in (("Y", y, yr), ("dX", x.grad, xr.grad),
                            ("dW", layer.weight.grad, ref.weight.grad)):
        e = rel(got, want)
        check(e < tol, "%s %s vs bf16 torch.nn.Linear: relative error %.4f "
              "(< %.2f)" % (what, name, e, tol))
    if recipe == "delayed":
        hx, hw = layer.amax_history_x, layer.amax_history_w
        hdy = layer.amax_history_dy
        check(float(hx[-1].max()) == float(x.detach().abs().max().float()) and
              float(hw[-1].max()) == float(w.abs().max().float()) and
              float(hdy[-1].max()) == float(dy.abs().max().float()),
              "delayed: the step's amaxes of X, W and dY end the histories")
        check(float(hx[:-1].abs().max()) == 0.0,
              "delayed: one step, one history entry")
        y2 = layer(x)
        check(float(hx[-2].max()) == float(hx[-1].max()),
              "delayed: a second step shifts the history")
        del y2


def saved_bytes(fn):
    """The bytes autograd saves for backward while fn() runs forward."""
    total = [0]

    def pack(t):
        total[0] += t.numel() * t.element_size()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        out = fn()
    return out, total[0]


def test_split(make, what):
    """The split program (forward's FP8 kept for backward) gives the
    unsplit one's bits, and autograd saves what its manifest says."""
    torch.manual_seed(5)
    split, plain = make(None), make(False)
    plain.load_state_dict(split.state_dict())
    x = gaussian(M, split_in_features(split)).requires_grad_()
    xp = x.detach().clone().requires_grad_()
    y, nbytes = saved_bytes(lambda: split(x))
    yp, pbytes = saved_bytes(lambda: plain(xp))
    dy = gaussian(*y.shape, scale=1e-2)
    y.backward(dy)
    yp.backward(dy)
    prog = split._program(M, x.device)
    check(prog.saved is not None, "%s: the program is split" % what)
    same = torch.equal(y, yp) and torch.equal(x.grad, xp.grad) and all(
        torch.equal(a.grad, b.grad) for a, b in
        zip(split.parameters(), plain.parameters()))
    check(same, "%s: Y and every gradient equal the unsplit program's, "
          "bit for bit" % what)
    check(nbytes == prog.saved.nbytes,
          "%s: autograd saves %d bytes, the manifest's saved tensors %d" % (
              what, nbytes, prog.saved.nbytes))
    print("     %s saves %d bytes for backward, unsplit %d (%.2fx): %s" % (
        what, nbytes, pbytes, nbytes / pbytes,
        ", ".join(s.label for s in prog.saved.saved)))


def split_in_features(module):
    return module.in_features if hasattr(module, "in_features") \
        else module.dim


def test_bias():
    torch.manual_seed(2)
    layer = fp8_mlir.nn.Linear(K, N, bias=True, recipe="blockwise",
                               device="cuda")
    nobias = fp8_mlir.nn.Linear(K, N, bias=False, recipe="blockwise",
                                device="cuda")
    with torch.no_grad():
        nobias.weight.copy_(layer.weight)
    x = gaussian(4, M // 4, K)
    dy = gaussian(4, M // 4, N)
    y = layer(x)
    y.backward(dy)
    check(tuple(y.shape) == (4, M // 4, N), "bias: leading dims kept")
    # Y = round(f32 product + b): against the unbiased layer's f32-exact
    # product it may differ by the bf16 rounding of the sum.
    y0 = nobias(x)
    e = rel(y.float() - layer.bias.float(), y0.float())
    check(e < 2.0 ** -7, "bias: Y - b matches the layer without bias "
          "(relative %.2g)" % e)
    want = dy.reshape(-1, N).sum(0, dtype=torch.float32).to(torch.bfloat16)
    check(torch.equal(layer.bias.grad, want),
          "bias: db is the column sum of dY")


def test_mlp(recipe, activation):
    torch.manual_seed(3)
    mlp = fp8_mlir.nn.MLP(DIM, HIDDEN, activation=activation, recipe=recipe,
                          device="cuda")
    params = [p.detach().clone().requires_grad_() for p in
              (mlp.w1, mlp.w3, mlp.w2) if p is not None]
    x = gaussian(M, DIM).requires_grad_()
    xr = x.detach().clone().requires_grad_()
    dy = gaussian(M, DIM, scale=1e-2)
    y = mlp(x)
    y.backward(dy)
    f = torch.nn.functional
    if activation == "swiglu":
        w1, w3, w2 = params
        yr = f.linear(f.silu(f.linear(xr, w1)) * f.linear(xr, w3), w2)
        grads = [mlp.w1.grad, mlp.w3.grad, mlp.w2.grad]
    else:
        w1, w2 = params
        yr = f.linear(f.gelu(f.linear(xr, w1), approximate="tanh"), w2)
        grads = [mlp.w1.grad, mlp.w2.grad]
    yr.backward(dy)
    tol = 2 * BF16_TOL[recipe]
    pairs = [("Y", y, yr), ("dX", x.grad, xr.grad)] + [
        ("dW%d" % i, g, p.grad) for i, (g, p) in
        enumerate(zip(grads, params))]
    for name, got, want in pairs:
        e = rel(got, want)
        check(e < tol, "MLP %s %s %s vs bf16 torch: relative error %.4f "
              "(< %.2f)" % (activation, recipe, name, e, tol))


def test_sequential():
    torch.manual_seed(4)
    model = torch.nn.Sequential(
        fp8_mlir.nn.Linear(256, 512, recipe="blockwise", device="cuda"),
        torch.nn.GELU(),
        fp8_mlir.nn.Linear(512, 256, recipe="blockwise", device="cuda"))
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    x = gaussian(256, 256)
    target = 0.5 * x  # within the model's reach
    losses = []
    for _ in range(20):
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x).float(), target.float())
        loss.backward()
        opt.step()
        losses.append(loss.item())
    check(losses[-1] < 0.9 * losses[0],
          "Sequential of fp8_mlir.nn.Linear trains: loss %.4f -> %.4f" %
          (losses[0], losses[-1]))

    # convert() swaps the layers of a bf16 model and shares its parameters.
    torch.manual_seed(4)
    plain = torch.nn.Sequential(
        torch.nn.Linear(256, 512, device="cuda", dtype=torch.bfloat16),
        torch.nn.GELU(),
        torch.nn.Linear(512, 256, device="cuda", dtype=torch.bfloat16),
        torch.nn.Linear(256, 10, device="cuda", dtype=torch.bfloat16))
    w0 = plain[0].weight
    fp8_mlir.convert(plain, recipe="blockwise",
                     filter=lambda fqn, m: m.out_features >= 256)
    check(isinstance(plain[0], fp8_mlir.nn.Linear) and
          plain[0].weight is w0 and type(plain[3]) is torch.nn.Linear,
          "convert swaps filtered layers and keeps their parameters")

    # torch.compile captures the custom op: the same bits as eager.
    eager = model(x)
    compiled = torch.compile(model)
    got = compiled(x)
    check(torch.equal(got, eager), "torch.compile gives eager's bits")


def test_errors():
    layer = fp8_mlir.nn.Linear(K, N, bias=False, recipe="blockwise",
                               device="cuda")
    cases = [("wrong features", gaussian(M, K + 16)),
             ("wrong dtype", gaussian(M, K).float()),
             ("on the CPU", gaussian(M, K).cpu())]
    for what, x in cases:
        try:
            layer(x)
            check(False, "errors: %s raises ValueError" % what)
        except ValueError as e:
            check(True, "errors: %s: %s" % (what, e))
    prog = layer._program(M, torch.device("cuda"))
    try:
        prog.fwd(gaussian(K, M).t(), layer.weight.detach())
        check(False, "errors: a non-contiguous argument raises ValueError")
    except ValueError as e:
        check("contiguous" in str(e),
              "errors: raw call with a transposed tensor: %s" % e)
    try:
        fp8_mlir.nn.Linear(K, N, recipe="nosuch")
        check(False, "errors: unknown recipe raises ValueError")
    except ValueError as e:
        check("unknown recipe" in str(e), "errors: %s" % e)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aot", action="store_true")
    parser.add_argument("--only", help="run tests whose name has this")
    args = parser.parse_args()
    if args.aot:
        return aot()
    global torch, cp, cg
    import torch as torch_module
    torch = torch_module
    import check_program as cp_module
    cp = cp_module
    cp.import_torch()
    cg = cp.cg
    tests = [("linear-" + r, lambda r=r: test_linear(r)) for r in RECIPES]
    tests += [("tokens-%s-%d" % (r, m), lambda r=r, m=m: test_linear(r, m))
              for r in FLOAT64_RECIPES for m in TOKEN_COUNTS]
    tests += [("bias", test_bias)]
    tests += [("mlp-%s-%s" % (r, a), lambda r=r, a=a: test_mlp(r, a))
              for r in ("tensorwise", "blockwise")
              for a in ("swiglu", "gelu")]
    tests += [("split-linear-" + r, lambda r=r: test_split(
        lambda split: fp8_mlir.nn.Linear(K, N, bias=False, recipe=r,
                                         device="cuda", split=split),
        "linear " + r))
        for r in FLOAT64_RECIPES + SPLIT_ONLY_RECIPES]
    tests += [("split-linear-blockwise-recompute", lambda: test_split(
        lambda split: fp8_mlir.nn.Linear(
            K, N, bias=False, recipe="blockwise", device="cuda",
            split=split, recompute=("weight",) if split is None else ()),
        "linear blockwise recompute=weight"))]
    tests += [("split-mlp-%s-%s" % (r, a), lambda r=r, a=a: test_split(
        lambda split: fp8_mlir.nn.MLP(DIM, HIDDEN, activation=a, recipe=r,
                                      device="cuda", split=split),
        "mlp %s %s" % (r, a)))
        for r in ("tensorwise", "blockwise") for a in ("swiglu", "gelu")]
    tests += [("sequential", test_sequential), ("errors", test_errors)]
    for name, fn in tests:
        if args.only and args.only not in name:
            continue
        print("== %s" % name)
        try:
            fn()
        except Exception:
            traceback.print_exc()
            failures.append(name + ": exception")
    print("check_nn: %s" % ("FAILED: %d\n  " % len(failures) +
                            "\n  ".join(failures) if failures else "passed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
