//===- Tcgen05GemmConfig.h - sm_100a GEMM tile, budgets ---------*- C++ -*-===//
//
// The configuration of the sm_100a (tcgen05) GEMM and the budget its builder
// asserts before emitting anything: tensor memory (the f32 accumulators plus,
// for MXFP8, every in-flight stage's scale factors, at most 512 columns,
// allocated as a power of two), shared memory (the stage ring and its
// mbarriers within a CTA's 227 KiB) and the epilogue's registers (the
// promoted sums plus one tcgen05.ld of 32 columns). Plain C++, no IR, so
// that unit tests (unittests/Gemm/Tcgen05GemmConfigTest.cpp) pin the
// arithmetic.
//
// The structure it describes (docs/gpu/sm100a.md): persistent CTAs of
// 128 x N tiles (cta_group::1, M = 128), or pairs of CTAs in a cluster of
// two sharing 256 x N tiles (cta_group::2, M = 256: each CTA holds its 128
// rows of A, half of B's N, and its 128 rows of the accumulator), a TMA
// producer warp, a single-thread MMA issuer (the pair's even CTA's), four
// (promoted: eight) epilogue warps reading the accumulators with
// tcgen05.ld, 128-deep K-blocks of A and B with 128-byte swizzle.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05GEMMCONFIG_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05GEMMCONFIG_H

#include "fp8/Dialect/FP8/Utils/Target.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace mlir::fp8::kernels::gemm {

/// How the scales enter the sums.
enum class Tcgen05Scaling {
  /// MXFP8: kind::mxf8f6f4.block_scale.block32, E8M0 scales in tensor
  /// memory (tcgen05.cp), one accumulator over all of K.
  blockScaled,
  /// Scales that vary along K in 128-deep blocks (blockwise): one partial
  /// sum per K-block in tensor memory (kind::f8f6f4), promoted into f32
  /// registers with sa * sb by the epilogue warps.
  promoted,
  /// Scales constant along K (tensorwise, rowwise): one accumulator over
  /// all of K (kind::f8f6f4), scaled in the epilogue.
  epilogue,
};

struct Tcgen05GemmConfig {
  /// The rows of C a CTA holds: a 128-lane accumulator, one row per lane
  /// (the MMA's M with cta_group::1; half of it with cta_group::2).
  static constexpr int64_t kTileM = 128;
  /// The K of one stage: 128 FP8 bytes, one 128-byte swizzle row (K-major)
  /// or 128 rows of 128-byte atoms (MN-major); four MMAs of K = 32.
  static constexpr int64_t kTileK = 128;
  /// The K of one kind::f8f6f4 / kind::mxf8f6f4 MMA.
  static constexpr int64_t kMmaK = 32;
  /// An MN-major operand's swizzle atom spans 128 FP8 elements of M or N.
  static constexpr int64_t kMnAtom = 128;
  /// Tensor-memory columns of one 128-row scale chunk after
  /// tcgen05.cp.32x128b.warpx4: 16 bytes per lane = 4 columns, the same in
  /// each of the four 32-lane quarters.
  static constexpr int64_t kScaleColumnsPer128Rows = 4;
  /// One 512-byte scale chunk per 128 rows and stage.
  static constexpr int64_t kScaleChunkBytes = 512;
  /// Warps: 0 = TMA producer, 1 = MMA issuer (and the tensor-memory
  /// allocator), 2.. = epilogue (warp w reads lane quarter w % 4, and
  /// column group (w - 2) / 4 of the tile).
  static constexpr int64_t kProducerWarp = 0;
  static constexpr int64_t kMmaWarp = 1;
  static constexpr int64_t kFirstEpilogueWarp = 2;
  /// Columns of one epilogue tcgen05.ld (32x32b.x32: 32 registers).
  static constexpr int64_t kEpilogueLoadColumns = 32;
  /// The register file a CTA shares out, and the most registers an
  /// instruction can name.
  static constexpr int64_t kRegisterFile = 65536;
  static constexpr int64_t kMaxRegisters = 255;
  /// Registers the epilogue needs beside its sums and one load (addresses,
  /// scales, loop state), as ptxas reported for the emitted kernels.
  static constexpr int64_t kEpilogueOverhead = 56;

