//===- CudaDriver.h - The CUDA driver API, loaded at run time ---*- C++ -*-===//
//
// libfp8rt calls the driver API of cuda.h through function pointers that it
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

#ifndef FP8RT_LIB_CUDADRIVER_H
#define FP8RT_LIB_CUDADRIVER_H

#include <cuda.h>

#include <string>

namespace fp8rt {

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
  X(cuDevicePrimaryCtxGetState)                                                \
  X(cuCtxSetCurrent)                                                           \
  X(cuCtxGetCurrent)                                                           \
  X(cuCtxGetDevice)                                                            \
  X(cuCtxSynchronize)                                                          \
  X(cuModuleLoadDataEx)                                                        \
  X(cuModuleGetFunction)                                                       \
  X(cuModuleUnload)                                                            \
  X(cuFuncGetAttribute)                                                        \
  X(cuFuncSetAttribute)                                                        \
  X(cuMemAlloc)                                                                \
  X(cuMemFree)                                                                 \
  X(cuMemcpyHtoD)                                                              \
  X(cuMemcpyHtoDAsync)                                                         \
  X(cuMemcpyDtoH)                                                              \
  X(cuMemcpyDtoDAsync)                                                         \
  X(cuMemsetD8)                                                                \
  X(cuMemsetD8Async)                                                           \
  X(cuLaunchKernel)                                                            \
  X(cuLaunchKernelEx)                                                          \
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

/// The process's driver table: libcuda.so.1 is opened, resolved and
/// initialized (cuInit) once, on the first call, by whichever thread gets
/// there first. Returns nullptr with the reason in `error` if it cannot be.
const CudaDriver *cudaDriver(std::string &error);

} // namespace fp8rt

#endif // FP8RT_LIB_CUDADRIVER_H
