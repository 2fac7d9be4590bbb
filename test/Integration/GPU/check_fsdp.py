#!/usr/bin/env python3
"""fp8_mlir.nn under PyTorch FSDP2 (fully_shard): the same model trained on
one GPU and, sharded, on N GPUs with the same global batch.

    check_fsdp.py --aot             compile the programs it needs into
                                    FP8_MLIR_CACHE (where fp8-opt is)
    check_fsdp.py [--nproc 2]       run (one process per GPU, NCCL), and
                                    the single-GPU reference first
    check_fsdp.py --fp8-all-gather  also all-gather the weights in FP8
                                    (fp8_mlir.fsdp); needs --nproc >= 2
                                    (FSDP2 skips the all-gather of a
                                    1-rank group)

What it checks:
  * parameters stay sharded bf16 masters (DTensor shards of 1/N of the
    rows on each rank), and forward and backward run the compiled
    programs on the weights FSDP2 all-gathers (bf16 all-gather);
  * the loss of every step on N GPUs matches the single-GPU run at the
    same global batch within run-to-run noise: the ranks see M/N rows
    each, so activations and gradients are quantized per rank (per-rank
    row tiles are the same tiles; tensorwise would see a per-rank amax);
    the bound is relative 2^-6;
  * the bytes all-gathered per step (counted at
    torch.distributed.all_gather_into_tensor) and ms/step;
  * with --fp8-all-gather: the FP8 weight FSDP2 gathers equals the
    quantization of the whole weight on one GPU bit for bit (data and
    scales, tensorwise and blockwise), the layer's Y and dX equal the
    ordinary program's on the whole bf16 weight bit for bit, and the FP8
    all-gather run's losses match the single-GPU run within the bound.
Exit status 0 when it passes.
"""

import argparse
import os
import socket
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(os.path.dirname(HERE)))
sys.path.insert(0, os.path.join(REPO, "python"))

import fp8_mlir  # noqa: E402

TOKENS, DIM, HIDDEN, STEPS = 2048, 1024, 4096, 20
RECIPE = "blockwise"
TOL = 2.0 ** -6


EQ_M = 256  # tokens of the equality test's forward and backward


def programs(nprocs):
    out = []
    for world in sorted({1, nprocs}):
        m = TOKENS // world
        out.append(dict(m=m, n=HIDDEN, k=DIM))
        out.append(dict(m=m, n=DIM, k=HIDDEN))
    return out


