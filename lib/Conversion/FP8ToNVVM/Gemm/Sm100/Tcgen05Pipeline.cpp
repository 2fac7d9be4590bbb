//===- Tcgen05Pipeline.cpp - the sm_100a GEMM's rings and loads -----------===//
//
// One producer thread waits for a free stage, arms its full barrier with
// the bytes to come and issues the loads of one 128-deep K-block: A's and
// B's tiles by TMA with 128-byte swizzle, K-major (a box of rows x 128
// bytes) or MN-major (boxes of 128 K-rows x 128 elements, one per 128-wide
// swizzle atom), and for MXFP8 the K-block's 512-byte scale chunks (one for
// A's 128 rows, one per 128 columns of B) by bulk copy. Rows and columns past
// the matrix read as zeros (TMA), a chunk past B's last is its last again
// (the columns it scales are never stored), so every stage brings the same
// bytes.
//
// A CTA pair loads everything by TMA with .cta_group::2, which lets a load
// into one CTA complete on the mbarrier of its peer (PTX ISA,
// cp.async.bulk.tensor): the leader's full barrier then counts both CTAs'
// bytes, and the leader's MMA thread needs no other signal. The scale
// chunks come as two 256-byte boxes (TMA's box limit) of a tensor map over
// the [chunks, 512] scale buffer; a box past the last chunk reads zeros.
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Pipeline.h"

#include "../../Program/KernelUtils.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// mbarrier.try_wait suspend-time hint (ns), as the sm_90a ring.
static constexpr int64_t kWaitTicks = 0x989680;

Value Tcgen05Pipeline::barrier(int64_t first, Value index) {
  return smem.ptr(
      b, b.add(b.i32(config.barrierOffset() + 8 * first), b.mul(index, 8)));
}

Value Tcgen05Pipeline::fullBarrier(Value stage) { return barrier(0, stage); }

Value Tcgen05Pipeline::emptyBarrier(Value stage) {
  return barrier(config.stages, stage);
}

Value Tcgen05Pipeline::accFullBarrier(Value acc) {
  return barrier(2 * config.stages, acc);
}

Value Tcgen05Pipeline::accEmptyBarrier(Value acc) {
  return barrier(2 * config.stages + config.accumulators, acc);
}

Value Tcgen05Pipeline::tmemSlot() {
  return smem.ptr(b, b.i32(config.tmemSlotOffset()));
}

/// Inline PTX with side effects and a memory clobber, so that it keeps its
/// place among the kernel's memory operations.
static void inlinePtx(KernelBuilder &b, ValueRange operands, StringRef ptx,
                      StringRef constraints) {
  LLVM::InlineAsmOp::create(
      b, TypeRange(), operands, b.getStringAttr(ptx),
      b.getStringAttr(constraints), /*has_side_effects=*/b.getUnitAttr(),
      /*is_align_stack=*/UnitAttr(),
      LLVM::TailCallKindAttr::get(b.getContext(), LLVM::TailCallKind::None),
      /*asm_dialect=*/LLVM::AsmDialectAttr(), /*operand_attrs=*/ArrayAttr());
}

Value Tcgen05Pipeline::leaderBarrier(Value barrier) {
  return NVVM::MapaOp::create(
      b, b.ptrType(NVVM::NVVMMemorySpace::SharedCluster), barrier, b.i32(0));
}

void Tcgen05Pipeline::arriveOnLeader(Value barrier) {
  Value address = LLVM::PtrToIntOp::create(b, b.getI32Type(), barrier);
  inlinePtx(b, address,
            "{\n.reg .b32 leader;\nmapa.shared::cluster.u32 leader, $0, 0;\n"
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, "
            "[leader];\n}",
            "r,~{memory}");
}

