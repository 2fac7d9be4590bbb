//===- QuantizeLowering.cpp - fp8 quantization ops to linalg --------------===//
//
// The CPU reference of fp8.quantize, quantize_monitored, dequantize, requantize
// and amax. A quantization takes the per-tile amax of its input padded to whole
// tiles, derives each tile's scales with Numerics.h's buildTileScales, then
// scales and rounds every element with its tile's scale in one linalg.generic.
//
//===----------------------------------------------------------------------===//

#include "ReferenceUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::reference;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// The extent the reference tiles a dimension of `dimExtent` by: `*` the
/// whole dimension; a tile longer than the dimension is one partial tile,
/// the dimension's length (padding to the tile itself could overflow);
/// never 0, so that an empty dimension still divides (an empty `*` tile is
/// one tile of padding, as its scale tensor has one element).
static int64_t resolveExtent(int64_t tileExtent, int64_t dimExtent) {
  int64_t extent = ShapedType::isDynamic(tileExtent)
                       ? dimExtent
                       : std::min(tileExtent, dimExtent);
  return std::max<int64_t>(extent, 1);
}

/// `dimExtent` padded to whole tiles of `extent` (resolveExtent's).
static int64_t paddedExtent(int64_t tileExtent, int64_t dimExtent,
                            int64_t extent) {
  if (ShapedType::isDynamic(tileExtent))
    return extent;
  return llvm::alignTo(dimExtent, extent);
}

/// The map from a data index (batch dims, then rows, cols) to the index of
/// its tile in a per-tile tensor: `d floordiv t`, or 0 where the tile spans
/// the dimension.
static AffineMap tileIndexMap(MLIRContext *ctx, unsigned rank,
                              ArrayRef<int64_t> tile) {
  SmallVector<AffineExpr> results;
  unsigned batchRank = rank - 2;
  for (unsigned d = 0; d < batchRank; ++d)
    results.push_back(getAffineDimExpr(d, ctx));
  for (unsigned i = 0; i < 2; ++i) {
    int64_t extent = tile[i];
    results.push_back(
        ShapedType::isDynamic(extent)
            ? getAffineConstantExpr(0, ctx)
            : getAffineDimExpr(batchRank + i, ctx).floorDiv(extent));
  }
  return AffineMap::get(rank, 0, results, ctx);
}

/// Per-tile max |x| in f32 of a rank-2 or rank-3 tensor; NaN propagates.
static Value buildTileAmax(OpBuilder &b, Location loc, Value input,
                           ArrayRef<int64_t> tile) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(input.getType());
  unsigned rank = type.getRank(), batchRank = rank - 2;
  int64_t tr = resolveExtent(tile[0], type.getDimSize(batchRank));
  int64_t tc = resolveExtent(tile[1], type.getDimSize(batchRank + 1));
  SmallVector<int64_t> padded(type.getShape());
  padded[batchRank] = paddedExtent(tile[0], padded[batchRank], tr);
  padded[batchRank + 1] = paddedExtent(tile[1], padded[batchRank + 1], tc);
  Value tiles = padWithZeros(b, loc, input, padded);
  tiles = splitDim(b, loc, tiles, batchRank + 1, tc);
  tiles = splitDim(b, loc, tiles, batchRank, tr);

  // Loops: batch, row tile, col tile (parallel), row in tile, col in tile.
  unsigned numLoops = batchRank + 4;
  auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
  SmallVector<AffineExpr> inputExprs, outputExprs;
  for (unsigned i = 0; i < batchRank; ++i) {
    inputExprs.push_back(d(i));
    outputExprs.push_back(d(i));
  }
  inputExprs.append(
      {d(batchRank), d(batchRank + 2), d(batchRank + 1), d(batchRank + 3)});
  outputExprs.append({d(batchRank), d(batchRank + 1)});
  SmallVector<utils::IteratorType> iterators = parallelIterators(numLoops);
  iterators[batchRank + 2] = iterators[batchRank + 3] =
      utils::IteratorType::reduction;

  SmallVector<int64_t> resultShape = getTiledShape(type.getShape(), tile);
  Value init = filledTensor(b, loc, resultShape, b.getF32Type(),
                            b.getF32FloatAttr(0.0f));
  return linalg::GenericOp::create(
             b, loc, init.getType(), tiles, init,
             ArrayRef<AffineMap>{AffineMap::get(numLoops, 0, inputExprs, ctx),
                                 AffineMap::get(numLoops, 0, outputExprs, ctx)},
             iterators,
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value v = args[0];
               if (!v.getType().isF32())
                 v = arith::ExtFOp::create(nb, nloc, nb.getF32Type(), v);
               Value magnitude = math::AbsFOp::create(nb, nloc, v);
               Value max =
                   arith::MaximumFOp::create(nb, nloc, args[1], magnitude);
               linalg::YieldOp::create(nb, nloc, max);
             })
      .getResult(0);
}

