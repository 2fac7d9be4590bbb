//===- Json.h - Minimal JSON reader and writer for libfp8rt -----*- C++ -*-===//
//
// libfp8rt builds on machines without LLVM, so it cannot use llvm::json. This
// is a small strict JSON (RFC 8259) reader and writer: enough for kernel
// manifests and the files fp8-run writes. Objects keep their key order; keys
// are looked up linearly (manifests are small). Errors are reported through
// return values with a line and column, never by exceptions.
//
//===----------------------------------------------------------------------===//

#ifndef FP8RT_LIB_JSON_H
#define FP8RT_LIB_JSON_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace fp8rt {

class JsonValue {
public:
  enum class Kind { Null, Bool, Number, String, Array, Object };

  JsonValue() = default;
  static JsonValue null() { return JsonValue(); }
  static JsonValue boolean(bool b);
  // A number written as an integer keeps its exact 64-bit value.
  static JsonValue integer(int64_t i);
  static JsonValue number(double d);
  static JsonValue string(std::string s);
  static JsonValue array();
  static JsonValue object();

  Kind kind() const { return k; }
  bool isNull() const { return k == Kind::Null; }
  bool isBool() const { return k == Kind::Bool; }
  bool isNumber() const { return k == Kind::Number; }
  // True for numbers written without fraction or exponent that fit int64.
  bool isInteger() const { return k == Kind::Number && integral; }
  bool isString() const { return k == Kind::String; }
  bool isArray() const { return k == Kind::Array; }
  bool isObject() const { return k == Kind::Object; }

  bool getBool() const { return b; }
  int64_t getInteger() const { return i; }
  double getNumber() const { return d; }
  const std::string &getString() const { return s; }
  const std::vector<JsonValue> &getArray() const { return elements; }
  const std::vector<std::pair<std::string, JsonValue>> &getObject() const {
    return members;
  }

  // Object member lookup; nullptr if absent or not an object.
  const JsonValue *get(const std::string &key) const;

  // Builders for writing.
  JsonValue &push(JsonValue v);
  // Sets (or replaces) an object member.
  JsonValue &set(const std::string &key, JsonValue v);

  // Serializes with two-space indentation; short arrays of scalars stay on
  // one line so shapes read as [8192, 8192].
  std::string toString() const;

  static const char *kindName(Kind kind);

private:
  void write(std::string &out, int indent) const;

  Kind k = Kind::Null;
  bool b = false;
  bool integral = false;
  int64_t i = 0;
  double d = 0;
  std::string s;
  std::vector<JsonValue> elements;
  std::vector<std::pair<std::string, JsonValue>> members;
};

// Parses `text`. On failure returns false and sets `error` to
// "LINE:COLUMN: what went wrong".
bool parseJson(const std::string &text, JsonValue &result, std::string &error);

// Appends `s` as a quoted JSON string.
void writeJsonString(std::string &out, const std::string &s);

} // namespace fp8rt

#endif // FP8RT_LIB_JSON_H
