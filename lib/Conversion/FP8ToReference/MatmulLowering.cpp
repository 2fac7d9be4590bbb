//===- MatmulLowering.cpp - fp8 matmul and layout ops to linalg -----------===//
//
// The CPU reference of fp8.scaled_matmul, transpose, tma_align_scales and
// hadamard. A scaled matmul reads its scales in row-major layout (undoing
// col_major_tma), splits K into chunks of the promotion interval, sums each
// chunk's products in f32 and adds the chunks scaled, as a promoting GPU
// kernel does.
//
//===----------------------------------------------------------------------===//

#include "ReferenceUtils.h"
#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Utils/Numerics.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/bit.h"
#include "llvm/Support/MathExtras.h"

#include <cmath>

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::reference;

/// Partial sums of a scaled_matmul whose scales are constant along all of K
/// are promoted to the f32 result every this many elements, the interval
/// Hopper kernels use (four wgmma K-steps of 32).
static constexpr int64_t kDefaultPromotionInterval = 128;

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Converts a float tensor to f32 elementwise (extf; identity for f32).
static Value convertToF32(OpBuilder &b, Location loc, Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  if (type.getElementType().isF32())
    return input;
  unsigned rank = type.getRank();
  AffineMap id = b.getMultiDimIdentityMap(rank);
  Value init = emptyTensor(b, loc, type.getShape(), b.getF32Type());
  return linalg::GenericOp::create(
             b, loc, init.getType(), input, init, ArrayRef<AffineMap>{id, id},
             parallelIterators(rank),
             [&](OpBuilder &nb, Location nloc, ValueRange args) {
               Value v = buildFP8ToF32(nb, nloc, args[0]);
               linalg::YieldOp::create(nb, nloc, v);
             })
      .getResult(0);
}

/// A float constant whose bits are all zero: +0.0, or for E8M0, which has
/// no zero, code 0 (2^-127).
static Value zeroBits(OpBuilder &b, Location loc, Type elementType) {
  auto type = cast<FloatType>(elementType);
  APFloat value(type.getFloatSemantics(), APInt::getZero(type.getWidth()));
  return arith::ConstantOp::create(b, loc, b.getFloatAttr(type, value));
}

/// The transpose of a rank-2 tensor.
static Value transposeMatrix(OpBuilder &b, Location loc, Value input) {
  auto type = cast<RankedTensorType>(input.getType());
  Value init = emptyTensor(b, loc, {type.getDimSize(1), type.getDimSize(0)},
                           type.getElementType());
  return linalg::TransposeOp::create(b, loc, input, init,
                                     ArrayRef<int64_t>{1, 0})
      .getResult()[0];
}

/// A partial sum times its pair of f32 scales (docs/Numerics.md):
/// fl32(sa·sb)·P where the product is a normal f32, else (P·sa)·sb. A product
/// that overflows times a zero sum would be NaN, and one that is subnormal
/// loses bits of a normal result; (P·sa)·sb is safe exactly there.
static Value buildScaledTerm(OpBuilder &b, Location loc, Value partial,
                             Value sa, Value sb) {
  Type i32 = b.getI32Type();
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i32, v).getResult();
  };
  Value product = arith::MulFOp::create(b, loc, sa, sb);
  // Magnitude bits in [0x00800000, 0x7F7FFFFF]: from the smallest normal to
  // max f32, of either sign.
  Value bits = arith::AndIOp::create(
      b, loc, arith::BitcastOp::create(b, loc, i32, product),
      constant(0x7FFFFFFF));
  Value offset = arith::SubIOp::create(b, loc, bits, constant(0x00800000));
  Value normal = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                       offset, constant(0x7F000000));
  Value byProduct = arith::MulFOp::create(b, loc, product, partial);
  Value stepwise = arith::MulFOp::create(
      b, loc, arith::MulFOp::create(b, loc, partial, sa), sb);
  return arith::SelectOp::create(b, loc, normal, byProduct, stepwise);
}

/// The col_major_tma form of a row-major scale matrix [R, C]: rows padded
/// with zero bits to R' (16 bytes), then transposed to [C, R'].
static Value buildTmaAlignScales(OpBuilder &b, Location loc, Value scale) {
  auto type = cast<RankedTensorType>(scale.getType());
  SmallVector<int64_t> aligned =
      getTmaAlignedScaleShape(type.getShape(), type.getElementType());
  Value padded = padWith(b, loc, scale, {aligned[1], type.getDimSize(1)},
                         zeroBits(b, loc, type.getElementType()));
  return transposeMatrix(b, loc, padded);
}

