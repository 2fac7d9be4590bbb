#!/usr/bin/env python3
"""Runs the paired, multi-seed loss comparison of FP8 recipes against bf16
(issue 43) in chunks that fit a time budget.

    # on the GPU machine: the runs not yet in DIR that fit 540 s
    python3 bench/loss_parity.py --out DIR --budget 540 [--export $OUT]
    # two more same-seed bf16 runs: bit-identical (rep) and perturbed (nondet)
    python3 bench/loss_parity.py --out DIR --mode replicate --budget 540
    # anywhere (no torch): what is done, what would run, and the estimates
    python3 bench/loss_parity.py --out DIR --dry-run

Every run is examples/train_gpt.py with --deterministic, --eval-full and
--save-curve DIR/NAME.json; NAME is RECIPE-sSEED (replicates:
bf16-sSEED-rep, bf16-sSEED-nondet). A run whose JSON says "complete" is
done and never run again, so the same command, repeated in later sessions,
finishes the study. The training settings (size, steps, lr, batch, ...)
are fixed by the first invocation in DIR/study.json; later invocations
take them from there and refuse different ones, so that every run of a
study is comparable.

A run starts only if its estimated time fits what is left of --budget:
startup + steps x seconds per step + validations x seconds per validation,
each measured from the finished runs in DIR (same recipe first, else
another recipe's scaled by the 2026-11-25 speed ratios), else the H100
priors below; times 1.1, plus --margin. A run still going at the budget is
stopped (its partial JSON is left, marked incomplete, and run again next
time). The report: bench/loss_parity_report.py. Needs only the standard
library (and torch in train_gpt.py's interpreter).
"""

import argparse
import hashlib
import importlib.util
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
TRAIN_GPT = os.path.join(REPO, "examples", "train_gpt.py")

STUDY_FORMAT = "fp8-mlir-loss-parity/1"
CURVE_FORMAT = "fp8-mlir-loss-curve/1"
DEFAULT_RECIPES = ("bf16", "tensorwise", "rowwise", "blockwise", "mxfp8")
DEFAULT_SEEDS = (0, 1, 2)
REPLICATE_KINDS = ("rep", "nondet")

# The training settings every run of a study shares (study.json), with
# their defaults: the small GPT (113.7M), 8 x 1024 tokens per step, 2,000
# steps (16.4M tokens), lr 6e-4 (below the 1e-3 whose same-seed runs were
# 8.5% apart), full validation every 400 steps.
TRAIN_DEFAULTS = {
    "size": "small",
    "steps": 2000,
    "lr": 6e-4,
    "warmup": 100,
    "batch": 8,
    "eval_every": 400,
    "log_every": 10,
    "chip": "sm_90a",
    "extra": [],
}

# Priors for a run's time before any run of the study has finished:
# tokens/s of the small GPT on one H100 (bench/results/
# 2026-11-25-h100-train-gpt.md, whole 1,000-step runs; bf16 at 0.6x its
# 196,926 for deterministic mode, 2026-11-25-h100-train-gpt-monitor.md;
# mxfp8 not measured: its GEMMs run at about a quarter of blockwise's, so
# a guess well below blockwise). Validation is forward only: about three
# times the training tokens/s. Startup: importing torch, reading the
# 96 MiB corpus, building the model, loading the programs.
PRIOR_TOKENS_PER_S = {
    "bf16": 118000.0,
    "tensorwise": 144000.0,
    "rowwise": 136000.0,
    "blockwise": 127000.0,
    "delayed": 94000.0,
    "mxfp8": 90000.0,
}
PRIOR_OTHER_TOKENS_PER_S = 90000.0
PRIOR_EVAL_SPEEDUP = 3.0
PRIOR_STARTUP_S = 60.0
PRIOR_VAL_TOKENS = 4552079  # the H100 machine's held-out split, in bytes
SAFETY_FACTOR = 1.1


