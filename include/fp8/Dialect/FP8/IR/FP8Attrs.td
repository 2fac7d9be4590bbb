//===- FP8Attrs.td - FP8 dialect attributes ----------------*- tablegen -*-===//
//
// Scale layouts (#fp8.scaling, #fp8.tile) and training policies
// (#fp8.policy, #fp8.recipe).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_IR_FP8ATTRS_TD
#define FP8_DIALECT_FP8_IR_FP8ATTRS_TD

include "fp8/Dialect/FP8/IR/FP8Dialect.td"
include "fp8/Dialect/FP8/IR/FP8Enums.td"
include "mlir/IR/AttrTypeBase.td"

class FP8_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<FP8_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

// A 2-D tile extent list in which `*` (stored as ShapedType::kDynamic) means
// "the whole extent of that dimension".
def FP8_TileParameter : ArrayRefParameter<"int64_t", "tile extents"> {
  let parser = "::mlir::fp8::parseTileExtents($_parser)";
  let printer = "::mlir::fp8::printTileExtents($_printer, $_self)";
}

def FP8_TileAttr : FP8_Attr<"Tile", "tile"> {
  let summary = "a 2-D tile in an operand's storage coordinates";
  let description = [{
    A tile `[rows, cols]` in the storage coordinates of a rank-2 operand (the
    last two dimensions of a batched one); `*` spans the whole extent.

    ```mlir
    #fp8.tile<[1, 128]>
    #fp8.tile<[*, *]>
    ```
  }];
  let parameters = (ins FP8_TileParameter:$extents);
  let assemblyFormat = "`<` $extents `>`";
  let genVerifyDecl = 1;
}

def FP8_ScalingAttr : FP8_Attr<"Scaling", "scaling"> {
  let summary = "granularity and dtype of the scales of an FP8 tensor";
  let description = [{
    Says which tile of an FP8 tensor one scale covers, in the tensor's storage
    coordinates `[rows, cols]` (`*` = the whole extent), the scale's element
    type, and how the scale is rounded:

    * `exact`: the f32 scale `amax / fmax`, unrounded;
    * `pow2_ceil`: rounded up to a power of two (NVIDIA's RCEIL);
    * `pow2_floor`: the OCP MX rule (`floor(log2(amax)) - emax`).

    `f8E8M0FNU` scales hold only powers of two, so they need a `pow2_*`
    rounding. The scale tensor of an operand of shape `R x C` has shape
    `ceildiv(R, r) x ceildiv(C, c)`: edge tiles may be partial. A leading
    batch dimension is scaled per batch element (tile extent 1).

    ```mlir
    #fp8.scaling<tile = [*, *], scale = f32>                        // tensorwise
    #fp8.scaling<tile = [1, 128], scale = f32>                      // DeepSeek activations
    #fp8.scaling<tile = [1, 32], scale = f8E8M0FNU, round = pow2_ceil>  // MXFP8
    ```
  }];
  let parameters = (ins
    FP8_TileParameter:$tile,
    "::mlir::Type":$scale,
    "::mlir::fp8::ScaleRound":$round
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Tile extent along `dim` (0 = rows, 1 = cols); kDynamic for `*`.
    int64_t getTileExtent(unsigned dim) const { return getTile()[dim]; }
    /// Whether the tile spans both dimensions (one scale per matrix).
    bool isTensorwise() const;
    /// Whether transposing data and scales together keeps this scaling.
    bool isSquare() const;
    /// The same scaling with rows and columns swapped.
    ScalingAttr transposed() const;
    /// Shape of the scale tensor of data of shape `dataShape` (rank 2 or 3);
    /// kDynamic where a data extent is dynamic and the tile does not span it.
    ::llvm::SmallVector<int64_t> getScaleShape(
        ::llvm::ArrayRef<int64_t> dataShape) const;
  }];
}

def FP8_PolicyAttr : FP8_Attr<"Policy", "policy"> {
  let summary = "how one training role is quantized";
  let description = [{
    The quantization of one role (activation, weight or gradient) in a
    recipe: the FP8 element type, the scale tile, the scale type and its
    rounding. The tile is written *relative to the contraction*, as
    `[across, along]`: its extent across the contracted dimension and along
    it. Each matmul maps it to the operand's storage coordinates, so one
    policy yields `[1, 128]` on an operand contracted along its columns and
    `[128, 1]` on one contracted along its rows.

    ```mlir
    #fp8.policy<f8E4M3FN, tile = [1, 128], scale = f32>
    #fp8.policy<f8E4M3FN, tile = [1, 32], scale = f8E8M0FNU, round = pow2_floor>
    ```
  }];
  let parameters = (ins
    "::mlir::Type":$elementType,
    FP8_TileParameter:$tile,
    "::mlir::Type":$scale,
    "::mlir::fp8::ScaleRound":$round
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The storage-coordinate scaling of an operand of this role contracted
    /// along storage dimension `contractingDim` (0 or 1).
    ScalingAttr getScaling(unsigned contractingDim) const;
    /// Extent along the contracted dimension (the K-block); kDynamic for `*`.
    int64_t getKBlock() const { return getTile()[1]; }
  }];
}

