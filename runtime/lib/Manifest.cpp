//===- Manifest.cpp - Kernel manifests of fp8-opt --fp8-emit --------------===//
//
// Validation is strict about what the runtime uses (a wrong grid or shape would
// launch out of bounds) and ignores keys it does not use. Parameter and
// kernel names become file and directory names in dumps, so they are
// restricted to a safe character set.
//
//===----------------------------------------------------------------------===//

#include "Manifest.h"
#include "ManifestReader.h"

#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>

using namespace fp8rt;
namespace schema = mlir::fp8::manifest;

size_t fp8rt::dtypeSize(DType dtype) {
  switch (dtype) {
  case DType::BF16:
  case DType::F16:
    return 2;
  case DType::F32:
  case DType::I32:
    return 4;
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::E8M0:
  case DType::I1: // One byte per element, 0 or 1.
  case DType::I8:
    return 1;
  case DType::F64:
  case DType::I64:
    return 8;
  }
  return 0;
}

static const struct {
  const char *name;
  DType dtype;
} dtypeNames[] = {
    {"bf16", DType::BF16}, {"f16", DType::F16},       {"f32", DType::F32},
    {"f64", DType::F64},   {"f8e4m3", DType::F8E4M3}, {"f8e5m2", DType::F8E5M2},
    {"e8m0", DType::E8M0}, {"i1", DType::I1},         {"i8", DType::I8},
    {"i32", DType::I32},   {"i64", DType::I64},
};

const char *fp8rt::dtypeName(DType dtype) {
  for (const auto &entry : dtypeNames)
    if (entry.dtype == dtype)
      return entry.name;
  return "?";
}

bool fp8rt::parseDType(const std::string &name, DType &dtype) {
  for (const auto &entry : dtypeNames) {
    if (name == entry.name) {
      dtype = entry.dtype;
      return true;
    }
  }
  return false;
}

int64_t fp8rt::numElements(const std::vector<int64_t> &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

int64_t Param::numElements() const { return fp8rt::numElements(shape); }

std::string fp8rt::typeString(DType dtype, const std::vector<int64_t> &shape) {
  std::string s = std::string(dtypeName(dtype)) + " [";
  for (size_t n = 0; n < shape.size(); ++n)
    s += (n ? ", " : "") + std::to_string(shape[n]);
  return s + "]";
}

const Kernel *Manifest::find(const std::string &name) const {
  for (const Kernel &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

const Function *Manifest::findFunction(const std::string &name) const {
  for (const Function &f : functions)
    if (f.name == name)
      return &f;
  return nullptr;
}

std::string fp8rt::shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t n = 0; n < shape.size(); ++n)
    s += (n ? "x" : "") + std::to_string(shape[n]);
  return s + "]";
}

std::string fp8rt::tensorMapString(const Kernel &kernel, const Param &map) {
  const Param &t = kernel.params[map.tensor];
  return map.name + ": " + t.name + " " + shapeString(t.shape) + " " +
         dtypeName(t.dtype) + ", box [" + std::to_string(map.box[0]) + "x" +
         std::to_string(map.box[1]) + "], swizzle " + swizzleName(map.swizzle);
}

bool fp8rt::readFile(const std::string &path, std::string &contents,
                     std::string &error) {
  FILE *f = std::fopen(path.c_str(), "rb");
  if (!f) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  contents.clear();
  char buf[1 << 16];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof(buf), f)) > 0)
    contents.append(buf, n);
  bool bad = std::ferror(f);
  std::fclose(f);
  if (bad) {
    error = path + ": read error";
    return false;
  }
  return true;
}

std::string fp8rt::joinPath(const std::string &dir, const std::string &name) {
  if (name.empty() || name[0] == '/' || dir.empty())
    return name;
  if (dir.back() == '/')
    return dir + name;
  return dir + "/" + name;
}

