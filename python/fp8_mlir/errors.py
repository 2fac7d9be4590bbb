"""The package's exceptions. Bad arguments raise ValueError (or TypeError);
these name what is missing on the machine or failed in the compiler or the
runtime."""


class Fp8MlirError(Exception):
    """Base of the errors below."""


class RuntimeNotFound(Fp8MlirError):
    """libfp8rt.so is not where the package looks for it."""


class RuntimeFailure(Fp8MlirError):
    """libfp8rt refused a program or a run; the message is its own."""


class CompilerNotFound(Fp8MlirError):
    """No fp8-opt here and no cache entry for the graph asked for."""


class CompileError(Fp8MlirError):
    """fp8-opt rejected the graph; the message holds its diagnostics."""
