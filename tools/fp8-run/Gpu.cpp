//===- Gpu.cpp - the CUDA device, buffers and tensor maps -----------------===//
//
// Opens the device a manifest's chip needs, reporting each driver error with
// what was being done.
//
//===----------------------------------------------------------------------===//

#include "Gpu.h"

#include <cstdio>

using namespace fp8run;

void fp8run::fail(const std::string &message) {
  std::fprintf(stderr, "fp8-run: error: %s\n", message.c_str());
}

void fp8run::warn(const std::string &message) {
  std::fprintf(stderr, "fp8-run: warning: %s\n", message.c_str());
}

// Compute capability a manifest chip needs, from "sm_90a", "sm_100a",
// "sm_90": major, minor, and whether it must match exactly ('a' and 'f'
// targets do not run on later architectures).
static bool parseChip(const std::string &chip, int &major, int &minor,
                      bool &exact) {
  if (chip.compare(0, 3, "sm_") != 0)
    return false;
  size_t pos = 3;
  int n = 0;
  while (pos < chip.size() && chip[pos] >= '0' && chip[pos] <= '9')
    n = n * 10 + (chip[pos++] - '0');
  if (pos == 3 || n < 10)
    return false;
  std::string suffix = chip.substr(pos);
  if (!suffix.empty() && suffix != "a" && suffix != "f")
    return false;
  major = n / 10;
  minor = n % 10;
  exact = !suffix.empty();
  return true;
}

bool Gpu::open(int ordinal, const std::string &chip) {
  // cudaDriver() has already run cuInit and reported its failures.
  int count = 0;
  if (!check(drv.cuDeviceGetCount(&count), "cuDeviceGetCount"))
    return false;
  if (count == 0) {
    fail("no CUDA device");
    return false;
  }
  if (ordinal >= count) {
    fail("--device " + std::to_string(ordinal) + ": only " +
         std::to_string(count) + " CUDA device(s)");
    return false;
  }
  if (!check(drv.cuDeviceGet(&device, ordinal), "cuDeviceGet"))
    return false;
  char buf[256] = {0};
  drv.cuDeviceGetName(buf, sizeof(buf) - 1, device);
  name = buf;
  drv.cuDeviceGetAttribute(
      &ccMajor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device);
  drv.cuDeviceGetAttribute(
      &ccMinor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device);
  drv.cuDriverGetVersion(&driverVersion);

  int major, minor;
  bool exact;
  if (!parseChip(chip, major, minor, exact)) {
    warn("manifest chip \"" + chip +
         "\" is not of the form sm_NN[a]; leaving the check to the JIT");
  } else {
    bool ok = exact ? (ccMajor == major && ccMinor == minor)
                    : (ccMajor * 10 + ccMinor >= major * 10 + minor);
    if (!ok) {
      fail("the kernels are for " + chip + " (compute capability " +
           std::to_string(major) + "." + std::to_string(minor) +
           (exact ? " exactly" : " or later") + ") but device " +
           std::to_string(ordinal) + " (" + name + ") is " +
           std::to_string(ccMajor) + "." + std::to_string(ccMinor));
      return false;
    }
  }
  if (!check(drv.cuDevicePrimaryCtxRetain(&context, device),
             "cuDevicePrimaryCtxRetain") ||
      !check(drv.cuCtxSetCurrent(context), "cuCtxSetCurrent") ||
      !check(drv.cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING),
             "cuStreamCreate"))
    return false;
  return true;
}
