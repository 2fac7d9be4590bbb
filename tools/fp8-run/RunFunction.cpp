//===- RunFunction.cpp - fp8-run --function: a whole launch plan ----------===//
//
// Input N of function F is read from IN/F/argN.bin (raw little-endian, of
// exactly its size), so a dump, which writes the inputs beside the results,
// can be fed back. Everything that needs no GPU (the manifest, the plan, the
// input files) is checked before one is touched.
//
//===----------------------------------------------------------------------===//

#include "RunFunction.h"

#include "Gpu.h"
#include "HostData.h"
#include "Timing.h"
#include "fp8rt/Program.h"

#include <cstdio>
#include <cstdlib>
#include <memory>

using namespace fp8run;

namespace {

struct HostTensor {
  const TensorInfo *info;
  std::vector<uint8_t> bytes;
  CUdeviceptr device = 0;
};

std::string describe(const TensorInfo &t) {
  return typeString(DType(t.dtype), t.shape);
}

// "input 2 (arg2)".
std::string tensorName(const char *what, size_t n, const TensorInfo &t) {
  return std::string(what) + " " + std::to_string(n) + " (" + t.name + ")";
}

// Where input `index` of function `f` reaches a kernel param that holds a
// grouped GEMM's group_rows (directly or through a view), that param's
// layout and bound, so the input is filled with valid bounds.
void findGroupRows(const Manifest &manifest, const FunctionInfo &f,
                   size_t index, Param &param) {
  const Function *plan = manifest.findFunction(f.name);
  if (!plan)
    return;
  auto isInput = [&](size_t id) {
    const Buffer &buffer = plan->buffers[id];
    if (buffer.kind == BufferKind::View)
      return plan->buffers[buffer.of].kind == BufferKind::Argument &&
             plan->buffers[buffer.of].index == index;
    return buffer.kind == BufferKind::Argument && buffer.index == index;
  };
  for (const Launch &launch : plan->launches) {
    const Kernel &kernel = manifest.kernels[launch.kernel];
    for (size_t p = 0; p < launch.args.size() && p < kernel.params.size();
         ++p) {
      const Param &bound = kernel.params[p];
      if (!bound.groupLayout.empty() && isInput(launch.args[p])) {
        param.groupLayout = bound.groupLayout;
        param.groupRowsBound = bound.groupRowsBound;
        return;
      }
    }
  }
}

bool readInputs(const Options &opts, const Manifest &manifest,
                const FunctionInfo &f, std::vector<HostTensor> &inputs) {
  for (size_t n = 0; n < f.inputs.size(); ++n) {
    const TensorInfo &t = f.inputs[n];
    inputs.push_back({&t, {}, 0});
    std::string where =
        "function " + f.name + ": " + tensorName("input", n, t) + ": ";
    if (opts.inputsFrom.empty()) {
      Param param;
      param.name = t.name;
      param.role = mlir::fp8::manifest::kRoleInput;
      param.dtype = DType(t.dtype);
      param.shape = t.shape;
      findGroupRows(manifest, f, n, param);
      fillSeeded(param, opts.seed, opts.specials, inputs.back().bytes,
                 opts.evenGroups);
      if (!param.groupLayout.empty())
        std::printf("  %s holds group_rows (%s, at most %lld): %s\n",
                    tensorName("input", n, t).c_str(),
                    param.groupLayout.c_str(),
                    static_cast<long long>(param.groupRowsBound),
                    formatInt32s(inputs.back().bytes).c_str());
      continue;
    }
    std::string file = joinPath(joinPath(opts.inputsFrom, f.name),
                                "arg" + std::to_string(n) + ".bin");
    std::string contents, error;
    if (!readFile(file, contents, error)) {
      fail(where + error);
      return false;
    }
    if (contents.size() != t.bytes) {
      fail(where + file + " has " + std::to_string(contents.size()) +
           " bytes, expected " + std::to_string(t.bytes) + " (" + describe(t) +
           ")");
      return false;
    }
    inputs.back().bytes.assign(contents.begin(), contents.end());
  }
  return true;
}

JsonValue tensorsJson(const std::vector<HostTensor> &tensors,
                      const char *prefix) {
  JsonValue list = JsonValue::array();
  for (size_t n = 0; n < tensors.size(); ++n) {
    const TensorInfo &t = *tensors[n].info;
    JsonValue v = JsonValue::object();
    v.set("name", JsonValue::string(t.name));
    v.set("dtype", JsonValue::string(fp8rt_dtype_name(t.dtype)));
    JsonValue shape = JsonValue::array();
    for (int64_t d : t.shape)
      shape.push(JsonValue::integer(d));
    v.set("shape", std::move(shape));
    v.set("file", JsonValue::string(prefix + std::to_string(n) + ".bin"));
    list.push(std::move(v));
  }
  return list;
}

bool writeDump(const Options &opts, const Manifest &manifest,
               const FunctionInfo &f, const Gpu &gpu,
               const std::vector<HostTensor> &inputs,
               const std::vector<HostTensor> &outputs) {
  std::string dir = joinPath(opts.dump, f.name), error;
  if (!makeDirs(dir, error)) {
    fail("--dump: " + error);
    return false;
  }
  for (const auto *list : {&inputs, &outputs})
    for (size_t n = 0; n < list->size(); ++n) {
      std::string file =
          (list == &inputs ? "arg" : "result") + std::to_string(n) + ".bin";
      const std::vector<uint8_t> &bytes = (*list)[n].bytes;
      if (!writeFile(joinPath(dir, file), bytes.data(), bytes.size(), error)) {
        fail("--dump: " + error);
        return false;
      }
    }
  JsonValue meta = JsonValue::object();
  meta.set("function", JsonValue::string(f.name));
  setRunProvenance(meta, opts, manifest, gpu.name);
  meta.set("arguments", tensorsJson(inputs, "arg"));
  meta.set("results", tensorsJson(outputs, "result"));
  meta.set("workspace_bytes", JsonValue::integer(int64_t(f.workspaceBytes)));
  std::string text = meta.toString();
  if (!writeFile(joinPath(dir, "meta.json"), text.data(), text.size(), error)) {
    fail("--dump: " + error);
    return false;
  }
  std::printf("  dump: %s (%zu arguments, %zu results and meta.json)\n",
              dir.c_str(), inputs.size(), outputs.size());
  return true;
}

// What one run moves and computes: the sum over its launches.
void planTotals(const Manifest &manifest, const FunctionInfo &f, int64_t &bytes,
                int64_t &flops) {
  bytes = flops = 0;
  const Function *plan = manifest.findFunction(f.name);
  for (const Launch &l : plan->launches) {
    bytes += manifest.kernels[l.kernel].bytesMoved;
    flops += manifest.kernels[l.kernel].flops;
  }
}

} // namespace

