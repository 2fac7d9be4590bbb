#!/usr/bin/env python3
"""fp8_mlir.nn under PyTorch FSDP2 (fully_shard): the same model trained on
one GPU and, sharded, on N GPUs with the same global batch.

    check_fsdp.py --aot             compile the programs it needs into
                                    FP8_MLIR_CACHE (where fp8-opt is)
    check_fsdp.py [--nproc 2]       run (one process per GPU, NCCL), and
                                    the single-GPU reference first

What it checks:
  * parameters stay sharded bf16 masters (DTensor shards of 1/N of the
    rows on each rank), and forward and backward run the compiled
    programs on the weights FSDP2 all-gathers (bf16 all-gather);
  * the loss of every step on N GPUs matches the single-GPU run at the
    same global batch within run-to-run noise: the ranks see M/N rows
    each, so activations and gradients are quantized per rank (per-rank
    row tiles are the same tiles; tensorwise would see a per-rank amax);
    the bound is relative 2^-6;
  * the all-gathered bytes per step against what an FP8 all-gather would
    move (printed; the FP8 all-gather itself is not built yet).
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


def programs(nprocs):
    out = []
    for world in sorted({1, nprocs}):
        m = TOKENS // world
        out.append(dict(m=m, n=HIDDEN, k=DIM))
        out.append(dict(m=m, n=DIM, k=HIDDEN))
    return out


def build_model(torch):
    torch.manual_seed(0)
    return torch.nn.Sequential(
        fp8_mlir.nn.Linear(DIM, HIDDEN, bias=False, recipe=RECIPE,
                           device="cuda"),
        torch.nn.GELU(approximate="tanh"),
        fp8_mlir.nn.Linear(HIDDEN, DIM, bias=False, recipe=RECIPE,
                           device="cuda"))


def batches(torch):
    g = torch.Generator(device="cuda").manual_seed(1)
    teacher = torch.randn(DIM, DIM, device="cuda", generator=g) / DIM ** 0.5
    for _ in range(STEPS):
        x = torch.randn(TOKENS, DIM, device="cuda", generator=g)
        yield x.to(torch.bfloat16), (x @ teacher).to(torch.bfloat16)


def train(torch, model, rank=0, world=1):
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3)
    losses = []
    rows = TOKENS // world
    for x, target in batches(torch):
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
    return losses


def worker(rank, world, port, reference, result):
    import torch
    import torch.distributed as dist
    from torch.distributed.fsdp import fully_shard
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method="tcp://127.0.0.1:%d" % port,
                            rank=rank, world_size=world,
                            device_id=torch.device("cuda", rank))
    model = build_model(torch)
    for layer in model:
        if isinstance(layer, fp8_mlir.nn.Linear):
            fully_shard(layer)
    fully_shard(model)
    w = model[0].weight
    sharded = (type(w).__name__ == "DTensor" and
               tuple(w.to_local().shape) == (HIDDEN // world, DIM) and
               w.dtype == torch.bfloat16)
    losses = train(torch, model, rank, world)
    if rank == 0:
        worst = max(abs(a - b) / abs(b) for a, b in zip(losses, reference))
        gathered = sum(p.numel() for p in model.parameters()) * 2
        result.put((sharded, losses, worst, gathered))
    dist.destroy_process_group()


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--aot", action="store_true")
    parser.add_argument("--nproc", type=int, default=2)
    args = parser.parse_args()
    if args.aot:
        for kw in programs(args.nproc):
            fp8_mlir.compile_linear(recipe=RECIPE, **kw)
        return 0
    import torch
    import torch.multiprocessing as mp
    if torch.cuda.device_count() < args.nproc:
        print("check_fsdp: needs %d GPUs, this machine has %d" %
              (args.nproc, torch.cuda.device_count()))
        return 2
    reference = train(torch, build_model(torch))
    print("1 GPU:  loss %s" % " ".join("%.4f" % v for v in reference))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    ctx = mp.get_context("spawn")
    result = ctx.SimpleQueue()
    mp.start_processes(worker, args=(args.nproc, port, reference, result),
                       nprocs=args.nproc, start_method="spawn")
    sharded, losses, worst, gathered = result.get()
    print("%d GPUs: loss %s" % (args.nproc,
                                " ".join("%.4f" % v for v in losses)))
    ok = True

    def check(cond, what):
        nonlocal ok
        print("%s %s" % ("ok  " if cond else "FAIL", what))
        ok &= bool(cond)

    check(sharded, "FSDP2 keeps bf16 DTensor shards of 1/%d of the rows" %
          args.nproc)
    check(losses[-1] < 0.7 * losses[0], "the sharded run trains (loss "
          "%.4f -> %.4f)" % (losses[0], losses[-1]))
    check(worst < TOL, "every step's loss within relative %.3g of the "
          "single-GPU run (worst %.3g)" % (TOL, worst))
    print("all-gathered per step: %d bytes of bf16 weights forward and "
          "again backward (an FP8 all-gather: about %d)" %
          (gathered, gathered // 2))
    print("check_fsdp: %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