/// The tcgen05 form of row-major E8M0 scales [R, Kb]: padded with code 0 to
/// [R', Kb'] (whole chunks of 128 rows and 4 K-blocks), viewed as
/// [R'/128, j = 4, r = 32, Kb'/4, c = 4] (row 32 j + r, K-block c), permuted
/// to [R'/128, Kb'/4, r, j, c] and flattened to 512-byte chunks, so that
/// row 32 j + r and K-block c of a chunk sit at byte 16 r + 4 j + c.
static Value buildTcgen05Scales(OpBuilder &b, Location loc, Value scale) {
  auto type = cast<RankedTensorType>(scale.getType());
  Type element = type.getElementType();
  int64_t rows = llvm::alignTo(type.getDimSize(0), kTcgen05ScaleRows);
  int64_t kBlocks = llvm::alignTo(type.getDimSize(1), kTcgen05ScaleKBlocks);
  int64_t rowBlocks = rows / kTcgen05ScaleRows;
  int64_t kGroups = kBlocks / kTcgen05ScaleKBlocks;
  constexpr int64_t kWarpRows = 32, kWarpsPerChunk = kTcgen05ScaleRows / 32;
  Value padded =
      padWith(b, loc, scale, {rows, kBlocks}, zeroBits(b, loc, element));
  auto split = RankedTensorType::get(
      {rowBlocks, kWarpsPerChunk, kWarpRows, kGroups, kTcgen05ScaleKBlocks},
      element);
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, split, padded, ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
  Value init = emptyTensor(
      b, loc,
      {rowBlocks, kGroups, kWarpRows, kWarpsPerChunk, kTcgen05ScaleKBlocks},
      element);
  Value chunks = linalg::TransposeOp::create(b, loc, expanded, init,
                                             ArrayRef<int64_t>{0, 3, 2, 1, 4})
                     .getResult()[0];
  auto flat = RankedTensorType::get(
      {rowBlocks * kGroups, kTcgen05ScaleChunkBytes}, element);
  return tensor::CollapseShapeOp::create(
      b, loc, flat, chunks, ArrayRef<ReassociationIndices>{{0, 1}, {2, 3, 4}});
}

/// The inverse of buildTcgen05Scales: the [R, Kb] (`rowsByK`) scales from
/// their chunks [R'/128 * Kb'/4, 512], the padding dropped.
static Value buildFromTcgen05Scales(OpBuilder &b, Location loc, Value chunks,
                                    ArrayRef<int64_t> rowsByK) {
  Type element = cast<RankedTensorType>(chunks.getType()).getElementType();
  int64_t rows = llvm::alignTo(rowsByK[0], kTcgen05ScaleRows);
  int64_t kBlocks = llvm::alignTo(rowsByK[1], kTcgen05ScaleKBlocks);
  int64_t rowBlocks = rows / kTcgen05ScaleRows;
  int64_t kGroups = kBlocks / kTcgen05ScaleKBlocks;
  constexpr int64_t kWarpRows = 32, kWarpsPerChunk = kTcgen05ScaleRows / 32;
  auto split = RankedTensorType::get(
      {rowBlocks, kGroups, kWarpRows, kWarpsPerChunk, kTcgen05ScaleKBlocks},
      element);
  Value expanded = tensor::ExpandShapeOp::create(
      b, loc, split, chunks, ArrayRef<ReassociationIndices>{{0, 1}, {2, 3, 4}});
  // [rb, kb, r, j, c] back to [rb, j, r, kb, c].
  Value init = emptyTensor(
      b, loc,
      {rowBlocks, kWarpsPerChunk, kWarpRows, kGroups, kTcgen05ScaleKBlocks},
      element);
  Value ordered = linalg::TransposeOp::create(b, loc, expanded, init,
                                              ArrayRef<int64_t>{0, 3, 2, 1, 4})
                      .getResult()[0];
  Value padded = tensor::CollapseShapeOp::create(
      b, loc, RankedTensorType::get({rows, kBlocks}, element), ordered,
      ArrayRef<ReassociationIndices>{{0, 1, 2}, {3, 4}});
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(rowsByK[0]),
                                     b.getIndexAttr(rowsByK[1])};
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(b, loc, padded, offsets, sizes,
                                        strides);
}

