//===- FP8ToNVVM.cpp - fp8 ops to GPU kernels and PTX ---------------------===//
//
// convert-fp8-to-nvvm builds one gpu.module per fp8 op; fp8-to-ptx lowers
// them to NVVM and serializes them to PTX. fp8-emit (Emit.cpp) writes the
// PTX and a manifest out.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "Gemm/HighPrecisionGemm.h"
#include "OpKernels.h"
#include "Program/ProgrammaticLaunch.h"

#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_CONVERTFP8TONVVM
#include "fp8/Conversion/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// CUDA's launch limits: grid.x below 2^31, grid.y and grid.z below 2^16.
static constexpr int64_t kMaxGridX = (int64_t(1) << 31) - 1;
static constexpr int64_t kMaxGridYZ = 65535;

/// A buffer larger than this is no GPU's (and its byte count is far from
/// overflowing the manifest's 64-bit integers).
static constexpr int64_t kMaxBufferBytes = int64_t(1) << 48;

/// Whether the kernel built for `op` can be launched as its manifest says:
/// a grid within CUDA's limits that has at least one CTA (an empty operand
/// gives an empty grid), and buffers whose byte counts fit.
static LogicalResult checkLaunchable(Operation *op, gpu::GPUModuleOp module) {
  for (auto func : module.getOps<gpu::GPUFuncOp>()) {
    auto manifest = func->getAttrOfType<DictionaryAttr>(kManifestAttrName);
    if (!manifest)
      continue;
    auto grid = manifest.getAs<ArrayAttr>(manifest::kGrid);
    SmallVector<int64_t> extents;
    for (Attribute extent : grid)
      extents.push_back(cast<IntegerAttr>(extent).getInt());
    auto gridText = [&] {
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "[";
      llvm::interleaveComma(extents, os);
      os << "]";
      return text;
    };
    if (llvm::is_contained(extents, 0)) {
      InFlightDiagnostic diag =
          op->emitOpError("convert-fp8-to-nvvm: the kernel would launch an "
                          "empty grid ")
          << gridText() << ": an operand has no elements (";
      llvm::interleaveComma(op->getOperandTypes(), diag);
      return diag << ")";
    }
    if (extents[0] > kMaxGridX || extents[1] > kMaxGridYZ ||
        extents[2] > kMaxGridYZ)
      return op->emitOpError("convert-fp8-to-nvvm: the kernel's grid ")
             << gridText() << " exceeds CUDA's launch limits (x < 2^31, "
             << "y and z < 2^16)";
  }
  return success();
}

/// Whether every shaped operand and result of `op` has elements (checked
/// before a kernel is built: kernel builders divide by tile extents that an
/// empty dimension makes 0, and an empty grid cannot launch) and a byte
/// count that fits a GPU buffer (none overflows 64 bits on the way).
static LogicalResult checkBufferSizes(Operation *op) {
  auto types =
      llvm::concat<const Type>(op->getOperandTypes(), op->getResultTypes());
  if (llvm::any_of(types, [](Type type) {
        auto shaped = dyn_cast<ShapedType>(type);
        return shaped && llvm::is_contained(shaped.getShape(), 0);
      })) {
    InFlightDiagnostic diag =
        op->emitOpError("convert-fp8-to-nvvm: the kernel would launch an "
                        "empty grid: an operand has no elements (");
    llvm::interleaveComma(op->getOperandTypes(), diag);
    return diag << ")";
  }
  auto check = [&](Type type) -> LogicalResult {
    auto shaped = dyn_cast<ShapedType>(type);
    if (!shaped || !shaped.hasStaticShape())
      return success();
    int64_t bytes =
        llvm::divideCeil(shaped.getElementType().getIntOrFloatBitWidth(), 8);
    for (int64_t extent : shaped.getShape())
      if (extent != 0 && bytes > kMaxBufferBytes / extent)
        return op->emitOpError("convert-fp8-to-nvvm: ")
               << type << " is larger than any GPU buffer (2^48 bytes)";
      else
        bytes *= extent;
    return success();
  };
  for (Type type : types)
    if (failed(check(type)))
      return failure();
  return success();
}

