"""libfp8rt through ctypes: load a compiled program, call its functions.

A program is the directory `fp8-opt --fp8-emit=dir=DIR` writes
(docs/Manifest.md). `Program(dir)` reads it (no GPU needed); each function
is a `Function`, a callable on CUDA tensors that enqueues the function's
launch plan on PyTorch's current stream and returns new output tensors.

The library is found, in order, at $FP8RT_LIBRARY, next to the package
(installed layouts), or in the repository's build directories
(build-run/lib, build/lib: `cmake -S tools/fp8-run -B build-run && ninja
-C build-run` builds it). Only the checks of arguments that need no tensor
library live here; those on torch tensors are in `Function.__call__`.

Without libfp8rt a program's signatures are read from its manifest.json
alone (so `python3 -m fp8_mlir.aot`, which only compiles, runs anywhere
fp8-opt does); running a function then raises RuntimeNotFound.
"""

import ctypes
import difflib
import json
import os
import shutil
import threading

from . import errors, names

# fp8rt.h's enums, in the same order.
DTYPES = ("bf16", "f16", "f32", "f64", "f8e4m3", "f8e5m2", "e8m0", "i1",
          "i8", "i32", "i64")
DTYPE_CODE = {name: code for code, name in enumerate(DTYPES)}
_STATUS = {1: "invalid argument", 2: "not found", 3: "manifest", 4: "CUDA"}


class _Tensor(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int),
                ("shape", ctypes.POINTER(ctypes.c_int64))]


class _TensorInfo(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("dtype", ctypes.c_int),
                ("rank", ctypes.c_int),
                ("shape", ctypes.POINTER(ctypes.c_int64)),
                ("bytes", ctypes.c_size_t)]


class _Signature(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("location", ctypes.c_char_p),
                ("num_inputs", ctypes.c_int), ("num_outputs", ctypes.c_int),
                ("num_launches", ctypes.c_int),
                ("workspace_bytes", ctypes.c_size_t),
                ("zeroed_bytes", ctypes.c_size_t)]


_REPO = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
_lib = None
_lib_lock = threading.Lock()


