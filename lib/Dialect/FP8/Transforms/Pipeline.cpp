//===- Pipeline.cpp - the one-call fp8 pipeline ---------------------------===//
//
// `fp8-pipeline`: the passes from a training graph to legalized fp8 IR, in
// the order each of them expects (docs/Passes.md).
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Transforms/Pipeline.h"

#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void fp8::buildPipeline(OpPassManager &pm, const PipelineOptions &options) {
  // First, on the high-precision matmuls: [B, T, K] contractions as plain
  // matmuls, then every contracted extent a multiple of 16 (zero padding,
  // exact), as the GEMMs' TMA loads need.
  pm.addPass(createFP8CollapseContractions());
  pm.addPass(createFP8PadContraction());

  FP8QuantizeMatmulsOptions quantize;
  quantize.recipe = options.recipe;
  pm.addPass(createFP8QuantizeMatmuls(quantize));

  // Size 0 takes the recipe's hadamard field; a recipe without one rotates
  // nothing. The rotation rewrites the quantizations' inputs, so it comes
  // before derive-scaling, which then shares the rotated quantizations (and
  // would otherwise turn quantize(transpose(v)) into an fp8.transpose that
  // the rotation cannot read through).
  FP8InsertHadamardOptions hadamard;
  hadamard.ifRecipe = true;
  pm.addPass(createFP8InsertHadamard(hadamard));

  pm.addPass(createFP8DeriveScaling());

  FP8LegalizeOptions legalize;
  legalize.chip = options.chip;
  pm.addPass(createFP8Legalize(legalize));

  // Legalization leaves quantizations and transposes that no matmul reads
  // any more, and identical ones from different matmuls.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());

  // Monitoring returns each quantization's statistics from its own kernel:
  // before fusion, which then leaves the monitored quantizations alone.
  if (options.monitor)
    pm.addPass(createFP8MonitorQuantization());

  // Last, on the deduplicated quantizations: one quantization of X and one
  // of Xᵀ become one fused op, and elementwise producers (GELU, SiLU·mul,
  // bias adds, casts) join the quantizations that read them.
  FP8FuseQuantizationOptions fusion;
  fusion.producers = fusion.scales = options.fuseProducers;
  fusion.explain = options.explain;
  pm.addPass(createFP8FuseQuantization(fusion));
}

void fp8::registerFP8Pipeline() {
  // PassPipelineRegistration<PipelineOptions>, with the check for an
  // unquoted recipe attribute before the option parser splits it.
  registerPassPipeline(
      "fp8-pipeline",
      "Quantize a training graph's matmuls under a recipe and legalize them "
      "for a chip: fp8-collapse-contractions, fp8-pad-contraction, "
      "fp8-quantize-matmuls, "
      "fp8-insert-hadamard (if the recipe "
      "asks), fp8-derive-scaling, fp8-legalize, canonicalize, cse, "
      "fp8-fuse-quantization",
      [](OpPassManager &pm, StringRef text,
         function_ref<LogicalResult(const Twine &)> errorHandler) {
        // Upstream aborts on a module pass added inside a func.func
        // pipeline; the option parser names no option it does not know.
        PipelineOptions options;
        std::string known;
        llvm::raw_string_ostream os(known);
        options.print(os);
        if (failed(
                checkPipelineAnchor("fp8-pipeline", pm, text, errorHandler)) ||
            failed(checkRecipeQuoting("fp8-pipeline", "recipe", text,
                                      errorHandler)) ||
            failed(checkOptionNames("fp8-pipeline", text, known, errorHandler)))
          return failure();
        if (failed(options.parseFromString(text)))
          return failure();
        buildPipeline(pm, options);
        return success();
      },
      [](function_ref<void(const mlir::detail::PassOptions &)> optionHandler) {
        optionHandler(PipelineOptions());
      });
}
