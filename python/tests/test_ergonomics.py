"""The package as a newcomer meets it (issue #42): the graph's argument
names and roles in signatures and errors, the delayed recipe's histories
named after their tensor, errors that say what to do without PyTorch, for
a wrong function name and for a directory that is not a program, and
`python3 -m fp8_mlir.aot graph FILE`. No GPU, no PyTorch, no libfp8rt
needed; the tests that compile need fp8-opt ($FP8_OPT) and skip without.
"""

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

PYTHON_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, PYTHON_DIR)

import fp8_mlir  # noqa: E402
from fp8_mlir import aot, compiler, errors, names, runtime  # noqa: E402

HAVE_COMPILER = compiler.find_compiler() is not None
PLAN = os.path.join(os.path.dirname(PYTHON_DIR), "runtime", "test", "plan")

GRAPH = """\
func.func @layer(%x: tensor<128x256xbf16> {fp8.role = "activation"},
                 %w: tensor<512x256xbf16> {fp8.role = "weight"},
                 %b: tensor<512xbf16>) -> tensor<128x512xbf16> {
  %zero = arith.constant 0.0 : bf16
  %e = tensor.empty() : tensor<128x512xbf16>
  %init = linalg.fill ins(%zero : bf16) outs(%e : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  %y = linalg.matmul indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                                      affine_map<(m, n, k) -> (n, k)>,
                                      affine_map<(m, n, k) -> (m, n)>]
       ins(%x, %w : tensor<128x256xbf16>, tensor<512x256xbf16>)
       outs(%init : tensor<128x512xbf16>) -> tensor<128x512xbf16>
  return %y : tensor<128x512xbf16>
}
"""


def _buffer(i, name, kind, dtype, shape, **extra):
    return dict(id=i, name=name, kind=kind, dtype=dtype, shape=shape,
                bytes=4, **extra)


def delayed_manifest(location="graph.mlir:1:1", monitored=False):
    """The manifest of GRAPH under the delayed recipe, as fp8-emit writes
    it (what matters here): x, w, b, then the histories of x and w; y and
    the two updated histories. `monitored`: the histories rolled by
    extract_slice/insert_slice around fp8.amax (monitor=true)."""
    h = [1024, 1, 1]
    buffers = [_buffer(0, "arg0", "argument", "bf16", [128, 256], index=0),
               _buffer(1, "arg1", "argument", "bf16", [512, 256], index=1),
               _buffer(2, "arg2", "argument", "bf16", [512], index=2),
               _buffer(3, "arg3", "argument", "f32", h, index=3),
               _buffer(4, "arg4", "argument", "f32", h, index=4),
               _buffer(5, "result0", "result", "bf16", [128, 512], index=0),
               _buffer(6, "result1", "result", "f32", h, index=1),
               _buffer(7, "result2", "result", "f32", h, index=2)]
    for i in range(8, 20):
        buffers.append(_buffer(i, "t%d" % i, "intermediate", "f32", [1],
                               offset=0))
    kernels = [
        {"name": "qd", "params": [{"name": n} for n in (
            "input", "history", "q", "scale", "amax")]},
        {"name": "amax", "params": [{"name": n} for n in (
            "input", "amax", "workspace")]},
        {"name": "ex", "params": [{"name": "source"}, {"name": "out"}]},
        {"name": "ins", "params": [{"name": "source"}, {"name": "out"}]},
        {"name": "ins2", "params": [{"name": n} for n in (
            "source", "dest", "out")]}]
    if not monitored:
        # w's history first, as the launches need not follow the
        # arguments' order.
        launches = [
            {"kernel": "qd", "op": "fp8.quantize_delayed",
             "args": [1, 4, 8, 9, 10]},
            {"kernel": "qd", "op": "fp8.quantize_delayed",
             "args": [0, 3, 11, 12, 13]}]
    else:
        launches = []
        for src, hist, base in ((1, 4, 8), (0, 3, 14)):
            launches += [
                {"kernel": "amax", "op": "fp8.amax",
                 "args": [src, base, base + 1]},
                {"kernel": "ex", "op": "tensor.extract_slice",
                 "args": [hist, base + 2]},
                {"kernel": "ins", "op": "tensor.insert_slice",
                 "args": [base + 2, base + 3]},
                {"kernel": "ins2", "op": "tensor.insert_slice",
                 "args": [base, base + 3, base + 4]}]
    return {"version": 2, "chip": "sm_90a", "kernels": kernels,
            "functions": [{"name": "layer", "location": location,
                           "arguments": [0, 1, 2, 3, 4],
                           "results": [5, 6, 7], "buffers": buffers,
                           "launches": launches, "workspace_bytes": 0,
                           "zeroed_bytes": 0}]}


