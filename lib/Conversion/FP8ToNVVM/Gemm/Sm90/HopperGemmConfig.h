//===- HopperGemmConfig.h - sm_90a tiles and pipeline --------- -*- C++ -*-===//
//
// The configuration of the sm_90a GEMM kernel (tile shape, consumer
// warpgroups, pipeline stages, which scales come with the stages, the split
// of a short last round) and the heuristic that chooses it
// (docs/gpu/gemm-sm90a.md, "Tile heuristic"). Plain C++ that builds no IR,
// so that unit tests can check the heuristic; the facts about the chip come
// from fp8::Target, the K-block and the TMA-loadable scales from
// GemmShapes.h (fp8-legalize reads those too).
//
// The shared-memory byte layout lives here too, because the number of stages
// is whatever fits in it; HopperPipeline turns these offsets into
// addresses.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERGEMMCONFIG_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERGEMMCONFIG_H

#include "../Common/GemmProblem.h"
#include "../Common/OperandScaling.h"
#include "../Common/TileShape.h"
#include "../Common/TmaLayout.h"
#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/Utils/GemmShapes.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <cstdint>

namespace mlir::fp8::kernels::gemm {

/// One warpgroup: the unit that issues a wgmma, and the size of the
/// producer and of each consumer.
inline constexpr int64_t kWarpgroup = 128;
/// Rows of A and C per consumer warpgroup (the M of one wgmma on sm_90a), and
/// the rows of a split tile's sub-tile.
inline constexpr int64_t kConsumerRows = 64;
/// A K-block in shared memory: 128 FP8 bytes per row, exactly the span of the
/// 128-byte swizzle, so one TMA box row is one swizzle row.
inline constexpr int64_t kTileK = kHopperGemmTileK;
static_assert(kTileK == 128, "one K-block row is one 128-byte swizzle row");
/// The register file one CTA shares out.
inline constexpr int64_t kRegisterFile = 65536;
/// At most three consumer warpgroups (a 192-row tile).
inline constexpr int64_t kMaxConsumers = 3;

/// How a wgmma operand tile lies in a stage buffer (128-byte swizzle), from
/// its element width and majorness. A K-block takes 128 bytes of K per row
/// of M or N whatever the element type, so the stage layout, the swizzle and
/// the stride between 8-row groups are the same for FP8 and 16-bit operands;
/// what changes is how many elements that is, the K of one wgmma (32 bytes
/// of K: k32 for FP8, k16 for bf16 and f16), and, for an MN-major 16-bit
/// operand (stored K x M: rows of M or N elements, the descriptor's
/// transpose bit set), how the descriptor steps along K and from one
/// 64-element atom of M or N to the next. wgmma takes MN-major operands from
/// shared memory for 16-bit types only.
struct WgmmaOperandLayout {
  /// Bytes of K that one wgmma.mma_async consumes.
  static constexpr int64_t kMmaKBytes = 32;

  /// 1 (e4m3, e5m2) or 2 (bf16, f16).
  int64_t elementBytes = 1;
  /// Stored K x M (K x N): the operand's rows are K.
  bool mnMajor = false;

