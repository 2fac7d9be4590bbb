//===- Plan.cpp - Launch plans of manifest version 2 ----------------------===//
//
// Reads each function's buffers and launches and checks everything the
// runtime relies on when it binds addresses and launches: a plan that passes
// here cannot make the runtime read or write outside a buffer it was given or
// allocated, or launch a kernel with arguments of the wrong type. Each error
// names its key path, e.g. "functions[0].launches[3].args[2]: buffer 17 does
// not exist".
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"
#include "ManifestReader.h"

#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"

using namespace fp8rt;
namespace schema = mlir::fp8::manifest;

static const struct {
  const char *name;
  BufferKind kind;
} bufferKinds[] = {
    {schema::kKindArgument, BufferKind::Argument},
    {schema::kKindResult, BufferKind::Result},
    {schema::kKindIntermediate, BufferKind::Intermediate},
    {schema::kKindZeroed, BufferKind::Zeroed},
    {schema::kKindView, BufferKind::View},
};

const char *fp8rt::bufferKindName(BufferKind kind) {
  for (const auto &entry : bufferKinds)
    if (entry.kind == kind)
      return entry.name;
  return "?";
}

static std::string at(const std::string &where, const char *key, size_t n) {
  return where + "." + key + "[" + std::to_string(n) + "]";
}

// "buffer 5 (t1)".
static std::string describe(const Function &f, size_t id) {
  return "buffer " + std::to_string(id) + " (" + f.buffers[id].name + ")";
}

// The buffer whose memory `id` is: itself, or what its view shows.
static const Buffer &root(const Function &f, size_t id) {
  const Buffer &b = f.buffers[id];
  return b.kind == BufferKind::View ? f.buffers[b.of] : b;
}

static bool readBuffer(Reader &r, const JsonValue &b, const std::string &where,
                       size_t id, Function &f, Buffer &buffer) {
  if (!b.isObject())
    return r.fail(where, "expected an object");
  int64_t readId = 0;
  std::string kind;
  if (!r.integer(b, where, schema::kId, 0, INT64_MAX, readId) ||
      !r.string(b, where, schema::kName, buffer.name) ||
      !r.string(b, where, schema::kKind, kind) ||
      !readDTypeAndShape(r, b, where, buffer.dtype, buffer.shape) ||
      !r.integer(b, where, schema::kBytes, 0, INT64_MAX, buffer.bytes))
    return false;
  if (size_t(readId) != id)
    return r.fail(where + ".id", "expected " + std::to_string(id) +
                                     " (a buffer's id is its index in "
                                     "buffers), found " +
                                     std::to_string(readId));
  bool known = false;
  for (const auto &entry : bufferKinds)
    if (kind == entry.name) {
      buffer.kind = entry.kind;
      known = true;
    }
  if (!known)
    return r.fail(where + ".kind", "unknown kind \"" + kind +
                                       "\" (expected argument, result, "
                                       "intermediate, zeroed or view)");
  int64_t expected =
      numElements(buffer.shape) * int64_t(dtypeSize(buffer.dtype));
  if (buffer.bytes != expected)
    return r.fail(where + ".bytes", std::to_string(buffer.bytes) +
                                        " bytes, but " +
                                        typeString(buffer.dtype, buffer.shape) +
                                        " is " + std::to_string(expected));
  int64_t value = 0;
  switch (buffer.kind) {
  case BufferKind::Argument:
  case BufferKind::Result:
    if (!r.integer(b, where, schema::kIndex, 0, INT32_MAX, value))
      return false;
    buffer.index = size_t(value);
    return true;
  case BufferKind::Intermediate:
  case BufferKind::Zeroed: {
    if (!r.integer(b, where, schema::kOffset, 0, INT64_MAX, buffer.offset))
      return false;
    if (buffer.offset % schema::kBufferAlignment != 0)
      return r.fail(where + ".offset",
                    std::to_string(buffer.offset) + " is not a multiple of " +
                        std::to_string(schema::kBufferAlignment));
    bool inWorkspace = buffer.kind == BufferKind::Intermediate;
    int64_t limit = inWorkspace ? f.workspaceBytes : f.zeroedBytes;
    if (buffer.offset > limit || buffer.bytes > limit - buffer.offset)
      return r.fail(
          where + ".offset",
          std::to_string(buffer.offset) + " + " + std::to_string(buffer.bytes) +
              " bytes is past " +
              (inWorkspace ? schema::kWorkspaceBytes : schema::kZeroedBytes) +
              " = " + std::to_string(limit));
    return true;
  }
  case BufferKind::View:
    if (!r.integer(b, where, schema::kOf, 0, INT64_MAX, value))
      return false;
    buffer.of = size_t(value);
    return true;
  }
  return true;
}

