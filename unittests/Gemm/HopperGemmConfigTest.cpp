//===- HopperGemmConfigTest.cpp - the GEMM's tile heuristic
//---------------------===//
//
// What docs/gpu/gemm-sm90a.md promises of chooseConfig ("Tile heuristic"):
// the tile
// shape, consumers, stages and split of the cases measured there, and that
// every configuration fits the shared memory of a CTA.
//
//===----------------------------------------------------------------------===//

#include "Gemm/Sm90/HopperGemmConfig.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels::gemm;

namespace {

constexpr int64_t kDyn = ShapedType::kDynamic;

const Target &hopper() {
  static const Target target(Chip::sm_90a);
  return target;
}

/// Scales of `rowBlock` x `kBlock` (kDyn for `*`) of an operand with `rows`
/// rows and `k` columns, f32 unless `e8m0`, row-major unless `colMajorTma`.
OperandScaling scaling(int64_t rowBlock, int64_t kBlock, int64_t rows,
                       int64_t k, bool colMajorTma = false, bool e8m0 = false) {
  int64_t scaleRows = rowBlock == kDyn ? 1 : llvm::divideCeil(rows, rowBlock);
  int64_t scaleCols = kBlock == kDyn ? 1 : llvm::divideCeil(k, kBlock);
  // hasTmaLoadableScales: f32 per row, K-blocks of a multiple of 128.
  bool tmaLoadable =
      rowBlock == 1 && kBlock != kDyn && kBlock % kTileK == 0 && !e8m0;
  // col_major_tma: the transpose, rows padded to 16 bytes.
  int64_t stride =
      colMajorTma ? llvm::alignTo(scaleRows, e8m0 ? 16 : 4) : scaleCols;
  return OperandScaling{rowBlock, kBlock,      stride,
                        e8m0,     colMajorTma, tmaLoadable};
}

/// The op's promotion interval: the finest K-block of the two, dynamic
/// where both span K.
int64_t promotionOf(const OperandScaling &a, const OperandScaling &b) {
  if (a.spansK())
    return b.kBlock;
  if (b.spansK())
    return a.kBlock;
  return std::min(a.kBlock, b.kBlock);
}

/// DeepSeek-V3's blockwise scaling: 1x128 on A (col_major_tma unless
/// `rowMajorA`), 128x128 on B.
HopperGemmConfig blockwise(int64_t m, int64_t n, int64_t k,
                           bool rowMajorA = false) {
  OperandScaling a = scaling(1, 128, m, k, /*colMajorTma=*/!rowMajorA);
  OperandScaling b = scaling(128, 128, n, k);
  return chooseConfig(hopper(), m, n, /*fast=*/false, promotionOf(a, b), a, b);
}

HopperGemmConfig tensorwise(int64_t m, int64_t n, int64_t k, bool fast) {
  OperandScaling a = scaling(kDyn, kDyn, m, k);
  OperandScaling b = scaling(kDyn, kDyn, n, k);
  return chooseConfig(hopper(), m, n, fast, kDyn, a, b);
}

// 4096^3 blockwise: 192 x 128 tiles on three consumers, each stage bringing
// A's scales by TMA and B's block scale by a bulk copy; 704 tiles leave 44
// in a sixth round, which are split (three sub-tiles each, 132 CTAs).
TEST(HopperGemmConfigTest, Blockwise4096) {
  HopperGemmConfig config = blockwise(4096, 4096, 4096);
  EXPECT_EQ(config.tileM, 192);
  EXPECT_EQ(config.tileN, 128);
  EXPECT_EQ(config.consumers, 3);
  EXPECT_EQ(config.threads(), 512);
  EXPECT_EQ(config.aScaleBytes, 192 * 4);
  EXPECT_TRUE(config.bScalePerTile);
  EXPECT_FALSE(config.bScaleMapped());
  EXPECT_EQ(config.stages, 4);
  // Two staging buffers of C per consumer fit beside the four stages.
  EXPECT_EQ(config.epilogueBuffers, 2);
  EXPECT_EQ(config.tileCount(4096, 4096), 704);
  EXPECT_EQ(config.splitTiles, 44);
  EXPECT_EQ(config.gridSize, 132);
  EXPECT_EQ(config.producerRegisters(), 24u);
  EXPECT_EQ(config.consumerRegisters(), 160u);
}

// 192 x 128 with row-major per-row A scales, read from global memory: held
// to 4 stages although a fifth would fit (L1 must keep those scales).
TEST(HopperGemmConfigTest, RowMajorScalesHoldFourStages) {
  HopperGemmConfig config = blockwise(4096, 4096, 4096, /*rowMajorA=*/true);
  EXPECT_EQ(config.tileM, 192);
  EXPECT_EQ(config.aScaleBytes, 0);
  EXPECT_EQ(config.stages, 4);
  int64_t fits = (hopper().getSharedMemoryPerBlock() - kSwizzleAtom - 16 * 8 -
                  config.epilogueBytes()) /
                 config.stageSharedBytes();
  EXPECT_GT(fits, 4);
}

// A last round of 45 tiles (a third of the SMs is 44) stays whole.
TEST(HopperGemmConfigTest, FortyFiveTilesStayWhole) {
  HopperGemmConfig config = blockwise(4032, 2688, 1024);
  EXPECT_EQ(config.tileM, 192);
  EXPECT_EQ(config.tileCount(4032, 2688) % hopper().getNumSMs(), 45);
  EXPECT_EQ(config.splitTiles, 0);
  EXPECT_EQ(config.gridSize, 132);
}

// Small M, at most 64 rows: one 64-row tile of one consumer, as narrow as
// makes one tile per SM (7168 / 132 -> 56 columns, 128 tiles), C stored
// directly (56 columns are not whole 128-byte chunks). Blockwise B scales
// (128-row blocks) that such a tile straddles are read per column.
TEST(HopperGemmConfigTest, SmallMTakesOneNarrowTilePerSM) {
  for (int64_t m : {1, 17, 64}) {
    SCOPED_TRACE(testing::Message() << "M = " << m);
    for (HopperGemmConfig config :
         {tensorwise(m, 7168, 2048, /*fast=*/true),
          tensorwise(m, 7168, 2048, /*fast=*/false), blockwise(m, 7168, 2048),
          blockwise(m, 7168, 2048, /*rowMajorA=*/true)}) {
      EXPECT_EQ(config.tileM, 64);
      EXPECT_EQ(config.tileN, 56);
      EXPECT_EQ(config.consumers, 1);
      EXPECT_EQ(config.threads(), 256);
      EXPECT_EQ(config.tileCount(m, 7168), 128);
      EXPECT_EQ(config.gridSize, 128);
      EXPECT_FALSE(config.tmaStore);
      EXPECT_EQ(config.stages, 8);
      EXPECT_EQ(config.splitTiles, 0);
      // setmaxnreg raises the consumer above the count at entry.
      EXPECT_EQ(config.entryRegisters(), 168);
      EXPECT_EQ(config.producerRegisters(), 40u);
      EXPECT_EQ(config.consumerRegisters(), 232u);
    }
    HopperGemmConfig bw = blockwise(m, 7168, 2048);
    EXPECT_TRUE(bw.bScalePerColumn);
    EXPECT_FALSE(bw.bScalePerTile);
    EXPECT_EQ(bw.aScaleBytes, 64 * 4);
    EXPECT_FALSE(tensorwise(m, 7168, 2048, true).bScalePerColumn);
  }
}

/// Whether chooseTileScaleCheck has the consumers check blockwise scales
/// (1x128 x 128x128) once per tile, and with how many loads per thread.
std::pair<bool, int64_t> tileScaleCheck(int64_t m, int64_t n, int64_t k) {
  OperandScaling a = scaling(1, 128, m, k, /*colMajorTma=*/true);
  OperandScaling b = scaling(128, 128, n, k);
  int64_t numKBlocks = llvm::divideCeil(k, kTileK);
  HopperGemmConfig config = blockwise(m, n, k);
  chooseTileScaleCheck(config, m, n, numKBlocks, promotionOf(a, b), a, b);
  return {config.checkTileScales, config.scaleCheckLoads(a, b, numKBlocks)};
}

// One tile per CTA on two consumers, 64 columns wide (M = 128: 128 x 64
// tiles) checks its scales once: 64 rows x 16 K-blocks of A's and 2 x 16 of B's
// (a 64-wide tile meets at most two 128-row blocks) are 8 + 1 loads per thread.
// Not a lone consumer (M = 64), a 128-wide tile, more loads than stay in flight
// (K = 16384: 64), several tiles per CTA, or scales constant along K.
TEST(HopperGemmConfigTest, OneTilePerCtaChecksItsScalesOnce) {
  EXPECT_EQ(tileScaleCheck(128, 7168, 2048), std::make_pair(true, int64_t(9)));
  EXPECT_EQ(tileScaleCheck(100, 7168, 2048), std::make_pair(true, int64_t(9)));
  EXPECT_EQ(tileScaleCheck(128, 7168, 7168).second, 28 + 1);
  EXPECT_TRUE(tileScaleCheck(128, 7168, 7168).first);
  EXPECT_FALSE(tileScaleCheck(64, 7168, 2048).first);
  // 128 x 128 tiles (one per CTA here) keep the tested loop.
  EXPECT_EQ(blockwise(512, 4096, 7168).tileN, 128);
  EXPECT_FALSE(tileScaleCheck(512, 4096, 7168).first);
  EXPECT_TRUE(tileScaleCheck(256, 4096, 7168).first);
  EXPECT_FALSE(tileScaleCheck(128, 7168, 16384).first);
  EXPECT_FALSE(tileScaleCheck(1024, 4096, 512).first);
  EXPECT_FALSE(tileScaleCheck(4096, 4096, 4096).first);
  OperandScaling rowA = scaling(1, kDyn, 128, 2048);
  OperandScaling rowB = scaling(1, kDyn, 7168, 2048);
  HopperGemmConfig rowwise =
      chooseConfig(hopper(), 128, 7168, false, kDyn, rowA, rowB);
  chooseTileScaleCheck(rowwise, 128, 7168, 16, kDyn, rowA, rowB);
  EXPECT_FALSE(rowwise.checkTileScales);
}

// The scales a check reads: `span` rows at any offset meet at most
// ceil((span - 1) / rowBlock) + 1 row blocks; every K-block's scale column.
TEST(HopperGemmConfigTest, ScaleCheckRegion) {
  OperandScaling perRow = scaling(1, 128, 4096, 2048);
  OperandScaling block = scaling(128, 128, 4096, 2048);
  OperandScaling tensor = scaling(kDyn, kDyn, 4096, 2048);
  OperandScaling coarseK = scaling(1, 256, 4096, 2048);
  auto region = [](const OperandScaling &s, int64_t span, int64_t kBlocks) {
    ScaleCheckRegion r = scaleCheckRegion(s, span, kBlocks);
    return std::make_pair(r.rows, r.cols);
  };
  EXPECT_EQ(region(perRow, 64, 16), std::make_pair(int64_t(64), int64_t(16)));
  EXPECT_EQ(region(block, 64, 16), std::make_pair(int64_t(2), int64_t(16)));
  EXPECT_EQ(region(block, 128, 16), std::make_pair(int64_t(2), int64_t(16)));
  EXPECT_EQ(region(block, 1, 16), std::make_pair(int64_t(1), int64_t(16)));
  EXPECT_EQ(region(tensor, 64, 16), std::make_pair(int64_t(1), int64_t(1)));
  // K = 208: two K-blocks, at K 0 and 128: scale columns 0 and 0 of 256.
  EXPECT_EQ(region(coarseK, 64, 2), std::make_pair(int64_t(64), int64_t(1)));
  EXPECT_EQ(region(coarseK, 64, 3), std::make_pair(int64_t(64), int64_t(2)));
}

// A narrow tile that divides B's 128-row scale blocks keeps one B scale
// per tile (N = 4096: 32 columns); at least 16 columns (N = 512: 32 tiles).
TEST(HopperGemmConfigTest, SmallMNarrowTileWidths) {
  HopperGemmConfig n4096 = blockwise(64, 4096, 7168);
  EXPECT_EQ(n4096.tileN, 32);
  EXPECT_EQ(n4096.gridSize, 128);
  EXPECT_FALSE(n4096.bScalePerColumn);
  EXPECT_TRUE(n4096.bScalePerTile);
  HopperGemmConfig n512 = blockwise(1, 512, 512);
  EXPECT_EQ(n512.tileN, 16);
  EXPECT_EQ(n512.gridSize, 32);
  // An MN-major 16-bit B comes in whole 64-element atoms.
  OperandScaling none = scaling(kDyn, kDyn, 1, 1);
  HopperGemmConfig mnMajor =
      chooseConfig(hopper(), 64, 7168, /*fast=*/true, kDyn, none, none,
                   /*grouped=*/false, 64);
  EXPECT_EQ(mnMajor.tileN, 64);
  EXPECT_EQ(mnMajor.tileM, 64);
}

// More than 64 rows keep 128 x 64 where 128 x 128 would leave over half
// the SMs idle: 128 x 56 tiles on two consumers, and 64 x 112 tiles, ran
// 9-26% slower than 128 x 64 at M = 128 (H100). A grouped GEMM and an N
// too wide for one 128-column tile per SM take the usual tiles too.
TEST(HopperGemmConfigTest, LargerMOrNKeeps128x64) {
  for (int64_t m : {65, 100, 128}) {
    HopperGemmConfig config = blockwise(m, 4096, 7168);
    EXPECT_EQ(config.tileM, 128) << "M = " << m;
    EXPECT_EQ(config.tileN, 64) << "M = " << m;
    EXPECT_EQ(config.consumers, 2) << "M = " << m;
    EXPECT_EQ(config.splitTiles, 0) << "M = " << m;
    EXPECT_EQ(config.gridSize, 64) << "M = " << m;
    EXPECT_FALSE(config.bScalePerColumn) << "M = " << m;
  }
  HopperGemmConfig wide = tensorwise(64, 132 * 128, 2048, /*fast=*/true);
  EXPECT_EQ(wide.tileM, 128);
  EXPECT_EQ(wide.consumers, 2);
  OperandScaling a = scaling(1, 128, 64, 2048);
  OperandScaling b = scaling(128, 128, 7168, 2048);
  HopperGemmConfig grouped = chooseConfig(hopper(), 64, 7168, /*fast=*/false,
                                          128, a, b, /*grouped=*/true);
  EXPECT_EQ(grouped.tileM, 128);
  EXPECT_EQ(grouped.consumers, 2);
}

// A grouped GEMM (8 experts of 4096 x 7168, 2048 rows each) whose A scales
// TMA brings (col_major_tma) takes the plain kernel's 192 x 128 tiles, with
// TMA stores of C (the consumers inside their group; staging buffers, so 4
// stages as the plain kernel) and no split; its box of A scales starts at
// the 16-byte-aligned row at or before the tile's first (4 more f32), each
// stage's 128-byte aligned. Row-major A scales keep 128 x 128.
TEST(HopperGemmConfigTest, GroupedTmaScalesTake192x128) {
  int64_t m = 8 * 2048, n = 4096, k = 7168;
  OperandScaling a = scaling(1, 128, m, k, /*colMajorTma=*/true);
  OperandScaling b = scaling(128, 128, n, k);
  HopperGemmConfig config =
      chooseConfig(hopper(), m, n, /*fast=*/false, 128, a, b,
                   /*grouped=*/true);
  EXPECT_EQ(config.tileM, 192);
  EXPECT_EQ(config.consumers, 3);
  EXPECT_TRUE(config.tmaStore);
  EXPECT_EQ(config.splitTiles, 0);
  EXPECT_EQ(config.stages, 4);
  EXPECT_EQ(config.gridSize, 132);
  EXPECT_EQ(config.aScaleSlack, 4);
  EXPECT_EQ(config.aScaleBytes, (192 + 4) * 4);
  EXPECT_EQ(config.aScaleStride(), 896);
  EXPECT_EQ(config.stageBytes(), (192 + 128) * 128 + 784 + 16);
  EXPECT_EQ(config.bScaleOffset() - config.aScaleOffset(), 4 * 896);
  EXPECT_LE(config.sharedBytes(), hopper().getSharedMemoryPerBlock());

  OperandScaling rowMajor = scaling(1, 128, m, k);
  HopperGemmConfig plainScales = chooseConfig(
      hopper(), m, n, /*fast=*/false, 128, rowMajor, b, /*grouped=*/true);
  EXPECT_EQ(plainScales.tileM, 128);
  EXPECT_EQ(plainScales.aScaleBytes, 0);
  // The plain GEMM's tiles start at multiples of their rows: no slack.
  EXPECT_EQ(blockwise(4096, 4096, 4096).aScaleSlack, 0);
}

// Fast tensorwise on a large problem: 128 x 256 (the accumulator is the
// only large register set).
TEST(HopperGemmConfigTest, FastTensorwiseTakes128x256) {
  HopperGemmConfig config = tensorwise(4096, 4096, 4096, /*fast=*/true);
  EXPECT_EQ(config.tileM, 128);
  EXPECT_EQ(config.tileN, 256);
  EXPECT_EQ(config.consumers, 2);
  EXPECT_EQ(config.stages, 4);
  EXPECT_EQ(config.epilogueBuffers, 2);
  EXPECT_EQ(config.splitTiles, 0);
}

// Promotion by adds on a large problem: 128 x 192, five stages; a second
// staging buffer of C would cost one, so it keeps one.
TEST(HopperGemmConfigTest, SecondEpilogueBufferNeverCostsAStage) {
  HopperGemmConfig config = tensorwise(4096, 4096, 4096, /*fast=*/false);
  EXPECT_EQ(config.tileN, 192);
  EXPECT_EQ(config.stages, 5);
  EXPECT_EQ(config.epilogueBuffers, 1);
  HopperGemmConfig doubled = config;
  doubled.epilogueBuffers = 2;
  int64_t available =
      hopper().getSharedMemoryPerBlock() - kSwizzleAtom - 16 * 8;
  EXPECT_LT((available - doubled.epilogueBytes()) / config.stageSharedBytes(),
            config.stages);
}

// MXFP8 (1x32 E8M0 on both): promotion inside a K-block reads a scale per
// column every 32 of K, so 128 x 64; the consumers convert each K-block's
// codes into two 2304-byte buffers each (SubBlockScales), behind the 8 stages.
TEST(HopperGemmConfigTest, MxTakes128x64) {
  OperandScaling a = scaling(1, 32, 4096, 4096, false, /*e8m0=*/true);
  OperandScaling b = scaling(1, 32, 4096, 4096, false, /*e8m0=*/true);
  HopperGemmConfig config =
      chooseConfig(hopper(), 4096, 4096, /*fast=*/false, 32, a, b);
  EXPECT_EQ(config.tileM, 128);
  EXPECT_EQ(config.tileN, 64);
  EXPECT_EQ(config.aScaleBytes, 0);
  EXPECT_EQ(config.bScaleBytes, 0);
  EXPECT_EQ(config.stages, 8);
  EXPECT_TRUE(config.subBlockScales);
  EXPECT_EQ(config.subBlockScaleBytes(), 2 * 2 * 2304);
  EXPECT_EQ(config.subBlockScaleOffset() % 16, 0);
  EXPECT_EQ(config.barrierOffset(),
            config.subBlockScaleOffset() + config.subBlockScaleBytes());
}

// The scales of 1x32 f32, or E8M0 rows whose length is not a multiple of 4
// codes (K = 4000: 125 per row), are not one word per K-block: read per
// sub-block from global memory as before.
TEST(HopperGemmConfigTest, OnlyWordAlignedE8m0ConvertsInShared) {
  OperandScaling a = scaling(1, 32, 4096, 4096);
  OperandScaling b = scaling(1, 32, 4096, 4096);
  EXPECT_FALSE(
      chooseConfig(hopper(), 4096, 4096, false, 32, a, b).subBlockScales);
  OperandScaling a8 = scaling(1, 32, 4096, 4000, false, /*e8m0=*/true);
  OperandScaling b8 = scaling(1, 32, 4096, 4000, false, /*e8m0=*/true);
  EXPECT_FALSE(
      chooseConfig(hopper(), 4096, 4096, false, 32, a8, b8).subBlockScales);
}

// Two-consumer tiles never split, not even with 4096^3's 44-tile last
// round (tensorwise and rowwise promotion: 128 x 192).
TEST(HopperGemmConfigTest, TwoConsumerTilesNeverSplit) {
  HopperGemmConfig promoted = tensorwise(4096, 4096, 4096, /*fast=*/false);
  EXPECT_EQ(promoted.tileN, 192);
  EXPECT_EQ(promoted.consumers, 2);
  EXPECT_EQ(promoted.stages, 5);
  EXPECT_EQ(promoted.tileCount(4096, 4096) % hopper().getNumSMs(), 44);
  EXPECT_EQ(promoted.splitTiles, 0);

  OperandScaling a = scaling(1, kDyn, 4096, 4096);
  OperandScaling b = scaling(1, kDyn, 4096, 4096);
  HopperGemmConfig rowwise =
      chooseConfig(hopper(), 4096, 4096, /*fast=*/false, kDyn, a, b);
  EXPECT_EQ(rowwise.tileN, 192);
  EXPECT_EQ(rowwise.splitTiles, 0);
}

// Every configuration fits a CTA's shared memory, with at least as many
// stages as consumers (the split's parity waits rest on it), and its grid
// covers every task without exceeding the SMs.
TEST(HopperGemmConfigTest, SharedBytesWithinLimit) {
  int64_t limit = hopper().getSharedMemoryPerBlock();
  for (int64_t m : {1, 17, 1400, 4000, 4096, 8192, 16384})
    for (int64_t n : {1664, 2304, 4096, 7168, 8192})
      for (int kind = 0; kind < 6; ++kind) {
        const int64_t k = 4096;
        HopperGemmConfig config;
        switch (kind) {
        case 0:
          config = blockwise(m, n, k);
          break;
        case 1:
          config = blockwise(m, n, k, /*rowMajorA=*/true);
          break;
        case 2:
          config = tensorwise(m, n, k, /*fast=*/true);
          break;
        case 3:
          config = tensorwise(m, n, k, /*fast=*/false);
          break;
        case 4: {
          OperandScaling a = scaling(1, 128, m, k, /*colMajorTma=*/true);
          OperandScaling b = scaling(1, 128, n, k, /*colMajorTma=*/true);
          config = chooseConfig(hopper(), m, n, false, 128, a, b);
          break;
        }
        default: {
          OperandScaling a = scaling(1, 32, m, k, false, /*e8m0=*/true);
          OperandScaling b = scaling(1, 32, n, k, false, /*e8m0=*/true);
          config = chooseConfig(hopper(), m, n, false, 32, a, b);
        }
        }
        SCOPED_TRACE(testing::Message()
                     << "m = " << m << ", n = " << n << ", scaling " << kind);
        EXPECT_LE(config.sharedBytes(), limit);
        EXPECT_GE(config.stages, config.consumers);
        EXPECT_LE(config.stages, 8);
        EXPECT_LE(config.gridSize, hopper().getNumSMs());
        int64_t tasks = config.tileCount(m, n) +
                        (config.splitWays() - 1) * config.splitTiles;
        EXPECT_EQ(config.gridSize, std::min(tasks, hopper().getNumSMs()));
        if (config.splitTiles) {
          EXPECT_EQ(config.consumers, 3);
        }
      }
}

} // namespace

