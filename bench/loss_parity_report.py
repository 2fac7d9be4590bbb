#!/usr/bin/env python3
"""The loss-parity study's report: what bench/loss_parity.py's runs say
about each FP8 recipe's loss against bf16 (issue 43).

    python3 bench/loss_parity_report.py DIR [--md REPORT.md] [--svg PLOT.svg]

Reads DIR/study.json and every complete run JSON in DIR (train_gpt.py
--save-curve) and writes a markdown report (default DIR/report.md) with:

- per recipe, the final validation loss of each seed and their mean ±
  sample standard deviation;
- per recipe, the paired difference to bf16 of the same seed (same
  initialization, same batches), 100 (L_recipe - L_bf16) / L_bf16, per seed,
  its mean ± s.d., the 95% confidence interval of the mean (Student's t)
  and the claim it supports: "within x% of bf16", x the larger end of the
  interval in magnitude;
- the same-seed bf16 replicates' gap (rep: the same deterministic run;
  nondet: PyTorch's non-deterministic kernels, a last-bit perturbation);
- the validation loss at every validation step, and how much it still fell
  over the last interval (has the curve flattened?);
- a hand-written SVG plot (default DIR/curves.svg; no matplotlib needed):
  validation and training loss per recipe, mean over seeds with a ±1 s.d.
  band, and the paired difference to bf16 with its band.

Standard library only: runs on any python3 3.8+.
"""

import argparse
import importlib.util
import json
import math
import os
import re
import sys
from xml.sax.saxutils import escape

HERE = os.path.dirname(os.path.abspath(__file__))


