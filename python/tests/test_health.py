"""fp8_mlir.health: advice from the monitoring statistics. No torch."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from fp8_mlir import health  # noqa: E402


def stats(flushed=0.0, saturated=0.0):
    return {"amax": 1.0, "flushed": flushed, "saturated": saturated,
            "tile_amax_spread": 2.0, "tiles": 8, "elements": 1024}


class AdvisorTest(unittest.TestCase):
    def setUp(self):
        self.messages = []
        self.advisor = health.HealthAdvisor(patience=3,
                                            warn=self.messages.append)

    def test_warns_once_after_patience(self):
        bad = {"blocks.11.qkv/bwd/dy.T": stats(flushed=0.12),
               "blocks.11.qkv/fwd/x": stats(flushed=0.001)}
        self.assertEqual(self.advisor.observe(bad, "blockwise"), [])
        self.assertEqual(self.advisor.observe(bad, "blockwise"), [])
        advice = self.advisor.observe(bad, "blockwise")
        self.assertEqual(len(advice), 1)
        a = advice[0]
        self.assertEqual((a.layer, a.operand, a.problem, a.role),
                         ("blocks.11.qkv", "bwd/dy.T", "flushed", "gradient"))
        self.assertEqual(a.override,
                         "#fp8.recipe<blockwise, gradient = e5m2>")
        self.assertIn("12.0% of its values flushed to zero", a.message)
        self.assertEqual(self.messages, [a.message])
        # Once per layer and operand.
        self.assertEqual(self.advisor.observe(bad, "blockwise"), [])

    def test_a_good_step_resets_the_run(self):
        bad = {"l/bwd/dy": stats(flushed=0.2)}
        good = {"l/bwd/dy": stats(flushed=0.0)}
        for s in (bad, bad, good, bad, bad):
            self.assertEqual(self.advisor.observe(s, "rowwise"), [])
        self.assertEqual(len(self.advisor.observe(bad, "rowwise")), 1)

    def test_one_layer_with_its_name(self):
        for _ in range(3):
            advice = self.advisor.observe({"fwd/w": stats(saturated=0.01)},
                                          "delayed", layer="mlp.w1")
        self.assertEqual((advice[0].layer, advice[0].operand,
                          advice[0].role, advice[0].override),
                         ("mlp.w1", "fwd/w", "weight", "tensorwise"))

    def test_observe_model(self):
        class Layer:
            recipe = "tensorwise"
            fp8_stats = {"bwd/dy": stats(flushed=0.3)}

        class Model:
            def named_modules(self):
                return [("", self), ("out", Layer()), ("plain", object())]

        advisor = health.HealthAdvisor(patience=1, warn=lambda m: None)
        advice = advisor.observe_model(Model())
        self.assertEqual([(a.layer, a.operand) for a in advice],
                         [("out", "bwd/dy")])
        # tensorwise gradients are e5m2 already: finer tiles instead.
        self.assertEqual(advice[0].override,
                         "#fp8.recipe<blockwise, gradient = e5m2>")

    def test_bad_thresholds(self):
        with self.assertRaisesRegex(ValueError, "fractions in"):
            health.HealthAdvisor(flushed=0)
        with self.assertRaisesRegex(ValueError, "patience"):
            health.HealthAdvisor(patience=0)


class SuggestTest(unittest.TestCase):
    def test_overrides(self):
        cases = [
            ("blockwise", "gradient", "flushed",
             "#fp8.recipe<blockwise, gradient = e5m2>"),
            ("#fp8.recipe<blockwise, gradient = e5m2>", "gradient",
             "flushed",
             "#fp8.recipe<blockwise, gradient = e5m2, hadamard = 128>"),
            ("rowwise", "activation", "flushed", "#fp8.recipe<blockwise>"),
            ("mxfp8", "weight", "flushed",
             "#fp8.recipe<mxfp8, hadamard = 128>"),
            ("blockwise", "activation", "saturated",
             "#fp8.recipe<blockwise, margin = 1>"),
            ("delayed", "gradient", "saturated", "tensorwise"),
        ]
        for recipe, role, problem, override in cases:
            self.assertEqual(health.suggest(recipe, role, problem)[0],
                             override, (recipe, role, problem))

    def test_roles(self):
        self.assertEqual([health.operand_role(n) for n in
                          ("bwd/dy.T", "fwd/w", "fwd/x", "bwd/x.T", "dh")],
                         ["gradient", "weight", "activation", "activation",
                          "gradient"])


if __name__ == "__main__":
    unittest.main()
