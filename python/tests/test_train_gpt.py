"""CPU tests of examples/train_gpt.py's parts that need no GPU: the
corpus and its split, the schedule, the configurations, the arguments and
the profile's kernel classes; where PyTorch is installed, the batches and
the master weights' copies (make check-python)."""

import contextlib
import importlib.util
import io
import os
import shutil
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location(
    "train_gpt", os.path.join(REPO, "examples", "train_gpt.py"))
train_gpt = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(train_gpt)

try:
    import torch
except ImportError:
    torch = None


class CorpusTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="train-gpt-test-")
        self.files = {}
        for i in range(60):
            rel = os.path.join("pkg%d" % (i % 3), "m%02d.py" % i)
            os.makedirs(os.path.join(self.root, os.path.dirname(rel)),
                        exist_ok=True)
            text = ("x = %d\n" % i).encode()
            with open(os.path.join(self.root, rel), "wb") as f:
                f.write(text)
            self.files[rel] = text
        with open(os.path.join(self.root, "notes.txt"), "w") as f:
            f.write("not python")

    def tearDown(self):
        shutil.rmtree(self.root)

    def test_lists_python_files_sorted_once(self):
        found = train_gpt.list_sources([self.root, self.root])
        self.assertEqual([rel for _, rel in found], sorted(self.files))

    def test_split_is_by_path_and_complete(self):
        train, val, desc = train_gpt.read_corpus([self.root], val_every=4)
        self.assertEqual(desc["train_files"] + desc["val_files"], 60)
        self.assertGreater(desc["val_files"], 0)
        self.assertGreater(desc["train_files"], desc["val_files"])
        for rel, text in self.files.items():
            where = val if train_gpt.is_validation(rel, 4) else train
            self.assertIn(text + b"\0", where)
        self.assertEqual(len(train) + len(val),
                         sum(len(t) + 1 for t in self.files.values()))

    def test_split_does_not_depend_on_other_files(self):
        before = {rel: train_gpt.is_validation(rel, 4) for rel in self.files}
        os.remove(os.path.join(self.root, "pkg0", "m00.py"))
        for rel, val in before.items():
            self.assertEqual(train_gpt.is_validation(rel, 4), val)

    def test_deterministic_digest(self):
        a = train_gpt.read_corpus([self.root], 4)[2]
        b = train_gpt.read_corpus([self.root], 4)[2]
        self.assertEqual(a, b)

    def test_max_bytes_stops_reading(self):
        train, _, desc = train_gpt.read_corpus([self.root], 1000, 20)
        self.assertGreaterEqual(len(train), 20)
        self.assertLess(desc["train_files"], 60)


class ScheduleTest(unittest.TestCase):
    def test_warmup_then_cosine(self):
        lr = train_gpt.lr_at
        self.assertAlmostEqual(lr(0, 1000, 1.0, 100), 0.01)
        self.assertAlmostEqual(lr(99, 1000, 1.0, 100), 1.0)
        self.assertAlmostEqual(lr(100, 1000, 1.0, 100), 1.0)
        self.assertAlmostEqual(lr(1000, 1000, 1.0, 100), 0.1)
        self.assertAlmostEqual(lr(550, 1000, 1.0, 100), 0.55)
        values = [lr(s, 1000, 1.0, 100) for s in range(100, 1001)]
        self.assertEqual(values, sorted(values, reverse=True))