/// The row-major [R, C] scales of a matmul operand whose scales `scale` are
/// laid out as `layout`: col_major_tma scales [C, R'] lose their padding and
/// are transposed back; tcgen05 chunks are unpacked to [rows, K-blocks]
/// (transposed back where the operand contracts its rows).
static Value buildRowMajorScales(OpBuilder &b, Location loc, Value scale,
                                 ScaleLayout layout, ShapedType data,
                                 ScalingAttr scaling, int64_t contractingDim) {
  if (layout == ScaleLayout::row_major)
    return scale;
  SmallVector<int64_t> rowMajor =
      getTiledShape(data.getShape(), scaling.getTile());
  if (layout == ScaleLayout::tcgen05) {
    SmallVector<int64_t> rowsByK = rowMajor;
    if (contractingDim == 0)
      std::swap(rowsByK[0], rowsByK[1]);
    Value rowsByKScales = buildFromTcgen05Scales(b, loc, scale, rowsByK);
    return contractingDim == 0 ? transposeMatrix(b, loc, rowsByKScales)
                               : rowsByKScales;
  }
  SmallVector<OpFoldResult> offsets(2, b.getIndexAttr(0));
  SmallVector<OpFoldResult> sizes = {b.getIndexAttr(rowMajor[1]),
                                     b.getIndexAttr(rowMajor[0])};
  SmallVector<OpFoldResult> strides(2, b.getIndexAttr(1));
  Value unpadded =
      tensor::ExtractSliceOp::create(b, loc, scale, offsets, sizes, strides);
  return transposeMatrix(b, loc, unpadded);
}

//===----------------------------------------------------------------------===//
// Patterns
//===----------------------------------------------------------------------===//

namespace {

struct TmaAlignScalesLowering : OpRewritePattern<TmaAlignScalesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TmaAlignScalesOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildTmaAlignScales(rewriter, op.getLoc(), op.getScale()));
    return success();
  }
};

struct Tcgen05ScalesLowering : OpRewritePattern<Tcgen05ScalesOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(Tcgen05ScalesOp op,
                                PatternRewriter &rewriter) const override {
    rewriter.replaceOp(
        op, buildTcgen05Scales(rewriter, op.getLoc(), op.getScale()));
    return success();
  }
};

struct TransposeLowering : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto transpose = [&](Value input, RankedTensorType resultType) {
      SmallVector<int64_t> permutation =
          llvm::to_vector(llvm::seq<int64_t>(0, resultType.getRank()));
      std::swap(permutation[resultType.getRank() - 2],
                permutation[resultType.getRank() - 1]);
      Value init = emptyTensor(rewriter, loc, resultType.getShape(),
                               resultType.getElementType());
      return linalg::TransposeOp::create(rewriter, loc, input, init,
                                         permutation)
          .getResult()[0];
    };
    rewriter.replaceOp(
        op, {transpose(op.getInput(), op.getResult().getType()),
             transpose(op.getScale(), op.getResultScale().getType())});
    return success();
  }
};

