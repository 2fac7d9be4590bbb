//===- Tcgen05Kernel.cpp - fp8.scaled_matmul as an sm_100a GEMM -----------===//
//
// The Blackwell (sm_100a) GEMM, C = A * B^T contracting each operand's
// K-major or MN-major dim (tcgen05 reads e4m3/e5m2 either way, so no
// operand is transposed). Persistent CTAs of six warps (ten where promoted)
// walk 128 x N tiles of C (Common/TileScheduler, as the sm_90a kernel):
//
//  - warp 0: one thread loads each 128-deep K-block of A and B by TMA
//    (128-byte swizzle), and MXFP8's scale chunks by bulk copy, into a ring
//    of stages guarded by full/empty mbarriers (Tcgen05Pipeline);
//  - warp 1: allocates tensor memory for the accumulators (and MXFP8's
//    per-stage scale columns), then one thread issues the MMAs
//    (Tcgen05MainLoop): the guard is the thread index, so no ELECT loop
//    wraps the MMA in SASS;
//  - warps 2-5 (2-9 where promoted, two per lane quarter): read the
//    accumulators with tcgen05.ld, promote or scale, and store C
//    (Tcgen05Epilogue).
//
// The accumulator ring (one or two accumulators in tensor memory) lets the
// MMAs of the next tile (promoted: of the next K-block) run while the
// epilogue reads this one. The configuration's budgets (tensor memory,
// shared memory, registers) are checked before any IR is built.
//
// For large tiles the configuration may pair CTAs (cta_group::2): clusters
// of two CTAs (.reqnctapercluster 2, 1, 1, so a plain launch of an even
// grid makes the pairs) share 256 x N tiles. Both CTAs load their parts of
// each stage, allocate tensor memory together and run the epilogue on
// their 128 rows; the even CTA's thread issues the M = 256 MMAs. Cluster
// barriers follow the barriers' initialization (before any CTA signals its
// peer's) and precede the deallocation (no CTA exits while its peer may
// still reach its shared or tensor memory).
//
// It has never run: no Blackwell GPU exists here (docs/gpu/sm100a.md).
//
//===----------------------------------------------------------------------===//

#include "Tcgen05Kernel.h"

#include "../../Program/KernelBuilder.h"
#include "../../Program/KernelSignature.h"
#include "../../Program/KernelUtils.h"
#include "../Common/GemmManifest.h"
#include "../Common/GemmProblem.h"
#include "../Common/SharedMemory.h"
#include "../Common/TileScheduler.h"
#include "Tcgen05Epilogue.h"
#include "Tcgen05GemmConfig.h"
#include "Tcgen05MainLoop.h"
#include "Tcgen05Pipeline.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;
namespace schema = mlir::fp8::manifest;

using Config = Tcgen05GemmConfig;

/// The scales of an operand that contracts its dim `contracting`: tile
/// [rows, k] or [k, rows] of the operand, the scale tensor indexed (row,
/// k), or (k, row) where the operand is MN-major or the layout col_major.
static OperandScaling describeOperandScaling(ScalingAttr scaling,
                                             RankedTensorType scaleType,
                                             ScaleLayout layout,
                                             int64_t contracting) {
  ArrayRef<int64_t> tile = scaling.getTile();
  bool mnMajor = contracting == 0;
  OperandScaling result{};
  result.rowBlock = tile[mnMajor ? 1 : 0];
  result.kBlock = tile[mnMajor ? 0 : 1];
  result.stride = scaleType.getDimSize(1);
  result.e8m0 = isa<Float8E8M0FNUType>(scaling.getScale());
  result.transposed = mnMajor != (layout == ScaleLayout::col_major_tma);
  result.tmaLoadable = false;
  return result;
}

static bool isMxScaling(const OperandScaling &scaling) {
  return scaling.e8m0 && scaling.rowBlock == 1 &&
         scaling.kBlock == kTcgen05ScaleBlock;
}

