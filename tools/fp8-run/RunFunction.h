//===- RunFunction.h - fp8-run --function: a whole launch plan --*- C++ -*-===//
//
// fp8-run's program mode: loads the manifest with libfp8rt, runs one
// function's plan on inputs read from files (or seeded), and dumps and times
// it. The runtime does the launching; this file only owns the buffers.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_TOOLS_FP8_RUN_RUNFUNCTION_H
#define FP8_TOOLS_FP8_RUN_RUNFUNCTION_H

#include "Options.h"

namespace fp8run {

/// Runs `opts.function`; returns fp8-run's exit status.
int runFunction(const Options &opts);

} // namespace fp8run

#endif // FP8_TOOLS_FP8_RUN_RUNFUNCTION_H
