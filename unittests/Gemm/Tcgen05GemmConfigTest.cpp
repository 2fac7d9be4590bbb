//===- Tcgen05GemmConfigTest.cpp - the sm_100a GEMM's budgets -------------===//
//
// The tensor-memory, shared-memory and register budgets that the sm_100a
// GEMM builder asserts, with the byte and column counts worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "Gemm/Tcgen05GemmConfig.h"

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
// stages: 1024 + 5 * 51200 + 8 * 11 + 8 = 257120 > 232448 (227 KiB); four:
// 1024 + 204800 + 72 + 8 = 205904. Tensor memory: 256 accumulator columns +
// 4 stages * (4 + 2 * 4) = 48 -> 304, allocated as 512.
TEST(Tcgen05GemmConfig, N256) {
  Tcgen05GemmConfig config = chooseTcgen05Config(blackwell(), 4096);
  EXPECT_EQ(config.tileN, 256);
  EXPECT_EQ(config.stageBytes(), 51200);
  EXPECT_EQ(config.stages, 4);
  EXPECT_EQ(config.sharedBytes(), 205904);
  EXPECT_EQ(config.tmemColumns(), 304);
  EXPECT_EQ(config.tmemAllocColumns(), 512);
  std::string why;
  EXPECT_TRUE(config.fits(blackwell(), why)) << why;
}

// N = 128: a stage is 16384 + 16384 + 1024 = 33792 (a multiple of 1024).
// Six stages: 1024 + 202752 + 8 * 13 + 8 = 203888; seven would be 237688.
// Tensor memory: 128 + 6 * 8 = 176 -> 256.
TEST(Tcgen05GemmConfig, N128) {
  Tcgen05GemmConfig config = chooseTcgen05Config(blackwell(), 128);
  EXPECT_EQ(config.tileN, 128);
  EXPECT_EQ(config.stages, 6);
  EXPECT_EQ(config.sharedBytes(), 203888);
  EXPECT_EQ(config.tmemColumns(), 176);
  EXPECT_EQ(config.tmemAllocColumns(), 256);
  EXPECT_EQ(config.epilogueRegisters(), 32);
}

// N = 1000 is not a multiple of 256 once aligned (1008): 128-wide tiles.
TEST(Tcgen05GemmConfig, OddN) {
  EXPECT_EQ(chooseTcgen05Config(blackwell(), 1000).tileN, 128);
  EXPECT_EQ(chooseTcgen05Config(blackwell(), 40).tileN, 48);
}

// The budgets refuse what does not fit: 8 stages of N = 256 need
// 1024 + 409600 + 136 + 8 bytes of shared memory; 256 + 20 * 12 = 496
// columns still fit tensor memory, 22 stages (520) do not; N = 264 is no
// MMA shape.
TEST(Tcgen05GemmConfig, Budgets) {
  Tcgen05GemmConfig config;
  config.tileN = 256;
  config.stages = 8;
  std::string why;
  EXPECT_FALSE(config.fits(blackwell(), why));
  EXPECT_EQ(why, "410768 bytes of shared memory exceed 232448");
  config.stages = 22;
  EXPECT_FALSE(config.fits(blackwell(), why));
  EXPECT_EQ(why, "520 tensor-memory columns (accumulator and scales) exceed "
                 "512");
  config.tileN = 264;
  config.stages = 2;
  EXPECT_FALSE(config.fits(blackwell(), why));
}

} // namespace