def library_candidates():
    """Where libfp8rt.so is looked for, in order."""
    env = os.environ.get("FP8RT_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.abspath(__file__))
    found = [os.path.join(here, "libfp8rt.so"),
             os.path.join(_REPO, "build-run", "lib", "libfp8rt.so"),
             os.path.join(_REPO, "build", "lib", "libfp8rt.so"),
             os.path.join(_REPO, "build-rt", "lib", "libfp8rt.so")]
    # Installed by `cmake --install` (PREFIX/lib): beside fp8-opt's
    # PREFIX/bin, or from the sources under PREFIX/share/fp8-mlir/python.
    fp8_opt = shutil.which("fp8-opt")
    if fp8_opt:
        found.append(os.path.join(os.path.dirname(os.path.dirname(
            os.path.realpath(fp8_opt))), "lib", "libfp8rt.so"))
    if _REPO.endswith(os.path.join("share", "fp8-mlir")):
        found.append(os.path.join(_REPO, "..", "..", "lib", "libfp8rt.so"))
    return [os.path.normpath(p) for p in found]


def available():
    """Whether libfp8rt can be loaded here (tests skip what needs it)."""
    try:
        library()
        return True
    except errors.RuntimeNotFound:
        return False


def library():
    """libfp8rt, loaded once, with its prototypes declared."""
    global _lib
    with _lib_lock:
        if _lib is not None:
            return _lib
        tried = library_candidates()
        path = next((p for p in tried if os.path.isfile(p)), None)
        if path is None:
            raise errors.RuntimeNotFound(
                "libfp8rt.so not found (tried %s); build it with `cmake -S "
                "tools/fp8-run -B build-run -G Ninja && ninja -C build-run` "
                "or set FP8RT_LIBRARY" % ", ".join(tried))
        lib = ctypes.CDLL(path)
        P = ctypes.c_void_p
        proto = {
            "fp8rt_load": (ctypes.c_int, [ctypes.c_char_p,
                                          ctypes.POINTER(P)]),
            "fp8rt_destroy": (None, [P]),
            "fp8rt_num_functions": (ctypes.c_int, [P]),
            "fp8rt_function_name": (ctypes.c_char_p, [P, ctypes.c_int]),
            "fp8rt_function_info": (ctypes.c_int, [
                P, ctypes.c_char_p, ctypes.POINTER(_Signature)]),
            "fp8rt_function_input": (ctypes.c_int, [
                P, ctypes.c_char_p, ctypes.c_int,
                ctypes.POINTER(_TensorInfo)]),
            "fp8rt_function_output": (ctypes.c_int, [
                P, ctypes.c_char_p, ctypes.c_int,
                ctypes.POINTER(_TensorInfo)]),
            "fp8rt_run": (ctypes.c_int, [
                P, ctypes.c_char_p, ctypes.POINTER(_Tensor), ctypes.c_int,
                ctypes.POINTER(_Tensor), ctypes.c_int, P, ctypes.c_size_t,
                P]),
            "fp8rt_last_error": (ctypes.c_char_p, []),
            "fp8rt_set_programmatic_launch": (None, [P, ctypes.c_int]),
        }
        for name, (res, args) in proto.items():
            fn = getattr(lib, name)
            fn.restype, fn.argtypes = res, args
        lib.path = path
        _lib = lib
        return lib


def _check(lib, status, what, program=None, function=None):
    if status != 0:
        message = (lib.fp8rt_last_error() or b"").decode()
        raise errors.RuntimeFailure("%s: %s (%s)" % (
            what, message, _STATUS.get(status, "status %d" % status)),
            program=program, function=function, status=status)


class _ManifestSignatures:
    """Stands in for libfp8rt's signature queries where the library is
    missing: the same answers, read from manifest.json (docs/Manifest.md)
    without its validation."""

    def __init__(self, path, missing):
        self.missing = missing
        manifest = path
        if os.path.isdir(path):
            manifest = os.path.join(path, "manifest.json")
        try:
            with open(manifest) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            raise errors.RuntimeFailure(
                "loading %s: %s (and libfp8rt, which would check it, is "
                "missing: %s)" % (path, e, missing), program=path)
        self.functions = {f["name"]: f for f in data.get("functions", [])}

    def signature(self, name):
        f = self.functions[name]

        def spec(i):
            b = f["buffers"][i]
            return TensorSpec(b["name"], b["dtype"], b["shape"], b["bytes"])

        return (f.get("location", ""), len(f.get("launches", [])),
                f.get("workspace_bytes", 0), f.get("zeroed_bytes", 0),
                tuple(spec(i) for i in f["arguments"]),
                tuple(spec(i) for i in f["results"]))


class TensorSpec:
    """One input or output of a function: name, dtype name, shape, and
    role (the graph's fp8.role, "amax_history", "saved", "monitor", or
    None). Names and roles come from the graph the program was compiled
    from where it can be read (fp8_mlir.names); else the manifest's
    `arg<i>` / `result<i>`."""

    def __init__(self, name, dtype, shape, nbytes, role=None):
        self.name, self.dtype = name, dtype
        self.shape, self.nbytes = tuple(shape), nbytes
        self.role = role

    def __repr__(self):
        return "%s: %s%s%s" % (self.name, self.dtype, list(self.shape),
                               " (%s)" % self.role if self.role else "")


class Function:
    """One function of a program. Call it with CUDA tensors (see
    fp8_mlir.torch_bridge); `inputs`/`outputs` describe what it takes."""

    def __init__(self, program, name):
        self.program, self.name = program, name
        lib, handle = program._lib, program._handle
        if lib is None:
            (self.location, self.num_launches, self.workspace_bytes,
             self.zeroed_bytes, self.inputs,
             self.outputs) = program._manifest.signature(name)
            self._name_tensors()
            return
        sig = _Signature()
        _check(lib, lib.fp8rt_function_info(handle, name.encode(),
                                            ctypes.byref(sig)),
               "function %s" % name)
        self.location = (sig.location or b"").decode()
        self.num_launches = sig.num_launches
        self.workspace_bytes = sig.workspace_bytes
        self.zeroed_bytes = sig.zeroed_bytes

        def specs(getter, count):
            out = []
            for i in range(count):
                info = _TensorInfo()
                _check(lib, getter(handle, name.encode(), i,
                                   ctypes.byref(info)),
                       "function %s, tensor %d" % (name, i))
                out.append(TensorSpec(
                    info.name.decode(), DTYPES[info.dtype],
                    [info.shape[d] for d in range(info.rank)], info.bytes))
            return tuple(out)

        self.inputs = specs(lib.fp8rt_function_input, sig.num_inputs)
        self.outputs = specs(lib.fp8rt_function_output, sig.num_outputs)
        self._name_tensors()

    def _name_tensors(self):
        """The graph's names and roles (fp8_mlir.names), where the
        program's description has them for every input and output."""
        found = self.program._names.get(self.name)
        if not found:
            return
        ins, outs = found
        if len(ins) == len(self.inputs) and len(outs) == len(self.outputs):
            for spec, (name, role) in zip(self.inputs + self.outputs,
                                          ins + outs):
                spec.name, spec.role = name, role

    def check_arguments(self, args, role="input"):
        """Checks (dtype name, shape, device kind, contiguous) tuples against
        the signature; raises ValueError naming the program, the function
        and the first mismatching tensor."""
        specs = self.inputs if role == "input" else self.outputs
        name = "%s of %s" % (self.name, self.program.path)
        if len(args) != len(specs):
            raise ValueError("%s takes %d %ss (%s), got %d" % (
                name, len(specs), role,
                ", ".join(map(repr, specs)), len(args)))
        for i, (spec, (dtype, shape, device, contiguous)) in enumerate(
                zip(specs, args)):
            what = "%s: %s %d (%r)" % (name, role, i, spec)
            if device != "cuda":
                raise ValueError("%s is on %s, expected a CUDA tensor" %
                                 (what, device))
            if dtype not in compatible_dtypes(spec.dtype):
                raise ValueError("%s has dtype %s, expected %s" %
                                 (what, dtype, spec.dtype))
            if tuple(shape) != spec.shape:
                raise ValueError("%s has shape %s, expected %s" %
                                 (what, list(shape), list(spec.shape)))
            if not contiguous:
                raise ValueError("%s is not contiguous (row-major); call "
                                 ".contiguous() first" % what)

    def launch(self, input_ptrs, output_ptrs, workspace, workspace_bytes,
               stream):
        """Enqueues the plan on `stream` with raw device pointers (ints),
        in the order of `inputs` and `outputs`; no checks beyond the
        library's own."""
        lib = self.program._lib
        if lib is None:
            raise errors.RuntimeNotFound(
                "running %s of %s: %s" % (self.name, self.program.path,
                                          self.program._manifest.missing))

        def tensors(specs, ptrs):
            arr = (_Tensor * max(1, len(specs)))()
            keep = []
            for i, (spec, ptr) in enumerate(zip(specs, ptrs)):
                shape = (ctypes.c_int64 * max(1, len(spec.shape)))(
                    *spec.shape)
                keep.append(shape)
                arr[i] = _Tensor(ptr, DTYPE_CODE[spec.dtype],
                                 len(spec.shape), shape)
            return arr, keep

        ins, keep_in = tensors(self.inputs, input_ptrs)
        outs, keep_out = tensors(self.outputs, output_ptrs)
        status = lib.fp8rt_run(self.program._handle, self.name.encode(), ins,
                               len(self.inputs), outs, len(self.outputs),
                               workspace, workspace_bytes, stream)
        del keep_in, keep_out
        _check(lib, status, "running %s of %s" % (self.name,
                                                  self.program.path),
               program=self.program.path, function=self.name)

    def describe_input(self, i):
        """"input 1 (w: bf16[384, 512] (weight))", for messages."""
        if 0 <= i < len(self.inputs):
            return "input %d (%r)" % (i, self.inputs[i])
        return "input %d (one too many: it takes %d)" % (i, len(self.inputs))

    def __call__(self, *args):
        return errors.import_torch_module(
            ".torch_bridge", "calling %s of %s" % (
                self.name, self.program.path)).call(self, args)

    def __repr__(self):
        return "<fp8_mlir function %s(%s) -> (%s), %d launches>" % (
            self.name, ", ".join(map(repr, self.inputs)),
            ", ".join(map(repr, self.outputs)), self.num_launches)


def compatible_dtypes(name):
    """The dtype names (torch's, without the "torch." prefix, or ours) a
    tensor may have to bind to a parameter of manifest dtype `name`."""
    torch_names = {
        "bf16": ("bfloat16",), "f16": ("float16",), "f32": ("float32",),
        "f64": ("float64",), "f8e4m3": ("float8_e4m3fn", "uint8"),
        "f8e5m2": ("float8_e5m2", "uint8"),
        "e8m0": ("float8_e8m0fnu", "uint8"), "i1": ("bool", "uint8"),
        "i8": ("int8",), "i32": ("int32",), "i64": ("int64",)}
    return (name,) + torch_names.get(name, ())


def _manifest_path(path):
    """The manifest.json of the program at `path` (its directory or the
    manifest itself); ProgramNotFound where there is none."""
    if os.path.isdir(path):
        manifest = os.path.join(path, "manifest.json")
        if not os.path.isfile(manifest):
            raise errors.ProgramNotFound(
                "%s is not a compiled program: it has no manifest.json "
                "(`fp8-opt ... --fp8-emit=dir=%s` writes one; "
                "fp8_mlir.compile_linear returns a program's path)" % (
                    path, path))
        return manifest
    if os.path.isfile(path):
        return path
    raise errors.ProgramNotFound(
        "%s does not exist: fp8_mlir.load takes the directory that "
        "`fp8-opt ... --fp8-emit=dir=DIR` wrote, or its manifest.json" %
        path)


def _read_names(manifest):
    """fp8_mlir.names.describe of the manifest, or {} where it cannot be
    read (libfp8rt then says why, or _ManifestSignatures does)."""
    try:
        with open(manifest) as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict):
        return {}
    return names.describe(data, os.path.dirname(manifest))


