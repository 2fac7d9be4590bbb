//===- Mutator.cpp - structure-aware mutations of fp8-mlir inputs ---------===//
//
// Each edit finds the tokens of one kind in the text (integers where shapes,
// tiles and attribute values have them, element types, enum keywords, the
// options of the pass line) and replaces one of them by a value that the
// passes treat differently: a boundary (0, 1, a power of two and its
// neighbours), a value past a hardware or 64-bit limit, a dynamic `?`, a
// type or keyword of the same family. Inputs without such a token fall back
// to libFuzzer's byte-level mutation.
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <vector>

using namespace fp8fuzz;

namespace {

using Rng = std::mt19937;

size_t below(Rng &rng, size_t n) {
  if (n == 0)
    return 0;
  return std::uniform_int_distribution<size_t>(0, n - 1)(rng);
}

bool chance(Rng &rng, unsigned percent) { return below(rng, 100) < percent; }

template <size_t N> const char *pick(Rng &rng, const char *const (&list)[N]) {
  return list[below(rng, N)];
}

constexpr const char *kHeader = "// fp8-fuzz:";

// Recipe option values: presets, an unknown name, full attributes (quoted as
// a pass option needs them, and a few not), and broken ones.
const char *const kRecipeOptions[] = {
    "tensorwise",
    "delayed",
    "rowwise",
    "rowwise_gw_hp",
    "blockwise",
    "mxfp8",
    "mxfp8_ocp",
    "blockwise",
    "mxfp8",
    "deepseek",
    "\"\"",
    "\"#fp8.recipe<blockwise, hadamard = 128>\"",
    "\"#fp8.recipe<mxfp8, hadamard = 32>\"",
    "\"#fp8.recipe<mxfp8, accumulate = fast>\"",
    "\"#fp8.recipe<blockwise, stochastic_gradients = true>\"",
    "\"#fp8.recipe<delayed, margin = 2>\"",
    "\"#fp8.recipe<tensorwise, amax = delayed<16, most_recent>>\"",
    "\"#fp8.recipe<rowwise, high_precision = [wgrad, dgrad]>\"",
    "\"#fp8.recipe<blockwise, hadamard = 3>\"",
    "\"#fp8.recipe<activation = #fp8.policy<f8E4M3FN, tile = [1, 64], scale "
    "= f32>, weight = #fp8.policy<f8E4M3FN, tile = [64, 64], scale = f32>, "
    "gradient = #fp8.policy<f8E5M2, tile = [1, 64], scale = f32>>\"",
    "\"#fp8.recipe<activation = #fp8.policy<f8E4M3FN, tile = [1, 32], scale "
    "= f8E8M0FNU, round = pow2_floor>, weight = #fp8.policy<f8E4M3FN, tile = "
    "[1, 32], scale = f8E8M0FNU, round = pow2_floor>, gradient = "
    "#fp8.policy<f8E5M2, tile = [1, 16], scale = f8E8M0FNU, round = "
    "pow2_ceil>>\"",
    "#fp8.recipe<blockwise>",
    "\"#fp8.recipe<blockwise\"",
    "\"#fp8.recipe<>\"",
};

const char *const kChips[] = {
    "sm_90a",  "sm_100a",           "sm_90a", "sm_100a", "sm_89", "sm_90",
    "sm_100",  "sm_120a",           "sm_80",  "\"\"",    "sm_",   "gfx942",
    "sm_100f", "\"sm_90a,sm_100a\""};

const char *const kHadamardSizes[] = {"0", "16", "32", "64", "128",    "256",
                                      "3", "-1", "1",  "2",  "1048576"};

const char *const kRoles[] = {"activation", "weight", "gradient",
                              "activation,weight", "nothing"};

std::string recipe(Rng &rng) { return pick(rng, kRecipeOptions); }
std::string chip(Rng &rng) { return pick(rng, kChips); }

/// Integer replacements: boundaries, powers of two and their neighbours,
/// hardware limits (2^31 - 1 grid blocks, 256 TMA box rows, 227 KB of shared
/// memory) and values whose products overflow 64 bits.
const char *const kIntegers[] = {"0",
                                 "1",
                                 "2",
                                 "3",
                                 "7",
                                 "8",
                                 "15",
                                 "16",
                                 "17",
                                 "31",
                                 "32",
                                 "33",
                                 "48",
                                 "63",
                                 "64",
                                 "65",
                                 "96",
                                 "100",
                                 "127",
                                 "128",
                                 "129",
                                 "192",
                                 "255",
                                 "256",
                                 "257",
                                 "384",
                                 "512",
                                 "1000",
                                 "1024",
                                 "2048",
                                 "4096",
                                 "8192",
                                 "16384",
                                 "65536",
                                 "232448",
                                 "1048576",
                                 "2147483647",
                                 "2147483648",
                                 "4294967296",
                                 "4294967297",
                                 "1099511627776",
                                 "4611686018427387904",
                                 "9223372036854775807",
                                 "18446744073709551616",
                                 "-1",
                                 "-128"};

// Element and scale types the fp8 ops accept or must refuse.
const char *const kTypes[] = {"bf16",       "f16",    "f32",       "f64",
                              "f8E4M3FN",   "f8E5M2", "f8E8M0FNU", "f8E4M3FNUZ",
                              "f8E5M2FNUZ", "f8E4M3", "f8E3M4",    "f4E2M1FN",
                              "f6E2M3FN",   "tf32",   "i1",        "i8",
                              "i32",        "i64",    "index"};

// Keywords of one family replace each other.
const std::vector<std::vector<const char *>> kKeywordFamilies = {
    {"exact", "pow2_ceil", "pow2_floor"},
    {"nearest", "stochastic"},
    {"promoted", "fast"},
    {"row_major", "col_major_tma"},
    {"max", "most_recent"},
    {"activation", "weight", "gradient"},
    {"fprop", "dgrad", "wgrad"},
    {"tensorwise", "delayed", "rowwise", "rowwise_gw_hp", "blockwise", "mxfp8",
     "mxfp8_ocp"},
    {"true", "false"},
    {"sm_90a", "sm_100a", "sm_89", "sm_90", "sm_120a"},
    {"parallel", "reduction"},
    {"fp8.role", "fp8.seed", "fp8.amax"},
    {"linalg.matmul", "linalg.batch_matmul", "linalg.matmul_transpose_b"},
};

bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' ||
         c == '.';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Whether a token at [begin, end) of `text` stands alone: not inside an
/// identifier, except after the `x` of a shape (`4x8xf32`).
bool standsAlone(const std::string &text, size_t begin, size_t end) {
  if (end < text.size() && isIdentChar(text[end]) && text[end] != 'x' &&
      text[end] != '.')
    return false;
  if (begin == 0 || !isIdentChar(text[begin - 1]))
    return true;
  return text[begin - 1] == 'x' && begin >= 2 &&
         (isDigit(text[begin - 2]) || text[begin - 2] == '?');
}

struct Span {
  size_t begin, end;
};

/// Integer literals where shapes, tiles and attribute values have them.
std::vector<Span> findIntegers(const std::string &text) {
  std::vector<Span> spans;
  for (size_t i = 0; i < text.size();) {
    if (!isDigit(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    while (end < text.size() && isDigit(text[end]))
      ++end;
    bool shapeEnd = end < text.size() && text[end] == 'x';
    bool ok = (shapeEnd || end == text.size() || !isIdentChar(text[end]) ||
               text[end] == '.') &&
              (i == 0 || standsAlone(text, i, i) || text[i - 1] == '-');
    if (i > 0 && text[i - 1] == '-' && i >= 2 && isIdentChar(text[i - 2]))
      ok = false;
    if (ok)
      spans.push_back({i, end});
    i = end;
  }
  return spans;
}

/// Word-bounded occurrences of any of `words` (longest first).
std::vector<std::pair<Span, size_t>>
findWords(const std::string &text, const std::vector<const char *> &words) {
  std::vector<std::pair<Span, size_t>> found;
  for (size_t w = 0; w < words.size(); ++w) {
    size_t length = std::strlen(words[w]);
    for (size_t at = text.find(words[w]); at != std::string::npos;
         at = text.find(words[w], at + 1)) {
      size_t end = at + length;
      if (!standsAlone(text, at, end))
        continue;
      if (end < text.size() && isIdentChar(text[end]))
        continue;
      found.push_back({{at, end}, w});
    }
  }
  return found;
}

std::string replaceSpan(const std::string &text, Span span,
                        const std::string &with) {
  return text.substr(0, span.begin) + with + text.substr(span.end);
}

std::string mutateInteger(const std::string &body, Rng &rng) {
  std::vector<Span> spans = findIntegers(body);
  if (spans.empty())
    return body;
  Span span = spans[below(rng, spans.size())];
  std::string old = body.substr(span.begin, span.end - span.begin);
  char before = span.begin ? body[span.begin - 1] : ' ';
  bool inShape = before == '<' || before == 'x';
  bool inList = before == '[' || before == ' ';
  std::string with;
  switch (below(rng, 6)) {
  case 0:
  case 1:
    with = pick(rng, kIntegers);
    break;
  case 2: { // A neighbour or a power-of-two step of the old value.
    unsigned long long v = std::strtoull(old.c_str(), nullptr, 10);
    switch (below(rng, 4)) {
    case 0:
      v += 1;
      break;
    case 1:
      v = v ? v - 1 : 0;
      break;
    case 2:
      v *= 2;
      break;
    default:
      v /= 2;
    }
    with = std::to_string(v);
    break;
  }
  case 3: // Dynamic extents in shapes, `*` extents in tiles.
    with = inShape ? "?" : inList ? "*" : "0";
    break;
  case 4:
    with = std::to_string(below(rng, 300));
    break;
  default:
    with = std::to_string(1ull << below(rng, 64));
  }
  return replaceSpan(body, span, with);
}

std::string mutateType(const std::string &body, Rng &rng) {
  std::vector<const char *> types(std::begin(kTypes), std::end(kTypes));
  auto found = findWords(body, types);
  if (found.empty())
    return body;
  Span span = found[below(rng, found.size())].first;
  // A dense array's element type stays an integer or float type of whole
  // bytes (the parser crashes on `array<index: ...>`: docs/KnownIssues.md).
  if (span.begin >= 6 && body.compare(span.begin - 6, 6, "array<") == 0)
    return body;
  return replaceSpan(body, span, pick(rng, kTypes));
}

std::string mutateKeyword(const std::string &body, Rng &rng) {
  std::vector<const char *> all;
  std::vector<size_t> familyOf;
  for (size_t f = 0; f < kKeywordFamilies.size(); ++f)
    for (const char *word : kKeywordFamilies[f]) {
      all.push_back(word);
      familyOf.push_back(f);
    }
  auto found = findWords(body, all);
  if (found.empty())
    return body;
  auto [span, word] = found[below(rng, found.size())];
  const auto &family =
      chance(rng, 90) ? kKeywordFamilies[familyOf[word]]
                      : kKeywordFamilies[below(rng, kKeywordFamilies.size())];
  return replaceSpan(body, span, family[below(rng, family.size())]);
}

/// Adds or removes a dimension of a shape (`4x8xf32` -> `2x4x8xf32`, `8xf32`).
std::string mutateRank(const std::string &body, Rng &rng) {
  std::vector<Span> dims;
  for (Span s : findIntegers(body)) {
    char before = s.begin ? body[s.begin - 1] : ' ';
    if ((before == '<' || before == 'x') && s.end < body.size() &&
        body[s.end] == 'x')
      dims.push_back(s);
  }
  if (dims.empty())
    return body;
  Span dim = dims[below(rng, dims.size())];
  if (chance(rng, 50))
    return body.substr(0, dim.begin) + body.substr(dim.end + 1);
  return body.substr(0, dim.begin) + pick(rng, kIntegers) + "x" +
         body.substr(dim.begin);
}

std::vector<std::string> splitLines(const std::string &text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) {
      if (start < text.size())
        lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

std::string mutateLines(const std::string &body, Rng &rng) {
  std::vector<std::string> lines = splitLines(body);
  if (lines.size() < 2)
    return body;
  size_t at = below(rng, lines.size());
  switch (below(rng, 3)) {
  case 0:
    lines.erase(lines.begin() + at);
    break;
  case 1:
    lines.insert(lines.begin() + at, lines[at]);
    break;
  default:
    std::swap(lines[at], lines[below(rng, lines.size())]);
  }
  std::string out;
  for (const std::string &line : lines)
    out += line + "\n";
  return out;
}

/// Replaces the value of one `key=` option of the pass line.
std::string mutateOption(const std::string &header, Rng &rng) {
  struct Key {
    const char *key;
    std::string (*value)(Rng &);
  };
  static const Key keys[] = {
      {"recipe=", recipe},
      {"chip=", chip},
      {"size=", [](Rng &r) { return std::string(pick(r, kHadamardSizes)); }},
      {"to=", recipe},
      {"roles=", [](Rng &r) { return std::string(pick(r, kRoles)); }},
      {"seed=", [](Rng &r) { return std::string(pick(r, kIntegers)); }},
      {"line-info=",
       [](Rng &r) { return std::string(chance(r, 50) ? "true" : "false"); }},
  };
  std::vector<std::pair<Span, const Key *>> values;
  for (const Key &k : keys) {
    size_t length = std::strlen(k.key);
    for (size_t at = header.find(k.key); at != std::string::npos;
         at = header.find(k.key, at + 1)) {
      size_t begin = at + length, end = begin;
      if (end < header.size() && (header[end] == '"' || header[end] == '\'')) {
        size_t close = header.find(header[end], end + 1);
        end = close == std::string::npos ? header.size() : close + 1;
      } else {
        while (end < header.size() && header[end] != ' ' &&
               header[end] != ',' && header[end] != '}')
          ++end;
      }
      values.push_back({{begin, end}, &k});
    }
  }
  if (values.empty())
    return header;
  auto [span, key] = values[below(rng, values.size())];
  return replaceSpan(header, span, key->value(rng));
}

void splitInput(const std::string &input, std::string &header,
                std::string &body) {
  size_t prefix = std::strlen(kHeader);
  if (input.compare(0, prefix, kHeader) != 0) {
    header.clear();
    body = input;
    return;
  }
  size_t newline = input.find('\n');
  header =
      input.substr(prefix, newline == std::string::npos ? std::string::npos
                                                        : newline - prefix);
  body = newline == std::string::npos ? "" : input.substr(newline + 1);
  size_t first = header.find_first_not_of(' ');
  header = first == std::string::npos ? "" : header.substr(first);
}

std::string joinInput(const std::string &header, const std::string &body) {
  return std::string(kHeader) + " " + header + "\n" + body;
}

} // namespace

size_t fp8fuzz::estimateKernels(const std::string &body) {
  // An op's name follows its results' `=` or starts its line; attributes
  // (#fp8.scaling, fp8.role) do neither.
  auto isOp = [&](size_t at) {
    while (at > 0 && body[at - 1] == ' ')
      --at;
    return at == 0 || body[at - 1] == '=' || body[at - 1] == '\n';
  };
  size_t kernels = 0;
  for (const char *prefix : {"fp8.", "linalg.", "arith."})
    for (size_t at = body.find(prefix); at != std::string::npos;
         at = body.find(prefix, at + 1))
      if (isOp(at))
        ++kernels;
  // A GEMM kernel costs LLVM's NVPTX backend several quantization kernels'
  // time (about 1 s under load; three of them ran past the 10 s limit on a
  // busy 2-core machine): it counts as 4; a linalg.matmul becomes a GEMM and
  // its quantizations.
  auto countOps = [&](const char *name) {
    size_t count = 0;
    for (size_t at = body.find(name); at != std::string::npos;
         at = body.find(name, at + 1))
      if (isOp(at))
        ++count;
    return count;
  };
  kernels += 3 * countOps("fp8.scaled_matmul");
  kernels += 6 * countOps("linalg.matmul");
  return kernels;
}

bool fp8fuzz::makesPTX(const std::string &pipeline) {
  return pipeline.find("fp8-to-ptx") != std::string::npos ||
         pipeline.find("fp8-emit") != std::string::npos;
}

bool fp8fuzz::withinKernelBudget(const std::string &pipeline,
                                 const std::string &body) {
  if (makesPTX(pipeline))
    return estimateKernels(body) <= kMaxKernelsToPTX;
  if (pipeline.find("convert-fp8-to-nvvm") != std::string::npos)
    return estimateKernels(body) <= kMaxKernels;
  return true;
}

std::string fp8fuzz::randomPipeline(Rng &rng, const std::string &body) {
  std::string r = recipe(rng), c = chip(rng);
  std::string q = "fp8-quantize-matmuls{recipe=" + r + "}";
  std::string pipeline = "fp8-pipeline{recipe=" + r + " chip=" + c + "}";
  std::string nvvm = "convert-fp8-to-nvvm{chip=" + c + "}";
  // Kernel generation down to PTX: one input in 25, where it is cheap.
  if (chance(rng, 4) && estimateKernels(body) <= kMaxKernelsToPTX) {
    switch (below(rng, 3)) {
    case 0:
      return "fp8-to-ptx{chip=" + c + "}";
    case 1:
      return pipeline + ",fp8-to-ptx{chip=" + c + "}";
    default:
      return pipeline + ",fp8-emit{chip=" + c + "}";
    }
  }
  switch (below(rng, 20)) {
  case 0:
    return "";
  case 1:
    return q;
  case 2:
    return q + ",fp8-derive-scaling";
  case 3:
    return q + ",fp8-derive-scaling,fp8-legalize{chip=" + c + "}";
  case 4:
    return "fp8-derive-scaling";
  case 5:
    return "fp8-legalize{chip=" + c + "}";
  case 6:
    return "fp8-derive-scaling,fp8-legalize{chip=" + c + "},canonicalize,cse";
  case 7:
    return std::string("fp8-insert-hadamard{size=") +
           pick(rng, kHadamardSizes) + "}";
  case 8:
    return q + ",fp8-insert-hadamard{if-recipe=true},fp8-derive-scaling";
  case 9:
    return "fp8-convert-scaling{to=" + recipe(rng) +
           " roles=" + pick(rng, kRoles) +
           (chance(rng, 50) ? " rounding=stochastic" : "") + "}";
  case 10:
    return pipeline;
  case 11:
    return pipeline + ",fp8-print-layouts";
  case 12:
    return "fp8-print-layouts";
  case 13:
    return "fp8-lower-to-reference";
  case 14:
    return pipeline + ",fp8-reference-pipeline";
  case 15:
    return nvvm;
  case 16:
    return pipeline + "," + nvvm;
  case 17:
    return "fp8-fuse-quantization," + nvvm;
  case 18:
    return chance(rng, 50) ? "fp8-pipeline{recipe=" + r + " chip=" + c +
                                 " monitor=true}," + nvvm
                           : "fp8-monitor-quantization," + nvvm;
  default:
    return "fp8-derive-scaling,fp8-legalize{chip=" + c + "}," + nvvm;
  }
}

std::string fp8fuzz::mutate(const std::string &input, size_t maxSize, Rng &rng,
                            const ByteMutator &byteMutator) {
  std::string header, body;
  splitInput(input, header, body);
  unsigned edits = 1 + below(rng, 3);
  for (unsigned n = 0; n < edits; ++n) {
    unsigned kind = below(rng, 100);
    if (kind < 10) {
      header = randomPipeline(rng, body);
    } else if (kind < 22) {
      header = mutateOption(header, rng);
    } else if (kind < 50) {
      body = mutateInteger(body, rng);
    } else if (kind < 62) {
      body = mutateType(body, rng);
    } else if (kind < 77) {
      body = mutateKeyword(body, rng);
    } else if (kind < 85) {
      body = mutateRank(body, rng);
    } else if (kind < 92) {
      body = mutateLines(body, rng);
    } else if (byteMutator) {
      size_t room = std::max(maxSize, body.size());
      std::string bytes = body;
      bytes.resize(room);
      size_t size = byteMutator(reinterpret_cast<uint8_t *>(&bytes[0]),
                                body.size(), room);
      bytes.resize(std::min(size, room));
      body = bytes;
    }
  }
  std::string out = joinInput(header, body);
  if (out.size() > maxSize)
    out.resize(maxSize);
  return out;
}

std::string fp8fuzz::crossOver(const std::string &first,
                               const std::string &second, Rng &rng) {
  std::string header1, body1, header2, body2;
  splitInput(first, header1, body1);
  splitInput(second, header2, body2);
  if (chance(rng, 50))
    return joinInput(header1, body2);
  return joinInput(header2, body1);
}
