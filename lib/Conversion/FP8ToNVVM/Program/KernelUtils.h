//===- KernelUtils.h - shared pieces of the generated kernels ---*- C++ -*-===//
//
// Helpers the fp8 kernel builders share: the kernel module and its NVVM
// target, the kernel manifest, and conversions between f32 and FP8 bytes
// with the PTX cvt instructions.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELUTILS_H
#define FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELUTILS_H

#include "KernelBuilder.h"
#include "KernelSignature.h"
#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

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

/// A scale as its buffer holds it (storageType): E8M0 as its byte.
Value toScaleStorage(KernelBuilder &b, Value scale);

/// A gpu.module named `name` for `target` holding one kernel gpu.func with
/// the arguments of `signature`, `blockSize` threads per block and the given
/// shared-memory buffers; the builder is left at the start of its body.
gpu::GPUFuncOp createKernel(KernelBuilder &b, StringRef name,
                            const Target &target,
                            const KernelSignature &signature, int64_t blockSize,
                            TypeRange workgroupBuffers = {});

/// The global-memory address of byte `byteOffset` of `buffer` (a kernel
/// argument, identity layout), for the PTX that MLIR's loads and stores
/// cannot say (cache hints, bulk prefetches).
Value globalByteAddress(KernelBuilder &b, Value buffer, Value byteOffset);

/// Ends the body of `kernel` with its return; returns its module.
gpu::GPUModuleOp finishKernel(KernelBuilder &b, gpu::GPUFuncOp kernel);

/// One manifest parameter.
DictionaryAttr manifestParam(OpBuilder &b, StringRef name, StringRef role,
                             StringRef dtype, ArrayRef<int64_t> shape);

/// The manifest's description of a scaling: tile (-1 for `*`), scale, round.
DictionaryAttr manifestScaling(OpBuilder &b, ScalingAttr scaling);

/// The manifest entries of a kernel that writes or reads FP8 data of
/// `elementType` scaled by `scaling`: element_type and scaling.
SmallVector<NamedAttribute> manifestQuantization(OpBuilder &b, Type elementType,
                                                 ScalingAttr scaling);

/// Sets the `fp8.manifest` of `kernel`, a 1-D launch of `numBlocks` blocks
/// of `blockSize` threads: its op, launch, the params of `signature` and
/// the bytes moved, then the `extra` entries; an extra entry overrides a
/// default one of the same name (e.g. shared_bytes, 0 by default).
void setManifest(OpBuilder &b, gpu::GPUFuncOp kernel,
                 const KernelSignature &signature, StringRef op,
                 int64_t numBlocks, int64_t blockSize, int64_t bytesMoved,
                 ArrayRef<NamedAttribute> extra = {});

/// The global thread index of a kernel with `numThreads` working threads;
/// the builder is left inside the `if` that idles the rest.
Value buildActiveThread(KernelBuilder &b, int64_t numThreads);

/// The row-major indices of element `flat` of `shape`.
SmallVector<Value> delinearize(KernelBuilder &b, Value flat,
                               ArrayRef<int64_t> shape);

/// The row-major offset of `indices` in `shape`.
Value linearize(KernelBuilder &b, ArrayRef<Value> indices,
                ArrayRef<int64_t> shape);

/// The row-major offset, in a buffer of `shape`, of the element that the
/// indexing map `map` picks at loop indices `loopIndices`.
Value mapOffset(KernelBuilder &b, AffineMap map, ArrayRef<int64_t> shape,
                ArrayRef<Value> loopIndices);

/// Whether the body of linalg op `op` may be cloned into a kernel: its ops
/// are arith/math ops, and any value it takes from outside is a constant.
LogicalResult checkClonableBody(linalg::LinalgOp op);

/// Fails with a diagnostic at `op` unless a scale re-layout kernel's scale
/// matrix and result are static and the scales non-empty.
LogicalResult checkStaticScales(Operation *op, RankedTensorType scaleType,
                                RankedTensorType resultType);

/// sm_100a's tcgen05 scale-factor layout of a row-major [rows, kBlocks]
/// E8M0 matrix (fp8.tcgen05_scales, whose kernel and the quantize kernels'
/// tcgen05 scale store both place scales with these two): 512-byte chunks
/// of 128 rows x 4 K-blocks, row-block major, row 32 j + r and K-block c of
/// a chunk at its byte 16 r + 4 j + c. The byte offset of scale
/// [row][kBlock]:
Value tcgen05ScaleOffset(KernelBuilder &b, Value row, Value kBlock,
                         int64_t kBlocks);
/// and the [row, kBlock] of byte `offset`, past the matrix for padding.
std::pair<Value, Value> tcgen05ScalePosition(KernelBuilder &b, Value offset,
                                             int64_t kBlocks);

/// Clones the ops of a linalg body (and the constants it uses from
/// outside) at the builder, its arguments given by `mapping`; returns the
/// values it yields.
SmallVector<Value> cloneBody(OpBuilder &b, Block *body, IRMapping &mapping);

/// Rewrites the math functions of `func` into arith ops (MLIR's polynomial
/// approximations), so that its PTX calls no library.
LogicalResult expandMathFunctions(gpu::GPUFuncOp func);

/// FP8 bytes of f32 `values` (an even number) by cvt.rn.satfinite pairs.
Value convertToBytes(KernelBuilder &b, ArrayRef<Value> values,
                     Type elementType);

/// f32 values of a vector of FP8 bytes, by cvt.rn.f16x2.{e4m3,e5m2}x2 pairs
/// (exact) and an f16 to f32 extension.
SmallVector<Value> convertFromBytes(KernelBuilder &b, Value bytes,
                                    Type elementType);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELUTILS_H
