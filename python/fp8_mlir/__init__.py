"""fp8_mlir: fp8-mlir's compiled FP8 programs from Python.

    import fp8_mlir
    program = fp8_mlir.load("DIR")       # what fp8-opt --fp8-emit wrote
    y = program.linear_fwd(x, w)         # CUDA tensors, current stream

    layer = fp8_mlir.compile_linear(m, n, k, recipe="blockwise")
    model = fp8_mlir.convert(model, recipe="blockwise")   # needs torch
    fp8_mlir.nn.Linear(4096, 4096, recipe="rowwise")

The core (load, compile_linear, compile_mlp) needs no PyTorch; calling a
function on tensors, fp8_mlir.nn and convert do. See docs/Python.md.
"""

from . import errors
from .compiler import CHIPS, RECIPES, cache_root, find_compiler  # noqa: F401
from .errors import (CompileError, CompilerNotFound, EmitError,  # noqa
                     Fp8MlirError,
                     ProgramNotFound, RuntimeFailure, RuntimeNotFound,
                     TorchNotFound)
from .layers import LayerProgram, compile_linear, compile_mlp  # noqa: F401
from .runtime import Function, Program  # noqa: F401


def load(path):
    """The compiled program in directory `path` (or its manifest.json):
    its functions are attributes and items, callables on CUDA tensors."""
    return Program(path)


def __getattr__(name):
    # torch is imported only when the modules that need it are asked for.
    # (importlib: `from . import nn` here would call this again.)
    if name in ("nn", "convert"):
        nn = errors.import_torch_module(".nn", "fp8_mlir." + name)
        return nn if name == "nn" else nn.convert
    raise AttributeError("module 'fp8_mlir' has no attribute %r" % name)
