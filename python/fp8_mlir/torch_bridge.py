"""Calling a compiled function on PyTorch tensors.

`call(function, tensors)` checks the tensors against the function's
signature, allocates the outputs and the intermediates' workspace with
PyTorch's caching allocator, makes the tensors' CUDA context current on
this thread (libfp8rt runs in the current context; PyTorch's autograd
threads need not have one), and enqueues the launch plan on PyTorch's
current stream. The outputs are ready in stream order, like any PyTorch
op's.

`torch.ops.fp8_mlir.run(program_dir, function, tensors)` is the same call
as a registered custom op, so that torch.compile captures it in its graphs
(its fake implementation gives the outputs' shapes from the manifest).
"""

import ctypes
import threading

try:
    import torch
except ImportError as _e:
    from .errors import TorchNotFound
    raise TorchNotFound("fp8_mlir.torch_bridge", _e) from None
from .errors import TorchNotFound, torch_too_old  # noqa: E402

if torch_too_old(torch):
    raise TorchNotFound("fp8_mlir.torch_bridge", version=torch_too_old(torch))

from . import runtime

_TORCH_DTYPE = {
    "bf16": torch.bfloat16, "f16": torch.float16, "f32": torch.float32,
    "f64": torch.float64, "f8e4m3": torch.float8_e4m3fn,
    "f8e5m2": torch.float8_e5m2,
    "e8m0": getattr(torch, "float8_e8m0fnu", torch.uint8),
    "i1": torch.bool, "i8": torch.int8, "i32": torch.int32,
    "i64": torch.int64}

_programs = {}
_programs_lock = threading.Lock()


def torch_dtype(name):
    return _TORCH_DTYPE[name]


def load(path):
    """The Program at `path`, loaded once per process."""
    with _programs_lock:
        program = _programs.get(path)
        if program is None:
            program = _programs[path] = runtime.Program(path)
        return program


class _Driver:
    """The few CUDA driver calls that make a device's primary context (the
    one PyTorch uses) current on the calling thread."""

    def __init__(self):
        self.lib = ctypes.CDLL("libcuda.so.1")
        self.primary = {}
        self.local = threading.local()

    def make_current(self, ordinal):
        if getattr(self.local, "ordinal", None) == ordinal:
            current = ctypes.c_void_p()
            self.lib.cuCtxGetCurrent(ctypes.byref(current))
            if current.value and current.value == self.primary.get(ordinal):
                return
        ctx = self.primary.get(ordinal)
        if ctx is None:
            # PyTorch holds the primary context already; retaining it once
            # more per process keeps it alive as long as we may use it.
            dev, handle = ctypes.c_int(), ctypes.c_void_p()
            self._ok(self.lib.cuDeviceGet(ctypes.byref(dev), ordinal),
                     "cuDeviceGet")
            self._ok(self.lib.cuDevicePrimaryCtxRetain(ctypes.byref(handle),
                                                       dev),
                     "cuDevicePrimaryCtxRetain")
            ctx = self.primary[ordinal] = handle.value
        self._ok(self.lib.cuCtxSetCurrent(ctypes.c_void_p(ctx)),
                 "cuCtxSetCurrent")
        self.local.ordinal = ordinal

    @staticmethod
    def _ok(result, what):
        if result != 0:
            raise RuntimeError("%s failed with CUresult %d" % (what, result))


_driver = None


def _make_current(device):
    global _driver
    if _driver is None:
        _driver = _Driver()
    _driver.make_current(device.index if device.index is not None
                         else torch.cuda.current_device())


def check(function, tensors):
    """ValueError/TypeError for tensors that do not fit `function`."""
    tensors = list(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, torch.Tensor):
            raise TypeError("%s: %s is a %s, expected a torch.Tensor" %
                            (function.name, function.describe_input(i),
                             type(t).__name__))
    function.check_arguments([
        (str(t.dtype).replace("torch.", ""), tuple(t.shape), t.device.type,
         t.is_contiguous()) for t in tensors])
    devices = {t.device for t in tensors}
    if len(devices) > 1:
        raise ValueError("%s: inputs on several devices (%s)" % (
            function.name, ", ".join(sorted(map(str, devices)))))
    for i, t in enumerate(tensors):
        if t.numel() and t.data_ptr() % 16:
            raise ValueError("%s: %s is not 16-byte aligned (a view "
                             "at an odd offset?); pass a copy" %
                             (function.name, function.describe_input(i)))
    return tensors


def call(function, tensors, validate=True):
    """Runs `function` on `tensors`; a tuple of new output tensors (the
    tensor itself where there is one output)."""
    if validate:
        tensors = check(function, tensors)
    device = tensors[0].device if tensors else torch.device(
        "cuda", torch.cuda.current_device())
    outputs = [torch.empty(spec.shape, dtype=torch_dtype(spec.dtype),
                           device=device) for spec in function.outputs]
    workspace = None
    if function.workspace_bytes:
        # 512-byte aligned by the caching allocator, and reused only by
        # work that is later on this stream.
        workspace = torch.empty(function.workspace_bytes, dtype=torch.uint8,
                                device=device)
    _make_current(device)
    stream = torch.cuda.current_stream(device).cuda_stream
    function.launch([t.data_ptr() for t in tensors],
                    [t.data_ptr() for t in outputs],
                    workspace.data_ptr() if workspace is not None else None,
                    function.workspace_bytes if workspace is not None else 0,
                    stream)
    return outputs[0] if len(outputs) == 1 else tuple(outputs)


@torch.library.custom_op("fp8_mlir::run", mutates_args=())
def run(program: str, function: str,
        inputs: list[torch.Tensor]) -> list[torch.Tensor]:
    """Runs function `function` of the program in directory `program`."""
    out = call(load(program)[function], inputs)
    return list(out) if isinstance(out, tuple) else [out]


@run.register_fake
def _run_fake(program, function, inputs):
    fn = load(program)[function]
    device = inputs[0].device
    return [torch.empty(spec.shape, dtype=torch_dtype(spec.dtype),
                        device=device) for spec in fn.outputs]
