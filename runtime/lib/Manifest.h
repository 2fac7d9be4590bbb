//===- Manifest.h - Kernel manifests of fp8-opt --fp8-emit ------*- C++ -*-===//
//
// `fp8-opt --fp8-emit=dir=DIR` writes one PTX file per kernel and a
// manifest.json that says how to launch each: grid, block, dynamic shared
// memory, and the parameters (each one device pointer) with their role, dtype
// and shape. This is the manifest's reader and validator; it needs no CUDA.
//
// A param of role "tensormap" is no buffer of its own: the runtime encodes a
// TMA descriptor (CUtensorMap) of another 2-D param and passes a device copy of
// it, for the kernels that load tiles with cp.async.bulk.tensor.
//
//===----------------------------------------------------------------------===//

#ifndef FP8RT_LIB_MANIFEST_H
#define FP8RT_LIB_MANIFEST_H

#include "Json.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace fp8rt {

// In the order and with the values of fp8rt_dtype (fp8rt.h).
enum class DType {
  BF16,
  F16,
  F32,
  F64,
  F8E4M3,
  F8E5M2,
  E8M0,
  I1,
  I8,
  I32,
  I64
};

size_t dtypeSize(DType dtype);
const char *dtypeName(DType dtype);
bool parseDType(const std::string &name, DType &dtype);

// Shared-memory swizzle of a tensor map: 16-byte chunks permuted within
// spans of this many bytes (0: none).
enum class Swizzle { None = 0, B32 = 32, B64 = 64, B128 = 128 };

// The size of a CUtensorMap, and so of a tensormap param's device buffer.
constexpr size_t tensorMapBytes = 128;

struct Param {
  std::string name;
  // "input" params are filled before the run; "output" params are filled
  // with 0xFF bytes so unwritten elements show; "tensormap" params are
  // encoded from another param (below); any other role (a workspace) is
  // zero-filled.
  std::string role;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;

  // Role "tensormap" only (dtype and shape unused): the index in the
  // kernel's params of the 2-D tensor it maps, the box (tile) it copies as
  // {rows, cols}, and its swizzle.
  size_t tensor = 0;
  unsigned box[2] = {0, 0};
  Swizzle swizzle = Swizzle::None;

  // An i32 input holding a grouped GEMM's group_rows ("group_rows" key):
  // its layout ("contiguous" or "masked"; empty for any other param) and
  // the bound of its values. A runtime filling inputs gives it valid bounds.
  std::string groupLayout;
  int64_t groupRowsBound = 0;

  bool isInput() const { return role == mlir::fp8::manifest::kRoleInput; }
  bool isOutput() const { return role == mlir::fp8::manifest::kRoleOutput; }
  bool isTensorMap() const {
    return role == mlir::fp8::manifest::kRoleTensorMap;
  }
  int64_t numElements() const;
  size_t numBytes() const {
    return isTensorMap() ? tensorMapBytes : numElements() * dtypeSize(dtype);
  }
};

const char *swizzleName(Swizzle swizzle);

struct Kernel {
  std::string name;
  std::string ptxFile; // As written in the manifest.
  std::string ptxPath; // Resolved against the manifest's directory.
  std::string op;
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
  // The cluster fixed at compile time ({1, 1, 1}: none); the grid is a
  // multiple of it, and cuLaunchKernel forms the clusters.
  unsigned cluster[3] = {1, 1, 1};
  // The kernel waits for the previous grid (griddepcontrol.wait) before its
  // first global-memory access ("pdl": true), so it may be launched with
  // programmatic dependent launch; no other kernel may.
  bool pdl = false;
  unsigned sharedBytes = 0;
  std::vector<Param> params;
  int64_t bytesMoved = 0;
  // Floating-point operations per launch (2·M·N·K for a matmul); 0 when the
  // manifest has no "flops", and then no TFLOP/s is reported.
  int64_t flops = 0;
  // The manifest entry as read, copied into dumps so a dump directory
  // describes itself (scaling, element type, and any key this reader does not
  // interpret).
  JsonValue entry;
};

// Where a buffer of a launch plan lives (docs/Manifest.md).
enum class BufferKind { Argument, Result, Intermediate, Zeroed, View };

const char *bufferKindName(BufferKind kind);

struct Buffer {
  std::string name;
  BufferKind kind = BufferKind::Intermediate;
  DType dtype = DType::F32;
  std::vector<int64_t> shape;
  int64_t bytes = 0;
  // Argument and Result: the caller's input or output index.
  size_t index = 0;
  // Intermediate: into the workspace; Zeroed: into the zeroed region.
  int64_t offset = 0;
  // View: the buffer whose bytes it shows (never itself a view).
  size_t of = 0;
};

struct Launch {
  size_t kernel = 0; // Index into Manifest::kernels.
  std::string op, location;
  std::vector<size_t> args; // A buffer id per kernel param.
};

// One function's launch plan: validated on reading, so the runtime only
// binds addresses and launches.
struct Function {
  std::string name, location;
  std::vector<size_t> arguments, results; // Buffer ids, in the caller's order.
  std::vector<Buffer> buffers;            // Indexed by id.
  std::vector<Launch> launches;
  int64_t workspaceBytes = 0;
  int64_t zeroedBytes = 0;
};

struct Manifest {
  std::string path;
  std::string dir;
  std::string chip;
  int version = 1;
  std::vector<Kernel> kernels;
  std::vector<Function> functions;

  const Kernel *find(const std::string &name) const;
  const Function *findFunction(const std::string &name) const;
};

/// "[4096x4096]".
std::string shapeString(const std::vector<int64_t> &shape);

/// "bf16 [1024, 4096]": how plan and run-time errors name a tensor type.
std::string typeString(DType dtype, const std::vector<int64_t> &shape);

/// The elements of `shape` multiplied (1 for a scalar).
int64_t numElements(const std::vector<int64_t> &shape);

/// "a_map: a [4096x4096] f8e4m3, box [128x128], swizzle 128B"
std::string tensorMapString(const Kernel &kernel, const Param &map);

// Reads and validates `path`. On failure returns false with an error that
// names the file and the offending key, e.g.
// "m.json: kernels[0].grid: expected an array of 3 positive integers".
bool loadManifest(const std::string &path, Manifest &manifest,
                  std::string &error);

// Validates the manifest text `text` as loadManifest does, as if read from
// `path` (which names it in errors and locates its PTX files); touches no
// file.
bool parseManifest(const std::string &text, const std::string &path,
                   Manifest &manifest, std::string &error);

// Reads a whole file; false (with errno's text in `error`) if it cannot.
bool readFile(const std::string &path, std::string &contents,
              std::string &error);

// "DIR/name", or `name` alone when it is absolute.
std::string joinPath(const std::string &dir, const std::string &name);

} // namespace fp8rt

#endif // FP8RT_LIB_MANIFEST_H
