"""CPU tests of bench/e2e.py (the end-to-end benchmark) and
bench/torch_fp8.py: the configuration, shapes, FLOP and parameter counts,
the variants, the aot commands, the results table, and, where PyTorch is
installed, the model's structure and the baseline's convert (make
check-python)."""

import contextlib
import importlib.util
import io
import json
import os
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_spec = importlib.util.spec_from_file_location(
    "e2e", os.path.join(REPO, "bench", "e2e.py"))
e2e = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(e2e)

try:
    import torch
except ImportError:
    torch = None
F = torch.nn.functional if torch else None
# The model as written needs PyTorch 2.4 or later (F.rms_norm, SDPA).
HAVE_MODEL_TORCH = bool(torch and hasattr(F, "rms_norm") and
                        hasattr(F, "scaled_dot_product_attention"))


def tiny(**kw):
    shape = dict(layers=2, seq=128, batch=2, vocab=64, dim=256, heads=4,
                 kv_heads=2, hidden=512)
    shape.update(kw)
    return e2e.Config(**shape)


class ConfigTest(unittest.TestCase):
    def test_llama3_8b_parameters(self):
        # Meta's Llama 3 8B: 8,030,261,248 parameters.
        self.assertEqual(e2e.parameter_count(
            e2e.Config(layers=32, vocab=128256)), 8030261248)

    def test_defaults(self):
        cfg = e2e.parse_args([]).config
        self.assertEqual((cfg.layers, cfg.tokens, cfg.head_dim, cfg.dim,
                          cfg.heads, cfg.kv_heads, cfg.hidden),
                         (4, 8192, 128, 4096, 32, 8, 14336))

    def test_default_fits_an_h100(self):
        # Parameters, gradients and AdamW's moments leave most of 80 GB to
        # the activations of 8192 tokens.
        self.assertLess(e2e.state_bytes(e2e.Config()), 8 * 2 ** 30)

    def test_linear_shapes(self):
        self.assertEqual(e2e.linear_shapes(e2e.Config()), [
            (4096, 4096), (4096, 1024), (4096, 14336), (14336, 4096)])
        names = [n for n, _, _ in e2e.block_linears(e2e.Config())]
        self.assertEqual(names, [
            "attention.wq", "attention.wk", "attention.wv", "attention.wo",
            "feed_forward.w1", "feed_forward.w3", "feed_forward.w2"])

    def test_step_flops(self):
        cfg = e2e.Config()
        per_layer = 2 * 4096 * 4096 + 2 * 4096 * 1024 + 3 * 4096 * 14336
        matmul = 6 * 8192 * (4 * per_layer + 4096 * 256)
        # Causal attention: QK^T and PV, 2 flops a MAC, half the scores,
        # forward + backward = 3 x forward.
        attention = 4 * 3 * (2 * 2 * 8192 * 8192 * 128 * 32 // 2)
        self.assertEqual(e2e.step_flops(cfg), matmul + attention)
        self.assertEqual(e2e.step_flops(e2e.Config(layers=8)) -
                         e2e.step_flops(cfg),
                         4 * (6 * 8192 * per_layer) + attention)

    def test_invalid(self):
        for kw, msg in ((dict(heads=3), "not a multiple of heads"),
                        (dict(kv_heads=3), "not a multiple of kv_heads"),
                        (dict(seq=100), "tokens (seq * batch) = 200"),
                        (dict(hidden=500), "hidden = 500"),
                        (dict(layers=0), "layers must be positive")):
            with self.assertRaises(ValueError) as cm:
                tiny(**kw)
            self.assertIn(msg, str(cm.exception))


class VariantsTest(unittest.TestCase):
    def test_order(self):
        names = [e2e.variant_name(v) for v in e2e.variants()]
        self.assertEqual(len(names), 14)
        # The targets (blockwise, tensorwise) first; fp8_mlir
        # before its baseline.
        self.assertEqual(names[:6], [
            "bf16 eager", "bf16 compile", "fp8_mlir blockwise eager",
            "fp8_mlir blockwise compile", "torch-fp8 blockwise eager",
            "torch-fp8 blockwise compile"])
        self.assertEqual(names[6], "fp8_mlir tensorwise eager")
        self.assertEqual(names[-1], "torch-fp8 rowwise compile")

    def test_selection(self):
        got = e2e.variants(["bf16", "fp8_mlir"], ["blockwise"], ["compile"])
        self.assertEqual(got, [("bf16", None, "compile"),
                               ("fp8_mlir", "blockwise", "compile")])

    def test_unknown(self):
        for args in ((["bf8"], ["tensorwise"], ["eager"]),
                     (["bf16"], ["mxfp4"], ["eager"]),
                     (["bf16"], ["tensorwise"], ["graph"])):
            with self.assertRaises(ValueError):
                e2e.variants(*args)


class CommandLineTest(unittest.TestCase):
    def run_main(self, argv):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = e2e.main(argv)
            except SystemExit as e:
                code = e.code
        return code, out.getvalue(), err.getvalue()

    def test_list_shapes(self):
        code, out, _ = self.run_main(["--list-shapes", "--recipes",
                                      "blockwise,tensorwise"])
        self.assertEqual(code, 0)
        self.assertEqual(out.splitlines(), [
            "python3 -m fp8_mlir.aot linear --m 8192 --k %d --n %d "
            "--recipe blockwise,tensorwise --chip sm_90a" % kn
            for kn in ((4096, 4096), (4096, 1024), (4096, 14336),
                       (14336, 4096))])

    def test_list_shapes_follows_the_shapes(self):
        _, out, _ = self.run_main(["--list-shapes", "--seq", "4096",
                                   "--batch", "4", "--cache", "C",
                                   "--chip", "sm_100a"])
        self.assertIn("--m 16384 --k 14336 --n 4096 --recipe "
                      "blockwise,tensorwise,rowwise --chip sm_100a "
                      "--cache C", out)
        _, out, _ = self.run_main(["--list-shapes", "--impls", "bf16"])
        self.assertEqual(out, "")

    def test_aot_commands_parse(self):
        # fp8_mlir.aot accepts every printed command (with FP8_OPT at no
        # file it parses, then stops before compiling).
        sys.path.insert(0, os.path.join(REPO, "python"))
        from fp8_mlir import aot
        saved = os.environ.get("FP8_OPT")
        os.environ["FP8_OPT"] = os.path.join(REPO, "no", "fp8-opt")
        try:
            for cmd in e2e.aot_commands(e2e.Config(), ["rowwise"],
                                        cache="C"):
                words = cmd.split()
                self.assertEqual(words[:3], ["python3", "-m",
                                             "fp8_mlir.aot"])
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    self.assertEqual(aot.main(words[3:]), 2, cmd)
                self.assertIn("no fp8-opt here", err.getvalue())
        finally:
            if saved is None:
                del os.environ["FP8_OPT"]
            else:
                os.environ["FP8_OPT"] = saved

    def test_dry_run(self):
        code, out, _ = self.run_main(["--dry-run", "--layers", "2",
                                      "--recipes", "rowwise"])
        self.assertEqual(code, 0)
        self.assertIn("variants (6):", out)
        self.assertIn("  fp8_mlir rowwise compile", out)
        self.assertIn("(14336, 4096)", out)
        self.assertIn("aot: python3 -m fp8_mlir.aot linear --m 8192", out)

    def test_errors(self):
        for argv, msg in ((["--recipes", "mxfp4"], "unknown recipe"),
                          (["--iters", "0"], "--iters and --warmup"),
                          (["--impls", "bf16", "--modes", ""],
                           "nothing to run"),
                          (["--dim", "4000"], "head dim 125 is odd"),
                          (["--list-shapes", "--dry-run"], "not allowed")):
            code, _, err = self.run_main(argv)
            self.assertEqual(code, 2, argv)
            self.assertIn(msg, err, argv)


def fake_results():
    ok = dict(tokens_per_s=1.0, tflops=1.0, peak_gib=20.0, setup_s=30.0,
              first_loss=5.6, last_loss=5.5, graphs=1, graph_breaks=0)
    gpu = dict(gemm=60.0, attention=15.0, quantize=0.0, optimizer=5.0,
               other=10.0)
    return [(("bf16", None, "eager"), dict(ok, ms=120.0, gpu_ms=gpu)),
            (("bf16", None, "compile"), dict(ok, ms=100.0)),
            (("torch-fp8", "blockwise", "compile"), dict(ok, ms=90.0)),
            (("fp8_mlir", "blockwise", "eager"),
             {"error": "CompilerNotFound: no fp8-opt | here"}),
            (("fp8_mlir", "blockwise", "compile"), dict(ok, ms=75.0)),
            (("fp8_mlir", "rowwise", "compile"),
             {"error": "--budget of 300 s spent", "skipped": True})]


META = {"device": "NVIDIA H100 80GB HBM3", "date": "2026-12-07 12:00 UTC",
        "torch": "2.11.0", "cuda": "13.0", "commit": "abc1234", "iters": 10,
        "warmup": 3, "command": "python3 bench/e2e.py"}


class TableTest(unittest.TestCase):
    def test_ratios(self):
        rows = {e2e.variant_name(v): (vs_bf16, vs_torch)
                for v, _, vs_bf16, vs_torch in e2e.rows(fake_results())}
        self.assertAlmostEqual(rows["bf16 eager"][0], 100 / 120)
        self.assertAlmostEqual(rows["bf16 compile"][0], 1.0)
        self.assertAlmostEqual(rows["fp8_mlir blockwise compile"][0],
                               100 / 75)
        self.assertAlmostEqual(rows["fp8_mlir blockwise compile"][1],
                               90 / 75)
        # No torch-fp8 eager was run: no ratio, and none for a failure.
        self.assertEqual(rows["fp8_mlir blockwise eager"], (None, None))
        self.assertIsNone(rows["torch-fp8 blockwise compile"][1])

    def test_markdown(self):
        text = e2e.markdown(META, e2e.Config(), fake_results())
        lines = text.splitlines()
        self.assertIn("NVIDIA H100 80GB HBM3", text)
        self.assertIn("torch 2.11.0", text)
        self.assertIn("2026-12-07", text)
        self.assertIn("4 layers", lines[0])
        self.assertIn("8192 tokens a step", text)
        main, profile = text.split("CUDA kernel time")
        # Every row has its header's cell count, the failed one too.
        for part, cells in ((main, 10), (profile, 9)):
            widths = {line.count("|") - line.count("\\|")
                      for line in part.splitlines() if line.startswith("|")}
            self.assertEqual(widths, {cells + 1})
        self.assertIn("| fp8_mlir blockwise compile | 75.0 |", text)
        self.assertIn("| 1.33 | 1.20 |", text)
        self.assertIn("failed: CompilerNotFound: no fp8-opt \\| here", text)
        self.assertIn("| fp8_mlir rowwise compile | skipped: --budget of "
                      "300 s spent |", text)
        # The profile's table: only the profiled variant, busy = 90/120.
        self.assertIn("| bf16 eager | 60.0 | 15.0 | 0.0 | 5.0 | 10.0 | 0.0 "
                      "|  | 75% |", text)
        self.assertIn("dependent launch on.", text)
        off = e2e.markdown(dict(META, pdl=False), e2e.Config(),
                           fake_results())
        self.assertIn("dependent launch off (--no-pdl).", off)
        self.assertEqual(text.count("| bf16 eager |"), 2)

    def test_split_counts_an_overlap_once(self):
        """A kernel that starts before the one ahead of it ends (PDL) is
        counted from that end; gaps are idle time."""
        r = e2e.split_kernel_time([
            ("linear_fwd_gemm_1", 1000.0, 5000.0),
            # launched early, waits for the GEMM: 1 ms of its 3 is overlap
            ("linear_fwd_cast_transpose_2", 4000.0, 7000.0),
            # after a 1 ms gap
            ("cudnn_generated_fort_native_sdpa_sm90_flash_fprop", 8000.0,
             10000.0),
            # wholly inside the attention kernel's time: counts nothing
            ("linear_bwd_gemm_3", 8500.0, 9500.0),
        ])
        self.assertEqual(r["gpu_ms"]["gemm"], 4.0)
        self.assertEqual(r["gpu_ms"]["quantize"], 2.0)
        self.assertEqual(r["gpu_ms"]["attention"], 2.0)
        self.assertEqual(r["gpu_ms_raw"]["gemm"], 5.0)
        self.assertEqual(r["gpu_ms_raw"]["quantize"], 3.0)
        self.assertEqual(r["idle_ms"], 1.0)
        self.assertEqual(e2e.split_kernel_time([])["idle_ms"], 0.0)

    def test_json(self):
        data = e2e.to_json(META, e2e.Config(), fake_results())
        json.dumps(data)
        self.assertEqual(data["config"]["tokens"], 8192)
        self.assertEqual(data["step_flops"], e2e.step_flops(e2e.Config()))
        by = {v["name"]: v for v in data["variants"]}
        self.assertEqual(by["fp8_mlir blockwise compile"]["recipe"],
                         "blockwise")
        self.assertIn("error", by["fp8_mlir blockwise eager"])

    def test_write(self):
        d = tempfile.mkdtemp(prefix="e2e-test-")
        args = e2e.parse_args(["--out", os.path.join(d, "t.md"),
                               "--json", os.path.join(d, "t.json")])
        e2e.write(args, META, args.config, fake_results())
        with open(os.path.join(d, "t.json")) as f:
            self.assertEqual(len(json.load(f)["variants"]), 6)
        with open(os.path.join(d, "t.md")) as f:
            self.assertTrue(f.read().startswith("# End-to-end"))


class KernelClassTest(unittest.TestCase):
    def test_classes(self):
        c = e2e.classify_kernel
        cases = {
            "linear_fwd_gemm_2": "gemm",
            "linear_bwd_cast_transpose_3": "quantize",
            "linear_bwd_transpose_5": "quantize",
            "linear_fwd_quantize_elementwise_0": "quantize",
            "linear_fwd_tma_align_scales_4": "quantize",
            "mlp_fwd_generic_3": "other",
            "nvjet_sm90_tst_256x128_64x4_1x2_h_bz_coopA_NTT": "gemm",
            "sm90_xmma_gemm_e4m3bf16_e4m3f32_f32_tn_n_tilesize128x128x128":
                "gemm",
            "cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16":
                "attention",
            "void pytorch_flash::flash_bwd_dq_dk_dv_loop_seqk_parallel":
                "attention",
            "void at::native::(anonymous namespace)::multi_tensor_apply"
            "_kernel<FusedAdamMathFunctor>": "optimizer",
            "triton_red_fused_abs_amax_0": "quantize",
            "triton_poi_fused__to_copy_clamp_div_1": "quantize",
            "triton_red_fused__to_copy_mean_mul_pow_rsqrt_2": "other",
            "triton_poi_fused_clone_transpose_view_3": "other",
            "triton_tem_fused_mm_0": "gemm",
            "void at::native::vectorized_elementwise_kernel<4>": "other",
            "void at::native::_fused_adamw_kernel_cuda_": "optimizer",
            "hadamard_transform_kernel": "other",
        }
        for name, kind in cases.items():
            self.assertEqual(c(name), kind, name)
            self.assertIn(kind, e2e.KERNEL_CLASSES)


class RunAllTest(unittest.TestCase):
    def test_budget_skips_the_rest(self):
        now = [0.0]
        ran, reports = [], []

        def run_one(v):
            ran.append(v)
            now[0] += 100.0
            if v[0] == "torch-fp8":
                return {"error": "RuntimeError: boom"}
            return {"ms": 1.0, "tokens_per_s": 1.0, "peak_gib": 1.0,
                    "setup_s": 1.0, "first_loss": 1.0}

        todo = e2e.variants(recipes=["blockwise"], modes=["compile"])
        with contextlib.redirect_stderr(io.StringIO()) as err:
            got = e2e.run_all(todo, run_one, budget=150,
                              report=lambda r: reports.append(len(r)),
                              clock=lambda: now[0])
        # Two variants start within 150 s; the third is skipped.
        self.assertEqual(ran, todo[:2])
        self.assertEqual([v for v, _ in got], todo)
        self.assertTrue(got[2][1]["skipped"])
        self.assertEqual(reports, [1, 2, 3])
        self.assertIn("[3/3  200 s] torch-fp8 blockwise compile: skipped",
                      err.getvalue())
        # No budget: everything runs, a failure included.
        with contextlib.redirect_stderr(io.StringIO()) as err:
            got = e2e.run_all(todo, run_one, clock=lambda: now[0])
        self.assertEqual(got[2][1], {"error": "RuntimeError: boom"})
        self.assertIn("failed: RuntimeError: boom", err.getvalue())


@unittest.skipUnless(torch and hasattr(torch, "float8_e4m3fn"),
                     "needs PyTorch 2.1 or later (float8 dtypes, "
                     "torch.compile): the baseline's convert is not checked")
class BaselineConvertTest(unittest.TestCase):
    def test_convert_swaps_the_blocks_linears(self):
        sys.path.insert(0, os.path.join(REPO, "bench"))
        import torch_fp8
        model = torch.nn.Sequential()
        model.add_module("layers", torch.nn.ModuleList([torch.nn.Sequential(
            torch.nn.Linear(64, 128, bias=False),
            torch.nn.Linear(128, 64, bias=True))]))
        model.add_module("output", torch.nn.Linear(64, 32, bias=False))
        w = model.layers[0][0].weight
        torch_fp8.convert(model, recipe="rowwise", filter=e2e.converted)
        self.assertIsInstance(model.layers[0][0], torch_fp8.Linear)
        self.assertIs(model.layers[0][0].weight, w)
        self.assertEqual(model.layers[0][0].recipe, "rowwise")
        # Biased layers and the head stay torch.nn.Linear.
        self.assertIs(type(model.layers[0][1]), torch.nn.Linear)
        self.assertIs(type(model.output), torch.nn.Linear)
        with self.assertRaises(ValueError):
            torch_fp8.convert(model, recipe="mxfp4")


@unittest.skipUnless(HAVE_MODEL_TORCH, "needs PyTorch 2.4 or later "
                     "(F.rms_norm, SDPA): the model is not run")
class ModelTest(unittest.TestCase):
    def setUp(self):
        self.cfg = tiny()
        torch.manual_seed(0)
        self.model = e2e.build_model(torch, self.cfg, device="cpu",
                                     dtype=torch.float32)

    def test_parameters(self):
        self.assertEqual(sum(p.numel() for p in self.model.parameters()),
                         e2e.parameter_count(self.cfg))
        converted = [n for n, m in self.model.named_modules()
                     if isinstance(m, torch.nn.Linear) and
                     e2e.converted(n, m)]
        self.assertEqual(len(converted), 7 * self.cfg.layers)
        self.assertNotIn("output", converted)

    def test_step_and_causality(self):
        cfg = self.cfg
        tokens = torch.randint(cfg.vocab, (cfg.batch, cfg.seq + 1))
        x = tokens[:, :-1]
        logits = self.model(x)
        self.assertEqual(tuple(logits.shape), (cfg.batch, cfg.seq,
                                               cfg.vocab))
        loss = e2e.loss_fn(torch, logits, tokens[:, 1:])
        loss.backward()
        self.assertTrue(all(p.grad is not None
                            for p in self.model.parameters()))
        # A later token changes no earlier position's logits.
        x2 = x.clone()
        x2[:, 100] = (x2[:, 100] + 1) % cfg.vocab
        with torch.no_grad():
            again = self.model(x2)
        self.assertLess((again[:, :100] - logits[:, :100]).abs().max(),
                        1e-5)
        self.assertGreater((again[:, 100:] - logits[:, 100:]).abs().max(),
                           1e-3)


if __name__ == "__main__":
    unittest.main()
