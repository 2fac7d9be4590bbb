//===- Passes.td - fp8 dialect transformations -------------*- tablegen -*-===//
//
// Passes that decide how a training graph is quantized.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_TRANSFORMS_PASSES_TD
#define FP8_DIALECT_FP8_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def FP8CollapseContractions
    : Pass<"fp8-collapse-contractions", "::mlir::ModuleOp"> {
  let summary = "contractions over [B, T, K] activations as one matmul each";
  let description = [{
    Models hold activations as `[batch, sequence, features]`: a layer's
    Fprop and Dgrad are contractions with two M loops and its Wgrad
    contracts two loops. For a contraction (`linalg.generic`, named matmuls,
    static shapes, projected-permutation maps, a body without
    `linalg.index`) with more than one loop in its batch, M, N or K group,
    where each group's loops are adjacent and in one order in every operand,
    the operands are collapsed (`tensor.collapse_shape`, a view) so that
    each group is one dim, the contraction becomes a `linalg.generic` over
    one loop per group (the matmul fp8-quantize-matmuls takes), and its
    result is expanded back (`tensor.expand_shape`). Where a group's loops
    are not so, the contraction is left as it is with a warning that names
    them. First pass of `fp8-pipeline`.

    Example: `Y[b, t, n] = sum_k X[b, t, k] W[n, k]` becomes
    `collapse(X) : 4x128x512 -> 512x512`, a 512x512 by 256x512 matmul and
    `expand(Y) : 512x256 -> 4x128x256`.
  }];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def FP8PadContraction : Pass<"fp8-pad-contraction", "::mlir::ModuleOp"> {
  let summary = "zero-pad every matmul's contracted dim to a multiple of 16";
  let description = [{
    Gives both operands of a matmul (`linalg.matmul`, `linalg.batch_matmul`
    or a contraction `linalg.generic`, static shapes) whose contracted extent
    is not a multiple of 16 a `tensor.pad` with zeros along that dim, up to
    the next multiple of 16. The FP8 GEMMs load K-major operands through TMA,
    which needs 16-byte row strides; Wgrad contracts the token dimension, so
    this is what lets any token count train. The result is unchanged: the
    added products are zero, and no recipe's scale changes (zeros never raise
    an amax). First pass of `fp8-pipeline`; `tensor.pad` passes operand roles
    on.

    Example (Wgrad of 1000 tokens): `%dy : tensor<1000x512xbf16>` and
    `%x : tensor<1000x256xbf16>` are padded to 1008 rows each.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

def FP8QuantizeMatmuls : Pass<"fp8-quantize-matmuls", "::mlir::ModuleOp"> {
  let summary = "rewrite high-precision matmuls into fp8 quantize + scaled_matmul";
  let description = [{
    Rewrites every bf16/f16/f32 `linalg.matmul` (any indexing maps),
    `linalg.batch_matmul` and contraction `linalg.generic` into an
    `fp8.quantize` per operand and an `fp8.scaled_matmul`, following the
    recipe.

    Roles come from `fp8.role` function-argument attributes and propagate
    forward through transposes, reshapes, casts and elementwise ops; an Fprop
    result is an activation and a Dgrad result a gradient. The pair of roles
    names the matmul: activation x weight is Fprop, gradient x weight Dgrad,
    gradient x activation Wgrad. An operand without a role next to one with
    a role, or a pair the recipe does not cover, is an error (where the
    roles of an op's operands disagree, e.g. a norm's gain marked as a
    weight times the activations, the error names that op); a matmul whose
    operands both have no role stays as it is, with a warning that says
    where the roles would go. Matmuls the recipe keeps in high precision are
    left alone. A module in which nothing is quantized gets a warning.

    An operand that is a `linalg.transpose` of a matrix is quantized as the
    stored tensor contracted along its other dim, so a graph written with
    transposes gets the quantizations of the same graph written with
    indexing maps.

    Each operand is quantized with its role's policy mapped to its storage
    coordinates (the tile `[across, along]` becomes `[across, along]` when
    the operand is contracted along its columns and `[along, across]` along
    its rows). The quantize carries `fp8.role`, the matmul `fp8.matmul`, the
    function `fp8.recipe`; `fp8-derive-scaling` then shares quantizations.

    Stochastic rounding of gradients takes its seed from the function
    argument marked `fp8.seed`. Delayed-amax recipes thread one amax history
    per quantized value through the function as an extra argument and an
    extra result (TransformerEngine semantics; see docs/Passes.md).

    Without `recipe`, the pass quantizes with `tensorwise` and warns that it
    did; an unknown recipe name is an error that suggests the closest
    preset.
  }];
  let options = [
    Option<"recipe", "recipe", "std::string", /*default=*/"\"\"",
           "recipe preset, or a full #fp8.recipe<...> attribute; none: "
           "tensorwise, with a warning">,
  ];
  let dependentDialects = [
    "::mlir::fp8::FP8Dialect",
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FP8DeriveScaling : Pass<"fp8-derive-scaling", "::mlir::ModuleOp"> {
  let summary = "derive every operand's tile from the rule and share quantizations";
  let description = [{
    For every `fp8.scaled_matmul` in a function that carries `fp8.recipe`,
    gives each operand the tile its role's policy yields for the dimension
    that matmul contracts (docs/Design.md §2), replacing any other. Then makes one
    quantization per (value, scaling):

    * the same value with the same scaling is quantized once and **reused**;
    * a value reached through a `linalg.transpose` of one that is quantized
      with a symmetric scaling (tensorwise, square tiles) is the
      `fp8.transpose` of that quantization (**transposed**, lossless);
    * otherwise the value is quantized again from its high-precision source
      (**requantized**); an FP8 value is never quantized again.

    `fp8-print-layouts` shows the result.
  }];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

def FP8InsertHadamard : Pass<"fp8-insert-hadamard", "::mlir::ModuleOp"> {
  let summary = "rotate both operands of scaled matmuls along the contracted dim";
  let description = [{
    Before the quantization of both operands of every selected
    `fp8.scaled_matmul`, inserts `fp8.hadamard` along the dimension the matmul
    contracts, with the same size and seed on both sides. Since H·Hᵀ = I the
    product is unchanged, while outliers are spread over each block of `size`
    elements before they are quantized. Runs after `fp8-quantize-matmuls` and
    before `fp8-derive-scaling`; a quantization shared with an unselected
    matmul is duplicated rather than changed.

    `size` 0 takes the size from the function's `fp8.recipe` (its `hadamard`
    field); without one the pass fails, unless `if-recipe` is set, which
    leaves a function whose recipe asks for no rotation as it is
    (`fp8-pipeline` runs the pass that way). Matmuls are selected by their
    `fp8.matmul` kind.
  }];
  let options = [
    Option<"size", "size", "int64_t", /*default=*/"0",
           "block size (a power of two); 0 = the recipe's">,
    ListOption<"matmuls", "matmuls", "std::string",
               "kinds to rotate (fprop, dgrad, wgrad); default all">,
    Option<"seed", "seed", "int64_t", /*default=*/"-1",
           "seed of the random signs; -1 = plain Hadamard">,
    Option<"ifRecipe", "if-recipe", "bool", /*default=*/"false",
           "with size 0, rotate only functions whose recipe has a hadamard "
           "size, instead of failing on the others">,
  ];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

def FP8Legalize : Pass<"fp8-legalize", "::mlir::ModuleOp"> {
  let summary = "make every scaled_matmul take the operand layouts the target's MMA takes";
  let description = [{
    Rewrites `fp8.scaled_matmul` ops into forms the chip's tensor cores take
    directly. Runs after `fp8-derive-scaling` and `fp8-insert-hadamard`,
    before kernel generation.

    `sm_90a` (Hopper): FP8 `wgmma` reads both operands K-major, so every
    operand contracted along its rows is transposed, and the matmul then
    contracts `[1, 1]` (the last matrix dim of both). An operand with a
    symmetric scaling (tensorwise, square tiles) gets an `fp8.transpose`,
    which is exact. Any other operand must come from an `fp8.quantize`; it is
    quantized again from the `linalg.transpose` of that quantization's
    high-precision input, with the transposed tile: each tile then holds the
    same elements, so data and scales are the transposed original bit for
    bit (with stochastic rounding the random bits follow the new element
    order: as unbiased, not the same bits). An identical transposed
    quantization that already exists is reused; the original stays while
    other ops use it. A quantization of data rotated by `fp8.hadamard`
    along its rows is redone from the rotation of the transposed input along
    its columns (same bits), square tiles included, so that every rotation
    runs along the contiguous dim. Anything else is an error. MXFP8 (1x32 tiles, E8M0
    scales) is left as it is: the kernel promotes every 32 elements.

    Then, on `sm_90a`, every matrix operand (rank 2) scaled per row and
    K-block (tile `[1, 128k]`, f32 scales: DeepSeek-V3's 1x128 activations
    and gradients, both sides of a 1x128 x 1x128 Wgrad) gets its scales
    through `fp8.tma_align_scales`, and the matmul's `a_scale_layout` /
    `b_scale_layout` becomes `col_major_tma`: transposed, each row padded to
    16 bytes, so that the GEMM loads one K-block's scales of consecutive rows
    with TMA. One such op per scale value is shared by every matmul that
    reads it. 128x128 tiles, rowwise (`[1, *]`), tensorwise and E8M0 scales
    stay `row_major`, and so does an operand already `col_major_tma` (the
    pass is idempotent). An operand contracted along its rows whose scales
    are `col_major_tma` is first read through its `fp8.tma_align_scales`.
    A grouped matmul (`fp8.grouped_scaled_matmul`, contiguous layout) gets
    the same for its A's 1x128 f32 scales (`a_scale_layout`); its B's and
    the masked layout's stay `row_major`.

    The chip is recorded on the module as `fp8.target = "<chip>"`, which
    kernel generation and `fp8-emit` read, so that it is said once. A
    module already legalized for another chip is refused: its layouts are
    that chip's.

    `sm_100a` (Blackwell): `tcgen05` reads FP8 either major (the
    instruction descriptor's transpose bits), so no operand is transposed.
    It applies E8M0 scales of 1x32 blocks along K itself, from tensor
    memory: those scales go through `fp8.tcgen05_scales` (after a transpose
    of the small scale matrix where the operand contracts its rows) and the
    side becomes `#fp8.scale_layout<tcgen05>`. Other scalings are left as
    they are.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "target GPU architecture: sm_90a or sm_100a">,
  ];
  let dependentDialects = [
    "::mlir::fp8::FP8Dialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def FP8FuseQuantization : Pass<"fp8-fuse-quantization", "::mlir::ModuleOp"> {
  let summary = "fuse quantizations into explicit fused ops";
  let description = [{
    Rewrites groups of ops that one kernel can compute from one read of
    their input into an explicit fused op, so that the fusion shows in the
    IR (`--mlir-print-ir-after-all`, `fp8-print-layouts`) and kernel
    generation lowers each op as written. A fused op gives the bits of the
    ops it replaces; `fp8-lower-to-reference` lowers it through them.

    - Cast-transpose: `fp8.quantize %x` and `fp8.quantize` of
      `linalg.transpose %x` (permutation [1, 0]) with the same 1x128 scaling,
      FP8 type and margin, round-to-nearest and their own amax, where `%x`
      is a 16-bit matrix whose dims are multiples of 128 (the fused kernel's
      tiles), become one `fp8.quantize_transpose %x`; the transpose goes
      where nothing else reads it.
    - Elementwise producers (`producers=true`, the default): a quantization
      (plain or cast-transpose, round-to-nearest, its own amax) of the
      result of an elementwise producer in the same block becomes one
      `fp8.quantize_elementwise` carrying the producer's body: an
      all-parallel `linalg.generic` on static matrices (arith and math
      body, identity result map, inputs read through the identity or a
      broadcast such as a bias row) or an elementwise arith/math op on
      tensors, with the producers of its identity-read inputs that nothing
      else reads inlined too (a bias add before a GELU, a cast). The
      producer's result stays a result of the fused op where another op
      reads it. GELU, its derivative times the gradient, SiLU·mul (SwiGLU),
      bias and residual adds, casts and scalings are such producers. So is
      a Hadamard rotation along the rows (`fp8.hadamard`, dim 1) that only
      the quantization reads, where the row-tile kernel can rotate in
      registers (tiles of one row and 16 to 512 columns, rotations of 16 to
      256): the fused op carries its size and seed (`hadamard_size`,
      `hadamard_seed`) and the identity body. Not into a tensorwise
      quantization where the body holds math that kernels expand into a
      polynomial (erf, tanh, exp, log): that kernel would compute it twice.

    - Delayed amax (`producers=true`): the delayed recipe's tensorwise
      quantization with a given amax chosen between its history's (max
      or most recent entry) and the data's (`fp8.amax`) becomes one
      `fp8.quantize_delayed` of the data and the history where the
      quantization was; the history's roll, which reads its third result
      (the data's amax), moves after it. The reduction, the choice and the
      amax go where nothing else reads them. The quantization of a
      transpose whose history holds the amax of the untransposed data
      (rotated along dim 0, the transpose along dim 1: the same bits) fuses
      the same way, its amax taken from the transpose.

    - Scale re-layout (`scales=true`, the default): `fp8.tma_align_scales`
      of a quantization's scales (plain, cast-transpose or elementwise)
      that nothing else reads goes; the quantization stores them in the
      `col_major_tma` layout itself (`scale_layout`, `scale_t_layout`).
      So does `fp8.tcgen05_scales` of an MX quantization's (1x32, E8M0)
      scales, the quantization without the transpose storing the tcgen05
      chunks (`scale_layout = tcgen05`).

    Runs on legalized IR (after `fp8-legalize`): `fp8-pipeline` runs it
    last.
  }];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
  let options = [
    Option<"producers", "producers", "bool", /*default=*/"true",
           "fuse elementwise producers (and the delayed recipe's amax) into "
           "the quantizations that read them (false: the cast-transpose "
           "only)">,
    Option<"scales", "scales", "bool", /*default=*/"true",
           "store scales in the TMA (or tcgen05) layout from the "
           "quantization instead of a separate fp8.tma_align_scales (or "
           "fp8.tcgen05_scales)">,
    Option<"explain", "explain", "bool", /*default=*/"false",
           "after the fusions, remark at every quantization, FP8 transpose "
           "and unfused elementwise op or row sum what it fused, or the rule "
           "that kept it a kernel of its own">,
  ];
}

def FP8MonitorQuantization : Pass<"fp8-monitor-quantization", "::mlir::ModuleOp"> {
  let summary = "return per-quantization health statistics from every function";
  let description = [{
    Rewrites every rank-2 `fp8.quantize` of a `func.func` into
    `fp8.quantize_monitored` (the same `result` and `scale`, bit for bit)
    and appends its `tile_amax` and `counts` to the function's results, in
    the order the quantizations appear, each new result carrying
    `fp8.monitor = "<label>/tile_amax"` or `"<label>/counts"`. The label is
    `<role>:<source>`: the `fp8.role` of the quantization (or of the
    function argument it reads), else `tensor`; then `arg<N>` where it
    quantizes the function's argument N, `arg<N>.T` where it quantizes a
    `linalg.transpose` of it, else `op<K>`, K the quantization's index among
    the function's `fp8.quantize` ops (0-based, in program order).

    The statistics come out of the quantization kernels themselves: the
    data is read once. Run it before `fp8-fuse-quantization`, which leaves
    monitored quantizations unfused (`fp8-pipeline{monitor=true}` does).
    A function that is called in the module is refused (its call sites
    would need the new results), and so is a quantization nested in a
    region (its statistics do not reach the return); rank-3 quantizations
    stay unmonitored.
  }];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

def FP8SplitForwardBackward
    : Pass<"fp8-split-forward-backward", "::mlir::ModuleOp"> {
  let summary = "split a joint training function into forward and backward";
  let description = [{
    Splits every `func.func` that has an argument with `fp8.role =
    "gradient"` (the joint function: a layer's forward and backward written
    as one, e.g. `@linear_train(%x, %w, %dy) -> (y, dx, dw)`) into
    `<name>_fwd` and `<name>_bwd`, so that backward takes what forward
    already computed from its inputs (the FP8 operands and scales of Dgrad
    and Wgrad) instead of the high-precision inputs. Run it after
    `fp8-pipeline`: every quantization of an input then depends on that
    input only, and fp8-fuse-quantization has made both layouts of it one
    op.

    An op is backward's if it reads (transitively) a gradient argument;
    ops that read no argument at all (constants, `tensor.empty`, fills) are
    cloned where they are used; every other op is forward's, except that
    one whose results only backward reads moves to backward where the
    values it reads are fewer bytes to pass than its results (a history
    slice, never a quantization of a bf16 input).

    * `<name>_fwd` takes the non-gradient arguments that forward ops read,
      in order, and returns the joint results that depend on no gradient,
      in order, then the saved values: every value a forward op computes
      that a backward op reads, in program order.
    * `<name>_bwd` takes the gradient arguments, then the non-gradient
      arguments backward ops read (each labelled `fp8.saved = "arg<N>"`, N
      its index in the joint function), then the saved values; it returns
      the other joint results, in order.

    Each saved value carries `fp8.saved = "<source>:<name>"` as a result
    attribute of `_fwd` and an argument attribute of `_bwd`: source is
    `arg<N>` for a quantization of joint argument N, `arg<N>.T` for one of
    its transpose (a `linalg.transpose` or `fp8.transpose` on the way),
    else `op<K>` (K the producer's index in the joint function), and name
    is the result's name (`q`, `scale`, `qt`, `scale_t`, ...). A
    non-gradient argument that both forward and backward read is saved in
    high precision: a remark says so. Calls of the joint function become a
    call of each half; then the joint function is erased. A joint function
    without gradient-independent results, or whose gradient arguments
    reach every op, is an error.

    `recompute` names roles (`weight`, `activation`) whose arguments are
    treated like constants: the ops that read only such arguments are
    cloned into each half that needs them instead of crossing, and the
    arguments cross as they are. With `recompute=weight` backward
    quantizes W again from the bf16 weight (a parameter, resident anyway)
    rather than keeping an FP8 copy of it from forward: less memory, one
    more read of W.
  }];
  let options = [
    ListOption<"recompute", "recompute", "std::string",
               "roles (weight, activation) whose arguments backward reads "
               "again instead of taking what forward made of them">,
  ];
  let dependentDialects = ["::mlir::fp8::FP8Dialect"];
}

def FP8ConvertScaling : Pass<"fp8-convert-scaling", "::mlir::ModuleOp"> {
  let summary = "convert quantized operands to another recipe's scaling and measure the loss";
  let description = [{
    Converts the quantized operands of every `fp8.scaled_matmul` whose role
    is selected (weights by default) to the scaling that the recipe `to`
    derives for them, with `fp8.requantize` (nearest or stochastic rounding).
    Converting between microscaling formats is lossy: for every converted
    value whose high-precision source is a constant, a remark reports the
    error of the conversion against the source quantization (max abs,
    relative RMS) and, for comparison, the error of quantizing the
    high-precision values directly to the new scaling.

    Typical use: weights stored blockwise (128x128, f32 scales) served to an
    MXFP8 kernel (1x32, E8M0).
  }];
  let options = [
    Option<"to", "to", "std::string", /*default=*/"\"mxfp8\"",
           "target recipe preset, or a #fp8.recipe<...>">,
    ListOption<"roles", "roles", "std::string",
               "roles to convert (activation, weight, gradient); default weight">,
    Option<"rounding", "rounding", "std::string", /*default=*/"\"nearest\"",
           "nearest or stochastic">,
    Option<"seed", "seed", "int64_t", /*default=*/"0",
           "seed of stochastic rounding">,
  ];
  let dependentDialects = ["::mlir::fp8::FP8Dialect",
                           "::mlir::arith::ArithDialect"];
}

def FP8PrintLayouts : Pass<"fp8-print-layouts", "::mlir::ModuleOp"> {
  let summary = "print every scaled_matmul operand's layout and scale tiles";
  let description = [{
    Prints, per `fp8.scaled_matmul` and operand: the matmul kind, the role,
    the storage shape, the contracted dim, the tile, the scale shape and type,
    and the decision that produced it (fresh, reused, transposed,
    requantized), then the number of quantizations, which is the number of
    `fp8.quantize` ops plus two per fused `fp8.quantize_transpose` (counted
    again on a line of their own). With `svg-dir`, also writes one SVG drawing per function
    showing each operand's tiles over its storage shape. The IR is unchanged.
  }];
  let options = [
    Option<"svgDir", "svg-dir", "std::string", /*default=*/"\"\"",
           "directory to write <function>.svg drawings into">,
  ];
}

#endif // FP8_DIALECT_FP8_TRANSFORMS_PASSES_TD
