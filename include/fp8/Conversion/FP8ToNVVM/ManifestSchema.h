//===- ManifestSchema.h - the names of the kernel manifest ------*- C++ -*-===//
//
// The keys and fixed values of the JSON manifest that `fp8-opt --fp8-emit`
// writes and tools/fp8-run reads (docs/GPU.md describes each). Plain C++ with
// no MLIR or LLVM dependency (the namespace is only a name), so that the
// runtime side includes the same names the compiler writes.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_CONVERSION_FP8TONVVM_MANIFESTSCHEMA_H
#define FP8_CONVERSION_FP8TONVVM_MANIFESTSCHEMA_H

namespace mlir::fp8::manifest {

/// The version of the schema below; a reader refuses a newer major one.
inline constexpr int kVersion = 1;

// Top level.
inline constexpr const char kVersionKey[] = "version";
inline constexpr const char kChip[] = "chip";
inline constexpr const char kKernels[] = "kernels";

// One kernel.
inline constexpr const char kName[] = "name";
inline constexpr const char kPtx[] = "ptx";
inline constexpr const char kOp[] = "op";
inline constexpr const char kLocation[] = "location";
inline constexpr const char kGrid[] = "grid";
inline constexpr const char kBlock[] = "block";
inline constexpr const char kSharedBytes[] = "shared_bytes";
inline constexpr const char kParams[] = "params";
inline constexpr const char kElementType[] = "element_type";
inline constexpr const char kScaling[] = "scaling";
inline constexpr const char kRounding[] = "rounding";
inline constexpr const char kBytesMoved[] = "bytes_moved";
inline constexpr const char kFlops[] = "flops";
inline constexpr const char kMatmul[] = "matmul";

// Entries of one op's kernels: fp8.quantize's stochastic rounding (under
// kRounding) and non-zero margin, fp8.amax's tile (kTile), fp8.hadamard's
// rotated dim, block size and seed.
inline constexpr const char kRoundingStochastic[] = "stochastic";
inline constexpr const char kMargin[] = "margin";
inline constexpr const char kDim[] = "dim";
inline constexpr const char kSize[] = "size";
inline constexpr const char kSeed[] = "seed";

// One parameter: a device pointer to a buffer, or a tensor map.
inline constexpr const char kRole[] = "role";
inline constexpr const char kDType[] = "dtype";
inline constexpr const char kShape[] = "shape";
inline constexpr const char kTensor[] = "tensor";
inline constexpr const char kBox[] = "box";
inline constexpr const char kSwizzle[] = "swizzle";

// Parameter roles.
inline constexpr const char kRoleInput[] = "input";
inline constexpr const char kRoleOutput[] = "output";
inline constexpr const char kRoleTensorMap[] = "tensormap";
/// Zero-filled by the caller once; the kernel leaves it zero when it ends.
inline constexpr const char kRoleWorkspace[] = "workspace";

// A scaling: its tile (-1 for '*'), scale dtype and rounding.
inline constexpr const char kTile[] = "tile";
inline constexpr const char kScale[] = "scale";
inline constexpr const char kRound[] = "round";

} // namespace mlir::fp8::manifest

#endif // FP8_CONVERSION_FP8TONVVM_MANIFESTSCHEMA_H