class ConfigTest(unittest.TestCase):
    def test_sizes(self):
        self.assertAlmostEqual(train_gpt.parameter_count("small") / 1e6,
                               113.66, places=2)
        self.assertGreater(train_gpt.parameter_count("large"), 800e6)
        for dim, layers, heads, hidden, seq, batch in \
                train_gpt.SIZES.values():
            self.assertEqual(dim % heads, 0)
            self.assertEqual((dim // heads) % 2, 0)  # rotary pairs
            # tensor maps want 16-byte rows; blockwise 128-wide tiles.
            self.assertEqual(hidden % 128, 0)
            self.assertEqual(dim % 128, 0)

    def test_layer_shapes(self):
        fused = train_gpt.layer_shapes("small")
        self.assertEqual(fused, [
            ("linear", dict(m=8192, n=2304, k=768)),
            ("linear", dict(m=8192, n=768, k=768)),
            ("mlp", dict(m=8192, dim=768, hidden=3072))])
        split = train_gpt.layer_shapes("small", mlp="linears", nproc=2)
        self.assertEqual(split[2:], [
            ("linear", dict(m=4096, n=3072, k=768)),
            ("linear", dict(m=4096, n=768, k=3072))])
        self.assertEqual(train_gpt.layer_shapes("large", batch=8)[0][1]["m"],
                         16384)


class ArgsTest(unittest.TestCase):
    def error(self, argv):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), \
                self.assertRaises(SystemExit) as cm:
            train_gpt.parse_args(argv)
        self.assertEqual(cm.exception.code, 2)
        return err.getvalue()

    def test_defaults(self):
        args = train_gpt.parse_args([])
        self.assertEqual((args.recipe, args.size, args.steps, args.mlp,
                          args.all_gather), ("blockwise", "small", 1000,
                                             "fused", "bf16"))

    def test_compile(self):
        self.assertFalse(train_gpt.parse_args([]).compile)
        args = train_gpt.parse_args(["--compile", "--recipe", "bf16"])
        self.assertTrue(args.compile)

    def test_deterministic_by_default(self):
        self.assertTrue(train_gpt.parse_args([]).deterministic)
        self.assertFalse(
            train_gpt.parse_args(["--no-deterministic"]).deterministic)

    def test_nproc_defaults(self):
        args = train_gpt.parse_args(["--nproc", "2"])
        self.assertEqual((args.mlp, args.all_gather), ("linears", "fp8"))
        args = train_gpt.parse_args(["--nproc", "2", "--recipe", "rowwise"])
        self.assertEqual(args.all_gather, "bf16")

    def test_world_size_from_torchrun(self):
        os.environ["WORLD_SIZE"] = "2"
        try:
            args = train_gpt.parse_args(["--recipe", "tensorwise"])
            self.assertEqual((args.nproc, args.mlp, args.all_gather),
                             (2, "linears", "fp8"))
            self.assertIn("--nproc 4, but torchrun started 2",
                          self.error(["--nproc", "4"]))
        finally:
            del os.environ["WORLD_SIZE"]

    def test_custom_recipe(self):
        recipe = "#fp8.recipe<blockwise, gradient = e5m2>"
        self.assertEqual(train_gpt.parse_args(["--recipe", recipe]).recipe,
                         recipe)

    def test_relaunch_drops_nproc(self):
        self.assertEqual(train_gpt.without_nproc(
            ["--nproc", "2", "--steps", "5", "--nproc=2", "--out", "d"]),
            ["--steps", "5", "--out", "d"])

    def test_errors(self):
        self.assertIn("--monitor needs an FP8 recipe",
                      self.error(["--recipe", "bf16", "--monitor"]))
        self.assertIn("--resume needs --out", self.error(["--resume"]))
        self.assertIn("--recipe: expected one of bf16, tensorwise",
                      self.error(["--recipe", "fp4"]))
        self.assertIn("--steps must be positive",
                      self.error(["--steps", "0"]))
        self.assertIn("--nproc > 1 needs --mlp linears",
                      self.error(["--nproc", "2", "--mlp", "fused"]))
        self.assertIn("--all-gather fp8 supports",
                      self.error(["--nproc", "2", "--recipe", "delayed",
                                  "--all-gather", "fp8"]))
        self.assertIn("must divide among 3 GPUs",
                      self.error(["--nproc", "3"]))
        self.assertIn("--compile does not support --monitor",
                      self.error(["--compile", "--monitor"]))
        self.assertIn("--compile is for one GPU",
                      self.error(["--compile", "--nproc", "2"]))


class ProfileTest(unittest.TestCase):
    def test_kernel_classes(self):
        c = train_gpt.classify_kernel
        self.assertEqual(c("linear_fwd_gemm_3"), "gemm")
        self.assertEqual(c("nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NTT"),
                         "gemm")
        self.assertEqual(c("mlp_bwd_cast_transpose_24"), "quantize")
        self.assertEqual(c("linear_fwd_quantize_0"), "quantize")
        self.assertEqual(c("mlp_bwd_transpose_18"), "quantize")
        self.assertEqual(c("cudnn_generated_fort_native_sdpa_sm90_flash_"
                           "fprop_wgmma_f16_knob_7"), "attention")
        self.assertEqual(c("mlp_bwd_generic_22"), "other")
        self.assertEqual(c("void at::native::vectorized_elementwise_kernel"),
                         "other")
        # torch.compile's kernels: named after what they fuse.
        self.assertEqual(c("triton_poi_fused_clone_transpose_view_3"),
                         "other")
        self.assertEqual(c("triton_red_fused__to_copy_mean_mul_pow_rsqrt_1"),
                         "other")
        self.assertEqual(c("triton_tem_fused_mm_0"), "gemm")

    def test_eta(self):
        self.assertEqual(train_gpt.format_eta(3725.4), "1:02:05")
        self.assertEqual(train_gpt.format_eta(-3), "0:00:00")


@unittest.skipUnless(torch, "no PyTorch: the batches and master copies are "
                     "not checked")
class TorchPartsTest(unittest.TestCase):
    def test_batches_are_windows_of_the_data(self):
        data = torch.arange(1000, dtype=torch.int64).to(torch.uint8)
        x, y = train_gpt.batch_at(torch, data, 3, 4, 16, 1234, "cpu")
        self.assertEqual((tuple(x.shape), x.dtype), ((4, 16), torch.int64))
        self.assertTrue(torch.equal(x[:, 1:], y[:, :-1]))
        again = train_gpt.batch_at(torch, data, 3, 4, 16, 1234, "cpu")
        self.assertTrue(torch.equal(again[0], x))
        other = train_gpt.batch_at(torch, data, 4, 4, 16, 1234, "cpu")
        self.assertFalse(torch.equal(other[0], x))

    @unittest.skipUnless(torch and hasattr(torch, "_foreach_copy_"),
                         "needs torch._foreach_copy_ (PyTorch 2.2 or later)")
    def test_master_copies(self):
        # The same values as the per-parameter .float() and copy_ they
        # replace.
        torch.manual_seed(0)
        params = [torch.nn.Parameter(torch.randn(s).bfloat16())
                  for s in ((8, 4), (5,), (3, 3))]
        masters = [p.detach().float().requires_grad_(True) for p in params]
        for p in params:
            p.grad = torch.randn(p.shape).bfloat16()
        want = [p.grad.float() for p in params]
        train_gpt.grads_to_masters(torch, masters, params)
        for m, w, p in zip(masters, want, params):
            self.assertEqual(m.grad.dtype, torch.float32)
            self.assertTrue(torch.equal(m.grad, w))
            self.assertIsNone(p.grad)
        with torch.no_grad():
            for m in masters:
                m.add_(torch.randn(m.shape) * 1e-3)
        train_gpt.masters_to_params(torch, masters, params)
        for m, p in zip(masters, params):
            self.assertEqual(p.dtype, torch.bfloat16)
            self.assertTrue(torch.equal(p.detach(), m.detach().bfloat16()))


if __name__ == "__main__":
    unittest.main()
