//===- fp8-opt.cpp - fp8-mlir optimizer driver ----------------------------===//
//
// mlir-opt for fp8-mlir: the fp8 dialect and passes, plus the upstream
// dialects, passes and translations the fp8 pipelines lower through. Two
// mistakes of a new user get a word that mlir-opt does not give: a linalg
// named op that upstream has removed, and -split-input-file with fp8-emit,
// whose splits would each replace the last one's kernels.
//
//===----------------------------------------------------------------------===//

#include "fp8/InitAllDialects.h"
#include "fp8/InitAllPasses.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/WithColor.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

/// The indexing maps that replace a transposed matmul op removed from
/// linalg (the `_transpose_a/_b` named ops), as a note would show them.
static std::optional<StringRef> getRemovedMatmulHint(StringRef message) {
  return llvm::StringSwitch<std::optional<StringRef>>(message)
      .StartsWith(
          "custom op 'linalg.matmul_transpose_a' is unknown",
          StringRef("linalg.matmul_transpose_a is no longer in upstream "
                    "linalg: write linalg.matmul with indexing maps, "
                    "indexing_maps = [affine_map<(m, n, k) -> (k, m)>, "
                    "affine_map<(m, n, k) -> (k, n)>, "
                    "affine_map<(m, n, k) -> (m, n)>]"))
      .StartsWith(
          "custom op 'linalg.matmul_transpose_b' is unknown",
          StringRef("linalg.matmul_transpose_b is no longer in upstream "
                    "linalg: write linalg.matmul with indexing maps, "
                    "indexing_maps = [affine_map<(m, n, k) -> (m, k)>, "
                    "affine_map<(m, n, k) -> (n, k)>, "
                    "affine_map<(m, n, k) -> (m, n)>]"))
      .StartsWith("custom op 'linalg.batch_matmul_transpose_a' is unknown",
                  StringRef("linalg.batch_matmul_transpose_a is no longer in "
                            "upstream linalg: write linalg.batch_matmul with "
                            "indexing maps, indexing_maps = "
                            "[affine_map<(b, m, n, k) -> (b, k, m)>, "
                            "affine_map<(b, m, n, k) -> (b, k, n)>, "
                            "affine_map<(b, m, n, k) -> (b, m, n)>]"))
      .StartsWith("custom op 'linalg.batch_matmul_transpose_b' is unknown",
                  StringRef("linalg.batch_matmul_transpose_b is no longer in "
                            "upstream linalg: write linalg.batch_matmul with "
                            "indexing maps, indexing_maps = "
                            "[affine_map<(b, m, n, k) -> (b, m, k)>, "
                            "affine_map<(b, m, n, k) -> (b, n, k)>, "
                            "affine_map<(b, m, n, k) -> (b, m, n)>]"))
      .Default(std::nullopt);
}

/// Adds a note to the parser's "unknown op" error for the transposed
/// matmuls that linalg no longer has (graphs written for older MLIR use
/// them). The handler is registered when linalg is loaded, so after the
/// tool's own handler, and is asked first: it only adds the note.
static void registerRemovedOpNotes(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *context, linalg::LinalgDialect *) {
    context->getDiagEngine().registerHandler([](Diagnostic &diag) {
      if (diag.getSeverity() == DiagnosticSeverity::Error)
        if (std::optional<StringRef> hint = getRemovedMatmulHint(diag.str()))
          diag.attachNote() << *hint;
      return failure();
    });
  });
}

/// Whether the pipeline that `config` sets up runs fp8-emit, which writes
/// one directory per run. The pipeline is built on a context of its own,
/// with its errors left for the real run to report.
static bool pipelineEmits(const MlirOptMainConfig &config,
                          DialectRegistry &registry) {
  MLIRContext context(registry, MLIRContext::Threading::DISABLED);
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  PassManager pm(&context, ModuleOp::getOperationName(),
                 OpPassManager::Nesting::Implicit);
  if (failed(config.setupPassPipeline(pm)))
    return false;
  std::string pipeline;
  llvm::raw_string_ostream os(pipeline);
  pm.printAsTextualPipeline(os);
  // Every pass prints as `name{options}` after `(` or `,`.
  for (StringRef rest = pipeline; !rest.empty();) {
    size_t at = rest.find("fp8-emit{");
    if (at == StringRef::npos)
      return false;
    if (at == 0 || rest[at - 1] == '(' || rest[at - 1] == ',' ||
        rest[at - 1] == ' ')
      return true;
    rest = rest.drop_front(at + 1);
  }
  return false;
}

int main(int argc, char **argv) {
  DialectRegistry registry;
  fp8::registerAllDialects(registry);
  registerRemovedOpNotes(registry);
  fp8::registerAllPasses();
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "fp8-mlir optimizer driver\n", registry);
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (!config.inputSplitMarker().empty() && pipelineEmits(config, registry)) {
    llvm::WithColor::error(llvm::errs(), "fp8-opt")
        << "-split-input-file with fp8-emit: every split would write its "
           "kernels into the same dir=, each replacing the last one's; emit "
           "each split on its own (split-file, then one fp8-opt run per "
           "file, each with its own dir=)\n";
    return EXIT_FAILURE;
  }
  return asMainReturnCode(
      MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
}
