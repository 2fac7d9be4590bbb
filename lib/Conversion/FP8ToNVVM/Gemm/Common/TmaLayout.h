//===- TmaLayout.h - the alignments TMA and the swizzle ask for -*- C++ -*-===//
//
// Facts of the Hopper and Blackwell TMA units and of the 128-byte swizzle
// that both chips' GEMMs lay their shared-memory tiles out in.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TMALAYOUT_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TMALAYOUT_H

#include <cstdint>

namespace mlir::fp8::kernels::gemm {

/// The alignment of a TMA load's shared-memory destination.
inline constexpr int64_t kTmaAlignment = 128;
/// The alignment of a TMA box's innermost start in global memory: a box
/// that starts elsewhere is an illegal instruction.
inline constexpr int64_t kTmaInnerStartAlignment = 16;
/// The swizzle pattern repeats every 8 rows of 128 bytes.
inline constexpr int64_t kSwizzleAtom = 1024;
/// The width of a 128-byte swizzled row.
inline constexpr int64_t kSwizzleBytes = 128;

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_TMALAYOUT_H
