"""CPU tests of monitored layer programs (fp8-pipeline monitor=true) in the
fp8_mlir package: the cache key, the names and output indices of the
statistics results, and the aot flag. No GPU, no PyTorch."""

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

from fp8_mlir import aot, compiler, graphs, layers  # noqa: E402

HAVE_COMPILER = compiler.find_compiler() is not None


class KeyTest(unittest.TestCase):
    def test_monitor_changes_the_key_only_when_on(self):
        text = graphs.linear(256, 512, 384)
        plain = compiler.graph_key(text, "blockwise", "sm_90a")
        self.assertEqual(plain, compiler.graph_key(text, "blockwise",
                                                   "sm_90a", False))
        self.assertNotEqual(plain, compiler.graph_key(text, "blockwise",
                                                      "sm_90a", True))


@unittest.skipUnless(HAVE_COMPILER, "needs fp8-opt")
class MonitoredProgramTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp(prefix="fp8-mlir-monitor-")

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)

    def names(self, monitored):
        return [m.name for m in monitored]

    def test_linear_tensorwise(self):
        lp = layers.compile_linear(256, 384, 512, recipe="tensorwise",
                                   cache=self.cache, monitor=True)
        self.assertEqual(self.names(lp.fwd_monitored), ["x", "w"])
        self.assertEqual(self.names(lp.bwd_monitored), ["dy", "w", "x"])
        # Statistics follow the layer's own outputs: y; dx, dw.
        self.assertEqual([(m.tile_amax, m.counts) for m in
                          lp.fwd_monitored], [(1, 2), (3, 4)])
        self.assertEqual([m.numel for m in lp.fwd_monitored],
                         [256 * 512, 384 * 512])
        self.assertEqual([m.role for m in lp.bwd_monitored],
                         ["gradient", "weight", "activation"])
        for m in lp.fwd_monitored:
            amax = lp.fwd.outputs[m.tile_amax]
            counts = lp.fwd.outputs[m.counts]
            self.assertEqual((amax.dtype, amax.shape), ("f32", (1, 1)))
            self.assertEqual((counts.dtype, counts.shape), ("i64", (2,)))
        self.assertEqual(len(lp.fwd.outputs), 5)

    def test_linear_rowwise_transposes(self):
        lp = layers.compile_linear(256, 384, 512, recipe="rowwise",
                                   cache=self.cache, monitor=True)
        self.assertEqual(self.names(lp.bwd_monitored),
                         ["dy", "w.T", "dy.T", "x.T"])
        x = lp.fwd_monitored[0]
        self.assertEqual(lp.fwd.outputs[x.tile_amax].shape, (256, 1))

    def test_delayed_statistics_follow_the_histories(self):
        lp = layers.compile_linear(256, 384, 512, recipe="delayed",
                                   cache=self.cache, monitor=True)
        self.assertEqual(lp.fwd_histories, ("x", "w"))
        # y, two updated histories, then the statistics.
        self.assertEqual([m.tile_amax for m in lp.fwd_monitored], [3, 5])

    def test_mlp_names_computed_tensors(self):
        lp = layers.compile_mlp(256, 256, 512, recipe="tensorwise",
                                cache=self.cache, monitor=True)
        self.assertEqual(self.names(lp.fwd_monitored),
                         ["x", "w1", "w3", "a", "w2"])
        self.assertEqual(self.names(lp.bwd_monitored),
                         ["dy", "w2", "a", "dh1", "w1", "dh3", "w3", "x"])
        lp = layers.compile_mlp(256, 256, 512, recipe="blockwise",
                                cache=self.cache, monitor=True)
        self.assertIn("activation:op3", self.names(lp.bwd_monitored))

    def test_unmonitored_has_none(self):
        lp = layers.compile_linear(256, 384, 512, recipe="blockwise",
                                   cache=self.cache)
        self.assertEqual((lp.fwd_monitored, lp.bwd_monitored), ([], []))
        self.assertEqual(len(lp.fwd.outputs), 1)
        with open(os.path.join(lp.path, "entry.json")) as f:
            self.assertFalse(json.load(f)["monitor"])

    def test_aot_flag(self):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = aot.main(["linear", "--m", "256", "--n", "384", "--k",
                             "512", "--recipe", "blockwise", "--monitor",
                             "--cache", self.cache])
        self.assertEqual(code, 0)
        self.assertIn('"monitor": true', out.getvalue())
        lp = layers.compile_linear(256, 384, 512, recipe="blockwise",
                                   cache=self.cache, monitor=True)
        self.assertIn(lp.path, out.getvalue())


if __name__ == "__main__":
    unittest.main()