static bool readScaling(Reader &r, const JsonValue &scaling,
                        const std::string &where) {
  if (!scaling.isObject())
    return r.fail(where, "expected an object");
  std::vector<int64_t> tile;
  if (!r.integers(scaling, where, schema::kTile, 2, -1, INT32_MAX,
                  "an array of 2 tile extents (positive, or -1 for '*')", tile))
    return false;
  for (int64_t t : tile)
    if (t == 0)
      return r.fail(where + ".tile", "a tile extent cannot be 0");
  std::string scale, round;
  if (!r.string(scaling, where, schema::kScale, scale) ||
      !r.string(scaling, where, schema::kRound, round))
    return false;
  if (scale != "f32" && scale != "e8m0")
    return r.fail(where + ".scale",
                  "unknown scale \"" + scale + "\" (expected f32 or e8m0)");
  if (round != "exact" && round != "pow2_ceil" && round != "pow2_floor")
    return r.fail(where + ".round",
                  "unknown round \"" + round +
                      "\" (expected exact, pow2_ceil or pow2_floor)");
  return true;
}

const char *fp8rt::swizzleName(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::None:
    return "none";
  case Swizzle::B32:
    return "32B";
  case Swizzle::B64:
    return "64B";
  case Swizzle::B128:
    return "128B";
  }
  return "?";
}

// A tensormap param's own keys; the tensor it names is resolved once every
// param is read (checkTensorMap).
static bool readTensorMap(Reader &r, const JsonValue &p,
                          const std::string &where, Param &param,
                          std::string &tensor) {
  std::vector<int64_t> box;
  std::string swizzle;
  if (!r.string(p, where, schema::kTensor, tensor) ||
      !r.integers(p, where, schema::kBox, 2, 1, 256,
                  "an array of 2 integers in [1, 256] (rows, cols)", box) ||
      !r.string(p, where, schema::kSwizzle, swizzle))
    return false;
  param.box[0] = unsigned(box[0]);
  param.box[1] = unsigned(box[1]);
  bool known = false;
  for (Swizzle s : {Swizzle::None, Swizzle::B32, Swizzle::B64, Swizzle::B128})
    if (swizzle == swizzleName(s)) {
      param.swizzle = s;
      known = true;
    }
  if (!known)
    return r.fail(where + ".swizzle", "unknown swizzle \"" + swizzle +
                                          "\" (expected none, 32B, 64B or "
                                          "128B)");
  return true;
}

// A grouped GEMM's group_rows: an i32 input of one dim, with the layout and
// bound its values must have.
static bool readGroupRows(Reader &r, const JsonValue &p,
                          const std::string &where, Param &param) {
  const JsonValue *groups = p.get(schema::kGroupRows);
  if (!groups)
    return true;
  std::string at = where + "." + schema::kGroupRows;
  if (!groups->isObject())
    return r.fail(at, "expected an object");
  if (!param.isInput() || param.dtype != DType::I32 || param.shape.size() != 1)
    return r.fail(at, "only an i32 input of one dim holds group_rows");
  if (!r.string(*groups, at, schema::kLayout, param.groupLayout) ||
      !r.integer(*groups, at, schema::kRows, 0, INT32_MAX,
                 param.groupRowsBound))
    return false;
  if (param.groupLayout != schema::kLayoutContiguous &&
      param.groupLayout != schema::kLayoutMasked)
    return r.fail(at + "." + schema::kLayout,
                  "unknown layout \"" + param.groupLayout +
                      "\" (expected contiguous or masked)");
  return true;
}

static bool readParam(Reader &r, const JsonValue &p, const std::string &where,
                      Param &param, std::string &tensor) {
  if (!p.isObject())
    return r.fail(where, "expected an object");
  if (!r.string(p, where, schema::kName, param.name) ||
      !r.string(p, where, schema::kRole, param.role))
    return false;
  if (!isSafeName(param.name))
    return r.fail(where + ".name",
                  "\"" + param.name +
                      "\" is not usable as a file name (letters, digits, "
                      "'_', '-', '.')");
  if (param.isTensorMap())
    return readTensorMap(r, p, where, param, tensor);
  if (!readDTypeAndShape(r, p, where, param.dtype, param.shape))
    return false;
  return readGroupRows(r, p, where, param);
}

