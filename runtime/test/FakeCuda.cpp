//===- FakeCuda.cpp - A CPU stand-in for libcuda.so.1 in tests ------------===//
//
// libfp8rt (and so fp8-run) opens libcuda.so.1 with dlopen, so a test can put
// this library first on LD_LIBRARY_PATH and run everything after the manifest
// on a machine without a GPU: allocation (host memory, so a "device pointer"
// is a host pointer and a test may pass its own host buffers), copies,
// tensor-map encoding, launches, events, dumps and results. It implements
// the driver functions the library resolves and emulates kernels by name
// (by prefix, so a plan may have several instances of one): copy_f32
// (fp8-run's test/copy) and tma_copy_f8 (test/tma), which reads its input
// through the tensor map it is passed, so a wrong map (address, dimensions,
// strides, box) gives a wrong output; and for the launch plans of
// runtime/test/plan, f32 kernels that make the order of launches visible in
// the results (add_one, scale2, add, ws_add that adds its zeroed workspace)
// and invert_u8. Other kernels do nothing. New allocations are filled with
// 0xCD bytes, so memory the runtime fails to zero shows. Every event is
// 0.5 ms after the one before, so timings are predictable.
//
// cuLaunchKernelEx takes programmatic stream serialization (PDL) only for a
// kernel whose PTX has griddepcontrol.wait, and fails the launch otherwise,
// as the race it would open on a GPU cannot be seen here; the first such
// launch of each kernel is reported on stderr, so tests see the attribute
// arrive.
//
// Streams are ordered as the driver orders them, in one respect that has
// bitten: cuMemcpyHtoD (from pageable memory) and cuMemsetD8 run on the
// legacy stream and may return before they land, and a stream created
// CU_STREAM_NON_BLOCKING does not wait for the legacy stream. So here they
// land late: when something ordered after the legacy stream runs (work on
// it or on a blocking stream, a copy back, a synchronization). A launch on
// a non-blocking stream that relied on them reads stale memory, and the
// late copy then overwrites what it wrote.
//
// cuTensorMapEncodeTiled checks what the driver documents and stores its
// arguments in the 128 bytes; only this library reads them back.
//
// The primary context lives as the driver's does: created by the first
// cuDevicePrimaryCtxRetain, destroyed by the release that drops the last
// reference, and none is current until the caller makes it so. Modules and
// allocations belong to the context they were made in; unloading, freeing or
// making current what a destroyed context owned is a caller's bug (on a GPU,
// compute-sanitizer reports it): it fails as the driver's call does, is
// reported on stderr, and makes the process exit with status 70 at the end.
// PTX with no .entry fails to load (CUDA_ERROR_INVALID_PTX, with a JIT error
// log). fakeCudaSetMemoryLimit and fakeCudaFailLaunches, found with dlsym,
// let a test run out of device memory or fail a kernel's launches.
//
//===----------------------------------------------------------------------===//

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

struct FakeMap {
  uint64_t magic;
  uint64_t address;
  uint64_t dims[2];
  uint64_t stride;
  uint32_t box[2];
  uint32_t dataType;
  uint32_t swizzle;
};
constexpr uint64_t mapMagic = 0xF8F8'7E45'0A11'0C8Dull;
static_assert(sizeof(FakeMap) <= sizeof(CUtensorMap), "FakeMap size");

struct Module {
  std::string ptx;
  int generation; // Of the context it was loaded in.
};
struct Function {
  std::string name;
  bool waitsForGrid = false; // Its PTX has griddepcontrol.wait.
  bool launchedProgrammatically = false;
};

int eventClock = 0;
int primaryContext;
CUcontext primaryHandle() {
  return reinterpret_cast<CUcontext>(&primaryContext);
}
// References to the primary context; it exists while there are any. Each
// time it is created anew its generation grows, so what an earlier one owned
// can be told apart.
// Retained and released from any thread; the current context is per
// thread, as the driver's.
std::atomic<int> primaryRefs{0};
int generation = 0;
thread_local CUcontext currentContext = nullptr;
std::map<std::string, Function *> functions;
std::map<CUdeviceptr, int> allocations; // cuMemAlloc's, by generation.
size_t memoryLimit = SIZE_MAX, memoryUsed = 0;
std::map<CUdeviceptr, size_t> allocationBytes;
std::string failingLaunches; // A kernel-name prefix whose launches fail.