/// The linear (row-major) index of the current element of a generic whose
/// first `shape.size()` loops walk `shape`, as i64.
static Value buildLinearIndex(OpBuilder &b, Location loc,
                              ArrayRef<int64_t> shape) {
  Value linear = arith::ConstantIndexOp::create(b, loc, 0);
  for (unsigned d = 0; d < shape.size(); ++d) {
    Value extent = arith::ConstantIndexOp::create(b, loc, shape[d]);
    Value index = linalg::IndexOp::create(b, loc, d);
    linear = arith::AddIOp::create(
        b, loc, arith::MulIOp::create(b, loc, linear, extent), index);
  }
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), linear);
}

/// Quantizes f32-convertible `input` with per-tile `amax` (f32) to
/// `elementType`: returns (data, stored scales).
static std::pair<Value, Value>
buildQuantize(OpBuilder &b, Location loc, Value input, Value amax,
              Type elementType, ScalingAttr scaling, int64_t margin,
              Rounding rounding, Value seed, Value *quantScales = nullptr) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(input.getType());
  auto amaxType = cast<RankedTensorType>(amax.getType());
  unsigned rank = type.getRank();

  // Scales per tile.
  Value quantInit = emptyTensor(b, loc, amaxType.getShape(), b.getF32Type());
  Value storedInit =
      emptyTensor(b, loc, amaxType.getShape(), scaling.getScale());
  AffineMap id = b.getMultiDimIdentityMap(rank);
  auto scales = linalg::GenericOp::create(
      b, loc, TypeRange{quantInit.getType(), storedInit.getType()}, amax,
      ValueRange{quantInit, storedInit}, ArrayRef<AffineMap>{id, id, id},
      parallelIterators(rank),
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        TileScales tile =
            buildTileScales(nb, nloc, args[0], elementType, scaling, margin);
        linalg::YieldOp::create(nb, nloc,
                                ValueRange{tile.quantScale, tile.storedScale});
      });

  // Data: scale, then round.
  SmallVector<Value> inputs = {input, scales.getResult(0)};
  SmallVector<AffineMap> maps = {id,
                                 tileIndexMap(ctx, rank, scaling.getTile())};
  if (rounding == Rounding::stochastic) {
    inputs.push_back(seed);
    maps.push_back(AffineMap::get(rank, 0, {}, ctx));
  }
  maps.push_back(id);
  Value init = emptyTensor(b, loc, type.getShape(), elementType);
  Value data =
      linalg::GenericOp::create(
          b, loc, init.getType(), inputs, init, maps, parallelIterators(rank),
          [&](OpBuilder &nb, Location nloc, ValueRange args) {
            Value v = args[0];
            if (!v.getType().isF32())
              v = arith::ExtFOp::create(nb, nloc, nb.getF32Type(), v);
            Value scaled = arith::MulFOp::create(nb, nloc, v, args[1]);
            // A NaN made by the multiply (inf * 0, a NaN scale) has a
            // host-dependent sign (x86 makes it negative): make it the
            // positive quiet NaN, as GPUs and APFloat do; a NaN input keeps
            // its own sign.
            Value madeNaN = arith::AndIOp::create(
                nb, nloc,
                arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::ORD, v,
                                      v),
                arith::CmpFOp::create(nb, nloc, arith::CmpFPredicate::UNO,
                                      scaled, scaled));
            scaled = arith::SelectOp::create(
                nb, nloc, madeNaN,
                arith::ConstantOp::create(
                    nb, nloc,
                    nb.getF32FloatAttr(
                        std::numeric_limits<float>::quiet_NaN())),
                scaled);
            Value q;
            if (rounding == Rounding::stochastic) {
              Value index = buildLinearIndex(nb, nloc, type.getShape());
              Value random = buildPhiloxRandom16(nb, nloc, args[2], index);
              q = buildStochasticCast(nb, nloc, scaled, random, elementType);
            } else {
              q = buildSaturatingCast(nb, nloc, scaled, elementType);
            }
            linalg::YieldOp::create(nb, nloc, q);
          })
          .getResult(0);
  if (quantScales)
    *quantScales = scales.getResult(0);
  return {data, scales.getResult(1)};
}

