"""CPU tests of the split layers (fp8-split-forward-backward from Python):
the joint graphs, what crosses from forward to backward per recipe (read
from the manifest as fp8_mlir.nn reads it), the cache keys and the aot
flag. No GPU, no PyTorch; compiling needs fp8-opt ($FP8_OPT), loading a
LayerProgram libfp8rt ($FP8RT_LIBRARY): tests that need a missing one are
skipped.
"""

import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

import fp8_mlir  # noqa: E402
from fp8_mlir import aot, compiler, graphs, layers, runtime  # noqa: E402

HAVE_COMPILER = compiler.find_compiler() is not None


HAVE_RUNTIME = runtime.available()

# M, K, N of the compiled layers (multiples of 128: the cast-transpose).
M, K, N = 256, 512, 384


class GraphTest(unittest.TestCase):
    def test_linear_train(self):
        text = graphs.linear_train(M, K, N)
        self.assertIn("func.func @linear_train(%x: tensor<256x512xbf16> "
                      "{fp8.role = \"activation\"},\n    %w: "
                      "tensor<384x512xbf16> {fp8.role = \"weight\"},\n    "
                      "%dy: tensor<256x384xbf16> {fp8.role = "
                      "\"gradient\"})", text)
        self.assertIn("-> (tensor<256x384xbf16>, tensor<256x512xbf16>, "
                      "tensor<384x512xbf16>)", text)
        self.assertEqual(text.count("func.func"), 1)
        self.assertEqual(text.count("linalg.matmul"), 3)
        # The bias comes before the gradient; Y stays f32 until it is
        # added.
        text = graphs.linear_train(M, K, N, bias=True)
        self.assertIn("%b: tensor<384xbf16>,\n    %dy:", text)

    def test_linear_train_has_the_ops_of_linear(self):
        # The joint function is graphs.linear's two bodies in one.
        two = graphs.linear(M, K, N)
        one = graphs.linear_train(M, K, N)
        for what in ("#fprop", "#dgrad", "#wgrad"):
            self.assertEqual(two.count("indexing_maps = " + what),
                             one.count("indexing_maps = " + what))

    def test_mlp_train(self):
        text = graphs.mlp_train(M, 256, 512)
        self.assertIn("func.func @mlp_train(%x: tensor<256x256xbf16>", text)
        self.assertIn("%dy: tensor<256x256xbf16> {fp8.role = \"gradient\"})",
                      text)
        # Three Fprops, two Dgrads of W1 and W3 and one of W2, three
        # Wgrads; the activation once (graphs.mlp's backward recomputes
        # it).
        self.assertEqual(text.count("linalg.matmul"), 9)
        self.assertEqual(text.count("math.exp"), 3)
        gelu = graphs.mlp_train(M, 256, 512, activation="gelu")
        self.assertIn("-> (tensor<256x256xbf16>, tensor<256x256xbf16>, "
                      "tensor<512x256xbf16>, tensor<256x512xbf16>)", gelu)
        with self.assertRaisesRegex(ValueError, "activation must be"):
            graphs.mlp_train(M, 256, 512, activation="relu")


def _manifest(fwd_results, bwd_args):
    """A manifest of two functions whose results/arguments carry the
    given labels (None: unlabelled)."""
    def function(name, args, results):
        buffers, arguments, out = [], [], []
        for kind, labels, ids in (("argument", args, arguments),
                                  ("result", results, out)):
            for i, label in enumerate(labels):
                entry = {"id": len(buffers), "name": "%s%d" % (
                    "arg" if kind == "argument" else "result", i),
                    "kind": kind, "dtype": "f8e4m3", "shape": [4, 4],
                    "bytes": 16, "index": i}
                if label:
                    entry["saved"] = label
                ids.append(len(buffers))
                buffers.append(entry)
        return {"name": name, "arguments": arguments, "results": out,
                "buffers": buffers, "launches": []}

    return {"functions": [
        function("f", [None, None], fwd_results),
        function("b", bwd_args, [None, None])]}


