"""CPU tests of the FP8 all-gather graphs (graphs.linear_prequantized,
graphs.quantize_weight): they compile through fp8-pipeline and fp8-emit,
and their launch plans are the ordinary linear's without the weight's
quantization. No GPU, no PyTorch (make check-python)."""

import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))

from fp8_mlir import compiler, fsdp, graphs  # noqa: E402

HAVE_COMPILER = compiler.find_compiler() is not None
QUANTIZE_OPS = ("fp8.quantize", "fp8.quantize+transpose")


def _plans(path):
    with open(os.path.join(path, "manifest.json")) as f:
        return {fn["name"]: fn for fn in json.load(f)["functions"]}


def _ops(fn):
    return [launch["op"] for launch in fn["launches"]]


def _argument_ids(fn):
    """Buffer id of each argument index."""
    return {b["index"]: b["id"] for b in fn["buffers"]
            if b["kind"] == "argument"}


class GraphTest(unittest.TestCase):
    def test_signatures(self):
        text = graphs.linear_prequantized(256, 512, 384, "blockwise")
        self.assertIn("%wq: tensor<384x512xf8E4M3FN>", text)
        self.assertIn("%ws: tensor<3x4xf32>", text)
        self.assertNotIn("linalg.matmul", text)
        text = graphs.linear_prequantized(256, 512, 384, "tensorwise")
        self.assertIn("%ws: tensor<1x1xf32>", text)
        self.assertIn("f8E5M2", text)  # tensorwise gradients are e5m2
        text = graphs.quantize_weight(384, 512, "tensorwise")
        self.assertIn("amax(%amax : tensor<1x1xf32>)", text)
        self.assertNotIn("amax(", graphs.quantize_weight(384, 512,
                                                         "blockwise"))

    def test_scale_shapes(self):
        self.assertEqual(graphs.weight_scale_shape(384, 512, "blockwise"),
                         (3, 4))
        self.assertEqual(graphs.weight_scale_shape(384, 500, "blockwise"),
                         (3, 4))
        self.assertEqual(graphs.weight_scale_shape(384, 512, "tensorwise"),
                         (1, 1))

    def test_refusals(self):
        with self.assertRaisesRegex(ValueError, "multiple of 128"):
            graphs.quantize_weight(192, 512, "blockwise")
        for recipe in ("rowwise", "mxfp8", "delayed"):
            with self.assertRaisesRegex(ValueError, "tensorwise, blockwise"):
                graphs.linear_prequantized(128, 128, 128, recipe)
            with self.assertRaisesRegex(ValueError, "tensorwise, blockwise"):
                graphs.quantize_weight(128, 128, recipe)


@unittest.skipUnless(HAVE_COMPILER, "no fp8-opt")
class CompileTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp(prefix="fp8-mlir-fsdp-test-")

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)

    def compile(self, text, recipe):
        return _plans(compiler.compile_graph(text, recipe,
                                             cache=self.cache))

    def check_recipe(self, recipe, bias):
        m, k, n = 256, 512, 384
        ordinary = self.compile(graphs.linear(m, k, n, bias=bias), recipe)
        pq = self.compile(graphs.linear_prequantized(m, k, n, recipe,
                                                     bias=bias), recipe)
        for name, wq_index in (("fwd", 1), ("bwd", 2)):
            fn = pq["linear_pq_" + name]
            args = _argument_ids(fn)
            weight = {args[wq_index], args[wq_index + 1]}
            for launch in fn["launches"]:
                if launch["op"] in QUANTIZE_OPS:
                    self.assertNotIn(launch["args"][0], weight, launch)
            # The ordinary plan, less one quantize: the weight's (where it
            # is a tensorwise cast-transpose, the prequantized weight's
            # fp8.transpose stays in its place).
            base = ordinary["linear_" + name]
            w_id = _argument_ids(base)[1 if name == "fwd" else 2]
            w_quantizes = [i for i, launch in enumerate(base["launches"])
                           if launch["op"] in ("fp8.quantize",
                                               "fp8.quantize_transpose") and
                           launch["args"][0] == w_id]
            self.assertEqual(len(w_quantizes), 1, (recipe, name))
            expected = _ops(base)
            if expected[w_quantizes[0]] == "fp8.quantize_transpose":
                expected[w_quantizes[0]] = "fp8.transpose"
            else:
                del expected[w_quantizes[0]]
            self.assertEqual(_ops(fn), expected, (recipe, name))
            self.assertEqual(
                [tuple(b["shape"]) for b in fn["buffers"]
                 if b["kind"] == "result"],
                [tuple(b["shape"]) for b in base["buffers"]
                 if b["kind"] == "result"])

    def test_prequantized_plans(self):
        for recipe in graphs.PREQUANTIZED_RECIPES:
            for bias in (False, True):
                self.check_recipe(recipe, bias)

    def test_quantize_weight(self):
        for recipe, inputs in (("tensorwise", [[384, 512], [1, 1]]),
                               ("blockwise", [[384, 512]])):
            fn = self.compile(graphs.quantize_weight(384, 512, recipe),
                              recipe)["quantize_weight"]
            self.assertEqual(_ops(fn), ["fp8.quantize"])
            got = [b["shape"] for b in sorted(
                (b for b in fn["buffers"] if b["kind"] == "argument"),
                key=lambda b: b["index"])]
            self.assertEqual(got, inputs)
            results = sorted((b for b in fn["buffers"]
                              if b["kind"] == "result"),
                             key=lambda b: b["index"])
            self.assertEqual([(b["dtype"], b["shape"]) for b in results], [
                ("f8e4m3", [384, 512]),
                ("f32", list(graphs.weight_scale_shape(384, 512, recipe)))])


class ShardingTest(unittest.TestCase):
    """fsdp.check_sharding: FSDP2's dim-0 shards of a weight must be even
    and, blockwise, whole 128-row tiles; anything else is refused by name
    before the first step."""

    def test_even_shards_pass(self):
        fsdp.check_sharding(384, "tensorwise", 3)
        fsdp.check_sharding(1024, "blockwise", 8)   # 128 rows a rank
        fsdp.check_sharding(512, "blockwise", 1)

    def test_uneven_shards_refused(self):
        # 384 rows over 5 ranks do not split evenly.
        with self.assertRaisesRegex(
                ValueError, "384 rows over 5 ranks under tensorwise: "
                "out_features must be a multiple of 5 \\(even shards\\)"):
            fsdp.check_sharding(384, "tensorwise", 5)

    def test_partial_tiles_refused(self):
        # 768 rows over 4 ranks: 192 a rank, even but not whole 128-row
        # tiles, so a rank's tiles would not be the whole weight's.
        with self.assertRaisesRegex(
                ValueError, "768 rows over 4 ranks under blockwise: "
                "out_features must be a multiple of 512 \\(even shards of "
                "whole 128x128 tiles\\)"):
            fsdp.check_sharding(768, "blockwise", 4)
        with self.assertRaisesRegex(ValueError, "multiple of 128"):
            fsdp.check_sharding(200, "blockwise", 1)

    def test_bad_world_size_and_recipe(self):
        for world in (0, -2, 1.5):
            with self.assertRaisesRegex(ValueError, "over %r ranks: the "
                                        "world size" % world):
                fsdp.check_sharding(256, "tensorwise", world)
        with self.assertRaisesRegex(ValueError, "rowwise"):
            fsdp.check_sharding(256, "rowwise", 2)


if __name__ == "__main__":
    unittest.main()