def FP8_RecipeAttr : FP8_Attr<"Recipe", "recipe"> {
  let summary = "a complete FP8 training policy";
  let description = [{
    Everything a compiler needs to quantize a training graph: a policy per
    role, how amax is obtained (`current`, or `delayed<history, max |
    most_recent>` from an amax history as in TransformerEngine), the margin
    (the quantization scale is divided by `2^margin`), the accumulation of
    `scaled_matmul` (`promoted` every K-block, or `fast`), the Hadamard
    rotation size (0 = none), stochastic rounding of gradients, and the
    matmuls kept in high precision.

    Named presets parse by name, and a recipe equal to a preset prints as
    its name. A preset can be the base of a custom recipe:

    ```mlir
    #fp8.recipe<blockwise>
    #fp8.recipe<mxfp8, hadamard = 32>
    #fp8.recipe<blockwise, gradient = e5m2>   // the preset's tile and scale
    #fp8.recipe<activation = #fp8.policy<f8E4M3FN, tile = [1, *], scale = f32>,
                weight = #fp8.policy<f8E4M3FN, tile = [1, *], scale = f32>,
                gradient = #fp8.policy<f8E5M2, tile = [1, *], scale = f32>,
                amax = delayed<16, max>, margin = 1>
    ```

    | preset | activation | weight | gradient | scales | other |
    |---|---|---|---|---|---|
    | `tensorwise` | e4m3 `[*,*]` | e4m3 `[*,*]` | e5m2 `[*,*]` | f32 exact | |
    | `delayed` | e4m3 `[*,*]` | e4m3 `[*,*]` | e5m2 `[*,*]` | f32 exact | amax history 1024, max |
    | `rowwise` | e4m3 `[1,*]` | e4m3 `[1,*]` | e4m3 `[1,*]` | f32 pow2_ceil | |
    | `rowwise_gw_hp` | e4m3 `[1,*]` | e4m3 `[1,*]` | e4m3 `[1,*]` | f32 exact | Wgrad in high precision |
    | `blockwise` | e4m3 `[1,128]` | e4m3 `[128,128]` | e4m3 `[1,128]` | f32 exact | |
    | `mxfp8` | e4m3 `[1,32]` | e4m3 `[1,32]` | e4m3 `[1,32]` | E8M0 pow2_ceil | |
    | `mxfp8_ocp` | e4m3 `[1,32]` | e4m3 `[1,32]` | e4m3 `[1,32]` | E8M0 pow2_floor | |

    Tiles are `[across, along]` the contracted dimension.
  }];
  let parameters = (ins
    FP8_PolicyAttr:$activation,
    FP8_PolicyAttr:$weight,
    FP8_PolicyAttr:$gradient,
    "int64_t":$amaxHistory,
    "::mlir::fp8::AmaxAlgo":$amaxAlgo,
    "int64_t":$margin,
    "::mlir::fp8::Accumulate":$accumulate,
    "int64_t":$hadamard,
    "bool":$stochasticGradients,
    ArrayRefParameter<"::mlir::fp8::MatmulKind", "matmuls kept in high precision">:$highPrecision
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// The names of all presets, in documentation order.
    static ::llvm::ArrayRef<::llvm::StringRef> getPresetNames();
    /// The preset called `name`, or null if there is none.
    static RecipeAttr getPreset(::mlir::MLIRContext *context,
                                ::llvm::StringRef name);
    /// The name of the preset this recipe equals, if any.
    std::optional<::llvm::StringRef> getPresetName() const;
    /// The policy of `role`.
    PolicyAttr getPolicy(Role role) const;
    /// Whether amax comes from a history (TransformerEngine delayed scaling).
    bool isDelayed() const { return getAmaxHistory() > 0; }
    /// Whether `kind` stays in high precision under this recipe.
    bool keepsHighPrecision(MatmulKind kind) const;
  }];
}

#endif // FP8_DIALECT_FP8_IR_FP8ATTRS_TD
