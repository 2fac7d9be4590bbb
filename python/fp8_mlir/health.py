"""Advice from the FP8 health statistics: which quantization keeps losing
values, and the recipe override that would help.

Monitoring (`monitor=True` layers, `fp8_stats`) measures, per quantization
and call, the fraction of elements that saturated at the format's largest
value and the fraction flushed to zero (nonzero inputs that quantize to
0). One bad step is noise; a fraction that stays high is lost signal: the
2026-11-25 runs found blockwise's e4m3 gradients flushing 12% of the last
layer's dYᵀ, where tensorwise's e5m2 flushed 1-4%. `HealthAdvisor` watches
the statistics and warns once per layer and operand when a fraction stays
above its threshold for `patience` observations in a row, naming the
override to try (docs/Training.md, "Monitoring FP8 health"). It needs no
torch: statistics are plain dicts.
"""

import collections
import re
import warnings

from .compiler import RECIPES

# Defaults: 5% of a tensor flushed to zero, or 0.1% saturated, three
# observations running.
FLUSHED = 0.05
SATURATED = 1e-3
PATIENCE = 3

Advice = collections.namedtuple(
    "Advice", "layer operand problem fraction role recipe override message")


def operand_role(operand):
    """'gradient', 'weight' or 'activation' for a monitored operand name
    ("bwd/dy.T", "fwd/w", "fwd/x", ...): dY is a gradient, W a weight,
    everything else an activation."""
    tensor = operand.rsplit("/", 1)[-1].split(".")[0]
    if tensor.startswith("d"):
        return "gradient"
    if tensor.startswith("w"):
        return "weight"
    return "activation"


def _base_preset(recipe):
    """The preset a recipe is or starts from ("blockwise" of
    "#fp8.recipe<blockwise, margin = 1>"), or None."""
    if recipe in RECIPES:
        return recipe
    match = re.match(r"#fp8\.recipe<\s*(\w+)\s*[,>]", recipe or "")
    if match and match.group(1) in RECIPES:
        return match.group(1)
    return None


def _with_field(recipe, field):
    """`recipe` with `field` ("gradient = e5m2") added."""
    if recipe.startswith("#fp8.recipe<"):
        return recipe[:-1] + ", " + field + ">"
    return "#fp8.recipe<%s, %s>" % (recipe, field)


# Presets whose gradients are already e5m2 (more range cannot come from the
# format).
_E5M2_GRADIENTS = ("tensorwise", "delayed")


def suggest(recipe, role, problem):
    """The override to try (a recipe attribute or a recipe name) and why,
    for `problem` ("flushed" or "saturated") on an operand of `role`."""
    base = _base_preset(recipe)
    if problem == "saturated":
        if base == "delayed":
            return ("tensorwise",
                    "the amax history lags the tensor's range: current "
                    "scaling (tensorwise) scales from this step's amax")
        return (_with_field(recipe, "margin = 1"),
                "a margin of one binade keeps values below the format's "
                "largest")
    # Flushed to zero: values too small for the scale's range.
    if role == "gradient" and base not in _E5M2_GRADIENTS and \
            "gradient = e5m2" not in recipe:
        return (_with_field(recipe, "gradient = e5m2"),
                "e5m2 gradients have 2^15 times e4m3's range below the "
                "largest value, with the same tiles")
    if base in ("tensorwise", "delayed", "rowwise", "rowwise_gw_hp"):
        return ("#fp8.recipe<blockwise%s>" % (
                    ", gradient = e5m2" if role == "gradient" else ""),
                "1x128 tiles give each block its own scale, so a small "
                "block is not flushed by a large one elsewhere")
    return (_with_field(recipe, "hadamard = 128"),
            "a Hadamard rotation spreads outliers across the block, so "
            "fewer values sit far below its amax")


class HealthAdvisor:
    """Watches fp8_stats and warns once per (layer, operand) whose flushed
    or saturated fraction stays above its threshold for `patience`
    observations in a row.

        advisor = fp8_mlir.health.HealthAdvisor()
        for step ...:
            advice = advisor.observe_model(model)   # or .observe(stats, recipe)

    `warn` (default warnings.warn) receives each advice's message; every
    call returns the advice it gave this time."""

    def __init__(self, flushed=FLUSHED, saturated=SATURATED,
                 patience=PATIENCE, warn=None):
        if not (0 < flushed <= 1 and 0 < saturated <= 1):
            raise ValueError("thresholds are fractions in (0, 1], got "
                             "flushed=%r saturated=%r" % (flushed, saturated))
        if patience < 1:
            raise ValueError("patience must be at least 1, got %r" %
                             patience)
        self.thresholds = {"flushed": flushed, "saturated": saturated}
        self.patience = patience
        self.warn = warn if warn is not None else (
            lambda message: warnings.warn(message, RuntimeWarning,
                                          stacklevel=3))
        self._runs = collections.Counter()
        self.given = {}

    def observe(self, stats, recipe, layer=""):
        """`stats`: {operand: {"flushed": f, "saturated": s, ...}} of one
        layer (its fp8_stats), or of a model with "layer/operand" keys
        (then `layer` is ""). Returns the new advice."""
        new = []
        for key, value in sorted(stats.items()):
            name = "%s/%s" % (layer, key) if layer else key
            for problem, threshold in self.thresholds.items():
                run_key = (name, problem)
                if value.get(problem, 0.0) > threshold:
                    self._runs[run_key] += 1
                else:
                    self._runs[run_key] = 0
                if self._runs[run_key] < self.patience or run_key in \
                        self.given:
                    continue
                new.append(self._advise(name, problem, value[problem],
                                        recipe))
                self.given[run_key] = new[-1]
        return new

    def observe_model(self, model):
        """observe() over every fp8_mlir module of `model` with monitoring
        (its fp8_stats and recipe)."""
        new = []
        for name, module in model.named_modules():
            stats = getattr(module, "fp8_stats", None)
            if stats:
                new += self.observe(stats, module.recipe, layer=name)
        return new

    def _advise(self, name, problem, fraction, recipe):
        layer, _, operand = name.rpartition("/")
        layer, _, direction = layer.rpartition("/")
        operand = "%s/%s" % (direction, operand) if direction else operand
        role = operand_role(operand)
        override, why = suggest(recipe, role, problem)
        message = (
            "fp8_mlir: %s of layer %s (%s) has had %.1f%% of its values %s "
            "for %d observations in a row (recipe %s); try recipe=%r: %s" % (
                operand, layer or "?", role, 100 * fraction,
                "flushed to zero" if problem == "flushed" else "saturated",
                self.patience, recipe, override, why))
        self.warn(message)
        return Advice(layer, operand, problem, fraction, role, recipe,
                      override, message)
