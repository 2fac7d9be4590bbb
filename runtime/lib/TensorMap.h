//===- TensorMap.h - TMA descriptors of tensormap params --------*- C++ -*-===//
//
// A kernel param of role "tensormap" is a pointer to a CUtensorMap that
// describes another (2-D, row-major) param. fp8-run and the runtime encode it
// the same way, here.
//
//===----------------------------------------------------------------------===//

#ifndef FP8RT_LIB_TENSORMAP_H
#define FP8RT_LIB_TENSORMAP_H

#include "CudaDriver.h"
#include "Manifest.h"

namespace fp8rt {

/// Encodes into `out` the TMA descriptor of a row-major [rows, cols] tensor
/// of `dtype` at `base`, copied in boxes of `box` = {rows, cols} with
/// `swizzle`. Out-of-bounds elements read as zero.
CUresult encodeTensorMap(const CudaDriver &drv, DType dtype, int64_t rows,
                         int64_t cols, const unsigned box[2], Swizzle swizzle,
                         CUdeviceptr base, CUtensorMap &out);

/// Param `map` of `kernel` (a tensormap) for its tensor at `base`.
inline CUresult encodeTensorMap(const CudaDriver &drv, const Kernel &kernel,
                                const Param &map, CUdeviceptr base,
                                CUtensorMap &out) {
  const Param &t = kernel.params[map.tensor];
  return encodeTensorMap(drv, t.dtype, t.shape[0], t.shape[1], map.box,
                         map.swizzle, base, out);
}

} // namespace fp8rt

#endif // FP8RT_LIB_TENSORMAP_H
