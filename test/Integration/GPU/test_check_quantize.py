"""CPU tests of check_quantize.py's corrupted-dump self-test that need no
PyTorch (make check-python): on a synthetic quantization dump, every
output it checks is corrupted in a copy, one element each, and a check
that misses the change is reported. check_dump itself (which needs
PyTorch) is replaced by a byte comparison with the original."""

import argparse
import contextlib
import io
import json
import os
import shutil
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import check_quantize as cq  # noqa: E402


def write_dump(root):
    """A dump of one quantization: x [4, 128] bf16 -> q, s (1x128 tiles),
    and an amax output the check does not own."""
    d = os.path.join(root, "rows_quantize_0")
    os.makedirs(d)
    params = [
        {"name": "x", "role": "input", "dtype": "bf16", "shape": [4, 128]},
        {"name": "q", "role": "output", "dtype": "f8e4m3",
         "shape": [4, 128]},
        {"name": "s", "role": "output", "dtype": "f32", "shape": [4, 1]},
        {"name": "new_amax", "role": "output", "dtype": "f32",
         "shape": [1, 1]}]
    meta = {"kernel": "rows_quantize_0",
            "entry": {"name": "rows_quantize_0", "op": "fp8.quantize",
                      "params": params,
                      "scaling": {"tile": [1, 128], "scale": "f32",
                                  "round": "exact"}},
            "files": {p["name"]: p["name"] + ".bin" for p in params}}
    with open(os.path.join(d, "meta.json"), "w") as f:
        json.dump(meta, f)
    for p in params:
        n = cq.SIZES[p["dtype"]] * p["shape"][0] * p["shape"][1]
        with open(os.path.join(d, p["name"] + ".bin"), "wb") as f:
            f.write(bytes((i * 7 + 1) % 256 for i in range(n)))
    return d


class CorruptedDumpTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp(prefix="check-quantize-")
        self.addCleanup(shutil.rmtree, self.root, True)
        self.dump = write_dump(self.root)
        self.original = {}
        for name in ("q", "s", "new_amax"):
            with open(os.path.join(self.dump, name + ".bin"), "rb") as f:
                self.original[name] = f.read()

    def run_self_test(self, compared):
        """self_test_dumps with check_dump failing where one of `compared`
        differs from the original."""
        def check_dump(path, args):
            for name in compared:
                with open(os.path.join(path, name + ".bin"), "rb") as f:
                    if f.read() != self.original[name]:
                        return 1
            return 0
        saved = cq.check_dump
        cq.check_dump = check_dump
        out = io.StringIO()
        try:
            with contextlib.redirect_stdout(out):
                rc = cq.self_test_dumps(argparse.Namespace(dumps=[self.root]))
        finally:
            cq.check_dump = saved
        return rc, out.getvalue()

    def test_outputs_checked(self):
        with open(os.path.join(self.dump, "meta.json")) as f:
            entry = json.load(f)["entry"]
        # new_amax is delayed scaling's, not this check's.
        self.assertEqual([p["name"] for p in cq.checked_outputs(entry)],
                         ["q", "s"])

    def test_every_corruption_caught(self):
        rc, out = self.run_self_test(["q", "s"])
        self.assertEqual(rc, 0, out)
        self.assertIn("one element of q changed", out)
        self.assertIn("one element of s changed", out)
        self.assertIn("2 corrupted outputs, all caught", out)

    def test_a_missed_output_fails(self):
        # A check that compares q alone misses the changed scale.
        rc, out = self.run_self_test(["q"])
        self.assertEqual(rc, 1, out)
        self.assertRegex(out, "one element of s changed +passes  <-- WRONG")

    def test_the_dump_is_left_alone(self):
        self.run_self_test(["q", "s"])
        for name, data in self.original.items():
            with open(os.path.join(self.dump, name + ".bin"), "rb") as f:
                self.assertEqual(f.read(), data)


if __name__ == "__main__":
    unittest.main()
