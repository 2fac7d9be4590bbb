//===- KernelUtils.h - shared pieces of the generated kernels ---*- C++ -*-===//
//
// Helpers the fp8 kernel builders share: the kernel module and its NVVM
// target, manifest entries, and conversions between f32 and FP8 bytes with
// the PTX cvt instructions.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_KERNELUTILS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_KERNELUTILS_H

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"

namespace mlir::fp8::kernels {

/// Elements per thread and step of the streaming kernels: 16 bytes of FP8,
/// one 16-byte store.
inline constexpr int64_t kChunk = 16;
inline constexpr int64_t kThreadsPerBlock = 256;
inline constexpr int64_t kWarpSize = 32;

/// The manifest's name of an element type (bf16, f8e4m3, e8m0, ...).
StringRef dtypeName(Type type);

/// The type a kernel buffer holds: FP8 and E8M0 travel as bytes.
Type storageType(Type type);

Value constIndex(OpBuilder &b, Location loc, int64_t value);

/// A gpu.module named `name` for `target` holding one kernel gpu.func of the
/// given argument types and block size; the builder is left at the start of
/// the kernel's body.
gpu::GPUFuncOp createKernel(OpBuilder &b, Location loc, StringRef name,
                            const Target &target, TypeRange arguments,
                            int64_t blockSize, TypeRange workgroupBuffers = {});

/// One manifest parameter.
DictionaryAttr manifestParam(OpBuilder &b, StringRef name, StringRef role,
                             StringRef dtype, ArrayRef<int64_t> shape);

/// The manifest's description of a scaling: tile (-1 for `*`), scale, round.
DictionaryAttr manifestScaling(OpBuilder &b, ScalingAttr scaling);

/// Sets the `fp8.manifest` of `kernel`; an `extra` entry overrides a default
/// one of the same name.
void setManifest(OpBuilder &b, gpu::GPUFuncOp kernel, StringRef op,
                 ArrayRef<int64_t> grid, int64_t block,
                 ArrayRef<Attribute> params, StringRef elementType,
                 ScalingAttr scaling, int64_t bytesMoved,
                 ArrayRef<NamedAttribute> extra = {});

/// The global thread index of a kernel with `numThreads` working threads;
/// the builder is left inside the `if` that idles the rest.
Value buildActiveThread(OpBuilder &b, Location loc, int64_t numThreads);

/// |x| as max(x, -x): NaN-propagating, and no libdevice call.
Value buildAbs(OpBuilder &b, Location loc, Value x);

/// FP8 bytes of f32 `values` (an even number) by cvt.rn.satfinite pairs.
Value convertToBytes(OpBuilder &b, Location loc, ArrayRef<Value> values,
                     Type elementType);

/// f32 values of a vector of FP8 bytes, by cvt.rn.f16x2.{e4m3,e5m2}x2 pairs
/// (exact) and an f16 to f32 extension.
SmallVector<Value> convertFromBytes(OpBuilder &b, Location loc, Value bytes,
                                    Type elementType);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_KERNELUTILS_H
