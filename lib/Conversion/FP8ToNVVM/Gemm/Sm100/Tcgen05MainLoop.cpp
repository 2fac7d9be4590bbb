//===- Tcgen05MainLoop.cpp - the sm_100a GEMM's MMA issuer ----------------===//
//
// tcgen05.mma is issued by one thread (the caller guards it: an MMA in
// code that a whole warp runs becomes an ELECT ... BRA loop in SASS), and
// tcgen05.cp, tcgen05.mma and tcgen05.commit of one thread execute in
// issue order, so a stage's scale copies need no wait before its MMAs, and
// a commit covers every MMA issued before it.
//
// A CTA pair (cta_group::2): the leader's thread issues M = 256 MMAs whose
// A and B descriptors address both CTAs' shared memory at the same offsets
// (A's 128 rows and half of B's N in each) and whose accumulator and scale
// addresses are the same tensor-memory columns of both CTAs (each holds its
// 128 rows of D, its rows' A scales and all of B's); tcgen05.cp.cta_group::2
// copies each CTA's scale chunks into its own tensor memory (the layout
// CUTLASS's 2-SM block-scaled kernels use); commits multicast to both.
//
// Descriptors (PTX ISA 9.7.16.4, Tcgen05Descriptors.h): 128-byte swizzle;
// K-major tiles have one atom along K (8 rows x 128 bytes, SBO 1024) and a
// K-step of 32 elements moves the start 32 bytes; MN-major tiles are atoms
// of 8 K-rows x 128 elements (SBO 1024 between K-groups, LBO 128 x 128
// bytes between 128-wide atoms along M or N) and a K-step moves the start
// 32 rows, 4096 bytes. Scale chunks are read by tcgen05.cp without swizzle,
// 8 rows of 16 bytes per core matrix (SBO 128).
//
//===----------------------------------------------------------------------===//

#include "Tcgen05MainLoop.h"

#include "Tcgen05Descriptors.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

NVVM::CTAGroupKind gemm::getCtaGroupKind(const Tcgen05GemmConfig &config) {
  return config.pair() ? NVVM::CTAGroupKind::CTA_2 : NVVM::CTAGroupKind::CTA_1;
}

void Tcgen05MainLoop::commit(Value barrier) {
  Value mask;
  if (config.pair())
    mask = arith::ConstantOp::create(b, b.getI16IntegerAttr(config.pairMask()));
  NVVM::Tcgen05CommitOp::create(b, barrier, mask, getCtaGroupKind(config));
}

static Tcgen05Format formatOf(Type element) {
  return isa<Float8E4M3FNType>(element) ? Tcgen05Format::e4m3
                                        : Tcgen05Format::e5m2;
}

Value Tcgen05MainLoop::tmemPointer(Value address) {
  return LLVM::IntToPtrOp::create(b, b.ptrType(NVVM::NVVMMemorySpace::Tensor),
                                  address);
}

Value Tcgen05MainLoop::operandDescriptor(Value address, bool mnMajor,
                                         int64_t step) {
  constexpr int64_t kTileK = Tcgen05GemmConfig::kTileK;
  constexpr int64_t kMmaK = Tcgen05GemmConfig::kMmaK;
  Tcgen05SmemDescriptor descriptor =
      mnMajor ? Tcgen05SmemDescriptor::mnMajorTile(Tcgen05GemmConfig::kMnAtom *
                                                   kTileK)
              : Tcgen05SmemDescriptor::kMajorTile();
  int64_t stepBytes = mnMajor ? step * kMmaK * 128 : step * kMmaK;
  // The constant fields with a zero address, then the start address field:
  // (address + step) >> 4 stays below 2^14 in the 227 KiB window.
  uint64_t constant = descriptor.encode();
  Value start = b.shrU(b.andI(b.add(address, stepBytes), 0x3FFFF), 4);
  return b.orI(b.extUI64(start), static_cast<int64_t>(constant));
}

Value Tcgen05MainLoop::acquireAccumulator(Value counter) {
  RingSlot acc = pipeline.accumulator(counter);
  pipeline.wait(pipeline.accEmptyBarrier(acc.slot),
                Tcgen05Pipeline::freeParity(b, acc));
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  return acc.slot;
}

