//===- Json.cpp - Minimal JSON reader and writer for libfp8rt -------------===//
//
// A recursive-descent reader for strict JSON (no comments, no trailing
// commas, no duplicate keys) and the matching writer. Line and column in
// errors count from 1; columns count bytes.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

using namespace fp8rt;

JsonValue JsonValue::boolean(bool value) {
  JsonValue v;
  v.k = Kind::Bool;
  v.b = value;
  return v;
}

JsonValue JsonValue::integer(int64_t value) {
  JsonValue v;
  v.k = Kind::Number;
  v.integral = true;
  v.i = value;
  v.d = static_cast<double>(value);
  return v;
}

JsonValue JsonValue::number(double value) {
  JsonValue v;
  v.k = Kind::Number;
  v.d = value;
  return v;
}

JsonValue JsonValue::string(std::string value) {
  JsonValue v;
  v.k = Kind::String;
  v.s = std::move(value);
  return v;
}

JsonValue JsonValue::array() {
  JsonValue v;
  v.k = Kind::Array;
  return v;
}

JsonValue JsonValue::object() {
  JsonValue v;
  v.k = Kind::Object;
  return v;
}

const JsonValue *JsonValue::get(const std::string &key) const {
  if (k != Kind::Object)
    return nullptr;
  for (const auto &member : members)
    if (member.first == key)
      return &member.second;
  return nullptr;
}

JsonValue &JsonValue::push(JsonValue v) {
  elements.push_back(std::move(v));
  return elements.back();
}

JsonValue &JsonValue::set(const std::string &key, JsonValue v) {
  for (auto &member : members) {
    if (member.first == key) {
      member.second = std::move(v);
      return member.second;
    }
  }
  members.emplace_back(key, std::move(v));
  return members.back().second;
}

const char *JsonValue::kindName(Kind kind) {
  switch (kind) {
  case Kind::Null:
    return "null";
  case Kind::Bool:
    return "a boolean";
  case Kind::Number:
    return "a number";
  case Kind::String:
    return "a string";
  case Kind::Array:
    return "an array";
  case Kind::Object:
    return "an object";
  }
  return "?";
}

//===----------------------------------------------------------------------===//
// Writer
//===----------------------------------------------------------------------===//

void fp8rt::writeJsonString(std::string &out, const std::string &str) {
  out += '"';
  for (unsigned char c : str) {
    switch (c) {
    case '"':
      out += "\\\"";
      break;
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    case '\b':
      out += "\\b";
      break;
    case '\f':
      out += "\\f";
      break;
    default:
      if (c < 0x20) {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out += buf;
      } else {
        out += static_cast<char>(c);
      }
    }
  }
  out += '"';
}

static bool isScalar(const JsonValue &v) {
  return !v.isArray() && !v.isObject();
}

void JsonValue::write(std::string &out, int indent) const {
  std::string pad(indent + 2, ' ');
  switch (k) {
  case Kind::Null:
    out += "null";
    return;
  case Kind::Bool:
    out += b ? "true" : "false";
    return;
  case Kind::Number: {
    char buf[32];
    if (integral)
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(i));
    else if (std::isfinite(d))
      std::snprintf(buf, sizeof(buf), "%.17g", d);
    else
      std::snprintf(buf, sizeof(buf), "null"); // JSON has no inf or NaN.
    out += buf;
    return;
  }
  case Kind::String:
    writeJsonString(out, s);
    return;
  case Kind::Array: {
    bool flat = elements.size() <= 8;
    for (const JsonValue &e : elements)
      flat = flat && isScalar(e);
    out += '[';
    for (size_t n = 0; n < elements.size(); ++n) {
      if (n)
        out += flat ? ", " : ",";
      if (!flat) {
        out += '\n';
        out += pad;
      }
      elements[n].write(out, indent + 2);
    }
    if (!flat && !elements.empty()) {
      out += '\n';
      out += std::string(indent, ' ');
    }
    out += ']';
    return;
  }
  case Kind::Object:
    out += '{';
    for (size_t n = 0; n < members.size(); ++n) {
      out += n ? ",\n" : "\n";
      out += pad;
      writeJsonString(out, members[n].first);
      out += ": ";
      members[n].second.write(out, indent + 2);
    }
    if (!members.empty()) {
      out += '\n';
      out += std::string(indent, ' ');
    }
    out += '}';
    return;
  }
}