  /// The K of one wgmma.
  int64_t mmaK() const { return kMmaKBytes / elementBytes; }
  /// The K extent of one K-block.
  int64_t kBlockElements() const { return kSwizzleBytes / elementBytes; }
  /// wgmmas per K-block.
  int64_t mmasPerKBlock() const { return kBlockElements() / mmaK(); }
  /// How far the descriptor's start address moves per wgmma along K: 32
  /// bytes inside the K-major swizzled row (the hardware applies the
  /// swizzle to the full address), or mmaK rows of 128 bytes MN-major.
  int64_t kStepBytes() const {
    return mnMajor ? mmaK() * kSwizzleBytes : kMmaKBytes;
  }
  /// The descriptor's leading byte offset: unused by K-major swizzled tiles
  /// whose K extent is one swizzle row (16 by convention); MN-major, from
  /// one 128-byte (64-element) atom of M or N to the next: the K-block's
  /// rows.
  int64_t leadingByteOffset() const {
    return mnMajor ? kBlockElements() * kSwizzleBytes : 16;
  }
  /// The descriptor's stride byte offset: from one group of eight 128-byte
  /// rows to the next (along M or N K-major, along K MN-major).
  int64_t strideByteOffset() const { return kSwizzleAtom; }
  /// The innermost extent of the TMA box that loads `rows` rows of M or N
  /// of one K-block: the K-block K-major; one 64-element atom MN-major
  /// (128 bytes, the widest box a 128-byte swizzle takes), loaded
  /// rows / 64 times.
  int64_t boxInner() const {
    return mnMajor ? kSwizzleBytes / elementBytes : kBlockElements();
  }
};

/// How A's (B's) tile of `problem` lies in a stage of the sm_90a kernel.
inline WgmmaOperandLayout wgmmaLayout(Type element, bool mnMajor) {
  return {element.getIntOrFloatBitWidth() / 8, mnMajor};
}
inline WgmmaOperandLayout aOperandLayout(const GemmProblem &problem) {
  return wgmmaLayout(problem.aElement, problem.aMnMajor);
}
inline WgmmaOperandLayout bOperandLayout(const GemmProblem &problem) {
  return wgmmaLayout(problem.bElement, problem.bMnMajor);
}

/// Whether a bulk copy can bring the one scale of a tile and K-block from
/// the row-major scales of `scaling` (B's 128x128 blocks): f32, a K-block
/// per kernel K-block or coarser, rows 16-byte aligned as the copy needs.
inline bool blockByBulkCopy(const OperandScaling &scaling) {
  return !scaling.transposed && !scaling.e8m0 && !scaling.spansRows() &&
         scaling.rowBlock % kTileK == 0 && !scaling.spansK() &&
         scaling.kBlock % kTileK == 0 && (scaling.stride * 4) % 16 == 0;
}
/// Whether a K-block's scales of a row are one aligned 32-bit word of
/// four E8M0 codes (MXFP8's 1x32, row-major, rows a multiple of 4 codes
/// long), as SubBlockScales loads them.
inline bool subBlockWords(const OperandScaling &scaling) {
  return scaling.e8m0 && scaling.rowBlock == 1 &&
         scaling.kBlock * 4 == kTileK && !scaling.transposed &&
         scaling.stride % 4 == 0;
}

// Named barriers (0 is the CTA-wide one).
/// Named barriers 1..3: the issue turns of consumers 0..2.
inline constexpr int64_t kFirstTurnBarrier = 1;
/// Named barriers 4..6: each consumer's epilogue.
inline constexpr int64_t kFirstEpilogueBarrier =
    kFirstTurnBarrier + kMaxConsumers;
/// Named barrier 7: the consumers of a split tile meet to add their sums.
inline constexpr int64_t kSplitBarrier = kFirstEpilogueBarrier + kMaxConsumers;
/// One per consumer: its scale conversion (SubBlockScales).
inline constexpr int64_t kFirstSubBlockBarrier = kSplitBarrier + 1;
/// One per consumer: the reduction of its tile's scale check
/// (TileScaleCheck).
inline constexpr int64_t kFirstScaleCheckBarrier =
    kFirstSubBlockBarrier + kMaxConsumers;
static_assert(kFirstScaleCheckBarrier + kMaxConsumers <= 16,
              "a CTA has 16 named barriers");

/// What one consumer's check of its tile's scales (TileScaleCheck.h) reads of
/// one operand's: a block of the scale tensor, at most `rows` scale rows
/// (where they start is known at run time) by `cols` scale columns.
struct ScaleCheckRegion {
  int64_t rows = 0, cols = 0;
  int64_t elements() const { return rows * cols; }
};
/// The scales of `scaling` that `span` consecutive rows of its operand (a
/// consumer's 64 rows of A, a tile's columns of B) meet over `numKBlocks`
/// whole K-blocks.
ScaleCheckRegion scaleCheckRegion(const OperandScaling &scaling, int64_t span,
                                  int64_t numKBlocks);

/// The description of the scales of one operand scaled by `scaling`, held in
/// a tensor of `scaleType` laid out as `layout`.
OperandScaling describeScaling(ScalingAttr scaling, RankedTensorType scaleType,
                               ScaleLayout layout, const Target &target);

/// Tile shape and pipeline depth of one kernel, chosen by chooseConfig.
struct HopperGemmConfig {
  int64_t tileM = 2 * kConsumerRows;
  int64_t tileN = 128;
  int64_t stages = 4;
  int64_t consumers = 2;

  /// The tiles the schedulers walk.
  TileShape tileShape() const {
    return TileShape{tileM, tileN, splitTiles, splitWays()};
  }

  // Whether C leaves through shared memory and TMA stores (else by direct
  // stores from the accumulator layout).
  bool tmaStore = false;