/// The problem, or a diagnostic where the kernel cannot take it.
static FailureOr<GemmProblem> describeProblem(ScaledMatmulOp op,
                                              Tcgen05Scaling &scaling) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  GemmProblem problem;
  problem.aMnMajor = op.getContracting()[0] == 0;
  problem.bMnMajor = op.getContracting()[1] == 0;
  problem.m = aType.getDimSize(problem.aMnMajor ? 1 : 0);
  problem.k = aType.getDimSize(problem.aMnMajor ? 0 : 1);
  problem.n = bType.getDimSize(problem.bMnMajor ? 1 : 0);
  problem.numKBlocks = llvm::divideCeil(problem.k, Config::kTileK);
  problem.aElement = aType.getElementType();
  problem.bElement = bType.getElementType();
  problem.resultElement =
      cast<RankedTensorType>(op.getResult().getType()).getElementType();
  problem.promotion = op.getPromotionInterval();
  problem.aScaling = describeOperandScaling(
      op.getAScaling(), cast<RankedTensorType>(op.getAScale().getType()),
      op.getAScaleLayout(), op.getContracting()[0]);
  problem.bScaling = describeOperandScaling(
      op.getBScaling(), cast<RankedTensorType>(op.getBScale().getType()),
      op.getBScaleLayout(), op.getContracting()[1]);

  bool aTcgen05 = op.getAScaleLayout() == ScaleLayout::tcgen05;
  bool bTcgen05 = op.getBScaleLayout() == ScaleLayout::tcgen05;
  if (isMxScaling(problem.aScaling) && isMxScaling(problem.bScaling)) {
    if (!aTcgen05 || !bTcgen05)
      return op.emitOpError(
          "the sm_100a MXFP8 GEMM reads both scales in the tcgen05 layout "
          "(tcgen05.cp); run fp8-legalize{chip=sm_100a} first");
    // The verifier checked the chunks' count: one per 128 rows and 128-deep
    // K-block, row-block major, which the producer's chunk index assumes.
    scaling = Tcgen05Scaling::blockScaled;
    return problem;
  }
  if (aTcgen05 || bTcgen05)
    return op.emitOpError("the tcgen05 scale layout is for MXFP8 (E8M0, 1x32 "
                          "along K) on both operands");
  for (auto [s, which] :
       {std::pair{&problem.aScaling, "a"}, std::pair{&problem.bScaling, "b"}})
    if (!s->spansK() && s->kBlock % Config::kTileK != 0)
      return op.emitOpError()
             << which << "_scaling varies every " << s->kBlock
             << " elements of K: the sm_100a GEMM promotes per 128-deep "
                "K-block (kind::f8f6f4), or takes MXFP8 (E8M0 1x32 on both "
                "operands, kind::mxf8f6f4)";
  scaling = problem.aScaling.spansK() && problem.bScaling.spansK()
                ? Tcgen05Scaling::epilogue
                : Tcgen05Scaling::promoted;
  return problem;
}

/// The kernel's parameters: the buffers as stored, then the two tensor maps
/// (K-major: a box of the tile's rows x 128 K; MN-major: 128 K-rows x 128
/// elements, one 128-byte swizzle atom wide).
static KernelSignature declareParameters(KernelBuilder &b, ScaledMatmulOp op,
                                         const GemmProblem &problem,
                                         const Config &config) {
  auto ptr = b.ptrType(NVVM::NVVMMemorySpace::Generic);
  KernelSignature signature = declareGemmBuffers(op, problem, ptr);
  signature.addTensorMap("a_map", "a", {Config::kTileM, Config::kTileK},
                         Swizzle::b128, ptr);
  // B's rows of this CTA: all N, or a pair's half.
  SmallVector<int64_t> bBox = {config.bRowsPerCta(), Config::kTileK};
  if (problem.bMnMajor)
    bBox = {Config::kTileK, Config::kMnAtom};
  signature.addTensorMap("b_map", "b", bBox, Swizzle::b128, ptr);
  // A pair's scale chunks come by TMA, whose .cta_group::2 completes them
  // on the leader's barrier: 256-byte boxes (TMA's most per dimension) of
  // the [chunks, 512] buffers.
  if (config.pair() && config.blockScaled()) {
    SmallVector<int64_t> chunkBox = {1, Config::kScaleChunkBytes / 2};
    signature.addTensorMap("a_scale_map", "a_scale", chunkBox, Swizzle::none,
                           ptr);
    signature.addTensorMap("b_scale_map", "b_scale", chunkBox, Swizzle::none,
                           ptr);
  }
  // An epilogue warp's 32 rows x 128 bytes of C.
  if (config.tmaStore)
    signature.addTensorMap("c_map", "c", {32, config.storeColumns()},
                           Swizzle::b128, ptr);
  return signature;
}

