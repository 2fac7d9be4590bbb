# -*- Python -*-
# lit configuration of the fp8-mlir unit tests: the GoogleTest executables
# (named *Tests) under the build tree's unittests/, as upstream MLIR's
# test/Unit does.

import os

import lit.formats

config.name = "FP8-Unit"
config.suffixes = []
config.test_exec_root = os.path.join(config.fp8_obj_root, "unittests")
config.test_source_root = config.test_exec_root
config.test_format = lit.formats.GoogleTest(".", "Tests")
