//===- HopperKernel.cpp - fp8.scaled_matmul as a TMA + wgmma kernel -------===//
//
// The Hopper (sm_90a) GEMM of two K-major FP8 operands, C = A * B^T with A
// stored M x K and B stored N x K (what fp8-legalize makes of every
// scaled_matmul). Persistent CTAs, one per SM, walk 128 x N tiles of C
// (N = 64, 128, 192 or 256), 192 x 128 tiles, or, for at most 64 rows, one
// 64 x N tile each, N as narrow as gives every SM one (chooseConfig) with:
//
//  - a producer warpgroup, of which one thread issues the TMA loads
//    (cp.async.bulk.tensor, 128-byte swizzle) of each 128-deep K-block of A
//    and B into a ring of `stages` shared-memory buffers, each guarded by a
//    "full" mbarrier (transaction bytes) and an "empty" one (consumers done);
//    it runs ahead into the next tile while the consumers store this one;
//  - one, two or three consumer warpgroups, each multiplying 64 rows of A with
//    the B tile by wgmma.mma_async m64nNk32 on shared-memory descriptors,
//    then storing their rows of C through a swizzled shared-memory buffer
//    by TMA.
//
// With 192 x 128 tiles, a short last round (at most a third of the SMs'
// worth of tiles) is split: each of its tiles becomes three 64-row
// sub-tiles on three CTAs, whose consumers share the sub-tile's K-blocks
// round-robin and add their sums through shared memory.
//
// Accumulation follows DESIGN.md section 4: with `promoted`, each K-block
// (the finer operand's, or 128 when both span K) is accumulated by the tensor
// cores alone, then multiplied by its scales and added to f32 registers (the
// tensor cores' FP8 accumulator keeps too few bits for long sums); `fast`
// keeps one tensor-core accumulator over all of K. Scales that span K are
// applied once in the epilogue; the others come with each stage (TMA for
// col_major_tma per-row scales, a 16-byte bulk copy for B's 128x128 blocks)
// or are read from global memory (L2 resident) a K-block ahead of their use.
//
// Registers: the producer gives its registers back (setmaxnreg.dec) so that
// the consumers can hold an accumulator and the promoted sums; the kernel
// declares its entry count (.maxnreg), without which ptxas ignores
// setmaxnreg.
//
// This file checks what only sm_90a asks of the op, declares the kernel's
// parameters and manifest, and assembles the parts beside it in Sm90/ (the
// configuration HopperGemmConfig, the pipeline HopperPipeline, the main
// loop HopperMainLoop and the epilogue HopperEpilogue) with the shared
// ones in Common/ (tile schedulers, shared memory, scale loads, manifest).
// Gemm/GemmKernel.cpp makes the checks both chips share first.
//
//===----------------------------------------------------------------------===//

#include "../../OpKernels.h"

#include "../../Program/KernelBuilder.h"
#include "../../Program/KernelSignature.h"
#include "../../Program/KernelUtils.h"
#include "../Common/GemmChecks.h"
#include "../Common/GemmManifest.h"
#include "../Common/GemmProblem.h"
#include "../Common/GroupedTileScheduler.h"
#include "../Common/TileScheduler.h"
#include "../HighPrecisionGemm.h"
#include "Fragment.h"
#include "HopperEpilogue.h"
#include "HopperGemmConfig.h"
#include "HopperKernel.h"
#include "HopperMainLoop.h"
#include "HopperPipeline.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/LinalgInterfaces.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <limits>
#include <optional>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;
namespace schema = mlir::fp8::manifest;

static GemmProblem describeProblem(ScaledMatmulOp op, const Target &target) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  GemmProblem problem;
  problem.m = aType.getDimSize(0);
  problem.k = aType.getDimSize(1);
  problem.n = bType.getDimSize(0);
  problem.aElement = aType.getElementType();
  problem.bElement = bType.getElementType();
  problem.numKBlocks =
      llvm::divideCeil(problem.k, aOperandLayout(problem).kBlockElements());
  problem.resultElement =
      cast<RankedTensorType>(op.getResult().getType()).getElementType();
  // `fast` skips promotion only where no scale varies along K; otherwise it
  // is `promoted` (docs/Numerics.md).
  problem.promotion = op.getPromotionInterval();
  if (ShapedType::isDynamic(problem.promotion))
    problem.promotion = op.getAccumulate() == Accumulate::fast ? 0 : kTileK;
  problem.aScaling = describeScaling(
      op.getAScaling(), cast<RankedTensorType>(op.getAScale().getType()),
      op.getAScaleLayout(), target);
  problem.bScaling = describeScaling(
      op.getBScaling(), cast<RankedTensorType>(op.getBScale().getType()),
      op.getBScaleLayout(), target);
  return problem;
}

