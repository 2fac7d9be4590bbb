"""Runs python/tests (make check-python) and says what did not run.

    python3 python/tests/run.py

unittest's summary gives only a count of skips; a test skipped for want of
fp8-opt, libfp8rt or the fake driver should be seen, so each skip reason
is printed after the run with the tests it skipped. Exits 1 if any test
failed.
"""

import collections
import os
import sys
import unittest


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    suite = unittest.defaultTestLoader.discover(here)
    result = unittest.TextTestRunner(verbosity=1).run(suite)
    skipped = collections.defaultdict(list)
    for test, reason in result.skipped:
        skipped[reason].append(test.id().split(".", 1)[-1])
    for reason, tests in sorted(skipped.items()):
        print("check-python: SKIPPED %d (%s): %s" % (
            len(tests), reason, ", ".join(sorted(tests))))
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