bool fp8rt::readDTypeAndShape(Reader &r, const JsonValue &p,
                              const std::string &where, DType &dtype,
                              std::vector<int64_t> &shape) {
  std::string name;
  if (!r.string(p, where, schema::kDType, name) ||
      !r.integers(p, where, schema::kShape, -1, 0, INT64_MAX,
                  "an array of non-negative integers", shape))
    return false;
  if (!parseDType(name, dtype))
    return r.fail(where + ".dtype",
                  "unknown dtype \"" + name +
                      "\" (expected bf16, f16, f32, f64, f8e4m3, f8e5m2, "
                      "e8m0, i1, i8, i32 or i64)");
  // Keep byte counts far from overflow: 2^40 elements is 1 TiB of fp8.
  int64_t n = 1;
  for (int64_t d : shape) {
    if (d != 0 && n > (int64_t(1) << 40) / d)
      return r.fail(where + ".shape", "too many elements");
    n *= d;
  }
  return true;
}

// What cuTensorMapEncodeTiled would reject, said in the manifest's terms
// before any GPU is touched: a row-major 2-D tensor of a type TMA copies, a
// row stride it can address, and a box whose rows fit the swizzle span.
static bool checkTensorMap(Reader &r, const std::string &where,
                           const std::string &tensor, Kernel &kernel,
                           Param &map) {
  const std::vector<Param> &params = kernel.params;
  size_t index = 0;
  while (index < params.size() && params[index].name != tensor)
    ++index;
  if (index == params.size())
    return r.fail(where + ".tensor",
                  "no param \"" + tensor + "\" in this kernel");
  const Param &t = params[index];
  if (t.isTensorMap())
    return r.fail(where + ".tensor",
                  "\"" + tensor + "\" is itself a tensormap");
  if (t.dtype == DType::I64)
    return r.fail(where + ".tensor", "\"" + tensor +
                                         "\" is i64; tensor maps take "
                                         "any dtype but i64");
  if (t.shape.size() != 2 || t.shape[0] == 0 || t.shape[1] == 0 ||
      t.shape[0] > (int64_t(1) << 32) || t.shape[1] > (int64_t(1) << 32))
    return r.fail(where + ".tensor",
                  "\"" + tensor +
                      "\" must be 2-D [rows, cols] with both extents in "
                      "[1, 2^32]");
  size_t size = dtypeSize(t.dtype);
  int64_t stride = t.shape[1] * int64_t(size);
  if (stride % 16 != 0)
    return r.fail(where + ".tensor",
                  "the row stride of \"" + tensor + "\" is " +
                      std::to_string(stride) + " bytes (" +
                      std::to_string(t.shape[1]) + " " + dtypeName(t.dtype) +
                      " columns), not a multiple of 16 as TMA needs");
  unsigned inner = map.box[1] * unsigned(size);
  if (inner % 16 != 0)
    return r.fail(where + ".box",
                  "a box row of " + std::to_string(map.box[1]) + " " +
                      dtypeName(t.dtype) + " elements is " +
                      std::to_string(inner) +
                      " bytes, not a multiple of 16 as TMA needs");
  if (map.swizzle != Swizzle::None && inner > unsigned(map.swizzle))
    return r.fail(where + ".box",
                  "a box row of " + std::to_string(map.box[1]) + " " +
                      dtypeName(t.dtype) + " elements is " +
                      std::to_string(inner) + " bytes, more than the " +
                      swizzleName(map.swizzle) + " swizzle span");
  map.tensor = index;
  return true;
}

