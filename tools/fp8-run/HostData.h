//===- HostData.h - Seeded inputs and files for fp8-run ---------*- C++ -*-===//
//
// The deterministic input generator (documented in tools/fp8-run/README.md),
// f32 -> bf16/f16 rounding, and the small file-system helpers for dumps.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TOOLS_FP8_RUN_HOSTDATA_H
#define FP8_TOOLS_FP8_RUN_HOSTDATA_H

#include "Manifest.h"
#include "Options.h"

#include <cstdint>
#include <string>
#include <vector>

namespace fp8run {

using namespace fp8rt;

// Fills `bytes` with the parameter's seeded values: the same (seed, param
// name, shape) always gives the same bytes, on any machine. With `specials`,
// about one real element in 65536 becomes one of +-0, +-inf, NaN, a huge
// finite value or an f32 subnormal, and fp8 and e8m0 elements take every
// code (NaN and inf included) instead of finite ones only. A grouped GEMM's
// group_rows get valid bounds: random ones, or with `evenGroups` an even
// split of the rows (masked: every group full).
void fillSeeded(const Param &param, uint64_t seed, bool specials,
                std::vector<uint8_t> &bytes, bool evenGroups = false);

// Little-endian i32 values, space-separated (a grouped GEMM's group_rows,
// as fp8-run reports them).
std::string formatInt32s(const std::vector<uint8_t> &bytes);

// Round to nearest even; NaN stays a quiet NaN of the same sign.
uint16_t floatToBF16(float f);
uint16_t floatToF16(float f);

/// Sets the entries of a dump's meta.json that say where the run came from:
/// the manifest (absolute path), its chip, the device, the inputs and the
/// seed.
void setRunProvenance(JsonValue &meta, const Options &opts,
                      const Manifest &manifest, const std::string &device);

bool writeFile(const std::string &path, const void *data, size_t size,
               std::string &error);
// Creates `path` and its parents (mkdir -p).
bool makeDirs(const std::string &path, std::string &error);
bool fileExists(const std::string &path);

} // namespace fp8run

#endif // FP8_TOOLS_FP8_RUN_HOSTDATA_H
