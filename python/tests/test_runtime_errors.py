"""The failures a process must survive, through the package on the fake
CUDA driver (runtime/test/FakeCuda.cpp, no GPU): a missing or corrupt PTX
file, a module that fails to load, device memory that runs out, a failed
launch. Each raises an exception naming the program, the function and the
kernel or buffer, and the next call with good inputs works; a program
destroyed after its caller released the CUDA context is still clean.

Needs libfp8rt ($FP8RT_LIBRARY) and the fake driver ($FP8RT_FAKE_CUDA, the
directory holding its libcuda.so.1; `make check-run` builds both in
build-run/). The cases run in a child process with the fake driver first on
LD_LIBRARY_PATH, which libfp8rt's dlopen reads at start-up, and which fails
(exit 70) on any call on what a destroyed context owned.
"""

import ctypes
import gc
import os
import subprocess
import sys
import threading
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from fp8_mlir import errors, runtime  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
TEST_DIR = os.path.join(REPO, "runtime", "test")


def fake_dir():
    """The fake driver's directory, or None."""
    path = os.environ.get("FP8RT_FAKE_CUDA") or os.path.join(
        REPO, "build-run", "runtime", "fake-cuda")
    return path if os.path.isfile(os.path.join(path, "libcuda.so.1")) \
        else None




class Buffer:
    """256-byte aligned host memory, which the fake driver takes as device
    memory: `ptr` for the library, `floats` to read and write."""

    def __init__(self, nbytes, fill=0):
        self._raw = (ctypes.c_char * (nbytes + 256))()
        self.ptr = (ctypes.addressof(self._raw) + 255) // 256 * 256
        ctypes.memset(self.ptr, fill, nbytes)
        self.nbytes = nbytes

    def floats(self):
        return (ctypes.c_float * (self.nbytes // 4)).from_address(self.ptr)

    def bytes(self):
        return ctypes.string_at(self.ptr, self.nbytes)


def child():
    """The cases, in the child process; raises on the first failure."""
    driver = ctypes.CDLL("libcuda.so.1")
    ctx = ctypes.c_void_p()
    assert driver.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0) == 0
    assert driver.cuCtxSetCurrent(ctx) == 0
    driver.fakeCudaSetMemoryLimit.argtypes = [ctypes.c_size_t]
    driver.fakeCudaFailLaunches.argtypes = [ctypes.c_char_p]

    def chain_args(seed):
        x, y = Buffer(4096), Buffer(4096)
        for i in range(1024):
            x.floats()[i] = (i + seed) % 7
            y.floats()[i] = i % 5 - 2
        return x, y, Buffer(4096, 0xCD), Buffer(4096, 0xCD)

    def run_chain(program, seed, stream=None):
        x, y, r0, r1 = chain_args(seed)
        program.chain.launch([x.ptr, y.ptr], [r0.ptr, r1.ptr], None, 0,
                             stream)
        xs, ys = x.floats(), y.floats()
        assert all(r0.floats()[i] == 2 * xs[i] + ys[i] + 1 and
                   r1.floats()[i] == 4 * xs[i] + 2 * ys[i]
                   for i in range(1024)), "chain's results"

    def run_tma(program, seed):
        x, r = Buffer(64000), Buffer(64000, 0xCD)
        ctypes.memmove(x.ptr, bytes((i * 31 + seed) % 256
                                    for i in range(64000)), 64000)
        program.tma.launch([x.ptr], [r.ptr], None, 0, None)
        assert x.bytes() == r.bytes(), "tma's result"

    def expect(exc_type, words, call):
        try:
            call()
        except exc_type as e:
            for w in words:
                assert w in str(e), "%r not in %r" % (w, str(e))
            print("ok: %s: %s" % (exc_type.__name__, e))
            return e
        raise AssertionError("no %s from %s" % (exc_type.__name__, words))

    # A missing PTX file: refused at load, naming the program, kernel, file.
    missing = os.path.join(TEST_DIR, "missing-ptx.json")
    e = expect(errors.RuntimeFailure,
               [missing, "kernel add_f32", "no-such.ptx"],
               lambda: runtime.Program(missing))
    assert e.program == missing and e.function is None and e.status == 3

    # A corrupt PTX file: the JIT refuses it at chain's first run, every
    # time, and tma, which does not launch it, still runs.
    corrupt = runtime.Program(os.path.join(TEST_DIR, "corrupt-ptx.json"))
    run_tma(corrupt, 1)
    for _ in range(2):
        e = expect(errors.RuntimeFailure,
                   ["running chain of " + corrupt.path, "kernel add_f32",
                    "corrupt.ptx.bin", "CUDA_ERROR_INVALID_PTX",
                    "no .entry"],
                   lambda: run_chain(corrupt, 0))
        assert e.function == "chain" and e.status == 4
    run_tma(corrupt, 2)
    # Its device memory is freed now, before the memory limit below (the
    # exception's traceback holds it too).
    e = corrupt = None
    gc.collect()

    program = runtime.Program(os.path.join(TEST_DIR, "plan"))
    # A wrong shape: refused before the library, naming the input.
    expect(ValueError, ["chain of " + program.path,
                        "input 1 (y: f32[4, 256])", "[256, 4]"],
           lambda: program.chain.check_arguments(
               [("f32", (4, 256), "cuda", True),
                ("f32", (256, 4), "cuda", True)]))
    # Out of device memory for the workspace, then memory back.
    driver.fakeCudaSetMemoryLimit(1024)
    expect(errors.RuntimeFailure,
           ["running chain of " + program.path, "the workspace",
            "8192 bytes", "CUDA_ERROR_OUT_OF_MEMORY"],
           lambda: run_chain(program, 0))
    driver.fakeCudaSetMemoryLimit(ctypes.c_size_t(-1).value)
    run_chain(program, 1)
    # A launch the driver refuses, then one it takes.
    driver.fakeCudaFailLaunches(b"add_f32")
    expect(errors.RuntimeFailure,
           ["running chain of " + program.path,
            "launch 1 (kernel add_f32", "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES"],
           lambda: run_chain(program, 2))
    driver.fakeCudaFailLaunches(None)
    run_chain(program, 3)
    run_tma(program, 4)

    # Two threads on two streams at once (ctypes lets go of the GIL in the
    # library): the serial runs' results.
    failed = []

    def runs(stream, seed):
        assert driver.cuCtxSetCurrent(ctx) == 0  # per thread
        try:
            for n in range(50):
                run_chain(program, seed + 2 * n, stream)
        except Exception as e:  # noqa: BLE001 (reported below)
            failed.append(repr(e))

    threads = [threading.Thread(target=runs, args=(16 * (n + 1), n))
               for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failed, failed
    print("ok: two threads, 50 runs each on their own streams")

    # The caller lets go of its context first, as at a framework's
    # teardown; the program still unloads its modules in it.
    assert driver.cuDevicePrimaryCtxRelease_v2(0) == 0
    del program
    print("all passed")


def pdl_child():
    """Runs the plan's chain once: the fake driver reports on stderr the
    kernels it is given with programmatic stream serialization."""
    driver = ctypes.CDLL("libcuda.so.1")
    ctx = ctypes.c_void_p()
    assert driver.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), 0) == 0
    assert driver.cuCtxSetCurrent(ctx) == 0
    program = runtime.Program(os.path.join(TEST_DIR, "plan"))
    x, y, r0, r1 = (Buffer(4096, fill) for fill in (1, 2, 0, 0))
    program.chain.launch([x.ptr, y.ptr], [r0.ptr, r1.ptr], None, 0, None)
    del program
    assert driver.cuDevicePrimaryCtxRelease_v2(0) == 0
    print("ran")


