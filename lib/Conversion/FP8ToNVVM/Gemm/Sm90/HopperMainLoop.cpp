//===- HopperMainLoop.cpp - wgmma over the stages of a tile ---------------===//
//
// Per K-block, four wgmma.mma_async.m64nNk32 on shared-memory descriptors
// (K-major, 128-byte swizzle), then, following DESIGN.md section 4:
//
//  - promoted: each K-block (the finer operand's, or 128 when both span K)
//    is accumulated by the tensor cores alone, then multiplied by its
//    scales and added to f32 registers (the tensor cores' FP8 accumulator
//    keeps too few bits for long sums). The consumers take turns issuing
//    (named barriers), so one's MMAs run while another promotes;
//  - fast: one tensor-core accumulator over all of K, each block's MMAs
//    queued behind the previous one's.
//
// The consumers are bound by instruction issue (Nsight Compute: 51% of
// cycles issue, the promotion's 64 FMAs per thread and K-block being half),
// so the loop is kept short: the warpgroup index is broadcast from lane 0,
// and the K loop is kept rolled.
//
//===----------------------------------------------------------------------===//

#include "HopperMainLoop.h"

#include "../../Program/KernelUtils.h"
#include "../Common/LoopHints.h"
#include "../Common/ScaledTerm.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// The K of one FP8 wgmma (the promoted loop's unit: only FP8 operands are
/// scaled).
static constexpr int64_t kMmaK = 32;
/// The M of one wgmma: a consumer's rows.
static constexpr int64_t kMmaM = kConsumerRows;

/// The low word: the start address >> 4 in bits 0-13, the leading byte
/// offset >> 4 in bits 16-29. A K-step inside the swizzled row adds
/// step * 32 / 16 to it, which never carries out of the 14-bit field
/// (shared addresses stay below 2^18).
Value WgmmaDescriptor::encodeLow(KernelBuilder &b) const {
  Value start = b.andI(b.shrU(startAddress, 4), 0x3FFF);
  return b.orI(start, (leadingByteOffset >> 4) << 16);
}

/// The high word: the stride byte offset >> 4 in bits 32-45, the base
/// offset in 49-51 and the swizzle mode in 62-63; a constant.
Value WgmmaDescriptor::encode(KernelBuilder &b, Value low) const {
  uint64_t high = (uint64_t(strideByteOffset >> 4) << 32) |
                  (uint64_t(baseOffset) << 49) | (uint64_t(swizzle) << 62);
  return b.orI(b.extUI64(low), int64_t(high));
}

/// The descriptor of a stage's tile of one operand at `start` (128-byte
/// swizzle, the layout's offsets).
static WgmmaDescriptor describeTile(const WgmmaOperandLayout &layout,
                                    Value start) {
  WgmmaDescriptor descriptor;
  descriptor.startAddress = start;
  descriptor.leadingByteOffset = layout.leadingByteOffset();
  descriptor.strideByteOffset = layout.strideByteOffset();
  return descriptor;
}

HopperMainLoop::HopperMainLoop(const HopperContext &context,
                               HopperPipeline &pipeline, ScaleReader &scales,
                               SubBlockScales *subBlocks,
                               TileScaleCheck *scaleCheck)
    : HopperContext(context), pipeline(pipeline), scales(scales),
      subBlocks(subBlocks), scaleCheck(scaleCheck) {
  assert(!config.subBlockScales == !subBlocks &&
         "sub-block scales need their converter");
  assert(!config.checkTileScales == !scaleCheck &&
         "checked tiles need their check");
  accType = LLVM::LLVMStructType::getLiteral(
      b.getContext(), SmallVector<Type>(config.tileN / 2, b.getF32Type()));
}

bool HopperMainLoop::orderedTurns() const {
  return config.consumers > 1 && problem.promotion >= kTileK &&
         (!problem.aScaling.spansK() || !problem.bScaling.spansK());
}