  // Bytes of A's (B's) per-row scales that TMA loads with each stage
  // (col_major_tma layout); 0 where the consumers read them from global.
  int64_t aScaleBytes = 0, bScaleBytes = 0;
  // A's scales that the box brings before the tile's first row (a grouped
  // GEMM's tiles start at any row; the box at the 16-byte-aligned row at
  // or before it): 4 f32, else 0.
  int64_t aScaleSlack = 0;
  // Whether B's scales are one per tile and K-block (blocks of 128k rows):
  // a bulk copy brings the aligned 16 bytes of scales that hold the
  // K-block's with each stage.
  bool bScalePerTile = false;
  // Whether B's scales, blocks of rows that a narrow small-M tile
  // straddles, are given per column (as per-row B scales are) instead of
  // one per tile: per K-block the two blocks' scales, loaded a block ahead
  // and selected per column pair (ScaleReader).
  bool bScalePerColumn = false;
  /// Whether B's scales come by TMA with a tensor map (per-row scales).
  bool bScaleMapped() const { return bScaleBytes && !bScalePerTile; }

  /// The tiles of a last, partial round that are split (0: none). Each is
  /// cut into one 64-row sub-tile per consumer, and each sub-tile goes to a
  /// CTA of its own whose consumers share its K-blocks round-robin (three
  /// times the CTAs at work in that round, each with a third of the MMAs),
  /// then add their f32 sums through shared memory.
  int64_t splitTiles = 0;
  /// The sub-tiles of a split tile: one per consumer.
  int64_t splitWays() const { return consumers; }
  /// What TMA brings per stage of a sub-tile: 64 rows of A.
  int64_t splitStageBytes() const {
    return stageBytes() - (tileM - kConsumerRows) * kTileK;
  }
  /// MXFP8: each consumer converts a K-block's E8M0 scales to f32 in
  /// shared memory, one K-block ahead (SubBlockScales), in 128 x 64 tiles.
  bool subBlockScales = false;
  static constexpr int64_t kSubBlocks = 4;
  static constexpr int64_t kSubBlockTileN = 64;
  /// One K-block's f32 scales of a consumer's 64 rows and the tile's 64
  /// columns, with 16 floats of padding per sub-block (SubBlockScales.cpp).
  static constexpr int64_t kSubBlockBufferBytes =
      kSubBlocks * (kConsumerRows + kSubBlockTileN + 16) * 4;
  /// Two buffers per consumer.
  int64_t subBlockScaleBytes() const {
    return subBlockScales ? consumers * 2 * kSubBlockBufferBytes : 0;
  }

  /// The persistent grid: one CTA per SM, or fewer where there are fewer
  /// tasks (whole tiles, and the sub-tiles of the split ones).
  int64_t gridSize = 0;

  /// Whether each consumer checks every scale of its tile once, before the
  /// tile's K loop, and runs a K loop without promotion's per-block test
  /// of the scales where all pass (TileScaleCheck.h). Set by
  /// chooseTileScaleCheck.
  bool checkTileScales = false;
  /// The most f32 scales one consumer thread loads for that check: all are
  /// in flight at once.
  static constexpr int64_t kMaxScaleCheckLoads = 32;
  /// The loads per consumer thread of the check of a tile whose operands
  /// are scaled as `a` and `b`, over `numKBlocks` K-blocks.
  int64_t scaleCheckLoads(const OperandScaling &a, const OperandScaling &b,
                          int64_t numKBlocks) const {
    return llvm::divideCeil(
               scaleCheckRegion(a, kConsumerRows, numKBlocks).elements(),
               kWarpgroup) +
           llvm::divideCeil(scaleCheckRegion(b, tileN, numKBlocks).elements(),
                            kWarpgroup);
  }