class SavedSignatureTest(unittest.TestCase):
    def test_mapping(self):
        m = _manifest([None, "arg0:qt", "arg0:scale_t"],
                      [None, "arg1", "arg0:qt", "arg0:scale_t"])
        sig = layers.SavedSignature(m, "f", "b", 2)
        self.assertEqual(sig.results, 1)
        self.assertEqual([s.label for s in sig.saved],
                         ["arg0:qt", "arg0:scale_t"])
        self.assertEqual(sig.kept, [1])
        self.assertEqual(sig.bwd_inputs, [("gradient", 0), ("input", 1),
                                          ("saved", 0), ("saved", 1)])
        self.assertEqual(sig.nbytes, 3 * 16)

    def test_errors(self):
        with self.assertRaisesRegex(ValueError, "takes 2 arguments"):
            layers.SavedSignature(_manifest([None], [None]), "f", "b", 3)
        with self.assertRaisesRegex(ValueError, "not last"):
            layers.SavedSignature(_manifest(["arg0:q", None], [None]),
                                  "f", "b", 2)
        with self.assertRaisesRegex(ValueError, "neither a saved result"):
            layers.SavedSignature(_manifest([None], [None, "arg7"]),
                                  "f", "b", 2)
        with self.assertRaisesRegex(ValueError, "in order"):
            layers.SavedSignature(
                _manifest([None, "a:q", "a:s"], [None, "a:s", "a:q"]),
                "f", "b", 2)

    def test_supported(self):
        for recipe in ("tensorwise", "rowwise", "rowwise_gw_hp",
                       "blockwise", "mxfp8", "mxfp8_ocp"):
            self.assertTrue(layers.split_supported(recipe))
        self.assertFalse(layers.split_supported("delayed"))
        self.assertFalse(layers.split_supported(
            "#fp8.recipe<tensorwise, amax = delayed<16, max>>"))
        self.assertFalse(layers.split_supported("blockwise", monitor=True))
        with self.assertRaisesRegex(ValueError, "delayed"):
            layers.compile_linear(M, N, K, recipe="delayed", split=True)
        with self.assertRaisesRegex(ValueError, "monitor"):
            layers.compile_mlp(M, 256, 512, monitor=True, split=True)

    def test_key(self):
        text = graphs.linear_train(M, K, N)
        self.assertNotEqual(compiler.graph_key(text, "blockwise", "sm_90a"),
                            compiler.graph_key(text, "blockwise", "sm_90a",
                                               split=True))
        # Unsplit keys are what they were.
        self.assertEqual(compiler.graph_key(text, "blockwise", "sm_90a"),
                         compiler.graph_key(text, "blockwise", "sm_90a",
                                            False, False))


# What forward saves for backward per recipe (the linear layer, sm_90a),
# in order, and the inputs backward still reads. X is joint argument 0, W
# argument 1; ".T" marks a transposed layout.
EXPECTED_LINEAR = {
    "tensorwise": (["arg0:qt", "arg0:scale_t", "arg1:qt",
                    "arg1:scale_t"], []),
    # X's cast-transpose and W's block cast-transpose (its exact
    # transpose), the transposed halves of both.
    "blockwise": (["arg0:qt", "arg0:scale_t", "arg1:qt", "arg1:scale_t"],
                  []),
    # The rowwise cast-transposes: X and W quantized along their rows and
    # columns in one launch each.
    "rowwise": (["arg0:qt", "arg0:scale_t", "arg1:qt", "arg1:scale_t"], []),
    # Wgrad stays in bf16: it reads X itself.
    "rowwise_gw_hp": (["arg1:qt", "arg1:scale_t"], [0]),
}


