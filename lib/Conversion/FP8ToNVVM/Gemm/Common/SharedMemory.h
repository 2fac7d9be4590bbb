//===- SharedMemory.h - the GEMM's dynamic shared memory --------*- C++ -*-===//
//
// Both chips' GEMM kernels carve one dynamic shared-memory array, aligned to
// the 128-byte swizzle's 1024-byte atom, into stages, staging buffers and
// barriers; each chip's configuration gives the byte offsets and this turns
// them into addresses.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SHAREDMEMORY_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SHAREDMEMORY_H

#include "../../Program/KernelBuilder.h"
#include "TmaLayout.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"

namespace mlir::fp8::kernels::gemm {

/// The CTA's dynamic shared memory, aligned to the swizzle atom; its layout
/// is the chip's GEMM configuration's (A tiles, B tiles, C staging, scales,
/// barriers).
struct SharedMemory {
  /// Declares the dynamic shared memory beside `kernel`, 1024-aligned for
  /// the swizzle.
  static void declare(KernelBuilder &b, gpu::GPUFuncOp kernel);
  /// Its base, aligned up to the swizzle atom at the builder's insertion
  /// point.
  static SharedMemory get(KernelBuilder &b);

  /// The pointer (shared space) to byte `offset`.
  Value ptr(KernelBuilder &b, Value offset) const;

  /// The aligned base as a pointer and as its 32-bit shared address.
  Value base, address;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_COMMON_SHAREDMEMORY_H