/// The manifest, with sm_100a's pipeline: stages, accumulators and the
/// tensor memory allocated.
static void setTcgen05Manifest(KernelBuilder &b, gpu::GPUFuncOp kernel,
                               ScaledMatmulOp op, const GemmProblem &problem,
                               const Config &config,
                               const KernelSignature &signature) {
  auto entry = [&](StringRef key, int64_t value) {
    return b.getNamedAttr(key, b.getI64IntegerAttr(value));
  };
  // The tile is the MMA's (a pair's 256 rows); the cluster says how many
  // CTAs share it.
  GemmLaunch launch{config.gridSize,
                    config.threads(),
                    config.sharedBytes(),
                    {config.mmaM(), config.tileN, Config::kTileK},
                    {entry(schema::kStages, config.stages),
                     entry(schema::kAccumulators, config.accumulators),
                     entry(schema::kTmemColumns, config.tmemAllocColumns()),
                     entry(schema::kCtaGroup, config.ctaGroup),
                     entry(schema::kSplitTiles, 0)},
                    {config.clusterSize(), 1, 1}};
  setGemmManifest(b, kernel, op, problem, signature, launch);
}

/// The MMA warp allocates tensor memory (whole warp, .sync.aligned; in a
/// pair, the two CTAs' MMA warps together) and gives up its allocation
/// permit; after the CTA barrier every thread reads the address it wrote to
/// shared memory.
static Value buildTmemAlloc(KernelBuilder &b, const Config &config,
                            Tcgen05Pipeline &pipeline, Value warp) {
  auto allocator = scf::IfOp::create(b, b.eq(warp, Config::kMmaWarp));
  b.setInsertionPointToStart(&allocator.getThenRegion().front());
  NVVM::Tcgen05AllocOp::create(b, pipeline.tmemSlot(),
                               b.i32(config.tmemAllocColumns()),
                               getCtaGroupKind(config));
  NVVM::Tcgen05RelinquishAllocPermitOp::create(b, getCtaGroupKind(config));
  b.setInsertionPointAfter(allocator);
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  gpu::BarrierOp::create(b);
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  return LLVM::LoadOp::create(b, b.getI32Type(), pipeline.tmemSlot());
}

/// Every thread of the cluster arrives (release) and waits (acquire).
static void buildClusterBarrier(KernelBuilder &b) {
  NVVM::ClusterArriveOp::create(b, b.getUnitAttr());
  NVVM::ClusterWaitOp::create(b, b.getUnitAttr());
}

