//===- QuantizeKernel.h - what the quantize kernels share -------*- C++ -*-===//
//
// The pieces every kernel shape of fp8.quantize and fp8.amax uses (the
// op's tiling and types, the kernel and its arguments, loads, reductions,
// the cast and the stores), and the shapes themselves, which
// QuantizeKernel.cpp picks from: the tile kernels (QuantizeTileKernels.cpp)
// and the tensorwise kernel (QuantizeTensorwiseKernel.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_QUANTIZEKERNEL_H
#define FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_QUANTIZEKERNEL_H

#include "../Elementwise/FusedProducer.h"
#include "../Program/KernelUtils.h"
#include "../Transform/HadamardKernel.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"

namespace mlir::fp8::kernels {

/// The most 4096-element steps a single-row tile may take in one CTA (its
/// chunks stay in registers: 8 x 16 values per thread).
inline constexpr int64_t kMaxBlockSteps = 8;

/// What the kernel shapes share: the tiling, the types and the buffers.
/// With an fp8.quantize or fp8.quantize_monitored the kernel quantizes;
/// without one (fp8.amax) it stops at the per-tile amax. A monitored
/// quantization also stores each tile's data amax and counts saturated and
/// flushed elements (per thread, then per CTA, then into the workspace with
/// 64-bit atomics; the last CTA writes the totals and re-zeroes it).
struct QuantizeKernelBuilder {
  /// The fp8.quantize or fp8.quantize_monitored; null for fp8.amax.
  Operation *op = nullptr;
  KernelBuilder &b;
  Type inputElement, elementType, scaleElement;
  int64_t rows, cols, tileRows, tileCols;
  bool stochastic = false, monitor = false;
  // The quantization's attributes and optional operands.
  ScalingAttr scaling;
  int64_t margin = 0;
  OpOperand *amaxOperand = nullptr, *seedOperand = nullptr;
  // The kernel's buffers, bound by create (null where the kernel has none):
  // the seed is already loaded, `scratch` is the workspace.
  Value input, seed, data, scales, amaxOut, scratch;
  // An fp8.quantize_transpose (tensorwise or rowwise): the transpose's
  // data and scale buffers too.
  bool transposed = false;
  Value dataT, scalesT;
  // The i32 words of the workspace (`scratch`), where the kernel has one:
  // the tensorwise kernel's amax and counters, or more.
  int64_t workspaceWords = 4;
  // Monitoring: the tile_amax and counts outputs, the counts' workspace
  // (saturated, flushed, CTA tickets), this thread's two counters (i32) and
  // the grid's CTA count.
  Value tileAmaxOut, countsOut, monitorScratch, counters;
  int64_t numBlocks = 0;
  // A given amax per tile (delayed scaling), else null.
  Value givenAmax;
  // An fp8.quantize_delayed's amax history (tensor<Hx1x1xf32>) and whether
  // it takes the most recent entry rather than the max; `history` is its
  // buffer, `amaxOut` then the data's amax.
  OpOperand *historyOperand = nullptr;
  bool mostRecent = false;
  Value history;
  // The fp8.amax op of an amax kernel (whose values it binds).
  Operation *amaxSource = nullptr;
  // How the scales are stored (an fp8.quantize's or
  // fp8.quantize_elementwise's scale_layout).
  ScaleLayout scaleLayout = ScaleLayout::row_major;
  // An fp8.quantize_elementwise's producer: load() computes it.
  std::optional<FusedProducer> producer;
  // Its Hadamard rotation (hadamard_size): load() rotates the values a
  // thread holds, which only the row-tile kernel's layout allows (thread t
  // holds elements chunk t .. chunk t + chunk - 1, a rotation block's
  // threads are consecutive lanes).
  std::optional<HadamardRotation> rotation;
  // The elements a thread loads, quantizes and stores at a time: 16, or 32
  // for rotations of 32 and more (and tiles of 32 columns or more), where
  // the wider chunk saves a shuffle stage of the butterfly (n = 128: two
  // stages across lanes instead of three).
  int64_t chunk = kChunk;

  QuantizeKernelBuilder(KernelBuilder &b, RankedTensorType type,
                        ArrayRef<int64_t> tile, Operation *op = nullptr);

  bool amaxOnly() const { return !op; }

  /// Tiles per column and per row; edge tiles may be partial.
  SmallVector<int64_t> scaleShape() const;
  int64_t numScales() const;
  /// The scale buffer's shape: scaleShape(), or its col_major_tma or
  /// tcgen05 form.
  SmallVector<int64_t> storedScaleShape() const;
  /// An fp8.quantize_transpose's scale_t buffer: the scales of the
  /// transpose's tiles (the same scaling over cols x rows), row-major; one
  /// scale (tensorwise) is stored as the scale is.
  SmallVector<int64_t> storedScaleTShape() const;

  /// The kernel, its manifest and its bound buffers. A quantize kernel's
  /// parameters are input, [seed], [amax], q and scale; an amax kernel's
  /// input and amax; with `workspace`, either ends with the scratch buffer
  /// of the tensorwise kernel.
  gpu::GPUFuncOp create(StringRef name, const Target &target, int64_t numBlocks,
                        bool workspace = false);

  /// The `chunk` elements at `offset`, in f32, from 16-byte aligned loads
  /// (or computed by the fused producer: the load hook).
  Value load(Value offset);
  /// The element at `offset`, in f32.
  Value loadScalar(Value offset);

  /// max |x| over a vector, NaN-propagating (|x| as max(x, -x): no
  /// libdevice call).
  Value maxAbs(Value values);
  /// Butterfly max over `lanes` lanes of a warp.
  Value shuffleMax(Value value, int64_t lanes);
  /// Shared memory for ctaMax: a slot per warp, and `extra` more.
  Value addPartials(gpu::GPUFuncOp func, int64_t extra = 0);
  /// The max of every thread's `value`, in every thread: warp shuffles, then
  /// the warps' partials through shared memory.
  Value ctaMax(Value value, Value partials, Value thread);