/// The health counts of a quantization as tensor<2xi64>: [0] the elements
/// that the clamp to ±fmax changes, |x * qscale| above fmax plus half its
/// ulp (saturated; NaN is not counted, an infinity is), [1] the nonzero,
/// non-NaN elements that quantized to ±0 (flushed). `quantScales` holds
/// each tile's qscale.
static Value buildQuantizeCounts(OpBuilder &b, Location loc, Value input,
                                 Value quantScales, Value data,
                                 ScalingAttr scaling) {
  MLIRContext *ctx = b.getContext();
  auto type = cast<RankedTensorType>(input.getType());
  auto dataType = cast<RankedTensorType>(data.getType());
  unsigned rank = type.getRank();
  FP8Format format = getFP8Format(dataType.getElementType());
  float threshold = format.saturationThreshold();
  arith::CmpFPredicate above = format.tieSaturates()
                                   ? arith::CmpFPredicate::OGE
                                   : arith::CmpFPredicate::OGT;
  Type i64 = b.getI64Type();
  Value zero = filledTensor(b, loc, {}, i64, b.getI64IntegerAttr(0));
  AffineMap id = b.getMultiDimIdentityMap(rank);
  AffineMap scalar = AffineMap::get(rank, 0, {}, ctx);
  SmallVector<utils::IteratorType> iterators(rank,
                                             utils::IteratorType::reduction);
  auto counts = linalg::GenericOp::create(
      b, loc, TypeRange{zero.getType(), zero.getType()},
      ValueRange{input, quantScales, data}, ValueRange{zero, zero},
      ArrayRef<AffineMap>{id, tileIndexMap(ctx, rank, scaling.getTile()), id,
                          scalar, scalar},
      iterators, [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value v = args[0];
        if (!v.getType().isF32())
          v = arith::ExtFOp::create(nb, nloc, nb.getF32Type(), v);
        Value scaled = arith::MulFOp::create(nb, nloc, v, args[1]);
        Value magnitude = math::AbsFOp::create(nb, nloc, scaled);
        Value limit =
            arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(threshold));
        // Ordered: a NaN is not a saturation.
        Value saturated =
            arith::CmpFOp::create(nb, nloc, above, magnitude, limit);
        Value bits =
            arith::BitcastOp::create(nb, nloc, nb.getI8Type(), args[2]);
        Value magnitudeBits = arith::AndIOp::create(
            nb, nloc, bits,
            arith::ConstantOp::create(nb, nloc, nb.getI8IntegerAttr(0x7F)));
        Value isZero = arith::CmpIOp::create(
            nb, nloc, arith::CmpIPredicate::eq, magnitudeBits,
            arith::ConstantOp::create(nb, nloc, nb.getI8IntegerAttr(0)));
        // Ordered and unequal: nonzero and not NaN.
        Value nonzero = arith::CmpFOp::create(
            nb, nloc, arith::CmpFPredicate::ONE, v,
            arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(0.0f)));
        Value flushed = arith::AndIOp::create(nb, nloc, nonzero, isZero);
        auto add = [&](Value count, Value flag) {
          return arith::AddIOp::create(
              nb, nloc, count,
              arith::ExtUIOp::create(nb, nloc, nb.getI64Type(), flag));
        };
        linalg::YieldOp::create(
            nb, nloc,
            ValueRange{add(args[3], saturated), add(args[4], flushed)});
      });
  SmallVector<Value> elements;
  for (Value count : counts.getResults())
    elements.push_back(tensor::ExtractOp::create(b, loc, count, ValueRange{}));
  return tensor::FromElementsOp::create(b, loc, RankedTensorType::get({2}, i64),
                                        elements);
}