def without_torch(code, env=None):
    """Runs python3 -c CODE where `import torch` fails, as on CI."""
    code = "import sys; sys.modules['torch'] = None\n" + code
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, **(env or {}))
    return subprocess.run([sys.executable, "-c", code], cwd=PYTHON_DIR,
                          env=env, capture_output=True, text=True,
                          timeout=300)


class TempDir(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="fp8-mlir-ergo-")

    def tearDown(self):
        shutil.rmtree(self.dir, ignore_errors=True)

    def program_dir(self, manifest, graph=GRAPH):
        with open(os.path.join(self.dir, "manifest.json"), "w") as f:
            json.dump(manifest, f)
        if graph is not None:
            with open(os.path.join(self.dir, "graph.mlir"), "w") as f:
                f.write(graph)
        return self.dir


class NamesTest(TempDir):
    def test_parse_arguments(self):
        self.assertEqual(names.parse_arguments(GRAPH),
                         [("x", "activation"), ("w", "weight"), ("b", None)])
        # Attributes with commas and nested brackets, and a quoted ")".
        self.assertEqual(names.parse_arguments(
            'func.func private @f(%a: tensor<2x3xf32> {fp8.role = "weight",'
            ' t.x = [1, 2], t.s = "a)b"}, %arg1: memref<?xf32>) {'),
            [("a", "weight"), ("arg1", None)])
        self.assertIsNone(names.parse_arguments("module {}"))

    def test_names_and_roles_from_the_graph(self):
        for monitored in (False, True):
            self.program_dir(delayed_manifest(monitored=monitored))
            ins, outs = names.describe(delayed_manifest(monitored=monitored),
                                       self.dir)["layer"]
            self.assertEqual(ins, [
                ("x", "activation"), ("w", "weight"), ("b", None),
                ("amax_history_x", "amax_history"),
                ("amax_history_w", "amax_history")])
            self.assertEqual(outs, [
                ("result0", None), ("amax_history_x", "amax_history"),
                ("amax_history_w", "amax_history")])
            os.remove(os.path.join(self.dir, "graph.mlir"))

    def test_histories_without_the_graph(self):
        # The graph is gone: arguments keep arg<i>, and the histories are
        # still named after them.
        ins, _ = names.describe(delayed_manifest(location="gone.mlir:1:1"),
                                self.dir)["layer"]
        self.assertEqual([n for n, _ in ins], [
            "arg0", "arg1", "arg2", "amax_history_arg0", "amax_history_arg1"])

    def test_signature_and_errors_name_the_tensor(self):
        path = self.program_dir(delayed_manifest())
        proc = subprocess.run(
            [sys.executable, "-c",
             "from fp8_mlir import runtime\n"
             "f = runtime.Program(%r).layer\n"
             "print(repr(f))\n"
             "try:\n"
             "    f.check_arguments([('bfloat16', (128, 256), 'cuda', True),"
             " ('bfloat16', (256, 512), 'cuda', True)] + [None] * 3)\n"
             "except ValueError as e:\n"
             "    print(e)\n" % path],
            cwd=PYTHON_DIR, capture_output=True, text=True,
            env=dict(os.environ, PYTHONPATH=PYTHON_DIR,
                     FP8RT_LIBRARY="/nonexistent/libfp8rt.so"))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = proc.stdout.splitlines()
        self.assertEqual(lines[0], (
            "<fp8_mlir function layer(x: bf16[128, 256] (activation), "
            "w: bf16[512, 256] (weight), b: bf16[512], "
            "amax_history_x: f32[1024, 1, 1] (amax_history), "
            "amax_history_w: f32[1024, 1, 1] (amax_history)) -> "
            "(result0: bf16[128, 512], "
            "amax_history_x: f32[1024, 1, 1] (amax_history), "
            "amax_history_w: f32[1024, 1, 1] (amax_history)), 2 launches>"))
        self.assertIn("input 1 (w: bf16[512, 256] (weight)) has shape "
                      "[256, 512], expected [512, 256]", lines[1])


