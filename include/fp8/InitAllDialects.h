//===- InitAllDialects.h - fp8-mlir dialect registration --------*- C++ -*-===//
//
// Registers the fp8 dialect and the upstream dialects, interface models and
// LLVM IR translations that the fp8 pipelines produce or consume: linalg and
// tensor on the way in, bufferization in the middle, and gpu/nvvm/llvm down
// to PTX. Tools and embedders call this instead of registering every
// upstream dialect.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_INITALLDIALECTS_H
#define FP8_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
namespace fp8 {

/// Adds the fp8 dialect alone to `registry`.
void registerFP8Dialect(DialectRegistry &registry);

/// Adds the fp8 dialect and everything the fp8 pipelines need.
void registerAllDialects(DialectRegistry &registry);

} // namespace fp8
} // namespace mlir

#endif // FP8_INITALLDIALECTS_H