/// `f32(q) * scale` for every element, rounded to `resultElementType`.
static Value buildDequantize(OpBuilder &b, Location loc, Value q, Value scale,
                             ScalingAttr scaling, Type resultElementType) {
  auto type = cast<RankedTensorType>(q.getType());
  unsigned rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  Value init = emptyTensor(b, loc, type.getShape(), resultElementType);
  return linalg::GenericOp::create(
             b, loc, init.getType(), ValueRange{q, scale}, init,
             ArrayRef<AffineMap>{
                 id, tileIndexMap(b.getContext(), rank, scaling.getTile()), id},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value v = buildFP8ToF32(nb, nloc, args[0]);
               Value s = buildScaleToF32(nb, nloc, args[1]);
               Value x = arith::MulFOp::create(nb, nloc, v, s);
               x = buildRoundF32To(nb, nloc, x, resultElementType);
               linalg::YieldOp::create(nb, nloc, x);
             })
      .getResult(0);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

/// `scale`, row-major, stored in `layout`: col_major_tma is, by
/// definition, fp8.tma_align_scales of the row-major scales, and tcgen05
/// their fp8.tcgen05_scales (the re-layouts that fp8-fuse-quantization
/// fused into the quantization).
static Value storeScales(OpBuilder &b, Location loc, Value scale,
                         ScaleLayout layout) {
  if (layout == ScaleLayout::row_major)
    return scale;
  if (layout == ScaleLayout::tcgen05)
    return Tcgen05ScalesOp::create(b, loc, scale);
  return TmaAlignScalesOp::create(b, loc, scale);
}

/// fp8.quantize of `input` to `dataType`, round-to-nearest with its own
/// amax (what the fused ops are defined by), its scales stored in `layout`.
static std::pair<Value, Value>
buildFusedQuantize(OpBuilder &b, Location loc, Type dataType, Value input,
                   ScalingAttr scaling, int64_t margin, ScaleLayout layout) {
  auto type = cast<RankedTensorType>(input.getType());
  auto rowMajor = RankedTensorType::get(
      getTiledShape(type.getShape(), scaling.getTile()), scaling.getScale());
  auto quantize = QuantizeOp::create(b, loc, dataType, rowMajor, input,
                                     /*amax=*/Value(), /*seed=*/Value(),
                                     scaling, Rounding::nearest, margin);
  return {quantize.getResult(),
          storeScales(b, loc, quantize.getScale(), layout)};
}

struct QuantizeLowering : OpRewritePattern<QuantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value amax = op.getAmax();
    if (!amax)
      amax = buildTileAmax(rewriter, loc, op.getInput(),
                           op.getScaling().getTile());
    auto [data, scale] = buildQuantize(
        rewriter, loc, op.getInput(), amax,
        op.getResult().getType().getElementType(), op.getScaling(),
        op.getMargin(), op.getRounding(), op.getSeed());
    rewriter.replaceOp(op, {data, scale});
    return success();
  }
};