class ProgramErrorTest(TempDir):
    def test_not_a_program(self):
        with self.assertRaises(fp8_mlir.ProgramNotFound) as cm:
            fp8_mlir.load(self.dir)
        self.assertIn("%s is not a compiled program: it has no "
                      "manifest.json" % self.dir, str(cm.exception))
        self.assertIsInstance(cm.exception, FileNotFoundError)
        missing = os.path.join(self.dir, "nope")
        with self.assertRaisesRegex(fp8_mlir.ProgramNotFound,
                                    "%s does not exist" % missing):
            fp8_mlir.load(missing)

    def test_wrong_function_lists_the_functions(self):
        program = fp8_mlir.load(PLAN)
        with self.assertRaises(AttributeError) as cm:
            program.chian
        self.assertIn("has no function 'chian' (did you mean 'chain'?); "
                      "its functions: chain, tma, dtypes", str(cm.exception))
        with self.assertRaisesRegex(KeyError, "its functions: chain, "
                                    "tma, dtypes"):
            program["nope"]
        self.assertIn("chain", dir(program))


class WithoutTorchTest(unittest.TestCase):
    def check(self, proc, what):
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("TorchNotFound True", proc.stdout)
        self.assertIn("%s needs PyTorch" % what, proc.stdout)
        self.assertIn("Install it with CUDA", proc.stdout)

    def test_calling_a_function(self):
        proc = without_torch(
            "import fp8_mlir\n"
            "f = fp8_mlir.load(%r).chain\n"
            "try:\n"
            "    f(1, 2)\n"
            "except ImportError as e:\n"
            "    print(type(e).__name__, isinstance(e, "
            "ModuleNotFoundError), e)\n" % PLAN)
        self.check(proc, "calling chain of %s" % PLAN)

    def test_nn_and_convert(self):
        for what, code in (("fp8_mlir.nn", "fp8_mlir.nn"),
                           ("fp8_mlir.convert", "fp8_mlir.convert"),
                           ("fp8_mlir.nn", "import fp8_mlir.nn"),
                           ("fp8_mlir.torch_bridge",
                            "import fp8_mlir.torch_bridge"),
                           ("fp8_mlir.fsdp.enable_fp8_all_gather",
                            "import fp8_mlir.fsdp as f; "
                            "f.enable_fp8_all_gather")):
            proc = without_torch(
                "import fp8_mlir\n"
                "try:\n"
                "    %s\n"
                "except ImportError as e:\n"
                "    print(type(e).__name__, isinstance(e, "
                "fp8_mlir.Fp8MlirError), e)\n" % code)
            self.check(proc, what)


    def test_too_old(self):
        # Debian 12's python3-torch is 1.13: no float8 dtypes.
        proc = without_torch(
            "import types\n"
            "t = sys.modules['torch'] = types.ModuleType('torch')\n"
            "t.__version__ = '1.13.0'\n"
            "import fp8_mlir\n"
            "for what in ('fp8_mlir.nn', 'fp8_mlir.fsdp.quantize_shard'):\n"
            "    try:\n"
            "        eval(what, {'fp8_mlir': fp8_mlir,"
            " 'fsdp': __import__('fp8_mlir.fsdp')})\n"
            "    except ImportError as e:\n"
            "        print(type(e).__name__, e)\n")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        for what in ("fp8_mlir.nn", "fp8_mlir.fsdp.quantize_shard"):
            self.assertIn("TorchNotFound %s needs PyTorch 2.4 or later "
                          "(float8 dtypes, torch.library.custom_op); this "
                          "Python (%s) has PyTorch 1.13.0. Upgrade it" % (
                              what, sys.executable), proc.stdout)