/// C = sum over K-chunks of (sa * sb) * partial, with each chunk's partial
/// sum accumulated in f32 in order of k (see docs/Numerics.md).
struct ScaledMatmulLowering : OpRewritePattern<ScaledMatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ScaledMatmulOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    MLIRContext *ctx = rewriter.getContext();
    auto aType = op.getA().getType();
    unsigned rank = aType.getRank(), batchRank = rank - 2;
    int64_t da = op.getContracting()[0], db = op.getContracting()[1];
    int64_t k = aType.getDimSize(batchRank + da);

    // Chunk length: the promotion interval, or for scales constant along K
    // the default interval (promoted) or all of K (fast).
    int64_t chunk = op.getPromotionInterval();
    if (ShapedType::isDynamic(chunk))
      chunk = op.getAccumulate() == Accumulate::promoted
                  ? kDefaultPromotionInterval
                  : k;
    // At least 1: K = 0 is an empty sum (zero chunks), not a division by 0.
    chunk = std::max<int64_t>(std::min(chunk, k), 1);
    int64_t numChunks = llvm::divideCeil(k, chunk);
    // The lowering indexes scales in their row-major layout.
    Value aScale =
        buildRowMajorScales(rewriter, loc, op.getAScale(), op.getAScaleLayout(),
                            aType, op.getAScaling(), da);
    Value bScale = buildRowMajorScales(
        rewriter, loc, op.getBScale(), op.getBScaleLayout(),
        cast<ShapedType>(op.getB().getType()), op.getBScaling(), db);

    // Operands in f32, K padded to whole chunks and split into (chunk, pos).
    auto prepare = [&](Value operand, int64_t contractDim) {
      Value wide = convertToF32(rewriter, loc, operand);
      SmallVector<int64_t> shape(
          cast<RankedTensorType>(wide.getType()).getShape());
      shape[batchRank + contractDim] = numChunks * chunk;
      wide = padWithZeros(rewriter, loc, wide, shape);
      return splitDim(rewriter, loc, wide, batchRank + contractDim, chunk);
    };
    Value a = prepare(op.getA(), da), b = prepare(op.getB(), db);

    // Loops of the partial sums: batch, m, n, chunk, position in chunk.
    auto d = [&](unsigned i) { return getAffineDimExpr(i, ctx); };
    SmallVector<AffineExpr> batch;
    for (unsigned i = 0; i < batchRank; ++i)
      batch.push_back(d(i));
    AffineExpr m = d(batchRank), n = d(batchRank + 1), c = d(batchRank + 2),
               p = d(batchRank + 3);
    auto operandMap = [&](int64_t contractDim, AffineExpr freeDim) {
      SmallVector<AffineExpr> exprs(batch);
      if (contractDim == 1)
        exprs.append({freeDim, c, p});
      else
        exprs.append({c, p, freeDim});
      return AffineMap::get(batchRank + 4, 0, exprs, ctx);
    };
    SmallVector<AffineExpr> partialExprs(batch);
    partialExprs.append({m, n, c});
    SmallVector<int64_t> resultShape(op.getResult().getType().getShape());
    SmallVector<int64_t> partialShape(resultShape);
    partialShape.push_back(numChunks);
    Value partialInit =
        filledTensor(rewriter, loc, partialShape, rewriter.getF32Type(),
                     rewriter.getF32FloatAttr(0.0f));
    SmallVector<utils::IteratorType> partialIterators =
        parallelIterators(batchRank + 4);
    partialIterators.back() = utils::IteratorType::reduction;
    Value partial =
        linalg::GenericOp::create(
            rewriter, loc, partialInit.getType(), ValueRange{a, b}, partialInit,
            ArrayRef<AffineMap>{
                operandMap(da, m), operandMap(db, n),
                AffineMap::get(batchRank + 4, 0, partialExprs, ctx)},
            partialIterators,
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value product = arith::MulFOp::create(nb, nloc, args[0], args[1]);
              linalg::YieldOp::create(nb, nloc,
                                      ValueRange{arith::AddFOp::create(
                                          nb, nloc, args[2], product)});
            })
            .getResult(0);

    // Where both scales are constant along K they factor out of the sum and
    // are applied once, in the epilogue; otherwise every chunk's partial sum
    // is scaled by its own scales before it is added (promotion).
    bool epilogueScales = ShapedType::isDynamic(op.getPromotionInterval());
    auto scaleMap = [&](ScalingAttr scaling, int64_t contractDim,
                        AffineExpr freeDim, unsigned numLoops) {
      auto index = [&](int64_t tileExtent, AffineExpr expr) {
        return ShapedType::isDynamic(tileExtent) ? getAffineConstantExpr(0, ctx)
                                                 : expr.floorDiv(tileExtent);
      };
      AffineExpr kIndex = index(scaling.getTile()[contractDim], c * chunk);
      AffineExpr freeIndex = index(scaling.getTile()[1 - contractDim], freeDim);
      SmallVector<AffineExpr> exprs(batch);
      if (contractDim == 1)
        exprs.append({freeIndex, kIndex});
      else
        exprs.append({kIndex, freeIndex});
      return AffineMap::get(numLoops, 0, exprs, ctx);
    };
    auto scaledTerm = [](OpBuilder &nb, Location nloc, Value partial, Value sa,
                         Value sb) {
      return buildScaledTerm(nb, nloc, partial, buildScaleToF32(nb, nloc, sa),
                             buildScaleToF32(nb, nloc, sb));
    };

    // Sum of the chunks: loops batch, m, n, chunk.
    SmallVector<AffineExpr> resultExprs(batch);
    resultExprs.append({m, n});
    unsigned sumLoops = batchRank + 3;
    SmallVector<Value> sumInputs = {partial};
    SmallVector<AffineMap> sumMaps = {
        AffineMap::get(sumLoops, 0, partialExprs, ctx)};
    if (!epilogueScales) {
      sumInputs.append({aScale, bScale});
      sumMaps.append({scaleMap(op.getAScaling(), da, m, sumLoops),
                      scaleMap(op.getBScaling(), db, n, sumLoops)});
    }
    sumMaps.push_back(AffineMap::get(sumLoops, 0, resultExprs, ctx));
    Value sumInit =
        filledTensor(rewriter, loc, resultShape, rewriter.getF32Type(),
                     rewriter.getF32FloatAttr(0.0f));
    SmallVector<utils::IteratorType> sumIterators = parallelIterators(sumLoops);
    sumIterators.back() = utils::IteratorType::reduction;
    Value result =
        linalg::GenericOp::create(
            rewriter, loc, sumInit.getType(), sumInputs, sumInit, sumMaps,
            sumIterators,
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value term = args[0];
              if (!epilogueScales)
                term = scaledTerm(nb, nloc, term, args[1], args[2]);
              linalg::YieldOp::create(nb, nloc,
                                      ValueRange{arith::AddFOp::create(
                                          nb, nloc, args.back(), term)});
            })
            .getResult(0);

    // Epilogue: tensorwise/rowwise scales, then the result type.
    Type resultElementType = op.getResult().getType().getElementType();
    if (epilogueScales || !resultElementType.isF32()) {
      AffineMap id = rewriter.getMultiDimIdentityMap(rank);
      SmallVector<Value> inputs = {result};
      SmallVector<AffineMap> maps = {id};
      if (epilogueScales) {
        // No chunk loop here; the K index of a `*` tile is the constant 0.
        inputs.append({aScale, bScale});
        maps.append({scaleMap(op.getAScaling(), da, m, rank),
                     scaleMap(op.getBScaling(), db, n, rank)});
      }
      maps.push_back(id);
      Value init = emptyTensor(rewriter, loc, resultShape, resultElementType);
      result = linalg::GenericOp::create(
                   rewriter, loc, init.getType(), inputs, init, maps,
                   parallelIterators(rank),
                   [&](OpBuilder &nb, Location nloc, ValueRange args) {
                     Value v = args[0];
                     if (epilogueScales)
                       v = scaledTerm(nb, nloc, v, args[1], args[2]);
                     v = buildRoundF32To(nb, nloc, v, resultElementType);
                     linalg::YieldOp::create(nb, nloc, v);
                   })
                   .getResult(0);
    }
    rewriter.replaceOp(op, result);
    return success();
  }
};

