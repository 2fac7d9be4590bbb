//===- TensorMap.cpp - TMA descriptors of tensormap params ----------------===//
//
// The manifest reader has already refused what cuTensorMapEncodeTiled would
// (rank, strides, box and swizzle span), so a failure here is the driver's.
//
//===----------------------------------------------------------------------===//

#include "TensorMap.h"

using namespace fp8rt;

// TMA element types by size where TMA has no such type: fp8, e8m0 and the
// small integers are moved as bytes, which is all a copy needs.
static CUtensorMapDataType tensorMapType(DType dtype) {
  switch (dtype) {
  case DType::BF16:
    return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
  case DType::F16:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
  case DType::F32:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
  case DType::F64:
    return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
  case DType::I32:
    return CU_TENSOR_MAP_DATA_TYPE_INT32;
  case DType::I64:
    return CU_TENSOR_MAP_DATA_TYPE_INT64; // Rejected by the manifest reader.
  case DType::F8E4M3:
  case DType::F8E5M2:
  case DType::E8M0:
  case DType::I1:
  case DType::I8:
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

// Dimensions innermost first (docs/Design.md section 6); L2 promotion of
// 256 B; out-of-bounds elements read as zero, so partial edge tiles need no
// masking in the kernel.
CUresult fp8rt::encodeTensorMap(const CudaDriver &drv, DType dtype,
                                int64_t rows, int64_t cols,
                                const unsigned box[2], Swizzle swizzle,
                                CUdeviceptr base, CUtensorMap &out) {
  static_assert(sizeof(CUtensorMap) == tensorMapBytes, "CUtensorMap size");
  cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  cuuint64_t strides[1] = {cuuint64_t(cols) * dtypeSize(dtype)};
  cuuint32_t boxDims[2] = {box[1], box[0]};
  cuuint32_t elementStrides[2] = {1, 1};
  return drv.cuTensorMapEncodeTiled(
      &out, tensorMapType(dtype), 2, reinterpret_cast<void *>(uintptr_t(base)),
      dims, strides, boxDims, elementStrides, CU_TENSOR_MAP_INTERLEAVE_NONE,
      tensorMapSwizzle(swizzle), CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
      CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
}
