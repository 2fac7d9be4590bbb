#!/usr/bin/env python3
"""Plots of examples/train_gpt.py's logs (log.jsonl files, or gzipped).

    python3 examples/plot_training.py --out DIR RUN.jsonl ...

Writes, from the runs it is given:
  loss.png     training loss (thin) and validation loss (dots) per run,
               and validation loss relative to the bf16 run (if any) of
               the same seed
  speed.png    CUDA time per step split into GEMMs, attention,
               quantization and the rest, and tokens/s (--profile runs)
  monitor.png  FP8 health statistics over training (--monitor runs): per
               step the worst layer's saturated and flushed fractions and
               tile-amax spread, and amax, per quantized tensor
A run's label is its recipe, with the seed and GPU count where they
differ from the first run's. Needs matplotlib (Debian: python3-matplotlib);
the logs need nothing else.
"""

import argparse
import gzip
import json
import os
import sys


def read_run(path):
    """(config header, step records, profile or None, summary or None) of
    a log, .jsonl or .jsonl.gz."""
    header, steps, profile, summary = {}, [], None, None
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            rec = json.loads(line)
            if "config" in rec:
                header = rec
            elif "profile" in rec:
                profile = rec["profile"]
            elif "summary" in rec:
                summary = rec["summary"]
            elif "step" in rec:
                steps.append(rec)
    return header, steps, profile, summary


def label_of(header, first):
    cfg = header.get("config", {})
    base = first.get("config", {})
    label = cfg.get("recipe", "?")
    if cfg.get("seed") != base.get("seed"):
        label += " seed %s" % cfg.get("seed")
    if header.get("gpus", 1) != first.get("gpus", 1):
        label += " %d GPUs" % header.get("gpus", 1)
        if cfg.get("all_gather"):
            label += " %s all-gather" % cfg["all_gather"]
    return label


def plot_loss(plt, runs, out):
    fig, (ax, rel) = plt.subplots(1, 2, figsize=(13, 4.8))
    baseline = {}
    for label, header, steps, _, _ in runs:
        if header.get("config", {}).get("recipe") == "bf16":
            baseline[header["config"].get("seed")] = {
                r["step"]: r["val_loss"] for r in steps if "val_loss" in r}
    for label, header, steps, _, _ in runs:
        train = [(r["step"], r["loss"]) for r in steps if "loss" in r]
        val = [(r["step"], r["val_loss"]) for r in steps if "val_loss" in r]
        if not train and not val:
            continue
        line, = ax.plot(*zip(*train), lw=0.8, alpha=0.6) if train else \
            ax.plot([], [])
        if val:
            ax.plot(*zip(*val), "o-", color=line.get_color(), ms=3,
                    label=label)
        base = baseline.get(header.get("config", {}).get("seed"))
        if base and header["config"].get("recipe") != "bf16":
            pts = [(s, 100 * (v / base[s] - 1)) for s, v in val if s in base]
            if pts:
                rel.plot(*zip(*pts), "o-", color=line.get_color(), ms=3,
                         label=label)
    ax.set_xlabel("step")
    ax.set_ylabel("loss (nats per byte)")
    ax.set_title("training (thin) and validation (dots) loss")
    ax.set_ylim(top=min(3.0, ax.get_ylim()[1]))
    ax.grid(alpha=0.3)
    ax.legend()
    rel.axhline(0, color="k", lw=0.8)
    rel.set_xlabel("step")
    rel.set_ylabel("validation loss vs bf16 (%)")
    rel.set_title("validation loss relative to bf16, same seed")
    rel.grid(alpha=0.3)
    if rel.get_legend_handles_labels()[0]:
        rel.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "loss.png"), dpi=110)
    plt.close(fig)


def plot_speed(plt, runs, out):
    prof = [(label, p) for label, _, _, p, _ in runs if p]
    if not prof:
        return False
    kinds = ("gemm", "attention", "quantize", "other")
    fig, ax = plt.subplots(figsize=(8, 4.5))
    bottom = [0.0] * len(prof)
    xs = range(len(prof))
    for kind in kinds:
        vals = [p["cuda_ms_per_step"].get(kind, 0.0) for _, p in prof]
        ax.bar(xs, vals, bottom=bottom, label=kind)
        bottom = [b + v for b, v in zip(bottom, vals)]
    for x, (label, p), top in zip(xs, prof, bottom):
        ax.text(x, top + 2, "%.0fk tok/s" % (p["tokens_per_s"] / 1000),
                ha="center", fontsize=9)
    ax.set_xticks(list(xs))
    ax.set_xticklabels(["%s\n%s" % (label, p["size"]) for label, p in prof])
    ax.set_ylabel("CUDA ms per step")
    ax.set_title("step time split (3 profiled steps)")
    ax.legend()
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "speed.png"), dpi=110)
    plt.close(fig)
    return True


def monitor_series(steps):
    """{tensor: {stat: [(step, worst over layers)]}}, tensor being the
    part after the layer name ("fwd/x", "bwd/dy", ...)."""
    series = {}
    for rec in steps:
        stats = rec.get("fp8_stats")
        if not stats:
            continue
        worst = {}
        for key, s in stats.items():
            tensor = key.split("/", 1)[1] if "/" in key else key
            w = worst.setdefault(tensor, {})
            for stat in ("saturated", "flushed", "tile_amax_spread",
                         "amax"):
                v = s.get(stat)
                if v is not None:
                    w[stat] = max(w.get(stat, v), v)
        for tensor, w in worst.items():
            for stat, v in w.items():
                series.setdefault(tensor, {}).setdefault(stat, []).append(
                    (rec["step"], v))
    return series


def plot_monitor(plt, runs, out):
    monitored = [(label, monitor_series(steps)) for label, _, steps, _, _ in
                 runs]
    monitored = [(label, s) for label, s in monitored if s]
    if not monitored:
        return False
    stats = ("saturated", "flushed", "tile_amax_spread", "amax")
    titles = ("saturated fraction (worst layer)", "flushed-to-zero fraction "
              "(worst layer)", "tile-amax spread max/median (worst layer)",
              "amax (largest layer)")
    fig, axes = plt.subplots(len(monitored), 4,
                             figsize=(18, 3.8 * len(monitored)),
                             squeeze=False)
    for row, (label, series) in enumerate(monitored):
        for col, stat in enumerate(stats):
            ax = axes[row][col]
            for tensor in sorted(series):
                pts = series[tensor].get(stat)
                if pts:
                    ax.plot(*zip(*pts), lw=1, label=tensor)
            ax.set_title("%s: %s" % (label, titles[col]), fontsize=9)
            ax.set_xlabel("step")
            if stat in ("tile_amax_spread", "amax"):
                ax.set_yscale("log")
            ax.grid(alpha=0.3)
        axes[row][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "monitor.png"), dpi=100)
    plt.close(fig)
    return True


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("logs", nargs="+")
    p.add_argument("--out", required=True)
    args = p.parse_args(argv)
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("plot_training: needs matplotlib (apt-get install "
              "python3-matplotlib)", file=sys.stderr)
        return 2
    loaded = [(path,) + read_run(path) for path in args.logs]
    first = loaded[0][1]
    runs = [(label_of(h, first), h, s, prof, summ)
            for _, h, s, prof, summ in loaded]
    os.makedirs(args.out, exist_ok=True)
    plot_loss(plt, [r for r in runs if r[2]], args.out)
    made = ["loss.png"]
    if plot_speed(plt, runs, args.out):
        made.append("speed.png")
    if plot_monitor(plt, runs, args.out):
        made.append("monitor.png")
    print("plot_training: wrote %s in %s" % (", ".join(made), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