ThreadFragment HopperMainLoop::buildFragment(Value thread) {
  ThreadFragment fragment;
  Value local = b.remU(thread, kWarpgroup);
  Value warp = b.divU(local, kWarpSize);
  fragment.lane = b.remU(thread, kWarpSize);
  // Lane 0's warpgroup index, broadcast: ptxas then knows it is the same in
  // every lane and keeps the A descriptors in uniform registers.
  fragment.consumer = NVVM::ShflOp::create(
      b, b.getI32Type(), b.i32(-1), b.sub(b.divU(thread, kWarpgroup), 1),
      b.i32(0), b.i32(0x1f),
      NVVM::ShflKindAttr::get(b.getContext(), NVVM::ShflKind::idx), nullptr);
  // wgmma's accumulator: warp w holds rows 16w .. 16w + 15 of the 64, a
  // quad of lanes one row of each eight.
  Value quadRow = b.divU(fragment.lane, 4);
  fragment.groupRow = b.add(b.mul(warp, 16), quadRow);
  fragment = fragment.forGroup(b, fragment.consumer);
  fragment.colInTile = b.mul(b.remU(fragment.lane, 4), 2);
  return fragment;
}

void HopperMainLoop::buildFirstTurn(const ThreadFragment &fragment) {
  if (!orderedTurns())
    return;
  // The last consumer gives consumer 0 the first issue turn.
  auto second =
      scf::IfOp::create(b, b.eq(fragment.consumer, config.consumers - 1));
  b.setInsertionPointToStart(&second.getThenRegion().front());
  NVVM::BarrierArriveOp::create(b, b.i32(kFirstTurnBarrier),
                                b.i32(2 * kWarpgroup));
  b.setInsertionPointAfter(second);
}

HopperMainLoop::StageState
HopperMainLoop::stageState(Value counter, const ThreadFragment &fragment) {
  Value stage = pipeline.stageOf(counter);
  // The consumer's rows of the stage's A tile (the rows' offset first: the
  // order of these ops shows in the PTX).
  Value rowsOffset = pipeline.aRowsOffset(fragment.rowGroup);
  Value aOffset = b.add(pipeline.aTileOffset(stage), rowsOffset);
  Value aBase = b.add(smem.address, aOffset);
  Value bBase = b.add(smem.address, pipeline.bTileOffset(stage));
  Value parity = pipeline.fullParity(counter);
  Value lowA = describeTile(aOperandLayout(problem), aBase).encodeLow(b);
  Value lowB = describeTile(bOperandLayout(problem), bBase).encodeLow(b);
  return {stage, parity, lowA, lowB};
}

Value HopperMainLoop::issueBlock(const StageState &state, Value acc,
                                 bool zeroFirst, int64_t firstStep,
                                 int64_t numSteps) {
  WgmmaOperandLayout aLayout = aOperandLayout(problem),
                     bLayout = bOperandLayout(problem);
  auto shape = NVVM::MMAShapeAttr::get(b.getContext(), kMmaM, config.tileN,
                                       aLayout.mmaK());
  auto wgmmaType = [&](Type t) {
    if (t.isBF16())
      return NVVM::WGMMATypes::bf16;
    if (t.isF16())
      return NVVM::WGMMATypes::f16;
    return isa<Float8E4M3FNType>(t) ? NVVM::WGMMATypes::e4m3
                                    : NVVM::WGMMATypes::e5m2;
  };
  // 128-byte swizzle; K-major unless a 16-bit operand is MN-major (the
  // instruction's transpose bit: A "col", B "row").
  WgmmaDescriptor aDescriptor = describeTile(aLayout, Value());
  WgmmaDescriptor bDescriptor = describeTile(bLayout, Value());
  auto aMajor = aLayout.mnMajor ? NVVM::MMALayout::col : NVVM::MMALayout::row;
  auto bMajor = bLayout.mnMajor ? NVVM::MMALayout::row : NVVM::MMALayout::col;
  NVVM::WgmmaFenceAlignedOp::create(b);
  for (int64_t step = firstStep; step < firstStep + numSteps; ++step) {
    // Advancing along K moves the start address (inside the swizzled row
    // K-major: the hardware applies the swizzle to the full address).
    Value descA = aDescriptor.encode(
        b, b.add(state.lowA, step * aLayout.kStepBytes() >> 4));
    Value descB = bDescriptor.encode(
        b, b.add(state.lowB, step * bLayout.kStepBytes() >> 4));
    auto scaleD = (zeroFirst && step == firstStep) ? NVVM::WGMMAScaleOut::zero
                                                   : NVVM::WGMMAScaleOut::one;
    acc = NVVM::WgmmaMmaAsyncOp::create(
        b, accType, acc, descA, descB, shape, wgmmaType(problem.aElement),
        wgmmaType(problem.bElement), NVVM::WGMMATypes::f32, scaleD,
        NVVM::WGMMAScaleIn::one, NVVM::WGMMAScaleIn::one, aMajor, bMajor,
        nullptr);
  }
  NVVM::WgmmaGroupSyncAlignedOp::create(b);
  return acc;
}