bool fp8::needsKernel(Operation *op) {
  return isa_and_nonnull<FP8Dialect, linalg::LinalgDialect>(op->getDialect()) ||
         (isa_and_nonnull<arith::ArithDialect>(op->getDialect()) &&
          llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>));
}

/// Names a kernel after its function, `what` it computes and its position.
using KernelNamer = function_ref<std::string(Operation *op, StringRef what)>;

/// Whether `op` launches nothing: not an op of a function's body (ops inside
/// bodies belong to their op), or a view or constant (reshapes are views of
/// their source's buffer; constants are cloned into the kernels that use
/// them).
static bool launchesNothing(Operation *op) {
  return !op->getParentOfType<func::FuncOp>() ||
         isa<func::FuncOp, func::ReturnOp, tensor::EmptyOp,
             tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op) ||
         op->hasTrait<OpTrait::ConstantLike>() ||
         op->getParentOp() != op->getParentOfType<func::FuncOp>();
}

/// The kernels of tensor and linalg ops: slices, transposes, elementwise ops
/// and reductions; a matmul left unquantized has none.
static FailureOr<gpu::GPUModuleOp> buildTensorKernel(OpBuilder &b,
                                                     Operation *op,
                                                     KernelNamer kernelName,
                                                     const Target &target) {
  using namespace kernels;
  auto sized = [&] { return succeeded(checkBufferSizes(op)); };
  if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp, tensor::PadOp>(op)) {
    if (!sized())
      return failure();
    return buildSliceKernel(
        b, op, kernelName(op, op->getName().stripDialect().str()), target);
  }
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op);
      transpose && fitsTiledTransposeKernel(transpose)) {
    if (!sized())
      return failure();
    return buildTiledTransposeKernel(b, transpose, kernelName(op, "transpose"),
                                     target);
  }
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
      linalgOp && !linalg::isaContractionOpInterface(linalgOp)) {
    if (!sized())
      return failure();
    std::string name = kernelName(op, op->getName().stripDialect().str());
    return linalgOp.getNumLoops() == linalgOp.getNumParallelLoops()
               ? buildElementwiseKernel(b, linalgOp, name, target)
               : buildReduceKernel(b, linalgOp, name, target);
  }
  InFlightDiagnostic diag =
      op->emitOpError("convert-fp8-to-nvvm: has no GPU kernel");
  if (isa<linalg::LinalgOp>(op))
    diag << " (a matmul left unquantized: give its operands an "
            "fp8.role so that fp8-quantize-matmuls quantizes it)";
  return diag;
}

