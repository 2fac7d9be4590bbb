//===- Program.cpp - Loading a manifest and running its plans -------------===//
//
// The plan was validated when the manifest was read (Plan.cpp), so a run
// checks only the caller's tensors against it, then binds each buffer to an
// address (the caller's tensors, the workspace, the zeroed region) and
// enqueues the launches in order.
//
// Device state is kept per CUDA context (modules, functions) and, within a
// context, per stream (workspace, zeroed regions, tensor maps): everything a
// run writes is then ordered by its stream, so runs on different streams
// share nothing they write, and a tensor map uploaded on a stream is in place
// before a launch on that stream reads it.
//
//===----------------------------------------------------------------------===//

#include "fp8rt/Program.h"

#include "CudaDriver.h"
#include "Manifest.h"
#include "Module.h"
#include "TensorMap.h"

#include <atomic>
#include <cstdio>
#include <map>
#include <mutex>
#include <tuple>

using namespace fp8rt;

namespace {

// A tensor map is reused for the same tensor (address, type, shape) read
// with the same box and swizzle.
using MapKey = std::tuple<CUdeviceptr, DType, int64_t, int64_t, unsigned,
                          unsigned, Swizzle>;

struct MapEntry {
  CUdeviceptr device = 0;
  // The upload's source: cuMemcpyHtoDAsync may read it after returning.
  std::unique_ptr<CUtensorMap> host;
};

// Beyond this many maps a stream's cache is dropped (after synchronizing
// it), so callers that allocate fresh tensors every run do not grow it
// without bound.
constexpr size_t maxCachedMaps = 4096;

struct StreamState {
  CUdeviceptr workspace = 0;
  size_t workspaceBytes = 0;
  std::vector<CUdeviceptr> zeroed; // Per function; 0 until its first run.
  std::map<MapKey, MapEntry> maps;
};

struct ContextState {
  std::vector<LoadedKernel> kernels; // Per manifest kernel, loaded lazily.
  std::map<CUstream, StreamState> streams;
  // A device's primary context, which the program holds a reference to
  // (cuDevicePrimaryCtxRetain) until it has freed what it made there.
  bool retainedPrimary = false;
  CUdevice device = 0;
};

Status cudaError(const CudaDriver &drv, CUresult result,
                 const std::string &what) {
  return Status::error(FP8RT_ERROR_CUDA, what + ": " + drv.describe(result));
}

} // namespace

struct Program::Impl {
  Manifest manifest;
  std::vector<std::string> ptx; // Per kernel.
  std::vector<FunctionInfo> infos;
  std::mutex mutex; // Runs enqueue one at a time.
  // Launch the kernels marked "pdl" with programmatic dependent launch.
  std::atomic<bool> programmaticLaunch{true};
  const CudaDriver *drv = nullptr;
  std::map<CUcontext, ContextState> contexts;

  ~Impl();
  Status checkTensors(const Function &f, const fp8rt_tensor *tensors,
                      size_t count, bool outputs) const;
  Status prepare(const Function &f, size_t fIndex, CUstream stream,
                 ContextState *&ctx, StreamState *&state);
  Status tensorMap(StreamState &state, CUstream stream, const Kernel &kernel,
                   const Param &map, CUdeviceptr base, CUdeviceptr &out);
};

Program::Program(std::unique_ptr<Impl> impl) : impl(std::move(impl)) {}
Program::~Program() = default;

const std::vector<FunctionInfo> &Program::functions() const {
  return impl->infos;
}

const FunctionInfo *Program::function(const std::string &name) const {
  for (const FunctionInfo &f : impl->infos)
    if (f.name == name)
      return &f;
  return nullptr;
}

const Manifest &Program::manifest() const { return impl->manifest; }

void Program::setProgrammaticLaunch(bool enabled) {
  impl->programmaticLaunch = enabled;
}

static TensorInfo tensorInfo(const Buffer &b) {
  TensorInfo t;
  t.name = b.name;
  t.dtype = fp8rt_dtype(b.dtype);
  t.shape = b.shape;
  t.bytes = size_t(b.bytes);
  return t;
}