def load_train_gpt():
    """examples/train_gpt.py as a module (it imports torch only inside
    main): its sizes and parameter counts."""
    spec = importlib.util.spec_from_file_location("train_gpt", TRAIN_GPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


# --------------------------------------------------------------------------
# The runs
# --------------------------------------------------------------------------

def recipe_slug(recipe):
    """A file-name-safe name for a recipe: itself for a preset, else its
    letters and digits and a short hash of the whole attribute."""
    if re.fullmatch(r"[A-Za-z0-9_]+", recipe):
        return recipe
    words = re.sub(r"[^a-z0-9]+", "-", recipe.lower()).strip("-")
    words = re.sub(r"^fp8-recipe-", "", words)[:40].strip("-")
    return "%s-%s" % (words, hashlib.sha1(recipe.encode()).hexdigest()[:8])


class Run:
    """One training run: a recipe, a seed, and for replicates a kind."""

    def __init__(self, recipe, seed, kind=None):
        self.recipe, self.seed, self.kind = recipe, seed, kind

    @property
    def name(self):
        base = "%s-s%d" % (recipe_slug(self.recipe), self.seed)
        return base + ("-" + self.kind if self.kind else "")

    @property
    def deterministic(self):
        return self.kind != "nondet"

    def __eq__(self, other):
        return isinstance(other, Run) and self.name == other.name

    def __hash__(self):
        return hash(self.name)

    def __repr__(self):
        return "Run(%s)" % self.name


def plan_runs(mode, recipes, seeds, replicate_seed=None,
              replicates=REPLICATE_KINDS):
    """The runs of a mode, in the order they should run. study: seed by
    seed, bf16 first, so that every finished seed is a complete pairing as
    early as possible. replicate: the study's bf16 run of one seed, then
    its replicates: `rep` the same deterministic run again (it should be
    bit-identical), `nondet` with PyTorch's non-deterministic kernels (a
    last-bit perturbation: how far two runs drift apart by chaos alone,
    the floor of any paired difference)."""
    if mode == "study":
        order = sorted(recipes, key=lambda r: r != "bf16")
        return [Run(r, s) for s in seeds for r in order]
    if mode == "replicate":
        seed = seeds[0] if replicate_seed is None else replicate_seed
        return [Run("bf16", seed)] + [Run("bf16", seed, k)
                                      for k in replicates]
    raise ValueError("mode: study or replicate, not %r" % mode)


def train_command(python, run, cfg, json_path):
    """train_gpt.py's command line for a run."""
    cmd = [python, TRAIN_GPT, "--recipe", run.recipe, "--seed", str(run.seed),
           "--size", cfg["size"], "--steps", str(cfg["steps"]),
           "--lr", repr(float(cfg["lr"])), "--warmup", str(cfg["warmup"]),
           "--batch", str(cfg["batch"]),
           "--eval-every", str(cfg["eval_every"]), "--eval-full",
           "--log-every", str(cfg["log_every"]), "--chip", cfg["chip"],
           "--save-curve", json_path]
    cmd.append("--deterministic" if run.deterministic else
               "--no-deterministic")
    return cmd + list(cfg.get("extra") or [])


def evals_per_run(cfg):
    """Validations in a run: every eval_every steps and at the end."""
    steps, every = cfg["steps"], cfg["eval_every"]
    return steps // every + (1 if steps % every else 0)


# --------------------------------------------------------------------------
# The study directory
# --------------------------------------------------------------------------

def read_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def load_runs(out_dir):
    """{name: record} of every run JSON in `out_dir`, complete or not."""
    runs = {}
    if not os.path.isdir(out_dir):
        return runs
    for fn in sorted(os.listdir(out_dir)):
        if not fn.endswith(".json") or fn == "study.json":
            continue
        rec = read_json(os.path.join(out_dir, fn))
        if isinstance(rec, dict) and rec.get("format") == CURVE_FORMAT:
            runs[fn[:-len(".json")]] = rec
    return runs


def is_done(record):
    return bool(record and record.get("complete"))


def config_of_record(record):
    """The study settings a run was made with, from its JSON."""
    c = record.get("config", {})
    return {"size": c.get("size"), "steps": c.get("steps"),
            "lr": c.get("lr"), "warmup": c.get("warmup"),
            "batch": record.get("batch", c.get("batch")),
            "eval_every": c.get("eval_every")}


def mismatched(record, cfg):
    """The settings (name, run's, study's) in which a run differs from the
    study's."""
    got = config_of_record(record)
    out = []
    for key, have in got.items():
        want = cfg.get(key)
        if key == "lr" and have is not None and want is not None:
            same = abs(float(have) - float(want)) <= 1e-12 * abs(float(want))
        else:
            same = have == want
        if not same:
            out.append((key, have, want))
    return out


class ConfigError(Exception):
    pass


def resolve_config(explicit, study):
    """The study's training settings: `study` (study.json's, or None for a
    new study) with `explicit` (the command line's, None where not given)
    on top. An explicit setting that differs from study.json's is an
    error: the runs of one study must be comparable."""
    if study is not None and study.get("format") != STUDY_FORMAT:
        raise ConfigError("study.json is not a %s file" % STUDY_FORMAT)
    base = dict(TRAIN_DEFAULTS)
    if study is not None:
        base.update(study["train"])
    out = dict(base)
    conflicts = []
    for key, value in explicit.items():
        if value is None:
            continue
        if study is not None and key in study["train"] and \
                study["train"][key] != value:
            conflicts.append("%s: study.json has %r, the command line %r" %
                             (key, study["train"][key], value))
        out[key] = value
    if conflicts:
        raise ConfigError("the settings differ from this study's (start "
                          "another --out for other settings): " +
                          "; ".join(conflicts))
    if out["eval_every"] <= 0 or out["steps"] <= 0:
        raise ConfigError("--steps and --eval-every must be positive")
    return out


def study_record(cfg):
    return {"format": STUDY_FORMAT, "train": cfg}


# --------------------------------------------------------------------------
# Time estimates
# --------------------------------------------------------------------------

def median(values):
    v = sorted(values)
    if not v:
        return None
    n = len(v)
    return v[n // 2] if n % 2 else 0.5 * (v[n // 2 - 1] + v[n // 2])


def prior_tokens_per_s(recipe):
    return PRIOR_TOKENS_PER_S.get(recipe, PRIOR_OTHER_TOKENS_PER_S)


class Estimator:
    """Seconds a run will take, from the finished runs' timings where
    there are any, else from the priors.

    Per run: startup + steps x s_per_step + evals x s_per_eval. Each part
    comes, in this order of preference, from the median of the finished
    runs of the same recipe, from the median over other recipes' runs
    scaled by the priors' ratio of tokens/s, or from the priors alone
    (scaled by tokens per step and parameters from the small GPT's)."""

    def __init__(self, cfg, records, params_ratio=1.0, seq=1024):
        self.cfg = cfg
        self.params_ratio, self.seq = params_ratio, seq
        self.by_recipe = {}
        for rec in records.values():
            t = rec.get("timing") or {}
            if not is_done(rec) or rec.get("status") != "done" or \
                    not t.get("s_per_step") or mismatched(rec, cfg) or \
                    rec.get("deterministic") is False:
                continue
            wall = (rec.get("driver") or {}).get("wall_s") or t.get("wall_s")
            startup = t.get("startup_s")
            if wall and t.get("train_s") is not None:
                # All but training and validation: startup and exit.
                startup = max(0.0, wall - t["train_s"] -
                              (t.get("eval_s") or 0.0))
            self.by_recipe.setdefault(rec.get("recipe"), []).append({
                "s_per_step": t["s_per_step"],
                "s_per_eval": t.get("s_per_eval"),
                "startup_s": startup})

    def _measured(self, recipe, key):
        """(value, how) for `key` from finished runs, or (None, None)."""
        own = [r[key] for r in self.by_recipe.get(recipe, [])
               if r.get(key) is not None]
        if own:
            return median(own), "measured"
        if key == "startup_s":
            every = [r[key] for rs in self.by_recipe.values() for r in rs
                     if r.get(key) is not None]
            return (median(every), "other recipes") if every else (None,
                                                                     None)
        scaled = [r[key] * prior_tokens_per_s(other) /
                  prior_tokens_per_s(recipe)
                  for other, rs in self.by_recipe.items() for r in rs
                  if r.get(key) is not None]
        return (median(scaled), "scaled") if scaled else (None, None)

    def parts(self, recipe):
        """{s_per_step, s_per_eval, startup_s, source}."""
        tokens = self.cfg["batch"] * self.seq
        tps = prior_tokens_per_s(recipe) / self.params_ratio
        priors = {"s_per_step": tokens / tps,
                  "s_per_eval": PRIOR_VAL_TOKENS / (PRIOR_EVAL_SPEEDUP * tps),
                  "startup_s": PRIOR_STARTUP_S}
        out, how = {}, []
        for key, prior in priors.items():
            value, source = self._measured(recipe, key)
            out[key] = prior if value is None else value
            how.append(source or "prior")
        out["source"] = "measured" if all(h == "measured" for h in how) \
            else ("prior" if all(h == "prior" for h in how) else
                  "/".join(sorted(set(how))))
        return out

    def seconds(self, run):
        # (A --no-deterministic replicate is estimated as deterministic:
        # PyTorch's defaults are faster, so that is an upper bound.)
        p = self.parts(run.recipe)
        return SAFETY_FACTOR * (p["startup_s"] + self.cfg["steps"] *
                                p["s_per_step"] + evals_per_run(self.cfg) *
                                p["s_per_eval"])


def choose_next(pending, remaining_s, estimate, margin_s):
    """The first run of `pending` (in order) whose estimate plus the
    margin fits `remaining_s`, or None: a run that cannot finish is never
    started, but a cheaper one behind it may be."""
    for run in pending:
        if estimate(run) + margin_s <= remaining_s:
            return run
    return None


# --------------------------------------------------------------------------
# Running
# --------------------------------------------------------------------------

def launch_subprocess(cmd, log_path, timeout_s, env):
    """Runs `cmd` with its output in `log_path`, in a process group of its
    own; stopped (the group: train_gpt and any children) after
    `timeout_s`. Returns (exit status or None when stopped, seconds)."""
    t0 = time.time()
    with open(log_path, "w") as log:
        proc = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT,
                                env=env, start_new_session=True)
        try:
            rc = proc.wait(timeout=max(1.0, timeout_s))
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
            rc = None
    return rc, time.time() - t0


class Driver:
    """Runs pending runs into `out_dir` while they fit `budget_s`.

    `launch(cmd, log_path, timeout_s, env) -> (rc or None, seconds)` and
    `clock() -> seconds` are the subprocess and time.time by default; the
    tests replace them."""

    def __init__(self, out_dir, cfg, budget_s, margin_s=10.0,
                 python=sys.executable, export_dir=None, commit=None,
                 launch=launch_subprocess, clock=time.time, say=print,
                 params_ratio=1.0, seq=1024):
        self.out_dir, self.cfg = out_dir, cfg
        self.budget_s, self.margin_s = budget_s, margin_s
        self.python, self.export_dir, self.commit = python, export_dir, commit
        self.launch, self.clock, self.say = launch, clock, say
        self.params_ratio, self.seq = params_ratio, seq

    def records(self):
        return load_runs(self.out_dir)

    def estimator(self, records=None):
        return Estimator(self.cfg, self.records() if records is None
                         else records, self.params_ratio, self.seq)

    def pending(self, runs, records=None):
        """The runs of `runs` not done (a done run with other settings is
        an error: it belongs to another study)."""
        records = self.records() if records is None else records
        out = []
        for run in runs:
            rec = records.get(run.name)
            if is_done(rec):
                diff = mismatched(rec, self.cfg)
                if diff:
                    raise ConfigError("%s.json was made with other settings "
                                      "(%s)" % (run.name, ", ".join(
                                          "%s %r, study %r" % d
                                          for d in diff)))
                continue
            out.append(run)
        return out

    def run(self, runs):
        """Runs what fits; returns {"ran": [...], "failed": [...],
        "stopped": [...], "left": [...]} of run names."""
        os.makedirs(self.out_dir, exist_ok=True)
        start = self.clock()
        result = {"ran": [], "failed": [], "stopped": [], "left": []}
        tried = set()
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        if self.commit:
            env["FP8_MLIR_COMMIT"] = self.commit
        while True:
            records = self.records()
            pending = [r for r in self.pending(runs, records)
                       if r.name not in tried]
            if not pending:
                break
            est = self.estimator(records)
            remaining = self.budget_s - (self.clock() - start)
            run = choose_next(pending, remaining, est.seconds, self.margin_s)
            if run is None:
                result["left"] = [r.name for r in pending]
                self.say("loss_parity: %.0f s left; the next run needs %.0f "
                         "s (estimated): stopping with %d runs left" % (
                             remaining, est.seconds(pending[0]) +
                             self.margin_s, len(pending)))
                break
            tried.add(run.name)
            json_path = os.path.join(self.out_dir, run.name + ".json")
            log_path = os.path.join(self.out_dir, run.name + ".log")
            cmd = train_command(self.python, run, self.cfg, json_path)
            self.say("loss_parity: %s (estimated %.0f s, %.0f s left): %s" % (
                run.name, est.seconds(run), remaining, " ".join(cmd)))
            # Stopped at the budget, whatever the estimate said.
            rc, wall = self.launch(cmd, log_path, remaining, env)
            rec = read_json(json_path)
            if rc is None:
                result["stopped"].append(run.name)
                self.say("loss_parity: %s stopped at the budget after %.0f s"
                         % (run.name, wall))
                continue
            if is_done(rec):
                rec["driver"] = {"wall_s": wall, "command": cmd, "rc": rc}
                write_json(json_path, rec)
                result["ran"].append(run.name)
                self.say("loss_parity: %s %s in %.0f s, final validation "
                         "loss %s" % (run.name, rec.get("status"), wall,
                                      rec.get("final_val_loss")))
                self.export(run.name)
            else:
                result["failed"].append(run.name)
                self.say("loss_parity: %s failed (exit %s) after %.0f s; see "
                         "%s" % (run.name, rc, wall, log_path))
                self.export(run.name, json_too=False)
        return result

    def export(self, name, json_too=True):
        """Copies a run's JSON and log into --export (flat: what the
        device machine's $OUT brings back)."""
        if not self.export_dir:
            return
        os.makedirs(self.export_dir, exist_ok=True)
        for ext in ((".json", ".log") if json_too else (".log",)):
            src = os.path.join(self.out_dir, name + ext)
            if os.path.exists(src):
                shutil.copy(src, os.path.join(self.export_dir, name + ext))


def write_json(path, obj):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(obj, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, path)


def describe_plan(runs, records, est, budget_s, margin_s):
    """Lines: each run's state and estimate, and which of the pending ones
    one invocation with `budget_s` would start (assuming the estimates)."""
    lines = []
    left = budget_s
    pending = [r for r in runs if not is_done(records.get(r.name))]
    fits = []
    queue = list(pending)
    while queue:
        run = choose_next(queue, left, est.seconds, margin_s)
        if run is None:
            break
        fits.append(run)
        left -= est.seconds(run)
        queue.remove(run)
    total = sum(est.seconds(r) for r in pending)
    for run in runs:
        rec = records.get(run.name)
        if is_done(rec):
            t = rec.get("timing") or {}
            lines.append("  done     %-28s %s, final val %s, %s s" % (
                run.name, rec.get("status"), fmt(rec.get("final_val_loss")),
                fmt((rec.get("driver") or {}).get("wall_s") or
                    t.get("wall_s"), "%.0f")))
        else:
            p = est.parts(run.recipe)
            lines.append("  %-8s %-28s ~%.0f s (%s: %.1f ms/step, %.1f s "
                         "per validation, %.0f s startup)" % (
                             "next" if run in fits else "pending", run.name,
                             est.seconds(run), p["source"],
                             1000 * p["s_per_step"], p["s_per_eval"],
                             p["startup_s"]))
    lines.append("%d of %d runs done; %d pending, ~%.0f s of runs in all; "
                 "--budget %.0f starts %d" % (
                     len(runs) - len(pending), len(runs), len(pending),
                     total, budget_s, len(fits)))
    return lines


def fmt(value, spec="%.4f"):
    return "-" if value is None else spec % value


def parse_list(text, kind=str):
    """Comma-separated items; a comma inside <...> (an #fp8.recipe<...>
    attribute's) does not separate."""
    items, depth, cur = [], 0, ""
    for ch in text:
        depth += {"<": 1, ">": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    return [kind(x.strip()) for x in items if x.strip()]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", required=True,
                   help="the study's directory: study.json and a NAME.json "
                   "and NAME.log per run")
    p.add_argument("--mode", choices=("study", "replicate"), default="study")
    p.add_argument("--recipes", default=",".join(DEFAULT_RECIPES),
                   help="comma-separated (an #fp8.recipe<...> attribute "
                   "works as one); default %(default)s")
    p.add_argument("--seeds", default=",".join(map(str, DEFAULT_SEEDS)))
    p.add_argument("--replicate-seed", type=int,
                   help="replicate mode: the seed (default: the first of "
                   "--seeds)")
    p.add_argument("--replicates", default=",".join(REPLICATE_KINDS),
                   help="replicate mode: rep (the same deterministic run "
                   "again) and/or nondet (with --no-deterministic)")
    p.add_argument("--budget", type=float, default=540.0,
                   help="seconds this invocation may take; no run starts "
                   "that would not finish within it (default %(default)s)")
    p.add_argument("--margin", type=float, default=10.0,
                   help="seconds kept free after a run's estimate")
    p.add_argument("--dry-run", action="store_true",
                   help="print the plan and estimates; run nothing")
    p.add_argument("--export", metavar="DIR",
                   help="also copy each finished run's JSON and log here "
                   "(the device machine's $OUT)")
    p.add_argument("--commit", help="the commit to record in the runs "
                   "(default: git's, where the checkout has .git)")
    p.add_argument("--python", default=sys.executable,
                   help="the interpreter for train_gpt.py")
    g = p.add_argument_group("training settings (fixed per study by "
                             "study.json; defaults: %s)" % ", ".join(
                                 "%s %s" % kv for kv in
                                 TRAIN_DEFAULTS.items() if kv[0] != "extra"))
    g.add_argument("--size")
    g.add_argument("--steps", type=int)
    g.add_argument("--lr", type=float)
    g.add_argument("--warmup", type=int)
    g.add_argument("--batch", type=int)
    g.add_argument("--eval-every", type=int)
    g.add_argument("--log-every", type=int)
    g.add_argument("--chip")
    g.add_argument("--train-arg", action="append", dest="extra",
                   help="one more argument for every train_gpt.py run "
                   "(repeat it; write --train-arg=--flag for one that "
                   "starts with a dash)")
    args = p.parse_args(argv)
    args.recipes = parse_list(args.recipes)
    args.seeds = parse_list(args.seeds, int)
    args.replicates = parse_list(args.replicates)
    for k in args.replicates:
        if k not in REPLICATE_KINDS:
            p.error("--replicates: rep or nondet, not %r" % k)
    if not args.recipes or not args.seeds:
        p.error("--recipes and --seeds need at least one each")
    return args


def main(argv=None, launch=launch_subprocess, clock=time.time, say=print):
    args = parse_args(argv)
    explicit = {k: getattr(args, k) for k in TRAIN_DEFAULTS}
    study_path = os.path.join(args.out, "study.json")
    study = read_json(study_path) if os.path.exists(study_path) else None
    try:
        cfg = resolve_config(explicit, study)
    except ConfigError as e:
        say("loss_parity: %s" % e)
        return 2
    tg = load_train_gpt()
    if cfg["size"] not in tg.SIZES:
        say("loss_parity: --size: one of %s" % ", ".join(sorted(tg.SIZES)))
        return 2
    ratio = tg.parameter_count(cfg["size"]) / tg.parameter_count("small")
    seq = tg.SIZES[cfg["size"]][4]
    runs = plan_runs(args.mode, args.recipes, args.seeds, args.replicate_seed,
                     args.replicates)
    driver = Driver(args.out, cfg, args.budget, args.margin, args.python,
                    args.export, args.commit, launch, clock, say, ratio, seq)
    records = load_runs(args.out)
    try:
        driver.pending(runs, records)
    except ConfigError as e:
        say("loss_parity: %s" % e)
        return 2
    say("loss_parity: %s, %s mode, settings %s" % (
        args.out, args.mode, json.dumps(cfg, sort_keys=True)))
    for line in describe_plan(runs, records, driver.estimator(records),
                              args.budget, args.margin):
        say(line)
    if args.dry_run:
        return 0
    if study is None:
        os.makedirs(args.out, exist_ok=True)
        write_json(study_path, study_record(cfg))
    if args.export:
        os.makedirs(args.export, exist_ok=True)
        shutil.copy(study_path, os.path.join(args.export, "study.json"))
    result = driver.run(runs)
    say("loss_parity: ran %d (%s); failed %d (%s); stopped %d; %d left" % (
        len(result["ran"]), ", ".join(result["ran"]) or "-",
        len(result["failed"]), ", ".join(result["failed"]) or "-",
        len(result["stopped"]),
        len(driver.pending(runs))))
    return 1 if result["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