def _load_driver():
    spec = importlib.util.spec_from_file_location(
        "loss_parity", os.path.join(HERE, "loss_parity.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


lp = _load_driver()

TARGET_PCT = 0.5
REPLICATE_TARGET_PCT = 0.1
NAME_RE = re.compile(r"^(?P<base>.+)-s(?P<seed>\d+)(?:-(?P<kind>rep|nondet))?$")

# Student's t, two-sided 95% (the 0.975 quantile), by degrees of freedom.
T975 = [None, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306,
        2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110,
        2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
        2.052, 2.048, 2.045, 2.042]

COLORS = {"bf16": "#222222", "tensorwise": "#1f77b4", "rowwise": "#2ca02c",
          "blockwise": "#d62728", "mxfp8": "#9467bd", "delayed": "#ff7f0e"}
OTHER_COLORS = ["#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"]


# --------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------

def mean(xs):
    return sum(xs) / len(xs) if xs else None


def stdev(xs):
    """Sample standard deviation (n - 1); None for fewer than 2 values."""
    if len(xs) < 2:
        return None
    m = mean(xs)
    return math.sqrt(sum((x - m) ** 2 for x in xs) / (len(xs) - 1))


def t975(df):
    if df < 1:
        return None
    return T975[df] if df < len(T975) else 1.96


def ci95(xs):
    """(low, high) of the 95% confidence interval of the mean, or None for
    fewer than 2 values."""
    s = stdev(xs)
    if s is None:
        return None
    half = t975(len(xs) - 1) * s / math.sqrt(len(xs))
    m = mean(xs)
    return m - half, m + half


def pct_diff(value, reference):
    return 100.0 * (value - reference) / reference


def claim(diffs, target=TARGET_PCT):
    """(x, verdict) for paired differences in %: x = the larger magnitude
    of the 95% interval's ends (the recipe is within x% of bf16), verdict
    'within T%' where x <= T, 'differs' where the interval excludes 0 and
    its nearer end is beyond T, else 'not resolved'."""
    ci = ci95(diffs)
    if ci is None:
        return None, "one seed: no interval"
    lo, hi = ci
    x = max(abs(lo), abs(hi))
    if x <= target:
        return x, "within %g%%" % target
    if (lo > 0 or hi < 0) and min(abs(lo), abs(hi)) > target:
        return x, "differs by more than %g%%" % target
    return x, "not resolved at %g%%" % target


# --------------------------------------------------------------------------
# The runs
# --------------------------------------------------------------------------

class Study:
    """The complete runs of a directory, by recipe, seed and kind."""

    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.settings = (lp.read_json(os.path.join(out_dir, "study.json"))
                         or {}).get("train")
        self.main = {}        # recipe -> {seed: record}
        self.replicates = {}  # (seed, kind) -> record
        self.excluded = []    # (name, why)
        self.incomplete = []
        for name, rec in sorted(lp.load_runs(out_dir).items()):
            m = NAME_RE.match(name)
            if not m:
                self.excluded.append((name, "not a RECIPE-sSEED name"))
                continue
            if not lp.is_done(rec):
                self.incomplete.append(name)
                continue
            if self.settings:
                diff = lp.mismatched(rec, self.settings)
                if diff:
                    self.excluded.append((name, "other settings: " + ", ".join(
                        "%s %r" % (k, have) for k, have, _ in diff)))
                    continue
            seed = int(m.group("seed"))
            if rec.get("seed") is not None and rec["seed"] != seed:
                self.excluded.append((name, "its seed is %r" % rec["seed"]))
                continue
            if m.group("kind"):
                self.replicates[(seed, m.group("kind"))] = rec
            else:
                self.main.setdefault(rec["recipe"], {})[seed] = rec

    def recipes(self):
        """bf16 first, then the presets in the driver's order, then the
        rest."""
        order = list(lp.DEFAULT_RECIPES) + ["delayed"]
        return sorted(self.main, key=lambda r: (order.index(r) if r in order
                                                else len(order), r))

    def final(self, recipe):
        """{seed: final validation loss} of a recipe's finished runs (a
        diverged run has none)."""
        return {s: r["final_val_loss"] for s, r in self.main[recipe].items()
                if r.get("status") == "done" and
                r.get("final_val_loss") is not None}

    def diverged(self, recipe):
        return sorted(s for s, r in self.main[recipe].items()
                      if r.get("status") == "diverged")

    def paired(self, recipe):
        """{seed: % difference to bf16's final validation loss}, over the
        seeds both have."""
        if "bf16" not in self.main:
            return {}
        ref, own = self.final("bf16"), self.final(recipe)
        return {s: pct_diff(own[s], ref[s]) for s in sorted(own) if s in ref}


def val_points(record):
    return [(p["step"], p["val_loss"]) for p in record.get("points", [])
            if p.get("val_loss") is not None]


def train_points(record):
    return [(p["step"], p["train_loss"]) for p in record.get("points", [])
            if p.get("train_loss") is not None]


def curve_gap(a, b):
    """(largest |%| gap between two runs' validation losses at the same
    steps, whether every logged loss is equal bit for bit)."""
    va, vb = dict(val_points(a)), dict(val_points(b))
    common = sorted(set(va) & set(vb))
    gap = max((abs(pct_diff(vb[s], va[s])) for s in common), default=None)
    same = (a.get("points") == b.get("points"))
    return gap, same


def band(records, points_of, steps=None):
    """[(step, mean, s.d. or None, n)] over runs, at the steps every run
    has (or `steps`)."""
    series = [dict(points_of(r)) for r in records]
    if not series:
        return []
    common = set(series[0])
    for s in series[1:]:
        common &= set(s)
    out = []
    for step in sorted(common if steps is None else set(steps) & common):
        xs = [s[step] for s in series]
        out.append((step, mean(xs), stdev(xs), len(xs)))
    return out


def paired_band(study, recipe):
    """[(step, mean %, s.d.)] of the paired validation difference to bf16
    over the seeds both have, per validation step."""
    if "bf16" not in study.main or recipe == "bf16":
        return []
    ref, own = study.main["bf16"], study.main[recipe]
    per_seed = []
    for seed in sorted(set(ref) & set(own)):
        a, b = dict(val_points(ref[seed])), dict(val_points(own[seed]))
        per_seed.append({s: pct_diff(b[s], a[s]) for s in set(a) & set(b)})
    if not per_seed:
        return []
    common = set(per_seed[0])
    for d in per_seed[1:]:
        common &= set(d)
    return [(s, mean([d[s] for d in per_seed]),
             stdev([d[s] for d in per_seed])) for s in sorted(common)]


def smooth(points, window):
    """Trailing moving average of (x, y) points over `window` points."""
    out = []
    for i, (x, _) in enumerate(points):
        ys = [y for _, y in points[max(0, i - window + 1):i + 1]]
        out.append((x, sum(ys) / len(ys)))
    return out


# --------------------------------------------------------------------------
# Markdown
# --------------------------------------------------------------------------

def f4(x):
    return "—" if x is None else "%.4f" % x


def fpct(x, plus=True):
    return "—" if x is None else ("%+.2f%%" % x if plus else "%.2f%%" % x)


def pm(xs, fmt="%.4f", unit=""):
    if not xs:
        return "—"
    s = stdev(xs)
    m = (fmt % mean(xs)) + unit
    return m if s is None else "%s ± %s%s" % (m, fmt.replace("+", "") % s,
                                             unit)


def settings_line(study):
    s = study.settings or {}
    if not s:
        return "Settings: no study.json."
    return ("Settings (study.json): size %s, %s steps, lr %g (warmup %s, "
            "cosine to 10%%), %s sequences per step, full validation every "
            "%s steps%s." % (s.get("size"), s.get("steps"), s.get("lr"),
                             s.get("warmup"), s.get("batch"),
                             s.get("eval_every"),
                             (", extra %s" % " ".join(s["extra"]))
                             if s.get("extra") else ""))


def provenance(study):
    recs = [r for rs in study.main.values() for r in rs.values()] + \
        list(study.replicates.values())
    def values(key):
        return sorted({str(r.get(key)) for r in recs})
    corpus = sorted({str((r.get("corpus") or {}).get("sha256")) for r in recs})
    val_tokens = sorted({str((r.get("validation") or {}).get("tokens"))
                         for r in recs})
    lines = ["Runs: %d (%d recipes, %d replicates). Devices: %s. torch: %s. "
             "Commits: %s. Corpus digests: %s; validation tokens: %s." % (
                 len(recs), len(study.main), len(study.replicates),
                 ", ".join(values("device")), ", ".join(values("torch")),
                 ", ".join(values("commit")), ", ".join(corpus),
                 ", ".join(val_tokens))]
    if len(corpus) > 1:
        lines.append("**Warning: the runs saw different corpora** (their "
                     "machines' Python packages differ); pairs are not "
                     "comparable.")
    nondet = [r for r in recs if r.get("deterministic") is False and
              r not in study.replicates.values()]
    if nondet:
        lines.append("**Warning: %d runs were not deterministic.**" %
                     len(nondet))
    return lines


def report_markdown(study, svg_rel=None):
    out = ["# FP8 recipes against bf16: final validation loss, paired by "
           "seed", "", settings_line(study), ""] + provenance(study) + [""]
    recipes = study.recipes()
    if not recipes:
        return "\n".join(out + ["No complete runs yet."]) + "\n"
    seeds = sorted({s for r in recipes for s in study.main[r]})

    out += ["## Final validation loss (nats per byte, the whole held-out "
            "split)", "",
            "| recipe | n | " + " | ".join("seed %d" % s for s in seeds) +
            " | mean ± s.d. |",
            "|---|---|" + "---|" * len(seeds) + "---|"]
    for r in recipes:
        fin = study.final(r)
        cells = []
        for s in seeds:
            rec = study.main[r].get(s)
            cells.append("—" if rec is None else
                         ("diverged" if rec.get("status") == "diverged"
                          else f4(fin.get(s))))
        out.append("| %s | %d | %s | %s |" % (
            r, len(fin), " | ".join(cells), pm(list(fin.values()))))
    out.append("")

    if "bf16" in study.main:
        out += ["## Paired difference to bf16 (same seed: same "
                "initialization and batches)", "",
                "100 (L_recipe − L_bf16) / L_bf16 of the final validation "
                "loss; negative is lower than bf16. The interval is the 95% "
                "confidence interval of the mean difference (Student's t, "
                "n − 1 degrees of freedom); \"within x%\" is its larger end "
                "in magnitude.", "",
                "| recipe | n | " + " | ".join("seed %d" % s for s in seeds) +
                " | mean ± s.d. | 95% interval | claim |",
                "|---|---|" + "---|" * len(seeds) + "---|---|---|"]
        claims = []
        for r in recipes:
            if r == "bf16":
                continue
            d = study.paired(r)
            ci = ci95(list(d.values()))
            x, verdict = claim(list(d.values()))
            out.append("| %s | %d | %s | %s | %s | %s |" % (
                r, len(d), " | ".join(fpct(d.get(s)) for s in seeds),
                pm(list(d.values()), "%+.2f", "%"),
                "—" if ci is None else "[%+.2f%%, %+.2f%%]" % ci,
                "—" if x is None else "within %.2f%% (%s)" % (x, verdict)))
            if d:
                claims.append("- **%s**: %s" % (r, claim_sentence(r, d)))
        out += [""] + claims + [""]

    out += replicate_section(study)
    out += curve_section(study, recipes)
    if svg_rel:
        out += ["## Curves", "", "![validation loss, training loss and the "
                "paired difference to bf16, mean over seeds with ±1 s.d. "
                "bands](%s)" % svg_rel, "",
                "Left: validation loss at each validation from 40%% of the "
                "run on. Middle: training "
                "loss (each point the mean of a log interval, smoothed over "
                "5 intervals), second half of the run. Right: paired "
                "validation difference to bf16 in %%, dashed at ±%g%%." %
                TARGET_PCT, ""]
    if study.incomplete or study.excluded:
        out += ["## Not counted", ""]
        out += ["- %s: incomplete (a run stopped before its end)" % n
                for n in study.incomplete]
        out += ["- %s: %s" % ne for ne in study.excluded]
        out.append("")
    return "\n".join(out)


def claim_sentence(recipe, diffs):
    ds = list(diffs.values())
    x, verdict = claim(ds)
    s = stdev(ds)
    if x is None:
        return "%+.2f%% from bf16, 1 seed (no interval)" % ds[0]
    return ("within %.2f%% of bf16, %d seeds, paired difference %+.2f%% ± "
            "%.2f%% (s.d.; 95%% interval [%+.2f%%, %+.2f%%]): %s" % (
                x, len(ds), mean(ds), s, ci95(ds)[0], ci95(ds)[1], verdict))


def replicate_section(study):
    if not study.replicates:
        return []
    out = ["## Same-seed bf16 replicates", "",
           "Each replicate against the study's bf16 run of its seed. `rep` "
           "repeats it exactly (deterministic: it should be identical); "
           "`nondet` runs PyTorch's non-deterministic kernels, a last-bit "
           "perturbation whose gap is the floor of any paired difference. "
           "Target: within %g%% at the end." % REPLICATE_TARGET_PCT, "",
           "| seed | replicate | final val, study run | final val, "
           "replicate | gap at the end | largest gap over the curve | "
           "identical | within %g%% |" % REPLICATE_TARGET_PCT,
           "|---|---|---|---|---|---|---|---|"]
    base = study.main.get("bf16", {})
    for (seed, kind), rec in sorted(study.replicates.items()):
        ref = base.get(seed)
        if ref is None:
            out.append("| %d | %s | — | %s | — | — | — | — |" % (
                seed, kind, f4(rec.get("final_val_loss"))))
            continue
        a, b = ref.get("final_val_loss"), rec.get("final_val_loss")
        gap = None if a is None or b is None else pct_diff(b, a)
        worst, same = curve_gap(ref, rec)
        out.append("| %d | %s | %s | %s | %s | %s | %s | %s |" % (
            seed, kind, f4(a), f4(b), fpct(gap), fpct(worst, False),
            "yes" if same else "no",
            "—" if gap is None else
            ("yes" if abs(gap) <= REPLICATE_TARGET_PCT else "no")))
    return out + [""]


def curve_section(study, recipes):
    steps = sorted({s for r in recipes for rec in study.main[r].values()
                    for s, _ in val_points(rec)})
    if not steps:
        return []
    out = ["## Validation loss over the run (mean ± s.d. over seeds)", "",
           "| recipe | " + " | ".join("step %d" % s for s in steps) +
           " | fell over the last interval |",
           "|---|" + "---|" * len(steps) + "---|"]
    for r in recipes:
        b = {s: (m, sd) for s, m, sd, _ in band(
            [rec for rec in study.main[r].values()
             if rec.get("status") == "done"], val_points)}
        cells = []
        for s in steps:
            if s not in b:
                cells.append("—")
            else:
                m, sd = b[s]
                cells.append("%.4f" % m if sd is None else
                             "%.4f ± %.4f" % (m, sd))
        fell = "—"
        have = [s for s in steps if s in b]
        if len(have) >= 2:
            fell = fpct(-pct_diff(b[have[-1]][0], b[have[-2]][0]), False)
        out.append("| %s | %s | %s |" % (r, " | ".join(cells), fell))
    return out + [""]


# --------------------------------------------------------------------------
# SVG
# --------------------------------------------------------------------------

def nice_ticks(lo, hi, n=5):
    """Round tick values covering [lo, hi]."""
    if hi <= lo:
        hi = lo + 1.0
    raw = (hi - lo) / max(1, n)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9) * step
    ticks, t = [], first
    while t <= hi + 1e-9 * step:
        ticks.append(round(t, 12))
        t += step
    return ticks


def fmt_tick(v):
    if v == 0:
        return "0"
    if abs(v) >= 1000:
        return "%gk" % (v / 1000)
    return ("%.4g" % v)


class Panel:
    """One plot's axes in an SVG: data to pixels, lines, bands, ticks."""

    def __init__(self, x0, y0, w, h, xlim, ylim, title, xlabel, ylabel):
        self.x0, self.y0, self.w, self.h = x0, y0, w, h
        self.xlim, self.ylim = xlim, ylim
        self.items = []
        self.title, self.xlabel, self.ylabel = title, xlabel, ylabel

    def px(self, x, y):
        (a, b), (c, d) = self.xlim, self.ylim
        return (self.x0 + (x - a) / ((b - a) or 1) * self.w,
                self.y0 + self.h - (y - c) / ((d - c) or 1) * self.h)

    def clip(self, y):
        return min(max(y, self.ylim[0]), self.ylim[1])

    def line(self, pts, color, width=1.6, dash=None):
        if len(pts) < 1:
            return
        d = " ".join("%.1f,%.1f" % self.px(x, self.clip(y)) for x, y in pts)
        if len(pts) == 1:
            x, y = self.px(pts[0][0], self.clip(pts[0][1]))
            self.items.append('<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>'
                              % (x, y, color))
            return
        self.items.append('<polyline fill="none" stroke="%s" stroke-width='
                          '"%.1f"%s points="%s"/>' % (
                              color, width, ' stroke-dasharray="%s"' % dash
                              if dash else "", d))

    def band(self, pts, color):
        """pts: (x, low, high)."""
        if len(pts) < 2:
            return
        up = ["%.1f,%.1f" % self.px(x, self.clip(hi)) for x, _, hi in pts]
        down = ["%.1f,%.1f" % self.px(x, self.clip(lo))
                for x, lo, _ in reversed(pts)]
        self.items.append('<polygon fill="%s" fill-opacity="0.18" '
                          'stroke="none" points="%s"/>' % (
                              color, " ".join(up + down)))

    def svg(self):
        out = ['<rect x="%d" y="%d" width="%d" height="%d" fill="white" '
               'stroke="#999"/>' % (self.x0, self.y0, self.w, self.h)]
        for t in nice_ticks(*self.ylim):
            if self.ylim[0] <= t <= self.ylim[1]:
                _, y = self.px(self.xlim[0], t)
                out.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" '
                           'stroke="#e4e4e4"/>' % (self.x0, self.x0 + self.w,
                                                   y, y))
                out.append('<text x="%d" y="%.1f" text-anchor="end" '
                           'font-size="10">%s</text>' % (self.x0 - 4, y + 3,
                                                         fmt_tick(t)))
        for t in nice_ticks(*self.xlim):
            if self.xlim[0] <= t <= self.xlim[1]:
                x, _ = self.px(t, self.ylim[0])
                out.append('<text x="%.1f" y="%d" text-anchor="middle" '
                           'font-size="10">%s</text>' % (
                               x, self.y0 + self.h + 13, fmt_tick(t)))
        out.append('<text x="%d" y="%d" font-size="12" font-weight="bold">'
                   '%s</text>' % (self.x0, self.y0 - 8, escape(self.title)))
        out.append('<text x="%d" y="%d" text-anchor="middle" font-size="11">'
                   '%s</text>' % (self.x0 + self.w / 2,
                                  self.y0 + self.h + 28, escape(self.xlabel)))
        out.append('<text transform="translate(%d,%d) rotate(-90)" '
                   'text-anchor="middle" font-size="11">%s</text>' % (
                       self.x0 - 40, self.y0 + self.h / 2,
                       escape(self.ylabel)))
        out.append('<svg x="%d" y="%d" width="%d" height="%d" overflow='
                   '"hidden"><g transform="translate(%d,%d)">' % (
                       self.x0, self.y0, self.w, self.h, -self.x0, -self.y0))
        out += self.items
        out.append("</g></svg>")
        return out