void HopperMainLoop::promote(Value acc, const FragmentScales &scales,
                             MutableArrayRef<Value> sums, bool scalesChecked) {
  // sums += scales * partial, in f32 FMAs, the pair of scales applied as
  // docs/Numerics.md says (ScaledTerm.h), or adds where the scales span K.
  SmallVector<Value> partials;
  for (int64_t i = 0, e = sums.size(); i < e; ++i)
    partials.push_back(LLVM::ExtractValueOp::create(b, acc, i));
  promoteScaled(
      b, partials,
      [&](int64_t i) { return scales.aScale(ThreadFragment::rowHalf(i)); },
      [&](int64_t i) {
        return scales.bScale(ThreadFragment::columnPair(i), i % 2);
      },
      sums, scalesChecked);
}

/// One accumulator over all of K: each K-block's MMAs are queued behind the
/// previous block's, whose stage is released once they are done.
MainLoopResult HopperMainLoop::buildFastLoop(Value counter,
                                             const ThreadFragment &fragment) {
  SmallVector<Value> init = {counter, LLVM::ZeroOp::create(b, accType)};
  auto loop = scf::ForOp::create(b, b.i32(0), b.i32(problem.numKBlocks),
                                 b.i32(1), init);
  b.setInsertionPointToStart(loop.getBody());
  Value it = loop.getRegionIterArgs()[0];
  StageState current = stageState(it, fragment);
  pipeline.waitFull(current.stage, current.parity);
  Value acc = issueBlock(current, loop.getRegionIterArgs()[1],
                         /*zeroFirst=*/false, 0,
                         aOperandLayout(problem).mmasPerKBlock());
  NVVM::WgmmaWaitGroupSyncOp::create(b, 1);
  auto previous = scf::IfOp::create(b, b.ugt(loop.getInductionVar(), 0));
  b.setInsertionPointToStart(&previous.getThenRegion().front());
  pipeline.release(pipeline.stageOf(b.sub(it, 1)), fragment.lane);
  b.setInsertionPointAfter(previous);
  scf::YieldOp::create(b, ValueRange{b.add(it, 1), acc});
  b.setInsertionPointAfter(loop);
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  MainLoopResult result;
  result.counter = loop.getResult(0);
  pipeline.release(pipeline.stageOf(b.sub(result.counter, 1)), fragment.lane);
  for (int64_t i = 0, e = config.tileN / 2; i < e; ++i)
    result.sums.push_back(
        LLVM::ExtractValueOp::create(b, loop.getResult(1), i));
  return result;
}

MainLoopResult HopperMainLoop::buildPromotedLoop(Value counter,
                                                 const ThreadFragment &fragment,
                                                 TileCoord tile) {
  if (!scaleCheck)
    return buildPromoted(counter, fragment, tile, /*split=*/false,
                         /*scalesChecked=*/false);
  Value cheap = scaleCheck->build(fragment, tile);
  SmallVector<Type> types = {b.getI32Type()};
  types.append(config.tileN / 2, b.getF32Type());
  auto loops = scf::IfOp::create(b, types, cheap, /*withElseRegion=*/true);
  for (bool checked : {true, false}) {
    Region &region = checked ? loops.getThenRegion() : loops.getElseRegion();
    b.setInsertionPointToStart(&region.front());
    MainLoopResult result =
        buildPromoted(counter, fragment, tile, /*split=*/false, checked);
    SmallVector<Value> yielded = {result.counter};
    yielded.append(result.sums);
    scf::YieldOp::create(b, yielded);
  }
  b.setInsertionPointAfter(loops);
  MainLoopResult result;
  result.counter = loops.getResult(0);
  result.sums.assign(loops.getResults().begin() + 1, loops.getResults().end());
  return result;
}

