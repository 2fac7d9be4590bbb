//===- FP8Dialect.h - FP8 dialect -------------------------------*- C++ -*-===//
//
// The fp8 dialect and its attributes.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_IR_FP8DIALECT_H
#define FP8_DIALECT_FP8_IR_FP8DIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectImplementation.h"

#include "fp8/Dialect/FP8/IR/FP8Dialect.h.inc"
#include "fp8/Dialect/FP8/IR/FP8Enums.h.inc"

namespace mlir::fp8 {

/// The discardable attributes of the GPU conversion: on an op, the kernel
/// built for it (`@module::@kernel`) and which of the kernel's parameters
/// carry its operands and results (`{q = "result 0", input = "operand 0"}`);
/// on a kernel, its manifest entry (a dictionary that fp8-emit writes out
/// as JSON). fp8-emit's launch plan is made of these.
inline constexpr StringLiteral kKernelAttrName = "fp8.kernel";
inline constexpr StringLiteral kKernelArgsAttrName = "fp8.kernel_args";
inline constexpr StringLiteral kManifestAttrName = "fp8.manifest";

/// The name in `candidates` that `name` is most likely a typo of (the
/// closest by edit distance, if within a third of its length, at least 2),
/// for the "did you mean" of a diagnostic.
std::optional<StringRef> findClosestName(StringRef name,
                                         ArrayRef<StringRef> candidates);

/// Parses `[e0, e1, ...]` where each extent is a positive integer or `*`
/// (stored as ShapedType::kDynamic).
FailureOr<SmallVector<int64_t>> parseTileExtents(AsmParser &parser);
/// Prints tile extents, `*` for ShapedType::kDynamic.
void printTileExtents(AsmPrinter &printer, ArrayRef<int64_t> extents);

/// A K-block (a scale tile's extent along the contracted dimension) must be a
/// multiple of this, or `*`: it is the K of one FP8 MMA instruction (wgmma on
/// sm_90a, tcgen05 block32 on sm_100a), the finest step at which a scale can
/// change between tensor-core products.
inline constexpr int64_t kMinKBlock = 32;

/// The shape of a per-tile tensor (scales, amax) of data of shape
/// `dataShape` (rank 2, or 3 with a leading batch dimension scaled per batch
/// element) for a 2-D `tile`: `ceildiv(extent, tile)`, 1 where the tile is
/// `*`, and kDynamic where the data extent is dynamic.
SmallVector<int64_t> getTiledShape(ArrayRef<int64_t> dataShape,
                                   ArrayRef<int64_t> tile);

/// The col_major_tma scale layout pads each row to a multiple of this many
/// bytes: TMA's global stride alignment (Target::kTmaStrideAlignment), part
/// of the layout's definition whichever chip reads it.
inline constexpr int64_t kColMajorTmaRowAlignment = 16;

/// The shape of the `col_major_tma` form (ScaleLayout::col_major_tma) of a
/// rank-2 scale tensor of `elementType` (f32 or f8E8M0FNU) whose row-major
/// shape is `rowMajorShape` = [R, C]: its transpose [C, R], with R rounded up
/// so that a row fills a multiple of kColMajorTmaRowAlignment bytes (4 f32, 16
/// E8M0). A dynamic extent stays dynamic.
SmallVector<int64_t> getTmaAlignedScaleShape(ArrayRef<int64_t> rowMajorShape,
                                             Type elementType);

/// The tcgen05 scale-factor layout (fp8.tcgen05_scales) groups a row-major
/// [R, Kb] matrix of E8M0 scales into chunks of kTcgen05ScaleRows rows x
/// kTcgen05ScaleKBlocks K-blocks, kTcgen05ScaleChunkBytes bytes each.
inline constexpr int64_t kTcgen05ScaleRows = 128;
inline constexpr int64_t kTcgen05ScaleKBlocks = 4;
/// The K extent of one tcgen05 scale factor (block32: MXFP8's 1x32).
inline constexpr int64_t kTcgen05ScaleBlock = 32;
inline constexpr int64_t kTcgen05ScaleChunkBytes =
    kTcgen05ScaleRows * kTcgen05ScaleKBlocks;

/// The shape of the tcgen05 form of a row-major [R, Kb] scale matrix:
/// [ceil(R / 128) * ceil(Kb / 4), 512]. A dynamic extent gives a dynamic
/// chunk count.
SmallVector<int64_t> getTcgen05ScaleShape(ArrayRef<int64_t> rowMajorShape);

/// A tile as `[1, *]`, for diagnostics and tables.
std::string formatTile(ArrayRef<int64_t> tile);
/// A shape as `256x?x4`, for diagnostics and tables.
std::string formatShape(ArrayRef<int64_t> shape);

/// The permutation that swaps the two matrix dims of a rank-`rank` tensor
/// (the last two) and keeps a leading batch dim.
SmallVector<int64_t> getMatrixTransposition(int64_t rank);
/// Whether `permutation` is that one.
bool isMatrixTransposition(ArrayRef<int64_t> permutation);

/// Whether `type` is an FP8 element type that data may be quantized to.
bool isFP8DataType(Type type);
/// The largest finite value of an FP8 element type (448 for e4m3, 57344 for
/// e5m2).
double getFP8MaxValue(Type type);

} // namespace mlir::fp8

#define GET_ATTRDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Attrs.h.inc"

#endif // FP8_DIALECT_FP8_IR_FP8DIALECT_H
