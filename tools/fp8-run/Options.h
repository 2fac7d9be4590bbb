//===- Options.h - fp8-run's command line -----------------------*- C++ -*-===//
//
// The options fp8-run takes, their parser and the usage text.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TOOLS_FP8_RUN_OPTIONS_H
#define FP8_TOOLS_FP8_RUN_OPTIONS_H

#include <cstdint>
#include <string>

namespace fp8run {

struct Options {
  std::string manifestPath;
  std::string kernel;
  std::string function; // Run this function's launch plan (libfp8rt).
  std::string inputsFrom;
  std::string dump;
  std::string results;
  uint64_t seed = 0;
  int iters = 20;
  int warmup = 5;
  int device = 0;
  bool copyBaseline = false;
  // Launch kernels the manifest marks "pdl" with programmatic dependent
  // launch (--no-pdl: plainly, for A/B timing).
  bool pdl = true;
  bool specials = false;
  bool evenGroups = false;
  bool validate = false;
  bool verbose = false;
  bool help = false;
};

/// What --help prints.
extern const char *const usageText;

/// Parses argv into `opts`; false with a message in `error` on a bad
/// option or value.
bool parseArgs(int argc, char **argv, Options &opts, std::string &error);

} // namespace fp8run

#endif // FP8_TOOLS_FP8_RUN_OPTIONS_H
