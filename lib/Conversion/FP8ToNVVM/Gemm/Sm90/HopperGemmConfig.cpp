//===- HopperGemmConfig.cpp - sm_90a tiles and pipeline -------------------===//
//
// The tile heuristic of the sm_90a GEMM, measured on the H200 and H100
// (docs/gpu/gemm-sm90a.md, "Tile heuristic", and the results files it
// cites), and the description of an operand's scales that it reads.
//
//===----------------------------------------------------------------------===//

#include "HopperGemmConfig.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

OperandScaling gemm::describeScaling(ScalingAttr scaling,
                                     RankedTensorType scaleType,
                                     ScaleLayout layout, const Target &target) {
  return OperandScaling{scaling.getTile()[0],
                        scaling.getTile()[1],
                        scaleType.getDimSize(1),
                        isa<Float8E8M0FNUType>(scaling.getScale()),
                        layout == ScaleLayout::col_major_tma,
                        hasTmaLoadableScales(target, scaling)};
}

ScaleCheckRegion gemm::scaleCheckRegion(const OperandScaling &scaling,
                                        int64_t span, int64_t numKBlocks) {
  // `span` rows at any offset meet at most ceil((span - 1) / rowBlock) + 1
  // blocks of rows.
  int64_t rows = scaling.spansRows()
                     ? 1
                     : llvm::divideCeil(span - 1, scaling.rowBlock) + 1;
  // The K loop reads the scales of K-blocks 0 .. numKBlocks - 1, at their
  // first element.
  int64_t cols =
      scaling.spansK() ? 1 : (numKBlocks - 1) * kTileK / scaling.kBlock + 1;
  return {rows, cols};
}

/// Small M (at most 64 rows: decode, a few rows of an expert), where 128 x
/// 128 tiles would leave SMs idle: the whole cost is reading B, so every SM
/// streams a slice of it. One 64-row tile of one consumer (a 128-row tile
/// had a second consumer multiplying rows past M, and TMA filling them with
/// zeros: M = 64 ran slower than M = 128), as narrow as makes one tile per
/// SM: N = 7168 takes 128 tiles of 56 columns (128 x 64 left 20 of 132 SMs
/// idle): +30-35% (blockwise +11-14%) on the H100
/// (bench/results/2026-11-26-h100-small-m.md).
/// At least 16 wide, a multiple of `tileNStep`. A tile that straddles two
/// row blocks of B's scales gives B's scales per column (the two blocks'
/// selected per column pair). Returns false, changing nothing, for larger
/// problems.
static bool chooseSmallM(HopperGemmConfig &config, int64_t numSMs, int64_t m,
                         int64_t n, const OperandScaling &b,
                         int64_t tileNStep) {
  constexpr int64_t kMinTileN = 16;
  if (m > kConsumerRows || llvm::divideCeil(n, 128) >= numSMs)
    return false;
  config.tileM = kConsumerRows;
  config.consumers = 1;
  config.tileN = std::max(llvm::alignTo(llvm::divideCeil(n, numSMs), tileNStep),
                          llvm::alignTo(kMinTileN, tileNStep));
  config.bScalePerColumn =
      !b.spansRows() && b.rowBlock != 1 && b.rowBlock % config.tileN != 0;
  return true;
}

