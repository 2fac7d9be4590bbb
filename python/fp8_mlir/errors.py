"""The package's exceptions. Bad arguments raise ValueError (or TypeError);
these name what is missing on the machine or failed in the compiler or the
runtime."""


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
