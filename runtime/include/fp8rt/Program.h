//===- Program.h - libfp8rt's C++ API ---------------------------*- C++ -*-===//
//
// A Program is a loaded manifest directory: its kernels' PTX and its
// functions' launch plans. Program::run launches one function's plan on a
// stream, on caller-owned device tensors (fp8rt_tensor); the semantics are
// those of fp8rt_run in fp8rt.h, which is a thin layer over this class.
// Errors are returned as a Status with a message; nothing throws.
//
//===----------------------------------------------------------------------===//

#ifndef FP8RT_PROGRAM_H
#define FP8RT_PROGRAM_H

#include "fp8rt/fp8rt.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace fp8rt {

struct Manifest;

/// Success, or an fp8rt_status code with a message saying what failed.
class [[nodiscard]] Status {
public:
  Status() = default;
  static Status success() { return Status(); }
  static Status error(fp8rt_status code, std::string message) {
    Status s;
    s.statusCode = code;
    s.text = std::move(message);
    return s;
  }
  bool ok() const { return statusCode == FP8RT_SUCCESS; }
  explicit operator bool() const { return ok(); }
  fp8rt_status code() const { return statusCode; }
  const std::string &message() const { return text; }

private:
  fp8rt_status statusCode = FP8RT_SUCCESS;
  std::string text;
};

/// One input or output of a function.
struct TensorInfo {
  std::string name;
  fp8rt_dtype dtype = FP8RT_F32;
  std::vector<int64_t> shape;
  size_t bytes = 0;
};

/// A function's signature and what it needs besides its tensors.
struct FunctionInfo {
  std::string name, location;
  std::vector<TensorInfo> inputs, outputs;
  size_t workspaceBytes = 0;
  size_t zeroedBytes = 0;
  size_t numLaunches = 0;
};

class Program {
public:
  /// Loads `path`, a directory holding manifest.json or a manifest file:
  /// reads and validates the manifest and reads each kernel's PTX. Needs no
  /// GPU; modules are loaded on a function's first run in a context.
  static Status load(const std::string &path, std::unique_ptr<Program> &out);

  /// Frees what the program allocated and unloads its modules; no run may
  /// still be in flight.
  ~Program();
  Program(const Program &) = delete;
  Program &operator=(const Program &) = delete;

  /// The functions with a launch plan, in manifest order.
  const std::vector<FunctionInfo> &functions() const;
  /// nullptr if there is no such function.
  const FunctionInfo *function(const std::string &name) const;

  /// Enqueues every launch of `function` on `stream` (a CUstream) in the
  /// current context; see fp8rt_run.
  Status run(const std::string &function, const fp8rt_tensor *inputs,
             size_t numInputs, const fp8rt_tensor *outputs, size_t numOutputs,
             void *stream, void *workspace = nullptr,
             size_t workspaceBytes = 0);

  /// Whether kernels the manifest marks "pdl" are launched with
  /// programmatic dependent launch (the default), so that one may start
  /// while the previous launch drains; false launches every kernel plainly
  /// (fp8-run's --no-pdl, for A/B timing). Takes effect from the next run.
  void setProgrammaticLaunch(bool enabled);

  /// The manifest as read (lib/Manifest.h), for tools such as fp8-run.
  const Manifest &manifest() const;

  struct Impl;

private:
  explicit Program(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl;
};

} // namespace fp8rt

#endif // FP8RT_PROGRAM_H