/// The fast Walsh-Hadamard transform of docs/Numerics.md, per block of
/// `size` along `dim`: f32(x) times the signs s_j (exact), log2 n butterfly
/// stages with stride 1 first (stage h: position i takes v[i] + v[i + h]
/// where bit h of i is clear, v[i - h] - v[i] where it is set), then
/// fl32(v_i * fl32(1/sqrt(n))) rounded to the input type.
struct HadamardLowering : OpRewritePattern<HadamardOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(HadamardOp op,
                                PatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto type = cast<RankedTensorType>(op.getInput().getType());
    unsigned rank = type.getRank();
    unsigned dim = op.getDim();
    int64_t n = op.getSize();
    std::optional<uint64_t> seed = op.getSeed();

    Value x = splitDim(rewriter, loc,
                       convertToF32(rewriter, loc, op.getInput()), dim, n);
    auto splitType = cast<RankedTensorType>(x.getType());
    // Loops: the split dims of x, the block index at `dim` and the position
    // in the block at `dim + 1`.
    unsigned position = dim + 1;
    AffineMap id = rewriter.getMultiDimIdentityMap(rank + 1);
    if (seed) {
      SmallVector<float> signs(n);
      for (int64_t j = 0; j < n; ++j)
        signs[j] = philoxRandom32(*seed, j) & 1 ? -1.0f : 1.0f;
      Value signVector = arith::ConstantOp::create(
          rewriter, loc,
          DenseElementsAttr::get(
              RankedTensorType::get({n}, rewriter.getF32Type()),
              ArrayRef<float>(signs)));
      AffineMap signMap =
          AffineMap::get(rank + 1, 0, rewriter.getAffineDimExpr(position),
                         rewriter.getContext());
      Value init = emptyTensor(rewriter, loc, splitType.getShape(),
                               rewriter.getF32Type());
      x = linalg::GenericOp::create(
              rewriter, loc, init.getType(), ValueRange{x, signVector}, init,
              ArrayRef<AffineMap>{id, signMap, id}, parallelIterators(rank + 1),
              [&](OpBuilder &nb, Location nloc, ValueRange args) {
                linalg::YieldOp::create(nb, nloc,
                                        ValueRange{arith::MulFOp::create(
                                            nb, nloc, args[0], args[1])});
              })
              .getResult(0);
    }
    for (int64_t h = 1; h < n; h *= 2) {
      Value source = x;
      Value init = emptyTensor(rewriter, loc, splitType.getShape(),
                               rewriter.getF32Type());
      x = linalg::GenericOp::create(
              rewriter, loc, init.getType(), ValueRange{}, init,
              ArrayRef<AffineMap>{id}, parallelIterators(rank + 1),
              [&](OpBuilder &nb, Location nloc, ValueRange) {
                SmallVector<Value> indices;
                for (unsigned d = 0; d < rank + 1; ++d)
                  indices.push_back(linalg::IndexOp::create(nb, nloc, d));
                Value i = indices[position];
                Value stride = arith::ConstantIndexOp::create(nb, nloc, h);
                Value bit = arith::AndIOp::create(nb, nloc, i, stride);
                Value upper = arith::CmpIOp::create(
                    nb, nloc, arith::CmpIPredicate::ne, bit,
                    arith::ConstantIndexOp::create(nb, nloc, 0));
                SmallVector<Value> loIndices = indices, hiIndices = indices;
                loIndices[position] = arith::SubIOp::create(nb, nloc, i, bit);
                hiIndices[position] = arith::OrIOp::create(nb, nloc, i, stride);
                Value lo =
                    tensor::ExtractOp::create(nb, nloc, source, loIndices);
                Value hi =
                    tensor::ExtractOp::create(nb, nloc, source, hiIndices);
                // Created in a fixed order (not as call arguments, whose
                // evaluation order differs between compilers).
                Value sum = arith::AddFOp::create(nb, nloc, lo, hi);
                Value difference = arith::SubFOp::create(nb, nloc, lo, hi);
                Value v =
                    arith::SelectOp::create(nb, nloc, upper, difference, sum);
                linalg::YieldOp::create(nb, nloc, ValueRange{v});
              })
              .getResult(0);
    }
    Value rotated = x;

    // Normalize and round to the input type.
    float norm = static_cast<float>(1.0 / std::sqrt(static_cast<double>(n)));
    Type elementType = type.getElementType();
    Value outInit =
        emptyTensor(rewriter, loc, splitType.getShape(), elementType);
    Value normalized =
        linalg::GenericOp::create(
            rewriter, loc, outInit.getType(), rotated, outInit,
            ArrayRef<AffineMap>{id, id}, parallelIterators(rank + 1),
            [&](OpBuilder &nb, Location nloc, ValueRange args) {
              Value factor =
                  arith::ConstantOp::create(nb, nloc, nb.getF32FloatAttr(norm));
              Value y = arith::MulFOp::create(nb, nloc, args[0], factor);
              y = buildRoundF32To(nb, nloc, y, elementType);
              linalg::YieldOp::create(nb, nloc, y);
            })
            .getResult(0);
    SmallVector<ReassociationIndices> reassociation;
    for (unsigned i = 0, s = 0; i < rank; ++i) {
      if (i == dim) {
        reassociation.push_back({s, s + 1});
        s += 2;
      } else {
        reassociation.push_back({s++});
      }
    }
    rewriter.replaceOpWithNewOp<tensor::CollapseShapeOp>(op, type, normalized,
                                                         reassociation);
    return success();
  }
};

} // namespace

void reference::populateMatmulLoweringPatterns(RewritePatternSet &patterns) {
  patterns.add<HadamardLowering, ScaledMatmulLowering, Tcgen05ScalesLowering,
               TmaAlignScalesLowering, TransposeLowering>(
      patterns.getContext());
}