  /// The scales of a tile of amax `amax`.
  TileScales tileScales(Value amax);
  /// The FP8 byte of f32 `scaled` by stochastic rounding with the random
  /// number of i64 element index `index`.
  Value stochasticByte(Value scaled, Value index);
  /// Quantizes the `chunk` f32 `values` of elements offset.. with
  /// `quantScale` and stores their bytes.
  void quantizeAndStore(Value values, Value quantScale, Value offset);
  /// Casts the f32 `scaled` values of elements offset.. (the inputs
  /// `values` scaled; a multiple of 4 of them, `offset` a multiple of their
  /// count) and stores their bytes, counting them when monitored.
  void storeScaled(ArrayRef<Value> values, ArrayRef<Value> scaled,
                   Value offset);

  /// The amax the scales of tile `index` derive from: the given one under
  /// delayed scaling, else `computed`.
  Value tileAmax(Value computed, Value index);
  /// Stores the scale (storage type) of tile `index` (row-major) where its
  /// layout puts it.
  void storeScale(Value stored, Value index);
  /// storeScale in the tcgen05 layout, with the chunks' padding zeros.
  void storeTcgen05Scale(Value stored, Value index);
  /// Stores a tile's result: its amax, or its scale (and, monitored, the
  /// amax of its data, `dataAmax`).
  void storeTile(Value amax, const TileScales &result, Value index,
                 Value dataAmax = {});

  /// Monitoring: adds to this thread's counters the saturated and flushed
  /// elements among f32 inputs `values`, scaled to `scaled`, whose FP8
  /// codes are the i8 vector `bytes`.
  void count(ArrayRef<Value> values, ArrayRef<Value> scaled, Value bytes);
  /// Ends the kernel: monitored, every thread of the CTA (at the kernel's
  /// top level) reduces the counters and the last CTA writes `counts`.
  gpu::GPUModuleOp finish(gpu::GPUFuncOp func);

private:
  KernelSignature getSignature(bool workspace);
  void setManifestOf(gpu::GPUFuncOp func, const KernelSignature &signature,
                     int64_t numBlocks);
};

/// 16 bytes of column `column` of a byte tile in shared memory (`tile`, rows
/// of `stride` bytes from byte `base`, or from 0 where `base` is null), rows
/// `firstRow` .. `firstRow` + 15: how the cast-transposes read a row of qt
/// out of the tile they staged.
Value gatherColumnBytes(KernelBuilder &b, Value tile, Value base,
                        Value firstRow, Value column, int64_t stride);

// The kernel shapes. Each returns the kernel's module.
gpu::GPUModuleOp buildRowTileKernel(QuantizeKernelBuilder &k, StringRef name,
                                    const Target &target);
gpu::GPUModuleOp buildBlockTileKernel(QuantizeKernelBuilder &k, StringRef name,
                                      const Target &target);
gpu::GPUModuleOp buildColumnTileKernel(QuantizeKernelBuilder &k, StringRef name,
                                       const Target &target);
gpu::GPUModuleOp buildGenericTileKernel(QuantizeKernelBuilder &k,
                                        StringRef name, const Target &target);
gpu::GPUModuleOp buildTensorwiseKernel(QuantizeKernelBuilder &k, StringRef name,
                                       const Target &target);

/// The kernel of an fp8.quantize_transpose with a scale per row ([1, *]):
/// each row of the input and each row of its transpose (column of the
/// input) scaled by its own amax, found by a first pass of resident CTAs
/// that meet at a grid-wide barrier; then the tensorwise cast-transpose's
/// 64x64-tile pass, with a scale per row and per column
/// (RowwiseCastTransposeKernel.cpp).
FailureOr<gpu::GPUModuleOp>
buildRowwiseCastTransposeKernel(OpBuilder &builder, QuantizeTransposeOp op,
                                StringRef name, const Target &target);

/// The kernel of an fp8.quantize_transpose with square tiles (64x64 or
/// 128x128, blockwise weights): a CTA per tile stores its quantized rows and,
/// through shared memory, its columns (BlockCastTransposeKernel.cpp).
FailureOr<gpu::GPUModuleOp>
buildBlockCastTransposeKernel(OpBuilder &builder, QuantizeTransposeOp op,
                              StringRef name, const Target &target);

/// The kernel of an fp8.quantize_transpose with tensorwise scaling ([*, *],
/// dims multiples of 64): the tensorwise kernel's grid-wide amax, then a
/// pass over 64x64 tiles that writes each tile's quantized rows and,
/// through shared memory, its columns (QuantizeTensorwiseKernel.cpp).
FailureOr<gpu::GPUModuleOp>
buildTensorwiseCastTransposeKernel(OpBuilder &builder, QuantizeTransposeOp op,
                                   StringRef name, const Target &target);

/// The cast-transpose kernel of a matrix of `inputType` quantized with
/// `scaling` to `elementType`, reading `op`'s operand 0, or computing the
/// matrix with `producer` (CastTransposeKernel.cpp).
/// `layouts` are those of the scales and of the transpose's scales.
FailureOr<gpu::GPUModuleOp>
buildCastTransposeOfMatrix(OpBuilder &builder, Operation *op,
                           RankedTensorType inputType, Type elementType,
                           ScalingAttr scaling, int64_t margin,
                           std::array<ScaleLayout, 2> layouts, StringRef name,
                           const Target &target, FusedProducer *producer);

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_QUANTIZE_QUANTIZEKERNEL_H
