//===- ManifestReader.h - typed reads of manifest keys ----------*- C++ -*-===//
//
// The kernel reader (Manifest.cpp) and the launch-plan reader (Plan.cpp)
// read keys the same way and report the first error with its key path.
//
//===----------------------------------------------------------------------===//

#ifndef FP8RT_LIB_MANIFESTREADER_H
#define FP8RT_LIB_MANIFESTREADER_H

#include "Json.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fp8rt {

// Reads typed fields out of one JSON object, recording the first error with
// its key path.
class Reader {
public:
  explicit Reader(std::string &error) : error(error) {}

  bool fail(const std::string &where, const std::string &message) {
    if (error.empty())
      error = where + ": " + message;
    return false;
  }

  const JsonValue *member(const JsonValue &obj, const std::string &where,
                          const char *key, JsonValue::Kind kind) {
    const JsonValue *v = obj.get(key);
    if (!v) {
      fail(where, std::string("missing key \"") + key + "\"");
      return nullptr;
    }
    if (v->kind() != kind) {
      fail(where + "." + key, std::string("expected ") +
                                  JsonValue::kindName(kind) + ", found " +
                                  JsonValue::kindName(v->kind()));
      return nullptr;
    }
    return v;
  }

  bool string(const JsonValue &obj, const std::string &where, const char *key,
              std::string &out) {
    const JsonValue *v = member(obj, where, key, JsonValue::Kind::String);
    if (!v)
      return false;
    out = v->getString();
    return true;
  }

  bool integer(const JsonValue &obj, const std::string &where, const char *key,
               int64_t lo, int64_t hi, int64_t &out) {
    const JsonValue *v = member(obj, where, key, JsonValue::Kind::Number);
    if (!v)
      return false;
    if (!v->isInteger() || v->getInteger() < lo || v->getInteger() > hi)
      return fail(where + "." + key, "expected an integer in [" +
                                         std::to_string(lo) + ", " +
                                         std::to_string(hi) + "]");
    out = v->getInteger();
    return true;
  }

  // An array of `count` integers in [lo, hi] (any length when count < 0).
  bool integers(const JsonValue &obj, const std::string &where, const char *key,
                int count, int64_t lo, int64_t hi, const char *what,
                std::vector<int64_t> &out) {
    const JsonValue *v = obj.get(key);
    bool ok = v && v->isArray() &&
              (count < 0 || v->getArray().size() == size_t(count));
    if (ok) {
      for (const JsonValue &e : v->getArray())
        ok =
            ok && e.isInteger() && e.getInteger() >= lo && e.getInteger() <= hi;
    }
    if (!ok) {
      if (!v)
        return fail(where, std::string("missing key \"") + key + "\"");
      return fail(where + "." + key, std::string("expected ") + what);
    }
    out.clear();
    for (const JsonValue &e : v->getArray())
      out.push_back(e.getInteger());
    return true;
  }

private:
  std::string &error;
};

// Names become file names in dumps: letters, digits, '_', '-', '.', not
// starting with '.'.
inline bool isSafeName(const std::string &name) {
  if (name.empty() || name[0] == '.' || name.size() > 200)
    return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || c == '_' || c == '-' || c == '.';
    if (!ok)
      return false;
  }
  return true;
}

struct Manifest;
enum class DType;

/// The "dtype" and "shape" of a param or buffer; refuses more than 2^40
/// elements, so byte counts stay far from overflow.
bool readDTypeAndShape(Reader &r, const JsonValue &obj,
                       const std::string &where, DType &dtype,
                       std::vector<int64_t> &shape);

/// Reads and validates the launch plans of `root` (its "functions") into
/// `manifest`, whose kernels are already read (Plan.cpp).
bool readFunctions(Reader &r, const JsonValue &root, Manifest &manifest);

} // namespace fp8rt

#endif // FP8RT_LIB_MANIFESTREADER_H