/// The TMA box of an operand's `rows` rows of M or N per K-block, {rows,
/// cols} as stored: the rows and a K-block K-major; the K-block's rows and
/// one 64-element atom MN-major.
static SmallVector<int64_t> operandBox(const WgmmaOperandLayout &layout,
                                       int64_t rows) {
  if (layout.mnMajor)
    return {layout.kBlockElements(), layout.boxInner()};
  return {rows, layout.boxInner()};
}

/// The kernel's parameters: the buffers (`signature`, from the op), then
/// the tensor maps the configuration needs. Every one is a device pointer.
static KernelSignature declareParameters(KernelBuilder &b,
                                         KernelSignature signature,
                                         const GemmProblem &problem,
                                         const HopperGemmConfig &config) {
  auto ptr = b.ptrType(NVVM::NVVMMemorySpace::Generic);
  signature.addTensorMap("a_map", "a",
                         operandBox(aOperandLayout(problem), config.tileM),
                         Swizzle::b128, ptr);
  signature.addTensorMap("b_map", "b",
                         operandBox(bOperandLayout(problem), config.tileN),
                         Swizzle::b128, ptr);
  int64_t resultBytes = problem.resultElement.isBF16() ? 2 : 4;
  if (config.tmaStore)
    signature.addTensorMap("c_map", "c",
                           {kConsumerRows, kSwizzleBytes / resultBytes},
                           Swizzle::b128, ptr);
  // One K-block's row of a transposed scale tensor per stage.
  if (config.aScaleBytes)
    signature.addTensorMap("a_scale_map", "a_scale",
                           {1, config.tileM + config.aScaleSlack},
                           Swizzle::none, ptr);
  if (config.bScaleMapped())
    signature.addTensorMap("b_scale_map", "b_scale", {1, config.tileN},
                           Swizzle::none, ptr);
  // A split tile's 64 rows of A per stage.
  if (config.splitTiles)
    signature.addTensorMap("a_split_map", "a", {kConsumerRows, kTileK},
                           Swizzle::b128, ptr);
  return signature;
}

/// The launch of the sm_90a kernel for the manifest: grid, block, shared
/// memory, tile, and its pipeline.
static GemmLaunch getHopperLaunch(KernelBuilder &b,
                                  const HopperGemmConfig &config,
                                  const GemmProblem &problem) {
  return GemmLaunch{
      config.gridSize,
      config.threads(),
      config.sharedBytes(),
      {config.tileM, config.tileN, aOperandLayout(problem).kBlockElements()},
      {b.getNamedAttr(schema::kStages, b.getI64IntegerAttr(config.stages)),
       b.getNamedAttr(schema::kSplitTiles,
                      b.getI64IntegerAttr(config.splitTiles))},
      /*cluster=*/{1, 1, 1},
      /*pdl=*/true};
}

/// The arguments the body uses, by the names the signature gave them (A and
/// B are read through their tensor maps only).
static GemmArguments getArguments(KernelBuilder &b, gpu::GPUFuncOp kernel,
                                  const KernelSignature &signature) {
  auto optional = [&](StringRef name) {
    return signature.has(name) ? Value(signature.getArgument(kernel, name))
                               : Value();
  };
  GemmArguments args;
  // A high-precision matmul has no scales.
  if (signature.has("a_scale")) {
    args.aScale = b.castTo(NVVM::NVVMMemorySpace::Global,
                           signature.getArgument(kernel, "a_scale"));
    args.bScale = b.castTo(NVVM::NVVMMemorySpace::Global,
                           signature.getArgument(kernel, "b_scale"));
  }
  args.c = signature.getArgument(kernel, "c");
  args.aMap = signature.getArgument(kernel, "a_map");
  args.bMap = signature.getArgument(kernel, "b_map");
  args.cMap = optional("c_map");
  args.aScaleMap = optional("a_scale_map");
  args.bScaleMap = optional("b_scale_map");
  args.aSplitMap = optional("a_split_map");
  if (signature.has("group_rows"))
    args.groupRows = b.castTo(NVVM::NVVMMemorySpace::Global,
                              signature.getArgument(kernel, "group_rows"));
  return args;
}

