//===- HopperMainLoop.h - wgmma over the stages of a tile -------*- C++ -*-===//
//
// The sm_90a consumers' main loop: per K-block, wgmma.mma_async m64nNk32 on
// shared-memory descriptors of the stage that HopperPipeline filled, then
// either promotion of the block's partial sums with their scales into f32
// registers, or (fast accumulation) one accumulator over all of K. The
// sm_100a kernel's is Sm100/Tcgen05MainLoop.h; the two share the tile
// scheduler and the scale loads in Common/.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERMAINLOOP_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERMAINLOOP_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/TileScheduler.h"
#include "Fragment.h"
#include "HopperContext.h"
#include "HopperGemmConfig.h"
#include "HopperPipeline.h"
#include "SubBlockScales.h"
#include "TileScaleCheck.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::fp8::kernels::gemm {

/// The wgmma shared-memory matrix descriptor (PTX ISA, "Matrix Descriptor
/// Format"), by its fields. The K loop uses it split in two: the low word
/// (start address, leading byte offset), computed once per stage and
/// advanced along K by adds, and the constant high word.
struct WgmmaDescriptor {
  /// The swizzle modes of bits 62-63.
  enum class Swizzle : uint64_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };

  /// The matrix's shared address (i32); bits 0-13 hold it >> 4.
  Value startAddress;
  /// Bits 16-29, >> 4: unused by K-major swizzled tiles, 16 by convention.
  int64_t leadingByteOffset = 16;
  /// Bits 32-45, >> 4: from one group of eight rows to the next (eight
  /// 128-byte rows: the swizzle atom).
  int64_t strideByteOffset = kSwizzleAtom;
  /// Bits 49-51: the pattern's offset within the atom (0: atoms are
  /// 1024-aligned).
  int64_t baseOffset = 0;
  Swizzle swizzle = Swizzle::b128;

  /// The low word (i32).
  Value encodeLow(KernelBuilder &b) const;
  /// The 64-bit descriptor with low word `low` (encodeLow's, possibly
  /// advanced along K).
  Value encode(KernelBuilder &b, Value low) const;
};

/// What a consumer's main loop leaves: the K-block counter after the tile,
/// and the thread's f32 sums (the accumulator's layout, ThreadFragment).
struct MainLoopResult {
  Value counter;
  SmallVector<Value> sums;
};

class HopperMainLoop : HopperContext {
public:
  HopperMainLoop(const HopperContext &context, HopperPipeline &pipeline,
                 ScaleReader &scales, SubBlockScales *subBlocks = nullptr,
                 TileScaleCheck *scaleCheck = nullptr);

  /// The accumulator fragment of consumer thread `thread` (of the CTA), for
  /// its own 64-row group; the builder is at the consumers' start.
  ThreadFragment buildFragment(Value thread);
  /// Whether the consumers take turns to issue their MMAs. It pays where
  /// promotion multiplies by per-block scales (+5% on the H200 for
  /// blockwise) and costs 5% where it only adds (tensorwise, rowwise). A
  /// lone consumer (small M's 64-row tiles) has no one to take turns with.
  bool orderedTurns() const;
  /// Gives consumer 0 the first issue turn, where there are turns.
  void buildFirstTurn(const ThreadFragment &fragment);

  /// One tile's K-blocks from K-block counter `counter`: one accumulator
  /// over all of K.
  MainLoopResult buildFastLoop(Value counter, const ThreadFragment &fragment);
  /// One tile's K-blocks from `counter`, promoted; where the tile's scales
  /// are checked once (config.checkTileScales), by one of two K loops: one
  /// without promotion's per-block test where the check passes, one with.
  MainLoopResult buildPromotedLoop(Value counter,
                                   const ThreadFragment &fragment,
                                   TileCoord tile);
  /// A split tile's sub-tile: the consumers take turns at its K-blocks;
  /// returns this consumer's sums of its blocks.
  SmallVector<Value>
  buildSplitLoop(Value counter, const ThreadFragment &fragment, TileCoord tile);

private:
  /// What a consumer needs to issue the MMAs of a K-block: its stage, the
  /// full barrier's parity, and the stage's A and B descriptor low words.
  struct StageState {
    Value stage, parity, lowA, lowB;
  };
  StageState stageState(Value counter, const ThreadFragment &fragment);
  /// Queues `numSteps` wgmmas from K-step `firstStep` of `state`'s stage on
  /// `acc` as one group (the stage must have been waited for).
  Value issueBlock(const StageState &state, Value acc, bool zeroFirst,
                   int64_t firstStep, int64_t numSteps);
  /// Adds accumulator `acc`, times its scales, to `sums` (without testing
  /// the scales where `scalesChecked`: promoteScaled).
  void promote(Value acc, const FragmentScales &scales,
               MutableArrayRef<Value> sums, bool scalesChecked);
  /// Ends a promoted K loop's body: yields the stage counter, the sums and
  /// the next iteration's scales (where the loop carries them), and returns
  /// the counter and sums the loop leaves with.
  MainLoopResult closePromoted(scf::ForOp loop, Value counter, ValueRange sums,
                               const FragmentScales &next);
  MainLoopResult buildPromoted(Value counter, const ThreadFragment &fragment,
                               TileCoord tile, bool split, bool scalesChecked);
  /// A lone consumer's promotion, two K-blocks per iteration (an even
  /// count of whole-block promotions).
  MainLoopResult buildPairedPromoted(Value counter,
                                     const ThreadFragment &fragment,
                                     TileCoord tile, bool scalesChecked);
  /// Promotion every 32 with the scales SubBlockScales converts: each
  /// 32-deep wgmma into its own accumulator, the next one issued before the
  /// previous one is promoted.
  MainLoopResult buildSubBlockPromoted(Value counter,
                                       const ThreadFragment &fragment,
                                       TileCoord tile);

  HopperPipeline &pipeline;
  ScaleReader &scales;
  /// Where config.subBlockScales; else null.
  SubBlockScales *subBlocks;
  /// Where config.checkTileScales; else null.
  TileScaleCheck *scaleCheck;
  /// The accumulator: tileN / 2 f32 per thread.
  Type accType;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_HOPPERMAINLOOP_H
