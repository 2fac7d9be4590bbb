//===- fp8-embed.cpp - fp8-mlir embedded in another C++ project -----------===//
//
// Built outside fp8-mlir against its installed CMake package. Prints every
// parameter of the `blockwise` recipe preset, to show that a host compiler
// can query presets from C++ instead of parsing `#fp8.recipe<...>` text,
// then parses, verifies and prints the file named on its command line, and
// prints it again after the one-call pipeline (fp8::buildPipeline) has
// quantized its matmuls under that preset for sm_90a.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/Transforms/Pipeline.h"
#include "fp8/InitAllDialects.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

/// Prints tile extents as the dialect writes them, `*` for a whole extent.
static void printTile(llvm::raw_ostream &os, ArrayRef<int64_t> tile) {
  os << '[';
  llvm::interleaveComma(tile, os, [&](int64_t extent) {
    if (ShapedType::isDynamic(extent))
      os << '*';
    else
      os << extent;
  });
  os << ']';
}

static void printRecipe(llvm::raw_ostream &os, fp8::RecipeAttr recipe) {
  os << "recipe " << recipe << '\n';
  for (fp8::Role role :
       {fp8::Role::activation, fp8::Role::weight, fp8::Role::gradient}) {
    fp8::PolicyAttr policy = recipe.getPolicy(role);
    os << "  " << fp8::stringifyRole(role) << ": " << policy.getElementType()
       << ", tile ";
    // Policy tiles are [across, along] the contracted dimension, not
    // storage coordinates.
    printTile(os, policy.getTile());
    os << ", scale " << policy.getScale() << ", round "
       << fp8::stringifyScaleRound(policy.getRound()) << '\n';
  }
  os << "  amax: ";
  if (recipe.isDelayed())
    os << "delayed, history " << recipe.getAmaxHistory() << ", "
       << fp8::stringifyAmaxAlgo(recipe.getAmaxAlgo()) << '\n';
  else
    os << "current\n";
  os << "  margin: " << recipe.getMargin() << '\n';
  os << "  accumulate: " << fp8::stringifyAccumulate(recipe.getAccumulate())
     << '\n';
  os << "  hadamard: " << recipe.getHadamard() << '\n';
  os << "  stochastic gradients: "
     << (recipe.getStochasticGradients() ? "yes" : "no") << '\n';
  os << "  high precision: ";
  if (recipe.getHighPrecision().empty())
    os << "none";
  llvm::interleaveComma(
      recipe.getHighPrecision(), os,
      [&](fp8::MatmulKind kind) { os << fp8::stringifyMatmulKind(kind); });
  os << '\n';
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  if (argc != 2) {
    llvm::errs() << "usage: fp8-embed <file.mlir>\n";
    return 2;
  }
  std::string errorMessage;
  std::unique_ptr<llvm::MemoryBuffer> file =
      openInputFile(argv[1], &errorMessage);
  if (!file) {
    llvm::errs() << "error: " << errorMessage << '\n';
    return 1;
  }

  DialectRegistry registry;
  fp8::registerAllDialects(registry);
  MLIRContext context(registry);
  // Parsing loads dialects on demand; building an attribute directly does
  // not, and needs its dialect loaded.
  context.loadDialect<fp8::FP8Dialect>();

  fp8::RecipeAttr blockwise = fp8::RecipeAttr::getPreset(&context, "blockwise");
  if (!blockwise) {
    llvm::errs() << "error: no preset named 'blockwise'\n";
    return 1;
  }
  printRecipe(llvm::outs(), blockwise);

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
  SourceMgrDiagnosticHandler diagnosticHandler(sourceMgr, &context);

  // Verification is left to the explicit call below, the point where a host
  // that builds or rewrites IR itself would check it too.
  ParserConfig config(&context, /*verifyAfterParse=*/false);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module || failed(verify(*module)))
    return 1;
  module->print(llvm::outs());

  // The passes are added directly: no registration is needed to build the
  // pipeline, only to name its passes in text.
  PassManager pm = PassManager::on<ModuleOp>(&context);
  fp8::PipelineOptions options;
  options.recipe = "blockwise";
  options.chip = "sm_90a";
  fp8::buildPipeline(pm, options);
  if (failed(pm.run(*module)))
    return 1;
  llvm::outs() << "// after fp8-pipeline{recipe=blockwise chip=sm_90a}\n";
  module->print(llvm::outs());
  return 0;
}