void Tcgen05Pipeline::buildInit(Value thread) {
  auto setup = scf::IfOp::create(b, b.eq(thread, 0));
  b.setInsertionPointToStart(&setup.getThenRegion().front());
  auto init = [&](Value barrier, int64_t count) {
    NVVM::MBarrierInitOp::create(b, barrier, b.i32(count), Value());
  };
  for (int64_t s = 0; s < config.stages; ++s) {
    // Filled by the producer's one arrival plus TMA's bytes; emptied by the
    // MMA issuer's tcgen05.commit.
    init(fullBarrier(b.i32(s)), 1);
    init(emptyBarrier(b.i32(s)), 1);
  }
  for (int64_t a = 0; a < config.accumulators; ++a) {
    // Completed by a tcgen05.commit; read by every epilogue thread.
    init(accFullBarrier(b.i32(a)), 1);
    init(accEmptyBarrier(b.i32(a)), config.accEmptyArrivals());
  }
  // The peer's loads and the leader's commits reach these barriers once the
  // kernel's cluster barrier has passed: the initialization must be
  // visible cluster-wide first.
  if (config.pair())
    NVVM::FenceMbarrierInitOp::create(b);
  for (Value map :
       {args.aMap, args.bMap, args.cMap, args.aScaleMap, args.bScaleMap})
    if (map)
      NVVM::PrefetchOp::create(b, nullptr, nullptr, map, Value(),
                               /*tensormap=*/true);
  b.setInsertionPointAfter(setup);
}

RingSlot Tcgen05Pipeline::stage(Value counter) {
  return {b.remU(counter, config.stages),
          b.andI(b.divU(counter, config.stages), 1)};
}

RingSlot Tcgen05Pipeline::accumulator(Value counter) {
  return {b.remU(counter, config.accumulators),
          b.andI(b.divU(counter, config.accumulators), 1)};
}

void Tcgen05Pipeline::wait(Value barrier, Value parity) {
  NVVM::MBarrierTryWaitParityOp::create(b, barrier, parity, b.i32(kWaitTicks));
}

Value Tcgen05Pipeline::stageOffset(Value stage) {
  return b.mul(stage, config.stageBytes());
}

Value Tcgen05Pipeline::aTileAddress(Value stage) {
  return b.add(smem.address, stageOffset(stage));
}

Value Tcgen05Pipeline::bTileAddress(Value stage) {
  return b.add(aTileAddress(stage), config.aStageBytes());
}

Value Tcgen05Pipeline::aScaleAddress(Value stage) {
  return b.add(bTileAddress(stage), config.bStageBytes());
}

Value Tcgen05Pipeline::bScaleAddress(Value stage) {
  return b.add(aScaleAddress(stage), Tcgen05GemmConfig::kScaleChunkBytes);
}

void Tcgen05Pipeline::loadBox(Value offset, Value map, ValueRange coords,
                              Value barrier) {
  Value dst =
      b.castTo(NVVM::NVVMMemorySpace::SharedCluster, smem.ptr(b, offset));
  NVVM::CpAsyncBulkTensorGlobalToSharedClusterOp::create(
      b, dst, map, coords, barrier, ValueRange{}, Value(), Value(),
      NVVM::TMALoadMode::TILE, false, nullptr, Value());
}

void Tcgen05Pipeline::loadScaleChunk(Value offset, Value scales, Value chunk,
                                     Value barrier) {
  Value dst =
      b.castTo(NVVM::NVVMMemorySpace::SharedCluster, smem.ptr(b, offset));
  Value source = b.gep(NVVM::NVVMMemorySpace::Global, b.getI8Type(), scales,
                       b.mul(chunk, Tcgen05GemmConfig::kScaleChunkBytes));
  NVVM::CpAsyncBulkGlobalToSharedClusterOp::create(
      b, dst, source, barrier, b.i32(Tcgen05GemmConfig::kScaleChunkBytes),
      Value(), Value());
}