// A view shows the bytes of a buffer that is not itself a view.
static bool checkView(Reader &r, const std::string &where, const Function &f,
                      const Buffer &view) {
  if (view.of >= f.buffers.size())
    return r.fail(where + ".of",
                  "buffer " + std::to_string(view.of) + " does not exist");
  const Buffer &of = f.buffers[view.of];
  if (of.kind == BufferKind::View)
    return r.fail(where + ".of", describe(f, view.of) + " is itself a view");
  if (of.bytes != view.bytes)
    return r.fail(where + ".of",
                  describe(f, view.of) + " has " + std::to_string(of.bytes) +
                      " bytes, this view " + std::to_string(view.bytes));
  return true;
}

// The argument (or result) buffers' indices are 0..n-1, each once, and the
// function's `arguments` (or `results`) list them in that order.
static bool checkSignature(Reader &r, const JsonValue &fn,
                           const std::string &where, BufferKind kind,
                           const char *key, Function &f,
                           std::vector<size_t> &ids) {
  const char *what = bufferKindName(kind);
  std::vector<int64_t> byIndex;
  size_t count = 0;
  for (const Buffer &b : f.buffers)
    count += b.kind == kind;
  byIndex.assign(count, -1);
  for (size_t id = 0; id < f.buffers.size(); ++id) {
    const Buffer &b = f.buffers[id];
    if (b.kind != kind)
      continue;
    std::string bufferAt = at(where, schema::kBuffers, id) + ".index";
    if (b.index >= count)
      return r.fail(bufferAt, std::string(what) + " index " +
                                  std::to_string(b.index) +
                                  ", but the plan "
                                  "has " +
                                  std::to_string(count) + " " + what +
                                  " buffers (indices 0.." +
                                  std::to_string(count) + "-1)");
    if (byIndex[b.index] >= 0)
      return r.fail(bufferAt, std::string(what) + " index " +
                                  std::to_string(b.index) + " is also " +
                                  describe(f, size_t(byIndex[b.index])) + "'s");
    byIndex[b.index] = int64_t(id);
  }
  std::vector<int64_t> listed;
  if (!r.integers(fn, where, key, -1, 0, INT64_MAX, "an array of buffer ids",
                  listed))
    return false;
  if (listed.size() != count)
    return r.fail(where + "." + key, "lists " + std::to_string(listed.size()) +
                                         " buffers, but the plan has " +
                                         std::to_string(count) + " " + what +
                                         " buffers");
  for (size_t n = 0; n < listed.size(); ++n) {
    if (listed[n] != byIndex[n])
      return r.fail(at(where, key, n),
                    "expected buffer " + std::to_string(byIndex[n]) + " (the " +
                        what + " of index " + std::to_string(n) + "), found " +
                        std::to_string(listed[n]));
    ids.push_back(size_t(listed[n]));
  }
  return true;
}

// One launch: a known kernel, and an argument per param that fits it.
static bool readLaunch(Reader &r, const JsonValue &l, const std::string &where,
                       const Manifest &m, const Function &f, Launch &launch) {
  if (!l.isObject())
    return r.fail(where, "expected an object");
  std::string kernelName;
  std::vector<int64_t> args;
  if (!r.string(l, where, schema::kKernel, kernelName) ||
      !r.integers(l, where, schema::kArgs, -1, 0, INT64_MAX,
                  "an array of buffer ids", args))
    return false;
  if (const JsonValue *op = l.get(schema::kOp); op && op->isString())
    launch.op = op->getString();
  if (const JsonValue *loc = l.get(schema::kLocation); loc && loc->isString())
    launch.location = loc->getString();
  const Kernel *kernel = m.find(kernelName);
  if (!kernel)
    return r.fail(where + ".kernel",
                  "no kernel \"" + kernelName + "\" in the manifest");
  launch.kernel = size_t(kernel - m.kernels.data());
  if (args.size() != kernel->params.size())
    return r.fail(where + ".args",
                  std::to_string(args.size()) + " args, but kernel " +
                      kernel->name + " has " +
                      std::to_string(kernel->params.size()) + " params");
  for (int64_t id : args)
    launch.args.push_back(size_t(id));
  for (size_t p = 0; p < args.size(); ++p) {
    std::string argAt = at(where, schema::kArgs, p);
    size_t id = launch.args[p];
    if (id >= f.buffers.size())
      return r.fail(argAt, "buffer " + std::to_string(id) + " does not exist");
  }
  for (size_t p = 0; p < args.size(); ++p) {
    std::string argAt = at(where, schema::kArgs, p);
    const Param &param = kernel->params[p];
    size_t id = launch.args[p];
    const Buffer &b = f.buffers[id];
    std::string paramName = "param " + param.name + " of " + kernel->name;
    if (param.isTensorMap()) {
      size_t mapped = launch.args[param.tensor];
      if (id != mapped)
        return r.fail(argAt, paramName + " maps param " +
                                 kernel->params[param.tensor].name + " (" +
                                 describe(f, mapped) + "), but is given " +
                                 describe(f, id));
      continue;
    }
    if (b.dtype != param.dtype || b.shape != param.shape)
      return r.fail(argAt, describe(f, id) + " is " +
                               typeString(b.dtype, b.shape) + ", but " +
                               paramName + " is " +
                               typeString(param.dtype, param.shape));
    BufferKind kind = root(f, id).kind;
    if (param.isOutput() && kind == BufferKind::Argument)
      return r.fail(argAt, paramName + " is an output, but " + describe(f, id) +
                               " is (a view of) an argument: inputs are "
                               "read-only");
    if (param.role == schema::kRoleWorkspace && kind != BufferKind::Zeroed)
      return r.fail(argAt, paramName + " is a workspace, but " +
                               describe(f, id) + " is " + bufferKindName(kind) +
                               ", not zeroed");
  }
  return true;
}

