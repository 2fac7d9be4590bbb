//===- fp8-run.cpp - Run and time the kernels fp8-opt emits ---------------===//
//
// Loads the PTX of each kernel in a manifest written by
// `fp8-opt --fp8-emit=dir=DIR`, allocates its parameters, fills the inputs with
// seeded values or from files, runs it once, optionally dumps every parameter
// for checking, and times repeated launches with CUDA events beside a plain
// device-to-device copy. No MLIR is needed: this builds on the GPU machine.
//
//===----------------------------------------------------------------------===//

#include "CudaDriver.h"
#include "Gpu.h"
#include "HostData.h"
#include "Json.h"
#include "Manifest.h"
#include "Module.h"
#include "Options.h"
#include "RunFunction.h"
#include "TensorMap.h"
#include "Timing.h"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

using namespace fp8run;

namespace {

// The input file for a parameter: DIR/KERNEL/NAME.bin (a --dump directory)
// or DIR/NAME.bin.
std::string inputFile(const std::string &dir, const Kernel &kernel,
                      const Param &param) {
  std::string nested =
      joinPath(joinPath(dir, kernel.name), param.name + ".bin");
  if (fileExists(nested))
    return nested;
  return joinPath(dir, param.name + ".bin");
}

enum class Status { Ok, Failed, Fatal };

struct KernelResult {
  std::string name;
  Timing kernel;
  bool timed = false;
  bool deterministic = true;
  Timing copy;
  int64_t copyBytes = 0;
  bool copied = false;
};

bool writeDump(const Options &opts, const Manifest &manifest,
               const Kernel &kernel, const Gpu &gpu,
               const std::vector<std::vector<uint8_t>> &host) {
  std::string dir = joinPath(opts.dump, kernel.name);
  std::string error;
  if (!makeDirs(dir, error)) {
    fail("--dump: " + error);
    return false;
  }
  JsonValue files = JsonValue::object();
  for (size_t n = 0; n < kernel.params.size(); ++n) {
    const Param &param = kernel.params[n];
    // A tensor map holds device addresses of this run only: nothing to check
    // or feed back.
    if (param.isTensorMap())
      continue;
    std::string file = param.name + ".bin";
    if (!writeFile(joinPath(dir, file), host[n].data(), host[n].size(),
                   error)) {
      fail("--dump: " + error);
      return false;
    }
    files.set(param.name, JsonValue::string(file));
  }
  JsonValue meta = JsonValue::object();
  meta.set("kernel", JsonValue::string(kernel.name));
  setRunProvenance(meta, opts, manifest, gpu.name);
  meta.set("specials", JsonValue::boolean(opts.specials));
  size_t dumped = files.getObject().size();
  meta.set("files", std::move(files));
  meta.set("entry", kernel.entry);
  std::string text = meta.toString();
  if (!writeFile(joinPath(dir, "meta.json"), text.data(), text.size(), error)) {
    fail("--dump: " + error);
    return false;
  }
  std::printf("  dump: %s (%zu parameters and meta.json)\n", dir.c_str(),
              dumped);
  return true;
}

Status runKernel(const Options &opts, const Manifest &manifest,
                 const Kernel &kernel, const std::string &ptx, Gpu &gpu,
                 KernelResult &result) {
  const CudaDriver &drv = gpu.drv;
  std::string where = "kernel " + kernel.name;
  std::printf("kernel %s (%s): grid [%u, %u, %u] block [%u, %u, %u], %u B "
              "dynamic shared, %lld bytes moved\n",
              kernel.name.c_str(), kernel.op.c_str(), kernel.grid[0],
              kernel.grid[1], kernel.grid[2], kernel.block[0], kernel.block[1],
              kernel.block[2], kernel.sharedBytes,
              static_cast<long long>(kernel.bytesMoved));

  LoadedKernel loaded;
  std::string loadError, infoLog;
  if (!loadKernel(drv, kernel, ptx, loaded, loadError, &infoLog,
                  opts.verbose)) {
    fail(loadError);
    return Status::Failed;
  }
  struct ModuleGuard {
    const CudaDriver &drv;
    CUmodule module;
    ~ModuleGuard() { drv.cuModuleUnload(module); }
  } moduleGuard{drv, loaded.module};
  if (opts.verbose && !infoLog.empty())
    std::printf("  JIT log:\n%s\n", infoLog.c_str());
  CUfunction function = loaded.function;
  int maxThreads = 0, registers = 0, localBytes = 0, staticShared = 0;
  drv.cuFuncGetAttribute(&maxThreads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                         function);
  drv.cuFuncGetAttribute(&registers, CU_FUNC_ATTRIBUTE_NUM_REGS, function);
  drv.cuFuncGetAttribute(&localBytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
                         function);
  drv.cuFuncGetAttribute(&staticShared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
                         function);
  if (opts.verbose)
    std::printf("  %d registers, %d B local, %d B static shared, at most %d "
                "threads per block\n",
                registers, localBytes, staticShared, maxThreads);
  unsigned threads = kernel.block[0] * kernel.block[1] * kernel.block[2];
  if (maxThreads > 0 && threads > unsigned(maxThreads)) {
    fail(where + ": block of " + std::to_string(threads) +
         " threads, but the compiled kernel allows at most " +
         std::to_string(maxThreads) + " (" + std::to_string(registers) +
         " registers per thread)");
    return Status::Failed;
  }
  // Host contents of every parameter before the run.
  std::vector<std::vector<uint8_t>> host(kernel.params.size());
  for (size_t n = 0; n < kernel.params.size(); ++n) {
    const Param &param = kernel.params[n];
    if (param.isTensorMap())
      continue; // Encoded once its tensor has a device address.
    if (!param.isInput()) {
      // 0xFF bytes in outputs (fp8 NaN, f32 NaN) make unwritten elements
      // mismatch any finite reference value.
      host[n].assign(param.numBytes(), param.isOutput() ? 0xFF : 0);
      continue;
    }
    if (opts.inputsFrom.empty()) {
      fillSeeded(param, opts.seed, opts.specials, host[n], opts.evenGroups);
      continue;
    }
    std::string file = inputFile(opts.inputsFrom, kernel, param);
    std::string contents, error;
    if (!readFile(file, contents, error)) {
      fail(where + ": input " + param.name + ": " + error);
      return Status::Failed;
    }
    if (contents.size() != param.numBytes()) {
      fail(where + ": input " + param.name + ": " + file + " has " +
           std::to_string(contents.size()) + " bytes, expected " +
           std::to_string(param.numBytes()) + " (" + dtypeName(param.dtype) +
           " " + shapeString(param.shape) + ")");
      return Status::Failed;
    }
    host[n].assign(contents.begin(), contents.end());
  }
  std::printf("  inputs: %s\n",
              opts.inputsFrom.empty()
                  ? ("seeded (seed " + std::to_string(opts.seed) +
                     (opts.specials ? ", with special values)" : ")"))
                        .c_str()
                  : ("from " + opts.inputsFrom).c_str());
  // A grouped GEMM's run depends on its group sizes: say which it ran.
  for (size_t n = 0; n < kernel.params.size(); ++n) {
    const Param &param = kernel.params[n];
    if (param.groupLayout.empty() || host[n].size() != param.numBytes())
      continue;
    std::printf("  %s (%s, at most %lld): %s\n", param.name.c_str(),
                param.groupLayout.c_str(),
                static_cast<long long>(param.groupRowsBound),
                formatInt32s(host[n]).c_str());
  }

  DeviceBuffers buffers(drv);
  std::vector<CUdeviceptr> ptrs(kernel.params.size());
  std::vector<void *> args(kernel.params.size());
  // Tensors first, then the maps that hold their addresses.
  for (bool maps : {false, true}) {
    for (size_t n = 0; n < kernel.params.size(); ++n) {
      const Param &param = kernel.params[n];
      if (param.isTensorMap() != maps)
        continue;
      if (maps) {
        CUtensorMap encoded;
        if (!gpu.check(encodeTensorMap(drv, kernel, param, ptrs[param.tensor],
                                       encoded),
                       where + ": cuTensorMapEncodeTiled for " +
                           tensorMapString(kernel, param)))
          return Status::Failed;
        const uint8_t *raw = reinterpret_cast<const uint8_t *>(&encoded);
        host[n].assign(raw, raw + sizeof(encoded));
        std::printf("  tensormap %s\n", tensorMapString(kernel, param).c_str());
      }
      // cuMemAlloc aligns to 256 bytes, more than the 64 a map needs. The
      // copy goes on the launch stream: a cuMemcpyHtoD from pageable memory
      // may return before its data lands, on the legacy stream, which the
      // non-blocking launch stream does not wait for (a large output's 0xFF
      // fill then overwrote part of what the kernel wrote).
      if (!gpu.check(buffers.alloc(param.numBytes(), ptrs[n]),
                     where + ": allocating " + param.name + " (" +
                         std::to_string(param.numBytes()) + " bytes)") ||
          !gpu.check(drv.cuMemcpyHtoDAsync(ptrs[n], host[n].data(),
                                           host[n].size(), gpu.stream),
                     where + ": copying " + param.name + " to the device"))
        return Status::Failed;
      args[n] = &ptrs[n];
    }
  }

  auto launch = [&] {
    return launchKernel(drv, kernel, function, gpu.stream, args.data(),
                        opts.pdl);
  };
  if (kernel.pdl)
    std::printf("  launch: %s\n",
                opts.pdl ? "programmatic (pdl)" : "plain (--no-pdl)");
  if (!gpu.check(launch(), where + ": launch"))
    return Status::Failed;
  // A fault inside the kernel surfaces here and poisons the context.
  if (!gpu.check(drv.cuStreamSynchronize(gpu.stream), where + ": run"))
    return Status::Fatal;
  std::printf("  run: ok\n");

  std::vector<std::vector<uint8_t>> after(kernel.params.size());
  for (size_t n = 0; n < kernel.params.size(); ++n) {
    after[n].resize(host[n].size());
    if (!gpu.check(drv.cuMemcpyDtoH(after[n].data(), ptrs[n], after[n].size()),
                   where + ": copying " + kernel.params[n].name + " back"))
      return Status::Fatal;
    if (kernel.params[n].isInput() && after[n] != host[n])
      warn(where + " wrote into its input " + kernel.params[n].name);
  }
  if (!opts.dump.empty() && !writeDump(opts, manifest, kernel, gpu, after))
    return Status::Failed;

  result.name = kernel.name;
  if (opts.iters > 0) {
    if (!timeLaunches(gpu, opts.warmup, opts.iters, where + ": timed launch",
                      launch, result.kernel))
      return Status::Fatal;
    result.timed = true;
    std::printf("  time: median %.4f ms, min %.4f ms over %d launches (%d "
                "warmup)",
                result.kernel.medianMs, result.kernel.minMs, opts.iters,
                opts.warmup);
    if (kernel.bytesMoved)
      std::printf(": %.1f GB/s median, %.1f GB/s best",
                  gbps(kernel.bytesMoved, result.kernel.medianMs),
                  gbps(kernel.bytesMoved, result.kernel.minMs));
    if (kernel.flops)
      std::printf("%s %.1f TFLOP/s median, %.1f TFLOP/s best",
                  kernel.bytesMoved ? ";" : ":",
                  tflops(kernel.flops, result.kernel.medianMs),
                  tflops(kernel.flops, result.kernel.minMs));
    std::printf("\n  back to back: %.4f ms per launch (%d launches between "
                "two events)",
                result.kernel.backToBackMs, opts.iters);
    if (kernel.bytesMoved)
      std::printf(": %.1f GB/s",
                  gbps(kernel.bytesMoved, result.kernel.backToBackMs));
    if (kernel.flops)
      std::printf("%s %.1f TFLOP/s", kernel.bytesMoved ? ";" : ":",
                  tflops(kernel.flops, result.kernel.backToBackMs));
    std::printf("\n");

    // Every launch must leave the same outputs as the first (a kernel that
    // accumulates into a workspace would not).
    std::vector<uint8_t> again;
    for (size_t n = 0; n < kernel.params.size(); ++n) {
      if (kernel.params[n].isInput() || kernel.params[n].isTensorMap())
        continue;
      again.resize(after[n].size());
      if (!gpu.check(drv.cuMemcpyDtoH(again.data(), ptrs[n], again.size()),
                     where + ": copying " + kernel.params[n].name + " back"))
        return Status::Fatal;
      if (again != after[n]) {
        result.deterministic = false;
        warn(where + ": " + kernel.params[n].name + " differs after " +
             std::to_string(opts.warmup + opts.iters + 1) +
             " launches from the first launch's");
      }
    }
  }

  if (opts.copyBaseline && opts.iters > 0 && kernel.bytesMoved >= 2) {
    // Copy half of bytes_moved so the copy reads and writes as many bytes as
    // the kernel does; its bandwidth counts both, as the kernel's does.
    size_t bytes = size_t(kernel.bytesMoved / 2);
    CUdeviceptr src, dst;
    if (!gpu.check(buffers.alloc(bytes, src), where + ": copy buffer") ||
        !gpu.check(buffers.alloc(bytes, dst), where + ": copy buffer") ||
        !gpu.check(drv.cuMemsetD8Async(src, 0x3C, bytes, gpu.stream),
                   where + ": memset"))
      return Status::Failed;
    auto copy = [&] {
      return drv.cuMemcpyDtoDAsync(dst, src, bytes, gpu.stream);
    };
    if (!timeLaunches(gpu, opts.warmup, opts.iters, where + ": copy", copy,
                      result.copy))
      return Status::Fatal;
    result.copied = true;
    result.copyBytes = int64_t(bytes);
    std::printf("  copy: median %.4f ms, min %.4f ms (cuMemcpyDtoD of %zu "
                "bytes): %.1f GB/s median, %.1f GB/s best\n",
                result.copy.medianMs, result.copy.minMs, bytes,
                gbps(2 * result.copyBytes, result.copy.medianMs),
                gbps(2 * result.copyBytes, result.copy.minMs));
    std::printf("  kernel bandwidth: %.1f%% of the copy's (medians)\n",
                100.0 * result.copy.medianMs / result.kernel.medianMs);
    std::printf("  copy back to back: %.4f ms per copy: %.1f GB/s\n",
                result.copy.backToBackMs,
                gbps(2 * result.copyBytes, result.copy.backToBackMs));
  }
  return Status::Ok;
}

bool writeResults(const Options &opts, const Manifest &manifest, const Gpu &gpu,
                  const std::vector<KernelResult> &results) {
  JsonValue root = JsonValue::object();
  root.set("device", JsonValue::string(gpu.name));
  root.set("compute_capability",
           JsonValue::string(std::to_string(gpu.ccMajor) + "." +
                             std::to_string(gpu.ccMinor)));
  root.set("driver_version", JsonValue::integer(gpu.driverVersion));
  root.set("manifest", JsonValue::string(manifest.path));
  root.set("chip", JsonValue::string(manifest.chip));
  root.set("iters", JsonValue::integer(opts.iters));
  root.set("warmup", JsonValue::integer(opts.warmup));
  JsonValue &kernels = root.set("kernels", JsonValue::array());
  for (const KernelResult &r : results) {
    const Kernel *k = manifest.find(r.name);
    JsonValue v = JsonValue::object();
    v.set("name", JsonValue::string(r.name));
    v.set("op", JsonValue::string(k->op));
    v.set("bytes_moved", JsonValue::integer(k->bytesMoved));
    // Whether it was launched with programmatic dependent launch.
    v.set("pdl", JsonValue::boolean(k->pdl && opts.pdl));
    if (k->flops)
      v.set("flops", JsonValue::integer(k->flops));
    if (r.timed) {
      v.set("time", timingJson(r.kernel, k->bytesMoved, k->flops));
      v.set("deterministic", JsonValue::boolean(r.deterministic));
    }
    if (r.copied) {
      JsonValue copy = timingJson(r.copy, 2 * r.copyBytes);
      copy.set("bytes_copied", JsonValue::integer(r.copyBytes));
      v.set("copy", std::move(copy));
    }
    kernels.push(std::move(v));
  }
  std::string text = root.toString(), error;
  if (!writeFile(opts.results, text.data(), text.size(), error)) {
    fail("--results: " + error);
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  // Progress lines and errors interleave in order when piped to tee or a log.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  Options opts;
  std::string error;
  if (!parseArgs(argc, argv, opts, error)) {
    std::fprintf(stderr, "fp8-run: error: %s (see fp8-run --help)\n",
                 error.c_str());
    return 2;
  }
  if (opts.help) {
    std::fputs(usageText, stdout);
    return 0;
  }
  if (!opts.function.empty())
    return runFunction(opts);

  Manifest manifest;
  if (!loadManifest(opts.manifestPath, manifest, error)) {
    fail(error);
    return 1;
  }
  std::vector<const Kernel *> selected;
  for (const Kernel &k : manifest.kernels)
    if (opts.kernel.empty() || k.name == opts.kernel)
      selected.push_back(&k);
  if (selected.empty()) {
    std::string names;
    for (const Kernel &k : manifest.kernels)
      names += (names.empty() ? "" : ", ") + k.name;
    fail("--kernel " + opts.kernel + ": no such kernel in " + manifest.path +
         " (it has " + names + ")");
    return 1;
  }

  // Everything that can be checked without a GPU is checked before one is
  // touched.
  std::vector<std::string> ptx(selected.size());
  for (size_t n = 0; n < selected.size(); ++n) {
    const Kernel &k = *selected[n];
    if (!readFile(k.ptxPath, ptx[n], error)) {
      fail("kernel " + k.name + ": cannot read its PTX: " + error);
      return 1;
    }
    if (!checkKernelPtx(k, ptx[n], error)) {
      fail(error);
      return 1;
    }
    if (ptx[n].find(".entry " + k.name) == std::string::npos)
      warn("kernel " + k.name + ": " + k.ptxPath + " has no \".entry " +
           k.name + "\"");
    for (const Param &p : k.params) {
      if (!p.isInput() || opts.inputsFrom.empty())
        continue;
      std::string file = inputFile(opts.inputsFrom, k, p);
      if (!fileExists(file)) {
        fail("kernel " + k.name + ": input " + p.name + ": no " + file);
        return 1;
      }
    }
  }
  if (opts.validate) {
    std::printf("%s: chip %s, %zu kernel(s)\n", manifest.path.c_str(),
                manifest.chip.c_str(), manifest.kernels.size());
    for (const Kernel *k : selected) {
      std::printf("kernel %s (%s) %s: grid [%u, %u, %u] block [%u, %u, %u] "
                  "shared %u, %lld bytes moved\n",
                  k->name.c_str(), k->op.c_str(), k->ptxFile.c_str(),
                  k->grid[0], k->grid[1], k->grid[2], k->block[0], k->block[1],
                  k->block[2], k->sharedBytes,
                  static_cast<long long>(k->bytesMoved));
      if (k->cluster[0] * k->cluster[1] * k->cluster[2] > 1)
        std::printf("  cluster [%u, %u, %u] (fixed in the PTX)\n",
                    k->cluster[0], k->cluster[1], k->cluster[2]);
      if (k->pdl)
        std::printf("  pdl (waits for the previous grid: may be launched "
                    "with programmatic dependent launch)\n");
      for (const Param &p : k->params) {
        if (p.isTensorMap())
          std::printf("  %-8s %s\n", p.role.c_str(),
                      tensorMapString(*k, p).c_str());
        else
          std::printf("  %-8s %-12s %-7s %s\n", p.role.c_str(), p.name.c_str(),
                      dtypeName(p.dtype), shapeString(p.shape).c_str());
      }
      if (k->flops)
        std::printf("  %lld flops\n", static_cast<long long>(k->flops));
    }
    for (const Function &f : manifest.functions)
      std::printf("function %s: %zu inputs, %zu outputs, %zu launches, "
                  "workspace %lld bytes, zeroed %lld bytes\n",
                  f.name.c_str(), f.arguments.size(), f.results.size(),
                  f.launches.size(), static_cast<long long>(f.workspaceBytes),
                  static_cast<long long>(f.zeroedBytes));
    return 0;
  }

  const CudaDriver *drv = cudaDriver(error);
  if (!drv) {
    fail(error);
    return 1;
  }
  Gpu gpu(*drv);
  if (!gpu.open(opts.device, manifest.chip))
    return 1;
  std::printf("fp8-run: %s (compute capability %d.%d, driver %d.%d), %s\n",
              gpu.name.c_str(), gpu.ccMajor, gpu.ccMinor,
              gpu.driverVersion / 1000, (gpu.driverVersion % 1000) / 10,
              manifest.path.c_str());

  std::vector<KernelResult> results;
  int failures = 0;
  for (size_t n = 0; n < selected.size(); ++n) {
    KernelResult result;
    Status status =
        runKernel(opts, manifest, *selected[n], ptx[n], gpu, result);
    if (status == Status::Ok) {
      results.push_back(result);
      continue;
    }
    ++failures;
    if (status == Status::Fatal) {
      fail("the CUDA context is unusable after this error; stopping");
      break;
    }
  }
  if (!opts.results.empty() && !writeResults(opts, manifest, gpu, results))
    return 1;
  if (failures) {
    fail(std::to_string(failures) + " of " + std::to_string(selected.size()) +
         " kernel(s) failed");
    return 1;
  }
  return 0;
}
