//===- HadamardKernel.h - Hadamard rotation in registers --------*- C++ -*-===//
//
// The fast Walsh-Hadamard butterfly of docs/Numerics.md on values a thread
// holds in registers, for the standalone fp8.hadamard kernel and for a
// kernel that rotates and then quantizes without going through memory.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_TRANSFORM_HADAMARDKERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_TRANSFORM_HADAMARDKERNEL_H

#include "../Program/KernelBuilder.h"
#include "../Program/KernelUtils.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::fp8::kernels {

/// How the threads of a warp share a rotation of size n (16 to 256): each
/// thread holds kChunk (16) consecutive elements of a block, and a block's
/// n / 16 threads are consecutive lanes of one warp. Plain C++: the sizes
/// and the seed's sign bits, nothing of the IR.
struct HadamardRotation {
  /// The block size n.
  int64_t size;
  /// The consecutive elements of a block each thread holds (16, or 32 where
  /// a kernel gives each thread more to save a shuffle stage).
  int64_t chunk;
  /// signMasks[k]: bit `segment` set iff s_j = -1 for j = chunk segment + k
  /// (bit 0 of the seed's random word j); all zero without a seed.
  llvm::SmallVector<uint32_t, 32> signMasks;
  /// fl32(1 / sqrt(n)).
  float norm;

  static HadamardRotation get(int64_t size, std::optional<uint64_t> seed,
                              int64_t chunk = kChunk);
  /// Whether s_j = -1 for element j (0 <= j < size) of a block.
  bool negates(int64_t j) const;
  /// Threads per block of the rotation, n / chunk.
  int64_t lanesPerBlock() const;
  bool hasSigns() const;
};

/// Rotates the `rotation.chunk` f32 `values` this thread holds in place:
/// elements chunk segment .. chunk segment + chunk - 1 of a block, where
/// `segment` (an index) is the thread's lane modulo lanesPerBlock(). The
/// strides below the chunk pair registers of the thread, the others the
/// same register of two lanes (a shuffle per element and stage). The
/// result is fl32(v_i *
/// fl32(1/sqrt(n))) after the butterfly, still in f32: fp8.hadamard rounds
/// it to its element type, so a consumer fused after it must round (and
/// widen back) before using it to match the unfused program. Every lane of
/// the warp must call this together (warp shuffles for the strides of 16
/// and more); a thread past the end of the data joins with valid values and
/// stores nothing.
void rotateInRegisters(KernelBuilder &b, const HadamardRotation &rotation,
                       Value segment, llvm::MutableArrayRef<Value> values);

/// rotateInRegisters on values whose signs (the seed's) are already
/// applied: the butterfly and the scale.
void butterflyInRegisters(KernelBuilder &b, const HadamardRotation &rotation,
                          Value segment, llvm::MutableArrayRef<Value> values);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_TRANSFORM_HADAMARDKERNEL_H