/// Programmatic dependent launch (docs/gpu/gemm-sm90a.md): launched with
/// the PDL attribute, this grid may start while the previous one in the stream
/// is still running. Each role waits here, after the setup that touches no
/// global memory (barrier init, tensor-map prefetch, setmaxnreg) and before
/// its first global access (TMA loads, scale and group_rows loads, C
/// stores), until that grid has completed and its writes are visible.
/// Without the attribute the wait returns at once.
static void waitForPrerequisiteGrid(KernelBuilder &b) {
  NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::wait);
}

/// The producer warpgroup: it gives its registers back, and one thread
/// loads every K-block of this CTA's tiles, then of its split sub-tile.
/// The loop over a CTA's tiles: the plain scheduler's or the grouped one's.
using TileLoopFn = function_ref<Value(Value counter, TileLoopBody body)>;

static void buildProducer(KernelBuilder &b, const HopperGemmConfig &config,
                          Value thread, TileLoopFn tileLoop,
                          TileScheduler *scheduler, HopperPipeline &pipeline) {
  NVVM::SetMaxRegisterOp::create(b, config.producerRegisters(),
                                 NVVM::SetMaxRegisterAction::decrease);
  waitForPrerequisiteGrid(b);
  auto leader = scf::IfOp::create(b, b.eq(thread, 0));
  b.setInsertionPointToStart(&leader.getThenRegion().front());
  Value loaded = tileLoop(b.i32(0), [&](TileCoord tile, Value counter) {
    return pipeline.buildTileLoads(tile, Value(), counter);
  });
  if (config.splitTiles)
    scheduler->buildSplitTile(loaded,
                              [&](TileCoord tile, Value part, Value counter) {
                                pipeline.buildTileLoads(tile, part, counter);
                              });
}

/// A consumer warpgroup: it takes the registers the producer gave back, and
/// multiplies and stores its 64 rows of each tile, then its share of its
/// split sub-tile.
static void buildConsumer(KernelBuilder &b, const HopperGemmConfig &config,
                          const GemmProblem &problem, Value thread,
                          TileLoopFn tileLoop, TileScheduler *scheduler,
                          HopperMainLoop &mainLoop, HopperEpilogue &epilogue) {
  NVVM::SetMaxRegisterOp::create(b, config.consumerRegisters(),
                                 NVVM::SetMaxRegisterAction::increase);
  waitForPrerequisiteGrid(b);
  // The fragment's tile-invariant part is built above the tile loop:
  // computed in the loop, it changes the PTX of every GEMM.
  ThreadFragment fragment = mainLoop.buildFragment(thread);
  mainLoop.buildFirstTurn(fragment);
  Value counter = tileLoop(b.i32(0), [&](TileCoord tile, Value counter) {
    ThreadFragment inTile = fragment.atTile(b, tile);
    MainLoopResult result =
        problem.promotion == 0
            ? mainLoop.buildFastLoop(counter, inTile)
            : mainLoop.buildPromotedLoop(counter, inTile, tile);
    epilogue.store(result.sums, inTile, tile);
    return result.counter;
  });
  if (config.splitTiles)
    scheduler->buildSplitTile(counter, [&](TileCoord tile, Value part,
                                           Value counter) {
      ThreadFragment inPart = fragment.forGroup(b, part).atTile(b, tile);
      SmallVector<Value> sums = mainLoop.buildSplitLoop(counter, inPart, tile);
      epilogue.storeSplit(sums, inPart, tile);
    });
  if (problem.grouped())
    epilogue.zeroRowsOutsideGroups();
  epilogue.buildFinish();
}

/// Sets a kernel's manifest entry from its signature and launch.
using ManifestFn =
    function_ref<void(KernelBuilder &, gpu::GPUFuncOp, const KernelSignature &,
                      const GemmLaunch &)>;

