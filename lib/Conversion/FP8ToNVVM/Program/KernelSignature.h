//===- KernelSignature.h - a kernel's parameters, declared once -*- C++ -*-===//
//
// Every kernel parameter is declared once, here: its name, role, dtype and
// shape for the manifest (ManifestSchema.h), and the type of the kernel
// argument that carries it. The kernel's argument list and its manifest
// `params` both come from the same declaration, and the kernel body finds
// an argument by the name the manifest gives it, never by a position
// counted by hand.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELSIGNATURE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELSIGNATURE_H

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::fp8::kernels {

/// Whether a buffer parameter is read or written by the kernel; a
/// workspace is zero-filled by the caller once and left zero by the kernel.
enum class ParamRole { input, output, workspace };

/// The shared-memory swizzle a tensor map loads or stores with.
enum class Swizzle { none, b128 };

class KernelSignature {
public:
  /// One parameter: a buffer, or a TMA tensor map of another parameter.
  struct Param {
    std::string name;
    /// The kernel argument's type (a memref or an LLVM pointer).
    Type argumentType;
    bool isTensorMap = false;
    // Buffers: role, element type, shape.
    ParamRole role = ParamRole::input;
    Type elementType;
    SmallVector<int64_t> shape;
    // Tensor maps: the parameter mapped, the box ({rows, cols}), swizzle.
    std::string tensor;
    SmallVector<int64_t, 2> box;
    Swizzle swizzle = Swizzle::none;
    // Buffers: the operand or result of a source op that the parameter
    // carries (none for a workspace).
    Operation *owner = nullptr;
    bool isResult = false;
    unsigned index = 0;
    // More keys of the buffer's manifest entry (what the runtime must know
    // of its contents, such as a grouped GEMM's group_rows).
    SmallVector<NamedAttribute, 0> manifestKeys;
  };

  /// Declares a buffer of `elementType` (the manifest's dtype; FP8 and E8M0
  /// travel as bytes) and `shape`, passed as `argumentType`; returns its
  /// argument number.
  unsigned addBuffer(StringRef name, ParamRole role, Type elementType,
                     ArrayRef<int64_t> shape, Type argumentType);
  /// Declares a TMA descriptor (a pointer to a CUtensorMap in global memory)
  /// of buffer `tensor`, copying boxes of `box` = {rows, cols}.
  unsigned addTensorMap(StringRef name, StringRef tensor, ArrayRef<int64_t> box,
                        Swizzle swizzle, Type argumentType);

  /// Says that buffer `name` carries `operand` (an input) or `result` (an
  /// output) of a source op, for the launch plan.
  void bindOperand(StringRef name, OpOperand &operand);
  void bindResult(StringRef name, OpResult result);
  /// Adds `key` to buffer `name`'s manifest entry.
  void addManifestKey(StringRef name, NamedAttribute key);
  /// Writes the bindings onto their ops as `fp8.kernel_args`.
  void writeBindings(OpBuilder &b) const;

  ArrayRef<Param> getParams() const { return params; }
  /// The kernel's argument types, in declaration order.
  SmallVector<Type> getArgumentTypes() const;
  /// The argument number of parameter `name` (which must be declared).
  unsigned getIndex(StringRef name) const;
  /// Whether parameter `name` is declared.
  bool has(StringRef name) const;
  /// The kernel argument that carries parameter `name`.
  BlockArgument getArgument(gpu::GPUFuncOp kernel, StringRef name) const;
  /// The manifest's `params` array.
  ArrayAttr getManifestParams(OpBuilder &b) const;

private:
  SmallVector<Param> params;
};

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELSIGNATURE_H
