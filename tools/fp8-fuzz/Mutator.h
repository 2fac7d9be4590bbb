//===- Mutator.h - structure-aware mutations of fp8-mlir inputs -*- C++ -*-===//
//
// fp8-fuzz's custom mutator, in plain C++ (no MLIR) so that it can be tested
// on its own. Byte-level mutation of MLIR text mostly produces parse errors;
// these edits change what the fp8 passes look at (shapes, tile extents,
// element types, enum keywords, recipes, chips, the pass list) and keep the
// rest of the text intact, so most mutants parse and verify.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TOOLS_FP8_FUZZ_MUTATOR_H
#define FP8_TOOLS_FP8_FUZZ_MUTATOR_H

#include <cstddef>
#include <cstdint>
#include <functional>
#include <random>
#include <string>

namespace fp8fuzz {

/// Byte-level mutation of `data` in place (libFuzzer's own mutator in the
/// fuzzer); returns the new size.
using ByteMutator =
    std::function<size_t(uint8_t *data, size_t size, size_t maxSize)>;

/// Mutates `input` (a "// fp8-fuzz: PASSES" line, then MLIR) with one to
/// three structure-aware edits chosen by `rng`; the result is at most
/// `maxSize` bytes.
std::string mutate(const std::string &input, size_t maxSize, std::mt19937 &rng,
                   const ByteMutator &byteMutator);

/// The pass-selection line of one input and the MLIR of another.
std::string crossOver(const std::string &first, const std::string &second,
                      std::mt19937 &rng);

/// A random pass selection, cheap ones more often than kernel generation
/// down to PTX; PTX only for a body of at most kMaxKernelsToPTX kernels.
std::string randomPipeline(std::mt19937 &rng, const std::string &body);

/// Roughly how many GPU kernels `body` would become: one per fp8, linalg or
/// arith op, four per linalg.matmul (three quantizations and a GEMM).
size_t estimateKernels(const std::string &body);

/// Kernel generation takes about 0.1 s per kernel under ASan, and LLVM's
/// NVPTX backend 0.1-1 s more: inputs that would make more kernels than
/// these are skipped, so that one input stays well below the 10 s that
/// count as a hang (a 46-kernel MLP block took 6 s without PTX).
constexpr size_t kMaxKernelsToPTX = 8;
constexpr size_t kMaxKernels = 32;

/// Whether `pipeline` (a "// fp8-fuzz:" line) runs LLVM's NVPTX backend.
bool makesPTX(const std::string &pipeline);

/// Whether an input of `body` with pass list `pipeline` stays within the
/// kernel budgets above.
bool withinKernelBudget(const std::string &pipeline, const std::string &body);

} // namespace fp8fuzz

#endif // FP8_TOOLS_FP8_FUZZ_MUTATOR_H
