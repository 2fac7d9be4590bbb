# -*- Python -*-
# lit configuration of the fp8-mlir regression and integration tests.

import os
import re
import shutil
import subprocess

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

# ptxas assembles emitted PTX in CI, where no GPU exists. A chip's PTX needs
# a ptxas that knows it, so the features are per chip: ptxas-sm90a (CUDA
# 12.0 or later) and ptxas-sm100a (12.8 or later); RUN lines use them
# (`%if ptxas-sm90a %{ ... %}`, `REQUIRES: ptxas-sm100a`), not the bare
# `ptxas` (any version). What does not run for want of one is noted.
PTXAS_CHIPS = {"ptxas-sm90a": (12, 0), "ptxas-sm100a": (12, 8)}


def ptxas_version(path):
    """(major, minor) from `ptxas --version` ("release 12.8, V12.8.93")."""
    try:
        out = subprocess.run([path, "--version"], stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True,
                             timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"release (\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def ptxas_uses(root):
    """{feature: (RUN lines under %if FEATURE, files REQUIRES-ing it)} and
    the count of RUN lines under the unversioned `%if ptxas`."""
    uses = {f: [0, 0] for f in PTXAS_CHIPS}
    bare = 0
    for dirpath, _, names in os.walk(root):
        for name in names:
            if not name.endswith(".mlir"):
                continue
            with open(os.path.join(dirpath, name), errors="replace") as f:
                text = f.read()
            if "ptxas" not in text:
                continue
            bare += text.count("%if ptxas %{")
            for feature, counts in uses.items():
                counts[0] += text.count("%%if %s %%{" % feature)
                if re.search(r"REQUIRES:.*\b%s\b" % feature, text):
                    counts[1] += 1
    return uses, bare


ptxas = config.cuda_ptxas if config.cuda_ptxas and os.path.exists(
    config.cuda_ptxas) else None
version = ptxas_version(ptxas) if ptxas else None
if ptxas:
    config.available_features.add("ptxas")
    config.substitutions.append(("%ptxas", ptxas))
uses, bare = ptxas_uses(config.test_source_root)
for feature, need in sorted(PTXAS_CHIPS.items()):
    if version and version >= need:
        config.available_features.add(feature)
        continue
    lines, files = uses[feature]
    have = ("no ptxas found" if not ptxas else
            "%s is CUDA %s" % (ptxas, "%d.%d" % version if version
                               else "of an unknown version"))
    lit_config.note(
        "%s not available (%s; needs CUDA %d.%d or later): %d RUN lines "
        "under '%%if %s' and %d tests that require it do not run" % (
            feature, have, need[0], need[1], lines, feature, files))
if bare:
    lit_config.warning(
        "%d RUN lines use '%%if ptxas' (any version); use ptxas-sm90a or "
        "ptxas-sm100a" % bare)