// A caller's misuse of the driver: reported now, failing the process at exit.
int misuses = 0;
CUresult misuse(CUresult result, const std::string &what) {
  std::fprintf(stderr, "fake libcuda: error: %s\n", what.c_str());
  ++misuses;
  return result;
}
struct ExitCheck {
  ~ExitCheck() {
    if (!misuses)
      return;
    std::fprintf(stderr,
                 "fake libcuda: %d call(s) on what a destroyed context "
                 "owned\n",
                 misuses);
    std::fflush(stderr);
    std::_Exit(70);
  }
} exitCheck;

bool primaryAlive() { return primaryRefs > 0; }
// Whether a live context is current, as allocating and loading need.
bool contextCurrent() {
  return currentContext == primaryHandle() && primaryAlive();
}

size_t elementSize(CUtensorMapDataType t) {
  switch (t) {
  case CU_TENSOR_MAP_DATA_TYPE_UINT8:
    return 1;
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT16:
  case CU_TENSOR_MAP_DATA_TYPE_BFLOAT16:
    return 2;
  case CU_TENSOR_MAP_DATA_TYPE_FLOAT32:
    return 4;
  default:
    return 0;
  }
}

unsigned swizzleSpan(CUtensorMapSwizzle s) {
  switch (s) {
  case CU_TENSOR_MAP_SWIZZLE_32B:
    return 32;
  case CU_TENSOR_MAP_SWIZZLE_64B:
    return 64;
  case CU_TENSOR_MAP_SWIZZLE_128B:
    return 128;
  default:
    return 0;
  }
}

// test/tma: each CTA moves one box of a byte matrix; out is [dims[1],
// dims[0]] row-major, written where in bounds.
CUresult tmaCopy(const unsigned grid[3], void **params) {
  auto *out = *static_cast<uint8_t **>(params[1]);
  auto *map = *static_cast<const FakeMap **>(params[2]);
  if (map->magic != mapMagic || map->dataType != CU_TENSOR_MAP_DATA_TYPE_UINT8)
    return CUDA_ERROR_ILLEGAL_ADDRESS;
  const auto *in = reinterpret_cast<const uint8_t *>(map->address);
  uint64_t cols = map->dims[0], rows = map->dims[1];
  for (unsigned by = 0; by < grid[1]; ++by)
    for (unsigned bx = 0; bx < grid[0]; ++bx)
      for (uint64_t r = 0; r < map->box[1]; ++r)
        for (uint64_t c = 0; c < map->box[0]; ++c) {
          uint64_t y = by * uint64_t(map->box[1]) + r;
          uint64_t x = bx * uint64_t(map->box[0]) + c;
          if (y < rows && x < cols)
            out[y * cols + x] = in[y * map->stride + x];
        }
  return CUDA_SUCCESS;
}

bool startsWith(const std::string &s, const char *prefix) {
  return s.compare(0, std::strlen(prefix), prefix) == 0;
}

template <typename T> T *param(void **params, int n) {
  return *static_cast<T **>(params[n]);
}

