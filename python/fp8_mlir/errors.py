"""The package's exceptions. Bad arguments raise ValueError (or TypeError);
these name what is missing on the machine or failed in the compiler or the
runtime."""

import importlib
import sys


class Fp8MlirError(Exception):
    """Base of the errors below."""


class RuntimeNotFound(Fp8MlirError):
    """libfp8rt.so is not where the package looks for it."""


class RuntimeFailure(Fp8MlirError):
    """libfp8rt refused a program or a run; the message is its own, after
    the program's path and the function's name. `program` (the path),
    `function` (None for a load) and `status` (fp8rt_status: 1 invalid
    argument, 2 not found, 3 manifest, 4 CUDA) say the same to a program.
    A failed run leaves the program usable: the next call with good inputs
    works."""

    def __init__(self, message, program=None, function=None, status=None):
        super().__init__(message)
        self.program, self.function, self.status = program, function, status


class CompilerNotFound(Fp8MlirError):
    """No fp8-opt here and no cache entry for the graph asked for."""


class CompileError(Fp8MlirError):
    """fp8-opt rejected the graph; the message holds its diagnostics."""


class ProgramNotFound(Fp8MlirError, FileNotFoundError):
    """The path given as a program is missing, or is a directory without
    the manifest.json that `fp8-opt --fp8-emit=dir=DIR` writes."""


class EmitError(Fp8MlirError, ValueError):
    """fp8_mlir.fx_emit cannot express an FX node in the MLIR the pipeline
    takes (an op it does not know, a shape that is not static, a dtype
    other than bf16, f16 and f32). `node` is the node's name, `op` its
    kind (call_function, call_module, ...), `target` what it calls and
    `source` the user's line from its stack trace (None where the graph
    kept none); the message says all four and why."""

    def __init__(self, reason, node=None, op=None, target=None,
                 source=None):
        where = ""
        if node is not None:
            where = "node %r (%s %s): " % (node, op, target)
        message = "fx_emit: %s%s" % (where, reason)
        if source:
            message += "\n  from %s" % source
        super().__init__(message)
        self.node, self.op, self.target, self.source = (node, op, target,
                                                        source)
        self.reason = reason


class TorchNotFound(Fp8MlirError, ModuleNotFoundError):
    """What was asked for needs PyTorch, and `import torch` failed. Still
    an ImportError (ModuleNotFoundError), as before."""

    def __init__(self, what, cause=None, version=None):
        if version:
            problem = ("needs PyTorch %s or later (float8 dtypes, "
                       "torch.library.custom_op); this Python (%s) has "
                       "PyTorch %s. Upgrade it" % (
                           MIN_TORCH, sys.executable, version))
        else:
            problem = ("needs PyTorch, which this Python (%s) cannot "
                       "import%s. Install it" % (
                           sys.executable, " (%s)" % cause if cause else ""))
        super().__init__(
            "%s %s with CUDA (https://pytorch.org/get-started/), or run "
            "where it is installed. Compiling and inspecting need no "
            "PyTorch: fp8_mlir.load(DIR) shows a program's signatures, "
            "fp8_mlir.compile_linear and `python3 -m fp8_mlir.aot` compile "
            "(docs/Python.md)" % (what, problem), name="torch")
        self.what = what


# The oldest PyTorch the bridge runs on: torch.library.custom_op.
MIN_TORCH = "2.4"


def torch_too_old(torch):
    """The version of `torch` where it lacks what the bridge uses, else
    None."""
    if hasattr(torch, "float8_e4m3fn") and \
            hasattr(getattr(torch, "library", None), "custom_op"):
        return None
    return getattr(torch, "__version__", "(unknown version)")


def import_torch_module(module, what):
    """fp8_mlir's module `module` (".nn") that needs PyTorch, imported;
    TorchNotFound naming `what` where torch cannot be imported."""
    try:
        import torch
    except ImportError as e:
        raise TorchNotFound(what, e) from None
    old = torch_too_old(torch)
    if old:
        raise TorchNotFound(what, version=old)
    return importlib.import_module(module, __package__)
