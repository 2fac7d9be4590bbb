//===- Gpu.cpp - the CUDA device, buffers and tensor maps -----------------===//
//
// Opens the device a manifest's chip needs and encodes TMA descriptors,
// reporting each driver error with what was being done.
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

std::string fp8run::shapeString(const std::vector<int64_t> &shape) {
  std::string s = "[";
  for (size_t n = 0; n < shape.size(); ++n)
    s += (n ? "x" : "") + std::to_string(shape[n]);
  return s + "]";
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

// TMA element types by size: fp8 and e8m0 are moved as bytes, which is all a
// copy needs.
static CUtensorMapDataType tensorMapType(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64; // Rejected by the manifest reader.
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::E8M0:
    break;
  }
  return CU_TENSOR_MAP_DATA_TYPE_UINT8;
}

static CUtensorMapSwizzle tensorMapSwizzle(Swizzle swizzle) {
  switch (swizzle) {
  case Swizzle::None:
    break;
  case Swizzle::B32:
    return CU_TENSOR_MAP_SWIZZLE_32B;
  case Swizzle::B64:
    return CU_TENSOR_MAP_SWIZZLE_64B;
  case Swizzle::B128:
    return CU_TENSOR_MAP_SWIZZLE_128B;
  }
  return CU_TENSOR_MAP_SWIZZLE_NONE;
}

// "a_map: a [4096x4096] f8e4m3, box [128x128], swizzle 128B"
std::string fp8run::tensorMapString(const Kernel &kernel, const Param &map) {
  const Param &t = kernel.params[map.tensor];
  return map.name + ": " + t.name + " " + shapeString(t.shape) + " " +
         dtypeName(t.dtype) + ", box [" + std::to_string(map.box[0]) + "x" +
         std::to_string(map.box[1]) + "], swizzle " + swizzleName(map.swizzle);
}

bool Gpu::open(int ordinal, const std::string &chip) {
  CUresult init = drv.cuInit(0);
  if (init == CUDA_ERROR_STUB_LIBRARY) {
    fail("no CUDA device: libcuda.so.1 is the CUDA toolkit's stub, not an "
         "NVIDIA driver");
    return false;
  }
  if (init == CUDA_ERROR_NO_DEVICE) {
    fail("no CUDA device (cuInit: " + drv.describe(init) + ")");
    return false;
  }
  if (!check(init, "cuInit (is an NVIDIA driver installed and a GPU "
                   "visible?)"))
    return false;
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

// The TMA descriptor of a row-major [rows, cols] tensor at `base`
// (docs/Design.md section 6): dimensions innermost first, out-of-bounds
// elements read as zero, so partial edge tiles need no masking in the kernel.
bool fp8run::encodeTensorMap(Gpu &gpu, const Kernel &kernel, const Param &map,
                             CUdeviceptr base, const std::string &where,
                             std::vector<uint8_t> &bytes) {
  const Param &t = kernel.params[map.tensor];
  size_t size = dtypeSize(t.dtype);
  cuuint64_t dims[2] = {cuuint64_t(t.shape[1]), cuuint64_t(t.shape[0])};
  cuuint64_t strides[1] = {cuuint64_t(t.shape[1]) * size};
  cuuint32_t box[2] = {map.box[1], map.box[0]};
  cuuint32_t elementStrides[2] = {1, 1};
  CUtensorMap encoded;
  if (!gpu.check(gpu.drv.cuTensorMapEncodeTiled(
                     &encoded, tensorMapType(t.dtype), 2,
                     reinterpret_cast<void *>(uintptr_t(base)), dims, strides,
                     box, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                     tensorMapSwizzle(map.swizzle),
                     CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                     CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE),
                 where + ": cuTensorMapEncodeTiled for " +
                     tensorMapString(kernel, map)))
    return false;
  static_assert(sizeof(encoded) == tensorMapBytes, "CUtensorMap size");
  const uint8_t *raw = reinterpret_cast<const uint8_t *>(&encoded);
  bytes.assign(raw, raw + sizeof(encoded));
  return true;
}