@unittest.skipUnless(runtime.available() and fake_dir(),
                     "needs libfp8rt and the fake libcuda (make check-run)")
class FakeDriverTest(unittest.TestCase):
    def child(self, flag, **env):
        """This file run with `flag` on the fake driver; its output."""
        env = dict(os.environ, LD_LIBRARY_PATH=fake_dir(),
                   FP8RT_LIBRARY=runtime.library().path, **env)
        proc = subprocess.run([sys.executable, __file__, flag],
                              env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              timeout=120)
        self.assertEqual(proc.returncode, 0, proc.stdout)
        return proc.stdout

    def test_errors_leave_the_process_usable(self):
        self.assertIn("all passed", self.child("--child"))

    def test_programmatic_launch_can_be_turned_off(self):
        """FP8_MLIR_PDL=0 launches every kernel plainly; by default the
        plan's "pdl" kernels get programmatic stream serialization."""
        said = "fake libcuda: programmatic launch of add_one_f32"
        for value, expected in (("1", True), ("0", False)):
            out = self.child("--pdl-child", FP8_MLIR_PDL=value)
            self.assertIn("ran", out)
            self.assertEqual(said in out, expected, out)


if __name__ == "__main__":
    if sys.argv[1:] == ["--child"]:
        child()
    elif sys.argv[1:] == ["--pdl-child"]:
        pdl_child()
    else:
        unittest.main()