SmallVector<Value>
HopperMainLoop::buildSplitLoop(Value counter, const ThreadFragment &fragment,
                               TileCoord tile) {
  // A consumer waits for fill f of a stage without having waited for fill
  // f - 1, another consumer's: the parity wait is only exact once that one
  // has completed. The issue turns see to it: the other consumer waited for
  // fill f - 1 (K-block it - stages) before its turn, which came before
  // this consumer's turn at K-block it - consumers.
  assert(orderedTurns() && config.stages >= config.splitWays() &&
         problem.promotion >= kTileK &&
         "a split needs issue turns and whole blocks");
  // The returned counter means nothing: the sub-tile is the CTA's last task.
  return buildPromoted(counter, fragment, tile, /*split=*/true,
                       /*scalesChecked=*/false)
      .sums;
}

MainLoopResult HopperMainLoop::closePromoted(scf::ForOp loop, Value counter,
                                             ValueRange sums,
                                             const FragmentScales &next) {
  SmallVector<Value> yielded = {counter};
  yielded.append(sums.begin(), sums.end());
  yielded.append(next.a);
  yielded.append(next.b);
  scf::YieldOp::create(b, yielded);
  b.setInsertionPointAfter(loop);
  MainLoopResult result;
  result.counter = loop.getResult(0);
  result.sums.assign(loop.getResults().begin() + 1,
                     loop.getResults().begin() + 1 + sums.size());
  return result;
}

/// Promotion: each group of K-steps (a K-block, or less for 1x32 and 1x64
/// scales) is accumulated alone, waited for and added with its scales. Two
/// or three consumer warpgroups share the tensor cores, so one's MMAs run
/// while another promotes; a lone one pairs its K-blocks for that
/// (buildPairedPromoted). A few scales per block are loaded one block
/// ahead, so their L2 latency never stalls the promotion. With `split`, the
/// consumers take turns at a sub-tile's K-blocks.
MainLoopResult HopperMainLoop::buildPromoted(Value counter,
                                             const ThreadFragment &fragment,
                                             TileCoord tile, bool split,
                                             bool scalesChecked) {
  if (config.subBlockScales) {
    assert(!split && "sub-block promotion has no issue turns to split by");
    return buildSubBlockPromoted(counter, fragment, tile);
  }
  int64_t numKBlocks = problem.numKBlocks;
  int64_t steps = std::min(problem.promotion, kTileK) / kMmaK;
  bool singlePromotion = steps == kTileK / kMmaK;
  if (config.consumers == 1 && singlePromotion && numKBlocks % 2 == 0) {
    assert(!split && "a lone consumer's tile is never split");
    return buildPairedPromoted(counter, fragment, tile, scalesChecked);
  }
  Value consumer = fragment.consumer;
  // A split sub-tile: consumer w of c takes K-blocks w, w + c, ... (none
  // where K has fewer blocks; its first scales are then never used).
  Value firstBlock = split ? consumer : b.i32(0);
  int64_t blockStep = split ? config.splitWays() : 1;
  Value firstK =
      split ? b.mul(b.minU(consumer, b.i32(numKBlocks - 1)), kTileK) : b.i32(0);
  FragmentScales firstScales = scales.loadBlockScales(firstK, fragment, tile);
  bool prefetch =
      singlePromotion && firstScales.a.size() + firstScales.b.size() <= 4;
  SmallVector<Value> init = {split ? b.add(counter, consumer) : counter};
  init.append(config.tileN / 2, b.f32(0.0));
  if (prefetch) {
    init.append(firstScales.a);
    init.append(firstScales.b);
  }
  auto loop = scf::ForOp::create(b, firstBlock, b.i32(numKBlocks),
                                 b.i32(blockStep), init);
  keepRolled(loop);
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  Value it = loop.getRegionIterArgs()[0];
  auto carried = loop.getRegionIterArgs().drop_front();
  SmallVector<Value> state(carried.take_front(config.tileN / 2));
  StageState current = stageState(it, fragment);
  Value kStart = b.mul(kb, kTileK);
  FragmentScales nextScales;
  if (prefetch) {
    // Next block's scales (this block's again on the last one).
    Value nextK = b.minU(b.add(kb, blockStep), b.i32(numKBlocks - 1));
    nextScales = scales.loadBlockScales(b.mul(nextK, kTileK), fragment, tile);
  }
  Value undef = LLVM::UndefOp::create(b, accType);
  for (int64_t first = 0; first < kTileK / kMmaK; first += steps) {
    FragmentScales blockScales;
    if (prefetch) {
      auto values = carried.drop_front(config.tileN / 2);
      blockScales.a.assign(values.begin(),
                           values.begin() + firstScales.a.size());
      blockScales.b.assign(values.begin() + firstScales.a.size(), values.end());
    } else {
      blockScales =
          scales.loadBlockScales(b.add(kStart, first * kMmaK), fragment, tile);
    }
    // The stage's data first, then the turn: a consumer that waits for its
    // turn has its operands ready when it comes.
    if (first == 0)
      pipeline.waitFull(current.stage, current.parity);
    // The stage's scales before the MMAs are issued: a shared load issued
    // after them waits for their operand reads, and the promotion with it
    // (blockwise at M = 128, H100: +19%).
    scales.readFromStage(current.stage, kStart, fragment, tile, blockScales);
    // Issue turns alternate between the consumers, so that one's MMAs run
    // while the other promotes instead of both promoting at once.
    if (orderedTurns())
      NVVM::BarrierOp::create(b, Type(), b.add(consumer, kFirstTurnBarrier),
                              b.i32(2 * kWarpgroup), nullptr, Value());
    Value acc = issueBlock(current, undef, /*zeroFirst=*/true, first, steps);
    if (orderedTurns()) {
      Value next = b.remU(b.add(consumer, 1), config.consumers);
      NVVM::BarrierArriveOp::create(b, b.add(next, kFirstTurnBarrier),
                                    b.i32(2 * kWarpgroup));
    }
    // The stage is released after the promotion.
    NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
    promote(acc, blockScales, state, scalesChecked);
  }
  // A sub-tile's stage is this consumer's alone: it arrives for all.
  pipeline.release(current.stage, fragment.lane, split ? config.consumers : 1);
  return closePromoted(loop, b.add(it, blockStep), state, nextScales);
}

