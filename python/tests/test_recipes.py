"""Custom recipes (#fp8.recipe<...> attributes) through the Python package:
aot's --recipe list keeps an attribute's commas, and the compiler quotes
it for fp8-pipeline. No GPU, no PyTorch."""

import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(
    __file__))))

from fp8_mlir import aot, compiler  # noqa: E402

HAVE_COMPILER = compiler.find_compiler() is not None
E5M2_GRADIENTS = "#fp8.recipe<blockwise, gradient = e5m2>"


class RecipeListTest(unittest.TestCase):
    def test_commas_inside_an_attribute_do_not_separate(self):
        self.assertEqual(aot._strs("tensorwise,%s, rowwise" % E5M2_GRADIENTS),
                         ["tensorwise", E5M2_GRADIENTS, "rowwise"])
        self.assertEqual(aot._strs("blockwise"), ["blockwise"])
        self.assertEqual(aot._strs("a,,b,"), ["a", "b"])


@unittest.skipUnless(HAVE_COMPILER, "no fp8-opt")
class CustomRecipeCompileTest(unittest.TestCase):
    def setUp(self):
        self.cache = tempfile.mkdtemp(prefix="fp8-mlir-recipes-")

    def tearDown(self):
        shutil.rmtree(self.cache, ignore_errors=True)

    def test_e5m2_gradients(self):
        # Blockwise with e5m2 gradients (issue 43: the gradients' range),
        # at a token count Wgrad pads.
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            rc = aot.main(["linear", "--m", "1000", "--n", "256", "--k",
                           "512", "--recipe", E5M2_GRADIENTS + ",tensorwise",
                           "--cache", self.cache])
        self.assertEqual(rc, 0, out.getvalue())
        self.assertEqual(out.getvalue().count("linear {"), 2)
        self.assertIn("gradient = e5m2", out.getvalue())


if __name__ == "__main__":
    unittest.main()