/// fp8.quantize's result and scale, then the statistics: the data's amax
/// per tile (the given amax of delayed scaling only sets the scales) and
/// the counts of saturated and flushed elements.
struct QuantizeMonitoredLowering : OpRewritePattern<QuantizeMonitoredOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeMonitoredOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value dataAmax =
        buildTileAmax(rewriter, loc, op.getInput(), op.getScaling().getTile());
    Value amax = op.getAmax() ? op.getAmax() : dataAmax;
    Value quantScales;
    auto [data, scale] = buildQuantize(
        rewriter, loc, op.getInput(), amax,
        op.getResult().getType().getElementType(), op.getScaling(),
        op.getMargin(), op.getRounding(), op.getSeed(), &quantScales);
    Value counts = buildQuantizeCounts(rewriter, loc, op.getInput(),
                                       quantScales, data, op.getScaling());
    rewriter.replaceOp(op, {data, scale, dataAmax, counts});
    return success();
  }
};

/// The fused op is, by definition, its two quantizations: the reference
/// lowers it through them, so that fusing never changes a bit.
struct QuantizeTransposeLowering : OpRewritePattern<QuantizeTransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeTransposeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto [rows, rowScales] = buildFusedQuantize(
        rewriter, loc, op.getResult().getType(), op.getInput(), op.getScaling(),
        op.getMargin(), op.getScaleLayout());
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    Value init = tensor::EmptyOp::create(
        rewriter, loc,
        ArrayRef<int64_t>{inputType.getDimSize(1), inputType.getDimSize(0)},
        inputType.getElementType());
    Value transposed =
        linalg::TransposeOp::create(rewriter, loc, op.getInput(), init,
                                    ArrayRef<int64_t>{1, 0})
            ->getResult(0);
    auto [columns, columnScales] = buildFusedQuantize(
        rewriter, loc, op.getResultT().getType(), transposed, op.getScaling(),
        op.getMargin(), op.getScaleTLayout());
    rewriter.replaceOp(op, {rows, rowScales, columns, columnScales});
    return success();
  }
};