def color_of(recipe, recipes):
    if recipe in COLORS:
        return COLORS[recipe]
    others = [r for r in recipes if r not in COLORS]
    return OTHER_COLORS[others.index(recipe) % len(OTHER_COLORS)]


def limits(values, pad=0.05):
    values = [v for v in values if v is not None and math.isfinite(v)]
    if not values:
        return 0.0, 1.0
    lo, hi = min(values), max(values)
    if hi == lo:
        lo, hi = lo - 0.5 * abs(lo or 1) * 0.01, hi + 0.5 * abs(hi or 1) * 0.01
    span = hi - lo
    return lo - pad * span, hi + pad * span


def report_svg(study):
    recipes = study.recipes()
    W, H, top, left, gap, pw, ph = 1200, 380, 40, 60, 75, 300, 250
    parts = []
    legend_y = top + ph + 55
    series = {}
    for r in recipes:
        done = [rec for rec in study.main[r].values()
                if rec.get("status") == "done"]
        series[r] = {
            "val": band(done, val_points),
            "train": band(done, lambda rec: smooth(train_points(rec), 5)),
            "paired": paired_band(study, r)}
    steps = (study.settings or {}).get("steps") or max(
        [s for r in series.values() for s, *_ in r["val"] + r["train"]] or
        [1])
    # Validation loss from 40% of the run on (the first validations' loss
    # dwarfs the differences at the end).
    val_from = min([s for r in series.values() for s, *_ in r["val"]
                    if s >= 0.4 * steps] or [0])
    vals = [v for r in series.values() for s, m, sd, _ in r["val"]
            if s >= val_from for v in (m - (sd or 0), m + (sd or 0))]
    first_eval = min([s for r in series.values() for s, *_ in r["val"]] or
                     [0])
    p1 = Panel(left, top, pw, ph, (val_from if val_from < steps else 0,
                                   steps), limits(vals),
               "Validation loss", "step", "nats per byte")
    # Training loss, second half (the first steps' loss dwarfs the rest).
    half = steps / 2
    tr = [v for r in series.values() for s, m, sd, _ in r["train"]
          if s >= half for v in (m - (sd or 0), m + (sd or 0))]
    p2 = Panel(left + pw + gap, top, pw, ph, (half, steps), limits(tr),
               "Training loss (2nd half)", "step", "nats per byte")
    pd = [v for r in series.values() for _, m, sd in r["paired"]
          for v in (m - (sd or 0), m + (sd or 0))] + [-TARGET_PCT, TARGET_PCT]
    p3 = Panel(left + 2 * (pw + gap), top, pw, ph,
               (first_eval if first_eval < steps else 0, steps), limits(pd),
               "Validation: paired difference to bf16", "step", "%")
    for p in (p3,):
        for y, dash in ((0, None), (TARGET_PCT, "4,3"), (-TARGET_PCT, "4,3")):
            p.line([(p.xlim[0], y), (p.xlim[1], y)], "#888", 1.0, dash)
    for r in recipes:
        c = color_of(r, recipes)
        for panel, key in ((p1, "val"), (p2, "train")):
            pts = [(s, m, sd) for s, m, sd, _ in series[r][key]
                   if s >= panel.xlim[0]]
            panel.band([(s, m - sd, m + sd) for s, m, sd in pts
                        if sd is not None], c)
            panel.line([(s, m) for s, m, _ in pts], c)
        pts = series[r]["paired"]
        p3.band([(s, m - sd, m + sd) for s, m, sd in pts if sd is not None], c)
        p3.line([(s, m) for s, m, _ in pts], c)
    for p in (p1, p2, p3):
        parts += p.svg()
    x = left
    for r in recipes:
        n = len(study.final(r))
        label = "%s (%d seed%s)" % (r, n, "" if n == 1 else "s")
        parts.append('<line x1="%d" x2="%d" y1="%d" y2="%d" stroke="%s" '
                     'stroke-width="3"/>' % (x, x + 18, legend_y - 4,
                                             legend_y - 4,
                                             color_of(r, recipes)))
        parts.append('<text x="%d" y="%d" font-size="11">%s</text>' % (
            x + 22, legend_y, escape(label)))
        x += 30 + 7 * len(label)
    head = ('<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
            'viewBox="0 0 %d %d" font-family="sans-serif">' % (W, H, W, H))
    return "\n".join([head, '<rect width="100%" height="100%" '
                      'fill="white"/>'] + parts + ["</svg>"]) + "\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("dir", help="the study's directory (loss_parity.py --out)")
    p.add_argument("--md", help="the report (default DIR/report.md)")
    p.add_argument("--svg", help="the plot (default DIR/curves.svg)")
    args = p.parse_args(argv)
    if not os.path.isdir(args.dir):
        p.error("no directory %s" % args.dir)
    study = Study(args.dir)
    md_path = args.md or os.path.join(args.dir, "report.md")
    svg_path = args.svg or os.path.join(args.dir, "curves.svg")
    with open(svg_path, "w") as f:
        f.write(report_svg(study))
    rel = os.path.relpath(svg_path, os.path.dirname(os.path.abspath(md_path)))
    with open(md_path, "w") as f:
        f.write(report_markdown(study, rel))
    print("loss_parity_report: %s, %s (%d recipes, %d replicates)" % (
        md_path, svg_path, len(study.main), len(study.replicates)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