  Tcgen05Scaling scaling = Tcgen05Scaling::blockScaled;
  /// CTAs per MMA (tcgen05's .cta_group): 1, or 2 for a pair of CTAs in a
  /// cluster of two (the cluster's even CTA issues M = 256 MMAs that read
  /// both CTAs' shared memory and write both CTAs' tensor memory).
  int64_t ctaGroup = 1;
  /// The tile's N (the MMA's N): a multiple of 16, 16..256; a multiple of
  /// 128 where B is MN-major (whole swizzle atoms).
  int64_t tileN = 128;
  /// Stages of the TMA ring.
  int64_t stages = 4;
  /// Accumulators in tensor memory: with two, the MMAs of the next tile
  /// (or K-block, promoted) run while the epilogue reads this one.
  int64_t accumulators = 1;
  /// The persistent grid: one CTA per SM, or one per tile where fewer
  /// (cta_group::2: one pair per two SMs or per tile, so a multiple of 2).
  int64_t gridSize = 0;
  /// Bytes of an element of C (bf16 2, f32 4).
  int64_t resultBytes = 2;
  /// Whether C leaves through shared memory and TMA stores: each epilogue
  /// warp stages its 32 rows x 128 bytes (64 bf16 or 32 f32 columns) in a
  /// 128-byte-swizzled buffer of its own, and one lane stores it. Where a
  /// warp's columns are not whole 128-byte segments (a 32-column group of
  /// bf16), the threads store their rows directly.
  bool tmaStore = false;
  /// One epilogue warp's staging buffer: 32 rows of 128 bytes.
  static constexpr int64_t kStagingRowBytes = 128;
  static constexpr int64_t kStagingBytesPerWarp = 32 * kStagingRowBytes;

  bool blockScaled() const { return scaling == Tcgen05Scaling::blockScaled; }
  bool pair() const { return ctaGroup == 2; }
  /// The MMA's M and the tile of C one MMA (a pair, with cta_group::2)
  /// computes: 128 or 256 rows.
  int64_t mmaM() const { return kTileM * ctaGroup; }
  /// The cluster's CTAs (along x): the CTA pair, or one.
  int64_t clusterSize() const { return ctaGroup; }
  /// The CTAs an MMA-side commit signals: both CTAs of the pair (ranks 0
  /// and 1 of the cluster), or none (a plain commit).
  uint16_t pairMask() const { return pair() ? 0b11 : 0; }
  /// B's rows (columns of C) in a CTA's shared memory: half of N with
  /// cta_group::2, whose MMA reads B's two halves from the two CTAs.
  int64_t bRowsPerCta() const { return tileN / ctaGroup; }
  bool promoted() const { return scaling == Tcgen05Scaling::promoted; }

  /// Epilogue warps: one per lane quarter, twice that where promoted, so
  /// that each thread's sums are half a row (ptxas runs a thread's
  /// tcgen05.ld ahead of the FMAs of the previous one: a whole row of sums
  /// and two loads spilled).
  int64_t epilogueWarps() const { return promoted() ? 8 : 4; }
  /// The column groups the epilogue warps split a row into, and the
  /// columns of each.
  int64_t columnGroups() const { return epilogueWarps() / 4; }
  int64_t groupColumns() const { return tileN / columnGroups(); }
  /// The columns of C one TMA store of a warp covers (128 bytes of a row).
  int64_t storeColumns() const { return kStagingRowBytes / resultBytes; }
  int64_t threads() const {
    return (kFirstEpilogueWarp + epilogueWarps()) * 32;
  }
  /// The registers a thread may use: the file shared out, at most 255.
  int64_t registerLimit() const {
    return std::min<int64_t>(kMaxRegisters, kRegisterFile / threads());
  }