/// The documented heuristic (docs/gpu/gemm-sm90a.md): 128 x 128 tiles; for
/// at most 64 rows, one narrow 64-row tile per SM (chooseSmallM); 128 x 64
/// where 128 x 128 tiles would leave most SMs idle or promotion comes inside a
/// K-block (MX); 192 x 128 for blockwise scales, 128 x 256 for fast
/// and 128 x 192 for plain promotion on large problems; as many pipeline
/// stages as shared memory holds, at most 8; a short last round of 192 x 128
/// tiles split.
HopperGemmConfig gemm::chooseConfig(const Target &target, int64_t m, int64_t n,
                                    bool fast, int64_t promotion,
                                    const OperandScaling &a,
                                    const OperandScaling &b, bool grouped,
                                    int64_t tileNStep) {
  const int64_t numSMs = target.getNumSMs();
  bool kVaryingScales = !ShapedType::isDynamic(promotion);
  // A tile must not straddle two row blocks of B's scales: the kernel keeps
  // one B scale per tile unless B's are per column.
  auto bFits = [&](int64_t tileN) {
    return b.spansRows() || b.rowBlock == 1 || b.rowBlock % tileN == 0;
  };
  HopperGemmConfig config;
  int64_t tiles = config.tileCount(m, n);
  int64_t tallTiles = llvm::divideCeil(m, 3 * kConsumerRows) *
                      llvm::divideCeil(n, 128); // 192 x 128
  bool subBlockPromotion = kVaryingScales && promotion < kTileK;
  // Small M (decode): every SM streams a slice of B. Not a grouped GEMM,
  // whose rows per group are known at run time, nor MX (SubBlockScales
  // converts scales for 128 x 64 tiles).
  if (!grouped && !subBlockPromotion &&
      chooseSmallM(config, numSMs, m, n, b, tileNStep)) {
    // chooseSmallM chose the tile.
  }
  // Promotion within a K-block (1x32, 1x64 scales) reads a scale per column
  // for every step; with 128 columns they and the sums spill (K = 512).
  else if (tiles < numSMs / 2 || subBlockPromotion)
    config.tileN = 64;
  // Per-block scales (blockwise): 192 x 128, three consumer warpgroups of
  // 64 accumulator and 64 sum registers each. A 128-wide tile keeps one
  // 128x128 B scale per K-block, and 1.5x the rows per tile cut the L2
  // traffic per FLOP that bounds 128 x 128. Per-column B scales (1x128 on
  // both sides) would not fit the registers.
  // A grouped GEMM takes them too where TMA brings A's scales (contiguous
  // A; masked A's are row-major): 8 experts of 4096 x 7168 with 2048 or
  // 4096 rows each, 7-8% faster than 128 x 128 on the H100, and no slower
  // with 512 or 1024 (bench/results/2026-11-26-h100-grouped-gemm.md).
  else if ((!grouped || a.byTma()) && kVaryingScales && promotion >= kTileK &&
           b.rowBlock != 1 && tallTiles >= 2 * numSMs) {
    config.consumers = 3;
    config.tileM = 3 * kConsumerRows;
  }
  // Without promotion the accumulator is the only large register set, so a
  // 128 x 256 tile fits (128 f32 per thread) and halves B's traffic.
  else if (!grouped && fast && n % 256 == 0 && tiles / 2 >= 2 * numSMs &&
           bFits(256))
    config.tileN = 256;
  // Promotion by plain adds (no scale varies along K): 128 x 192, with 96
  // accumulator and 96 sum registers per thread. With per-block scales the
  // promotion's FMAs make it slower than 128 x 128 (measured).
  else if (!grouped && !fast && !kVaryingScales &&
           tiles * 2 / 3 >= 2 * numSMs && bFits(192))
    config.tileN = 192;
  if (a.byTma()) {
    config.aScaleSlack = grouped ? kTmaInnerStartAlignment / 4 : 0;
    config.aScaleBytes = (config.tileM + config.aScaleSlack) * 4;
  }
  config.bScaleBytes = b.byTma() ? config.tileN * 4 : 0;
  // Per-tile B scales that vary along K: the producer's TMA brings them with
  // the stage instead of a global load per consumer thread and K-block.
  if (kVaryingScales && blockByBulkCopy(b) && !config.bScalePerColumn) {
    config.bScalePerTile = true;
    config.bScaleBytes = 16;
  }
  // MXFP8 (promotion every 32, E8M0 words on both sides): the consumers
  // convert each K-block's scales once into shared memory.
  config.subBlockScales = kVaryingScales && promotion * 4 == kTileK &&
                          config.tileN == HopperGemmConfig::kSubBlockTileN &&
                          subBlockWords(a) && subBlockWords(b);
  int64_t available = target.getSharedMemoryPerBlock() - kSwizzleAtom - 16 * 8 -
                      config.subBlockScaleBytes();
  config.stages = std::min<int64_t>(8, available / config.stageSharedBytes());
  // C leaves through shared memory and TMA stores, even where its staging
  // buffers cost a pipeline stage (128 x 128: 7 -> 6): measured on the H200,
  // +5-23% for blockwise on four large shapes, -7% on 16384x4096x14336.
  // The staging buffers hold 128-byte column chunks (64 bf16 or 32 f32
  // columns): a narrower small-M tile stores directly. A grouped GEMM's
  // consumers store by TMA the 64 rows that lie in their tile's group
  // (all but those of a group's last row tile), the others directly: 8
  // experts of 4096 x 7168, 7-14% faster contiguous (192 x 128: 5 -> 4
  // stages), 4% masked, on the H100
  // (bench/results/2026-11-26-h100-grouped-gemm-tma-store.md).
  config.tmaStore = config.tileN % 64 == 0;
  auto stagesBeside = [&](const HopperGemmConfig &c) {
    return std::min<int64_t>(8, (available - c.epilogueBytes()) /
                                    c.stageSharedBytes());
  };
  config.stages = stagesBeside(config);
  // Two staging buffers per consumer where they cost no stage (192 x 128,
  // 128 x 256, 128 x 128 with B's scales per tile): a consumer writes a
  // chunk of C while TMA still reads the one before. H100: +1-2% for fast
  // and for blockwise 8192x7168x2048, the rest unchanged; where they cost
  // a stage (128 x 192 promoted by adds, 5 -> 4) within 1%: not taken
  // (bench/results/2026-11-26-h100-gemm-epilogue-buffers.md).
  HopperGemmConfig doubled = config;
  doubled.epilogueBuffers = 2;
  if (config.tmaStore && stagesBeside(doubled) == config.stages)
    config.epilogueBuffers = 2;
  // 192 x 128 with per-row scales read from global memory: those loads are
  // fast only while they hit in L1, which a fifth stage (230 KB of shared
  // memory) leaves too small: 4 stages measured 2-33% faster on the H100.
  if (config.consumers == 3 && a.rowBlock == 1 && !a.spansK() && !a.byTma())
    config.stages = std::min<int64_t>(config.stages, 4);
  // A last round that would keep at most a third of the SMs busy with whole
  // 192 x 128 tiles (4096^3: 704 tiles, 44 in the sixth round, which cost
  // 0.85 of a full round on the H100) runs as 64 x 128 sub-tiles instead,
  // a CTA each, so that every SM takes a third of a tile's MMAs. The
  // consumers add their sums in the stage buffers, which then hold no data.
  // Two-consumer tiles (128 x 192 tensorwise and rowwise have the same last
  // round at 4096^3) are not split: without issue turns (they promote by
  // adds) a consumer could pass a stage's full-barrier wait on the fill
  // before the one it waits for (HopperMainLoop::buildSplitLoop).
  if (config.consumers == 3 && !grouped && !config.subBlockScales) {
    int64_t partial = config.tileCount(m, n) % numSMs;
    int64_t sumBytes =
        (config.consumers - 1) * kConsumerRows * config.tileN * 4;
    if (partial && partial * config.splitWays() <= numSMs &&
        sumBytes <= config.stages * config.tileBytes())
      config.splitTiles = partial;
  }
  // Whole tiles take any grid size; sub-tiles need one CTA each. A grouped
  // GEMM's tiles are counted at run time.
  if (grouped) {
    config.gridSize = numSMs;
    return config;
  }
  config.gridSize = std::min(config.tileCount(m, n) +
                                 (config.splitWays() - 1) * config.splitTiles,
                             numSMs);
  return config;
}

