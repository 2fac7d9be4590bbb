"""CPU tests of bench/loss_parity.py (the loss-parity study's driver) and of
the parts of examples/train_gpt.py it relies on: the run plan, the study's
fixed settings, the time estimates, the scheduling under a budget and the
resuming, with a fake train_gpt.py and a fake clock (no torch, no GPU;
make check-python)."""

import contextlib
import importlib.util
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "test_loss_parity_synthetic",
    os.path.join(HERE, "test_loss_parity_synthetic.py"))
syn = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(syn)

lp = syn.load(os.path.join("bench", "loss_parity.py"), "loss_parity")
train_gpt = syn.load(os.path.join("examples", "train_gpt.py"), "train_gpt_lp")


def arg(cmd, flag):
    return cmd[cmd.index(flag) + 1]


class FakeGPU:
    """Stands in for train_gpt.py: writes the run's JSON as --save-curve
    would, and moves a fake clock on by the run's `seconds`."""

    def __init__(self, seconds=100.0, finals=None, fail=(), stop=(),
                 partial=()):
        self.now = 1000.0
        self.seconds = seconds
        self.finals = finals or {}
        self.fail, self.stop, self.partial = set(fail), set(stop), \
            set(partial)
        self.launched = []
        self.timeouts = []

    def clock(self):
        return self.now

    def launch(self, cmd, log_path, timeout_s, env):
        path = arg(cmd, "--save-curve")
        name = os.path.basename(path)[:-len(".json")]
        self.launched.append(name)
        self.timeouts.append(timeout_s)
        with open(log_path, "w") as f:
            f.write("log of %s\n" % name)
        secs = self.seconds(name) if callable(self.seconds) else self.seconds
        if name in self.stop:
            self.now += timeout_s
            syn.write(os.path.dirname(path), name, syn.record(
                arg(cmd, "--recipe"), int(arg(cmd, "--seed")), 1.0,
                complete=False))
            return None, timeout_s
        self.now += secs
        if name in self.fail:
            return 1, secs
        settings = dict(syn.SETTINGS, steps=int(arg(cmd, "--steps")),
                        lr=float(arg(cmd, "--lr")),
                        eval_every=int(arg(cmd, "--eval-every")),
                        batch=int(arg(cmd, "--batch")),
                        warmup=int(arg(cmd, "--warmup")),
                        size=arg(cmd, "--size"))
        rec = syn.record(arg(cmd, "--recipe"), int(arg(cmd, "--seed")),
                         self.finals.get(name, 1.0), settings,
                         complete=name not in self.partial,
                         deterministic="--deterministic" in cmd,
                         s_per_step=0.05, s_per_eval=5.0, startup_s=20.0)
        syn.write(os.path.dirname(path), name, rec)
        return 0, secs


class Base(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="loss-parity-test-")
        self.out = os.path.join(self.dir, "study")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def main(self, argv, gpu=None):
        gpu = gpu or FakeGPU()
        lines = []
        rc = lp.main(["--out", self.out] + argv, launch=gpu.launch,
                     clock=gpu.clock, say=lines.append)
        return rc, gpu, "\n".join(lines)