/// The table from op to kernel builder: `op`'s kernel, failure (reported at
/// the op), or a null module where the op launches nothing. The fp8 ops
/// come first, then a matmul kept in high precision (a linalg op), then the
/// other ops of a function's body.
static FailureOr<gpu::GPUModuleOp> buildKernelOf(OpBuilder &b, Operation *op,
                                                 KernelNamer kernelName,
                                                 const Target &target) {
  using namespace kernels;
  using Result = FailureOr<gpu::GPUModuleOp>;
  // Builders divide by tile extents that an empty dimension makes 0.
  if (isa<QuantizeOp, QuantizeMonitoredOp, QuantizeTransposeOp,
          QuantizeElementwiseOp, QuantizeDelayedOp, DequantizeOp, AmaxOp,
          TransposeOp, TmaAlignScalesOp, Tcgen05ScalesOp, HadamardOp,
          ScaledMatmulOp>(op) &&
      failed(checkBufferSizes(op)))
    return failure();
  return TypeSwitch<Operation *, Result>(op)
      .Case([&](QuantizeOp op) {
        return buildQuantizeKernel(b, op, kernelName(op, "quantize"), target);
      })
      .Case([&](QuantizeMonitoredOp op) {
        return buildQuantizeMonitoredKernel(
            b, op, kernelName(op, "quantize_monitored"), target);
      })
      .Case([&](QuantizeTransposeOp op) {
        return buildCastTransposeKernel(b, op, kernelName(op, "cast_transpose"),
                                        target);
      })
      .Case([&](QuantizeElementwiseOp op) {
        if (!op.getReductions().empty())
          return buildRowNormQuantizeKernel(
              b, op, kernelName(op, "quantize_row_norm"), target);
        return buildQuantizeElementwiseKernel(
            b, op,
            kernelName(op, op.getTranspose() ? "quantize_elementwise_t"
                                             : "quantize_elementwise"),
            target);
      })
      .Case([&](QuantizeDelayedOp op) {
        return buildQuantizeDelayedKernel(
            b, op, kernelName(op, "quantize_delayed"), target);
      })
      .Case([&](TransposeOp op) {
        return buildTransposeKernel(b, op, kernelName(op, "transpose"), target);
      })
      .Case([&](TmaAlignScalesOp op) {
        return buildTmaAlignScalesKernel(
            b, op, kernelName(op, "tma_align_scales"), target);
      })
      .Case([&](Tcgen05ScalesOp op) {
        return buildTcgen05ScalesKernel(b, op, kernelName(op, "tcgen05_scales"),
                                        target);
      })
      .Case([&](HadamardOp op) {
        return buildHadamardKernel(b, op, kernelName(op, "hadamard"), target);
      })
      .Case([&](AmaxOp op) {
        return buildAmaxKernel(b, op, kernelName(op, "amax"), target);
      })
      .Case([&](ScaledMatmulOp op) {
        return buildGemmKernel(b, op, kernelName(op, "gemm"), target);
      })
      .Case([&](GroupedScaledMatmulOp op) {
        return buildGroupedGemmKernel(b, op, kernelName(op, "grouped_gemm"),
                                      target);
      })
      .Case([&](DequantizeOp op) {
        return buildDequantizeKernel(b, op, kernelName(op, "dequantize"),
                                     target);
      })
      .Default([&](Operation *op) -> Result {
        // A matmul the recipe keeps in high precision (not one left
        // unquantized by accident: that has no marker and is refused by
        // buildTensorKernel).
        if (isHighPrecisionGemm(op))
          return buildHighPrecisionGemmKernel(b, cast<linalg::LinalgOp>(op),
                                              kernelName(op, "gemm"), target);
        if (launchesNothing(op))
          return gpu::GPUModuleOp();
        return buildTensorKernel(b, op, kernelName, target);
      });
}

namespace {
struct ConvertFP8ToNVVMPass
    : fp8::impl::ConvertFP8ToNVVMBase<ConvertFP8ToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<Target> parsed = resolveTarget(module, chip, [&] {
      return emitError(getOptionLoc(module, needsKernel),
                       "convert-fp8-to-nvvm: ");
    });
    if (failed(parsed))
      return signalPassFailure();
    const Target &target = *parsed;
    // Arith ops on tensors become linalg.generics, and chains of
    // elementwise generics fuse into one (one kernel, one pass over memory).
    RewritePatternSet patterns(&getContext());
    linalg::populateElementwiseToLinalgConversionPatterns(patterns);
    linalg::populateElementwiseOpsFusionPatterns(
        patterns, [](OpOperand *) { return true; });
    // Only those ops are rewritten: the fp8 ops stay as they are (a driver
    // over the whole function would erase the unused ones).
    SmallVector<Operation *> elementwise;
    for (auto func : module.getOps<func::FuncOp>())
      func.walk([&](Operation *op) {
        if (isa<linalg::LinalgOp>(op) ||
            (isa<arith::ArithDialect>(op->getDialect()) &&
             llvm::any_of(op->getResultTypes(), llvm::IsaPred<TensorType>)))
          elementwise.push_back(op);
      });
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (!elementwise.empty() && failed(applyOpPatternsGreedily(
                                    elementwise, std::move(patterns), config)))
      return signalPassFailure();
    SymbolTable symbols(module);
    // Ops tagged by an earlier run keep their kernels.
    auto hasKernel = [](Operation *op) { return op->hasAttr(kKernelAttrName); };
    // Is there anything to build? An op of a function that is not yet
    // tagged and is more than a constant, an empty tensor or the return.
    bool anyKernel = false;
    module.walk([&](Operation *op) {
      anyKernel |= isa_and_nonnull<func::FuncOp>(op->getParentOp()) &&
                   !hasKernel(op) &&
                   !isa<func::ReturnOp, tensor::EmptyOp>(op) &&
                   !op->hasTrait<OpTrait::ConstantLike>();
    });
    if (!anyKernel)
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    OpBuilder b(&getContext());
    b.setInsertionPointToEnd(module.getBody());
    unsigned index = 0;
    auto tag = [&](Operation *op, gpu::GPUModuleOp kernel) {
      op->setAttr(kKernelAttrName,
                  SymbolRefAttr::get(
                      kernel.getSymNameAttr(),
                      {FlatSymbolRefAttr::get(kernel.getSymNameAttr())}));
    };
    auto kernelName = [&](Operation *op, StringRef what) {
      auto func = op->getParentOfType<FunctionOpInterface>();
      return (Twine(func ? func.getName() : "kernel") + "_" + what + "_" +
              Twine(index++))
          .str();
    };

