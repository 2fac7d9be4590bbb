//===- ManifestFuzzer.cpp - libFuzzer target over libfp8rt's readers ------===//
//
// Feeds arbitrary bytes to what libfp8rt does with a manifest before any GPU
// is touched: the JSON reader (Json.cpp), the kernel reader and validator
// (Manifest.cpp) and the launch-plan reader (Plan.cpp). Any input must end in
// a value or an error message; a crash, a hang or a sanitizer report is a
// bug. Two properties are checked as well: what the JSON writer writes reads
// back as the same value, and a manifest that validates can be described
// (the strings fp8-run prints) without reading outside its vectors.
// docs/Fuzzing.md says how to build and run it.
//
//===----------------------------------------------------------------------===//

#include "Json.h"
#include "Manifest.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace fp8rt;

namespace {

[[noreturn]] void fail(const char *what, const std::string &detail) {
  std::fprintf(stderr, "fp8rt-fuzz: %s: %s\n", what, detail.c_str());
  std::abort();
}

/// Whether `a` and `b` are the same JSON value. Numbers compare by value
/// (the writer prints -0.0 as an integer and non-finite numbers as null, so
/// those are exempt).
bool same(const JsonValue &a, const JsonValue &b) {
  if (a.isNumber() && !std::isfinite(a.getNumber()))
    return true;
  if (a.kind() != b.kind())
    return false;
  switch (a.kind()) {
  case JsonValue::Kind::Null:
    return true;
  case JsonValue::Kind::Bool:
    return a.getBool() == b.getBool();
  case JsonValue::Kind::Number:
    if (a.isInteger() && b.isInteger())
      return a.getInteger() == b.getInteger();
    return a.getNumber() == b.getNumber();
  case JsonValue::Kind::String:
    return a.getString() == b.getString();
  case JsonValue::Kind::Array:
    if (a.getArray().size() != b.getArray().size())
      return false;
    for (size_t n = 0; n < a.getArray().size(); ++n)
      if (!same(a.getArray()[n], b.getArray()[n]))
        return false;
    return true;
  case JsonValue::Kind::Object:
    if (a.getObject().size() != b.getObject().size())
      return false;
    for (size_t n = 0; n < a.getObject().size(); ++n)
      if (a.getObject()[n].first != b.getObject()[n].first ||
          !same(a.getObject()[n].second, b.getObject()[n].second))
        return false;
    return true;
  }
  return false;
}

/// Everything fp8-run --validate prints about a manifest, computed and
/// dropped: it indexes params, buffers and kernels by the ids the readers
/// checked.
size_t describe(const Manifest &m) {
  size_t length = 0;
  for (const Kernel &k : m.kernels) {
    for (const Param &p : k.params) {
      length += p.numBytes();
      length += p.isTensorMap() ? tensorMapString(k, p).size()
                                : typeString(p.dtype, p.shape).size() +
                                      shapeString(p.shape).size();
    }
    length += k.entry.toString().size();
  }
  for (const Function &f : m.functions) {
    for (size_t id : f.arguments)
      length += f.buffers.at(id).name.size();
    for (size_t id : f.results)
      length += f.buffers.at(id).name.size();
    for (const Buffer &b : f.buffers)
      length += bufferKindName(b.kind)[0] +
                (b.kind == BufferKind::View ? f.buffers.at(b.of).bytes : 0);
    for (const Launch &l : f.launches) {
      const Kernel &k = m.kernels.at(l.kernel);
      if (l.args.size() != k.params.size())
        fail("launch", "args and params differ in number");
      for (size_t id : l.args)
        length += f.buffers.at(id).bytes;
    }
  }
  return length;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);

  JsonValue value;
  std::string error;
  if (parseJson(text, value, error)) {
    std::string written = value.toString();
    JsonValue again;
    std::string againError;
    if (!parseJson(written, again, againError))
      fail("the writer's output does not read back", againError);
    if (!same(value, again))
      fail("the writer's output reads back as another value", written);
  } else if (error.empty()) {
    fail("parseJson", "failed without an error message");
  }

  Manifest manifest;
  std::string manifestError;
  if (parseManifest(text, "fuzz/manifest.json", manifest, manifestError))
    (void)describe(manifest);
  else if (manifestError.empty())
    fail("parseManifest", "failed without an error message");
  return 0;
}
