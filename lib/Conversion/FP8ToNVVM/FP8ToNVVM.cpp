//===- FP8ToNVVM.cpp - fp8 ops to GPU kernels, PTX and a manifest ---------===//
//
// convert-fp8-to-nvvm builds one gpu.module per fp8 op; fp8-to-ptx lowers
// them to NVVM and serializes them to PTX; --fp8-emit=DIR writes each
// kernel's PTX and a JSON manifest, so that kernels run without MLIR
// (tools/fp8-run).
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_CONVERTFP8TONVVM
#include "fp8/Conversion/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {
struct ConvertFP8ToNVVMPass
    : fp8::impl::ConvertFP8ToNVVMBase<ConvertFP8ToNVVMPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<QuantizeOp> quantizations;
    module.walk([&](QuantizeOp op) { quantizations.push_back(op); });
    bool anyKernel = false;
    module.walk([&](Operation *op) {
      anyKernel |= isa<QuantizeOp, DequantizeOp, AmaxOp, TransposeOp,
                       TmaAlignScalesOp, HadamardOp, ScaledMatmulOp>(op);
    });
    if (!anyKernel)
      return;
    module->setAttr(gpu::GPUDialect::getContainerModuleAttrName(),
                    UnitAttr::get(&getContext()));
    OpBuilder b(&getContext());
    b.setInsertionPointToEnd(module.getBody());
    unsigned index = 0;
    auto tag = [&](Operation *op, gpu::GPUModuleOp kernel) {
      op->setAttr("fp8.kernel",
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

    // X and Xᵀ quantized alike: one cast-transpose kernel reads X once.
    llvm::DenseSet<Operation *> fused;
    for (QuantizeOp transposed : quantizations) {
      auto transpose =
          transposed.getInput().getDefiningOp<linalg::TransposeOp>();
      if (!transpose || transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
        continue;
      if (!fitsCastTransposeKernel(transpose.getInput().getType()))
        continue;
      auto rows = llvm::find_if(quantizations, [&](QuantizeOp candidate) {
        return candidate.getInput() == transpose.getInput() &&
               candidate.getScaling() == transposed.getScaling() &&
               candidate.getScaling().getTile() == ArrayRef<int64_t>{1, 128} &&
               candidate.getResult().getType().getElementType() ==
                   transposed.getResult().getType().getElementType() &&
               candidate.getMargin() == transposed.getMargin() &&
               candidate.getRounding() == Rounding::nearest &&
               transposed.getRounding() == Rounding::nearest &&
               !candidate.getAmax() && !transposed.getAmax() &&
               !fused.contains(candidate);
      });
      if (rows == quantizations.end())
        continue;
      FailureOr<gpu::GPUModuleOp> kernel = buildCastTransposeKernel(
          b, *rows, transposed, kernelName(*rows, "cast_transpose"), chip);
      if (failed(kernel))
        return signalPassFailure();
      symbols.insert(*kernel);
      tag(*rows, *kernel);
      tag(transposed, *kernel);
      fused.insert(*rows);
      fused.insert(transposed);
    }

    // One kernel per remaining op, in program order.
    WalkResult walk = module.walk([&](Operation *op) {
      FailureOr<gpu::GPUModuleOp> kernel = failure();
      if (auto quantize = dyn_cast<QuantizeOp>(op)) {
        if (fused.contains(op))
          return WalkResult::advance();
        kernel =
            buildQuantizeKernel(b, quantize, kernelName(op, "quantize"), chip);
      } else if (auto transpose = dyn_cast<TransposeOp>(op)) {
        kernel = buildTransposeKernel(b, transpose, kernelName(op, "transpose"),
                                      chip);
      } else if (auto align = dyn_cast<TmaAlignScalesOp>(op)) {
        kernel = buildTmaAlignScalesKernel(
            b, align, kernelName(op, "tma_align_scales"), chip);
      } else if (auto hadamard = dyn_cast<HadamardOp>(op)) {
        kernel =
            buildHadamardKernel(b, hadamard, kernelName(op, "hadamard"), chip);
      } else if (auto amax = dyn_cast<AmaxOp>(op)) {
        kernel = buildAmaxKernel(b, amax, kernelName(op, "amax"), chip);
      } else if (auto matmul = dyn_cast<ScaledMatmulOp>(op)) {
        kernel = buildGemmKernel(b, matmul, kernelName(op, "gemm"), chip);
      } else if (auto dequantize = dyn_cast<DequantizeOp>(op)) {
        kernel = buildDequantizeKernel(b, dequantize,
                                       kernelName(op, "dequantize"), chip);
      } else {
        return WalkResult::advance();
      }
      if (failed(kernel))
        return WalkResult::interrupt();
      symbols.insert(*kernel);
      tag(op, *kernel);
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void fp8::buildKernelToPTXPipeline(OpPassManager &pm) {
  OpPassManager &kernels = pm.nest<gpu::GPUModuleOp>();
  kernels.addPass(createSCFToControlFlowPass());
  ConvertGpuOpsToNVVMOpsOptions toNVVM;
  // One pointer per buffer: the manifest's parameters are device pointers.
  toNVVM.useBarePtrCallConv = true;
  kernels.addPass(createConvertGpuOpsToNVVMOps(toNVVM));
  kernels.addPass(createConvertNVVMToLLVMPass());
  kernels.addPass(createReconcileUnrealizedCastsPass());
  GpuModuleToBinaryPassOptions toBinary;
  toBinary.compilationTarget = "isa";
  pm.addPass(createGpuModuleToBinaryPass(toBinary));
}

/// The PTX text of a serialized kernel module.
static FailureOr<StringRef> getPTX(gpu::BinaryOp binary) {
  for (Attribute object : binary.getObjects())
    if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
      return gpuObject.getObject().getValue();
  return binary.emitError("no PTX object in this gpu.binary");
}

/// Converts a manifest attribute to JSON.
static llvm::json::Value toJSON(Attribute attr) {
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.getValue().str();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array values;
    for (Attribute element : array)
      values.push_back(toJSON(element));
    return values;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().getValue()] = toJSON(entry.getValue());
    return object;
  }
  return nullptr;
}

/// Writes `<dir>/<kernel>.ptx` for every kernel and `<dir>/manifest.json`.
static LogicalResult emitKernels(ModuleOp module, StringRef dir,
                                 StringRef chip) {
  // Manifests live on the kernels, which serialization replaces: collect
  // them first, then serialize a copy.
  llvm::StringMap<DictionaryAttr> manifests;
  module.walk([&](gpu::GPUFuncOp func) {
    if (auto manifest = func->getAttrOfType<DictionaryAttr>("fp8.manifest"))
      manifests[func.getName()] = manifest;
  });
  if (manifests.empty())
    return module.emitError("no kernels to emit: run convert-fp8-to-nvvm "
                            "first or give fp8 ops");
  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  buildKernelToPTXPipeline(pm);
  if (failed(pm.run(*copy)))
    return failure();

  if (std::error_code error = llvm::sys::fs::create_directories(dir))
    return module.emitError()
           << "cannot create " << dir << ": " << error.message();
  llvm::json::Array kernels;
  WalkResult walk = copy->walk([&](gpu::BinaryOp binary) {
    FailureOr<StringRef> ptx = getPTX(binary);
    if (failed(ptx))
      return WalkResult::interrupt();
    StringRef name = binary.getName();
    SmallString<128> path(dir);
    llvm::sys::path::append(path, name + ".ptx");
    std::error_code error;
    llvm::raw_fd_ostream file(path, error);
    if (error) {
      binary.emitError() << "cannot write " << path << ": " << error.message();
      return WalkResult::interrupt();
    }
    file << *ptx;
    auto it = manifests.find(name);
    if (it == manifests.end())
      return WalkResult::advance();
    llvm::json::Object entry = *toJSON(it->second).getAsObject();
    entry["name"] = name.str();
    entry["ptx"] = (name + ".ptx").str();
    kernels.push_back(std::move(entry));
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  SmallString<128> path(dir);
  llvm::sys::path::append(path, "manifest.json");
  std::error_code error;
  llvm::raw_fd_ostream file(path, error);
  if (error)
    return module.emitError()
           << "cannot write " << path << ": " << error.message();
  llvm::json::Object manifest;
  manifest["chip"] = chip.str();
  manifest["kernels"] = std::move(kernels);
  file << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest)))
       << "\n";
  return success();
}

namespace {
/// Runs emitKernels at its point in a pipeline.
struct EmitKernelsPass : PassWrapper<EmitKernelsPass, OperationPass<ModuleOp>> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(EmitKernelsPass)
  EmitKernelsPass(std::string dir, std::string chip)
      : dir(std::move(dir)), chip(std::move(chip)) {}
  StringRef getArgument() const override { return "fp8-emit-kernels"; }
  void runOnOperation() override {
    if (failed(emitKernels(getOperation(), dir, chip)))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
  std::string dir, chip;
};

struct FP8ToPTXOptions : PassPipelineOptions<FP8ToPTXOptions> {
  Option<std::string> chip{*this, "chip", llvm::cl::desc("target GPU"),
                           llvm::cl::init("sm_90a")};
};
} // namespace

void fp8::registerFP8ToPTXPipelines() {
  PassPipelineRegistration<FP8ToPTXOptions>(
      "fp8-to-ptx",
      "Generate GPU kernels for fp8 ops and serialize them to PTX "
      "(gpu.binary)",
      [](OpPassManager &pm, const FP8ToPTXOptions &options) {
        ConvertFP8ToNVVMOptions convert;
        convert.chip = options.chip;
        pm.addPass(createConvertFP8ToNVVM(convert));
        buildKernelToPTXPipeline(pm);
      });
  // `--fp8-emit=DIR` or `--fp8-emit="DIR chip=sm_100a"`.
  registerPassPipeline(
      "fp8-emit",
      "Generate kernels for fp8 ops and write DIR/<kernel>.ptx and "
      "DIR/manifest.json (--fp8-emit=DIR, or \"DIR chip=CHIP\")",
      [](OpPassManager &pm, StringRef options,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        ConvertFP8ToNVVMOptions convert;
        std::string dir;
        SmallVector<StringRef> tokens;
        options.split(tokens, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
        for (StringRef token : tokens) {
          if (token.consume_front("chip="))
            convert.chip = token.str();
          else
            dir = token.str();
        }
        if (dir.empty())
          return errorHandler("--fp8-emit needs a directory: --fp8-emit=DIR");
        pm.addPass(createConvertFP8ToNVVM(convert));
        pm.addPass(std::make_unique<EmitKernelsPass>(dir, convert.chip));
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)>) {});
}
