//===- Tcgen05GemmConfigTest.cpp - the sm_100a GEMM's budgets -------------===//
//
// The tensor-memory, shared-memory and register budgets that the sm_100a
// GEMM builder asserts, with the byte and column counts worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "Gemm/Sm100/Tcgen05GemmConfig.h"

#include "gtest/gtest.h"

using namespace mlir::fp8;
using namespace mlir::fp8::kernels::gemm;

namespace {

const Target &blackwell() {
  static const Target target(Chip::sm_100a);
  return target;
}

// N = 256: a stage is A 128x128 (16384) + B 256x128 (32768) + scales (A one
// 512-byte chunk, B two) 1536 = 50688, aligned to 1024 -> 51200. Five
// stages: 1024 + 5 * 51200 + 8 * 12 + 8 = 257128 > 232448 (227 KiB); four:
// 1024 + 204800 + 80 + 8 = 205912 (barriers: full and empty per stage and
// per accumulator). Tensor memory: 256 accumulator columns +
// 4 stages * (4 + 2 * 4) = 48 -> 304, allocated as 512.
TEST(Tcgen05GemmConfig, N256) {
  Tcgen05GemmConfig config = chooseTcgen05Config(blackwell(), 4096);
  EXPECT_EQ(config.tileN, 256);
  EXPECT_EQ(config.stageBytes(), 51200);
  EXPECT_EQ(config.stages, 4);
  EXPECT_EQ(config.sharedBytes(), 205912);
  EXPECT_EQ(config.tmemColumns(), 304);
  EXPECT_EQ(config.tmemAllocColumns(), 512);
  std::string why;
  EXPECT_TRUE(config.fits(blackwell(), why)) << why;
}

// N = 128: a stage is 16384 + 16384 + 1024 = 33792 (a multiple of 1024).
// Six stages: 1024 + 202752 + 8 * 14 + 8 = 203896; seven would be 237696.
// Tensor memory: 128 + 6 * 8 = 176 -> 256. Epilogue registers: two loads
// of 32 and 56 of overhead.
TEST(Tcgen05GemmConfig, N128) {
  Tcgen05GemmConfig config = chooseTcgen05Config(blackwell(), 128);
  EXPECT_EQ(config.tileN, 128);
  EXPECT_EQ(config.stages, 6);
  EXPECT_EQ(config.sharedBytes(), 203896);
  EXPECT_EQ(config.tmemColumns(), 176);
  EXPECT_EQ(config.tmemAllocColumns(), 256);
  EXPECT_EQ(config.epilogueRegisters(), 120);
}

// N is aligned to whole 32-column epilogue loads: 1000 -> 1024, a multiple
// of 256; 1100 -> 1120 is not: 128-wide tiles; 40 -> 64.
TEST(Tcgen05GemmConfig, OddN) {
  EXPECT_EQ(chooseTcgen05Config(blackwell(), 1000).tileN, 256);
  EXPECT_EQ(chooseTcgen05Config(blackwell(), 1100).tileN, 128);
  EXPECT_EQ(chooseTcgen05Config(blackwell(), 40).tileN, 64);
}

// The budgets refuse what does not fit: 8 stages of N = 256 need
// 1024 + 409600 + 144 + 8 bytes of shared memory; 256 + 20 * 12 = 496
// columns still fit tensor memory, 22 stages (520) do not; N = 264 is no
// MMA shape.
TEST(Tcgen05GemmConfig, Budgets) {
  Tcgen05GemmConfig config;
  config.tileN = 256;
  config.stages = 8;
  std::string why;
  EXPECT_FALSE(config.fits(blackwell(), why));
  EXPECT_EQ(why, "410776 bytes of shared memory exceed 232448");
  config.stages = 22;
  EXPECT_FALSE(config.fits(blackwell(), why));
  EXPECT_EQ(why, "520 tensor-memory columns (accumulator and scales) exceed "
                 "512");
  config.tileN = 264;
  config.stages = 2;
  EXPECT_FALSE(config.fits(blackwell(), why));
}

// Blockwise (promoted), 128 x 32768 (one CTA per tile: no pair for one
// 128-row block): 128-wide tiles (a thread's sums are
// its half row: 64), eight epilogue warps (320 threads), two accumulators
// of 128 columns (256, no scale columns), stages of 16384 + 16384 bytes,
// C through TMA from eight 4096-byte staging buffers (each warp's 64 bf16
// columns are one 128-byte segment): six stages fit (1024 + 196608 + 32768
// + 8 * (12 + 4) + 8 = 230536), seven do not.
// Registers: 64 sums + 2 * 32 + 56 = 184 <= 65536 / 320 = 204.
TEST(Tcgen05GemmConfig, Promoted) {
  Tcgen05GemmConfig config = chooseTcgen05Config(
      blackwell(), 128, 32768, Tcgen05Scaling::promoted, /*bMnMajor=*/false);
  EXPECT_EQ(config.ctaGroup, 1);
  EXPECT_EQ(config.tileN, 128);
  EXPECT_EQ(config.threads(), 320);
  EXPECT_EQ(config.groupColumns(), 64);
  EXPECT_EQ(config.accumulators, 2);
  EXPECT_TRUE(config.tmaStore);
  EXPECT_EQ(config.storeColumns(), 64);
  EXPECT_EQ(config.stagingBytes(), 8 * 4096);
  EXPECT_EQ(config.stages, 6);
  EXPECT_EQ(config.sharedBytes(), 230536);
  EXPECT_EQ(config.tmemAllocColumns(), 256);
  EXPECT_EQ(config.epilogueRegisters(), 184);
  EXPECT_EQ(config.registerLimit(), 204);
  EXPECT_EQ(config.gridSize, 148);
  std::string why;
  EXPECT_TRUE(config.fits(blackwell(), why)) << why;
}

// MXFP8, N = 128: two accumulators (256 columns) and six stages of scale
// columns (6 * 8 = 48) fit 304 <= 512; N = 256 cannot hold two (512 + the
// scales), so it keeps one (128 x 4096: single CTAs). A 256 x 128 problem
// is two tiles: two CTAs.
TEST(Tcgen05GemmConfig, MxAccumulators) {
  Tcgen05GemmConfig narrow = chooseTcgen05Config(
      blackwell(), 256, 128, Tcgen05Scaling::blockScaled, false);
  EXPECT_EQ(narrow.accumulators, 2);
  EXPECT_EQ(narrow.stages, 6);
  EXPECT_EQ(narrow.tmemColumns(), 304);
  EXPECT_EQ(narrow.tmemAllocColumns(), 512);
  EXPECT_EQ(narrow.threads(), 192);
  EXPECT_EQ(narrow.gridSize, 2);
  Tcgen05GemmConfig wide = chooseTcgen05Config(
      blackwell(), 128, 4096, Tcgen05Scaling::blockScaled, false);
  EXPECT_EQ(wide.ctaGroup, 1);
  EXPECT_EQ(wide.tileN, 256);
  EXPECT_EQ(wide.accumulators, 1);
  EXPECT_EQ(wide.stages, 4);
}

// C leaves through TMA where each epilogue warp's columns are whole
// 128-byte segments (64 bf16 or 32 f32); a warp with 32 bf16 columns (a
// promoted 64-wide tile, two warps per row) stores its rows directly. The
// staging buffers follow the stages, 1024-aligned for the 128-byte swizzle.
TEST(Tcgen05GemmConfig, TmaStore) {
  Tcgen05GemmConfig f32 = chooseTcgen05Config(
      blackwell(), 200, 64, Tcgen05Scaling::epilogue, false, /*resultBytes=*/4);
  EXPECT_TRUE(f32.tmaStore);
  EXPECT_EQ(f32.storeColumns(), 32);
  EXPECT_EQ(f32.stagingBytes(), 4 * 4096);
  EXPECT_EQ(f32.stagingOffset() % 1024, 0);
  EXPECT_EQ(f32.barrierOffset(), f32.stagingOffset() + f32.stagingBytes());
  Tcgen05GemmConfig narrow = chooseTcgen05Config(
      blackwell(), 4096, 64, Tcgen05Scaling::promoted, false);
  EXPECT_EQ(narrow.groupColumns(), 32);
  EXPECT_FALSE(narrow.tmaStore);
  EXPECT_EQ(narrow.stagingBytes(), 0);
  std::string why;
  EXPECT_TRUE(f32.fits(blackwell(), why)) << why;
  EXPECT_TRUE(narrow.fits(blackwell(), why)) << why;
}

// An MN-major B is loaded in whole 128-column swizzle atoms: N = 64 takes a
// 128-wide tile (TMA zero-fills the rest).
TEST(Tcgen05GemmConfig, MnMajorB) {
  EXPECT_EQ(chooseTcgen05Config(blackwell(), 128, 64, Tcgen05Scaling::epilogue,
                                /*bMnMajor=*/true)
                .tileN,
            128);
  EXPECT_EQ(chooseTcgen05Config(blackwell(), 128, 64, Tcgen05Scaling::epilogue,
                                /*bMnMajor=*/false)
                .tileN,
            64);
}

// A CTA pair (cta_group::2) for MXFP8 at 4096 x 4096, bf16: 256-wide tiles,
// 16 x 16 = 256 pair tiles >= 74 SM pairs. A CTA's stage is its 128 rows
// of A (16384) + half of B, 128 x 128 (16384) + A's scale chunk and both of
// B's (1536) = 34304 -> 34816; the leader's full barrier expects both
// CTAs' 68608. TMA stores: 4 warps x 4096 staging bytes. Six stages: 1024 +
// 6 * 34816 + 16384 + 8 * 14 + 8 = 226424; seven: 261240. Two accumulators
// (512 columns) leave no room for scales: one, 256 + 6 * 12 = 328 -> 512
// columns. 74 pairs: 148 CTAs; an accumulator is freed by 2 x 128
// epilogue threads.
TEST(Tcgen05GemmConfig, PairMxfp8) {
  Tcgen05GemmConfig config = chooseTcgen05Config(
      blackwell(), 4096, 4096, Tcgen05Scaling::blockScaled, false);
  EXPECT_EQ(config.ctaGroup, 2);
  EXPECT_EQ(config.mmaM(), 256);
  EXPECT_EQ(config.tileN, 256);
  EXPECT_EQ(config.bRowsPerCta(), 128);
  EXPECT_EQ(config.stageTransferBytes(), 34304);
  EXPECT_EQ(config.stageExpectedBytes(), 68608);
  EXPECT_EQ(config.stageBytes(), 34816);
  EXPECT_EQ(config.stages, 6);
  EXPECT_EQ(config.sharedBytes(), 226424);
  EXPECT_EQ(config.accumulators, 1);
  EXPECT_EQ(config.tmemColumns(), 328);
  EXPECT_EQ(config.tmemAllocColumns(), 512);
  EXPECT_EQ(config.gridSize, 148);
  EXPECT_EQ(config.clusterSize(), 2);
  EXPECT_EQ(config.pairMask(), 0b11);
  EXPECT_EQ(config.accEmptyArrivals(), 256);
  std::string why;
  EXPECT_TRUE(config.fits(blackwell(), why)) << why;
}

// Blockwise (promoted) pair at 4096 x 4096: 128-wide tiles, B's half is 64
// rows: a stage is 16384 + 8192 = 24576; eight epilogue warps stage 32768
// bytes. Eight stages (the most): 1024 + 196608 + 32768 + 8 * 20 + 8 =
// 230568 <= 232448; two accumulators, 256 columns. The single-CTA
// configuration of the same problem holds 6.
TEST(Tcgen05GemmConfig, PairPromoted) {
  Tcgen05GemmConfig config = chooseTcgen05Config(
      blackwell(), 4096, 4096, Tcgen05Scaling::promoted, false);
  EXPECT_EQ(config.ctaGroup, 2);
  EXPECT_EQ(config.tileN, 128);
  EXPECT_EQ(config.stageBytes(), 24576);
  EXPECT_EQ(config.stages, 8);
  EXPECT_EQ(config.sharedBytes(), 230568);
  EXPECT_EQ(config.accumulators, 2);
  EXPECT_EQ(config.tmemAllocColumns(), 256);
  EXPECT_EQ(config.accEmptyArrivals(), 512);
}

// Pairs only for large tiles and enough of them: M = 128 (no second CTA's
// rows), 512 x 512 (2 x 2 pair tiles for 74 SM pairs), N = 64 (tiles
// narrower than 128), and an MN-major B whose 128-wide halves are not whole
// atoms (promoted, 128-wide tiles) stay single CTAs; MN-major B at
// N = 256 pairs (one 128-column atom per CTA).
TEST(Tcgen05GemmConfig, PairHeuristic) {
  auto group = [](int64_t m, int64_t n, Tcgen05Scaling scaling, bool mn) {
    return chooseTcgen05Config(blackwell(), m, n, scaling, mn).ctaGroup;
  };
  EXPECT_EQ(group(128, 65536, Tcgen05Scaling::blockScaled, false), 1);
  EXPECT_EQ(group(512, 512, Tcgen05Scaling::blockScaled, false), 1);
  EXPECT_EQ(group(65536, 64, Tcgen05Scaling::blockScaled, false), 1);
  EXPECT_EQ(group(4096, 4096, Tcgen05Scaling::promoted, true), 1);
  EXPECT_EQ(group(4096, 4096, Tcgen05Scaling::blockScaled, true), 2);
  EXPECT_EQ(group(4096, 4096, Tcgen05Scaling::epilogue, false), 2);
}

// The pair's budgets: cta_group::3 does not exist; N = 264 is no M = 256
// MMA's N either.
TEST(Tcgen05GemmConfig, PairBudgets) {
  Tcgen05GemmConfig config;
  config.ctaGroup = 3;
  std::string why;
  EXPECT_FALSE(config.fits(blackwell(), why));
  EXPECT_EQ(why, "cta_group::3 (1 or 2 exist)");
  config.ctaGroup = 2;
  config.tileN = 264;
  EXPECT_FALSE(config.fits(blackwell(), why));
  EXPECT_EQ(why, "tile N = 264 is not an M = 256 MMA's N (a multiple of 16, "
                 "16..256)");
}

} // namespace
