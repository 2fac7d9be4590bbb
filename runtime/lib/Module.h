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

} // namespace fp8rt

#endif // FP8RT_LIB_MODULE_H
