//===- CApi.cpp - libfp8rt's C API over fp8rt::Program --------------------===//
//
// Each entry point turns a Status into its code and keeps the message in a
// thread-local string for fp8rt_last_error. The library is built without
// exceptions, so none can cross this boundary.
//
//===----------------------------------------------------------------------===//

#include "fp8rt/Program.h"
#include "fp8rt/fp8rt.h"

#include "Manifest.h"

#include <string>

using namespace fp8rt;

struct fp8rt_program {
  std::unique_ptr<Program> program;
};

static thread_local std::string lastError;

static fp8rt_status report(const Status &s) {
  lastError = s.message();
  return s.code();
}

static fp8rt_status invalid(const std::string &message) {
  return report(Status::error(FP8RT_ERROR_INVALID_ARGUMENT, message));
}

extern "C" {

const char *fp8rt_dtype_name(fp8rt_dtype dtype) {
  if (int(dtype) < int(FP8RT_BF16) || int(dtype) > int(FP8RT_I64))
    return nullptr;
  return dtypeName(DType(dtype));
}

size_t fp8rt_dtype_size(fp8rt_dtype dtype) {
  return fp8rt_dtype_name(dtype) ? dtypeSize(DType(dtype)) : 0;
}

fp8rt_status fp8rt_dtype_from_name(const char *name, fp8rt_dtype *out) {
  DType dtype;
  if (!name || !out)
    return invalid("fp8rt_dtype_from_name: null argument");
  if (!parseDType(name, dtype))
    return invalid(std::string("unknown dtype \"") + name + "\"");
  *out = fp8rt_dtype(dtype);
  lastError.clear();
  return FP8RT_SUCCESS;
}

fp8rt_status fp8rt_load(const char *path, fp8rt_program **out) {
  if (!path || !out)
    return invalid("fp8rt_load: null argument");
  *out = nullptr;
  std::unique_ptr<Program> program;
  if (Status s = Program::load(path, program); !s)
    return report(s);
  *out = new fp8rt_program{std::move(program)};
  lastError.clear();
  return FP8RT_SUCCESS;
}

void fp8rt_destroy(fp8rt_program *program) { delete program; }

void fp8rt_set_programmatic_launch(fp8rt_program *program, int enabled) {
  if (program)
    program->program->setProgrammaticLaunch(enabled != 0);
}

int fp8rt_num_functions(const fp8rt_program *program) {
  return program ? int(program->program->functions().size()) : 0;
}

const char *fp8rt_function_name(const fp8rt_program *program, int index) {
  if (!program || index < 0 ||
      size_t(index) >= program->program->functions().size())
    return nullptr;
  return program->program->functions()[size_t(index)].name.c_str();
}

// The named function, or an error status.
static const FunctionInfo *lookup(const fp8rt_program *program,
                                  const char *function, fp8rt_status &status) {
  status = FP8RT_SUCCESS;
  if (!program || !function) {
    status = invalid("null program or function name");
    return nullptr;
  }
  const FunctionInfo *info = program->program->function(function);
  if (!info)
    status =
        report(Status::error(FP8RT_ERROR_NOT_FOUND,
                             std::string("no function \"") + function + "\""));
  return info;
}

fp8rt_status fp8rt_function_info(const fp8rt_program *program,
                                 const char *function, fp8rt_signature *out) {
  fp8rt_status status;
  const FunctionInfo *info = lookup(program, function, status);
  if (!info)
    return status;
  if (!out)
    return invalid("fp8rt_function_info: null output");
  out->name = info->name.c_str();
  out->location = info->location.c_str();
  out->num_inputs = int(info->inputs.size());
  out->num_outputs = int(info->outputs.size());
  out->num_launches = int(info->numLaunches);
  out->workspace_bytes = info->workspaceBytes;
  out->zeroed_bytes = info->zeroedBytes;
  lastError.clear();
  return FP8RT_SUCCESS;
}

static fp8rt_status tensorInfo(const fp8rt_program *program,
                               const char *function, int index, bool output,
                               fp8rt_tensor_info *out) {
  fp8rt_status status;
  const FunctionInfo *info = lookup(program, function, status);
  if (!info)
    return status;
  const std::vector<TensorInfo> &list = output ? info->outputs : info->inputs;
  if (index < 0 || size_t(index) >= list.size())
    return report(Status::error(FP8RT_ERROR_NOT_FOUND,
                                std::string(function) + ": no " +
                                    (output ? "output " : "input ") +
                                    std::to_string(index) + " (it has " +
                                    std::to_string(list.size()) + ")"));
  if (!out)
    return invalid("null fp8rt_tensor_info");
  const TensorInfo &t = list[size_t(index)];
  out->name = t.name.c_str();
  out->dtype = t.dtype;
  out->rank = int(t.shape.size());
  out->shape = t.shape.data();
  out->bytes = t.bytes;
  lastError.clear();
  return FP8RT_SUCCESS;
}

fp8rt_status fp8rt_function_input(const fp8rt_program *program,
                                  const char *function, int index,
                                  fp8rt_tensor_info *out) {
  return tensorInfo(program, function, index, false, out);
}

fp8rt_status fp8rt_function_output(const fp8rt_program *program,
                                   const char *function, int index,
                                   fp8rt_tensor_info *out) {
  return tensorInfo(program, function, index, true, out);
}

fp8rt_status fp8rt_run(fp8rt_program *program, const char *function,
                       const fp8rt_tensor *inputs, int num_inputs,
                       const fp8rt_tensor *outputs, int num_outputs,
                       void *workspace, size_t workspace_bytes, void *stream) {
  if (!program || !function)
    return invalid("fp8rt_run: null program or function name");
  if (num_inputs < 0 || num_outputs < 0)
    return invalid(std::string(function) + ": negative tensor count");
  Status s = program->program->run(function, inputs, size_t(num_inputs),
                                   outputs, size_t(num_outputs), stream,
                                   workspace, workspace_bytes);
  return report(s);
}

const char *fp8rt_last_error(void) { return lastError.c_str(); }

} // extern "C"
