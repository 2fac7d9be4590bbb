//===- HostData.cpp - Seeded inputs and files for fp8-run -----------------===//
//
// The generator is counter-based (SplitMix64's finalizer applied to a key and
// the element index), so each element is a pure function of (seed, parameter
// name, index): no state, no dependence on the order elements are generated
// in, and the same values for a parameter of the same name in every kernel.
//
//===----------------------------------------------------------------------===//

#include "HostData.h"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/stat.h>

using namespace fp8run;

static constexpr uint64_t golden = 0x9E3779B97F4A7C15ull;

// SplitMix64's output function (Steele, Lea, Flood 2014).
static uint64_t mix64(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// FNV-1a, to turn the parameter name into part of the key.
static uint64_t hashName(const std::string &name) {
  uint64_t h = 0xCBF29CE484222325ull;
  for (unsigned char c : name) {
    h ^= c;
    h *= 0x100000001B3ull;
  }
  return h;
}

static uint32_t floatBits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

static float bitsFloat(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

uint16_t fp8run::floatToBF16(float f) {
  uint32_t b = floatBits(f);
  if (std::isnan(f))
    return uint16_t((b >> 16) | 0x40);
  return uint16_t((b + 0x7FFF + ((b >> 16) & 1)) >> 16);
}

uint16_t fp8run::floatToF16(float f) {
  uint32_t b = floatBits(f);
  uint16_t sign = uint16_t((b >> 16) & 0x8000);
  uint32_t a = b & 0x7FFFFFFF;
  if (a > 0x7F800000)
    return sign | 0x7E00;
  if (a >= 0x477FF000) // Rounds to 65536 or more (or is inf): inf.
    return sign | 0x7C00;
  if (a < 0x38800000) {
    // Below 2^-14: an f16 subnormal, in units of 2^-24. The product is exact
    // and nearbyint rounds half to even in the default rounding mode.
    float units = bitsFloat(a) * 16777216.0f;
    return sign | uint16_t(std::nearbyint(units));
  }
  // Normal: rebias the exponent, round the 13 dropped mantissa bits to even.
  // A carry into the exponent is the correct result.
  uint32_t r = a + ((15u - 127u) << 23) + 0xFFF + ((a >> 13) & 1);
  return sign | uint16_t(r >> 13);
}

namespace {
struct Generator {
  Generator(const Param &param, uint64_t seed, bool specials)
      : key(mix64(seed ^ mix64(hashName(param.name)))), specials(specials),
        rowLength(param.shape.empty() || param.shape.back() == 0
                      ? 1
                      : uint64_t(param.shape.back())),
        positive(param.name.find("amax") != std::string::npos) {}

  uint64_t hash(uint64_t index) const {
    return mix64(key + (index + 1) * golden);
  }

  // Normal-ish with outliers and a per-row gain, so tiles along a row share a
  // magnitude and rows differ by up to 2^12.
  float real(uint64_t index) const {
    uint64_t h = hash(index);
    // Irwin-Hall: the sum of four uniforms, centred and scaled to variance
    // one; |z| < 3.47.
    float sum = 0;
    for (int n = 0; n < 4; ++n)
      sum += float((h >> (16 * n)) & 0xFFFF) * (1.0f / 65536.0f);
    float z = (sum - 2.0f) * 1.7320508f;
    uint64_t g = mix64(h);
    if ((g & 1023) == 0)
      z *= std::ldexp(1.0f, 4 + int((g >> 10) % 8)); // x16 .. x2048
    uint64_t row = index / rowLength;
    int gain = int(mix64(key ^ (row * golden)) % 13) - 6; // 2^-6 .. 2^6
    float v = std::ldexp(z, gain);
    if (specials && ((g >> 20) & 0xFFFF) == 0) {
      static const float table[] = {0.0f,
                                    -0.0f,
                                    INFINITY,
                                    -INFINITY,
                                    NAN,
                                    3.0e38f,
                                    bitsFloat(0x00000123),
                                    -bitsFloat(0x00400000)};
      v = table[(g >> 36) % 8];
    }
    return positive ? std::fabs(v) : v;
  }

  uint64_t key;
  bool specials;
  uint64_t rowLength;
  bool positive;
};
} // namespace

// A grouped GEMM's group_rows, valid for its layout: contiguous, the ends
// of G groups of random size (0 to twice the average, so some are empty and
// the last rows may belong to none), at most the bound; masked, a random
// count per group up to its capacity. Sizes are rarely tile multiples.
// `even`: an even split of the rows, or (masked) every group full.
static void fillGroupRows(const Param &param, const Generator &gen, bool even,
                          uint8_t *out) {
  int64_t groups = param.numElements(), bound = param.groupRowsBound;
  bool masked = param.groupLayout == mlir::fp8::manifest::kLayoutMasked;
  int64_t end = 0;
  for (int64_t g = 0; g < groups; ++g) {
    int32_t value;
    if (even) {
      value = int32_t(masked ? bound : (g + 1) * bound / groups);
    } else if (masked) {
      value = int32_t(gen.hash(uint64_t(g)) % uint64_t(bound + 1));
    } else {
      uint64_t span = uint64_t(2 * bound / std::max<int64_t>(groups, 1) + 1);
      end = std::min(bound, end + int64_t(gen.hash(uint64_t(g)) % span));
      value = int32_t(end);
    }
    std::memcpy(out + 4 * g, &value, 4);
  }
}

void fp8run::fillSeeded(const Param &param, uint64_t seed, bool specials,
                        std::vector<uint8_t> &bytes, bool evenGroups) {
  Generator gen(param, seed, specials);
  uint64_t n = uint64_t(param.numElements());
  bytes.assign(param.numBytes(), 0);
  uint8_t *out = bytes.data();
  if (!param.groupLayout.empty())
    return fillGroupRows(param, gen, evenGroups, out);
  for (uint64_t i = 0; i < n; ++i) {
    switch (param.dtype) {
    case DType::F32: {
      float v = gen.real(i);
      std::memcpy(out + 4 * i, &v, 4);
      break;
    }
    case DType::BF16: {
      uint16_t v = floatToBF16(gen.real(i));
      std::memcpy(out + 2 * i, &v, 2);
      break;
    }
    case DType::F16: {
      uint16_t v = floatToF16(gen.real(i));
      std::memcpy(out + 2 * i, &v, 2);
      break;
    }
    // fp8 and e8m0 are uniform over their codes. Without `specials`, fp8
    // NaN (and e5m2 inf) codes become zeros of the same sign and e8m0 stays
    // in 2^-8 .. 2^8; with it every code occurs, NaN and 2^-127 .. 2^127.
    case DType::F8E4M3: {
      uint8_t c = uint8_t(gen.hash(i));
      out[i] = (c & 0x7F) == 0x7F && !specials ? (c & 0x80) : c;
      break;
    }
    case DType::F8E5M2: {
      uint8_t c = uint8_t(gen.hash(i));
      out[i] = (c & 0x7C) == 0x7C && !specials ? (c & 0x80) : c;
      break;
    }
    case DType::E8M0:
      out[i] =
          specials ? uint8_t(gen.hash(i)) : uint8_t(127 - 8 + gen.hash(i) % 17);
      break;
    case DType::F64: {
      double v = gen.real(i);
      std::memcpy(out + 8 * i, &v, 8);
      break;
    }
    case DType::I1:
      out[i] = uint8_t(gen.hash(i) & 1);
      break;
    case DType::I8:
      out[i] = uint8_t(gen.hash(i));
      break;
    case DType::I32: {
      uint32_t v = uint32_t(gen.hash(i));
      std::memcpy(out + 4 * i, &v, 4);
      break;
    }
    case DType::I64: {
      uint64_t v = gen.hash(i);
      std::memcpy(out + 8 * i, &v, 8);
      break;
    }
    }
  }
}

std::string fp8run::formatInt32s(const std::vector<uint8_t> &bytes) {
  std::string text;
  for (size_t i = 0; i + 4 <= bytes.size(); i += 4) {
    int32_t v;
    std::memcpy(&v, bytes.data() + i, 4);
    text += (i ? " " : "") + std::to_string(v);
  }
  return text;
}

bool fp8run::writeFile(const std::string &path, const void *data, size_t size,
                       std::string &error) {
  FILE *f = std::fopen(path.c_str(), "wb");
  if (!f) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  bool ok = std::fwrite(data, 1, size, f) == size;
  ok = (std::fclose(f) == 0) && ok;
  if (!ok)
    error = path + ": write error";
  return ok;
}

bool fp8run::makeDirs(const std::string &path, std::string &error) {
  for (size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos != path.size() && path[pos] != '/')
      continue;
    std::string prefix = path.substr(0, pos);
    if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST) {
      error = prefix + ": " + std::strerror(errno);
      return false;
    }
  }
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
    error = path + ": not a directory";
    return false;
  }
  return true;
}

bool fp8run::fileExists(const std::string &path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

void fp8run::setRunProvenance(JsonValue &meta, const Options &opts,
                              const Manifest &manifest,
                              const std::string &device) {
  char *absolute = ::realpath(manifest.path.c_str(), nullptr);
  meta.set("manifest", JsonValue::string(absolute ? absolute : manifest.path));
  std::free(absolute);
  meta.set("chip", JsonValue::string(manifest.chip));
  meta.set("device", JsonValue::string(device));
  meta.set("inputs", JsonValue::string(opts.inputsFrom.empty()
                                           ? "seeded"
                                           : "from " + opts.inputsFrom));
  // Seeds above 2^63 are written as strings: JSON readers use doubles.
  if (opts.seed <= uint64_t(INT64_MAX))
    meta.set("seed", JsonValue::integer(int64_t(opts.seed)));
  else
    meta.set("seed", JsonValue::string(std::to_string(opts.seed)));
}