  /// The tiles of an m x n C, partial ones included.
  int64_t tileCount(int64_t m, int64_t n) const {
    return llvm::divideCeil(m, tileM) * llvm::divideCeil(n, tileN);
  }
  /// The A and B tiles of one stage.
  int64_t tileBytes() const { return (tileM + tileN) * kTileK; }
  /// Everything TMA brings per stage (the full barrier's transaction bytes).
  int64_t stageBytes() const { return tileBytes() + aScaleBytes + bScaleBytes; }
  /// Shared memory per stage for A's scales: a TMA destination is 128-byte
  /// aligned.
  int64_t aScaleStride() const {
    return llvm::alignTo(aScaleBytes, kTmaAlignment);
  }
  /// Shared memory per stage for B's scales: a TMA destination is 128-byte
  /// aligned.
  int64_t bScaleStride() const {
    return bScalePerTile ? kTmaAlignment : bScaleBytes;
  }
  /// The shared memory of one stage.
  int64_t stageSharedBytes() const {
    return tileBytes() + aScaleStride() + bScaleStride();
  }
  /// One 64-row x 128-byte staging buffer of C per consumer.
  /// C's staging buffers per consumer: with two, a consumer writes a chunk
  /// while TMA still reads the one before it.
  int64_t epilogueBuffers = 1;
  /// One staging buffer of C.
  static constexpr int64_t kEpilogueBufferBytes = kConsumerRows * kSwizzleBytes;
  int64_t epilogueBytes() const {
    return tmaStore ? consumers * epilogueBuffers * kEpilogueBufferBytes : 0;
  }
  int64_t barrierBytes() const { return 2 * 8 * stages; }
  // Shared memory: A tiles, B tiles (1024-aligned for the swizzle), C
  // staging, A scales, B scales, converted sub-block scales, barriers.
  int64_t bTileOffset() const { return stages * tileM * kTileK; }
  int64_t epilogueOffset() const { return stages * tileBytes(); }
  int64_t aScaleOffset() const { return epilogueOffset() + epilogueBytes(); }
  int64_t bScaleOffset() const {
    return aScaleOffset() + stages * aScaleStride();
  }
  int64_t subBlockScaleOffset() const {
    return bScaleOffset() + stages * bScaleStride();
  }
  int64_t barrierOffset() const {
    return subBlockScaleOffset() + subBlockScaleBytes();
  }
  int64_t sharedBytes() const {
    // Slack to align the dynamic shared memory to the swizzle atom.
    return barrierOffset() + barrierBytes() + kSwizzleAtom;
  }
  int64_t threads() const { return (consumers + 1) * kWarpgroup; }
  /// The register count at entry: the file shared out evenly (multiple of
  /// 8), at most 168 so that one consumer's setmaxnreg.inc still raises it.
  int64_t entryRegisters() const {
    return std::min<int64_t>(kRegisterFile / threads() / 8 * 8, 168);
  }
  /// After setmaxnreg: the producer keeps few, the consumers take the rest:
  /// 128 * (40 + 2 * 232) or 128 * (24 + 3 * 160) <= 65536 (one consumer:
  /// 40 + 232).
  uint32_t producerRegisters() const { return consumers <= 2 ? 40 : 24; }
  uint32_t consumerRegisters() const {
    int64_t perConsumer =
        (kRegisterFile / kWarpgroup - producerRegisters()) / consumers;
    return std::min<int64_t>(perConsumer / 8 * 8, 232);
  }
};

/// The configuration of an m x n GEMM (any K) on `target`: `fast` where it
/// keeps one accumulator over all of K, `promotion` the op's promotion
/// interval (dynamic where no scale varies along K), `a` and `b` the
/// operands' scales (docs/gpu/gemm-sm90a.md, "Tile heuristic"). A grouped
/// GEMM
/// (`grouped`: `m` rows in all, in groups sized at run time) takes 128 x
/// 128 tiles or narrower, or 192 x 128 where TMA brings A's scales, stores
/// by TMA only the rows inside their group (the HopperEpilogue decides per
/// consumer), splits no tile and runs one CTA per SM. A tile's N is a
/// multiple of `tileNStep` (8, wgmma's step; 64 for an MN-major 16-bit B,
/// loaded in whole 64-element atoms).
HopperGemmConfig chooseConfig(const Target &target, int64_t m, int64_t n,
                              bool fast, int64_t promotion,
                              const OperandScaling &a, const OperandScaling &b,
                              bool grouped = false, int64_t tileNStep = 8);

/// Sets `config.checkTileScales` (chooseConfig's `config` of an m x n GEMM
/// over `numKBlocks` K-blocks, not grouped): where every CTA has one tile
/// (small M) of two or more consumers and at most 64 columns, promotion is
/// per whole K-block with
/// scales that vary along K, and the check's loads are few enough to be in
/// flight at once. Its cost
/// is then the latency of one round of loads while the producer fills the
/// first stages; with many tiles per CTA it would wait before each
/// (docs/gpu/gemm-sm90a.md, "Small M").
void chooseTileScaleCheck(HopperGemmConfig &config, int64_t m, int64_t n,
                          int64_t numKBlocks, int64_t promotion,
                          const OperandScaling &a, const OperandScaling &b);

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERGEMMCONFIG_H