// Runs `f` of `program` on `gpu` once, dumps, and times it, as opts asks.
static int runOnGpu(const Options &opts, Program &program,
                    const FunctionInfo &fi, std::vector<HostTensor> &inputs,
                    Gpu &gpu) {
  const CudaDriver *drv = &gpu.drv;
  const Manifest &manifest = program.manifest();
  const FunctionInfo *f = &fi;
  std::string error;
  std::vector<HostTensor> outputs;
  DeviceBuffers buffers(*drv);
  std::vector<fp8rt_tensor> in, out;
  for (HostTensor &t : inputs)
    if (!gpu.check(buffers.alloc(t.bytes.size(), t.device),
                   "allocating " + t.info->name) ||
        // On the launch stream, as in fp8-run.cpp: the legacy stream's
        // copies and fills are not ordered before it.
        !gpu.check(drv->cuMemcpyHtoDAsync(t.device, t.bytes.data(),
                                          t.bytes.size(), gpu.stream),
                   "copying " + t.info->name + " to the device"))
      return 1;
  for (const TensorInfo &t : f->outputs) {
    outputs.push_back({&t, std::vector<uint8_t>(t.bytes), 0});
    // 0xFF bytes (NaN) show an element no launch wrote.
    if (!gpu.check(buffers.alloc(t.bytes, outputs.back().device),
                   "allocating " + t.name) ||
        !gpu.check(drv->cuMemsetD8Async(outputs.back().device, 0xFF, t.bytes,
                                        gpu.stream),
                   "filling " + t.name))
      return 1;
  }
  for (const auto *list : {&inputs, &outputs})
    for (const HostTensor &t : *list)
      (list == &inputs ? in : out)
          .push_back({reinterpret_cast<void *>(uintptr_t(t.device)),
                      t.info->dtype, int(t.info->shape.size()),
                      t.info->shape.data()});
  auto run = [&] {
    Status s = program.run(f->name, in.data(), in.size(), out.data(),
                           out.size(), gpu.stream);
    if (!s)
      fail(s.message());
    return s.ok() ? CUDA_SUCCESS : CUDA_ERROR_LAUNCH_FAILED;
  };
  if (run() != CUDA_SUCCESS || !gpu.check(drv->cuStreamSynchronize(gpu.stream),
                                          "function " + f->name + ": run"))
    return 1;
  std::printf("  run: ok\n");
  for (HostTensor &t : outputs)
    if (!gpu.check(drv->cuMemcpyDtoH(t.bytes.data(), t.device, t.bytes.size()),
                   "copying " + t.info->name + " back"))
      return 1;
  if (!opts.dump.empty() &&
      !writeDump(opts, manifest, *f, gpu, inputs, outputs))
    return 1;
  if (opts.iters == 0)
    return 0;

  Timing timing;
  if (!timeLaunches(gpu, opts.warmup, opts.iters,
                    "function " + f->name + ": timed run", run, timing))
    return 1;
  int64_t bytes, flops;
  planTotals(manifest, *f, bytes, flops);
  std::printf("  time: median %.4f ms, min %.4f ms over %d runs (%d warmup)",
              timing.medianMs, timing.minMs, opts.iters, opts.warmup);
  if (bytes)
    std::printf(": %.1f GB/s median", gbps(bytes, timing.medianMs));
  if (flops)
    std::printf("%s %.1f TFLOP/s median", bytes ? ";" : ":",
                tflops(flops, timing.medianMs));
  std::printf("\n  back to back: %.4f ms per run (%d runs between two "
              "events)\n",
              timing.backToBackMs, opts.iters);
  if (!opts.results.empty()) {
    JsonValue root = JsonValue::object();
    root.set("device", JsonValue::string(gpu.name));
    root.set("manifest", JsonValue::string(manifest.path));
    root.set("function", JsonValue::string(f->name));
    root.set("launches", JsonValue::integer(int64_t(f->numLaunches)));
    root.set("bytes_moved", JsonValue::integer(bytes));
    if (flops)
      root.set("flops", JsonValue::integer(flops));
    root.set("iters", JsonValue::integer(opts.iters));
    root.set("warmup", JsonValue::integer(opts.warmup));
    root.set("time", timingJson(timing, bytes, flops));
    std::string text = root.toString();
    if (!writeFile(opts.results, text.data(), text.size(), error)) {
      fail("--results: " + error);
      return 1;
    }
  }
  return 0;
}

