//===- Tcgen05GemmConfig.cpp - tile and budgets of the sm_100a GEMM -------===//

#include "Tcgen05GemmConfig.h"

#include "Tcgen05Descriptors.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir::fp8;
using namespace mlir::fp8::kernels::gemm;

int64_t Tcgen05GemmConfig::stageBytes() const {
  return llvm::alignTo(stageTransferBytes(), 1024);
}

int64_t Tcgen05GemmConfig::sharedBytes() const {
  return 1024 + tmemSlotOffset() + 8;
}

int64_t Tcgen05GemmConfig::tmemColumns() const {
  return accumulators * tileN + stages * scaleColumnsPerStage();
}

int64_t Tcgen05GemmConfig::tmemAllocColumns() const {
  return getTmemAllocColumns(static_cast<uint32_t>(tmemColumns()));
}

bool Tcgen05GemmConfig::fits(const Target &target, std::string &why) const {
  if (ctaGroup != 1 && ctaGroup != 2) {
    why = "cta_group::" + std::to_string(ctaGroup) + " (1 or 2 exist)";
    return false;
  }
  // The same rule for M = 128 (cta_group::1) and M = 256 (cta_group::2);
  // a pair's B halves are then whole 8-row groups of the 128-byte swizzle.
  if (tileN < 16 || tileN > 256 || tileN % 16 != 0) {
    why = "tile N = " + std::to_string(tileN) +
          " is not an M = " + std::to_string(mmaM()) +
          " MMA's N (a multiple of 16, 16..256)";
    return false;
  }
  if (stages < 2) {
    why = "a pipeline needs at least 2 stages";
    return false;
  }
  if (accumulators < 1 || accumulators > 2) {
    why = std::to_string(accumulators) + " accumulators (1 or 2 are built)";
    return false;
  }
  if (tmemColumns() > static_cast<int64_t>(kTmemColumns)) {
    why = std::to_string(tmemColumns()) +
          " tensor-memory columns (accumulator and scales) exceed 512";
    return false;
  }
  if (sharedBytes() > target.getSharedMemoryPerBlock()) {
    why = std::to_string(sharedBytes()) + " bytes of shared memory exceed " +
          std::to_string(target.getSharedMemoryPerBlock());
    return false;
  }
  if (groupColumns() % kEpilogueLoadColumns != 0) {
    why = "tile N = " + std::to_string(tileN) + " is not whole " +
          std::to_string(kEpilogueLoadColumns) + "-column loads per " +
          "epilogue thread";
    return false;
  }
  if (epilogueRegisters() > registerLimit()) {
    why = std::to_string(epilogueRegisters()) +
          " epilogue registers per thread exceed " +
          std::to_string(registerLimit());
    return false;
  }
  return true;
}

/// As many stages as fit, from 8 down to 2.
static void fillStages(const Target &target, Tcgen05GemmConfig &config) {
  config.stages = 8;
  std::string why;
  while (config.stages > 2 && !config.fits(target, why))
    --config.stages;
}

Tcgen05GemmConfig
mlir::fp8::kernels::gemm::chooseTcgen05Config(const Target &target, int64_t n) {
  Tcgen05GemmConfig config;
  // Whole 32-column epilogue loads (tcgen05.ld.32x32b.x32).
  int64_t aligned = llvm::alignTo(n, Tcgen05GemmConfig::kEpilogueLoadColumns);
  config.tileN = aligned <= 256 ? aligned : (aligned % 256 == 0 ? 256 : 128);
  fillStages(target, config);
  return config;
}

Tcgen05GemmConfig mlir::fp8::kernels::gemm::chooseTcgen05Config(
    const Target &target, int64_t m, int64_t n, Tcgen05Scaling scaling,
    bool bMnMajor, int64_t resultBytes) {
  Tcgen05GemmConfig config = chooseTcgen05Config(target, n);
  config.scaling = scaling;
  config.resultBytes = resultBytes;
  // Promoted sums are a row of the tile per thread: 128 of them fit the
  // registers beside a load, 256 would not.
  if (scaling == Tcgen05Scaling::promoted)
    config.tileN = llvm::alignTo(std::min<int64_t>(config.tileN, 128),
                                 config.columnGroups() *
                                     Tcgen05GemmConfig::kEpilogueLoadColumns);
  // An MN-major B tile is whole 128-column swizzle atoms (TMA boxes of
  // 128 bytes per row); TMA fills the columns past N with zeros.
  if (bMnMajor)
    config.tileN = llvm::alignTo(config.tileN, Tcgen05GemmConfig::kMnAtom);
  // C through shared memory and TMA (which clips rows and columns past the
  // matrix) where every epilogue warp's columns are whole 128-byte stores.
  config.tmaStore = config.groupColumns() % config.storeColumns() == 0;
  // Two accumulators where tensor memory holds them beside a shallow ring:
  // the MMAs then never wait for the epilogue. Promotion needs them most
  // (one partial sum per K-block).
  config.accumulators = 2;
  config.stages = 2;
  std::string why;
  if (!config.fits(target, why))
    config.accumulators = 1;
  fillStages(target, config);
  Tcgen05GemmConfig single = config;
  // CTA pairs for large tiles (see the header).
  int64_t pairTiles = llvm::divideCeil(m, 2 * Tcgen05GemmConfig::kTileM) *
                      llvm::divideCeil(n, config.tileN);
  if (m >= 2 * Tcgen05GemmConfig::kTileM && config.tileN >= 128 &&
      pairTiles >= target.getNumSMs() / 2 &&
      (!bMnMajor || config.tileN % (2 * Tcgen05GemmConfig::kMnAtom) == 0)) {
    config.ctaGroup = 2;
    config.accumulators = 2;
    config.stages = 2;
    if (!config.fits(target, why))
      config.accumulators = 1;
    fillStages(target, config);
    if (!config.fits(target, why))
      config = single;
  }
  // Persistent CTAs (pairs): one per SM (pair of SMs), or one per tile.
  int64_t tiles =
      llvm::divideCeil(m, config.mmaM()) * llvm::divideCeil(n, config.tileN);
  config.gridSize =
      config.ctaGroup *
      std::min<int64_t>(tiles, target.getNumSMs() / config.ctaGroup);
  return config;
}