static gpu::GPUModuleOp buildKernel(OpBuilder &builder, ScaledMatmulOp op,
                                    StringRef name, const Target &target,
                                    const GemmProblem &problem,
                                    const Config &config) {
  KernelBuilder b(op.getLoc(), builder);
  KernelSignature signature = declareParameters(b, op, problem, config);
  gpu::GPUFuncOp kernel =
      createKernel(b, name, target, signature, config.threads());
  // A pair's cluster shape at compile time (.reqnctapercluster): a plain
  // launch of an even grid forms the clusters.
  if (config.pair())
    kernel->setAttr(NVVM::NVVMDialect::getClusterDimAttrName(),
                    b.getDenseI32ArrayAttr(
                        {static_cast<int32_t>(config.clusterSize()), 1, 1}));
  // A pair's CTA is alone on its SM (its shared memory), so ptxas may use
  // the CTA's whole share of the register file: left to itself it aimed
  // at 96 and spilled 4 bytes in a blockwise pair of one K-block.
  if (config.pair())
    kernel->setAttr(NVVM::NVVMDialect::getMaxnregAttrName(),
                    b.getI32IntegerAttr(config.registerLimit()));
  SharedMemory::declare(b, kernel);
  setTcgen05Manifest(b, kernel, op, problem, config, signature);

  GemmArguments args;
  args.aScale = b.castTo(NVVM::NVVMMemorySpace::Global,
                         signature.getArgument(kernel, "a_scale"));
  args.bScale = b.castTo(NVVM::NVVMMemorySpace::Global,
                         signature.getArgument(kernel, "b_scale"));
  args.c = signature.getArgument(kernel, "c");
  args.aMap = signature.getArgument(kernel, "a_map");
  args.bMap = signature.getArgument(kernel, "b_map");
  if (config.tmaStore)
    args.cMap = signature.getArgument(kernel, "c_map");
  if (signature.has("a_scale_map")) {
    args.aScaleMap = signature.getArgument(kernel, "a_scale_map");
    args.bScaleMap = signature.getArgument(kernel, "b_scale_map");
  }
  Value thread = b.toI32(gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  Value warp = b.divU(thread, kWarpSize);
  // The CTA's rank in its pair: 0 is the leader, which issues the MMAs.
  Value rank;
  if (config.pair())
    rank = NVVM::ClusterId::create(b, b.getI32Type());
  SharedMemory smem = SharedMemory::get(b);
  Tcgen05Context context{b, config, problem, args, smem};
  Tcgen05Pipeline pipeline(context, rank);
  pipeline.buildInit(thread);
  if (config.pair())
    buildClusterBarrier(b);
  Value tmemBase = buildTmemAlloc(b, config, pipeline, warp);
  TileScheduler scheduler(
      b,
      TileShape{config.mmaM(), config.tileN, /*splitTiles=*/0,
                /*splitWays=*/1, /*ctasPerTile=*/config.ctaGroup},
      problem.m, problem.n);
  // The rows of a tile this CTA holds: a pair's rank r holds rows 128 r.
  auto ctaTile = [&](TileCoord tile) {
    if (config.pair())
      tile.row = b.add(tile.row, b.mul(rank, Config::kTileM));
    return tile;
  };

  auto producerWarp = scf::IfOp::create(b, b.eq(warp, Config::kProducerWarp),
                                        /*withElseRegion=*/true);
  b.setInsertionPointToStart(&producerWarp.getThenRegion().front());
  {
    auto leader = scf::IfOp::create(b, b.eq(thread, 0));
    b.setInsertionPointToStart(&leader.getThenRegion().front());
    Value loaded =
        scheduler.buildTileLoop(b.i32(0), [&](TileCoord tile, Value counter) {
          return pipeline.buildTileLoads(tile, counter);
        });
    if (config.pair())
      pipeline.buildDrain(loaded);
  }
  b.setInsertionPointToStart(&producerWarp.getElseRegion().front());
  auto mmaWarp = scf::IfOp::create(b, b.eq(warp, Config::kMmaWarp),
                                   /*withElseRegion=*/true);
  b.setInsertionPointToStart(&mmaWarp.getThenRegion().front());
  {
    // One thread issues every MMA, by its index (not elect.sync in a warp
    // loop); in a pair, the leader's.
    Value isIssuer = b.eq(thread, Config::kMmaWarp * 32);
    if (config.pair())
      isIssuer = b.andI(isIssuer, b.eq(rank, 0));
    auto issuer = scf::IfOp::create(b, isIssuer);
    b.setInsertionPointToStart(&issuer.getThenRegion().front());
    Tcgen05MainLoop mainLoop(context, pipeline);
    SmallVector<Value> counters = scheduler.buildTileLoop(
        ValueRange{b.i32(0), b.i32(0)},
        [&](TileCoord tile, ValueRange counters) {
          Tcgen05Counters next =
              mainLoop.buildTile(tmemBase, {counters[0], counters[1]});
          return SmallVector<Value>{next.stage, next.accumulator};
        });
    if (config.pair())
      mainLoop.buildDrain(counters[1]);
  }
  b.setInsertionPointToStart(&mmaWarp.getElseRegion().front());
  {
    Tcgen05Epilogue epilogue(context, pipeline);
    EpilogueThread self = epilogue.buildThread(thread);
    scheduler.buildTileLoop(b.i32(0), [&](TileCoord tile, Value counter) {
      return epilogue.buildTile(tmemBase, self, ctaTile(tile), counter);
    });
    epilogue.buildFinish(self);
  }
  b.setInsertionPointAfter(producerWarp);
  // Every accumulator has been read (the epilogue waited for the last
  // commit): the allocating warp frees tensor memory. A pair waits for its
  // peer first: the leader's MMAs write the peer's tensor memory and read
  // its shared memory, and the peer's loads and arrivals reach the
  // leader's barriers.
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::BEFORE_THREAD_SYNC);
  if (config.pair())
    buildClusterBarrier(b);
  else
    gpu::BarrierOp::create(b);
  auto deallocator = scf::IfOp::create(b, b.eq(warp, Config::kMmaWarp));
  b.setInsertionPointToStart(&deallocator.getThenRegion().front());
  NVVM::Tcgen05FenceOp::create(b, NVVM::Tcgen05FenceKind::AFTER_THREAD_SYNC);
  NVVM::Tcgen05DeallocOp::create(
      b,
      LLVM::IntToPtrOp::create(b, b.ptrType(NVVM::NVVMMemorySpace::Tensor),
                               tmemBase),
      b.i32(config.tmemAllocColumns()), getCtaGroupKind(config));
  b.setInsertionPointAfter(deallocator);
  gpu::ReturnOp::create(b);
  return kernel->getParentOfType<gpu::GPUModuleOp>();
}