std::string JsonValue::toString() const {
  std::string out;
  write(out, 0);
  out += '\n';
  return out;
}

//===----------------------------------------------------------------------===//
// Reader
//===----------------------------------------------------------------------===//

namespace {
class Parser {
public:
  explicit Parser(const std::string &text) : text(text) {}

  bool parseDocument(JsonValue &result) {
    skipSpace();
    if (!parseValue(result, 0))
      return false;
    skipSpace();
    if (pos != text.size())
      return fail("unexpected text after the JSON value");
    return true;
  }

  std::string error;

private:
  // Deep enough for any manifest, shallow enough for the stack.
  static constexpr int maxDepth = 128;

  bool fail(const std::string &message) {
    size_t line = 1, column = 1;
    for (size_t n = 0; n < pos && n < text.size(); ++n) {
      if (text[n] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error =
        std::to_string(line) + ":" + std::to_string(column) + ": " + message;
    return false;
  }

  bool atEnd() const { return pos >= text.size(); }
  char peek() const { return atEnd() ? '\0' : text[pos]; }

  void skipSpace() {
    while (!atEnd()) {
      char c = text[pos];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        return;
      ++pos;
    }
  }

  bool expectLiteral(const char *word) {
    size_t start = pos;
    for (const char *p = word; *p; ++p, ++pos) {
      if (peek() != *p) {
        pos = start;
        return fail(std::string("invalid literal (expected '") + word + "')");
      }
    }
    return true;
  }

  bool parseValue(JsonValue &out, int depth) {
    if (depth > maxDepth)
      return fail("nesting deeper than " + std::to_string(maxDepth));
    if (atEnd())
      return fail("unexpected end of input, expected a value");
    char c = peek();
    switch (c) {
    case '{':
      return parseObject(out, depth);
    case '[':
      return parseArray(out, depth);
    case '"': {
      std::string s;
      if (!parseString(s))
        return false;
      out = JsonValue::string(std::move(s));
      return true;
    }
    case 't':
      out = JsonValue::boolean(true);
      return expectLiteral("true");
    case 'f':
      out = JsonValue::boolean(false);
      return expectLiteral("false");
    case 'n':
      out = JsonValue::null();
      return expectLiteral("null");
    default:
      if (c == '-' || (c >= '0' && c <= '9'))
        return parseNumber(out);
      if (c == '/')
        return fail("comments are not JSON");
      return fail(std::string("unexpected character '") + c +
                  "', expected a value");
    }
  }

  bool parseObject(JsonValue &out, int depth) {
    out = JsonValue::object();
    ++pos; // '{'
    skipSpace();
    if (peek() == '}') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (peek() != '"')
        return fail(peek() == '}' ? "trailing comma in object"
                                  : "expected a string key in object");
      size_t keyPos = pos;
      std::string key;
      if (!parseString(key))
        return false;
      if (out.get(key)) {
        pos = keyPos;
        return fail("duplicate key \"" + key + "\"");
      }
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after object key");
      ++pos;
      skipSpace();
      JsonValue value;
      if (!parseValue(value, depth + 1))
        return false;
      out.set(key, std::move(value));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == '}') {
        ++pos;
        return true;
      }
      return fail("expected ',' or '}' in object");
    }
  }

