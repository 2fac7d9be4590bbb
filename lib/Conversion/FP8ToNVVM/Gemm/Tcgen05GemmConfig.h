//===- Tcgen05GemmConfig.h - tile and budgets of the sm_100a GEMM -*- C++
//-*-===//
//
// The configuration of the sm_100a (tcgen05) MXFP8 GEMM and the budget its
// builder asserts before emitting anything: tensor memory (the f32
// accumulator plus every in-flight stage's scale factors, at most 512
// columns, allocated as a power of two), shared memory (the stage ring and
// its mbarriers within a CTA's 227 KiB) and the epilogue's registers (one
// tcgen05.ld of 32 columns at a time). Plain C++, no IR, so that unit tests
// (unittests/Gemm/Tcgen05GemmConfigTest.cpp) pin the arithmetic.
//
// The structure it describes (docs/GPU.md, "sm_100a"): one CTA per 128 x N
// tile (cta_group::1, M = 128), a TMA producer warp, a single-thread MMA
// issuer (elect.sync), four epilogue warps reading the accumulator with
// tcgen05.ld, 128-deep K-blocks of A and B with 128-byte swizzle.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_TCGEN05GEMMCONFIG_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_TCGEN05GEMMCONFIG_H

#include "fp8/Dialect/FP8/Utils/Target.h"

#include <cstdint>
#include <string>

namespace mlir::fp8::kernels::gemm {

struct Tcgen05GemmConfig {
  /// The MMA's M (cta_group::1): a 128-lane accumulator, one row per lane.
  static constexpr int64_t kTileM = 128;
  /// The K of one stage: 128 FP8 bytes, one 128-byte swizzle row; four
  /// MMAs of K = 32, each reading scale-factor byte k of the stage's
  /// columns (the instruction descriptor's scale ids).
  static constexpr int64_t kTileK = 128;
  /// The K of one kind::mxf8f6f4 MMA.
  static constexpr int64_t kMmaK = 32;
  /// Tensor-memory columns of one 128-row scale chunk after
  /// tcgen05.cp.32x128b.warpx4: 16 bytes per lane = 4 columns, the same in
  /// each of the four 32-lane quarters.
  static constexpr int64_t kScaleColumnsPer128Rows = 4;
  /// One 512-byte scale chunk per 128 rows and stage.
  static constexpr int64_t kScaleChunkBytes = 512;
  /// Warps: 0 = TMA producer, 1 = MMA issuer (and the tensor-memory
  /// allocator), 2..5 = epilogue (one 32-lane quarter each).
  static constexpr int64_t kThreads = 6 * 32;
  /// Registers of one epilogue tcgen05.ld (32x32b.x32: 32 columns).
  static constexpr int64_t kEpilogueLoadColumns = 32;

  /// The tile's N (the MMA's N): a multiple of 16, 16..256.
  int64_t tileN = 128;
  /// Stages of the TMA ring.
  int64_t stages = 4;

  int64_t aStageBytes() const { return kTileM * kTileK; }
  int64_t bStageBytes() const { return tileN * kTileK; }
  /// A's and B's scale chunks of one stage (B: one per 128 columns, at
  /// least one).
  int64_t scaleStageBytes() const {
    return kScaleChunkBytes * (1 + (tileN + 127) / 128);
  }
  /// The stage, 1024-aligned for the swizzle atoms.
  int64_t stageBytes() const;
  /// Full and empty mbarriers per stage, and one for the accumulator.
  int64_t barrierBytes() const { return 8 * (2 * stages + 1); }
  /// Dynamic shared memory: 1024 of alignment slack, the ring, the
  /// barriers and the tensor-memory address tcgen05.alloc writes.
  int64_t sharedBytes() const;

  /// Tensor-memory columns: the f32 accumulator (tileN) and every stage's
  /// A and B scale columns (tcgen05.cp of stage s must not overwrite
  /// columns an MMA of another stage still reads).
  int64_t tmemColumns() const;
  /// What tcgen05.alloc is asked for: tmemColumns rounded up to a power of
  /// two (at least 32).
  int64_t tmemAllocColumns() const;
  /// The epilogue's 32-bit accumulator registers live at once per thread.
  int64_t epilogueRegisters() const { return kEpilogueLoadColumns; }

  /// Whether the configuration fits the chip; otherwise `why` says which
  /// budget it exceeds.
  bool fits(const Target &target, std::string &why) const;
};

/// The configuration for an N-wide problem: the widest tile up to 256 that
/// divides N's 16-aligned extent evenly enough (N itself where N <= 256,
/// else 256 or 128), and as many stages as shared memory holds (at most 8).
Tcgen05GemmConfig chooseTcgen05Config(const Target &target, int64_t n);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_TCGEN05GEMMCONFIG_H