class PlanTest(unittest.TestCase):
    def test_study_order_is_seed_major_bf16_first(self):
        runs = lp.plan_runs("study", ["tensorwise", "bf16", "blockwise"],
                            [0, 1])
        self.assertEqual([r.name for r in runs], [
            "bf16-s0", "tensorwise-s0", "blockwise-s0",
            "bf16-s1", "tensorwise-s1", "blockwise-s1"])
        self.assertTrue(all(r.deterministic for r in runs))

    def test_replicate(self):
        runs = lp.plan_runs("replicate", lp.DEFAULT_RECIPES, [3, 4])
        self.assertEqual([r.name for r in runs],
                         ["bf16-s3", "bf16-s3-rep", "bf16-s3-nondet"])
        self.assertEqual([r.deterministic for r in runs], [True, True, False])
        runs = lp.plan_runs("replicate", ["bf16"], [0], replicate_seed=7,
                            replicates=["rep"])
        self.assertEqual([r.name for r in runs], ["bf16-s7", "bf16-s7-rep"])

    def test_custom_recipe_names(self):
        attr = "#fp8.recipe<blockwise, gradient = e5m2>"
        slug = lp.recipe_slug(attr)
        self.assertRegex(slug, r"^blockwise-gradient-e5m2-[0-9a-f]{8}$")
        self.assertNotEqual(slug, lp.recipe_slug(
            "#fp8.recipe<blockwise, gradient = e4m3>"))
        self.assertEqual(lp.recipe_slug("rowwise_gw_hp"), "rowwise_gw_hp")
        self.assertEqual(lp.parse_list("bf16, %s,mxfp8" % attr),
                         ["bf16", attr, "mxfp8"])
        self.assertEqual(lp.parse_list("0,1, 2", int), [0, 1, 2])

    def test_train_command(self):
        cfg = dict(lp.TRAIN_DEFAULTS, extra=["--val-every", "20"])
        cmd = lp.train_command("py", lp.Run("rowwise", 2), cfg, "/d/x.json")
        self.assertEqual(cmd[:2], ["py", lp.TRAIN_GPT])
        self.assertEqual(arg(cmd, "--recipe"), "rowwise")
        self.assertEqual(arg(cmd, "--seed"), "2")
        self.assertEqual(arg(cmd, "--steps"), "2000")
        self.assertEqual(float(arg(cmd, "--lr")), 6e-4)
        self.assertEqual(arg(cmd, "--save-curve"), "/d/x.json")
        self.assertIn("--eval-full", cmd)
        self.assertIn("--deterministic", cmd)
        self.assertEqual(cmd[-2:], ["--val-every", "20"])
        nondet = lp.train_command("py", lp.Run("bf16", 0, "nondet"), cfg,
                                  "x")
        self.assertIn("--no-deterministic", nondet)
        self.assertNotIn("--deterministic", nondet)

    def test_commands_parse_in_train_gpt(self):
        # Every command the driver makes is one train_gpt.py accepts.
        cfg = dict(lp.TRAIN_DEFAULTS)
        for run in (lp.plan_runs("study", lp.DEFAULT_RECIPES, [0]) +
                    lp.plan_runs("replicate", ["bf16"], [0])):
            cmd = lp.train_command("py", run, cfg, "/d/%s.json" % run.name)
            args = train_gpt.parse_args(cmd[2:])
            self.assertTrue(args.eval_full)
            self.assertEqual(args.deterministic, run.deterministic)
            self.assertEqual((args.steps, args.batch, args.eval_every),
                             (2000, 8, 400))
            self.assertEqual(args.save_curve, "/d/%s.json" % run.name)

    def test_evals_per_run(self):
        self.assertEqual(lp.evals_per_run(dict(steps=2000, eval_every=400)),
                         5)
        self.assertEqual(lp.evals_per_run(dict(steps=2100, eval_every=400)),
                         6)


class ConfigTest(unittest.TestCase):
    def test_defaults_and_study(self):
        none = {k: None for k in lp.TRAIN_DEFAULTS}
        cfg = lp.resolve_config(none, None)
        self.assertEqual(cfg, lp.TRAIN_DEFAULTS)
        study = lp.study_record(dict(cfg, steps=3000))
        # A later invocation without settings takes the study's.
        self.assertEqual(lp.resolve_config(none, study)["steps"], 3000)
        self.assertEqual(lp.resolve_config(dict(none, steps=3000),
                                           study)["steps"], 3000)
        with self.assertRaisesRegex(lp.ConfigError, "steps: study.json has "
                                    "3000, the command line 1000"):
            lp.resolve_config(dict(none, steps=1000), study)
        with self.assertRaises(lp.ConfigError):
            lp.resolve_config(none, {"format": "other", "train": {}})

    def test_mismatched(self):
        rec = syn.record("bf16", 0, 1.0)
        self.assertEqual(lp.mismatched(rec, syn.SETTINGS), [])
        self.assertEqual(lp.mismatched(rec, dict(syn.SETTINGS, lr=1e-3)),
                         [("lr", 6e-4, 1e-3)])


