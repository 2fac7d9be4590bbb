"""CPU tests of bench/loss_parity_report.py on synthetic run JSONs: the
statistics (mean, s.d., paired differences, Student's t interval, the
claim), the replicate gaps, the markdown tables and the hand-written SVG
(no torch, no numpy, no matplotlib; make check-python)."""

import importlib.util
import math
import os
import shutil
import tempfile
import unittest
import xml.etree.ElementTree as ET

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "test_loss_parity_synthetic",
    os.path.join(HERE, "test_loss_parity_synthetic.py"))
syn = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(syn)

rep = syn.load(os.path.join("bench", "loss_parity_report.py"),
               "loss_parity_report")

# Final validation losses per recipe and seed.
FINALS = {
    "bf16": {0: 1.0000, 1: 1.0100, 2: 0.9900},
    # +0.10%, +0.20%, +0.30% of bf16 paired; a large seed spread.
    "tensorwise": {0: 1.0010, 1: 1.0100 * 1.002, 2: 0.9900 * 1.003},
    # -1%, -1.1%, -0.9%.
    "blockwise": {0: 0.99, 1: 1.0100 * 0.989, 2: 0.9900 * 0.991},
}


class StatsTest(unittest.TestCase):
    def test_mean_sd(self):
        self.assertEqual(rep.mean([1.0, 2.0, 3.0]), 2.0)
        self.assertAlmostEqual(rep.stdev([1.0, 2.0, 3.0]), 1.0)
        self.assertIsNone(rep.stdev([1.0]))
        self.assertIsNone(rep.mean([]))

    def test_t_interval(self):
        self.assertEqual(rep.t975(2), 4.303)
        self.assertEqual(rep.t975(100), 1.96)
        lo, hi = rep.ci95([0.1, 0.2, 0.3])
        half = 4.303 * 0.1 / math.sqrt(3)
        self.assertAlmostEqual(lo, 0.2 - half)
        self.assertAlmostEqual(hi, 0.2 + half)
        self.assertIsNone(rep.ci95([0.1]))

    def test_claims(self):
        x, verdict = rep.claim([0.1, 0.3, 0.5])
        self.assertAlmostEqual(x, 0.3 + 4.303 * 0.2 / math.sqrt(3))
        self.assertEqual(verdict, "not resolved at 0.5%")
        x, verdict = rep.claim([0.1, 0.2, 0.3])
        self.assertAlmostEqual(x, 0.2 + 4.303 * 0.1 / math.sqrt(3))
        self.assertEqual(verdict, "within 0.5%")
        x, verdict = rep.claim([0.10, 0.11, 0.12])
        self.assertLess(x, 0.5)
        self.assertEqual(verdict, "within 0.5%")
        x, verdict = rep.claim([-1.0, -1.1, -0.9])
        self.assertEqual(verdict, "differs by more than 0.5%")
        self.assertEqual(rep.claim([0.2]), (None, "one seed: no interval"))

    def test_pct_and_smooth(self):
        self.assertAlmostEqual(rep.pct_diff(1.01, 1.0), 1.0)
        self.assertEqual(rep.smooth([(1, 1.0), (2, 3.0), (3, 5.0)], 2),
                         [(1, 1.0), (2, 2.0), (3, 4.0)])

    def test_ticks(self):
        self.assertEqual(rep.nice_ticks(0, 2000), [0, 500, 1000, 1500, 2000])
        t = rep.nice_ticks(0.95, 1.07)
        self.assertTrue(all(0.95 <= v <= 1.07 for v in t))
        self.assertGreaterEqual(len(t), 3)
        self.assertEqual(rep.fmt_tick(2000), "2k")


class ReportTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="loss-parity-report-")
        syn.write_study(self.dir)
        for recipe, finals in FINALS.items():
            for seed, final in finals.items():
                syn.write(self.dir, "%s-s%d" % (recipe, seed),
                          syn.record(recipe, seed, final))
        base = syn.record("bf16", 0, 1.0)
        syn.write(self.dir, "bf16-s0-rep", base)
        syn.write(self.dir, "bf16-s0-nondet",
                  syn.record("bf16", 0, 1.0005, deterministic=False))
        # Not counted: an incomplete run, a run of other settings.
        syn.write(self.dir, "mxfp8-s0", syn.record("mxfp8", 0, 1.0,
                                                   complete=False))
        syn.write(self.dir, "rowwise-s0", syn.record(
            "rowwise", 0, 1.0, dict(syn.SETTINGS, lr=1e-3)))
        self.study = rep.Study(self.dir)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_grouping(self):
        self.assertEqual(self.study.recipes(),
                         ["bf16", "tensorwise", "blockwise"])
        self.assertEqual(sorted(self.study.replicates),
                         [(0, "nondet"), (0, "rep")])
        self.assertEqual(self.study.incomplete, ["mxfp8-s0"])
        self.assertEqual([n for n, _ in self.study.excluded], ["rowwise-s0"])

    def test_final_and_paired(self):
        fin = self.study.final("bf16")
        for seed, want in FINALS["bf16"].items():
            self.assertAlmostEqual(fin[seed], want)
        d = self.study.paired("tensorwise")
        for seed, want in ((0, 0.1), (1, 0.2), (2, 0.3)):
            self.assertAlmostEqual(d[seed], want, places=9)
        d = self.study.paired("blockwise")
        self.assertAlmostEqual(rep.mean(list(d.values())), -1.0, places=9)
        self.assertAlmostEqual(rep.stdev(list(d.values())), 0.1, places=9)

    def test_paired_band_per_step(self):
        band = rep.paired_band(self.study, "blockwise")
        self.assertEqual([s for s, _, _ in band],
                         [400, 800, 1200, 1600, 2000])
        # The synthetic curves scale with the final loss: the same paired
        # difference at every step.
        for _, m, sd in band:
            self.assertAlmostEqual(m, -1.0, places=9)
            self.assertAlmostEqual(sd, 0.1, places=9)
        self.assertEqual(rep.paired_band(self.study, "bf16"), [])

    def test_replicate_gap(self):
        ref = self.study.main["bf16"][0]
        gap, same = rep.curve_gap(ref, self.study.replicates[(0, "rep")])
        self.assertEqual((gap, same), (0.0, True))
        gap, same = rep.curve_gap(ref, self.study.replicates[(0, "nondet")])
        self.assertAlmostEqual(gap, 0.05, places=9)
        self.assertFalse(same)

    def test_markdown(self):
        md = rep.report_markdown(self.study, "curves.svg")
        self.assertIn("| bf16 | 3 | 1.0000 | 1.0100 | 0.9900 | "
                      "1.0000 ± 0.0100 |", md)
        self.assertIn("| tensorwise | 3 | +0.10% | +0.20% | +0.30% | "
                      "+0.20% ± 0.10% | [-0.05%, +0.45%] |", md)
        self.assertIn("**blockwise**: within 1.25% of bf16, 3 seeds, paired "
                      "difference -1.00% ± 0.10%", md)
        self.assertIn("differs by more than 0.5%", md)
        self.assertIn("| 0 | rep | 1.0000 | 1.0000 | +0.00% | 0.00% | yes | "
                      "yes |", md)
        self.assertIn("| 0 | nondet | 1.0000 | 1.0005 | +0.05% | 0.05% | no "
                      "| yes |", md)
        self.assertIn("mxfp8-s0: incomplete", md)
        self.assertIn("rowwise-s0: other settings: lr 0.001", md)
        self.assertIn("![validation loss", md)
        self.assertIn("step 2000", md)
        self.assertIn("Devices: NVIDIA H100 80GB HBM3", md)

    def test_svg_is_well_formed(self):
        svg = rep.report_svg(self.study)
        root = ET.fromstring(svg)
        self.assertTrue(root.tag.endswith("svg"))
        ns = "{http://www.w3.org/2000/svg}"
        lines = root.iter(ns + "polyline")
        self.assertGreaterEqual(len(list(lines)), 3 + 3 + 2)
        self.assertGreater(len(list(root.iter(ns + "polygon"))), 3)
        self.assertIn("blockwise (3 seeds)", svg)

    def test_diverged_and_one_seed(self):
        d = tempfile.mkdtemp(prefix="loss-parity-report-")
        try:
            syn.write_study(d)
            syn.write(d, "bf16-s0", syn.record("bf16", 0, 1.0))
            syn.write(d, "rowwise-s0", syn.record("rowwise", 0, 1.002))
            syn.write(d, "blockwise-s0", syn.record("blockwise", 0, 1.0,
                                                    status="diverged"))
            study = rep.Study(d)
            self.assertEqual(study.diverged("blockwise"), [0])
            self.assertEqual(study.final("blockwise"), {})
            md = rep.report_markdown(study)
            self.assertIn("| blockwise | 0 | diverged | — |", md)
            self.assertIn("**rowwise**: +0.20% from bf16, 1 seed", md)
            ET.fromstring(rep.report_svg(study))
        finally:
            shutil.rmtree(d)

    def test_empty_and_main(self):
        d = tempfile.mkdtemp(prefix="loss-parity-report-")
        try:
            self.assertIn("No complete runs yet",
                          rep.report_markdown(rep.Study(d)))
            ET.fromstring(rep.report_svg(rep.Study(d)))
        finally:
            shutil.rmtree(d)
        md = os.path.join(self.dir, "r", "report.md")
        os.makedirs(os.path.dirname(md))
        self.assertEqual(rep.main([self.dir, "--md", md]), 0)
        with open(md) as f:
            self.assertIn("](../curves.svg)", f.read())
        self.assertTrue(os.path.exists(os.path.join(self.dir, "curves.svg")))


if __name__ == "__main__":
    unittest.main()