  bool parseArray(JsonValue &out, int depth) {
    out = JsonValue::array();
    ++pos; // '['
    skipSpace();
    if (peek() == ']') {
      ++pos;
      return true;
    }
    while (true) {
      skipSpace();
      if (peek() == ']')
        return fail("trailing comma in array");
      JsonValue value;
      if (!parseValue(value, depth + 1))
        return false;
      out.push(std::move(value));
      skipSpace();
      if (peek() == ',') {
        ++pos;
        continue;
      }
      if (peek() == ']') {
        ++pos;
        return true;
      }
      return fail("expected ',' or ']' in array");
    }
  }

  static int hexDigit(char c) {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
      return c - 'A' + 10;
    return -1;
  }

  bool parseHex4(unsigned &value) {
    value = 0;
    for (int n = 0; n < 4; ++n) {
      int h = hexDigit(peek());
      if (h < 0)
        return fail("expected four hex digits after \\u");
      value = value * 16 + h;
      ++pos;
    }
    return true;
  }

  static void appendUtf8(std::string &out, unsigned cp) {
    if (cp < 0x80) {
      out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      out += static_cast<char>(0xC0 | (cp >> 6));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      out += static_cast<char>(0xE0 | (cp >> 12));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (cp >> 18));
      out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  bool parseString(std::string &out) {
    ++pos; // '"'
    while (true) {
      if (atEnd())
        return fail("unterminated string");
      unsigned char c = text[pos];
      if (c == '"') {
        ++pos;
        return true;
      }
      if (c < 0x20)
        return fail("control character in string (escape it)");
      if (c != '\\') {
        out += static_cast<char>(c);
        ++pos;
        continue;
      }
      ++pos;
      char e = peek();
      ++pos;
      switch (e) {
      case '"':
      case '\\':
      case '/':
        out += e;
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        unsigned cp;
        if (!parseHex4(cp))
          return false;
        if (cp >= 0xD800 && cp < 0xDC00) {
          // A high surrogate must be followed by an escaped low surrogate.
          unsigned low;
          if (peek() != '\\' || pos + 1 >= text.size() || text[pos + 1] != 'u')
            return fail("unpaired surrogate in \\u escape");
          pos += 2;
          if (!parseHex4(low))
            return false;
          if (low < 0xDC00 || low >= 0xE000)
            return fail("unpaired surrogate in \\u escape");
          cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
        } else if (cp >= 0xDC00 && cp < 0xE000) {
          return fail("unpaired surrogate in \\u escape");
        }
        appendUtf8(out, cp);
        break;
      }
      default:
        --pos;
        return fail("invalid escape in string");
      }
    }
  }

  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  bool parseNumber(JsonValue &out) {
    size_t start = pos;
    if (peek() == '-')
      ++pos;
    if (peek() == '0') {
      ++pos;
      if (isDigit(peek()))
        return fail("leading zero in number");
    } else if (isDigit(peek())) {
      while (isDigit(peek()))
        ++pos;
    } else {
      return fail("expected digits in number");
    }
    bool integral = true;
    if (peek() == '.') {
      integral = false;
      ++pos;
      if (!isDigit(peek()))
        return fail("expected digits after '.' in number");
      while (isDigit(peek()))
        ++pos;
    }
    if (peek() == 'e' || peek() == 'E') {
      integral = false;
      ++pos;
      if (peek() == '+' || peek() == '-')
        ++pos;
      if (!isDigit(peek()))
        return fail("expected digits in exponent");
      while (isDigit(peek()))
        ++pos;
    }
    std::string token = text.substr(start, pos - start);
    if (integral) {
      errno = 0;
      long long value = std::strtoll(token.c_str(), nullptr, 10);
      if (errno != ERANGE) {
        out = JsonValue::integer(value);
        return true;
      }
    }
    out = JsonValue::number(std::strtod(token.c_str(), nullptr));
    return true;
  }

  const std::string &text;
  size_t pos = 0;
};
} // namespace

bool fp8rt::parseJson(const std::string &text, JsonValue &result,
                      std::string &error) {
  Parser parser(text);
  if (parser.parseDocument(result))
    return true;
  error = parser.error;
  return false;
}