class EstimateTest(unittest.TestCase):
    def test_priors(self):
        cfg = dict(lp.TRAIN_DEFAULTS)
        est = lp.Estimator(cfg, {})
        p = est.parts("bf16")
        self.assertEqual(p["source"], "prior")
        self.assertAlmostEqual(p["s_per_step"], 8192 / 118000.0)
        self.assertEqual(p["startup_s"], lp.PRIOR_STARTUP_S)
        want = 1.1 * (60 + 2000 * 8192 / 118000.0 +
                      5 * lp.PRIOR_VAL_TOKENS / (3 * 118000.0))
        self.assertAlmostEqual(est.seconds(lp.Run("bf16", 0)), want)
        # Slower recipes are estimated slower; unknown ones conservatively.
        self.assertGreater(est.seconds(lp.Run("mxfp8", 0)),
                           est.seconds(lp.Run("tensorwise", 0)))
        self.assertGreater(est.seconds(lp.Run("#fp8.recipe<x>", 0)),
                           est.seconds(lp.Run("blockwise", 0)))

    def test_measured_and_scaled(self):
        cfg = dict(syn.SETTINGS)
        recs = {"bf16-s0": syn.record("bf16", 0, 1.0, s_per_step=0.04,
                                      s_per_eval=8.0, startup_s=30.0,
                                      wall_s=30.0 + 80.0 + 40.0 + 5.0)}
        est = lp.Estimator(cfg, recs)
        p = est.parts("bf16")
        self.assertEqual(p["source"], "measured")
        self.assertEqual((p["s_per_step"], p["s_per_eval"]), (0.04, 8.0))
        # Startup: the wall time less training and validation.
        self.assertAlmostEqual(p["startup_s"], 35.0)
        self.assertAlmostEqual(est.seconds(lp.Run("bf16", 1)),
                               1.1 * (35.0 + 2000 * 0.04 + 5 * 8.0))
        # Another recipe: bf16's times scaled by the priors' speed ratio.
        q = est.parts("blockwise")
        ratio = 118000.0 / 127000.0
        self.assertAlmostEqual(q["s_per_step"], 0.04 * ratio)
        self.assertAlmostEqual(q["s_per_eval"], 8.0 * ratio)
        self.assertAlmostEqual(q["startup_s"], 35.0)
        self.assertIn("scaled", q["source"])

    def test_ignores_other_settings_diverged_and_nondet(self):
        cfg = dict(syn.SETTINGS)
        recs = {
            "a": syn.record("bf16", 0, 1.0, dict(syn.SETTINGS, steps=500),
                            s_per_step=9.0),
            "b": syn.record("bf16", 1, 1.0, status="diverged",
                            s_per_step=9.0),
            "c": syn.record("bf16", 2, 1.0, deterministic=False,
                            s_per_step=9.0),
            "d": syn.record("bf16", 3, 1.0, complete=False, s_per_step=9.0)}
        self.assertEqual(lp.Estimator(cfg, recs).parts("bf16")["source"],
                         "prior")

    def test_choose_next_skips_what_does_not_fit(self):
        runs = [lp.Run("mxfp8", 0), lp.Run("bf16", 0), lp.Run("rowwise", 0)]
        cost = {"mxfp8-s0": 400, "bf16-s0": 250, "rowwise-s0": 200}
        pick = lp.choose_next(runs, 300, lambda r: cost[r.name], 10)
        self.assertEqual(pick.name, "bf16-s0")
        self.assertEqual(lp.choose_next(runs, 260, lambda r: cost[r.name],
                                        10).name, "bf16-s0")
        self.assertEqual(lp.choose_next(runs, 259, lambda r: cost[r.name],
                                        10).name, "rowwise-s0")
        self.assertIsNone(lp.choose_next(runs, 209, lambda r: cost[r.name],
                                         10))


