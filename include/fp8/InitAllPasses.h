//===- InitAllPasses.h - fp8-mlir pass registration -------------*- C++ -*-===//
//
// Registers the fp8 passes and pipelines, and the upstream passes that the
// fp8 pipelines are made of, for use on a command line.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_INITALLPASSES_H
#define FP8_INITALLPASSES_H

namespace mlir::fp8 {

/// Registers the fp8 passes and pipelines alone.
void registerFP8Passes();

/// Registers the fp8 passes and the upstream passes the pipelines use.
void registerAllPasses();

} // namespace mlir::fp8

#endif // FP8_INITALLPASSES_H
