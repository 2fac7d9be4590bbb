//===- Tcgen05GemmConfig.cpp - tile and budgets of the sm_100a GEMM -------===//

#include "Tcgen05GemmConfig.h"

#include "Tcgen05Descriptors.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir::fp8;
using namespace mlir::fp8::kernels::gemm;

int64_t Tcgen05GemmConfig::stageBytes() const {
  return llvm::alignTo(aStageBytes() + bStageBytes() + scaleStageBytes(), 1024);
}

int64_t Tcgen05GemmConfig::sharedBytes() const {
  return 1024 + stages * stageBytes() + barrierBytes() + 8;
}

int64_t Tcgen05GemmConfig::tmemColumns() const {
  int64_t scaleColumns =
      kScaleColumnsPer128Rows * (1 + llvm::divideCeil(tileN, 128));
  return tileN + stages * scaleColumns;
}

int64_t Tcgen05GemmConfig::tmemAllocColumns() const {
  return getTmemAllocColumns(static_cast<uint32_t>(tmemColumns()));
}

bool Tcgen05GemmConfig::fits(const Target &target, std::string &why) const {
  if (tileN < 16 || tileN > 256 || tileN % 16 != 0) {
    why = "tile N = " + std::to_string(tileN) +
          " is not an M = 128 MMA's N (a multiple of 16, 16..256)";
    return false;
  }
  if (stages < 2) {
    why = "a pipeline needs at least 2 stages";
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
  return true;
}

Tcgen05GemmConfig
mlir::fp8::kernels::gemm::chooseTcgen05Config(const Target &target, int64_t n) {
  Tcgen05GemmConfig config;
  int64_t aligned = llvm::alignTo(n, 16);
  config.tileN = aligned <= 256 ? aligned : (aligned % 256 == 0 ? 256 : 128);
  config.stages = 8;
  std::string why;
  while (config.stages > 2 && !config.fits(target, why))
    --config.stages;
  return config;
}