  int64_t aStageBytes() const { return kTileM * kTileK; }
  int64_t bStageBytes() const { return bRowsPerCta() * kTileK; }
  /// B's scale chunks per stage: one per 128 columns, at least one. Every
  /// CTA of a pair holds all of them (its 128 rows of the MMA read the
  /// scales of all N columns from its own tensor memory).
  int64_t bScaleChunks() const { return (tileN + 127) / 128; }
  /// A's and B's scale chunks of one stage (MXFP8 only).
  int64_t scaleStageBytes() const {
    return blockScaled() ? kScaleChunkBytes * (1 + bScaleChunks()) : 0;
  }
  /// What TMA and the bulk copies bring per stage into one CTA.
  int64_t stageTransferBytes() const {
    return aStageBytes() + bStageBytes() + scaleStageBytes();
  }
  /// What the full barrier that the MMA issuer waits on expects per stage:
  /// with cta_group::2 both CTAs' loads complete on the even CTA's barrier.
  int64_t stageExpectedBytes() const { return ctaGroup * stageTransferBytes(); }
  /// Arrivals that free an accumulator: every epilogue thread of every CTA
  /// that holds a part of it.
  int64_t accEmptyArrivals() const { return ctaGroup * epilogueWarps() * 32; }
  /// The stage, 1024-aligned for the swizzle atoms.
  int64_t stageBytes() const;
  /// Full and empty mbarriers per stage and per accumulator.
  int64_t barrierBytes() const { return 8 * (2 * stages + 2 * accumulators); }
  /// The epilogue warps' staging buffers (TMA stores only).
  int64_t stagingBytes() const {
    return tmaStore ? epilogueWarps() * kStagingBytesPerWarp : 0;
  }
  /// Byte offsets from the 1024-aligned base: the ring, the staging buffers
  /// (1024-aligned, as the 128-byte swizzle needs), the barriers, the
  /// tensor-memory address tcgen05.alloc writes.
  int64_t stagingOffset() const { return stages * stageBytes(); }
  int64_t barrierOffset() const { return stagingOffset() + stagingBytes(); }
  int64_t tmemSlotOffset() const { return barrierOffset() + barrierBytes(); }
  /// Dynamic shared memory: 1024 of alignment slack, the ring, the
  /// barriers and the tensor-memory slot.
  int64_t sharedBytes() const;

  /// Tensor-memory columns of one stage's scales (MXFP8 only).
  int64_t scaleColumnsPerStage() const {
    return blockScaled() ? kScaleColumnsPer128Rows * (1 + bScaleChunks()) : 0;
  }
  /// Tensor-memory columns: the f32 accumulators and every stage's A and B
  /// scale columns (tcgen05.cp of stage s must not overwrite columns an MMA
  /// of another stage still reads).
  int64_t tmemColumns() const;
  /// What tcgen05.alloc is asked for: tmemColumns rounded up to a power of
  /// two (at least 32).
  int64_t tmemAllocColumns() const;
  /// The epilogue's live 32-bit registers per thread: the promoted sums
  /// (its columns of a row), two tcgen05.ld and the overhead.
  int64_t epilogueRegisters() const {
    return (promoted() ? groupColumns() : 0) + 2 * kEpilogueLoadColumns +
           kEpilogueOverhead;
  }

  /// Whether the configuration fits the chip; otherwise `why` says which
  /// budget it exceeds.
  bool fits(const Target &target, std::string &why) const;
};

/// The configuration for an m x n problem scaled as `scaling`, B MN-major
/// or not, C of `resultBytes` per element: the widest tile up to 256 that
/// divides N's 16-aligned extent evenly enough (N itself where N <= 256,
/// else 256 or 128; at most 128 where promoted, whose sums live in
/// registers; whole 128-column atoms where B is MN-major), TMA stores of C
/// where each epilogue warp's columns are whole 128-byte segments, two
/// accumulators where tensor memory holds them, and as many stages as
/// shared memory holds (at most 8).
///
/// CTA pairs (cta_group::2, M = 256) for large tiles: where M >= 256, the
/// tile is at least 128 wide, there are at least as many 256 x N tiles as
/// SM pairs (so pairs leave no SM idle that single CTAs would have fed),
/// an MN-major B's halves are whole 128-column atoms (N = 256), and the
/// pair's configuration fits. A pair loads half of B per CTA, which halves
/// B's shared memory per stage and B's L2 traffic per FLOP.
Tcgen05GemmConfig chooseTcgen05Config(const Target &target, int64_t m,
                                      int64_t n, Tcgen05Scaling scaling,
                                      bool bMnMajor, int64_t resultBytes = 2);

/// The MXFP8 configuration of an N-wide problem, K-major B, one accumulator,
/// one CTA per MMA (the budgets' reference point in the unit tests).
Tcgen05GemmConfig chooseTcgen05Config(const Target &target, int64_t n);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05GEMMCONFIG_H