int fp8run::runFunction(const Options &opts) {
  std::unique_ptr<Program> program;
  if (Status s = Program::load(opts.manifestPath, program); !s) {
    fail(s.message());
    return 1;
  }
  program->setProgrammaticLaunch(opts.pdl);
  const Manifest &manifest = program->manifest();
  const FunctionInfo *f = program->function(opts.function);
  if (!f) {
    std::string names;
    for (const FunctionInfo &fn : program->functions())
      names += (names.empty() ? "" : ", ") + fn.name;
    fail("--function " + opts.function + ": no such function in " +
         manifest.path +
         (names.empty() ? " (it has none)" : " (it has " + names + ")"));
    return 1;
  }
  std::printf("function %s: %zu inputs, %zu outputs, %zu launches, "
              "workspace %zu bytes, zeroed %zu bytes\n",
              f->name.c_str(), f->inputs.size(), f->outputs.size(),
              f->numLaunches, f->workspaceBytes, f->zeroedBytes);
  std::vector<HostTensor> inputs;
  if (!readInputs(opts, manifest, *f, inputs))
    return 1;
  if (opts.validate)
    return 0;

  std::string error;
  const CudaDriver *drv = cudaDriver(error);
  if (!drv) {
    fail(error);
    return 1;
  }
  Gpu gpu(*drv);
  if (!gpu.open(opts.device, manifest.chip))
    return 1;
  int rc = runOnGpu(opts, *program, *f, inputs, gpu);
  // The program's modules and memory live in gpu's context: free them while
  // it is there (the program also holds the context, but a reader should
  // not need to know that to see this is right).
  program.reset();
  return rc;
}