static bool readKernel(Reader &r, const JsonValue &k, const std::string &where,
                       const std::string &dir, Kernel &kernel) {
  if (!k.isObject())
    return r.fail(where, "expected an object");
  kernel.entry = k;
  std::vector<int64_t> grid, block;
  int64_t shared = 0;
  if (!r.string(k, where, schema::kName, kernel.name) ||
      !r.string(k, where, schema::kPtx, kernel.ptxFile) ||
      !r.string(k, where, schema::kOp, kernel.op) ||
      !r.integers(k, where, schema::kGrid, 3, 1, INT32_MAX,
                  "an array of 3 positive integers", grid) ||
      !r.integers(k, where, schema::kBlock, 3, 1, 1024,
                  "an array of 3 integers in [1, 1024]", block) ||
      !r.integer(k, where, schema::kSharedBytes, 0, INT32_MAX, shared) ||
      !r.integer(k, where, schema::kBytesMoved, 0, INT64_MAX,
                 kernel.bytesMoved))
    return false;
  if (k.get(schema::kFlops) &&
      !r.integer(k, where, schema::kFlops, 0, INT64_MAX, kernel.flops))
    return false;
  if (!isSafeName(kernel.name))
    return r.fail(where + ".name", "\"" + kernel.name +
                                       "\" is not usable as a directory "
                                       "name (letters, digits, '_', '-', '.')");
  if (block[0] * block[1] * block[2] > 1024)
    return r.fail(where + ".block", "more than 1024 threads per block");
  for (int n = 0; n < 3; ++n) {
    kernel.grid[n] = unsigned(grid[n]);
    kernel.block[n] = unsigned(block[n]);
  }
  kernel.sharedBytes = unsigned(shared);
  kernel.ptxPath = joinPath(dir, kernel.ptxFile);

  // A cluster fixed in the PTX (.reqnctapercluster): the launch fails
  // unless the grid is a multiple of it; 8 CTAs is the portable limit.
  if (k.get(schema::kCluster)) {
    std::vector<int64_t> cluster;
    if (!r.integers(k, where, schema::kCluster, 3, 1, 8,
                    "an array of 3 integers in [1, 8]", cluster))
      return false;
    if (cluster[0] * cluster[1] * cluster[2] > 8)
      return r.fail(where + ".cluster", "more than 8 CTAs per cluster");
    for (int n = 0; n < 3; ++n) {
      if (grid[n] % cluster[n] != 0)
        return r.fail(where + ".grid",
                      "grid[" + std::to_string(n) +
                          "] = " + std::to_string(grid[n]) +
                          " is not a multiple of the cluster's " +
                          std::to_string(cluster[n]));
      kernel.cluster[n] = unsigned(cluster[n]);
    }
  }

  // Programmatic dependent launch is only safe for a kernel that waits for
  // the previous grid before it touches global memory; a mistyped value
  // must not turn it on (or silently off).
  if (const JsonValue *pdl = k.get(schema::kPdl)) {
    if (!pdl->isBool())
      return r.fail(where + ".pdl", "expected true or false");
    kernel.pdl = pdl->getBool();
  }

  // An older draft listed tensor maps apart from the params; dropping them
  // would launch with too few arguments.
  if (k.get("tensor_maps"))
    return r.fail(where + ".tensor_maps",
                  "not supported: a tensor map is a param of role "
                  "\"tensormap\" (see tools/fp8-run/README.md)");

  if (const JsonValue *et = k.get(schema::kElementType)) {
    if (!et->isString() ||
        (et->getString() != "f8e4m3" && et->getString() != "f8e5m2"))
      return r.fail(where + ".element_type", "expected \"f8e4m3\" or "
                                             "\"f8e5m2\"");
  }
  if (const JsonValue *scaling = k.get(schema::kScaling))
    if (!readScaling(r, *scaling, where + ".scaling"))
      return false;
  if (const JsonValue *rounding = k.get(schema::kRounding)) {
    if (!rounding->isString() || (rounding->getString() != "nearest" &&
                                  rounding->getString() != "stochastic"))
      return r.fail(where + ".rounding",
                    "expected \"nearest\" or \"stochastic\"");
  }

  const JsonValue *params =
      r.member(k, where, schema::kParams, JsonValue::Kind::Array);
  if (!params)
    return false;
  std::vector<std::string> tensors; // Of each param; "" if no tensormap.
  for (size_t n = 0; n < params->getArray().size(); ++n) {
    Param param;
    std::string at = where + ".params[" + std::to_string(n) + "]";
    tensors.emplace_back();
    if (!readParam(r, params->getArray()[n], at, param, tensors.back()))
      return false;
    for (const Param &other : kernel.params)
      if (other.name == param.name)
        return r.fail(at + ".name",
                      "duplicate parameter \"" + param.name + "\"");
    kernel.params.push_back(std::move(param));
  }
  // A map may name a param listed after it.
  for (size_t n = 0; n < kernel.params.size(); ++n)
    if (kernel.params[n].isTensorMap() &&
        !checkTensorMap(r, where + ".params[" + std::to_string(n) + "]",
                        tensors[n], kernel, kernel.params[n]))
      return false;
  // Stochastic rounding reads its seed from an i64 input.
  if (const JsonValue *rounding = k.get(schema::kRounding))
    if (rounding->getString() == "stochastic" &&
        std::none_of(kernel.params.begin(), kernel.params.end(),
                     [](const Param &p) {
                       return p.isInput() && p.dtype == DType::I64;
                     }))
      return r.fail(where + ".params",
                    "stochastic rounding but no i64 seed input");
  return true;
}