class Program:
    """A compiled program: its functions by name. Loading reads the
    manifest and the PTX; kernels are JIT-compiled per CUDA context on
    first run. Without libfp8rt only the manifest is read: the functions'
    signatures are there, and `runnable` is False."""

    def __init__(self, path):
        self.path = os.path.abspath(path)
        self._handle = None
        self._lib = None
        manifest = _manifest_path(self.path)
        self._names = _read_names(manifest)
        try:
            self._lib = library()
        except errors.RuntimeNotFound as e:
            self._lib, self.runnable = None, False
            self._manifest = _ManifestSignatures(self.path, str(e))
            self.functions = {n: Function(self, n)
                              for n in self._manifest.functions}
            return
        self.runnable = True
        handle = ctypes.c_void_p()
        _check(self._lib, self._lib.fp8rt_load(self.path.encode(),
                                               ctypes.byref(handle)),
               "loading %s" % self.path, program=self.path)
        self._handle = handle
        names = [self._lib.fp8rt_function_name(handle, i).decode()
                 for i in range(self._lib.fp8rt_num_functions(handle))]
        self.functions = {n: Function(self, n) for n in names}
        if os.environ.get("FP8_MLIR_PDL", "1") == "0":
            self.set_programmatic_launch(False)

    def set_programmatic_launch(self, enabled):
        """Programmatic dependent launch (on unless FP8_MLIR_PDL=0): each
        kernel may start while the one before it drains. Off, every
        kernel is launched plainly, for runs enqueued from now on; a
        profile then times each kernel without its neighbour's tail."""
        if self._handle is not None:
            self._lib.fp8rt_set_programmatic_launch(self._handle,
                                                    int(bool(enabled)))

    def _no_function(self, name):
        """The message for a function the program does not have."""
        known = list(self.functions)
        close = difflib.get_close_matches(str(name), known, n=1)
        return "program %s has no function %r%s; its functions: %s" % (
            self.path, name,
            " (did you mean %r?)" % close[0] if close else "",
            ", ".join(known) or "none")

    def __getitem__(self, name):
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(self._no_function(name)) from None

    def __getattr__(self, name):
        functions = self.__dict__.get("functions")
        if functions is None or name.startswith("__"):
            raise AttributeError(name)
        if name in functions:
            return functions[name]
        raise AttributeError(self._no_function(name))

    def __dir__(self):
        return sorted(set(super().__dir__()) |
                      set(self.__dict__.get("functions", ())))

    def __del__(self):
        handle = getattr(self, "_handle", None)
        if handle:
            self._lib.fp8rt_destroy(handle)
            self._handle = None

    def __repr__(self):
        return "<fp8_mlir program %s: %s>" % (self.path,
                                              ", ".join(self.functions))