/// The kernel of `problem` whose buffers `buffers` declares (bound to the
/// source op at `loc`).
static FailureOr<gpu::GPUModuleOp>
buildKernel(OpBuilder &builder, Location loc, StringRef name,
            const Target &target, const GemmProblem &problem,
            const HopperGemmConfig &config, KernelSignature buffers,
            ManifestFn setManifestEntry) {
  KernelBuilder b(loc, builder);
  KernelSignature signature =
      declareParameters(b, std::move(buffers), problem, config);
  gpu::GPUFuncOp kernel =
      createKernel(b, name, target, signature, config.threads());
  // A fixed register count at entry (65536 / threads), without which
  // ptxas ignores setmaxnreg (warning C7508) whenever it allocates fewer.
  kernel->setAttr("nvvm.maxnreg", b.getI32IntegerAttr(config.entryRegisters()));
  SharedMemory::declare(b, kernel);
  setManifestEntry(b, kernel, signature, getHopperLaunch(b, config, problem));

  // Let a PDL-launched next grid start now: its launch and setup then
  // overlap this grid's work. This cannot hold up this grid: a dependent is
  // scheduled only once every CTA here has started (and issued this), its
  // CTAs take only SMs this grid leaves free (one CTA per SM fills an SM's
  // shared memory), and they wait (above) for this grid to complete.
  NVVM::GriddepcontrolOp::create(b, NVVM::GridDepActionKind::launch_dependents);
  GemmArguments args = getArguments(b, kernel, signature);
  Value thread = b.toI32(gpu::ThreadIdOp::create(b, gpu::Dimension::x));
  std::optional<TileScheduler> scheduler;
  std::optional<GroupedTileScheduler> grouped;
  if (problem.grouped())
    grouped.emplace(b, config.tileShape(), problem, args.groupRows);
  else
    scheduler.emplace(b, config.tileShape(), problem.m, problem.n);
  auto tileLoop = [&](Value counter, TileLoopBody body) {
    return grouped ? grouped->buildTileLoop(counter, body)
                   : scheduler->buildTileLoop(counter, body);
  };
  TileScheduler *splits = scheduler ? &*scheduler : nullptr;
  SharedMemory smem = SharedMemory::get(b);
  HopperContext context{b, config, problem, args, smem};
  HopperPipeline pipeline(context);
  pipeline.buildInit(thread);
  ScaleReader scales(context);
  std::optional<SubBlockScales> subBlocks;
  if (config.subBlockScales)
    subBlocks.emplace(context);
  std::optional<TileScaleCheck> scaleCheck;
  if (config.checkTileScales)
    scaleCheck.emplace(context);
  HopperMainLoop mainLoop(context, pipeline, scales,
                          subBlocks ? &*subBlocks : nullptr,
                          scaleCheck ? &*scaleCheck : nullptr);
  HopperEpilogue epilogue(context, scales, thread);

  auto role = scf::IfOp::create(b, b.ult(thread, kWarpgroup),
                                /*withElseRegion=*/true);
  b.setInsertionPointToStart(&role.getThenRegion().front());
  buildProducer(b, config, thread, tileLoop, splits, pipeline);
  b.setInsertionPointToStart(&role.getElseRegion().front());
  buildConsumer(b, config, problem, thread, tileLoop, splits, mainLoop,
                epilogue);
  b.setInsertionPointAfter(role);
  gpu::ReturnOp::create(b);
  return kernel->getParentOfType<gpu::GPUModuleOp>();
}

/// The FP8 kernels' K and N: 16-byte row strides for TMA, and N in wgmma's
/// steps of 8.
static LogicalResult checkFp8KAndN(Operation *op, int64_t k, int64_t n) {
  if (k % 16 != 0)
    return op->emitOpError("K = ")
           << k << " must be a multiple of 16: TMA needs 16-byte row strides";
  if (n % 8 != 0)
    return op->emitOpError("N = ") << n << " must be a multiple of 8";
  return success();
}

