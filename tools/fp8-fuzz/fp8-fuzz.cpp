//===- fp8-fuzz.cpp - libFuzzer target over fp8-opt's passes --------------===//
//
// Feeds mutated fp8-mlir inputs through what fp8-opt does with them: parse,
// verify, run a pass pipeline (the fp8 passes, their pipelines and kernel
// generation down to PTX), and print the result. Bad input must end in a
// diagnostic; a crash, a hang or a sanitizer report is a bug. docs/Fuzzing.md
// says how to build and run it.
//
// An input is MLIR text whose first line may select the passes:
//
//   // fp8-fuzz: fp8-quantize-matmuls{recipe=blockwise},fp8-derive-scaling
//
// a comma-separated list of textual pass-pipeline elements, each a pass of
// the list below with its options. Only these run: the point is fp8-mlir's
// code, and passes that write files must write into the fuzzer's own
// directory (fp8-emit's dir= is the fuzzer's; an input that names one is
// skipped). The custom mutator edits what fp8-mlir's inputs are made of
// (shapes, tile extents, element types, enum keywords, recipes, chips, the
// pass list), so that most mutants still parse and reach the passes.
//
//===----------------------------------------------------------------------===//

#include "Mutator.h"

#include "fp8/InitAllDialects.h"
#include "fp8/InitAllPasses.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Regex.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <random>
#include <string>
#include <unistd.h>
#include <vector>

using namespace mlir;

extern "C" size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t maxSize);