Status Program::load(const std::string &path, std::unique_ptr<Program> &out) {
  auto impl = std::make_unique<Impl>();
  // A directory is read as DIR/manifest.json.
  std::string file = path;
  if (FILE *f = std::fopen(joinPath(path, "manifest.json").c_str(), "rb")) {
    std::fclose(f);
    file = joinPath(path, "manifest.json");
  }
  std::string error;
  if (!loadManifest(file, impl->manifest, error))
    return Status::error(FP8RT_ERROR_MANIFEST, error);
  for (const Kernel &k : impl->manifest.kernels) {
    impl->ptx.emplace_back();
    if (!readFile(k.ptxPath, impl->ptx.back(), error))
      return Status::error(FP8RT_ERROR_MANIFEST,
                           "kernel " + k.name +
                               ": cannot read its PTX: " + error);
    if (!checkKernelPtx(k, impl->ptx.back(), error))
      return Status::error(FP8RT_ERROR_MANIFEST, error);
  }
  for (const Function &f : impl->manifest.functions) {
    FunctionInfo info;
    info.name = f.name;
    info.location = f.location;
    for (size_t id : f.arguments)
      info.inputs.push_back(tensorInfo(f.buffers[id]));
    for (size_t id : f.results)
      info.outputs.push_back(tensorInfo(f.buffers[id]));
    info.workspaceBytes = size_t(f.workspaceBytes);
    info.zeroedBytes = size_t(f.zeroedBytes);
    info.numLaunches = f.launches.size();
    impl->infos.push_back(std::move(info));
  }
  out.reset(new Program(std::move(impl)));
  return Status::success();
}

// Frees each context's allocations and modules with that context current,
// then lets go of the primary contexts it held. A program that ran in a
// device's primary context holds a reference to it, so that one destroyed
// after its caller released that context (fp8-run's Gpu, a framework's
// teardown) still finds its modules there: a destroyed context takes its
// modules with it, and unloading them then is an error (compute-sanitizer
// reports "context is destroyed" or "invalid resource handle").
Program::Impl::~Impl() {
  if (!drv)
    return;
  CUcontext previous = nullptr;
  drv->cuCtxGetCurrent(&previous);
  CUcontext current = previous;
  for (auto &[context, ctx] : contexts) {
    if (context != current && drv->cuCtxSetCurrent(context) != CUDA_SUCCESS)
      continue;
    current = context;
    for (auto &[stream, state] : ctx.streams) {
      if (state.workspace)
        drv->cuMemFree(state.workspace);
      for (CUdeviceptr p : state.zeroed)
        if (p)
          drv->cuMemFree(p);
      for (auto &entry : state.maps)
        drv->cuMemFree(entry.second.device);
    }
    for (LoadedKernel &k : ctx.kernels)
      if (k.module)
        drv->cuModuleUnload(k.module);
  }
  if (current != previous)
    drv->cuCtxSetCurrent(previous);
  for (auto &[context, ctx] : contexts)
    if (ctx.retainedPrimary)
      drv->cuDevicePrimaryCtxRelease(ctx.device);
}

// Holds a reference to `context` if it is its device's primary context (the
// one PyTorch and fp8-run use). A context made with cuCtxCreate cannot be
// held: its owner must destroy the program first (runtime/README.md).
static void retainIfPrimary(const CudaDriver &drv, CUcontext context,
                            ContextState &ctx) {
  CUdevice device = 0;
  unsigned flags = 0;
  int active = 0;
  // Only an active primary context can be the current one: retaining an
  // inactive one would create it.
  if (drv.cuCtxGetDevice(&device) != CUDA_SUCCESS ||
      drv.cuDevicePrimaryCtxGetState(device, &flags, &active) != CUDA_SUCCESS ||
      !active)
    return;
  CUcontext primary = nullptr;
  if (drv.cuDevicePrimaryCtxRetain(&primary, device) != CUDA_SUCCESS)
    return;
  if (primary != context) {
    drv.cuDevicePrimaryCtxRelease(device);
    return;
  }
  ctx.retainedPrimary = true;
  ctx.device = device;
}

