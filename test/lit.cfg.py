# -*- Python -*-
# lit configuration of the fp8-mlir regression and integration tests.

import os
import shutil

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "FP8"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".mlir"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.fp8_obj_root, "test")
config.excludes = ["CMakeLists.txt", "README.txt", "lit.cfg.py", "lit.site.cfg.py"]

config.substitutions.append(("%PATH%", config.environment["PATH"]))
config.substitutions.append(("%shlibext", config.llvm_shlib_ext))

llvm_config.with_system_environment(["HOME", "INCLUDE", "LIB", "TMP", "TEMP"])
llvm_config.use_default_substitutions()

llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
tool_dirs = [config.fp8_tools_dir, config.llvm_tools_dir]
tools = ["fp8-opt", "mlir-runner"]
llvm_config.add_tool_substitutions(tools, tool_dirs)

# `%mlir-run` executes the output of --fp8-reference-pipeline: @main, with the
# runtime libraries for printing (the reference needs no software floats).
runtime_libs = ",".join(
    os.path.join(config.mlir_lib_dir, "lib%s%s" % (name, config.llvm_shlib_ext))
    for name in ["mlir_c_runner_utils", "mlir_runner_utils"]
)
config.substitutions.append(
    (
        "%mlir-run",
        "%s -e main -entry-point-result=void -shared-libs=%s"
        % (os.path.join(config.llvm_tools_dir, "mlir-runner"), runtime_libs),
    )
)

# ptxas assembles emitted PTX in CI, where no GPU exists.
if config.cuda_ptxas and os.path.exists(config.cuda_ptxas):
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", config.cuda_ptxas))