class AotGraphTest(TempDir):
    def run_aot(self, *args):
        return subprocess.run(
            [sys.executable, "-m", "fp8_mlir.aot", "graph"] + list(args),
            cwd=PYTHON_DIR, capture_output=True, text=True, timeout=300,
            env=dict(os.environ, PYTHONPATH=PYTHON_DIR))

    def test_errors(self):
        missing = os.path.join(self.dir, "missing.mlir")
        proc = self.run_aot(missing)
        self.assertEqual(proc.returncode, 1)
        self.assertIn("cannot read the graph %s" % missing, proc.stderr)
        graph = os.path.join(self.dir, "g.mlir")
        with open(graph, "w") as f:
            f.write(GRAPH)
        proc = self.run_aot(graph, "--recipe", "blockwize")
        self.assertEqual(proc.returncode, 1)
        self.assertIn("unknown recipe 'blockwize'", proc.stderr)

    def test_no_compiler_names_the_command(self):
        graph = os.path.join(self.dir, "g.mlir")
        with open(graph, "w") as f:
            f.write(GRAPH)
        proc = subprocess.run(
            [sys.executable, "-m", "fp8_mlir.aot", "graph", graph,
             "--recipe", "rowwise", "--cache", self.dir],
            cwd=PYTHON_DIR, capture_output=True, text=True, timeout=300,
            env=dict(os.environ, PYTHONPATH=PYTHON_DIR,
                     FP8_OPT=os.path.join(self.dir, "no-fp8-opt")))
        self.assertEqual(proc.returncode, 1)
        self.assertIn("python3 -m fp8_mlir.aot graph %s --recipe rowwise "
                      "--chip sm_90a" % graph, proc.stderr)

    @unittest.skipUnless(HAVE_COMPILER, "needs fp8-opt")
    def test_compiles_any_graph(self):
        graph = os.path.join(self.dir, "g.mlir")
        with open(graph, "w") as f:
            f.write(GRAPH)
        cache = os.path.join(self.dir, "cache")
        out = subprocess.run(
            [sys.executable, "-m", "fp8_mlir.aot", "graph", graph,
             "--recipe", "blockwise,delayed", "--cache", cache],
            cwd=PYTHON_DIR, capture_output=True, text=True, timeout=300,
            env=dict(os.environ, PYTHONPATH=PYTHON_DIR))
        self.assertEqual(out.returncode, 0, out.stderr)
        self.assertEqual(out.stdout.count("graph %s " % graph), 2)
        self.assertIn("layer(x: bf16[128, 256] (activation), w: "
                      "bf16[512, 256] (weight), b: bf16[512])", out.stdout)
        self.assertIn("amax_history_x: f32[1024, 1, 1] (amax_history), "
                      "amax_history_w: f32[1024, 1, 1] (amax_history)) ->",
                      out.stdout)
        listing = io.StringIO()
        with contextlib.redirect_stdout(listing):
            self.assertEqual(aot.main(["list", "--cache", cache]), 0)
        self.assertEqual(listing.getvalue().count('"kind": "graph"'), 2)


@unittest.skipUnless(HAVE_COMPILER, "needs fp8-opt")
class CompiledNamesTest(TempDir):
    def test_layers(self):
        lp = fp8_mlir.compile_linear(128, 128, 128, recipe="delayed",
                                     cache=self.dir)
        self.assertEqual([(s.name, s.role) for s in lp.bwd.inputs], [
            ("dy", "gradient"), ("x", "activation"), ("w", "weight"),
            ("amax_history_dy", "amax_history"),
            ("amax_history_w", "amax_history"),
            ("amax_history_x", "amax_history")])
        # fp8_mlir.nn's buffer names are the same (layers._HISTORIES).
        self.assertEqual(["amax_history_" + n for n in lp.bwd_histories],
                         [s.name for s in lp.bwd.inputs[3:]])
        mlp = fp8_mlir.compile_mlp(128, 128, 256, recipe="delayed",
                                   cache=self.dir)
        hist = [s.name for s in mlp.fwd.inputs if s.role == "amax_history"]
        self.assertEqual(len(hist), len(mlp.fwd_histories))
        for name, tensor in zip(hist, mlp.fwd_histories):
            if tensor != "a":  # computed: its SSA name in graphs.mlp
                self.assertEqual(name, "amax_history_" + tensor)
        split = fp8_mlir.compile_linear(128, 128, 128, recipe="blockwise",
                                        split=True, cache=self.dir)
        self.assertEqual([s.name for s in split.fwd.inputs], ["x", "w"])
        self.assertEqual(split.bwd.inputs[0].name, "dy")
        self.assertTrue(all(s.role == "saved" and not s.name.startswith(
            "arg") for s in split.bwd.inputs[1:]))


if __name__ == "__main__":
    unittest.main()
