//===- CudaDriver.cpp - The CUDA driver API, loaded at run time -----------===//
//
// The symbols looked up are the versioned names cuda.h maps each function to
// (e.g. cuMemAlloc_v2), so the pointers have exactly the signatures the
// header declares.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"

#include <dlfcn.h>

#include <mutex>

using namespace fp8rt;

#define FP8_STRINGIFY_IMPL(x) #x
// Expands cuda.h's macros first, so cuMemAlloc gives "cuMemAlloc_v2".
#define FP8_STRINGIFY(x) FP8_STRINGIFY_IMPL(x)

bool CudaDriver::load(std::string &error) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *why = dlerror();
    error = std::string("cannot load the CUDA driver library libcuda.so.1 (") +
            (why ? why : "unknown error") +
            "): no NVIDIA driver on this machine, so no CUDA device";
    return false;
  }
#define FP8_CUDA_RESOLVE(fn)                                                   \
  fn = reinterpret_cast<decltype(fn)>(dlsym(lib, FP8_STRINGIFY(fn)));          \
  if (!fn) {                                                                   \
    error = "the CUDA driver library libcuda.so.1 has no " FP8_STRINGIFY(      \
        fn) ": the driver is older than CUDA " FP8_STRINGIFY(CUDA_VERSION);    \
    return false;                                                              \
  }
  FP8_CUDA_DRIVER_FUNCTIONS(FP8_CUDA_RESOLVE)
#undef FP8_CUDA_RESOLVE
  return true;
}

std::string CudaDriver::describe(CUresult result) const {
  const char *name = nullptr;
  const char *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(result, &name);
  if (cuGetErrorString)
    cuGetErrorString(result, &text);
  std::string out = name ? name : "CUDA error " + std::to_string(int(result));
  if (text)
    out += std::string(" (") + text + ")";
  return out;
}

const CudaDriver *fp8rt::cudaDriver(std::string &error) {
  static CudaDriver driver;
  static std::string loadError;
  static std::once_flag once;
  std::call_once(once, [] {
    if (!driver.load(loadError))
      return;
    CUresult init = driver.cuInit(0);
    if (init == CUDA_ERROR_STUB_LIBRARY)
      loadError = "no CUDA device: libcuda.so.1 is the CUDA toolkit's stub, "
                  "not an NVIDIA driver";
    else if (init == CUDA_ERROR_NO_DEVICE)
      loadError = "no CUDA device (cuInit: " + driver.describe(init) + ")";
    else if (init != CUDA_SUCCESS)
      loadError = "cuInit: " + driver.describe(init) +
                  " (is an NVIDIA driver installed and a GPU visible?)";
  });
  if (!loadError.empty()) {
    error = loadError;
    return nullptr;
  }
  return &driver;
}