/// The scales of one row group must be constant over a CTA's rows (its
/// columns) unless they are per row: 1, a multiple of 128 or `*` rows.
static LogicalResult checkScaleRowBlock(Operation *op, ScalingAttr scaling,
                                        StringRef which) {
  int64_t rowBlock = scaling.getTile()[0];
  if (ShapedType::isDynamic(rowBlock) || rowBlock == 1 || rowBlock % 128 == 0)
    return success();
  return op->emitOpError()
         << which << "_scaling tile " << formatTile(scaling.getTile())
         << ": the GEMM kernel takes 1, a multiple of 128 or '*' rows per "
            "scale";
}

/// The promoted main loop adds a partial sum every `promotion` of K within
/// its 128-deep K-blocks (32 or 64), or once per K-block: a K-block that
/// neither divides 128 nor is a multiple of it (96, 160, 192) would promote
/// across a scale block's edge.
static LogicalResult checkPromotionInterval(Operation *op, int64_t promotion) {
  if (ShapedType::isDynamic(promotion) || kTileK % promotion == 0 ||
      promotion % kTileK == 0)
    return success();
  return op->emitOpError()
         << "K-block " << promotion
         << ": the sm_90a GEMM promotes every 32 or 64 of K or every "
            "multiple of 128 (a K-block that divides 128 or is a multiple "
            "of it)";
}

FailureOr<gpu::GPUModuleOp> gemm::buildHopperGemmKernel(OpBuilder &builder,
                                                        ScaledMatmulOp op,
                                                        StringRef name,
                                                        const Target &target) {
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  if (op.getContracting() != ArrayRef<int64_t>{1, 1})
    return op.emitOpError("wgmma needs both operands K-major (contracting = "
                          "[1, 1]); run fp8-legalize{chip=")
           << target.getName() << "} first";
  for (MatmulSide side : kMatmulSides)
    if (op.getScaleLayout(side) == ScaleLayout::tcgen05)
      return op.emitOpError()
             << ScaledMatmulOp::getSideName(side)
             << "_scale_layout tcgen05 is sm_100a's scale-factor layout; the "
                "sm_90a GEMM reads row_major or col_major_tma scales";
  int64_t k = aType.getDimSize(1), n = bType.getDimSize(0);
  if (failed(checkFp8KAndN(op, k, n)) ||
      failed(checkScaleRowBlock(op, op.getAScaling(), "a")) ||
      failed(checkScaleRowBlock(op, op.getBScaling(), "b")))
    return failure();
  if (failed(checkPromotionInterval(op, op.getPromotionInterval())))
    return failure();
  bool fast = op.getAccumulate() == Accumulate::fast &&
              ShapedType::isDynamic(op.getPromotionInterval());
  int64_t m = aType.getDimSize(0);
  GemmProblem problem = describeProblem(op, target);
  HopperGemmConfig config = chooseConfig(target, problem.m, problem.n, fast,
                                         op.getPromotionInterval(),
                                         problem.aScaling, problem.bScaling);
  chooseTileScaleCheck(config, problem.m, problem.n, problem.numKBlocks,
                       op.getPromotionInterval(), problem.aScaling,
                       problem.bScaling);
  if (int64_t tiles = config.tileCount(m, n);
      tiles > std::numeric_limits<int32_t>::max())
    return op.emitOpError("M x N = ")
           << m << " x " << n << " makes " << tiles << " tiles of "
           << config.tileM << " x " << config.tileN
           << ", more than the kernel's 32-bit tile index counts (2^31 - 1)";
  KernelSignature buffers = declareGemmBuffers(
      op, problem, LLVM::LLVMPointerType::get(op.getContext()));
  return buildKernel(
      builder, op.getLoc(), name, target, problem, config, std::move(buffers),
      [&](KernelBuilder &b, gpu::GPUFuncOp kernel,
          const KernelSignature &signature, const GemmLaunch &launch) {
        setGemmManifest(b, kernel, op, problem, signature, launch);
      });
}

/// The K-block of a scaling of a K-major operand (dynamic for `*`).
static int64_t kBlockOf(ScalingAttr scaling) { return scaling.getTile()[1]; }

