//===- FP8Ops.td - FP8 dialect operations ------------------*- tablegen -*-===//
//
// Quantization, scaled matrix multiplication and the helpers around them.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_IR_FP8OPS_TD
#define FP8_DIALECT_FP8_IR_FP8OPS_TD

include "fp8/Dialect/FP8/IR/FP8Attrs.td"
include "fp8/Dialect/FP8/IR/FP8Dialect.td"
include "fp8/Dialect/FP8/IR/FP8Enums.td"
include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

// Matrices, optionally with one leading batch dimension.
def FP8_DataTensor : TensorRankOf<[F8E4M3FN, F8E5M2], [2, 3]>;
def FP8_ScaleTensor : TensorRankOf<[F32, F8E8M0FNU], [2, 3]>;
def FP8_WideTensor : TensorRankOf<[F32, BF16, F16], [2, 3]>;
def FP8_AmaxTensor : TensorRankOf<[F32], [2, 3]>;
def FP8_MatmulResultTensor : TensorRankOf<[F32, BF16], [2, 3]>;

//===----------------------------------------------------------------------===//
// quantize
//===----------------------------------------------------------------------===//

def FP8_QuantizeOp : FP8_Op<"quantize", [Pure, AttrSizedOperandSegments, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "quantize a tensor to FP8 with per-tile scales";
  let description = [{
    Quantizes `input` to an FP8 element type with one scale per tile of
    `scaling`. Per tile: `amax = max |x|`, `qscale = fmax / max(amax, 1e-12)`
    (divided by `2^margin`, rounded to a power of two for `pow2_*`), and
    `q = round(clamp(x * qscale, -fmax, fmax))`. The second result holds the
    *dequantization* scales (`1 / qscale`), one per tile; edge tiles may be
    partial.

    With `amax(%a)` the amax of each tile is taken from `%a` (delayed
    scaling) instead of from the data. `rounding = stochastic` needs a
    `seed(%s)`: the random bits come from Philox4x32-10 keyed by the seed and
    the element's linear index, so a seed gives the same result everywhere.

    ```mlir
    %q, %s = fp8.quantize %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
        : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>
    %g, %gs = fp8.quantize %dy seed(%seed) {
          rounding = #fp8.rounding<stochastic>,
          scaling = #fp8.scaling<tile = [*, *], scale = f32>}
        : tensor<256x512xbf16> -> tensor<256x512xf8E5M2>, tensor<1x1xf32>
    ```
  }];
  let arguments = (ins
    FP8_WideTensor:$input,
    Optional<FP8_AmaxTensor>:$amax,
    Optional<I64>:$seed,
    FP8_ScalingAttr:$scaling,
    DefaultValuedAttr<FP8_RoundingAttr, "::mlir::fp8::Rounding::nearest">:$rounding,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$margin
  );
  let results = (outs FP8_DataTensor:$result, FP8_ScaleTensor:$scale);
  let assemblyFormat = [{
    $input (`amax` `(` $amax^ `:` type($amax) `)`)? (`seed` `(` $seed^ `)`)?
    attr-dict `:` type($input) `->` type($result) `,` type($scale)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// quantize_monitored
//===----------------------------------------------------------------------===//

def FP8_QuantizeMonitoredOp : FP8_Op<"quantize_monitored", [Pure, AttrSizedOperandSegments, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "quantize a matrix and report health statistics of the cast";
  let description = [{
    `fp8.quantize` with the same operands and attributes, whose `result` and
    `scale` are bit for bit those of `fp8.quantize`, plus the statistics of
    the quantization, computed by the same kernel from the same read of the
    input (made by `fp8-monitor-quantization`):

    - `tile_amax` (f32, the shape of `scale`: one per scaling tile, 1x1 for
      tensorwise): the max |x| of the tile's data, NaN-propagating. With
      `amax(%a)` (delayed scaling) the scales still derive from `%a`, but
      `tile_amax` is the data's: monitoring wants the real amax.
    - `counts` (2 x i64): `[0]` saturated, the elements with
      `|x * qscale| > fmax` (they clamp to ±fmax; a NaN is not counted, an
      infinity is); `[1]` flushed, the elements with `x != 0`, not NaN,
      whose FP8 result is ±0.

    The consumer derives the rest from these small tensors: saturated and
    flushed fractions = count / numel, amax = max(tile_amax), tile-amax
    spread = max / median(tile_amax). The data is read once; only the tiny
    `tile_amax` array is read again. Matrices only (rank 2).

    ```mlir
    %q, %s, %ta, %n = fp8.quantize_monitored %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
        : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
                                  tensor<256x4xf32>, tensor<2xi64>
    ```
  }];
  let arguments = (ins
    FP8_WideTensor:$input,
    Optional<FP8_AmaxTensor>:$amax,
    Optional<I64>:$seed,
    FP8_ScalingAttr:$scaling,
    DefaultValuedAttr<FP8_RoundingAttr, "::mlir::fp8::Rounding::nearest">:$rounding,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$margin
  );
  let results = (outs
    FP8_DataTensor:$result,
    FP8_ScaleTensor:$scale,
    FP8_AmaxTensor:$tile_amax,
    TensorRankOf<[I64], [1]>:$counts
  );
  let assemblyFormat = [{
    $input (`amax` `(` $amax^ `:` type($amax) `)`)? (`seed` `(` $seed^ `)`)?
    attr-dict `:` type($input) `->` type($result) `,` type($scale) `,`
    type($tile_amax) `,` type($counts)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// quantize_transpose
//===----------------------------------------------------------------------===//

def FP8_QuantizeTransposeOp : FP8_Op<"quantize_transpose", [Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "quantize a matrix and its transpose alike (cast-transpose)";
  let description = [{
    A fused op (`fp8-fuse-quantization`): the results of

    ```mlir
    %q, %s = fp8.quantize %x {scaling = S}
    %xt = linalg.transpose ins(%x) permutation = [1, 0]
    %qt, %st = fp8.quantize %xt {scaling = S}
    ```

    bit for bit, from one read of `%x`: Wgrad contracts X along its rows
    and Hopper's FP8 wgmma wants K-major operands, so training quantizes X
    along its rows and along the rows of Xᵀ. `result` and `scale` are those
    of `input`; `result_t` and `scale_t` those of its transpose, stored
    transposed. Both quantizations use `scaling` and `margin`, with
    round-to-nearest and their own amax. `scale_layout` and
    `scale_t_layout` store either scale matrix `col_major_tma` instead of
    `row_major` (as `fp8.tma_align_scales` would).

    ```mlir
    %q, %s, %qt, %st = fp8.quantize_transpose %x {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
        : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
                                  tensor<512x256xf8E4M3FN>, tensor<512x2xf32>
    ```
  }];
  let arguments = (ins
    TensorRankOf<[F32, BF16, F16], [2]>:$input,
    FP8_ScalingAttr:$scaling,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$margin,
    DefaultValuedAttr<FP8_ScaleLayoutAttr, "::mlir::fp8::ScaleLayout::row_major">:$scale_layout,
    DefaultValuedAttr<FP8_ScaleLayoutAttr, "::mlir::fp8::ScaleLayout::row_major">:$scale_t_layout
  );
  let results = (outs
    TensorRankOf<[F8E4M3FN, F8E5M2], [2]>:$result,
    TensorRankOf<[F32, F8E8M0FNU], [2]>:$scale,
    TensorRankOf<[F8E4M3FN, F8E5M2], [2]>:$result_t,
    TensorRankOf<[F32, F8E8M0FNU], [2]>:$scale_t
  );
  let assemblyFormat = [{
    $input attr-dict `:` type($input) `->` type($result) `,` type($scale) `,`
    type($result_t) `,` type($scale_t)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// quantize_elementwise
//===----------------------------------------------------------------------===//

def FP8_QuantizeElementwiseOp : FP8_Op<"quantize_elementwise", [Pure, IsolatedFromAbove, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "quantize an elementwise expression of several tensors";
  let description = [{
    A fused op (`fp8-fuse-quantization`): the results of an elementwise
    producer and of the quantization that reads it, from one read of the
    producer's inputs and no write of its result, bit for bit those of

    ```mlir
    %v = linalg.generic {indexing_maps = [#map0, ..., #id]} ins(%in0, ...) { BODY }
    %q, %s = fp8.quantize %v {scaling = S, margin = M}
    // with `transpose`, the cast-transpose instead:
    %q, %s, %qt, %st = fp8.quantize_transpose %v {scaling = S, margin = M}
    ```

    `body` computes one element of the producer's result (`%v`, f32, bf16
    or f16, the type `fp8.yield` gives) from one element of each input;
    `indexing_maps` says which element of each input (the generic's maps:
    the identity, or a broadcast such as a bias row `(i, j) -> (j)`). The
    results are the FP8 data and scales of `%v` (round-to-nearest, its own
    amax), then with `transpose` those of `%v`'s transpose, then, where
    another op still reads it, `%v` itself (the `kept` result).
    `scale_layout` and `scale_t_layout` as for `fp8.quantize_transpose`.

    With `hadamard_size` (and optionally `hadamard_seed`), a Hadamard
    rotation lies between the producer and the quantization, bit for bit
    `%r = fp8.hadamard %v {dim = 1, size = hadamard_size, seed =
    hadamard_seed}`, and `%r` is what is quantized (then neither `transpose`
    nor a kept result: the rotation's result has no other reader). A
    kernel rotates the values it holds in registers before their amax.

    With `reduce` regions (row-local producers: RMSNorm, LayerNorm), the
    body also reads row sums: region k computes one f32 term per element,
    and its row sum `%s_k[i]` (the row-sum order of docs/Numerics.md,
    from +0.0) is bit for bit that of the reducing generic it replaces,
    whose init is a zero fill:

    ```mlir
    %s_k = linalg.generic {indexing_maps = [#map0, ..., #col, ..., #col],
                           iterator_types = ["parallel", "reduction"]}
        ins(%in0, ..., %s_0, ..., %s_k-1) outs(%zeros : tensor<Mxf32>) {
      ...  %t = TERM;  %next = arith.addf %acc, %t : f32;  linalg.yield %next
    }
    ```

    Every region, the body and each `reduce` region, takes the same
    arguments: an element of each input, then the row sum of every
    reduction in order (f32); region k reads only the sums before it and
    ends with the `fp8.yield` of its term. Then neither `transpose` nor a
    rotation: a kernel keeps each row in one warp.

    ```mlir
    %q, %s, %qt, %st, %a = fp8.quantize_elementwise %h {
          indexing_maps = [affine_map<(i, j) -> (i, j)>],
          scaling = #fp8.scaling<tile = [1, 128], scale = f32>, transpose}
        : tensor<512x4096xbf16> -> tensor<512x4096xf8E4M3FN>, tensor<512x32xf32>,
          tensor<4096x512xf8E4M3FN>, tensor<4096x4xf32>, tensor<512x4096xbf16> {
    ^bb0(%x: bf16):
      %f = arith.extf %x : bf16 to f32
      %g = math.tanh %f : f32
      %r = arith.truncf %g : f32 to bf16
      fp8.yield %r : bf16
    }
    ```
  }];
  let arguments = (ins
    Variadic<TensorRankOf<[F32, BF16, F16], [0, 1, 2]>>:$inputs,
    AffineMapArrayAttr:$indexing_maps,
    FP8_ScalingAttr:$scaling,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$margin,
    UnitAttr:$transpose,
    DefaultValuedAttr<FP8_ScaleLayoutAttr, "::mlir::fp8::ScaleLayout::row_major">:$scale_layout,
    DefaultValuedAttr<FP8_ScaleLayoutAttr, "::mlir::fp8::ScaleLayout::row_major">:$scale_t_layout,
    OptionalAttr<ConfinedAttr<I64Attr, [IntPositive]>>:$hadamard_size,
    OptionalAttr<I64Attr>:$hadamard_seed
  );
  let results = (outs Variadic<AnyRankedTensor>:$results);
  let regions = (region SizedRegion<1>:$body,
                 VariadicRegion<SizedRegion<1>>:$reductions);
  let assemblyFormat = [{
    $inputs attr-dict `:` type($inputs) `->` type($results) $body
    (`reduce` $reductions^)?
  }];
  let extraClassDeclaration = [{
    /// The FP8 data and scales of the producer's result.
    TypedValue<RankedTensorType> getQuantized();
    TypedValue<RankedTensorType> getScale();
    /// With `transpose`, those of its transpose; else null.
    TypedValue<RankedTensorType> getQuantizedT();
    TypedValue<RankedTensorType> getScaleT();
    /// The producer's result, where the op keeps it; else null.
    TypedValue<RankedTensorType> getKept();
    /// Checks hadamard_size and hadamard_seed (part of the verifier).
    ::mlir::LogicalResult verifyRotation();
    /// The type of the producer's result (kept or not).
    RankedTensorType getProducedType();
    /// The body's terminator.
    YieldOp getYield();
    /// Whether a kernel reads an input through `map` (the identity or a
    /// broadcast of the loops (d0, d1), each at most once and in order).
    static bool isElementwiseMap(AffineMap map);
    /// The number of results without the kept one.
    unsigned getNumQuantizationResults() { return getTranspose() ? 4 : 2; }
    /// Checks the `reduce` regions (part of the verifier).
    ::mlir::LogicalResult verifyReductions();
    /// The terminator of `reduce` region `index` (null where it has none).
    YieldOp getReductionYield(unsigned index);
  }];
  let hasVerifier = 1;
}

def FP8_YieldOp : FP8_Op<"yield", [Pure, Terminator, HasParent<"QuantizeElementwiseOp">]> {
  let summary = "the element an fp8.quantize_elementwise body computes";
  let description = [{
    Ends the body of `fp8.quantize_elementwise` with the producer's element
    (a `reduce` region with its f32 term).

    ```mlir
    fp8.yield %r : bf16
    ```
  }];
  let arguments = (ins AnyTypeOf<[F32, BF16, F16]>:$value);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// quantize_delayed
//===----------------------------------------------------------------------===//

def FP8_QuantizeDelayedOp : FP8_Op<"quantize_delayed", [Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "quantize with the amax history's scale, returning the data's amax";
  let description = [{
    A fused op (`fp8-fuse-quantization`): delayed scaling's quantization of
    a matrix and the amax it appends to its history, from one read of the
    input while the history is usable. Bit for bit the results of what
    `fp8-quantize-matmuls` writes for `recipe = delayed`:

    ```mlir
    %amax = fp8.amax %x {tile = #fp8.tile<[*, *]>}
    %h = linalg.reduce ins(%history) outs(zero fill) dimensions = [0]  // arith.maximumf
         // with `most_recent`: tensor.extract_slice %history[H - 1, 0, 0]
    %ok = arith.andi (arith.cmpf ogt, %h, 0), (arith.cmpf olt, %h, inf)
    %used = arith.select %ok, %h, %amax
    %q, %s = fp8.quantize %x amax(%used) {scaling = S, margin = M}
    ```

    `history` holds the last H amaxes, oldest first (`tensor<Hx1x1xf32>`);
    its max (NaN-propagating, from +0.0), or its last entry with
    `most_recent`, gives the scale where it is positive and finite; on the
    first step (an empty, zero history) or after an inf or NaN the scale
    comes from the data's own amax. `amax` is the data's amax (NaN
    propagating) whichever gave the scale: the value the caller rolls into
    the history. Tensorwise scaling (`tile = [*, *]`) of a matrix only.
    Round-to-nearest.

    ```mlir
    %q, %s, %amax = fp8.quantize_delayed %x history(%h : tensor<1024x1x1xf32>) {
          scaling = #fp8.scaling<tile = [*, *], scale = f32>}
        : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>, tensor<1x1xf32>, tensor<1x1xf32>
    ```
  }];
  let arguments = (ins
    FP8_WideTensor:$input,
    TensorRankOf<[F32], [3]>:$history,
    FP8_ScalingAttr:$scaling,
    DefaultValuedAttr<ConfinedAttr<I64Attr, [IntNonNegative]>, "0">:$margin,
    UnitAttr:$most_recent
  );
  let results = (outs FP8_DataTensor:$result, FP8_ScaleTensor:$scale,
                      FP8_AmaxTensor:$amax);
  let assemblyFormat = [{
    $input `history` `(` $history `:` type($history) `)` attr-dict `:`
    type($input) `->` type($result) `,` type($scale) `,` type($amax)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// dequantize
//===----------------------------------------------------------------------===//

def FP8_DequantizeOp : FP8_Op<"dequantize", [Pure]> {
  let summary = "multiply FP8 data by its per-tile scales";
  let description = [{
    Returns `f32(q) * scale` for every element, with the scale of the tile
    the element lies in, rounded to the result type.

    ```mlir
    %x = fp8.dequantize %q, %s {scaling = #fp8.scaling<tile = [1, 128], scale = f32>}
        : tensor<256x512xf8E4M3FN>, tensor<256x4xf32> -> tensor<256x512xf32>
    ```
  }];
  let arguments = (ins
    FP8_DataTensor:$input,
    FP8_ScaleTensor:$scale,
    FP8_ScalingAttr:$scaling
  );
  let results = (outs FP8_WideTensor:$result);
  let assemblyFormat = [{
    $input `,` $scale attr-dict `:` type($input) `,` type($scale) `->`
    type($result)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// scaled_matmul
//===----------------------------------------------------------------------===//

def FP8_ScaledMatmulOp : FP8_Op<"scaled_matmul", [Pure]> {
  let summary = "matrix multiplication of two scaled FP8 operands";
  let description = [{
    Multiplies `a` and `b`, contracting dimension `contracting[0]` of `a`
    with dimension `contracting[1]` of `b` (storage coordinates, so every
    Fprop, Dgrad and Wgrad form is expressible without transposes). The
    result is `M x N`, where `M` is `a`'s other matrix dimension and `N`
    `b`'s; a leading batch dimension must agree.

    A scale must stay constant along the contracted dimension within one
    K-block (the tile's extent along it). The operands' K-blocks must divide
    one another and be a multiple of 32 (the K of one FP8 MMA instruction)
    or `*`. With `accumulate = promoted`, every K-block of the finer operand
    is accumulated in f32 on its own and then added as
    `C += sa * sb * partial`; `fast` accumulates across blocks in the tensor
    core's own precision.

    `a_scale_layout` and `b_scale_layout` say how each scale tensor is laid
    out: `row_major` (the default), `scale[i / r][k / c]` in the operand's
    storage order, or `col_major_tma`, the transpose of that with each row
    padded with zeros to 16 bytes, as `fp8.tma_align_scales` makes it (a
    Hopper GEMM then loads one K-block's scales for consecutive rows with
    TMA), or `tcgen05`, sm_100a's scale-factor layout as `fp8.tcgen05_scales`
    makes it from the operand's `[rows, K-blocks]` scales (for an operand
    contracted along its rows, the transpose of its row-major scales): E8M0
    scales of 1x32 blocks along K, which `tcgen05.mma ... block_scale.block32`
    applies itself. The layout changes where scales are stored, never their
    values; `col_major_tma` and `tcgen05` are for matrices (no batch
    dimension).

    ```mlir
    // Fprop: Y = X * W^T with DeepSeek-V3 blockwise scales.
    %y = fp8.scaled_matmul %x, %sx, %w, %sw {
          a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
          b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
          contracting = array<i64: 1, 1>}
        : (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>,
           tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>
    // The same with X's scales transposed and padded for TMA.
    %sxt = fp8.tma_align_scales %sx : tensor<256x4xf32> -> tensor<4x256xf32>
    %y2 = fp8.scaled_matmul %x, %sxt, %w, %sw {
          a_scale_layout = #fp8.scale_layout<col_major_tma>,
          a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
          b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
          contracting = array<i64: 1, 1>}
        : (tensor<256x512xf8E4M3FN>, tensor<4x256xf32>,
           tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>) -> tensor<256x1024xbf16>
    ```
  }];
  let arguments = (ins
    FP8_DataTensor:$a,
    FP8_ScaleTensor:$a_scale,
    FP8_DataTensor:$b,
    FP8_ScaleTensor:$b_scale,
    ConfinedAttr<DenseI64ArrayAttr, [DenseArrayCount<2>]>:$contracting,
    FP8_ScalingAttr:$a_scaling,
    FP8_ScalingAttr:$b_scaling,
    DefaultValuedAttr<FP8_AccumulateAttr, "::mlir::fp8::Accumulate::promoted">:$accumulate,
    DefaultValuedAttr<FP8_ScaleLayoutAttr, "::mlir::fp8::ScaleLayout::row_major">:$a_scale_layout,
    DefaultValuedAttr<FP8_ScaleLayoutAttr, "::mlir::fp8::ScaleLayout::row_major">:$b_scale_layout
  );
  let results = (outs FP8_MatmulResultTensor:$result);
  let assemblyFormat = [{
    $a `,` $a_scale `,` $b `,` $b_scale attr-dict `:`
    `(` type($a) `,` type($a_scale) `,` type($b) `,` type($b_scale) `)`
    `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The K-block at which partial sums are promoted: the finer of the two
    /// operands' K-blocks, or kDynamic when both span the whole K.
    int64_t getPromotionInterval();

    /// One side's FP8 data and scales, the scaling and layout of those
    /// scales, and the matrix dim it contracts (0 = rows, 1 = cols).
    ::mlir::TypedValue<::mlir::RankedTensorType> getData(MatmulSide side);
    ::mlir::TypedValue<::mlir::RankedTensorType> getScale(MatmulSide side);
    ScalingAttr getScaling(MatmulSide side);
    ScaleLayout getScaleLayout(MatmulSide side);
    int64_t getContractingDim(MatmulSide side);

    /// Replace one side's operands or attributes in place.
    void setData(MatmulSide side, ::mlir::Value data);
    void setScale(MatmulSide side, ::mlir::Value scale);
    void setScaling(MatmulSide side, ScalingAttr scaling);
    void setScaleLayout(MatmulSide side, ScaleLayout layout);

    /// "a" or "b", as diagnostics and printed layouts name the side.
    static ::llvm::StringRef getSideName(MatmulSide side);
  }];
}

def FP8_GroupedScaledMatmulOp : FP8_Op<"grouped_scaled_matmul", [Pure]> {
  let summary = "G scaled matmuls over groups of A's rows (mixture of experts)";
  let description = [{
    A mixture-of-experts layer multiplies each token's row of activations
    with the weights of the expert it was routed to. `b` holds G experts'
    weights `[G, N, K]`, `group_rows` (G run-time i32 values) says which
    rows of `a` belong to which expert, and every group is a scaled_matmul
    of its rows with its expert, `C = A_g * B_g^T` (both operands contracted
    along their last dim, K-major, as DeepGEMM takes them):

    - `layout = contiguous`: `a` is `[M, K]`, the groups' rows one after
      another; row m belongs to group g(m) = the number of entries of
      `group_rows` that are at most m (for non-decreasing `group_rows`:
      group g has rows `[group_rows[g - 1], group_rows[g])`, from 0). The
      result is `[M, N]`; rows past the last group are 0.
    - `layout = masked`: `a` is `[G, M, K]`, and group g has the first
      `group_rows[g]` rows of `a[g]` (decoding: a fixed capacity per expert).
      The result is `[G, M, N]`; the other rows are 0.

    Each group is computed exactly as `fp8.scaled_matmul` computes it
    (docs/Numerics.md), with `a_scaling` over `a`'s rows (one scale tile may
    not span two groups: contiguous A takes tiles of 1 or `*` rows) and
    `b_scaling` over each expert's `[N, K]`; `b_scale` is `[G, ...]`, each
    expert's scales as scaled_matmul takes them, row-major.
    `a_scale_layout` is `row_major` (the default) or, for a contiguous `a`
    with one scale per row, `col_major_tma` (as for scaled_matmul: the
    transpose of the `[M, K-blocks]` scales, each row padded to 16 bytes,
    as `fp8.tma_align_scales` makes it), which the sm_90a kernel loads by
    TMA with each K-block; the layout never changes a value.
    `group_rows` must be non-decreasing (contiguous) and at most M (both
    layouts): the GPU kernel's result is undefined otherwise, while the CPU
    reference computes the definition above for any values.

    ```mlir
    // 8 experts of 4096 x 7168 (blockwise), tokens grouped by expert.
    %y = fp8.grouped_scaled_matmul %x, %sx, %w, %sw, %ends {
          a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
          b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
        : (tensor<16384x7168xf8E4M3FN>, tensor<16384x56xf32>,
           tensor<8x4096x7168xf8E4M3FN>, tensor<8x32x56xf32>, tensor<8xi32>)
        -> tensor<16384x4096xbf16>
    // The same with X's scales transposed and padded for TMA.
    %sxt = fp8.tma_align_scales %sx : tensor<16384x56xf32> -> tensor<56x16384xf32>
    %y2 = fp8.grouped_scaled_matmul %x, %sxt, %w, %sw, %ends {
          a_scale_layout = #fp8.scale_layout<col_major_tma>,
          a_scaling = #fp8.scaling<tile = [1, 128], scale = f32>,
          b_scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
        : (tensor<16384x7168xf8E4M3FN>, tensor<56x16384xf32>,
           tensor<8x4096x7168xf8E4M3FN>, tensor<8x32x56xf32>, tensor<8xi32>)
        -> tensor<16384x4096xbf16>
    ```
  }];
  let arguments = (ins
    FP8_DataTensor:$a,
    FP8_ScaleTensor:$a_scale,
    TensorRankOf<[F8E4M3FN, F8E5M2], [3]>:$b,
    TensorRankOf<[F32, F8E8M0FNU], [3]>:$b_scale,
    TensorRankOf<[I32], [1]>:$group_rows,
    FP8_ScalingAttr:$a_scaling,
    FP8_ScalingAttr:$b_scaling,
    DefaultValuedAttr<FP8_AccumulateAttr, "::mlir::fp8::Accumulate::promoted">:$accumulate,
    DefaultValuedAttr<FP8_GroupLayoutAttr, "::mlir::fp8::GroupLayout::contiguous">:$layout,
    DefaultValuedAttr<FP8_ScaleLayoutAttr, "::mlir::fp8::ScaleLayout::row_major">:$a_scale_layout
  );
  let results = (outs FP8_MatmulResultTensor:$result);
  let assemblyFormat = [{
    $a `,` $a_scale `,` $b `,` $b_scale `,` $group_rows attr-dict `:`
    `(` type($a) `,` type($a_scale) `,` type($b) `,` type($b_scale) `,`
    type($group_rows) `)` `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The number of groups (experts), G.
    int64_t getGroupCount() {
      return ::mlir::cast<::mlir::ShapedType>(getB().getType()).getDimSize(0);
    }
  }];
}

//===----------------------------------------------------------------------===//
// tma_align_scales
//===----------------------------------------------------------------------===//

def FP8_TmaAlignScalesOp : FP8_Op<"tma_align_scales", [Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "transpose a scale matrix and pad its rows to 16 bytes for TMA";
  let description = [{
    Returns the `col_major_tma` layout of a row-major `R x C` scale matrix:
    `result[j][i] = scale[i][j]`, of shape `C x R'` where `R'` is `R` rounded
    up to a whole number of 16 bytes (TMA's global stride alignment): a
    multiple of 4 for f32 scales, of 16 for f8E8M0FNU ones. The padding
    holds zero bits (f32 `+0.0`; E8M0 code 0, which is 2^-127 since E8M0 has
    no zero), and no matmul reads it. The element type is kept.

    For a 1x128-scaled operand of an sm_90a GEMM, one K-block's scales of
    consecutive rows are then contiguous, and the kernel loads them with TMA
    together with the K-block's data; `fp8-legalize{chip=sm_90a}` inserts
    this op and sets the matmul's `a_scale_layout` / `b_scale_layout` to
    `col_major_tma`.

    ```mlir
    // 250 rows of 1x128 scales over K = 512: 4 K-blocks of 252 (250 rounded
    // up to 4 f32 = 16 bytes) scales each.
    %t = fp8.tma_align_scales %s : tensor<250x4xf32> -> tensor<4x252xf32>
    ```
  }];
  let arguments = (ins TensorRankOf<[F32, F8E8M0FNU], [2]>:$scale);
  let results = (outs TensorRankOf<[F32, F8E8M0FNU], [2]>:$result);
  let assemblyFormat = "$scale attr-dict `:` type($scale) `->` type($result)";
  let hasVerifier = 1;
  let builders = [
    // The result type from the scale's: getTmaAlignedScaleShape.
    OpBuilder<(ins "::mlir::Value":$scale)>
  ];
}

//===----------------------------------------------------------------------===//
// tcgen05_scales
//===----------------------------------------------------------------------===//

def FP8_Tcgen05ScalesOp : FP8_Op<"tcgen05_scales", [Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "lay E8M0 block scales out as sm_100a's tcgen05 block-scaled MMA reads them";
  let description = [{
    Returns the scale-factor layout that `tcgen05.cp` copies into tensor
    memory for `tcgen05.mma ... .block_scale` (CUTLASS's Sm1xx block-scaled
    layout; what `torch._scaled_mm` takes as "swizzled" MXFP8 scales on
    sm_100), from a row-major `R x Kb` matrix of E8M0 scales (one per row and
    32-element K-block). The matrix is padded with E8M0 code 0 to a multiple
    of 128 rows and 4 K-blocks and cut into chunks of 128 rows x 4 K-blocks,
    512 bytes each, row-block major; within a chunk, row `32 j + r` and
    K-block `c` sit at byte `16 r + 4 j + c`:

    `result[rb * ceil(Kb / 4) + kb][16 r + 4 j + c] =
     scale[128 rb + 32 j + r][4 kb + c]` (code 0 past the matrix).

    ```mlir
    %sf = fp8.tcgen05_scales %s : tensor<256x16xf8E8M0FNU> -> tensor<8x512xf8E8M0FNU>
    ```
  }];
  let arguments = (ins TensorRankOf<[F8E8M0FNU], [2]>:$scale);
  let results = (outs TensorRankOf<[F8E8M0FNU], [2]>:$result);
  let assemblyFormat = "$scale attr-dict `:` type($scale) `->` type($result)";
  let hasVerifier = 1;
  let builders = [
    // The result type from the scale's: getTcgen05ScaleShape.
    OpBuilder<(ins "::mlir::Value":$scale)>
  ];
}

//===----------------------------------------------------------------------===//
// amax
//===----------------------------------------------------------------------===//

def FP8_AmaxOp : FP8_Op<"amax", [Pure]> {
  let summary = "per-tile maximum absolute value";
  let description = [{
    Returns `max |x|` in f32 over every tile of `input`, for delayed scaling
    (the amax history) and monitoring. NaN propagates.

    ```mlir
    %a = fp8.amax %x {tile = #fp8.tile<[*, *]>} : tensor<256x512xbf16> -> tensor<1x1xf32>
    ```
  }];
  let arguments = (ins FP8_WideTensor:$input, FP8_TileAttr:$tile);
  let results = (outs FP8_AmaxTensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// transpose
//===----------------------------------------------------------------------===//

def FP8_TransposeOp : FP8_Op<"transpose", [Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "transpose FP8 data together with its scales";
  let description = [{
    Swaps the two matrix dimensions of `input` and of `scale`. Legal only
    where the scaling is symmetric (tensorwise or square tiles): the result
    then has the same scaling and serves a matmul that contracts the other
    dimension, losslessly. Anything else must be requantized from the high
    precision source (`fp8.requantize` or a second `fp8.quantize`).

    ```mlir
    %wt, %swt = fp8.transpose %w, %sw {scaling = #fp8.scaling<tile = [128, 128], scale = f32>}
        : tensor<1024x512xf8E4M3FN>, tensor<8x4xf32>
        -> tensor<512x1024xf8E4M3FN>, tensor<4x8xf32>
    ```
  }];
  let arguments = (ins
    FP8_DataTensor:$input,
    FP8_ScaleTensor:$scale,
    FP8_ScalingAttr:$scaling
  );
  let results = (outs FP8_DataTensor:$result, FP8_ScaleTensor:$result_scale);
  let assemblyFormat = [{
    $input `,` $scale attr-dict `:` type($input) `,` type($scale) `->`
    type($result) `,` type($result_scale)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// requantize
//===----------------------------------------------------------------------===//

def FP8_RequantizeOp : FP8_Op<"requantize", [Pure, DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmResultNames"]>]> {
  let summary = "convert FP8 data from one scaling to another";
  let description = [{
    Dequantizes `input` with `scaling` and quantizes the result again with
    `to` (and the element type of the result). This is lossy in general:
    going from f32 block scales to E8M0 scales, for instance, rounds every
    scale to a power of two and every element again.

    ```mlir
    %m, %ms = fp8.requantize %q, %s {
          scaling = #fp8.scaling<tile = [128, 128], scale = f32>,
          to = #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>}
        : tensor<256x512xf8E4M3FN>, tensor<2x4xf32>
        -> tensor<256x512xf8E4M3FN>, tensor<256x16xf8E8M0FNU>
    ```
  }];
  let arguments = (ins
    FP8_DataTensor:$input,
    FP8_ScaleTensor:$scale,
    Optional<I64>:$seed,
    FP8_ScalingAttr:$scaling,
    FP8_ScalingAttr:$to,
    DefaultValuedAttr<FP8_RoundingAttr, "::mlir::fp8::Rounding::nearest">:$rounding
  );
  let results = (outs FP8_DataTensor:$result, FP8_ScaleTensor:$result_scale);
  let assemblyFormat = [{
    $input `,` $scale (`seed` `(` $seed^ `)`)? attr-dict `:` type($input) `,`
    type($scale) `->` type($result) `,` type($result_scale)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// hadamard
//===----------------------------------------------------------------------===//

def FP8_HadamardOp : FP8_Op<"hadamard", [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "orthonormal block Hadamard rotation along one dimension";
  let description = [{
    Multiplies every block of `size` consecutive elements along `dim` by the
    orthonormal Hadamard matrix `H / sqrt(size)` (Sylvester order:
    `H[i][j] = (-1)^popcount(i & j)`). With a `seed`, the block is first
    multiplied by random signs drawn from the seed, as in QuaRot. Since the
    rotation is orthogonal, rotating both operands of a matmul along the
    contracted dimension leaves the product unchanged, while outliers are
    spread over the block before quantization.

    ```mlir
    %r = fp8.hadamard %x {dim = 1 : i64, size = 128 : i64} : tensor<256x512xbf16>
    ```
  }];
  let arguments = (ins
    RankedTensorOf<[F32, BF16, F16]>:$input,
    ConfinedAttr<I64Attr, [IntNonNegative]>:$dim,
    ConfinedAttr<I64Attr, [IntPositive]>:$size,
    OptionalAttr<I64Attr>:$seed
  );
  let results = (outs RankedTensorOf<[F32, BF16, F16]>:$result);
  let assemblyFormat = "$input attr-dict `:` type($input)";
  let hasVerifier = 1;
}

#endif // FP8_DIALECT_FP8_IR_FP8OPS_TD