void Tcgen05Pipeline::loadPairBox(Value offset, Value map, ValueRange coords,
                                  Value leaderBarrier, uint16_t multicastMask) {
  assert(coords.size() == 2 && "the kernel's tensor maps are 2-D");
  Type i64 = b.getI64Type();
  Value dst = LLVM::PtrToIntOp::create(
      b, i64,
      b.castTo(NVVM::NVVMMemorySpace::SharedCluster, smem.ptr(b, offset)));
  Value bar = LLVM::PtrToIntOp::create(b, i64, leaderBarrier);
  SmallVector<Value> operands = {dst, map, coords[0], coords[1], bar};
  std::string ptx = "cp.async.bulk.tensor.2d.shared::cluster.global.tile."
                    "mbarrier::complete_tx::bytes";
  std::string constraints = "l,l,r,r,l";
  if (multicastMask) {
    ptx += ".multicast::cluster.cta_group::2 [$0], [$1, {$2, $3}], [$4], $5;";
    constraints += ",h";
    operands.push_back(
        arith::ConstantOp::create(b, b.getI16IntegerAttr(multicastMask)));
  } else {
    ptx += ".cta_group::2 [$0], [$1, {$2, $3}], [$4];";
  }
  inlinePtx(b, operands, ptx, constraints + ",~{memory}");
}

void Tcgen05Pipeline::loadPairStage(TileCoord tile, Value kb, Value aOffset,
                                    Value full) {
  constexpr int64_t kTileK = Tcgen05GemmConfig::kTileK;
  constexpr int64_t kAtom = Tcgen05GemmConfig::kMnAtom;
  constexpr int64_t kChunk = Tcgen05GemmConfig::kScaleChunkBytes;
  Value leader = leaderBarrier(full);
  Value k = b.mul(kb, kTileK);
  // This CTA's rows of A and columns of B: rank r holds A's rows 128 r ..
  // and B's columns (N / 2) r .. of the pair's tile.
  Value aRow = b.add(tile.row, b.mul(ctaRank, Tcgen05GemmConfig::kTileM));
  Value bCol = b.add(tile.col, b.mul(ctaRank, config.bRowsPerCta()));
  Value bOffset = b.add(aOffset, config.aStageBytes());
  if (problem.aMnMajor)
    loadPairBox(aOffset, args.aMap, {aRow, k}, leader);
  else
    loadPairBox(aOffset, args.aMap, {k, aRow}, leader);
  if (problem.bMnMajor) {
    for (int64_t atom = 0; atom < config.bRowsPerCta() / kAtom; ++atom)
      loadPairBox(b.add(bOffset, atom * kAtom * kTileK), args.bMap,
                  {b.add(bCol, atom * kAtom), k}, leader);
  } else {
    loadPairBox(bOffset, args.bMap, {k, bCol}, leader);
  }
  if (!config.blockScaled())
    return;
  // Scale chunks: two 256-byte boxes each. A's is this CTA's own rows';
  // B's are every CTA's (the MMA's scales of all N columns are read from
  // each CTA's tensor memory): rank r loads half r of each and multicasts
  // it to both CTAs.
  constexpr int64_t kHalf = kChunk / 2;
  Value scaleOffset = b.add(bOffset, config.bStageBytes());
  Value aChunk = b.add(b.mul(b.divU(aRow, 128), problem.numKBlocks), kb);
  for (int64_t half = 0; half < 2; ++half)
    loadPairBox(b.add(scaleOffset, half * kHalf), args.aScaleMap,
                {b.i32(half * kHalf), aChunk}, leader);
  int64_t lastRowBlock = llvm::divideCeil(problem.n, 128) - 1;
  Value myHalf = b.mul(ctaRank, kHalf);
  for (int64_t j = 0; j < config.bScaleChunks(); ++j) {
    Value rowBlock =
        b.minU(b.add(b.divU(tile.col, 128), j), b.i32(lastRowBlock));
    Value bChunk = b.add(b.mul(rowBlock, problem.numKBlocks), kb);
    loadPairBox(b.add(b.add(scaleOffset, (1 + j) * kChunk), myHalf),
                args.bScaleMap, {myHalf, bChunk}, leader, config.pairMask());
  }
}

void Tcgen05Pipeline::buildDrain(Value counter) {
  auto loop = scf::ForOp::create(b, b.i32(0), b.i32(config.stages), b.i32(1));
  b.setInsertionPointToStart(loop.getBody());
  RingSlot slot = stage(b.add(counter, loop.getInductionVar()));
  wait(emptyBarrier(slot.slot), freeParity(b, slot));
  b.setInsertionPointAfter(loop);
}