FailureOr<gpu::GPUModuleOp>
kernels::buildGroupedGemmKernel(OpBuilder &builder, GroupedScaledMatmulOp op,
                                StringRef name, const Target &target) {
  if (!target.hasGemmKernel() || target.isBlackwell())
    return op.emitOpError("convert-fp8-to-nvvm has no ")
           << target.getName()
           << " grouped GEMM kernel yet; chip=sm_90a has one";
  auto aType = cast<RankedTensorType>(op.getA().getType());
  auto bType = cast<RankedTensorType>(op.getB().getType());
  auto aScaleType = cast<RankedTensorType>(op.getAScale().getType());
  auto bScaleType = cast<RankedTensorType>(op.getBScale().getType());
  auto resultType = cast<RankedTensorType>(op.getResult().getType());
  if (!aType.hasStaticShape() || !bType.hasStaticShape() ||
      !aScaleType.hasStaticShape() || !bScaleType.hasStaticShape() ||
      !resultType.hasStaticShape() ||
      !cast<ShapedType>(op.getGroupRows().getType()).hasStaticShape())
    return op.emitOpError("convert-fp8-to-nvvm needs static shapes for a "
                          "grouped GEMM kernel");
  if (op.getGroupCount() == 0)
    return op.emitOpError("convert-fp8-to-nvvm: a grouped GEMM kernel needs "
                          "at least one group");
  bool masked = op.getLayout() == GroupLayout::masked;
  GemmProblem problem;
  problem.groups.count = op.getGroupCount();
  problem.groups.masked = masked;
  problem.groups.capacity = masked ? aType.getDimSize(1) : 0;
  problem.groups.bScalesPerGroup =
      bScaleType.getDimSize(1) * bScaleType.getDimSize(2);
  problem.m =
      masked ? aType.getDimSize(0) * aType.getDimSize(1) : aType.getDimSize(0);
  problem.n = bType.getDimSize(1);
  problem.k = bType.getDimSize(2);
  problem.aElement = aType.getElementType();
  problem.bElement = bType.getElementType();
  problem.resultElement = resultType.getElementType();
  problem.numKBlocks =
      llvm::divideCeil(problem.k, aOperandLayout(problem).kBlockElements());
  // The tile loop and the maps address rows of A and of B's groups.
  if (failed(checkTmaExtents(op, {{problem.m, "M (all groups' rows)"},
                                  {problem.groups.count * problem.n, "G x N"},
                                  {problem.k, "K"}})) ||
      failed(checkFp8KAndN(op, problem.k, problem.n)))
    return failure();
  // A's scales are read per row of the (all groups') rows, or as one row
  // of scales for all rows (contiguous) or for each group's (masked); B's
  // as the plain GEMM reads them, per group.
  int64_t aRows = op.getAScaling().getTile()[0];
  if (aRows != 1 && !ShapedType::isDynamic(aRows))
    return op.emitOpError()
           << "a_scaling tile " << formatTile(op.getAScaling().getTile())
           << ": the grouped GEMM kernel takes one scale per row of A or "
              "one for all of a group's rows";
  if (masked && ShapedType::isDynamic(aRows))
    problem.groups.aScalesPerGroup =
        aScaleType.getDimSize(1) * aScaleType.getDimSize(2);
  if (failed(checkScaleRowBlock(op, op.getBScaling(), "b")))
    return failure();
  // The scales as 2-D [rows, K-blocks]: A's over all groups' rows, B's of
  // one group.
  auto flat = [](RankedTensorType type) {
    ArrayRef<int64_t> shape = type.getShape();
    int64_t rows = 1;
    for (int64_t extent : shape.drop_back())
      rows *= extent;
    return RankedTensorType::get({rows, shape.back()}, type.getElementType());
  };
  // A contiguous A's col_major_tma scales are [K-blocks, M'] over all
  // groups' rows: a tile's come by TMA at its first row, wherever its group
  // starts (rows of the next group, or zeros past M, fill the box; the
  // epilogue stores none of them).
  problem.aScaling = describeScaling(op.getAScaling(), flat(aScaleType),
                                     op.getAScaleLayout(), target);
  problem.bScaling =
      describeScaling(op.getBScaling(),
                      RankedTensorType::get(bScaleType.getShape().drop_front(),
                                            bScaleType.getElementType()),
                      ScaleLayout::row_major, target);
  int64_t kBlockA = kBlockOf(op.getAScaling());
  int64_t kBlockB = kBlockOf(op.getBScaling());
  int64_t promotion = ShapedType::isDynamic(kBlockA) ? kBlockB
                      : ShapedType::isDynamic(kBlockB)
                          ? kBlockA
                          : std::min(kBlockA, kBlockB);
  bool fast = op.getAccumulate() == Accumulate::fast &&
              ShapedType::isDynamic(promotion);
  if (failed(checkPromotionInterval(op, promotion)))
    return failure();
  problem.promotion =
      ShapedType::isDynamic(promotion) ? (fast ? 0 : kTileK) : promotion;
  HopperGemmConfig config =
      chooseConfig(target, problem.m, problem.n, fast, promotion,
                   problem.aScaling, problem.bScaling, /*grouped=*/true);
  // The tile walk counts in i32: at most one partial row tile per group
  // beyond the whole ones.
  int64_t rowTiles =
      llvm::divideCeil(problem.m, config.tileM) + problem.groups.count;
  if (int64_t tiles = rowTiles * llvm::divideCeil(problem.n, config.tileN);
      tiles > std::numeric_limits<int32_t>::max())
    return op.emitOpError("the groups' ")
           << tiles << " tiles of " << config.tileM << " x " << config.tileN
           << " exceed the kernel's 32-bit tile index (2^31 - 1)";
  KernelSignature buffers = declareGroupedGemmBuffers(
      op, problem, LLVM::LLVMPointerType::get(op.getContext()));
  return buildKernel(
      builder, op.getLoc(), name, target, problem, config, std::move(buffers),
      [&](KernelBuilder &b, gpu::GPUFuncOp kernel,
          const KernelSignature &signature, const GemmLaunch &launch) {
        setGroupedGemmManifest(b, kernel, op, problem, signature, launch);
      });
}