bool fp8rt::loadManifest(const std::string &path, Manifest &manifest,
                         std::string &error) {
  std::string text;
  if (!readFile(path, text, error))
    return false;
  return parseManifest(text, path, manifest, error);
}

bool fp8rt::parseManifest(const std::string &text, const std::string &path,
                          Manifest &manifest, std::string &error) {
  JsonValue root;
  std::string jsonError;
  if (!parseJson(text, root, jsonError)) {
    error = path + ":" + jsonError;
    return false;
  }
  manifest.path = path;
  size_t slash = path.rfind('/');
  manifest.dir = slash == std::string::npos ? "." : path.substr(0, slash);
  if (manifest.dir.empty())
    manifest.dir = "/";

  std::string readError;
  Reader r(readError);
  bool ok = [&] {
    if (!root.isObject())
      return r.fail("manifest", "expected a JSON object at the top level");
    // A manifest without a version predates it (version 1's keys).
    if (root.get(schema::kVersionKey)) {
      int64_t version = 0;
      if (!r.integer(root, "manifest", schema::kVersionKey, 1, INT32_MAX,
                     version))
        return false;
      if (version > schema::kVersion)
        return r.fail(
            "manifest.version",
            "version " + std::to_string(version) +
                " is newer than this reader (libfp8rt) reads (" +
                std::to_string(schema::kVersion) +
                "): rebuild libfp8rt and fp8-run from the same checkout as "
                "fp8-opt");
      manifest.version = int(version);
    }
    if (!r.string(root, "manifest", schema::kChip, manifest.chip))
      return false;
    const JsonValue *kernels =
        r.member(root, "manifest", schema::kKernels, JsonValue::Kind::Array);
    if (!kernels)
      return false;
    if (kernels->getArray().empty())
      return r.fail("manifest.kernels", "no kernels");
    for (size_t n = 0; n < kernels->getArray().size(); ++n) {
      Kernel kernel;
      std::string at = "kernels[" + std::to_string(n) + "]";
      if (!readKernel(r, kernels->getArray()[n], at, manifest.dir, kernel))
        return false;
      if (manifest.find(kernel.name))
        return r.fail(at + ".name", "duplicate kernel \"" + kernel.name + "\"");
      manifest.kernels.push_back(std::move(kernel));
    }
    return readFunctions(r, root, manifest);
  }();
  if (!ok)
    error = path + ": " + readError;
  return ok;
}