FailureOr<gpu::GPUModuleOp> gemm::buildTcgen05GemmKernel(OpBuilder &builder,
                                                         ScaledMatmulOp op,
                                                         StringRef name,
                                                         const Target &target) {
  // Set by describeProblem where it succeeds (initialized for GCC's
  // -Wmaybe-uninitialized, which cannot see that).
  Tcgen05Scaling scaling = Tcgen05Scaling::blockScaled;
  FailureOr<GemmProblem> problem = describeProblem(op, scaling);
  if (failed(problem))
    return failure();
  // TMA needs 16-byte row strides: the contiguous extent of each operand.
  auto strideCheck = [&](bool mnMajor, int64_t rows,
                         const char *what) -> LogicalResult {
    int64_t contiguous = mnMajor ? rows : problem->k;
    if (contiguous % 16 == 0)
      return success();
    return op.emitOpError()
           << what << " is stored with rows of " << contiguous
           << " elements: TMA needs a multiple of 16 (16-byte row strides)";
  };
  if (failed(strideCheck(problem->aMnMajor, problem->m, "A")) ||
      failed(strideCheck(problem->bMnMajor, problem->n, "B")))
    return failure();
  if (problem->n % 8 != 0)
    return op.emitOpError("N = ")
           << problem->n << " must be a multiple of 8 (16-byte stores of C)";
  Config config = chooseTcgen05Config(target, problem->m, problem->n, scaling,
                                      problem->bMnMajor,
                                      problem->resultElement.isBF16() ? 2 : 4);
  int64_t tiles = llvm::divideCeil(problem->m, Config::kTileM) *
                  llvm::divideCeil(problem->n, config.tileN);
  if (tiles > std::numeric_limits<int32_t>::max())
    return op.emitOpError("M x N = ")
           << problem->m << " x " << problem->n << " makes " << tiles
           << " tiles, more than the kernel's 32-bit tile index counts";
  // The budgets: no IR is built for a configuration that does not fit.
  std::string why;
  if (!config.fits(target, why))
    return op.emitOpError("no sm_100a GEMM configuration fits: ") << why;
  return buildKernel(builder, op, name, target, *problem, config);
}