// runtime/test/plan's kernels: n elements, one per thread.
bool planKernel(const std::string &name, size_t n, void **params) {
  if (startsWith(name, "add_one_f32")) {
    for (size_t i = 0; i < n; ++i)
      param<float>(params, 1)[i] = param<float>(params, 0)[i] + 1;
  } else if (startsWith(name, "scale2_f32")) {
    for (size_t i = 0; i < n; ++i)
      param<float>(params, 1)[i] = param<float>(params, 0)[i] * 2;
  } else if (startsWith(name, "add_f32")) {
    for (size_t i = 0; i < n; ++i)
      param<float>(params, 2)[i] =
          param<float>(params, 0)[i] + param<float>(params, 1)[i];
  } else if (startsWith(name, "ws_add_f32")) {
    // Adds its two-word workspace, which must be zero, and leaves it zero
    // as a real kernel's counters would be.
    const int64_t *ws = param<int64_t>(params, 2);
    for (size_t i = 0; i < n; ++i)
      param<float>(params, 1)[i] =
          param<float>(params, 0)[i] + float(ws[0] + ws[1]);
  } else if (startsWith(name, "invert_u8")) {
    for (size_t i = 0; i < n; ++i)
      param<uint8_t>(params, 1)[i] = uint8_t(~param<uint8_t>(params, 0)[i]);
  } else {
    return false;
  }
  return true;
}

/// The flags of the streams cuStreamCreate made: whether each waits for
/// the legacy stream.
std::map<CUstream, unsigned> streamFlags;

/// Whether work on `stream` is ordered after the legacy stream's: the
/// legacy stream itself (null or CU_STREAM_LEGACY) and blocking streams. A
/// handle this library did not make (a test's stand-in) is taken as
/// non-blocking.
bool isLegacyOrdered(CUstream stream) {
  if (!stream || stream == CU_STREAM_LEGACY || stream == CU_STREAM_PER_THREAD)
    return true;
  auto it = streamFlags.find(stream);
  return it != streamFlags.end() && !(it->second & CU_STREAM_NON_BLOCKING);
}

/// The legacy stream's copies and fills not yet landed, in order.
struct PendingWrite {
  CUdeviceptr dst;
  std::vector<uint8_t> bytes;
};
std::vector<PendingWrite> legacyPending;

void flushLegacy() {
  for (const PendingWrite &w : legacyPending)
    std::memcpy(reinterpret_cast<void *>(uintptr_t(w.dst)), w.bytes.data(),
                w.bytes.size());
  legacyPending.clear();
}

/// Work on `stream` starts after the legacy stream's where it is ordered so.
void orderAfterLegacy(CUstream stream) {
  if (isLegacyOrdered(stream))
    flushLegacy();
}
} // namespace