bool fp8::isHighPrecisionGemm(Operation *op) {
  return isa<linalg::LinalgOp>(op) && op->hasAttr(kHighPrecisionAttrName) &&
         linalg::isaContractionOpInterface(cast<linalg::LinalgOp>(op));
}

/// Whether `value` is a linalg.fill of +0.0 or -0.0 (the kernel writes C
/// rather than adding to it).
static bool isZeroFill(Value value) {
  auto fill = value.getDefiningOp<linalg::FillOp>();
  if (!fill)
    return false;
  auto constant = fill.value().getDefiningOp<arith::ConstantOp>();
  auto attr = constant ? dyn_cast<FloatAttr>(constant.getValue()) : nullptr;
  return attr && attr.getValue().isZero();
}

FailureOr<gpu::GPUModuleOp>
kernels::buildHighPrecisionGemmKernel(OpBuilder &builder, linalg::LinalgOp op,
                                      StringRef name, const Target &target) {
  if (!target.hasGemmKernel() || target.isBlackwell())
    return op.emitOpError("convert-fp8-to-nvvm has no ")
           << target.getName()
           << " kernel for a matmul kept in high precision yet; chip=sm_90a "
              "has one";
  FailureOr<linalg::ContractionDimensions> dims =
      linalg::inferContractionDims(op);
  if (op.getNumDpsInputs() != 2 || op.getNumDpsInits() != 1 || failed(dims) ||
      dims->m.size() != 1 || dims->n.size() != 1 || dims->k.size() != 1 ||
      !dims->batch.empty() || !op.hasPureTensorSemantics())
    return op.emitOpError("convert-fp8-to-nvvm: a matmul kept in high "
                          "precision needs one M, N and K dim and no batch");
  OpOperand *a = op.getDpsInputOperand(0), *b = op.getDpsInputOperand(1);
  OpOperand *c = op.getDpsInitOperand(0);
  auto aType = dyn_cast<RankedTensorType>(a->get().getType());
  auto bType = dyn_cast<RankedTensorType>(b->get().getType());
  auto cType = dyn_cast<RankedTensorType>(c->get().getType());
  if (!aType || !bType || !cType || !aType.hasStaticShape() ||
      !bType.hasStaticShape() || aType.getRank() != 2 || bType.getRank() != 2)
    return op.emitOpError("convert-fp8-to-nvvm needs static rank-2 operands "
                          "for a GEMM kernel");
  Type element = aType.getElementType();
  if (!(element.isBF16() || element.isF16()) ||
      bType.getElementType() != element)
    return op.emitOpError("convert-fp8-to-nvvm: the high-precision GEMM takes "
                          "two bf16 or two f16 operands, not ")
           << aType.getElementType() << " x " << bType.getElementType();
  Type result = cType.getElementType();
  if (!(result.isF32() || result.isBF16()))
    return op.emitOpError("convert-fp8-to-nvvm: the high-precision GEMM "
                          "writes f32 or bf16, not ")
           << result;
  if (!isZeroFill(c->get()))
    return op.emitOpError("convert-fp8-to-nvvm: the high-precision GEMM "
                          "writes C: its init must be a linalg.fill of zero");
  // Where each operand's dims are: C must be (m, n); A (m, k) K-major or
  // (k, m) MN-major; B (n, k) or (k, n).
  unsigned mDim = dims->m[0], nDim = dims->n[0], kDim = dims->k[0];
  auto positionOf = [&](OpOperand *operand, unsigned dim) -> int64_t {
    AffineMap map = op.getMatchingIndexingMap(operand);
    for (unsigned r = 0; r < map.getNumResults(); ++r)
      if (map.getResult(r) == getAffineDimExpr(dim, op.getContext()))
        return r;
    return -1;
  };
  if (positionOf(c, mDim) != 0 || positionOf(c, nDim) != 1)
    return op.emitOpError("convert-fp8-to-nvvm: the high-precision GEMM "
                          "writes C as M x N, not transposed");
  GemmProblem problem;
  problem.aElement = element;
  problem.bElement = element;
  problem.resultElement = result;
  problem.aMnMajor = positionOf(a, kDim) == 0;
  problem.bMnMajor = positionOf(b, kDim) == 0;
  SmallVector<int64_t> loops = op.getStaticLoopRanges();
  problem.m = loops[mDim];
  problem.n = loops[nDim];
  problem.k = loops[kDim];
  problem.numKBlocks =
      llvm::divideCeil(problem.k, aOperandLayout(problem).kBlockElements());
  problem.promotion = 0;
  problem.unscaled = true;
  // TMA needs 16-byte row strides; MN-major rows are M or N long, and an
  // MN-major tile takes whole 64-element atoms.
  int64_t aRow = aType.getDimSize(1), bRow = bType.getDimSize(1);
  if ((aRow * 2) % 16 != 0 || (bRow * 2) % 16 != 0)
    return op.emitOpError("convert-fp8-to-nvvm: rows of ")
           << aRow << " and " << bRow
           << " elements: TMA needs 16-byte row strides";
  if (problem.n % 8 != 0)
    return op.emitOpError("N = ") << problem.n << " must be a multiple of 8";
  if (failed(checkTmaExtents(
          op, {{problem.m, "M"}, {problem.n, "N"}, {problem.k, "K"}})))
    return failure();
  // No scales: placed like tensorwise ones, which the kernel never reads.
  OperandScaling none{
      ShapedType::kDynamic, ShapedType::kDynamic, 1, false, false, false};
  problem.aScaling = none;
  problem.bScaling = none;
  // An MN-major B is loaded in whole 64-element atoms of N.
  HopperGemmConfig config = chooseConfig(
      target, problem.m, problem.n, /*fast=*/true, ShapedType::kDynamic, none,
      none, /*grouped=*/false, problem.bMnMajor ? 64 : 8);
  if (int64_t tiles = config.tileCount(problem.m, problem.n);
      tiles > std::numeric_limits<int32_t>::max())
    return op.emitOpError("M x N makes ")
           << tiles << " tiles, more than the kernel's 32-bit tile index "
           << "counts (2^31 - 1)";
  KernelSignature buffers = declareHighPrecisionBuffers(
      op, problem, LLVM::LLVMPointerType::get(op.getContext()));
  return buildKernel(
      builder, op.getLoc(), name, target, problem, config, std::move(buffers),
      [&](KernelBuilder &b, gpu::GPUFuncOp kernel,
          const KernelSignature &signature, const GemmLaunch &launch) {
        setHighPrecisionManifest(b, kernel, op, problem, signature, launch);
      });
}
