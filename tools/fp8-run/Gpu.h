//===- Gpu.h - the CUDA device, buffers and tensor maps ---------*- C++ -*-===//
//
// fp8-run's side of the CUDA driver API: the device, context and stream,
// and device allocations and events freed on every exit path. The driver
// table, manifest reader and tensor-map encoding are libfp8rt's
// (runtime/lib). Errors are reported as they happen.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TOOLS_FP8_RUN_GPU_H
#define FP8_TOOLS_FP8_RUN_GPU_H

#include "CudaDriver.h"
#include "Manifest.h"

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace fp8run {

// The library's manifest types and driver table, by their plain names.
using namespace fp8rt;

/// "fp8-run: error: MESSAGE" on stderr.
void fail(const std::string &message);
/// "fp8-run: warning: MESSAGE" on stderr.
void warn(const std::string &message);

// The device, context and stream every kernel runs in.
class Gpu {
public:
  explicit Gpu(const CudaDriver &drv) : drv(drv) {}
  ~Gpu() {
    if (stream)
      drv.cuStreamDestroy(stream);
    if (context)
      drv.cuDevicePrimaryCtxRelease(device);
  }

  bool check(CUresult result, const std::string &what) {
    if (result == CUDA_SUCCESS)
      return true;
    fail(what + ": " + drv.describe(result));
    return false;
  }

  /// Opens device `ordinal` for kernels of `chip` (the compute capability
  /// must fit), its primary context (made current) and a stream.
  bool open(int ordinal, const std::string &chip);

  const CudaDriver &drv;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0, driverVersion = 0;
};

// Device allocations freed on every exit path.
class DeviceBuffers {
public:
  explicit DeviceBuffers(const CudaDriver &drv) : drv(drv) {}
  ~DeviceBuffers() {
    for (CUdeviceptr p : ptrs)
      drv.cuMemFree(p);
  }
  CUresult alloc(size_t bytes, CUdeviceptr &out) {
    // cuMemAlloc rejects 0 bytes; an empty parameter still needs a pointer.
    CUresult r = drv.cuMemAlloc(&out, std::max<size_t>(bytes, 1));
    if (r == CUDA_SUCCESS)
      ptrs.push_back(out);
    return r;
  }

private:
  const CudaDriver &drv;
  std::vector<CUdeviceptr> ptrs;
};

class Events {
public:
  explicit Events(const CudaDriver &drv) : drv(drv) {}
  ~Events() {
    for (CUevent e : events)
      drv.cuEventDestroy(e);
  }
  CUresult create(size_t n) {
    for (size_t i = 0; i < n; ++i) {
      CUevent e;
      CUresult r = drv.cuEventCreate(&e, CU_EVENT_DEFAULT);
      if (r != CUDA_SUCCESS)
        return r;
      events.push_back(e);
    }
    return CUDA_SUCCESS;
  }
  std::vector<CUevent> events;

private:
  const CudaDriver &drv;
};

} // namespace fp8run

#endif // FP8_TOOLS_FP8_RUN_GPU_H
