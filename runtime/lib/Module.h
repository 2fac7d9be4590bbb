//===- Module.h - Loading a kernel's PTX --------------------------*- C++
//-*-===//
//
// Both the runtime and fp8-run's per-kernel mode load a kernel the same way:
// the JIT's logs captured, the entry looked up, and dynamic shared memory
// above the default 48 KiB opted into.
//
//===----------------------------------------------------------------------===//

#ifndef FP8RT_LIB_MODULE_H
#define FP8RT_LIB_MODULE_H

#include "CudaDriver.h"
#include "Manifest.h"

#include <string>

namespace fp8rt {

struct LoadedKernel {
  CUmodule module = nullptr;
  CUfunction function = nullptr;
};

/// Loads `ptx` (the text of `kernel.ptxPath`) into the current context and
/// finds its entry. On failure, unloads what it loaded and returns false with
/// `error` naming the kernel, the driver's error and the JIT's error log.
/// `infoLog`, if given, receives the JIT's info log (verbose with `verbose`).
bool loadKernel(const CudaDriver &drv, const Kernel &kernel,
                const std::string &ptx, LoadedKernel &out, std::string &error,
                std::string *infoLog = nullptr, bool verbose = false);

/// Checks what the manifest promises of `ptx` (the text of
/// `kernel.ptxPath`) and a launch relies on: a kernel marked "pdl" must
/// contain griddepcontrol.wait, without which a programmatic launch could
/// read what the previous grid has not finished writing. False with the
/// reason in `error` otherwise.
bool checkKernelPtx(const Kernel &kernel, const std::string &ptx,
                    std::string &error);

/// Launches `function` (loaded from `kernel`) on `stream` with the manifest's
/// grid, block and shared memory. With `allowPdl` and a kernel marked "pdl",
/// through cuLaunchKernelEx with programmatic stream serialization, so that
/// it may start while the previous kernel on the stream still runs (it
/// waits for that kernel's completion itself); otherwise a plain launch.
CUresult launchKernel(const CudaDriver &drv, const Kernel &kernel,
                      CUfunction function, CUstream stream, void **params,
                      bool allowPdl);

} // namespace fp8rt

#endif // FP8RT_LIB_MODULE_H