Value Tcgen05Pipeline::buildTileLoads(TileCoord tile, Value counter) {
  constexpr int64_t kTileK = Tcgen05GemmConfig::kTileK;
  constexpr int64_t kAtom = Tcgen05GemmConfig::kMnAtom;
  auto loop = scf::ForOp::create(b, b.i32(0), b.i32(problem.numKBlocks),
                                 b.i32(1), ValueRange{counter});
  b.setInsertionPointToStart(loop.getBody());
  Value kb = loop.getInductionVar();
  Value it = loop.getRegionIterArgs()[0];
  RingSlot slot = stage(it);
  wait(emptyBarrier(slot.slot), freeParity(b, slot));
  Value full = fullBarrier(slot.slot);
  Value aOffset = stageOffset(slot.slot);
  if (config.pair()) {
    // Only the leader's full barrier is waited on; it expects both CTAs'
    // bytes (a load may complete before this arrival: the phase cannot end
    // while the arrival is pending).
    auto arm = scf::IfOp::create(b, b.eq(ctaRank, 0));
    b.setInsertionPointToStart(&arm.getThenRegion().front());
    NVVM::MBarrierArriveExpectTxOp::create(
        b, Type(), full, b.i32(config.stageExpectedBytes()),
        NVVM::MemScopeKind::CTA, false, Value());
    b.setInsertionPointAfter(arm);
    loadPairStage(tile, kb, aOffset, full);
    scf::YieldOp::create(b, ValueRange{b.add(it, 1)});
    b.setInsertionPointAfter(loop);
    return loop.getResult(0);
  }
  NVVM::MBarrierArriveExpectTxOp::create(
      b, Type(), full, b.i32(config.stageTransferBytes()),
      NVVM::MemScopeKind::CTA, false, Value());
  Value k = b.mul(kb, kTileK);
  Value bOffset = b.add(aOffset, config.aStageBytes());
  // Coordinates innermost first. K-major: (k, row), one box of the tile's
  // rows x 128 bytes. MN-major: (row, k), one box of 128 K-rows per
  // 128-wide atom, the atoms one after another.
  if (problem.aMnMajor)
    loadBox(aOffset, args.aMap, {tile.row, k}, full);
  else
    loadBox(aOffset, args.aMap, {k, tile.row}, full);
  if (problem.bMnMajor) {
    for (int64_t atom = 0; atom < config.tileN / kAtom; ++atom)
      loadBox(b.add(bOffset, atom * kAtom * kTileK), args.bMap,
              {b.add(tile.col, atom * kAtom), k}, full);
  } else {
    loadBox(bOffset, args.bMap, {k, tile.col}, full);
  }
  if (config.blockScaled()) {
    // Chunks are row-block major, one per 128 rows and K-block: chunk
    // (rb, kb) is rb * numKBlocks + kb (fp8.tcgen05_scales).
    Value aChunk = b.add(b.mul(b.divU(tile.row, 128), problem.numKBlocks), kb);
    Value scaleOffset = b.add(bOffset, config.bStageBytes());
    loadScaleChunk(scaleOffset, args.aScale, aChunk, full);
    int64_t lastRowBlock = llvm::divideCeil(problem.n, 128) - 1;
    for (int64_t j = 0; j < config.bScaleChunks(); ++j) {
      Value rowBlock =
          b.minU(b.add(b.divU(tile.col, 128), j), b.i32(lastRowBlock));
      Value bChunk = b.add(b.mul(rowBlock, problem.numKBlocks), kb);
      loadScaleChunk(
          b.add(scaleOffset, (1 + j) * Tcgen05GemmConfig::kScaleChunkBytes),
          args.bScale, bChunk, full);
    }
  }
  scf::YieldOp::create(b, ValueRange{b.add(it, 1)});
  b.setInsertionPointAfter(loop);
  return loop.getResult(0);
}
