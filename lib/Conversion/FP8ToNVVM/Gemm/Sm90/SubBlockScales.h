//===- SubBlockScales.h - MXFP8 scales in shared memory, as f32 -*- C++ -*-===//
//
// Promotion every 32 elements of K (MXFP8: 1x32 E8M0 scales on both
// operands) needs, per 32-deep sub-block, a scale for each of a thread's two
// rows and sixteen columns. Converted from E8M0 by every thread that needs
// them (five instructions each, docs/Numerics.md's rule for codes 0 and
// 255), they would cost more than the promotion's own multiply and FMA.
// Here each consumer warpgroup converts a K-block's scales once: each of its
// 128 threads loads one 32-bit word (one row of A or one column of B: four
// sub-blocks' E8M0 codes), converts it and stores four f32 in a shared
// buffer laid out for the readers (a thread's two rows side by side, its
// sixteen columns contiguous), one K-block ahead, in two buffers used in
// turn. A K-block's reads then take five shared loads per sub-block.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_SUBBLOCKSCALES_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_SUBBLOCKSCALES_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/TileScheduler.h"
#include "Fragment.h"
#include "HopperContext.h"
#include "HopperGemmConfig.h"
#include "HopperPipeline.h"

namespace mlir::fp8::kernels::gemm {

class SubBlockScales : HopperContext {
public:
  explicit SubBlockScales(const HopperContext &context)
      : HopperContext(context) {}

  /// This thread's word of the K-block at `kIndex` (a multiple of 128): the
  /// four E8M0 codes of one row of the consumer's 64 rows of A (threads 0 to
  /// 63 of the warpgroup) or of one of the tile's columns (64 to 127). A
  /// global load; its result is first used by storeConverted.
  Value loadWord(Value kIndex, const ThreadFragment &fragment, TileCoord tile);
  /// Converts `word` to four f32 scales and stores them in `buffer` (0 or 1,
  /// an i32) of the thread's consumer.
  void storeConverted(Value word, Value buffer, const ThreadFragment &fragment);
  /// Waits for the consumer's 128 threads: the stores before it are visible
  /// to the reads after it, and the reads before it are done.
  void sync(const ThreadFragment &fragment);
  /// The f32 scales of sub-block `sub` (0 to 3) of `buffer` for the thread's
  /// two rows and sixteen columns.
  FragmentScales read(Value buffer, int64_t sub,
                      const ThreadFragment &fragment);

private:
  /// Byte offset in shared memory of `buffer` of the thread's consumer.
  Value bufferOffset(Value buffer, const ThreadFragment &fragment);
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_SUBBLOCKSCALES_H
