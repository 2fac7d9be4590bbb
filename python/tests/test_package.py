"""CPU tests of the fp8_mlir package (make check-python): graph text,
cache keys and lookups, compilation through fp8-opt, the runtime's
signatures and argument checks, the aot command. No GPU, no PyTorch.

fp8-opt is $FP8_OPT (the Makefile passes build/bin/fp8-opt) and libfp8rt
$FP8RT_LIBRARY; tests that need one that is missing are skipped.
"""

import contextlib
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

import fp8_mlir  # noqa: E402
from fp8_mlir import aot, compiler, graphs, layers, runtime  # noqa: E402

HAVE_COMPILER = compiler.find_compiler() is not None


HAVE_RUNTIME = runtime.available()


class CacheDir(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp(prefix="fp8-mlir-test-")

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)


class GraphTest(unittest.TestCase):
    def test_linear_signature(self):
        text = graphs.linear(256, 512, 384)
        self.assertIn("func.func @linear_fwd(%x: tensor<256x512xbf16> "
                      "{fp8.role = \"activation\"},\n    %w: "
                      "tensor<384x512xbf16> {fp8.role = \"weight\"})", text)
        self.assertIn("-> (tensor<256x384xbf16>)", text)
        self.assertIn("func.func @linear_bwd(%dy: tensor<256x384xbf16> "
                      "{fp8.role = \"gradient\"}", text)
        self.assertEqual(text.count("linalg.matmul"), 3)

    def test_linear_bias_rounds_once(self):
        text = graphs.linear(256, 512, 384, bias=True)
        # The product stays f32 until the bias is added.
        self.assertIn("outs(%i4 : tensor<256x384xf32>) -> "
                      "tensor<256x384xf32>", text)
        self.assertIn("%b: tensor<384xbf16>", text)
        self.assertIn("arith.truncf %r : f32 to bf16", text)

    def test_out_dtype(self):
        text = graphs.linear(128, 128, 128, out_dtype="f32")
        self.assertIn("-> (tensor<128x128xf32>)", text)
        self.assertIn("%dy: tensor<128x128xf32>", text)

    def test_mlp(self):
        glu = graphs.mlp(256, 512, 1024)
        self.assertEqual(glu.count("linalg.matmul"), 3 + 6)
        self.assertIn("math.exp", glu)
        gelu = graphs.mlp(256, 512, 1024, activation="gelu")
        self.assertEqual(gelu.count("linalg.matmul"), 2 + 4)
        self.assertIn("math.tanh", gelu)

    def test_bad_arguments(self):
        for call, message in (
                (lambda: graphs.linear(0, 16, 16), "m must be a positive"),
                (lambda: graphs.linear(16, 16.0, 16), "k must be"),
                (lambda: graphs.linear(16, 16, 16, dtype="f8"),
                 "dtype must be one of"),
                (lambda: graphs.mlp(16, 16, 16, activation="relu"),
                 "activation must be one of")):
            with self.assertRaisesRegex(ValueError, message):
                call()


class CacheTest(CacheDir):
    def test_key(self):
        text = graphs.linear(128, 128, 128)
        key = compiler.graph_key(text, "blockwise", "sm_90a")
        self.assertEqual(key, compiler.graph_key(text, "blockwise",
                                                 "sm_90a"))
        self.assertNotEqual(key, compiler.graph_key(text, "rowwise",
                                                    "sm_90a"))
        self.assertNotEqual(key, compiler.graph_key(text, "blockwise",
                                                    "sm_100a"))
        other = graphs.linear(256, 128, 128)
        self.assertNotEqual(key, compiler.graph_key(other, "blockwise",
                                                    "sm_90a"))

    def test_bad_recipe_and_chip(self):
        with self.assertRaisesRegex(ValueError, "unknown recipe 'fp4'"):
            fp8_mlir.compile_linear(128, 128, 128, recipe="fp4",
                                    cache=self.cache)
        with self.assertRaisesRegex(ValueError, "unknown chip 'sm_89'"):
            fp8_mlir.compile_linear(128, 128, 128, chip="sm_89",
                                    cache=self.cache)

    def test_no_compiler_no_entry(self):
        old = os.environ.get("FP8_OPT")
        os.environ["FP8_OPT"] = os.path.join(self.cache, "no-fp8-opt")
        try:
            with self.assertRaises(fp8_mlir.CompilerNotFound) as ctx:
                fp8_mlir.compile_linear(128, 256, 512, recipe="rowwise",
                                        cache=self.cache)
        finally:
            if old is None:
                del os.environ["FP8_OPT"]
            else:
                os.environ["FP8_OPT"] = old
        message = str(ctx.exception)
        self.assertIn("no fp8-opt here", message)
        self.assertIn("python3 -m fp8_mlir.aot linear --m 128 --n 256 --k "
                      "512 --recipe rowwise --chip sm_90a --dtype bf16",
                      message)