/// The fused op is, by definition, its producer and its quantization: the
/// reference materializes the producer (and its row sums) as the
/// linalg.generic it came from
/// and quantizes its result with fp8.quantize (or fp8.quantize_transpose,
/// lowered in turn), so that fusing never changes a bit.
struct QuantizeElementwiseLowering : OpRewritePattern<QuantizeElementwiseOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(QuantizeElementwiseOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType producedType = op.getProducedType();
    Value init = tensor::EmptyOp::create(rewriter, loc, producedType.getShape(),
                                         producedType.getElementType());
    SmallVector<AffineMap> maps = llvm::map_to_vector(
        op.getIndexingMaps().getAsValueRange<AffineMapAttr>(),
        [](AffineMap map) { return map; });
    maps.push_back(rewriter.getMultiDimIdentityMap(2));
    SmallVector<utils::IteratorType> iterators(2,
                                               utils::IteratorType::parallel);
    // A region's element on `args`: every op before its fp8.yield (see
    // verifyRegion); the arguments past `args` (later row sums) are unread.
    auto cloneRegion = [](OpBuilder &b, Block &block, ValueRange args) {
      IRMapping mapping;
      for (auto [from, to] : llvm::zip(block.getArguments(), args))
        mapping.map(from, to);
      for (Operation &inner :
           llvm::make_range(block.begin(), std::prev(block.end())))
        b.clone(inner, mapping);
      return mapping.lookupOrDefault(block.back().getOperand(0));
    };
    // The row sums, by definition those of the reducing generics from a
    // zero fill, in the row-sum order; each reads the ones before it.
    int64_t rows = producedType.getDimSize(0);
    AffineMap rowMap =
        AffineMap::get(2, 0, rewriter.getAffineDimExpr(0), getContext());
    SmallVector<Value> inputs(op.getInputs());
    SmallVector<AffineMap> sumMaps(maps.begin(), std::prev(maps.end()));
    for (Region &region : op.getReductions()) {
      Value zeros = filledTensor(rewriter, loc, {rows}, rewriter.getF32Type(),
                                 rewriter.getF32FloatAttr(0.0));
      Value sum = buildRowSum(rewriter, loc, inputs, sumMaps, zeros,
                              producedType.getDimSize(1),
                              [&](OpBuilder &b, ValueRange args) {
                                return cloneRegion(b, region.front(), args);
                              });
      inputs.push_back(sum);
      sumMaps.push_back(rowMap);
    }
    maps = sumMaps;
    maps.push_back(rewriter.getMultiDimIdentityMap(2));
    Block &body = op.getBody().front();
    auto generic = linalg::GenericOp::create(
        rewriter, loc, TypeRange{producedType}, inputs, ValueRange{init}, maps,
        iterators, [&](OpBuilder &b, Location bodyLoc, ValueRange args) {
          linalg::YieldOp::create(b, bodyLoc,
                                  cloneRegion(b, body, args.drop_back()));
        });
    Value produced = generic.getResult(0);
    // The rotation between producer and quantization, by definition.
    if (std::optional<uint64_t> size = op.getHadamardSize())
      produced = HadamardOp::create(rewriter, loc, producedType, produced,
                                    /*dim=*/1, *size, op.getHadamardSeedAttr());
    SmallVector<Value> results;
    if (op.getTranspose()) {
      auto fused = QuantizeTransposeOp::create(
          rewriter, loc, op.getQuantized().getType(), op.getScale().getType(),
          op.getQuantizedT().getType(), op.getScaleT().getType(), produced,
          op.getScaling(), op.getMargin(), op.getScaleLayout(),
          op.getScaleTLayout());
      results.append(fused->result_begin(), fused->result_end());
    } else {
      auto [data, scale] = buildFusedQuantize(
          rewriter, loc, op.getQuantized().getType(), produced, op.getScaling(),
          op.getMargin(), op.getScaleLayout());
      results.append({data, scale});
    }
    if (op.getKept())
      results.push_back(produced);
    rewriter.replaceOp(op, results);
    return success();
  }
};

struct DequantizeLowering : OpRewritePattern<DequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(DequantizeOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildDequantize(rewriter, op.getLoc(), op.getInput(), op.getScale(),
                            op.getScaling(),
                            op.getResult().getType().getElementType()));
    return success();
  }
};

struct AmaxLowering : OpRewritePattern<AmaxOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(AmaxOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(op, buildTileAmax(rewriter, op.getLoc(), op.getInput(),
                                         op.getTile().getExtents()));
    return success();
  }
};

/// requantize = dequantize to f32, then quantize with the new scaling; the
/// new amax is that of the dequantized values.
struct RequantizeLowering : OpRewritePattern<RequantizeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(RequantizeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value wide = buildDequantize(rewriter, loc, op.getInput(), op.getScale(),
                                 op.getScaling(), rewriter.getF32Type());
    Value amax = buildTileAmax(rewriter, loc, wide, op.getTo().getTile());
    auto [data, scale] = buildQuantize(
        rewriter, loc, wide, amax, op.getResult().getType().getElementType(),
        op.getTo(), /*margin=*/0, op.getRounding(), op.getSeed());
    rewriter.replaceOp(op, {data, scale});
    return success();
  }
};

} // namespace

void reference::populateQuantizeLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<AmaxLowering, DequantizeLowering, QuantizeLowering,
               QuantizeElementwiseLowering, QuantizeMonitoredLowering,
               QuantizeTransposeLowering, RequantizeLowering>(
      patterns.getContext());
}