// "input 2 (arg2)".
static std::string tensorName(const Function &f, bool output, size_t n) {
  const Buffer &b = f.buffers[output ? f.results[n] : f.arguments[n]];
  return std::string(output ? "output " : "input ") + std::to_string(n) + " (" +
         b.name + ")";
}

Status Program::Impl::checkTensors(const Function &f,
                                   const fp8rt_tensor *tensors, size_t count,
                                   bool outputs) const {
  const std::vector<size_t> &ids = outputs ? f.results : f.arguments;
  const char *what = outputs ? "outputs" : "inputs";
  if (count != ids.size())
    return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                         f.name + ": " + std::to_string(count) + " " + what +
                             " given, the function has " +
                             std::to_string(ids.size()));
  if (count && !tensors)
    return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                         f.name + ": the " + what + " array is null");
  for (size_t n = 0; n < count; ++n) {
    const fp8rt_tensor &t = tensors[n];
    const Buffer &b = f.buffers[ids[n]];
    std::string where = f.name + ": " + tensorName(f, outputs, n) + ": ";
    if (!fp8rt_dtype_name(t.dtype) || t.rank < 0 || (t.rank > 0 && !t.shape))
      return Status::error(
          FP8RT_ERROR_INVALID_ARGUMENT,
          where + "not a tensor (dtype " + std::to_string(int(t.dtype)) +
              ", rank " + std::to_string(t.rank) +
              (t.rank > 0 && !t.shape ? ", null shape)" : ")"));
    std::vector<int64_t> shape(t.shape, t.shape + t.rank);
    if (DType(t.dtype) != b.dtype || shape != b.shape)
      return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                           where + "expected " + typeString(b.dtype, b.shape) +
                               ", got " + typeString(DType(t.dtype), shape));
    if (!t.data && b.bytes > 0)
      return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                           where + "null data pointer");
    // TMA and vectorized accesses need 16-byte aligned tensors.
    if (uintptr_t(t.data) % 16 != 0)
      return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                           where + "data is not 16-byte aligned");
  }
  return Status::success();
}

// The modules this function launches, in the current context, and the
// stream's workspace and zeroed region.
Status Program::Impl::prepare(const Function &f, size_t fIndex, CUstream stream,
                              ContextState *&ctx, StreamState *&state) {
  CUcontext context = nullptr;
  CUresult r = drv->cuCtxGetCurrent(&context);
  if (r != CUDA_SUCCESS)
    return cudaError(*drv, r, f.name + ": cuCtxGetCurrent");
  if (!context)
    return Status::error(FP8RT_ERROR_CUDA,
                         f.name + ": no current CUDA context (make one "
                                  "current first, e.g. cuCtxSetCurrent or "
                                  "any CUDA runtime call)");
  auto [entry, created] = contexts.try_emplace(context);
  ctx = &entry->second;
  if (created)
    retainIfPrimary(*drv, context, *ctx);
  ctx->kernels.resize(manifest.kernels.size());
  for (const Launch &launch : f.launches) {
    LoadedKernel &loaded = ctx->kernels[launch.kernel];
    if (loaded.function)
      continue;
    std::string error;
    if (!loadKernel(*drv, manifest.kernels[launch.kernel], ptx[launch.kernel],
                    loaded, error))
      return Status::error(FP8RT_ERROR_CUDA, f.name + ": " + error);
  }
  state = &ctx->streams[stream];
  state->zeroed.resize(manifest.functions.size(), 0);
  CUdeviceptr &zeroed = state->zeroed[fIndex];
  if (!zeroed && f.zeroedBytes > 0) {
    size_t bytes = size_t(f.zeroedBytes);
    if ((r = drv->cuMemAlloc(&zeroed, bytes)) != CUDA_SUCCESS)
      return cudaError(*drv, r,
                       f.name + ": allocating the zeroed region (" +
                           std::to_string(bytes) + " bytes)");
    // Ordered before the first launch on this stream, which is the only one
    // that uses this region.
    if ((r = drv->cuMemsetD8Async(zeroed, 0, bytes, stream)) != CUDA_SUCCESS) {
      drv->cuMemFree(zeroed);
      zeroed = 0;
      return cudaError(*drv, r, f.name + ": zeroing the zeroed region");
    }
  }
  return Status::success();
}

