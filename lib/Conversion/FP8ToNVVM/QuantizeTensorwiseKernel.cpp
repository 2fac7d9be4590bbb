//===- QuantizeTensorwiseKernel.cpp - one scale for the whole tensor ------===//
//
// The kernel of fp8.quantize and fp8.amax with tensorwise scaling ([*, *])
// over more elements than one CTA holds in registers: a grid of resident
// CTAs reduces the amax, meets at a grid-wide barrier, and quantizes on a
// second pass with the one scale. QuantizeKernel.cpp picks it.
//
//===----------------------------------------------------------------------===//

#include "QuantizeKernel.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

/// The CTAs of the tensorwise kernel: two per SM of an H100 (132), few
/// enough to be resident together, which the grid-wide barrier needs.
static constexpr int64_t kTensorwiseBlocksPerSM = 2;
static constexpr int64_t kTensorwiseBlocks = 132 * kTensorwiseBlocksPerSM;
/// The chunks a thread loads per iteration of either pass (one where a
/// fused producer computes them: its registers, not the loads, bound it).
static constexpr int64_t kUnrolledChunks = 4;

/// Tensorwise scaling ([*, *]): one scale from the amax of the whole tensor.
/// A grid of resident CTAs reduces the amax (warp shuffles, shared memory,
/// then an integer atomic max on the non-negative f32 bits in a scratch
/// buffer, where NaN's bits order above inf's), meets at a grid-wide
/// barrier (an arrival counter), and quantizes with the common scale on a
/// second pass over the input. The last CTA to read the amax zeroes the
/// scratch for the next launch.
///
/// With a given amax (delayed scaling) there is no barrier: one pass
/// quantizes. Monitoring then takes the data's amax from the chunks that
/// pass loads; each CTA adds its amax to the scratch and takes a ticket,
/// and the last one writes the tile's amax and scale and zeroes the
/// scratch. (A grid-wide barrier needs every CTA resident at once, which
/// nothing guarantees beside other work or with a kernel's registers
/// limiting CTAs per SM; the pass that needs the amax first has no choice,
/// the delayed one has.)
gpu::GPUModuleOp kernels::buildTensorwiseKernel(QuantizeKernelBuilder &k,
                                                StringRef name,
                                                const Target &target) {
  KernelBuilder &b = k.b;
  int64_t numChunks = k.rows * k.cols / kChunk;
  int64_t numBlocks = std::min<int64_t>(
      kTensorwiseBlocks, llvm::divideCeil(numChunks, kThreadsPerBlock));
  // A given amax needs no grid-wide reduction before quantizing; the
  // data's amax (monitoring) is then gathered by ticket after it.
  bool reduce = !k.amaxOperand;
  bool gather = !reduce && k.monitor;
  gpu::GPUFuncOp func =
      k.create(name, target, numBlocks, /*workspace=*/reduce || gather);
  // The grid-wide barrier needs every CTA resident: two an SM, so at most
  // 128 registers a thread (ptxas spills rather than exceed it). A heavy
  // fused producer went past that (GELU with a bias row at 8192x14336:
  // 162 registers, one CTA an SM, and the barrier never opened).
  if (reduce)
    func->setAttr(NVVM::NVVMDialect::getMinctasmAttrName(),
                  b.getI32IntegerAttr(kTensorwiseBlocksPerSM));
  // The warps' partial maxima, then one slot through which the leader hands
  // the global amax to its CTA.
  Value partials = k.addPartials(func, /*extra=*/1);
  int64_t broadcastSlot = kThreadsPerBlock / kWarpSize;
  auto atomic = [&](arith::AtomicRMWKind kind, Value value, int64_t slot) {
    return memref::AtomicRMWOp::create(b, kind, value, k.scratch,
                                       ValueRange{b.index(slot)})
        .getResult();
  };
  auto fenceGpu = [&] {
    NVVM::MembarOp::create(b, NVVM::MemScopeKindAttr::get(
                                  b.getContext(), NVVM::MemScopeKind::GPU));
  };
  Value block = b.blockIdX();
  Value thread = b.threadIdX();
  Value first = b.add(b.mul(block, kThreadsPerBlock), thread);
  Value stride = b.index(numBlocks * kThreadsPerBlock);
  int64_t unroll = k.producer ? 1 : kUnrolledChunks;
  // Each loop iteration takes `unroll` chunks, a stride apart, so that a
  // thread has that many loads in flight (2 CTAs per SM alone hold too few
  // bytes in flight to cover the memory latency).
  Value unrolledStride = b.index(unroll * numBlocks * kThreadsPerBlock);
  auto chunkOf = [&](Value iv, int64_t u) {
    return b.minU(b.add(iv, b.mul(stride, b.index(u))), b.index(numChunks - 1));
  };
  Value isLeader = b.eq(thread, 0);
  Value zero = b.f32(0.0);
  Value amax, dataAmax;
  if (!reduce) {
    amax = k.tileAmax(Value(), b.index(0));
  } else {
    // Pass 1: this thread's chunks, then the CTA's amax. `unroll` chunks
    // per iteration, loaded together; past the end a thread reloads the
    // last chunk, which cannot change a max.
    auto scan = scf::ForOp::create(b, first, b.index(numChunks), unrolledStride,
                                   ValueRange{zero});
    b.setInsertionPointToStart(scan.getBody());
    SmallVector<Value> loaded;
    for (int64_t u = 0; u < unroll; ++u)
      loaded.push_back(
          k.load(b.mul(chunkOf(scan.getInductionVar(), u), kChunk)));
    Value chunkMax = scan.getRegionIterArgs()[0];
    for (Value values : loaded)
      chunkMax = b.maxF(chunkMax, k.maxAbs(values));
    scf::YieldOp::create(b, ValueRange{chunkMax});
    b.setInsertionPointAfter(scan);
    Value blockMax = k.ctaMax(scan.getResult(0), partials, thread);

    // The leader publishes the CTA's amax and waits for every CTA.
    auto publish = scf::IfOp::create(b, isLeader, /*withElseRegion=*/false);
    b.setInsertionPointToStart(publish.thenBlock());
    Value bits = b.andI(b.bitcast(b.getI32Type(), blockMax), 0x7FFFFFFF);
    atomic(arith::AtomicRMWKind::maxs, bits, 0);
    fenceGpu();
    atomic(arith::AtomicRMWKind::addi, b.i32(1), 1);
    auto spin = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
    {
      Block *before = b.createBlock(&spin.getBefore());
      b.setInsertionPointToStart(before);
      Value arrived = atomic(arith::AtomicRMWKind::addi, b.i32(0), 1);
      Value waiting = b.ult(arrived, numBlocks);
      scf::ConditionOp::create(b, waiting, ValueRange{});
      Block *after = b.createBlock(&spin.getAfter());
      b.setInsertionPointToStart(after);
      scf::YieldOp::create(b);
    }
    b.setInsertionPointAfter(spin);
    fenceGpu();
    Value total = atomic(arith::AtomicRMWKind::addi, b.i32(0), 0);
    memref::StoreOp::create(b, b.bitcast(b.getF32Type(), total), partials,
                            b.index(broadcastSlot));
    // The last CTA to get here resets the scratch for the next launch.
    Value done = atomic(arith::AtomicRMWKind::addi, b.i32(1), 2);
    auto last = scf::IfOp::create(b, b.eq(done, numBlocks - 1),
                                  /*withElseRegion=*/false);
    b.setInsertionPointToStart(last.thenBlock());
    for (int64_t slot = 0; slot < 3; ++slot)
      atomic(arith::AtomicRMWKind::assign, b.i32(0), slot);
    b.setInsertionPointAfter(publish);
    gpu::BarrierOp::create(b);
    dataAmax = memref::LoadOp::create(b, partials, b.index(broadcastSlot));
    amax = k.givenAmax ? k.tileAmax(dataAmax, b.index(0)) : dataAmax;
  }

  // Pass 2: quantize with the one scale (gathering the data's amax of the
  // chunks it loads, where there was no pass 1).
  TileScales scales;
  Value threadMax;
  if (!k.amaxOnly()) {
    scales = k.tileScales(amax);
    ValueRange init = gather ? ValueRange{zero} : ValueRange{};
    auto quantize =
        scf::ForOp::create(b, first, b.index(numChunks), unrolledStride, init);
    b.setInsertionPointToStart(quantize.getBody());
    Value iv = quantize.getInductionVar();
    SmallVector<Value> offsets, loaded;
    for (int64_t u = 0; u < unroll; ++u) {
      offsets.push_back(b.mul(chunkOf(iv, u), kChunk));
      loaded.push_back(k.load(offsets.back()));
    }
    // Only chunks before the end are stored (and counted).
    for (int64_t u = 0; u < unroll; ++u) {
      OpBuilder::InsertionGuard guard(b);
      Value inRange = b.ult(b.add(iv, b.mul(stride, b.index(u))), numChunks);
      auto ifInRange = scf::IfOp::create(b, inRange, /*withElseRegion=*/false);
      b.setInsertionPointToStart(ifInRange.thenBlock());
      k.quantizeAndStore(loaded[u], scales.quantScale, offsets[u]);
    }
    if (gather) {
      Value threadMax = quantize.getRegionIterArgs()[0];
      for (Value values : loaded)
        threadMax = b.maxF(threadMax, k.maxAbs(values));
      scf::YieldOp::create(b, ValueRange{threadMax});
    }
    b.setInsertionPointAfter(quantize);
    if (gather)
      threadMax = quantize.getResult(0);
  }
  Value writer = b.andI(isLeader, b.eq(block, 0));
  if (gather) {
    // Slot 0: the max of the CTAs' non-negative amax bits; slot 1: tickets.
    Value blockMax = k.ctaMax(threadMax, partials, thread);
    auto publish = scf::IfOp::create(b, isLeader, /*withElseRegion=*/false);
    b.setInsertionPointToStart(publish.thenBlock());
    Value bits = b.andI(b.bitcast(b.getI32Type(), blockMax), 0x7FFFFFFF);
    atomic(arith::AtomicRMWKind::maxs, bits, 0);
    fenceGpu();
    Value ticket = atomic(arith::AtomicRMWKind::addi, b.i32(1), 1);
    auto last = scf::IfOp::create(b, b.eq(ticket, numBlocks - 1),
                                  /*withElseRegion=*/false);
    b.setInsertionPointToStart(last.thenBlock());
    fenceGpu();
    Value total = atomic(arith::AtomicRMWKind::addi, b.i32(0), 0);
    for (int64_t slot = 0; slot < 2; ++slot)
      atomic(arith::AtomicRMWKind::assign, b.i32(0), slot);
    k.storeTile(amax, scales, b.index(0), b.bitcast(b.getF32Type(), total));
    b.setInsertionPointAfter(publish);
    return k.finish(func);
  }
  auto store = scf::IfOp::create(b, writer, /*withElseRegion=*/false);
  b.setInsertionPointToStart(store.thenBlock());
  k.storeTile(amax, scales, b.index(0), dataAmax);
  b.setInsertionPointAfter(store);
  return k.finish(func);
}