static bool readFunction(Reader &r, const JsonValue &fn,
                         const std::string &where, const Manifest &m,
                         Function &f) {
  if (!fn.isObject())
    return r.fail(where, "expected an object");
  if (!r.string(fn, where, schema::kName, f.name) ||
      !r.integer(fn, where, schema::kWorkspaceBytes, 0, INT64_MAX,
                 f.workspaceBytes) ||
      !r.integer(fn, where, schema::kZeroedBytes, 0, INT64_MAX, f.zeroedBytes))
    return false;
  // Function names become directory names in fp8-run's dumps.
  if (!isSafeName(f.name))
    return r.fail(where + ".name", "\"" + f.name +
                                       "\" is not usable as a directory name "
                                       "(letters, digits, '_', '-', '.')");
  if (const JsonValue *loc = fn.get(schema::kLocation); loc && loc->isString())
    f.location = loc->getString();

  const JsonValue *buffers =
      r.member(fn, where, schema::kBuffers, JsonValue::Kind::Array);
  if (!buffers)
    return false;
  for (size_t id = 0; id < buffers->getArray().size(); ++id) {
    Buffer b;
    if (!readBuffer(r, buffers->getArray()[id], at(where, schema::kBuffers, id),
                    id, f, b))
      return false;
    f.buffers.push_back(std::move(b));
  }
  for (size_t id = 0; id < f.buffers.size(); ++id)
    if (f.buffers[id].kind == BufferKind::View &&
        !checkView(r, at(where, schema::kBuffers, id), f, f.buffers[id]))
      return false;
  if (!checkSignature(r, fn, where, BufferKind::Argument, schema::kArguments, f,
                      f.arguments) ||
      !checkSignature(r, fn, where, BufferKind::Result, schema::kResults, f,
                      f.results))
    return false;

  const JsonValue *launches =
      r.member(fn, where, schema::kLaunches, JsonValue::Kind::Array);
  if (!launches)
    return false;
  std::vector<bool> written(f.buffers.size(), false);
  for (size_t n = 0; n < launches->getArray().size(); ++n) {
    Launch launch;
    if (!readLaunch(r, launches->getArray()[n], at(where, schema::kLaunches, n),
                    m, f, launch))
      return false;
    const Kernel &kernel = m.kernels[launch.kernel];
    for (size_t p = 0; p < launch.args.size(); ++p)
      if (kernel.params[p].isOutput())
        written[size_t(&root(f, launch.args[p]) - f.buffers.data())] = true;
    f.launches.push_back(std::move(launch));
  }
  // An unwritten result would hand the caller whatever its memory held.
  for (size_t n = 0; n < f.results.size(); ++n)
    if (!written[f.results[n]])
      return r.fail(at(where, schema::kResults, n),
                    describe(f, f.results[n]) +
                        " is not written by any launch");
  return true;
}

bool fp8rt::readFunctions(Reader &r, const JsonValue &root, Manifest &m) {
  const JsonValue *functions = root.get(schema::kFunctions);
  if (!functions)
    return true; // Version 1, or a module without functions to plan.
  if (m.version < 2)
    return r.fail("manifest.functions",
                  "launch plans need \"version\": 2 (this manifest is "
                  "version " +
                      std::to_string(m.version) + ")");
  if (!functions->isArray())
    return r.fail("manifest.functions", "expected an array");
  for (size_t n = 0; n < functions->getArray().size(); ++n) {
    Function f;
    std::string where = "functions[" + std::to_string(n) + "]";
    if (!readFunction(r, functions->getArray()[n], where, m, f))
      return false;
    if (m.findFunction(f.name))
      return r.fail(where + ".name", "duplicate function \"" + f.name + "\"");
    m.functions.push_back(std::move(f));
  }
  return true;
}