Status Program::Impl::tensorMap(StreamState &state, CUstream stream,
                                const Kernel &kernel, const Param &map,
                                CUdeviceptr base, CUdeviceptr &out) {
  const Param &t = kernel.params[map.tensor];
  MapKey key{base,       t.dtype,    t.shape[0], t.shape[1],
             map.box[0], map.box[1], map.swizzle};
  auto found = state.maps.find(key);
  if (found != state.maps.end()) {
    out = found->second.device;
    return Status::success();
  }
  std::string what =
      "kernel " + kernel.name + ": tensormap " + tensorMapString(kernel, map);
  CUresult r;
  if (state.maps.size() >= maxCachedMaps) {
    // Launches in flight may still read these maps.
    if ((r = drv->cuStreamSynchronize(stream)) != CUDA_SUCCESS)
      return cudaError(*drv, r, what + ": cuStreamSynchronize");
    for (auto &entry : state.maps)
      drv->cuMemFree(entry.second.device);
    state.maps.clear();
  }
  MapEntry entry;
  entry.host = std::make_unique<CUtensorMap>();
  if ((r = encodeTensorMap(*drv, kernel, map, base, *entry.host)) !=
      CUDA_SUCCESS)
    return cudaError(*drv, r, what + ": cuTensorMapEncodeTiled");
  // cuMemAlloc aligns to 256 bytes, more than the 64 a map needs.
  if ((r = drv->cuMemAlloc(&entry.device, tensorMapBytes)) != CUDA_SUCCESS)
    return cudaError(*drv, r, what + ": cuMemAlloc");
  if ((r = drv->cuMemcpyHtoDAsync(entry.device, entry.host.get(),
                                  tensorMapBytes, stream)) != CUDA_SUCCESS) {
    drv->cuMemFree(entry.device);
    return cudaError(*drv, r, what + ": cuMemcpyHtoDAsync");
  }
  out = entry.device;
  state.maps.emplace(key, std::move(entry));
  return Status::success();
}

static bool overlaps(const fp8rt_tensor &a, size_t aBytes,
                     const fp8rt_tensor &b, size_t bBytes) {
  uintptr_t x = uintptr_t(a.data), y = uintptr_t(b.data);
  return aBytes && bBytes && x < y + bBytes && y < x + aBytes;
}