    // One kernel per op, in program order (fused ops are fp8-fuse-
    // quantization's, explicit in the IR).
    WalkResult walk = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      // Tagged ops keep their kernels; a gpu.module is a kernel.
      if (hasKernel(op) || isa<gpu::GPUModuleOp>(op))
        return WalkResult::skip();
      FailureOr<gpu::GPUModuleOp> kernel =
          buildKernelOf(b, op, kernelName, target);
      if (failed(kernel))
        return WalkResult::interrupt();
      if (!*kernel)
        return WalkResult::advance();
      if (failed(checkLaunchable(op, *kernel)))
        return WalkResult::interrupt();
      // The GEMMs wait for the previous grid where their setup ends, or
      // (sm_100a) take no PDL; every other kernel waits at entry.
      if (!isa<ScaledMatmulOp, GroupedScaledMatmulOp>(op) &&
          !isHighPrecisionGemm(op))
        kernels::waitForPreviousGridAtEntry(*kernel);
      symbols.insert(*kernel);
      tag(op, *kernel);
      // A linalg op's (or fused producer's) body is its kernel's, not more
      // ops to convert.
      return isa<linalg::LinalgOp, QuantizeElementwiseOp>(op)
                 ? WalkResult::skip()
                 : WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void fp8::buildKernelToPTXPipeline(OpPassManager &pm, bool lineInfo) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  // One pointer per buffer: the manifest's parameters are device pointers.
  toNVVM.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  // A debug-info scope on every kernel makes the NVPTX backend write
  // .file/.loc for the ops' locations: those of the fp8 ops the kernels came
  // from. Directives only (nvcc's -lineinfo): with line tables, LLVM marks
  // the PTX `.target sm_90a, debug`, and ptxas then compiles it as device
  // debug code (measured: a GEMM from 168 registers to 144 plus a stack).
  // The pass runs on the top-level module and reaches the kernels inside
  // the gpu.modules.
  if (lineInfo) {
    LLVM::DIScopeForLLVMFuncOpPassOptions scopes;
    scopes.emissionKind = LLVM::DIEmissionKind::DebugDirectivesOnly;
    pm.addPass(LLVM::createDIScopeForLLVMFuncOpPass(scopes));
  }
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
}

namespace {
struct FP8ToPTXOptions : PassPipelineOptions<FP8ToPTXOptions> {
  Option<std::string> chip{*this, "chip",
                           llvm::cl::desc("target GPU (sm_90a or sm_100a); "
                                          "default: the module's fp8.target, "
                                          "else sm_90a"),
                           llvm::cl::init("")};
  Option<bool> lineInfo{
      *this, "line-info",
      llvm::cl::desc("emit .file/.loc line info pointing at the MLIR ops"),
      llvm::cl::init(true)};
};
} // namespace

void fp8::registerFP8ToPTXPipeline() {
  // PassPipelineRegistration<FP8ToPTXOptions>, with a diagnostic where
  // upstream aborts (the pipeline nested in a func.func).
  registerPassPipeline(
      "fp8-to-ptx",
      "Generate GPU kernels for fp8 ops and serialize them to PTX "
      "(gpu.binary)",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        FP8ToPTXOptions options;
        if (failed(checkPipelineAnchor("fp8-to-ptx", pm, text, errorHandler)) ||
            failed(options.parseFromString(text)))
          return failure();
        ConvertFP8ToNVVMOptions convert;
        convert.chip = options.chip;
        pm.addPass(createConvertFP8ToNVVM(convert));
        buildKernelToPTXPipeline(pm, options.lineInfo);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(FP8ToPTXOptions());
      });
}
