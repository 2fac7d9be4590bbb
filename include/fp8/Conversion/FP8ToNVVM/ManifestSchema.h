//===- ManifestSchema.h - the names of the kernel manifest ------*- C++ -*-===//
//
// The keys and fixed values of the JSON manifest that `fp8-opt --fp8-emit`
// writes and libfp8rt and tools/fp8-run read (docs/Manifest.md describes
// each). Plain C++ with
// no MLIR or LLVM dependency (the namespace is only a name), so that the
// runtime side includes the same names the compiler writes.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_CONVERSION_FP8TONVVM_MANIFESTSCHEMA_H
#define FP8_CONVERSION_FP8TONVVM_MANIFESTSCHEMA_H

namespace mlir::fp8::manifest {

/// The version of the schema below; a reader refuses a newer one. Version 2
/// added the functions' launch plans.
inline constexpr int kVersion = 2;

// Top level.
inline constexpr const char kVersionKey[] = "version";
inline constexpr const char kChip[] = "chip";
inline constexpr const char kKernels[] = "kernels";
inline constexpr const char kFunctions[] = "functions";

// One kernel.
inline constexpr const char kName[] = "name";
inline constexpr const char kPtx[] = "ptx";
inline constexpr const char kOp[] = "op";
inline constexpr const char kLocation[] = "location";
inline constexpr const char kGrid[] = "grid";
inline constexpr const char kBlock[] = "block";
// The cluster the kernel fixes at compile time (.reqnctapercluster; absent
// for one CTA): the grid is a multiple of it, and a plain launch forms it.
inline constexpr const char kCluster[] = "cluster";
// true where every thread of the kernel waits for the previous grid
// (griddepcontrol.wait) before touching global memory: only such a kernel
// may be launched with programmatic dependent launch. Absent: false.
inline constexpr const char kPdl[] = "pdl";
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
// A monitored quantization kernel (true); a function result's statistic
// label (the `fp8.monitor` result attribute).
inline constexpr const char kMonitor[] = "monitor";
// A function argument's or result's `fp8.saved` label: a value a split
// training function's forward returns for its backward, or an argument of
// the joint function that backward reads (fp8-split-forward-backward).
inline constexpr const char kSaved[] = "saved";

// A GEMM kernel's kMatmul entries: the problem, the scalings and scale
// layouts of A and B, the result's dtype, the tile (kTile) and the chip's
// pipeline; a grouped GEMM adds kGroups {kCount, kLayout, kCapacity}.
inline constexpr const char kM[] = "m";
inline constexpr const char kN[] = "n";
inline constexpr const char kK[] = "k";
inline constexpr const char kContracting[] = "contracting";
inline constexpr const char kAccumulate[] = "accumulate";
inline constexpr const char kAScaling[] = "a_scaling";
inline constexpr const char kBScaling[] = "b_scaling";
inline constexpr const char kAScaleLayout[] = "a_scale_layout";
inline constexpr const char kBScaleLayout[] = "b_scale_layout";
inline constexpr const char kOutDType[] = "out_dtype";
inline constexpr const char kGroups[] = "groups";
inline constexpr const char kCount[] = "count";
inline constexpr const char kCapacity[] = "capacity";
// The pipeline: both chips' stages and split tiles (0 on sm_100a), and
// sm_100a's accumulators, tensor-memory columns and CTA group.
inline constexpr const char kStages[] = "stages";
inline constexpr const char kSplitTiles[] = "split_tiles";
inline constexpr const char kAccumulators[] = "accumulators";
inline constexpr const char kTmemColumns[] = "tmem_columns";
inline constexpr const char kCtaGroup[] = "cta_group";
// A high-precision GEMM's kAccumulate value.
inline constexpr const char kAccumulateF32[] = "f32";

// One parameter: a device pointer to a buffer, or a tensor map.
inline constexpr const char kRole[] = "role";
inline constexpr const char kDType[] = "dtype";
inline constexpr const char kShape[] = "shape";
inline constexpr const char kTensor[] = "tensor";
inline constexpr const char kBox[] = "box";
inline constexpr const char kSwizzle[] = "swizzle";
// An i32 input param that holds a grouped GEMM's group_rows: {"layout":
// "contiguous" (non-decreasing ends of the groups' rows, at most "rows") or
// "masked" (each group's row count, at most "rows")}. A runtime filling
// inputs fills it with valid bounds rather than random words.
inline constexpr const char kGroupRows[] = "group_rows";
inline constexpr const char kLayout[] = "layout";
inline constexpr const char kRows[] = "rows";
inline constexpr const char kLayoutContiguous[] = "contiguous";
inline constexpr const char kLayoutMasked[] = "masked";

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

// One function's launch plan (kName and kLocation as for a kernel).
inline constexpr const char kArguments[] = "arguments";
inline constexpr const char kResults[] = "results";
inline constexpr const char kBuffers[] = "buffers";
inline constexpr const char kLaunches[] = "launches";
inline constexpr const char kWorkspaceBytes[] = "workspace_bytes";
inline constexpr const char kZeroedBytes[] = "zeroed_bytes";

// One buffer of a plan (kName, kDType and kShape as for a parameter).
inline constexpr const char kId[] = "id";
inline constexpr const char kKind[] = "kind";
inline constexpr const char kIndex[] = "index";
inline constexpr const char kOffset[] = "offset";
inline constexpr const char kOf[] = "of";
inline constexpr const char kBytes[] = "bytes";

// Buffer kinds.
inline constexpr const char kKindArgument[] = "argument";
inline constexpr const char kKindResult[] = "result";
inline constexpr const char kKindIntermediate[] = "intermediate";
inline constexpr const char kKindZeroed[] = "zeroed";
inline constexpr const char kKindView[] = "view";

/// Offsets of intermediates and zeroed buffers are multiples of this.
inline constexpr int kBufferAlignment = 256;

// One launch of a plan (kOp and kLocation as for a kernel).
inline constexpr const char kKernel[] = "kernel";
inline constexpr const char kArgs[] = "args";

} // namespace mlir::fp8::manifest

#endif // FP8_CONVERSION_FP8TONVVM_MANIFESTSCHEMA_H
