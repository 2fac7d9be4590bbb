//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// fp8-run calls the driver API of cuda.h through function pointers that it
// resolves from libcuda.so.1 with dlopen, instead of linking -lcuda: a binary
// linked against the toolkit's stub cannot even start where no NVIDIA driver
// is installed, while this one starts, reads and validates its manifest, and
// then says clearly that there is no driver or no device.
//
// Each member is named like the function it holds, so `driver.cuMemAlloc(..)`
// reads like the API; cuda.h's versioning macros (cuMemAlloc -> cuMemAlloc_v2)
// apply to the member names and to the symbols looked up alike.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TOOLS_FP8_RUN_CUDADRIVER_H
#define FP8_TOOLS_FP8_RUN_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace fp8run {

#define FP8_CUDA_DRIVER_FUNCTIONS(X)                                           \
  X(cuGetErrorName)                                                            \
  X(cuGetErrorString)                                                          \
  X(cuInit)                                                                    \
  X(cuDriverGetVersion)                                                        \
  X(cuDeviceGetCount)                                                          \
  X(cuDeviceGet)                                                               \
  X(cuDeviceGetName)                                                           \
  X(cuDeviceGetAttribute)                                                      \
  X(cuDevicePrimaryCtxRetain)                                                  \
  X(cuDevicePrimaryCtxRelease)                                                 \
  X(cuCtxSetCurrent)                                                           \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleGetFunction)                                                       \
  X(cuModuleUnload)                                                            \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8)                                                                \
  X(cuLaunchKernel)                                                            \
  X(cuStreamCreate)                                                            \
  X(cuStreamDestroy)                                                           \
  X(cuStreamSynchronize)                                                       \
  X(cuEventCreate)                                                             \
  X(cuEventRecord)                                                             \
  X(cuEventSynchronize)                                                        \
  X(cuEventElapsedTime)                                                        \
  X(cuEventDestroy)                                                            \
  X(cuTensorMapEncodeTiled)

struct CudaDriver {
#define FP8_CUDA_DECLARE(fn) decltype(&::fn) fn = nullptr;
  FP8_CUDA_DRIVER_FUNCTIONS(FP8_CUDA_DECLARE)
#undef FP8_CUDA_DECLARE

  // Opens libcuda.so.1 and resolves every function above. On failure returns
  // false and says why in `error`.
  bool load(std::string &error);

  // "CUDA_ERROR_NAME (description)" for a result code.
  std::string describe(CUresult result) const;
};

} // namespace fp8run

#endif // FP8_TOOLS_FP8_RUN_CUDADRIVER_H