extern "C" {

CUresult cuGetErrorName(CUresult error, const char **name) {
  switch (error) {
#define FAKE_CUDA_NAME(code)                                                   \
  case code:                                                                   \
    *name = #code;                                                             \
    break;
    FAKE_CUDA_NAME(CUDA_SUCCESS)
    FAKE_CUDA_NAME(CUDA_ERROR_INVALID_VALUE)
    FAKE_CUDA_NAME(CUDA_ERROR_OUT_OF_MEMORY)
    FAKE_CUDA_NAME(CUDA_ERROR_INVALID_CONTEXT)
    FAKE_CUDA_NAME(CUDA_ERROR_CONTEXT_IS_DESTROYED)
    FAKE_CUDA_NAME(CUDA_ERROR_INVALID_PTX)
    FAKE_CUDA_NAME(CUDA_ERROR_NOT_FOUND)
    FAKE_CUDA_NAME(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES)
    FAKE_CUDA_NAME(CUDA_ERROR_NOT_SUPPORTED)
    FAKE_CUDA_NAME(CUDA_ERROR_ILLEGAL_ADDRESS)
#undef FAKE_CUDA_NAME
  default:
    *name = "CUDA_ERROR_FAKE";
  }
  return CUDA_SUCCESS;
}
CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "fp8-run's fake CUDA driver";
  return CUDA_SUCCESS;
}
CUresult cuInit(unsigned) { return CUDA_SUCCESS; }
CUresult cuDriverGetVersion(int *version) {
  *version = CUDA_VERSION;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetCount(int *count) {
  *count = 1;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGet(CUdevice *device, int) {
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetName(char *name, int len, CUdevice) {
  std::strncpy(name, "fake CUDA device (CPU)", size_t(len));
  return CUDA_SUCCESS;
}
CUresult cuDeviceGetAttribute(int *value, CUdevice_attribute attr, CUdevice) {
  *value = attr == CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR ? 9 : 0;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice) {
  if (primaryRefs++ == 0)
    ++generation;
  *ctx = primaryHandle();
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxRelease(CUdevice) {
  if (!primaryAlive())
    return misuse(CUDA_ERROR_INVALID_CONTEXT,
                  "cuDevicePrimaryCtxRelease: no reference is held");
  --primaryRefs;
  return CUDA_SUCCESS;
}
CUresult cuDevicePrimaryCtxGetState(CUdevice, unsigned *flags, int *active) {
  *flags = 0;
  *active = primaryAlive();
  return CUDA_SUCCESS;
}
CUresult cuCtxSetCurrent(CUcontext ctx) {
  if (ctx == primaryHandle() && !primaryAlive())
    return misuse(CUDA_ERROR_CONTEXT_IS_DESTROYED,
                  "cuCtxSetCurrent: the context is destroyed");
  currentContext = ctx;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetCurrent(CUcontext *ctx) {
  *ctx = currentContext;
  return CUDA_SUCCESS;
}
CUresult cuCtxGetDevice(CUdevice *device) {
  if (!contextCurrent())
    return CUDA_ERROR_INVALID_CONTEXT;
  *device = 0;
  return CUDA_SUCCESS;
}
CUresult cuCtxSynchronize() {
  flushLegacy();
  return CUDA_SUCCESS;
}

CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned numOptions, CUjit_option *options,
                            void **values) {
  if (!contextCurrent())
    return CUDA_ERROR_INVALID_CONTEXT;
  std::string ptx = static_cast<const char *>(image);
  if (ptx.find(".entry ") == std::string::npos) {
    for (unsigned n = 0; n < numOptions; ++n)
      if (options[n] == CU_JIT_ERROR_LOG_BUFFER)
        std::snprintf(static_cast<char *>(values[n]), 64,
                      "fake ptxas: no .entry in this PTX");
    return CUDA_ERROR_INVALID_PTX;
  }
  *module = reinterpret_cast<CUmodule>(new Module{ptx, generation});
  return CUDA_SUCCESS;
}
CUresult cuModuleGetFunction(CUfunction *fn, CUmodule module,
                             const char *name) {
  const std::string &ptx = reinterpret_cast<Module *>(module)->ptx;
  if (ptx.find(std::string(".entry ") + name + "(") == std::string::npos)
    return CUDA_ERROR_NOT_FOUND;
  Function *&f = functions[name];
  if (!f)
    f = new Function{name};
  f->waitsForGrid = ptx.find("griddepcontrol.wait") != std::string::npos;
  *fn = reinterpret_cast<CUfunction>(f);
  return CUDA_SUCCESS;
}
CUresult cuModuleUnload(CUmodule module) {
  auto *m = reinterpret_cast<Module *>(module);
  int owner = m->generation;
  delete m;
  if (owner != generation || !primaryAlive())
    return misuse(CUDA_ERROR_CONTEXT_IS_DESTROYED,
                  "cuModuleUnload: the module's context is destroyed");
  if (!contextCurrent())
    return misuse(CUDA_ERROR_INVALID_CONTEXT,
                  "cuModuleUnload: its context is not current");
  return CUDA_SUCCESS;
}
CUresult cuFuncGetAttribute(int *value, CUfunction_attribute attr, CUfunction) {
  *value = attr == CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK ? 1024 : 0;
  return CUDA_SUCCESS;
}
CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute attr, int value) {
  // An H100's opt-in limit.
  if (attr == CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES &&
      value > 227 * 1024)
    return CUDA_ERROR_INVALID_VALUE;
  return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr *ptr, size_t bytes) {
  if (!contextCurrent())
    return CUDA_ERROR_INVALID_CONTEXT;
  if (bytes > memoryLimit || memoryUsed > memoryLimit - bytes)
    return CUDA_ERROR_OUT_OF_MEMORY;
  // 256-byte aligned like the driver's.
  void *p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (!p)
    return CUDA_ERROR_OUT_OF_MEMORY;
  std::memset(p, 0xCD, bytes);
  *ptr = CUdeviceptr(uintptr_t(p));
  allocations[*ptr] = generation;
  allocationBytes[*ptr] = bytes;
  memoryUsed += bytes;
  return CUDA_SUCCESS;
}
CUresult cuMemFree(CUdeviceptr ptr) {
  flushLegacy(); // cuMemFree synchronizes the device.
  auto it = allocations.find(ptr);
  if (it == allocations.end())
    return misuse(CUDA_ERROR_INVALID_VALUE,
                  "cuMemFree: not an address cuMemAlloc returned");
  int owner = it->second;
  allocations.erase(it);
  memoryUsed -= allocationBytes[ptr];
  allocationBytes.erase(ptr);
  std::free(reinterpret_cast<void *>(uintptr_t(ptr)));
  if (owner != generation || !primaryAlive())
    return misuse(CUDA_ERROR_CONTEXT_IS_DESTROYED,
                  "cuMemFree: the allocation's context is destroyed");
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoD(CUdeviceptr dst, const void *src, size_t bytes) {
  const auto *from = static_cast<const uint8_t *>(src);
  legacyPending.push_back({dst, std::vector<uint8_t>(from, from + bytes)});
  return CUDA_SUCCESS;
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dst, const void *src, size_t bytes,
                           CUstream stream) {
  orderAfterLegacy(stream);
  std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)), src, bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoH(void *dst, CUdeviceptr src, size_t bytes) {
  flushLegacy();
  std::memcpy(dst, reinterpret_cast<const void *>(uintptr_t(src)), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                           CUstream stream) {
  orderAfterLegacy(stream);
  std::memcpy(reinterpret_cast<void *>(uintptr_t(dst)),
              reinterpret_cast<const void *>(uintptr_t(src)), bytes);
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8(CUdeviceptr dst, unsigned char value, size_t bytes) {
  legacyPending.push_back({dst, std::vector<uint8_t>(bytes, value)});
  return CUDA_SUCCESS;
}
CUresult cuMemsetD8Async(CUdeviceptr dst, unsigned char value, size_t bytes,
                         CUstream stream) {
  orderAfterLegacy(stream);
  std::memset(reinterpret_cast<void *>(uintptr_t(dst)), value, bytes);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction fn, unsigned gx, unsigned gy, unsigned gz,
                        unsigned bx, unsigned by, unsigned bz, unsigned shared,
                        CUstream stream, void **params, void **extra) {
  if (extra || shared > 227 * 1024 || bx * by * bz > 1024)
    return CUDA_ERROR_INVALID_VALUE;
  const std::string &name = reinterpret_cast<Function *>(fn)->name;
  if (!failingLaunches.empty() && startsWith(name, failingLaunches.c_str()))
    return CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES;
  orderAfterLegacy(stream);
  unsigned grid[3] = {gx, gy, gz};
  if (name == "copy_f32") {
    auto *in = *static_cast<const float **>(params[0]);
    auto *out = *static_cast<float **>(params[1]);
    size_t n = size_t(gx) * gy * gz * bx * by * bz;
    std::memcpy(out, in, n * sizeof(float));
  } else if (name == "tma_copy_f8") {
    return tmaCopy(grid, params);
  } else {
    planKernel(name, size_t(gx) * gy * gz * bx * by * bz, params);
  }
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction fn,
                          void **params, void **extra) {
  auto *f = reinterpret_cast<Function *>(fn);
  for (unsigned n = 0; n < config->numAttrs; ++n) {
    const CUlaunchAttribute &a = config->attrs[n];
    if (a.id != CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION)
      return CUDA_ERROR_NOT_SUPPORTED;
    if (!a.value.programmaticStreamSerializationAllowed)
      continue;
    if (!f->waitsForGrid) {
      std::fprintf(stderr,
                   "fake libcuda: programmatic launch of %s, which has no "
                   "griddepcontrol.wait\n",
                   f->name.c_str());
      return CUDA_ERROR_INVALID_VALUE;
    }
    if (!f->launchedProgrammatically)
      std::fprintf(stderr, "fake libcuda: programmatic launch of %s\n",
                   f->name.c_str());
    f->launchedProgrammatically = true;
  }
  return cuLaunchKernel(fn, config->gridDimX, config->gridDimY,
                        config->gridDimZ, config->blockDimX, config->blockDimY,
                        config->blockDimZ, config->sharedMemBytes,
                        config->hStream, params, extra);
}

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  *stream = reinterpret_cast<CUstream>(new int(0));
  streamFlags[*stream] = flags;
  return CUDA_SUCCESS;
}
CUresult cuStreamDestroy(CUstream stream) {
  if (streamFlags.erase(stream))
    delete reinterpret_cast<int *>(stream);
  return CUDA_SUCCESS;
}
CUresult cuStreamSynchronize(CUstream stream) {
  orderAfterLegacy(stream);
  return CUDA_SUCCESS;
}
CUresult cuEventCreate(CUevent *event, unsigned) {
  *event = reinterpret_cast<CUevent>(new int(0));
  return CUDA_SUCCESS;
}
CUresult cuEventRecord(CUevent event, CUstream stream) {
  orderAfterLegacy(stream);
  *reinterpret_cast<int *>(event) = ++eventClock;
  return CUDA_SUCCESS;
}
CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
CUresult cuEventElapsedTime(float *ms, CUevent start, CUevent end) {
  *ms = 0.5f *
        float(*reinterpret_cast<int *>(end) - *reinterpret_cast<int *>(start));
  return CUDA_SUCCESS;
}
CUresult cuEventDestroy(CUevent event) {
  delete reinterpret_cast<int *>(event);
  return CUDA_SUCCESS;
}

CUresult cuTensorMapEncodeTiled(
    CUtensorMap *tensorMap, CUtensorMapDataType dataType, cuuint32_t rank,
    void *address, const cuuint64_t *dims, const cuuint64_t *strides,
    const cuuint32_t *box, const cuuint32_t *elementStrides,
    CUtensorMapInterleave interleave, CUtensorMapSwizzle swizzle,
    CUtensorMapL2promotion, CUtensorMapFloatOOBfill oobFill) {
  size_t size = elementSize(dataType);
  unsigned span = swizzleSpan(swizzle);
  bool ok = size && rank == 2 && uintptr_t(address) % 16 == 0 &&
            interleave == CU_TENSOR_MAP_INTERLEAVE_NONE &&
            oobFill == CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE &&
            uintptr_t(tensorMap) % 64 == 0;
  for (int d = 0; ok && d < 2; ++d)
    ok = dims[d] >= 1 && dims[d] <= (uint64_t(1) << 32) && box[d] >= 1 &&
         box[d] <= 256 && elementStrides[d] == 1;
  ok = ok && strides[0] % 16 == 0 && strides[0] >= dims[0] * size &&
       box[0] * size % 16 == 0 &&
       (swizzle == CU_TENSOR_MAP_SWIZZLE_NONE || box[0] * size <= span);
  if (!ok)
    return CUDA_ERROR_INVALID_VALUE;
  FakeMap map = {mapMagic,           uint64_t(uintptr_t(address)),
                 {dims[0], dims[1]}, strides[0],
                 {box[0], box[1]},   uint32_t(dataType),
                 uint32_t(swizzle)};
  std::memset(tensorMap, 0, sizeof(*tensorMap));
  std::memcpy(tensorMap, &map, sizeof(map));
  return CUDA_SUCCESS;
}

/// Test hooks (not driver functions): device memory beyond `bytes` in use
/// fails to allocate (SIZE_MAX: no limit); launches of kernels whose name
/// starts with `prefix` fail (null or "": none).
void fakeCudaSetMemoryLimit(size_t bytes) { memoryLimit = bytes; }
void fakeCudaFailLaunches(const char *prefix) {
  failingLaunches = prefix ? prefix : "";
}

} // extern "C"