/// A lone consumer (small M's 64-row tiles) has no other consumer whose
/// MMAs run while it promotes: it takes two K-blocks per iteration, each
/// into its own accumulator, and promotes the first while the second's MMAs
/// run (H100, M = 64, N = 7168, K = 2048: blockwise +9%, tensorwise and
/// rowwise promoted +4%). The blocks are promoted in order, as one at a
/// time: the sums do not change. Not across iterations: a wgmma left in
/// flight over the loop's back edge makes ptxas serialize every wgmma
/// (buildSubBlockPromoted). Scales as buildPromoted's: a few loaded one
/// iteration ahead for the first block, the second block's at its start.
MainLoopResult
HopperMainLoop::buildPairedPromoted(Value counter,
                                    const ThreadFragment &fragment,
                                    TileCoord tile, bool scalesChecked) {
  int64_t numKBlocks = problem.numKBlocks;
  FragmentScales firstScales = scales.loadBlockScales(b.i32(0), fragment, tile);
  bool prefetch = firstScales.a.size() + firstScales.b.size() <= 4;
  SmallVector<Value> init = {counter};
  init.append(config.tileN / 2, b.f32(0.0));
  if (prefetch) {
    init.append(firstScales.a);
    init.append(firstScales.b);
  }
  auto loop =
      scf::ForOp::create(b, b.i32(0), b.i32(numKBlocks), b.i32(2), init);
  keepRolled(loop);
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  Value it = loop.getRegionIterArgs()[0];
  auto carried = loop.getRegionIterArgs().drop_front();
  SmallVector<Value> sums(carried.take_front(config.tileN / 2));
  SmallVector<FragmentScales> blockScales(2);
  if (prefetch) {
    auto values = carried.drop_front(config.tileN / 2);
    blockScales[0].a.assign(values.begin(),
                            values.begin() + firstScales.a.size());
    blockScales[0].b.assign(values.begin() + firstScales.a.size(),
                            values.end());
  } else {
    blockScales[0] = scales.loadBlockScales(b.mul(kb, kTileK), fragment, tile);
  }
  blockScales[1] =
      scales.loadBlockScales(b.mul(b.add(kb, 1), kTileK), fragment, tile);
  FragmentScales nextScales;
  if (prefetch) {
    Value nextK = b.minU(b.add(kb, 2), b.i32(numKBlocks - 2));
    nextScales = scales.loadBlockScales(b.mul(nextK, kTileK), fragment, tile);
  }
  Value undef = LLVM::UndefOp::create(b, accType);
  SmallVector<StageState> states;
  SmallVector<Value> accs;
  for (int64_t i = 0; i < 2; ++i) {
    StageState state = stageState(b.add(it, i), fragment);
    Value kStart = b.mul(b.add(kb, i), kTileK);
    pipeline.waitFull(state.stage, state.parity);
    scales.readFromStage(state.stage, kStart, fragment, tile, blockScales[i]);
    accs.push_back(
        issueBlock(state, undef, /*zeroFirst=*/true, 0, kTileK / kMmaK));
    states.push_back(state);
  }
  for (int64_t i = 0; i < 2; ++i) {
    NVVM::WgmmaWaitGroupSyncOp::create(b, 1 - i);
    promote(accs[i], blockScales[i], sums, scalesChecked);
    pipeline.release(states[i].stage, fragment.lane);
  }
  return closePromoted(loop, b.add(it, 2), sums, nextScales);
}