Status Program::run(const std::string &name, const fp8rt_tensor *inputs,
                    size_t numInputs, const fp8rt_tensor *outputs,
                    size_t numOutputs, void *streamHandle, void *workspace,
                    size_t workspaceBytes) {
  const Manifest &m = impl->manifest;
  const Function *f = m.findFunction(name);
  if (!f) {
    std::string names;
    for (const Function &fn : m.functions)
      names += (names.empty() ? "" : ", ") + fn.name;
    return Status::error(
        FP8RT_ERROR_NOT_FOUND,
        "no function \"" + name + "\" in " + m.path +
            (names.empty() ? " (it has none)" : " (it has " + names + ")"));
  }
  if (Status s = impl->checkTensors(*f, inputs, numInputs, false); !s)
    return s;
  if (Status s = impl->checkTensors(*f, outputs, numOutputs, true); !s)
    return s;
  // The plan writes its outputs: they may not alias what it reads.
  for (size_t o = 0; o < numOutputs; ++o) {
    size_t oBytes = size_t(f->buffers[f->results[o]].bytes);
    for (size_t i = 0; i < numInputs; ++i)
      if (overlaps(outputs[o], oBytes, inputs[i],
                   size_t(f->buffers[f->arguments[i]].bytes)))
        return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                             name + ": " + tensorName(*f, true, o) +
                                 " overlaps " + tensorName(*f, false, i));
    for (size_t p = 0; p < o; ++p)
      if (overlaps(outputs[o], oBytes, outputs[p],
                   size_t(f->buffers[f->results[p]].bytes)))
        return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                             name + ": " + tensorName(*f, true, o) +
                                 " overlaps " + tensorName(*f, true, p));
  }
  if (workspace && workspaceBytes < size_t(f->workspaceBytes))
    return Status::error(
        FP8RT_ERROR_INVALID_ARGUMENT,
        name + ": a workspace of " + std::to_string(workspaceBytes) +
            " bytes, but the plan needs " + std::to_string(f->workspaceBytes));
  if (workspace && uintptr_t(workspace) % 256 != 0)
    return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                         name + ": the workspace is not 256-byte aligned");
  if (!workspace && workspaceBytes)
    return Status::error(FP8RT_ERROR_INVALID_ARGUMENT,
                         name + ": workspace_bytes " +
                             std::to_string(workspaceBytes) +
                             " but a null workspace");

  std::lock_guard<std::mutex> lock(impl->mutex);
  std::string error;
  if (!impl->drv && !(impl->drv = cudaDriver(error)))
    return Status::error(FP8RT_ERROR_CUDA, name + ": " + error);
  const CudaDriver &drv = *impl->drv;
  auto stream = static_cast<CUstream>(streamHandle);
  size_t fIndex = size_t(f - m.functions.data());
  ContextState *ctx = nullptr;
  StreamState *state = nullptr;
  if (Status s = impl->prepare(*f, fIndex, stream, ctx, state); !s)
    return s;

  CUdeviceptr base = CUdeviceptr(uintptr_t(workspace));
  if (!workspace && f->workspaceBytes > 0) {
    size_t need = size_t(f->workspaceBytes);
    if (state->workspaceBytes < need) {
      CUresult r;
      // Runs in flight on this stream may still use the old one.
      if (state->workspace) {
        if ((r = drv.cuStreamSynchronize(stream)) != CUDA_SUCCESS)
          return cudaError(drv, r, name + ": cuStreamSynchronize");
        drv.cuMemFree(state->workspace);
        state->workspace = 0;
        state->workspaceBytes = 0;
      }
      if ((r = drv.cuMemAlloc(&state->workspace, need)) != CUDA_SUCCESS)
        return cudaError(drv, r,
                         name + ": allocating the workspace (" +
                             std::to_string(need) + " bytes)");
      state->workspaceBytes = need;
    }
    base = state->workspace;
  }

  // Every buffer's address; a view's after the buffer it shows.
  std::vector<CUdeviceptr> address(f->buffers.size(), 0);
  for (bool views : {false, true})
    for (size_t id = 0; id < f->buffers.size(); ++id) {
      const Buffer &b = f->buffers[id];
      if ((b.kind == BufferKind::View) != views)
        continue;
      switch (b.kind) {
      case BufferKind::Argument:
        address[id] = CUdeviceptr(uintptr_t(inputs[b.index].data));
        break;
      case BufferKind::Result:
        address[id] = CUdeviceptr(uintptr_t(outputs[b.index].data));
        break;
      case BufferKind::Intermediate:
        address[id] = base + CUdeviceptr(b.offset);
        break;
      case BufferKind::Zeroed:
        address[id] = state->zeroed[fIndex] + CUdeviceptr(b.offset);
        break;
      case BufferKind::View:
        address[id] = address[b.of];
        break;
      }
    }

  for (size_t n = 0; n < f->launches.size(); ++n) {
    const Launch &launch = f->launches[n];
    const Kernel &kernel = m.kernels[launch.kernel];
    std::string where =
        name + ": launch " + std::to_string(n) + " (kernel " + kernel.name +
        (launch.location.empty() ? "" : " at " + launch.location) + ")";
    // cuLaunchKernel copies the values the pointers point to when it is
    // called, so these may go out of scope after it returns.
    std::vector<CUdeviceptr> values(launch.args.size());
    std::vector<void *> params(launch.args.size());
    for (size_t p = 0; p < launch.args.size(); ++p) {
      const Param &param = kernel.params[p];
      values[p] = address[launch.args[p]];
      if (param.isTensorMap()) {
        if (Status s = impl->tensorMap(*state, stream, kernel, param, values[p],
                                       values[p]);
            !s)
          return Status::error(s.code(), where + ": " + s.message());
      }
      params[p] = &values[p];
    }
    CUresult r = launchKernel(drv, kernel, ctx->kernels[launch.kernel].function,
                              stream, params.data(), impl->programmaticLaunch);
    if (r != CUDA_SUCCESS)
      return cudaError(drv, r, where);
  }
  return Status::success();
}