@unittest.skipUnless(HAVE_COMPILER, "no fp8-opt")
class CompileTest(CacheDir):
    def test_compile_error(self):
        with self.assertRaisesRegex(fp8_mlir.CompileError,
                                    "fp8-opt failed"):
            compiler.compile_graph("func.func @f(", "blockwise",
                                   cache=self.cache)
        # Nothing half-written is left to be found later.
        key_dir = os.path.join(self.cache, os.listdir(self.cache)[0])
        self.assertEqual(compiler._entries(key_dir), [])

    def test_cache_hit_and_carry(self):
        path = compiler.compile_graph(graphs.linear(128, 128, 128),
                                      "blockwise", cache=self.cache)
        self.assertTrue(os.path.isfile(os.path.join(path, "manifest.json")))
        again = compiler.compile_graph(graphs.linear(128, 128, 128),
                                       "blockwise", cache=self.cache)
        self.assertEqual(path, again)
        # Without a compiler the entry is found all the same.
        old = os.environ.get("FP8_OPT")
        os.environ["FP8_OPT"] = os.path.join(self.cache, "no-fp8-opt")
        try:
            carried = compiler.compile_graph(graphs.linear(128, 128, 128),
                                             "blockwise", cache=self.cache)
        finally:
            if old is None:
                del os.environ["FP8_OPT"]
            else:
                os.environ["FP8_OPT"] = old
        self.assertEqual(path, carried)

    @unittest.skipUnless(HAVE_RUNTIME, "no libfp8rt")
    def test_linear_programs(self):
        for recipe in ("tensorwise", "rowwise", "blockwise", "mxfp8"):
            lp = fp8_mlir.compile_linear(256, 384, 512, recipe=recipe,
                                         cache=self.cache)
            self.assertEqual([s.shape for s in lp.fwd.inputs],
                             [(256, 512), (384, 512)])
            self.assertEqual([s.shape for s in lp.fwd.outputs], [(256, 384)])
            self.assertEqual([s.shape for s in lp.bwd.outputs],
                             [(256, 512), (384, 512)])
            self.assertEqual(lp.fwd_histories, ())

    @unittest.skipUnless(HAVE_RUNTIME, "no libfp8rt")
    def test_delayed_histories(self):
        lp = fp8_mlir.compile_linear(256, 384, 512, recipe="delayed",
                                     bias=True, cache=self.cache)
        self.assertEqual(lp.fwd_histories, ("x", "w"))
        self.assertEqual(lp.gradient_histories, ("dy",))
        self.assertEqual(lp.history_shape, (1024, 1, 1))
        self.assertEqual(len(lp.fwd.inputs), 3 + 2)
        self.assertEqual(len(lp.bwd.outputs), 2 + 3)
        mlp = fp8_mlir.compile_mlp(256, 512, 1024, recipe="delayed",
                                   cache=self.cache)
        self.assertEqual(mlp.gradient_histories, ("dy", "dh1", "dh3"))
        self.assertEqual(len(mlp.bwd.inputs), 7 + 8)

    @unittest.skipUnless(HAVE_RUNTIME, "no libfp8rt")
    def test_argument_checks(self):
        fwd = fp8_mlir.compile_linear(256, 384, 512, recipe="blockwise",
                                      cache=self.cache).fwd
        good = [("bfloat16", (256, 512), "cuda", True),
                ("bfloat16", (384, 512), "cuda", True)]
        fwd.check_arguments(good)
        for i, bad, message in (
                (0, ("float32", (256, 512), "cuda", True),
                 "input 0 .* has dtype float32, expected bf16"),
                (1, ("bfloat16", (512, 384), "cuda", True),
                 "has shape \\[512, 384\\], expected \\[384, 512\\]"),
                (0, ("bfloat16", (256, 512), "cpu", True),
                 "is on cpu, expected a CUDA tensor"),
                (1, ("bfloat16", (384, 512), "cuda", False),
                 "is not contiguous")):
            args = list(good)
            args[i] = bad
            with self.assertRaisesRegex(ValueError, message):
                fwd.check_arguments(args)
        with self.assertRaisesRegex(ValueError, "takes 2 inputs"):
            fwd.check_arguments(good[:1])

    @unittest.skipUnless(HAVE_RUNTIME, "no libfp8rt")
    def test_load(self):
        lp = fp8_mlir.compile_linear(128, 128, 128, recipe="tensorwise",
                                     cache=self.cache)
        program = fp8_mlir.load(lp.path)
        self.assertEqual(sorted(program.functions),
                         ["linear_bwd", "linear_fwd"])
        self.assertIs(program.linear_fwd, program["linear_fwd"])
        with self.assertRaisesRegex(KeyError, "has no function 'nope'"):
            program["nope"]
        with self.assertRaisesRegex(fp8_mlir.ProgramNotFound,
                                    "missing does not exist"):
            fp8_mlir.load(os.path.join(self.cache, "missing"))

    def test_aot(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = aot.main(["linear", "--m", "128,256", "--n", "128", "--k",
                           "256", "--recipe", "blockwise,tensorwise",
                           "--cache", self.cache])
        self.assertEqual(rc, 0)
        self.assertEqual(out.getvalue().count("linear {"), 4)
        listing = io.StringIO()
        with contextlib.redirect_stdout(listing):
            aot.main(["list", "--cache", self.cache])
        self.assertEqual(listing.getvalue().count("\"kind\": \"linear\""),
                         4)
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            rc = aot.main(["linear", "--m", "128", "--n", "128", "--k",
                           "128", "--recipe", "fp4", "--cache", self.cache])
        self.assertEqual(rc, 1)
        self.assertIn("unknown recipe 'fp4'", err.getvalue())


PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PLAN = os.path.join(os.path.dirname(PYTHON_DIR), "runtime", "test", "plan")


def without_runtime(code_or_args, cwd=PYTHON_DIR):
    """Runs python3 (-c CODE, or ARGS) where libfp8rt cannot be found."""
    env = dict(os.environ, FP8RT_LIBRARY="/nonexistent/libfp8rt.so",
               PYTHONPATH=PYTHON_DIR)
    args = (["-c", code_or_args] if isinstance(code_or_args, str)
            else code_or_args)
    return subprocess.run([sys.executable] + args, cwd=cwd, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, timeout=300)


class NoRuntimeTest(unittest.TestCase):
    """Without libfp8rt, programs are described from their manifest and
    compiling works; only running needs the library."""

    def test_signatures_from_the_manifest(self):
        proc = without_runtime(
            "from fp8_mlir import runtime, errors\n"
            "p = runtime.Program(%r)\n"
            "print(p.runnable, sorted(p.functions))\n"
            "f = p.chain\n"
            "print(f.inputs, f.outputs, f.num_launches, f.workspace_bytes,"
            " f.zeroed_bytes, f.location)\n"
            "try:\n"
            "    f.launch([0, 0], [0, 0], None, 0, None)\n"
            "except errors.RuntimeNotFound as e:\n"
            "    print('refused:', e)\n" % PLAN)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], "False ['chain', 'dtypes', 'tma']")
        self.assertEqual(lines[1], "(x: f32[4, 256], y: f32[4, 256]) "
                         "(result0: f32[4, 256], result1: f32[4, 256]) "
                         "5 8192 16 plan.mlir:3:1")
        self.assertRegex(lines[2], "refused: running chain of .*plan: "
                         "libfp8rt.so not found")

    @unittest.skipUnless(HAVE_COMPILER, "needs fp8-opt")
    def test_aot_compiles_without_runtime(self):
        cache = tempfile.mkdtemp(prefix="fp8-mlir-aot-")
        self.addCleanup(shutil.rmtree, cache, True)
        proc = without_runtime(["-m", "fp8_mlir.aot", "linear", "--m",
                                "128", "--n", "128", "--k", "128",
                                "--recipe", "tensorwise", "--monitor",
                                "--cache", cache])
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("linear {", proc.stdout)


class ImportTest(unittest.TestCase):
    def test_core_without_torch(self):
        # The core is importable without PyTorch; nn needs it.
        self.assertTrue(callable(fp8_mlir.compile_linear))
        try:
            import torch  # noqa: F401
        except ImportError:
            with self.assertRaises(ImportError):
                fp8_mlir.nn

    def test_history_orders_cover_graphs(self):
        self.assertEqual(set(layers._HISTORIES),
                         {"linear", "mlp-swiglu", "mlp-gelu"})


if __name__ == "__main__":
    unittest.main()
