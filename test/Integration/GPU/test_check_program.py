"""CPU tests of check_program.py's rules that need no PyTorch (make
check-python): every result compared by some rule, and the matmul kinds a
recipe keeps in high precision. The numerics are --self-test's, on a GPU
or with PyTorch on the CPU."""

import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_program as cp  # noqa: E402


def check(bad):
    return cp.Check("x", 16, bad, "")


class UncheckedTest(unittest.TestCase):
    def test_replay_alone(self):
        # The replay could not check dx (it depends on an intermediate
        # GEMM), and there is no end-to-end check: dx is named.
        self.assertEqual(cp.unchecked_results(
            ["y", "dx", "dw"], [check(0), check(-1), check(3)], None),
            ["result 1 (dx)"])

    def test_end_to_end_covers_its_results(self):
        # (b) covers the graph's results from the first; a result after
        # them (a history, say) still needs the replay.
        self.assertEqual(cp.unchecked_results(
            ["y", "dx", "h"], [check(-1), check(-1), check(-1)],
            [check(0), check(0)]), ["result 2 (h)"])
        self.assertEqual(cp.unchecked_results(
            ["y", "dx"], [check(-1), check(-1)], [check(0), check(1)]), [])

    def test_nothing_unchecked(self):
        self.assertEqual(cp.unchecked_results(["y"], [check(0)], None), [])


class RecipeTest(unittest.TestCase):
    def test_rowwise_gw_hp(self):
        self.assertEqual(cp.parse_recipe("rowwise_gw_hp"),
                         ("rowwise_gw_hp", 0))
        self.assertEqual(cp.RECIPES["rowwise_gw_hp"]["gradient"],
                         ("f8e4m3", [1, -1], "f32", "exact"))
        self.assertEqual(cp.HIGH_PRECISION["rowwise_gw_hp"], {"wgrad"})

    def test_matmul_kinds(self):
        mlp = cp.GRAPHS["mlp_block"]
        kinds = [cp.matmul_kind(mlp, node) for node in mlp["results"]
                 if node[0] == "matmul"]
        # Y, dX, dW1, dW2, H, dA.
        self.assertEqual(kinds, ["fprop", "dgrad", "wgrad", "wgrad",
                                 "fprop", "dgrad"])
        linear = cp.GRAPHS["linear_fwd_bwd"]
        self.assertEqual([cp.matmul_kind(linear, n)
                          for n in linear["results"]],
                         ["fprop", "dgrad", "wgrad"])


if __name__ == "__main__":
    unittest.main()
