"""(No tests here.) Synthetic run JSONs of bench/loss_parity.py's studies, as
examples/train_gpt.py --save-curve writes them, for the tests of the driver
and the report (no torch, no GPU)."""

import importlib.util
import json
import math
import os

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def load(rel, name):
    spec = importlib.util.spec_from_file_location(name,
                                                  os.path.join(REPO, rel))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


SETTINGS = {"size": "small", "steps": 2000, "lr": 6e-4, "warmup": 100,
            "batch": 8, "eval_every": 400, "log_every": 10,
            "chip": "sm_90a", "extra": []}


def curve_points(final, steps=2000, eval_every=400, log_every=10,
                 tokens_per_step=8192):
    """A falling curve that ends at `final`: training loss every
    `log_every` steps, validation every `eval_every` and at the end."""
    def loss(step):
        return final * (1.0 + 3.0 * math.exp(-step / (steps / 6.0)) -
                        3.0 * math.exp(-6.0))
    points = []
    for step in range(log_every, steps + 1, log_every):
        pt = {"step": step, "tokens": step * tokens_per_step,
              "train_loss": loss(step) * 1.01}
        if step % eval_every == 0 or step == steps:
            pt["val_loss"] = loss(step)
        points.append(pt)
    return points


def record(recipe, seed, final, settings=SETTINGS, status="done",
           complete=True, deterministic=True, s_per_step=0.06,
           s_per_eval=10.0, startup_s=40.0, wall_s=None, device="NVIDIA H100 "
           "80GB HBM3"):
    points = curve_points(final, settings["steps"], settings["eval_every"],
                          settings["log_every"])
    if status == "diverged":
        points = points[:len(points) // 2]
        points[-1]["train_loss"] = float("nan")
        points = [dict(p, val_loss=p.get("val_loss")) for p in points]
        for p in points:
            if p["val_loss"] is None:
                del p["val_loss"]
    steps = settings["steps"]
    evals = steps // settings["eval_every"] + (
        1 if steps % settings["eval_every"] else 0)
    train_s = s_per_step * steps
    timing = {"startup_s": startup_s, "train_s": train_s,
              "eval_s": s_per_eval * evals, "evals": evals,
              "s_per_step": s_per_step, "s_per_eval": s_per_eval,
              "wall_s": wall_s or startup_s + train_s + s_per_eval * evals}
    config = dict(recipe=recipe, seed=seed, size=settings["size"],
                  steps=steps, lr=settings["lr"], warmup=settings["warmup"],
                  batch=settings["batch"], eval_every=settings["eval_every"],
                  log_every=settings["log_every"], eval_full=True,
                  deterministic=deterministic)
    last = points[-1] if points else {}
    return {"format": "fp8-mlir-loss-curve/1", "complete": complete,
            "status": status if complete else "running", "recipe": recipe,
            "seed": seed, "steps": steps, "size": settings["size"],
            "batch": settings["batch"], "seq": 1024,
            "tokens_per_step": 8192, "lr": settings["lr"],
            "warmup": settings["warmup"], "deterministic": deterministic,
            "config": config, "corpus": {"sha256": "b9be8116c4981adc"},
            "parameters": 113662720, "device": device, "gpus": 1,
            "torch": "2.11.0+cu130", "cuda": "13.0", "python": "3.12.3",
            "commit": "abc123", "validation": {"full": True,
                                               "tokens": 4551168,
                                               "every": 400},
            "points": points, "timing": timing,
            "final_val_loss": (last.get("val_loss") if last.get("step") ==
                               steps and status == "done" else None)}


def write(out_dir, name, rec):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, name + ".json"), "w") as f:
        json.dump(rec, f)


def write_study(out_dir, settings=SETTINGS):
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "study.json"), "w") as f:
        json.dump({"format": "fp8-mlir-loss-parity/1",
                   "train": dict(settings)}, f)