// FP8, K-major (every sm_90a GEMM so far): k32 wgmmas, four per 128-element
// K-block, the start address 32 bytes further along the swizzled row each.
TEST(WgmmaOperandLayoutTest, Fp8KMajor) {
  WgmmaOperandLayout layout{1, false};
  EXPECT_EQ(layout.mmaK(), 32);
  EXPECT_EQ(layout.kBlockElements(), 128);
  EXPECT_EQ(layout.mmasPerKBlock(), 4);
  EXPECT_EQ(layout.kStepBytes(), 32);
  EXPECT_EQ(layout.leadingByteOffset(), 16);
  EXPECT_EQ(layout.strideByteOffset(), 1024);
  EXPECT_EQ(layout.boxInner(), 128);
}

// bf16 (f16), K-major: the same 128 bytes per row and 32 bytes per wgmma,
// which are now 64 and 16 elements.
TEST(WgmmaOperandLayoutTest, SixteenBitKMajor) {
  WgmmaOperandLayout layout{2, false};
  EXPECT_EQ(layout.mmaK(), 16);
  EXPECT_EQ(layout.kBlockElements(), 64);
  EXPECT_EQ(layout.mmasPerKBlock(), 4);
  EXPECT_EQ(layout.kStepBytes(), 32);
  EXPECT_EQ(layout.leadingByteOffset(), 16);
  EXPECT_EQ(layout.boxInner(), 64);
}

// bf16, MN-major (Wgrad's dY^T and X, stored M x N and M x K): 64 K-rows of
// 128-byte atoms of 64 elements; a wgmma steps 16 rows (2048 bytes) along
// K, and the next atom of M or N is one K-block (8192 bytes) further.
TEST(WgmmaOperandLayoutTest, SixteenBitMnMajor) {
  WgmmaOperandLayout layout{2, true};
  EXPECT_EQ(layout.mmaK(), 16);
  EXPECT_EQ(layout.kBlockElements(), 64);
  EXPECT_EQ(layout.kStepBytes(), 2048);
  EXPECT_EQ(layout.leadingByteOffset(), 8192);
  EXPECT_EQ(layout.strideByteOffset(), 1024);
  EXPECT_EQ(layout.boxInner(), 64);
}