/// MXFP8: four 32-deep wgmmas per K-block, each into a fresh accumulator;
/// the wgmma of sub-block g + 1 is queued before sub-block g is promoted, so
/// the tensor cores run while the CUDA cores multiply by the scales. A
/// sub-block's scales are read from shared memory before the wait for its
/// wgmma. The next K-block's scales are loaded at the start of this one and
/// converted while its last wgmma runs.
///
/// Not across K-blocks: a wgmma left in flight over the loop's back edge and
/// promoted in the next iteration makes ptxas serialize every wgmma (C7514:
/// its pipeline analysis does not follow a non-wgmma read of an accumulator
/// into the next iteration).
MainLoopResult HopperMainLoop::buildSubBlockPromoted(
    Value counter, const ThreadFragment &fragment, TileCoord tile) {
  int64_t numKBlocks = problem.numKBlocks;
  int64_t subBlocksPerBlock = kTileK / kMmaK;
  // The tile's first K-block into buffer 0, after the sync: another thread
  // may still read the previous tile's last scales from it.
  subBlocks->sync(fragment);
  subBlocks->storeConverted(subBlocks->loadWord(b.i32(0), fragment, tile),
                            b.i32(0), fragment);
  SmallVector<Value> init = {counter};
  init.append(config.tileN / 2, b.f32(0.0));
  auto loop =
      scf::ForOp::create(b, b.i32(0), b.i32(numKBlocks), b.i32(1), init);
  keepRolled(loop);
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  Value it = loop.getRegionIterArgs()[0];
  SmallVector<Value> sums(loop.getRegionIterArgs().drop_front());
  Value buffer = b.andI(kb, 1);
  // This K-block's scales are stored and the previous one's reads done.
  subBlocks->sync(fragment);
  Value nextK = b.mul(b.minU(b.add(kb, 1), b.i32(numKBlocks - 1)), kTileK);
  Value nextWord = subBlocks->loadWord(nextK, fragment, tile);
  // Sub-block 0's scales before the stage's wait. Each sub-block's scales
  // are read one sub-block ahead of their use: a shared load waits behind
  // the wgmmas' operand reads (Nsight Compute: read just before the
  // promotion, it was the top stall).
  SmallVector<FragmentScales> scales;
  scales.push_back(subBlocks->read(buffer, 0, fragment));
  StageState current = stageState(it, fragment);
  pipeline.waitFull(current.stage, current.parity);
  Value undef = LLVM::UndefOp::create(b, accType);
  SmallVector<Value> accs;
  for (int64_t sub = 0; sub < subBlocksPerBlock; ++sub) {
    accs.push_back(issueBlock(current, undef, /*zeroFirst=*/true, sub, 1));
    if (sub + 1 < subBlocksPerBlock)
      scales.push_back(subBlocks->read(buffer, sub + 1, fragment));
    if (sub == 0)
      continue;
    NVVM::WgmmaWaitGroupSyncOp::create(b, 1);
    promote(accs[sub - 1], scales[sub - 1], sums, /*scalesChecked=*/false);
  }
  // The next K-block's scales while the last wgmma runs.
  subBlocks->storeConverted(nextWord, b.xorI(buffer, 1), fragment);
  NVVM::WgmmaWaitGroupSyncOp::create(b, 0);
  promote(accs.back(), scales.back(), sums, /*scalesChecked=*/false);
  pipeline.release(current.stage, fragment.lane);
  return closePromoted(loop, b.add(it, 1), sums, FragmentScales());
}