class DriverTest(Base):
    def test_dry_run_writes_nothing(self):
        rc, gpu, text = self.main(["--dry-run", "--budget", "600"])
        self.assertEqual(rc, 0)
        self.assertEqual(gpu.launched, [])
        self.assertFalse(os.path.exists(self.out))
        self.assertIn("0 of 15 runs done; 15 pending", text)
        self.assertIn("next     bf16-s0", text)

    def test_runs_what_fits_then_resumes(self):
        # 100 s per run; priors say ~290 s for bf16, so the first
        # invocation (budget 400) starts one run; once it is measured the
        # estimates fall to its time.
        gpu = FakeGPU(seconds=100.0)
        rc, gpu, text = self.main(["--budget", "400", "--recipes",
                                   "bf16,tensorwise", "--seeds", "0,1"], gpu)
        self.assertEqual(rc, 0, text)
        with open(os.path.join(self.out, "study.json")) as f:
            study = json.load(f)
        self.assertEqual(study["train"], lp.TRAIN_DEFAULTS)
        first = list(gpu.launched)
        self.assertEqual(first[0], "bf16-s0")
        # Each run is started only with its estimate within the budget.
        for name, timeout in zip(gpu.launched, gpu.timeouts):
            self.assertLessEqual(timeout, 400)
        done = {n for n, r in lp.load_runs(self.out).items()
                if lp.is_done(r)}
        self.assertEqual(done, set(first))
        self.assertLess(len(first), 4)
        # The next invocation skips the finished runs.
        rc, gpu2, text = self.main(["--budget", "1000", "--recipes",
                                    "bf16,tensorwise", "--seeds", "0,1"])
        self.assertEqual(rc, 0, text)
        self.assertFalse(set(gpu2.launched) & set(first))
        self.assertEqual(sorted(first + gpu2.launched),
                         sorted(["bf16-s0", "tensorwise-s0", "bf16-s1",
                                 "tensorwise-s1"]))
        # Nothing left: a third run starts nothing.
        rc, gpu3, text = self.main(["--budget", "1000", "--recipes",
                                    "bf16,tensorwise", "--seeds", "0,1"])
        self.assertEqual((rc, gpu3.launched), (0, []))
        self.assertIn("4 of 4 runs done", text)

    def test_never_starts_a_run_that_cannot_finish(self):
        # Measured: a bf16 run took 200 s; 250 s of budget leaves room for
        # one more bf16 run (1.1 x ~200 + margin), not two.
        syn.write_study(self.out)
        syn.write(self.out, "bf16-s0", syn.record(
            "bf16", 0, 1.0, s_per_step=0.07, s_per_eval=6.0, startup_s=30.0))
        est = lp.Estimator(syn.SETTINGS, lp.load_runs(self.out))
        need = est.seconds(lp.Run("bf16", 1))
        self.assertAlmostEqual(need, 1.1 * (30 + 140 + 30))
        gpu = FakeGPU(seconds=need / 1.1)
        rc, gpu, text = self.main(["--budget", str(need + 10 + 1),
                                   "--recipes", "bf16", "--seeds", "0,1,2"],
                                  gpu)
        self.assertEqual(gpu.launched, ["bf16-s1"])
        self.assertIn("stopping with 1 runs left", text)
        rc, gpu, text = self.main(["--budget", str(need + 10 - 1),
                                   "--recipes", "bf16", "--seeds", "0,1,2"])
        self.assertEqual(gpu.launched, [])

    def test_incomplete_runs_are_run_again(self):
        syn.write_study(self.out)
        syn.write(self.out, "bf16-s0", syn.record("bf16", 0, 1.0,
                                                  complete=False))
        rc, gpu, _ = self.main(["--budget", "400", "--recipes", "bf16",
                                "--seeds", "0"])
        self.assertEqual(gpu.launched, ["bf16-s0"])
        self.assertTrue(lp.is_done(lp.load_runs(self.out)["bf16-s0"]))

    def test_failures_and_stops(self):
        gpu = FakeGPU(seconds=50.0, fail={"tensorwise-s0"},
                      stop={"rowwise-s0"})
        rc, gpu, text = self.main(["--budget", "100000", "--recipes",
                                   "bf16,tensorwise,rowwise", "--seeds", "0"],
                                  gpu)
        self.assertEqual(rc, 1)
        # A failed run is not retried in the same invocation.
        self.assertEqual(gpu.launched, ["bf16-s0", "tensorwise-s0",
                                        "rowwise-s0"])
        self.assertIn("tensorwise-s0 failed (exit 1)", text)
        self.assertIn("rowwise-s0 stopped at the budget", text)
        runs = lp.load_runs(self.out)
        self.assertFalse(lp.is_done(runs["rowwise-s0"]))
        self.assertNotIn("tensorwise-s0", runs)
        # The next invocation tries both again.
        rc, gpu, _ = self.main(["--budget", "100000", "--recipes",
                                "bf16,tensorwise,rowwise", "--seeds", "0"])
        self.assertEqual((rc, gpu.launched), (0, ["tensorwise-s0",
                                                  "rowwise-s0"]))

    def test_diverged_run_counts_as_done(self):
        syn.write_study(self.out)
        syn.write(self.out, "blockwise-s0", syn.record(
            "blockwise", 0, 1.0, status="diverged"))
        rc, gpu, _ = self.main(["--budget", "100000", "--recipes",
                                "blockwise", "--seeds", "0"])
        self.assertEqual(gpu.launched, [])

    def test_settings_are_fixed_per_study(self):
        rc, gpu, _ = self.main(["--budget", "1000", "--recipes", "bf16",
                                "--seeds", "0", "--steps", "300",
                                "--eval-every", "100"])
        self.assertEqual(rc, 0)
        rc, gpu, text = self.main(["--budget", "1000", "--steps", "400"])
        self.assertEqual((rc, gpu.launched), (2, []))
        self.assertIn("steps: study.json has 300", text)
        # Without settings the study's are used.
        rc, gpu, text = self.main(["--budget", "1000", "--recipes",
                                   "bf16", "--seeds", "0,1"])
        self.assertEqual(gpu.launched, ["bf16-s1"])

    def test_a_run_of_other_settings_is_refused(self):
        syn.write_study(self.out)
        syn.write(self.out, "bf16-s0", syn.record(
            "bf16", 0, 1.0, dict(syn.SETTINGS, lr=1e-3)))
        rc, gpu, text = self.main(["--budget", "1000", "--recipes", "bf16",
                                   "--seeds", "0"])
        self.assertEqual((rc, gpu.launched), (2, []))
        self.assertIn("bf16-s0.json was made with other settings", text)

    def test_replicate_mode_and_export(self):
        export = os.path.join(self.dir, "OUT")
        gpu = FakeGPU(seconds=60.0)
        rc, gpu, text = self.main(["--mode", "replicate", "--budget",
                                   "100000", "--export", export,
                                   "--commit", "deadbeef"], gpu)
        self.assertEqual(rc, 0, text)
        self.assertEqual(gpu.launched, ["bf16-s0", "bf16-s0-rep",
                                        "bf16-s0-nondet"])
        runs = lp.load_runs(self.out)
        self.assertFalse(runs["bf16-s0-nondet"]["deterministic"])
        self.assertEqual(runs["bf16-s0-rep"]["driver"]["rc"], 0)
        self.assertEqual(sorted(os.listdir(export)), sorted(
            ["study.json"] + ["bf16-s0%s.%s" % (k, e) for k in
                              ("", "-rep", "-nondet") for e in ("json",
                                                                "log")]))