void Tcgen05MainLoop::issueStage(Value tmemBase, Value stage, Value accColumn,
                                 Value accumulate) {
  constexpr int64_t kSteps =
      Tcgen05GemmConfig::kTileK / Tcgen05GemmConfig::kMmaK;
  Value aAddress = pipeline.aTileAddress(stage);
  Value bAddress = pipeline.bTileAddress(stage);
  Value accumulator = tmemPointer(b.add(tmemBase, accColumn));
  Value sfa, sfb;
  if (config.blockScaled()) {
    // This stage's scale columns, past the accumulators: A's chunk, then
    // B's, each 4 columns in every lane quarter.
    int64_t first = config.accumulators * config.tileN;
    Value column =
        b.add(b.i32(first), b.mul(stage, config.scaleColumnsPerStage()));
    Value sfaAddress = b.add(tmemBase, column);
    Value sfbAddress =
        b.add(sfaAddress, Tcgen05GemmConfig::kScaleColumnsPer128Rows);
    uint64_t chunkConstant = Tcgen05SmemDescriptor::scaleChunk().encode();
    auto copy = [&](Value tmemAddress, Value smemAddress) {
      Value start = b.shrU(b.andI(smemAddress, 0x3FFFF), 4);
      Value desc = b.orI(b.extUI64(start), static_cast<int64_t>(chunkConstant));
      NVVM::Tcgen05CpOp::create(b, NVVM::Tcgen05CpShape::SHAPE_32x128b,
                                getCtaGroupKind(config),
                                NVVM::Tcgen05CpMulticast::WARPX4, nullptr,
                                tmemPointer(tmemAddress), desc);
    };
    copy(sfaAddress, pipeline.aScaleAddress(stage));
    for (int64_t j = 0; j < config.bScaleChunks(); ++j)
      copy(b.add(sfbAddress, j * Tcgen05GemmConfig::kScaleColumnsPer128Rows),
           b.add(pipeline.bScaleAddress(stage),
                 j * Tcgen05GemmConfig::kScaleChunkBytes));
    sfa = tmemPointer(sfaAddress);
    sfb = tmemPointer(sfbAddress);
  }
  Value enabled = b.constant(b.getI1Type(), 1);
  for (int64_t step = 0; step < kSteps; ++step) {
    Tcgen05InstrDescriptor instr;
    instr.kind = config.blockScaled() ? Tcgen05InstrDescriptor::Kind::mxf8f6f4
                                      : Tcgen05InstrDescriptor::Kind::f8f6f4;
    instr.aFormat = formatOf(problem.aElement);
    instr.bFormat = formatOf(problem.bElement);
    instr.aMnMajor = problem.aMnMajor;
    instr.bMnMajor = problem.bMnMajor;
    instr.m = config.mmaM();
    instr.ctaGroup = config.ctaGroup;
    instr.n = config.tileN;
    if (config.blockScaled()) {
      // MMA `step` of the K-block reads its 32 elements' scales: byte
      // `step` of each 32-bit scale column.
      instr.scaleIdA = step;
      instr.scaleIdB = step;
    }
    assert(instr.isValid() && "the configuration is an MMA shape");
    Value idesc = b.i32(instr.encode());
    Value aDesc = operandDescriptor(aAddress, problem.aMnMajor, step);
    Value bDesc = operandDescriptor(bAddress, problem.bMnMajor, step);
    Value add = step == 0 ? accumulate : enabled;
    if (config.blockScaled())
      NVVM::Tcgen05MMABlockScaleOp::create(
          b, NVVM::MMABlockScaleKind::MXF8F6F4, getCtaGroupKind(config),
          NVVM::Tcgen05MMABlockScale::BLOCK32,
          NVVM::Tcgen05MMACollectorOp::DISCARD, accumulator, aDesc, bDesc,
          idesc, add, sfa, sfb);
    else
      NVVM::Tcgen05MMAOp::create(b, NVVM::Tcgen05MMAKind::F8F6F4,
                                 getCtaGroupKind(config),
                                 NVVM::Tcgen05MMACollectorOp::DISCARD,
                                 /*aShift=*/false, accumulator, aDesc, bDesc,
                                 idesc, add, Value(), Value());
  }
}

Tcgen05Counters Tcgen05MainLoop::buildTile(Value tmemBase,
                                           Tcgen05Counters counters) {
  // One accumulator for the tile, or (promoted) one per K-block.
  Value tileAcc;
  if (!config.promoted())
    tileAcc = acquireAccumulator(counters.accumulator);
  auto loop =
      scf::ForOp::create(b, b.i32(0), b.i32(problem.numKBlocks), b.i32(1),
                         ValueRange{counters.stage, counters.accumulator});
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  Value it = loop.getRegionIterArgs()[0];
  Value accCounter = loop.getRegionIterArgs()[1];
  Value acc = config.promoted() ? acquireAccumulator(accCounter) : tileAcc;
  RingSlot slot = pipeline.stage(it);
  pipeline.wait(pipeline.fullBarrier(slot.slot), slot.parity);
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  // A partial sum starts afresh every K-block; a tile's sum at its first.
  Value accumulate =
      config.promoted() ? b.constant(b.getI1Type(), 0) : b.ne(kb, 0);
  issueStage(tmemBase, slot.slot, b.mul(acc, config.tileN), accumulate);
  // The stage is free once these MMAs have read it.
  commit(pipeline.emptyBarrier(slot.slot));
  Value nextAcc = accCounter;
  if (config.promoted()) {
    commit(pipeline.accFullBarrier(acc));
    nextAcc = b.add(accCounter, 1);
  }
  scf::YieldOp::create(b, ValueRange{b.add(it, 1), nextAcc});
  b.setInsertionPointAfter(loop);
  Tcgen05Counters result{loop.getResult(0), loop.getResult(1)};
  if (!config.promoted()) {
    commit(pipeline.accFullBarrier(tileAcc));
    result.accumulator = b.add(result.accumulator, 1);
  }
  return result;
}

void Tcgen05MainLoop::buildDrain(Value accCounter) {
  for (int64_t a = 0; a < config.accumulators; ++a)
    acquireAccumulator(b.add(accCounter, a));
}