@unittest.skipUnless(HAVE_COMPILER, "no fp8-opt")
class CompiledTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp(prefix="fp8-mlir-split-")
        # split=None means split unless FP8_MLIR_SPLIT=0.
        self.env = os.environ.get("FP8_MLIR_SPLIT")
        os.environ.pop("FP8_MLIR_SPLIT", None)

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)
        if self.env is None:
            os.environ.pop("FP8_MLIR_SPLIT", None)
        else:
            os.environ["FP8_MLIR_SPLIT"] = self.env

    def signature(self, text, recipe, fwd, bwd, inputs):
        path = compiler.compile_graph(text, recipe, split=True,
                                      cache=self.cache)
        with open(os.path.join(path, "manifest.json")) as f:
            manifest = json.load(f)
        self.assertEqual(sorted(f["name"] for f in manifest["functions"]),
                         [bwd, fwd])
        return manifest, layers.SavedSignature(manifest, fwd, bwd, inputs)

    def test_linear_saved_per_recipe(self):
        text = graphs.linear_train(M, K, N)
        for recipe, (labels, kept) in EXPECTED_LINEAR.items():
            with self.subTest(recipe=recipe):
                manifest, sig = self.signature(
                    text, recipe, "linear_train_fwd", "linear_train_bwd", 2)
                self.assertEqual([s.label for s in sig.saved], labels)
                self.assertEqual(sig.kept, kept)
                self.assertEqual(sig.results, 1)
                # FP8 data and f32 scales; nothing in bf16.
                self.assertEqual({s.dtype for s in sig.saved},
                                 {"f8e4m3", "f32"})
                data = [s for s in sig.saved if s.dtype == "f8e4m3"]
                self.assertEqual(sum(s.nbytes for s in data), M * K + N * K
                                 if not kept else N * K)
                bwd = next(f for f in manifest["functions"]
                           if f["name"] == "linear_train_bwd")
                self.assertEqual(len(bwd["arguments"]),
                                 1 + len(kept) + len(labels))

    def test_linear_mxfp8_and_bias(self):
        text = graphs.linear_train(M, K, N, bias=True)
        _, sig = self.signature(text, "mxfp8", "linear_train_fwd",
                                "linear_train_bwd", 3)
        self.assertEqual(sig.kept, [])
        self.assertEqual({s.dtype for s in sig.saved}, {"f8e4m3", "e8m0"})
        self.assertTrue(all(not s.label.startswith("arg2")
                            for s in sig.saved))

    def test_mlp_saved(self):
        text = graphs.mlp_train(M, 256, 512)
        _, sig = self.signature(text, "blockwise", "mlp_train_fwd",
                                "mlp_train_bwd", 4)
        self.assertEqual(sig.kept, [])
        bf16 = [s for s in sig.saved if s.dtype == "bf16"]
        # The pre-activations H1 and H3, which SiLU's derivative reads.
        self.assertEqual([s.shape for s in bf16], [(M, 512), (M, 512)])
        labels = [s.label for s in sig.saved]
        # X for the Wgrads of W1 and W3 in its transposed layout, not
        # Fprop's; the activation's quantization (fused with SwiGLU) in
        # Wgrad's layout, named after the fused op.
        self.assertIn("arg0:qt", labels)
        self.assertNotIn("arg0:q", labels)
        self.assertEqual([l for l in labels if l.endswith(":qt") and
                          l.startswith("op")], ["op5:qt"])

    def test_recompute_weight(self):
        # W crosses as the parameter it is; only X's FP8 is saved.
        text = graphs.linear_train(M, K, N)
        path = compiler.compile_graph(text, "blockwise", split=
                                      "recompute=weight", cache=self.cache)
        with open(os.path.join(path, "manifest.json")) as f:
            sig = layers.SavedSignature(json.load(f), "linear_train_fwd",
                                        "linear_train_bwd", 2)
        self.assertEqual([s.label for s in sig.saved],
                         ["arg0:qt", "arg0:scale_t"])
        self.assertEqual(sig.kept, [1])
        self.assertEqual(sig.bwd_inputs, [("gradient", 0), ("input", 1),
                                          ("saved", 0), ("saved", 1)])
        self.assertNotEqual(
            compiler.graph_key(text, "blockwise", "sm_90a", split=True),
            compiler.graph_key(text, "blockwise", "sm_90a",
                               split="recompute=weight"))
        with self.assertRaisesRegex(ValueError, "needs a split layer"):
            layers.compile_linear(M, N, K, recipe="delayed", split=None,
                                  recompute=("weight",))
        with self.assertRaisesRegex(ValueError, "roles among"):
            layers.compile_linear(M, N, K, split=True,
                                  recompute=("gradient",))

    @unittest.skipUnless(HAVE_RUNTIME, "no libfp8rt")
    def test_layer_program(self):
        lp = layers.compile_linear(M, N, K, recipe="blockwise",
                                   cache=self.cache, split=None)
        self.assertIsNotNone(lp.saved)
        self.assertEqual(lp.fwd.name, "linear_train_fwd")
        self.assertEqual([s.shape for s in lp.fwd.inputs], [(M, K), (N, K)])
        self.assertEqual(lp.fwd.outputs[0].shape, (M, N))
        self.assertEqual([o.dtype for o in lp.fwd.outputs[1:]],
                         [s.dtype for s in lp.saved.saved])
        self.assertEqual([s.shape for s in lp.bwd.outputs],
                         [(M, K), (N, K)])
        self.assertEqual(lp.fwd_histories, ())
        plain = layers.compile_linear(M, N, K, recipe="blockwise",
                                      cache=self.cache)
        self.assertIsNone(plain.saved)
        self.assertEqual(plain.fwd.name, "linear_fwd")
        delayed = layers.compile_linear(M, N, K, recipe="delayed",
                                        cache=self.cache, split=None)
        self.assertIsNone(delayed.saved)
        self.assertEqual(delayed.fwd_histories, ("x", "w"))

    def test_aot_split(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = aot.main(["linear", "--m", str(M), "--n", str(N), "--k",
                           str(K), "--recipe", "blockwise,delayed",
                           "--cache", self.cache])
        self.assertEqual(rc, 0)
        # auto: blockwise split, delayed not.
        self.assertEqual(out.getvalue().count("\"split\": true"), 1)
        with contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(aot.main(
                ["linear", "--m", str(M), "--n", str(N), "--k", str(K),
                 "--recipe", "blockwise", "--split", "no", "--cache",
                 self.cache]), 0)
        entries = [d for d in os.listdir(self.cache)]
        self.assertEqual(len(entries), 3)


if __name__ == "__main__":
    unittest.main()