class TrainGptPartsTest(unittest.TestCase):
    """examples/train_gpt.py's parts for loss runs (no torch)."""

    def test_full_eval_windows_cover_the_split_once(self):
        for n, seq in ((10, 3), (11, 3), (1025, 1024), (4552079, 1024),
                       (3, 4)):
            windows, tokens = train_gpt.full_eval_windows(n, seq)
            self.assertEqual(tokens, windows * seq)
            # Window w reads bytes [w seq, w seq + seq] and predicts
            # w seq + 1 .. w seq + seq: all within the split, each once.
            if windows:
                self.assertLessEqual((windows - 1) * seq + seq + 1, n)
            self.assertLess(n - 1 - tokens, seq)

    def test_eval_batches_pad_the_last(self):
        self.assertEqual(train_gpt.eval_batch_rows(10, 4),
                         [(0, 4), (4, 4), (8, 2)])
        self.assertEqual(train_gpt.eval_batch_rows(8, 4), [(0, 4), (4, 4)])
        self.assertEqual(train_gpt.eval_batch_rows(0, 4), [])
        rows = train_gpt.eval_batch_rows(4445, 8)
        self.assertEqual(sum(real for _, real in rows), 4445)

    def test_args(self):
        args = train_gpt.parse_args([])
        self.assertFalse(args.eval_full)
        self.assertIsNone(args.save_curve)
        self.assertIn("mxfp8", train_gpt.RECIPES)
        args = train_gpt.parse_args(["--recipe", "mxfp8", "--eval-full",
                                     "--save-curve", "x.json"])
        self.assertEqual((args.recipe, args.eval_full, args.save_curve),
                         ("mxfp8", True, "x.json"))
        err = io.StringIO()
        for bad in (["--eval-every", "0"], ["--save-curve", "x", "--profile"]):
            with contextlib.redirect_stderr(err), \
                    self.assertRaises(SystemExit):
                train_gpt.parse_args(bad)
        self.assertIn("--eval-every must be positive", err.getvalue())
        self.assertIn("--save-curve records a training run", err.getvalue())

    def test_write_json_atomic_and_commit(self):
        d = tempfile.mkdtemp(prefix="train-gpt-json-")
        try:
            path = os.path.join(d, "sub", "c.json")
            train_gpt.write_json_atomic(path, {"a": 1})
            with open(path) as f:
                self.assertEqual(json.load(f), {"a": 1})
            self.assertEqual(os.listdir(os.path.dirname(path)), ["c.json"])
        finally:
            shutil.rmtree(d)
        old = os.environ.get("FP8_MLIR_COMMIT")
        os.environ["FP8_MLIR_COMMIT"] = "cafe"
        try:
            self.assertEqual(train_gpt.git_commit(), "cafe")
        finally:
            if old is None:
                del os.environ["FP8_MLIR_COMMIT"]
            else:
                os.environ["FP8_MLIR_COMMIT"] = old


if __name__ == "__main__":
    unittest.main()