namespace {

constexpr llvm::StringLiteral kHeader = "// fp8-fuzz:";

/// The passes and pipelines an input may run.
constexpr llvm::StringLiteral kPasses[] = {"fp8-quantize-matmuls",
                                           "fp8-derive-scaling",
                                           "fp8-insert-hadamard",
                                           "fp8-legalize",
                                           "fp8-fuse-quantization",
                                           "fp8-monitor-quantization",
                                           "fp8-convert-scaling",
                                           "fp8-print-layouts",
                                           "fp8-lower-to-reference",
                                           "fp8-pipeline",
                                           "fp8-reference-pipeline",
                                           "convert-fp8-to-nvvm",
                                           "fp8-to-ptx",
                                           "fp8-emit",
                                           "canonicalize",
                                           "cse"};

/// How far inputs got, printed at exit when FP8_FUZZ_STATS is set: a
/// mutator that mostly breaks the syntax would show as few parsed inputs.
struct Stats {
  uint64_t inputs = 0, skipped = 0, parsed = 0, verified = 0, ran = 0,
           succeeded = 0;
};

/// Process-wide state, made once in LLVMFuzzerInitialize.
struct Globals {
  DialectRegistry registry;
  std::string emitDir;
  Stats stats;
};

Globals &globals() {
  static Globals *g = new Globals;
  return *g;
}

/// Splits `input` into its pass-selection line (without the "// fp8-fuzz:"
/// prefix; empty when there is none) and the MLIR text after it.
void splitInput(llvm::StringRef input, llvm::StringRef &header,
                llvm::StringRef &body) {
  header = "";
  body = input;
  if (!input.starts_with(kHeader))
    return;
  auto [line, rest] = input.split('\n');
  header = line.drop_front(kHeader.size()).trim();
  body = rest;
}

/// Splits a pipeline list at top-level commas (outside braces and quotes).
std::vector<std::string> splitElements(llvm::StringRef list) {
  std::vector<std::string> elements;
  std::string current;
  int depth = 0;
  char quote = 0;
  for (char c : list) {
    if (quote) {
      if (c == quote)
        quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      elements.push_back(current);
      current.clear();
      continue;
    }
    current += c;
  }
  if (!llvm::StringRef(current).trim().empty())
    elements.push_back(current);
  return elements;
}

/// The textual pipeline an input's header asks for, or false when it names
/// a pass outside kPasses, nests pipelines, or picks its own directory.
bool buildPipeline(llvm::StringRef header, std::string &pipeline) {
  std::vector<std::string> parts;
  for (const std::string &element : splitElements(header)) {
    llvm::StringRef e = llvm::StringRef(element).trim();
    size_t brace = e.find('{');
    llvm::StringRef name = e.substr(0, brace).trim();
    llvm::StringRef options =
        brace == llvm::StringRef::npos ? "" : e.substr(brace);
    if (!llvm::is_contained(kPasses, name))
      return false;
    if (!options.empty() && !options.ends_with("}"))
      return false;
    // Nested pipelines would run passes outside the list.
    if (options.contains('('))
      return false;
    if (options.contains("dir"))
      return false;
    std::string part = name.str();
    if (name == "fp8-emit") {
      part += "{dir=" + globals().emitDir;
      if (!options.empty())
        part += " " + options.drop_front().str();
      else
        part += "}";
    } else {
      part += options.str();
    }
    parts.push_back(std::move(part));
  }
  // The pass list of the module's pass manager (no anchor: an anchored
  // `builtin.module(...)` would nest, and run on modules inside the module).
  pipeline = llvm::join(parts, ",");
  return true;
}

/// Whether `text` has a `permutation = [...]` that is not a list of
/// integers: MLIR 22's linalg.transpose parser crashes on it
/// (docs/KnownIssues.md).
bool hasMalformedPermutation(llvm::StringRef text) {
  for (size_t at = text.find("permutation"); at != llvm::StringRef::npos;
       at = text.find("permutation", at + 1)) {
    llvm::StringRef rest = text.drop_front(at + strlen("permutation")).ltrim();
    if (!rest.consume_front("="))
      continue;
    rest = rest.ltrim();
    if (!rest.consume_front("["))
      return true;
    bool expectNumber = true, empty = true;
    while (true) {
      rest = rest.ltrim();
      if (rest.consume_front("]")) {
        if (expectNumber && !empty)
          return true;
        break;
      }
      if (expectNumber) {
        rest.consume_front("-");
        size_t digits = rest.find_if_not(llvm::isDigit);
        if (digits == 0 || digits == llvm::StringRef::npos)
          return true;
        rest = rest.drop_front(digits);
        expectNumber = false;
        empty = false;
      } else if (rest.consume_front(",")) {
        expectNumber = true;
      } else {
        return true;
      }
    }
  }
  return false;
}

/// Inputs that crash MLIR 22 itself, not fp8-mlir's code, each with its
/// reproducer in docs/KnownIssues.md: skipped, so that a campaign stops
/// only at new crashes.
bool crashesUpstream(llvm::StringRef text) {
  // DenseArrayAttr of index elements (llvm/llvm-project#179045).
  static const llvm::Regex indexArray("array[[:space:]]*<[[:space:]]*index");
  return indexArray.match(text) || hasMalformedPermutation(text);
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv) {
  Globals &g = globals();
  fp8::registerAllDialects(g.registry);
  fp8::registerAllPasses();
  llvm::SmallString<128> dir;
  if (llvm::sys::fs::createUniqueDirectory("fp8-fuzz-emit", dir)) {
    llvm::errs() << "fp8-fuzz: cannot create a directory for fp8-emit\n";
    std::exit(1);
  }
  g.emitDir = dir.str().str();
  std::atexit([] {
    llvm::sys::fs::remove_directories(globals().emitDir);
    if (!std::getenv("FP8_FUZZ_STATS"))
      return;
    const Stats &s = globals().stats;
    llvm::errs() << "fp8-fuzz: " << s.inputs << " inputs, " << s.skipped
                 << " skipped, " << s.parsed << " parsed, " << s.verified
                 << " verified, " << s.ran << " ran their passes, "
                 << s.succeeded << " passed them\n";
  });
  // fp8-print-layouts and friends print to stdout; libFuzzer reports on
  // stderr.
  int devNull = open("/dev/null", O_WRONLY);
  if (devNull >= 0) {
    dup2(devNull, STDOUT_FILENO);
    close(devNull);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef input(reinterpret_cast<const char *>(data), size);
  llvm::StringRef header, body;
  splitInput(input, header, body);
  std::string pipeline;
  Stats &stats = globals().stats;
  ++stats.inputs;
  if (!buildPipeline(header, pipeline) || crashesUpstream(body) ||
      !fp8fuzz::withinKernelBudget(pipeline, body.str())) {
    ++stats.skipped;
    return -1; // Not an input of this fuzzer: keep it out of the corpus.
  }

  // A context per input: nothing carries over from one input to the next,
  // so a reproducer is the input alone. One thread, for the same reason.
  MLIRContext context(globals().registry, MLIRContext::Threading::DISABLED);
  // Diagnostics are the expected outcome of bad input: dropped, unless
  // FP8_FUZZ_VERBOSE asks to see them (when reproducing one input).
  static const bool verbose = std::getenv("FP8_FUZZ_VERBOSE");
  if (verbose)
    llvm::errs() << "fp8-fuzz: pipeline " << pipeline << "\n";
  ScopedDiagnosticHandler quiet(&context, [](Diagnostic &diag) {
    if (verbose)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    return success();
  });

  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(body, "fuzz.mlir"), llvm::SMLoc());
  ParserConfig config(&context);
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, config);
  if (!module)
    return 0;
  ++stats.parsed;
  if (failed(verify(*module)))
    return 0;
  ++stats.verified;

  PassManager pm(&context);
  if (failed(parsePassPipeline(pipeline, pm,
                               verbose ? llvm::errs() : llvm::nulls())))
    return 0;
  ++stats.ran;
  if (failed(pm.run(*module)))
    return 0;
  ++stats.succeeded;
  // What fp8-opt would print, through the printers of every attribute and
  // type the passes made.
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size,
                                          size_t maxSize, unsigned seed) {
  std::mt19937 rng(seed);
  std::string mutant =
      fp8fuzz::mutate(std::string(reinterpret_cast<const char *>(data), size),
                      maxSize, rng, LLVMFuzzerMutate);
  std::memcpy(data, mutant.data(), mutant.size());
  return mutant.size();
}

extern "C" size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                            const uint8_t *data2, size_t size2,
                                            uint8_t *out, size_t maxOutSize,
                                            unsigned seed) {
  std::mt19937 rng(seed);
  std::string child = fp8fuzz::crossOver(
      std::string(reinterpret_cast<const char *>(data1), size1),
      std::string(reinterpret_cast<const char *>(data2), size2), rng);
  size_t size = std::min(child.size(), maxOutSize);
  std::memcpy(out, child.data(), size);
  return size;
}
