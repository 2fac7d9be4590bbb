//===- Gpu.h - the CUDA device, buffers and tensor maps ---------*- C++ -*-===//
//
// fp8-run's side of the CUDA driver API: the device, context and stream,
// device allocations and events freed on every exit path, and the TMA
// descriptors of tensormap parameters. Errors are reported as they happen.
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

/// "fp8-run: error: MESSAGE" on stderr.
void fail(const std::string &message);
/// "fp8-run: warning: MESSAGE" on stderr.
void warn(const std::string &message);

/// "[4096x4096]".
std::string shapeString(const std::vector<int64_t> &shape);

/// "a_map: a [4096x4096] f8e4m3, box [128x128], swizzle 128B"
std::string tensorMapString(const Kernel &kernel, const Param &map);

// The device, context and stream every kernel runs in.
class Gpu {
public:
  explicit Gpu(CudaDriver &drv) : drv(drv) {}
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
  /// must fit), its primary context and a stream.
  bool open(int ordinal, const std::string &chip);

  CudaDriver &drv;
  CUdevice device = 0;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  std::string name;
  int ccMajor = 0, ccMinor = 0, driverVersion = 0;
};

// Device allocations freed on every exit path.
class DeviceBuffers {
public:
  explicit DeviceBuffers(CudaDriver &drv) : drv(drv) {}
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
  CudaDriver &drv;
  std::vector<CUdeviceptr> ptrs;
};

class Events {
public:
  explicit Events(CudaDriver &drv) : drv(drv) {}
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
  CudaDriver &drv;
};

/// The 128 bytes of the TMA descriptor (CUtensorMap) of tensormap parameter
/// `map` of `kernel`, whose tensor lives at `base`.
bool encodeTensorMap(Gpu &gpu, const Kernel &kernel, const Param &map,
                     CUdeviceptr base, const std::string &where,
                     std::vector<uint8_t> &bytes);

} // namespace fp8run

#endif // FP8_TOOLS_FP8_RUN_GPU_H