void gemm::chooseTileScaleCheck(HopperGemmConfig &config, int64_t m, int64_t n,
                                int64_t numKBlocks, int64_t promotion,
                                const OperandScaling &a,
                                const OperandScaling &b) {
  bool wholeBlockScales =
      !ShapedType::isDynamic(promotion) && promotion >= kTileK;
  bool oneTilePerCta =
      config.splitTiles == 0 && config.tileCount(m, n) <= config.gridSize;
  // A lone consumer promotes one K-block while the next one's MMAs run
  // (buildPairedPromoted), where the test costs little: at M = 64 the check
  // cost more than it saved (H200: 2.55 -> 2.53 TB/s; without any test
  // 2.61), while two consumers gained 5% (M = 128: 2.52 -> 2.65).
  bool twoConsumers = config.consumers > 1;
  // 64 columns at most: with 128 x 128 tiles (512 x 4096 x 7168) the two
  // K loops ran 5% slower, where 128 x 64 gained 2-3% (256 x 4096 x 7168,
  // 128 x 7168 x 2048; H100).
  bool narrow = config.tileN <= 64;
  config.checkTileScales = wholeBlockScales && oneTilePerCta && twoConsumers &&
                           narrow &&
                           config.scaleCheckLoads(a, b, numKBlocks) <=
                               HopperGemmConfig::kMaxScaleCheckLoads;
}