def aot(nprocs):
    """Everything both modes compile, into FP8_MLIR_CACHE."""
    from fp8_mlir import fsdp
    for kw in programs(nprocs):
        fp8_mlir.compile_linear(recipe=RECIPE, split=None, **kw)
        fsdp.compile_prequantized_linear(recipe=RECIPE, **kw)
    for world in sorted({1, nprocs}):
        for n, k in ((HIDDEN, DIM), (DIM, HIDDEN)):
            fsdp.compile_quantize_weight(n // world, k, RECIPE)
        for recipe in ("tensorwise", "blockwise"):
            fsdp.compile_quantize_weight(HIDDEN // world, DIM, recipe)
    for recipe in ("tensorwise", "blockwise"):
        fsdp.compile_quantize_weight(HIDDEN, DIM, recipe)
        fp8_mlir.compile_linear(EQ_M, HIDDEN, DIM, recipe=recipe, split=None)
        fsdp.compile_prequantized_linear(EQ_M, HIDDEN, DIM, recipe)


def build_model(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        fp8_mlir.nn.Linear(DIM, HIDDEN, bias=False, recipe=RECIPE,
                           device="cuda"),
        torch.nn.GELU(approximate="tanh"),
        fp8_mlir.nn.Linear(HIDDEN, DIM, bias=False, recipe=RECIPE,
                           device="cuda"))


def fsdp_counter(dist):
    from fp8_mlir import fsdp
    return fsdp.AllGatherCounter(dist)


def batches(torch):
    g = torch.Generator(device="cuda").manual_seed(1)
    teacher = torch.randn(DIM, DIM, device="cuda", generator=g) / DIM ** 0.5
    for _ in range(STEPS):
        x = torch.randn(TOKENS, DIM, device="cuda", generator=g)
        yield x.to(torch.bfloat16), (x @ teacher).to(torch.bfloat16)


def train(torch, model, rank=0, world=1, timing=None):
    """The per-step losses; `timing` (a list) gets ms/step over the steps
    after the first two (compilation, allocator warm-up)."""
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    losses = []
    rows = TOKENS // world
    start = None
    for step, (x, target) in enumerate(batches(torch)):
        if step == 2:
            torch.cuda.synchronize()
            start = torch.cuda.Event(enable_timing=True)
            start.record()
        x = x[rank * rows:(rank + 1) * rows]
        target = target[rank * rows:(rank + 1) * rows]
        opt.zero_grad()
        loss = torch.nn.functional.mse_loss(model(x).float(),
                                            target.float())
        loss.backward()
        opt.step()
        if world > 1:
            # The global batch's loss: the mean of the ranks' means.
            loss = loss.detach().clone()
            torch.distributed.all_reduce(loss)
            loss /= world
        losses.append(loss.item())
    if timing is not None:
        end = torch.cuda.Event(enable_timing=True)
        end.record()
        torch.cuda.synchronize()
        timing.append(start.elapsed_time(end) / (STEPS - 2))
    return losses


def equality(torch, dist, fully_shard, rank, world):
    """For tensorwise and blockwise: the FP8 weight FSDP2 gathers against
    the single-GPU quantization of the whole weight (bit for bit), and
    the layer's Y and dX against the ordinary program's. Returns a list
    of (ok, what)."""
    from fp8_mlir import fsdp
    out = []
    g = torch.Generator(device="cuda").manual_seed(7)
    w = (torch.randn(HIDDEN, DIM, device="cuda", generator=g) *
         0.02).to(torch.bfloat16)
    w[5, 7] = 3.0  # one outlier: tensorwise scales follow the global amax
    x = torch.randn(EQ_M, DIM, device="cuda", generator=g).to(torch.bfloat16)
    dy = torch.randn(EQ_M, HIDDEN, device="cuda",
                     generator=g).to(torch.bfloat16)
    for recipe in ("tensorwise", "blockwise"):
        ref_q, ref_s = fsdp.quantize_shard(w, recipe)  # whole weight
        # The ordinary layer on the whole bf16 weight, one GPU.
        plain = fp8_mlir.nn.Linear(DIM, HIDDEN, bias=False, recipe=recipe,
                                   device="cuda")
        with torch.no_grad():
            plain.weight.copy_(w)
        xr = x.clone().requires_grad_(True)
        y_ref = plain(xr)
        y_ref.backward(dy)
        # The same weight under FSDP2 with FP8 all-gather.
        layer = fp8_mlir.nn.Linear(DIM, HIDDEN, bias=False, recipe=recipe,
                                   device="cuda")
        with torch.no_grad():
            layer.weight.copy_(w)
        model = torch.nn.Sequential(layer)
        fsdp.enable_fp8_all_gather(model, world_size=world)
        fully_shard(model[0])
        fully_shard(model)
        model[0].record_gathered = True
        xs = x.clone().requires_grad_(True)
        y = model(xs)
        y.backward(dy)
        data, scale = model[0].gathered
        out.append((torch.equal(data.view(torch.uint8),
                                ref_q.view(torch.uint8)),
                    "%s: the gathered FP8 data equals the whole weight's "
                    "quantization bit for bit" % recipe))
        scale = scale.reshape(ref_s.shape)
        out.append((torch.equal(scale.view(torch.int32),
                                ref_s.view(torch.int32)),
                    "%s: the gathered scales %s equal the whole weight's bit "
                    "for bit" % (recipe, tuple(ref_s.shape))))
        out.append((torch.equal(y.view(torch.int16),
                                y_ref.view(torch.int16)),
                    "%s: Y on the gathered FP8 weight equals the ordinary "
                    "program's bit for bit" % recipe))
        out.append((torch.equal(xs.grad.view(torch.int16),
                                xr.grad.view(torch.int16)),
                    "%s: dX equals the ordinary program's bit for bit" %
                    recipe))
        del model, layer, plain
    return out


def sharded_run(torch, dist, fully_shard, rank, world, fp8):
    model = build_model(torch)
    if fp8:
        from fp8_mlir import fsdp
        fsdp.enable_fp8_all_gather(model, world_size=world)
    for layer in model:
        if isinstance(layer, fp8_mlir.nn.Linear):
            fully_shard(layer)
    fully_shard(model)
    w = model[0].weight
    local = w.to_local() if hasattr(w, "to_local") else None
    sharded = (type(w).__name__ == "DTensor" and local is not None and
               tuple(local.shape) == (HIDDEN // world, DIM) and
               w.dtype == torch.bfloat16)
    counter = fsdp_counter(dist)
    timing = []
    try:
        losses = train(torch, model, rank, world, timing)
    finally:
        counter.close()
    return dict(sharded=sharded, losses=losses, ms=timing[0],
                gathered=counter.bytes // STEPS,
                gathers=counter.calls // STEPS)


def worker(rank, world, port, reference, fp8, result):
    import torch
    import torch.distributed as dist
    from torch.distributed.fsdp import fully_shard
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port,
                            rank=rank, world_size=world,
                            device_id=torch.device("cuda", rank))
    runs = {"bf16": sharded_run(torch, dist, fully_shard, rank, world,
                                False)}
    checks = []
    if fp8:
        checks = equality(torch, dist, fully_shard, rank, world)
        runs["fp8"] = sharded_run(torch, dist, fully_shard, rank, world,
                                  True)
    if rank == 0:
        for run in runs.values():
            run["worst"] = max(abs(a - b) / abs(b) for a, b in
                               zip(run["losses"], reference))
        result.put((runs, checks))
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aot", action="store_true")
    parser.add_argument("--nproc", type=int, default=2)
    parser.add_argument("--fp8-all-gather", action="store_true",
                        help="also run FSDP2 with FP8 weight all-gather")
    args = parser.parse_args()
    if args.nproc < 1:
        parser.error("--nproc must be at least 1")
    if args.fp8_all_gather and args.nproc < 2:
        parser.error("--fp8-all-gather needs --nproc 2 or more: on a "
                     "1-rank group FSDP2 takes a path without an "
                     "all-gather, and the extension does not apply")
    if args.aot:
        aot(args.nproc)
        print("check_fsdp: compiled into %s" % fp8_mlir.cache_root())
        return 0
    import torch
    import torch.multiprocessing as mp
    if torch.cuda.device_count() < args.nproc:
        print("check_fsdp: needs %d GPUs, this machine has %d" %
              (args.nproc, torch.cuda.device_count()))
        return 2
    ref_ms = []
    reference = train(torch, build_model(torch), timing=ref_ms)
    print("1 GPU:  loss %s" % " ".join("%.4f" % v for v in reference))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ctx = mp.get_context("spawn")
    result = ctx.SimpleQueue()
    mp.start_processes(worker, args=(args.nproc, port, reference,
                                     args.fp8_all_gather, result),
                       nprocs=args.nproc, start_method="spawn")
    runs, checks = result.get()
    for name, run in runs.items():
        print("%d GPUs, %s all-gather: loss %s" % (
            args.nproc, name, " ".join("%.4f" % v for v in run["losses"])))
    ok = True

    def check(cond, what):
        nonlocal ok
        print("%s %s" % ("ok  " if cond else "FAIL", what))
        ok &= bool(cond)

    for ok_, what in checks:
        check(ok_, what)
    for name, run in runs.items():
        losses = run["losses"]
        check(run["sharded"], "%s all-gather: FSDP2 keeps bf16 DTensor "
              "shards of 1/%d of the rows" % (name, args.nproc))
        check(losses[-1] < 0.7 * losses[0], "%s all-gather: the sharded "
              "run trains (loss %.4f -> %.4f)" % (name, losses[0],
                                                  losses[-1]))
        check(run["worst"] < TOL, "%s all-gather: every step's loss within "
              "relative %.3g of the single-GPU run (worst %.3g)" % (
                  name, TOL, run["worst"]))
    print("1 GPU: %.2f ms/step" % ref_ms[0])
    for name, run in runs.items():
        print("%d GPUs, %s all-gather: %d bytes all-gathered per step "
              "(%d all-gathers, rank 0), %.2f ms/step" % (
                  args.nproc, name, run["gathered"], run["gathers"],
                  run["ms"]))
    if "fp8" in runs and runs["bf16"]["gathered"]:
        print("FP8 all-gather moves %.3f of the bf16 all-gather's bytes" %
              (runs["fp8"]["gathered"] / runs["bf16"]["gathered"]))
    print("check_fsdp: %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
