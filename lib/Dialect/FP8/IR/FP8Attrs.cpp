//===- FP8Attrs.cpp - FP8 dialect attributes ------------------------------===//
//
// Parsing, printing and verification of #fp8.tile, #fp8.scaling, #fp8.policy
// and #fp8.recipe, and the recipe presets. Tiles use `*` for "the whole
// extent" because a tensorwise or rowwise scale covers a dimension whatever
// its size, so a number would tie the attribute to one shape.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;

#define GET_ATTRDEF_CLASSES
#include "fp8/Dialect/FP8/IR/FP8Attrs.cpp.inc"

void FP8Dialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "fp8/Dialect/FP8/IR/FP8Attrs.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool fp8::isFP8DataType(Type type) {
  return isa<Float8E4M3FNType, Float8E5M2Type>(type);
}

double fp8::getFP8MaxValue(Type type) {
  if (isa<Float8E4M3FNType>(type))
    return 448.0;
  if (isa<Float8E5M2Type>(type))
    return 57344.0;
  llvm_unreachable("not an FP8 data type");
}

FailureOr<SmallVector<int64_t>> fp8::parseTileExtents(AsmParser &parser) {
  SmallVector<int64_t> extents;
  auto parseExtent = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalStar())) {
      extents.push_back(ShapedType::kDynamic);
      return success();
    }
    int64_t extent;
    if (parser.parseInteger(extent))
      return failure();
    extents.push_back(extent);
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseExtent,
                                     " in a tile"))
    return failure();
  return extents;
}

void fp8::printTileExtents(AsmPrinter &printer, ArrayRef<int64_t> extents) {
  printer << '[';
  llvm::interleaveComma(extents, printer, [&](int64_t extent) {
    if (ShapedType::isDynamic(extent))
      printer << '*';
    else
      printer << extent;
  });
  printer << ']';
}

std::string fp8::formatTile(ArrayRef<int64_t> tile) {
  std::string str;
  llvm::raw_string_ostream os(str);
  os << '[';
  llvm::interleaveComma(tile, os, [&](int64_t extent) {
    if (ShapedType::isDynamic(extent))
      os << '*';
    else
      os << extent;
  });
  os << ']';
  return str;
}

SmallVector<int64_t> fp8::getMatrixTransposition(int64_t rank) {
  SmallVector<int64_t> perm = llvm::to_vector(llvm::seq<int64_t>(0, rank));
  std::swap(perm[rank - 2], perm[rank - 1]);
  return perm;
}

bool fp8::isMatrixTransposition(ArrayRef<int64_t> permutation) {
  return permutation.size() >= 2 &&
         permutation ==
             ArrayRef<int64_t>(getMatrixTransposition(permutation.size()));
}

std::string fp8::formatShape(ArrayRef<int64_t> shape) {
  std::string str;
  llvm::raw_string_ostream os(str);
  llvm::interleave(
      shape, os,
      [&](int64_t extent) {
        if (ShapedType::isDynamic(extent))
          os << '?';
        else
          os << extent;
      },
      "x");
  return str;
}

static LogicalResult
verifyTileExtents(function_ref<InFlightDiagnostic()> emitError,
                  ArrayRef<int64_t> extents) {
  if (extents.size() != 2)
    return emitError() << "tile " << formatTile(extents)
                       << " must have 2 extents [rows, cols]";
  for (int64_t extent : extents)
    if (!ShapedType::isDynamic(extent) && extent <= 0)
      return emitError() << "tile " << formatTile(extents)
                         << " has a non-positive extent; use '*' for the "
                            "whole dimension";
  return success();
}

static LogicalResult
verifyScaleType(function_ref<InFlightDiagnostic()> emitError, Type scale,
                ScaleRound round) {
  if (!isa<Float32Type, Float8E8M0FNUType>(scale))
    return emitError() << "scale type must be f32 or f8E8M0FNU, got " << scale;
  // E8M0 stores only an exponent: an unrounded scale cannot be represented.
  if (isa<Float8E8M0FNUType>(scale) && round == ScaleRound::exact)
    return emitError() << "f8E8M0FNU scales hold only powers of two: use "
                          "round = pow2_ceil or pow2_floor";
  return success();
}

/// Parses `key = value` pairs separated by commas until `>`; `parseValue`
/// handles one key whose `=` has been consumed. Duplicate keys are errors.
static ParseResult
parseKeyValueList(AsmParser &parser, StringRef attrName,
                  function_ref<ParseResult(StringRef, SMLoc)> parseValue) {
  llvm::SmallSet<std::string, 8> seen;
  auto parseOne = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (!seen.insert(key.str()).second)
      return parser.emitError(loc)
             << "duplicate " << attrName << " parameter '" << key << "'";
    return parseValue(key, loc);
  };
  return parser.parseCommaSeparatedList(parseOne);
}

/// Parses the `round = ...` value.
static ParseResult parseScaleRound(AsmParser &parser, ScaleRound &round) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<ScaleRound> parsed = symbolizeScaleRound(keyword);
  if (!parsed)
    return parser.emitError(loc)
           << "unknown scale rounding '" << keyword
           << "', expected exact, pow2_ceil or pow2_floor";
  round = *parsed;
  return success();
}

/// Parses the parameters shared by #fp8.scaling and #fp8.policy.
static ParseResult parseScaleParameter(AsmParser &parser, StringRef attrName,
                                       StringRef key, SMLoc loc,
                                       SmallVector<int64_t> &tile,
                                       bool &haveTile, Type &scale,
                                       ScaleRound &round) {
  if (key == "tile") {
    FailureOr<SmallVector<int64_t>> extents = parseTileExtents(parser);
    if (failed(extents))
      return failure();
    tile = *extents;
    haveTile = true;
    return success();
  }
  if (key == "scale")
    return parser.parseType(scale);
  if (key == "round")
    return parseScaleRound(parser, round);
  return parser.emitError(loc) << "unknown " << attrName << " parameter '"
                               << key << "', expected tile, scale or round";
}

static void printScaleParameters(AsmPrinter &printer, ArrayRef<int64_t> tile,
                                 Type scale, ScaleRound round) {
  printer << "tile = ";
  printTileExtents(printer, tile);
  printer << ", scale = " << scale;
  if (round != ScaleRound::exact)
    printer << ", round = " << stringifyScaleRound(round);
}

//===----------------------------------------------------------------------===//
// TileAttr
//===----------------------------------------------------------------------===//

LogicalResult TileAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               ArrayRef<int64_t> extents) {
  return verifyTileExtents(emitError, extents);
}

//===----------------------------------------------------------------------===//
// ScalingAttr
//===----------------------------------------------------------------------===//

LogicalResult ScalingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<int64_t> tile, Type scale,
                                  ScaleRound round) {
  if (failed(verifyTileExtents(emitError, tile)))
    return failure();
  return verifyScaleType(emitError, scale, round);
}

Attribute ScalingAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t> tile;
  bool haveTile = false;
  Type scale = Float32Type::get(parser.getContext());
  ScaleRound round = ScaleRound::exact;
  auto parseValue = [&](StringRef key, SMLoc keyLoc) {
    return parseScaleParameter(parser, "#fp8.scaling", key, keyLoc, tile,
                               haveTile, scale, round);
  };
  if (parser.parseLess() ||
      parseKeyValueList(parser, "#fp8.scaling", parseValue) ||
      parser.parseGreater())
    return {};
  if (!haveTile) {
    parser.emitError(loc, "#fp8.scaling needs a tile");
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    tile, scale, round);
}

void ScalingAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printScaleParameters(printer, getTile(), getScale(), getRound());
  printer << '>';
}

bool ScalingAttr::isTensorwise() const {
  return llvm::all_of(getTile(), ShapedType::isDynamic);
}

bool ScalingAttr::isSquare() const { return getTile()[0] == getTile()[1]; }

ScalingAttr ScalingAttr::transposed() const {
  return get(getContext(), {getTile()[1], getTile()[0]}, getScale(),
             getRound());
}

SmallVector<int64_t> fp8::getTiledShape(ArrayRef<int64_t> dataShape,
                                        ArrayRef<int64_t> tile) {
  assert(dataShape.size() >= 2 && tile.size() == 2 && "matrix and 2-D tile");
  SmallVector<int64_t> shape(dataShape.drop_back(2));
  for (auto [extent, tileExtent] : llvm::zip(dataShape.take_back(2), tile)) {
    if (ShapedType::isDynamic(tileExtent))
      shape.push_back(1);
    else if (ShapedType::isDynamic(extent))
      shape.push_back(ShapedType::kDynamic);
    else
      shape.push_back(llvm::divideCeil(extent, tileExtent));
  }
  return shape;
}

SmallVector<int64_t>
fp8::getTmaAlignedScaleShape(ArrayRef<int64_t> rowMajorShape,
                             Type elementType) {
  assert(rowMajorShape.size() == 2 && "a matrix of scales");
  int64_t rows = rowMajorShape[0], cols = rowMajorShape[1];
  int64_t perRow =
      kTmaStrideAlignment / (elementType.getIntOrFloatBitWidth() / 8);
  if (ShapedType::isDynamic(rows))
    return {cols, ShapedType::kDynamic};
  return {cols, static_cast<int64_t>(llvm::alignTo(rows, perRow))};
}

bool fp8::hasTmaLoadableScales(ScalingAttr scaling) {
  int64_t rowBlock = scaling.getTile()[0], kBlock = scaling.getTile()[1];
  return rowBlock == 1 && !ShapedType::isDynamic(kBlock) &&
         kBlock % kHopperGemmTileK == 0 && scaling.getScale().isF32();
}

SmallVector<int64_t>
ScalingAttr::getScaleShape(ArrayRef<int64_t> dataShape) const {
  return getTiledShape(dataShape, getTile());
}

//===----------------------------------------------------------------------===//
// PolicyAttr
//===----------------------------------------------------------------------===//

LogicalResult PolicyAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Type elementType, ArrayRef<int64_t> tile,
                                 Type scale, ScaleRound round) {
  if (!isFP8DataType(elementType))
    return emitError() << "policy element type must be f8E4M3FN or f8E5M2, "
                          "got "
                       << elementType;
  if (failed(verifyTileExtents(emitError, tile)))
    return failure();
  int64_t kBlock = tile[1];
  if (!ShapedType::isDynamic(kBlock) && kBlock % kMinKBlock != 0)
    return emitError() << "policy tile " << formatTile(tile) << " has K-block "
                       << kBlock << ": a K-block must be '*' or a multiple of "
                       << kMinKBlock;
  return verifyScaleType(emitError, scale, round);
}

Attribute PolicyAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  Type elementType;
  SmallVector<int64_t> tile;
  bool haveTile = false;
  Type scale = Float32Type::get(parser.getContext());
  ScaleRound round = ScaleRound::exact;
  auto parseValue = [&](StringRef key, SMLoc keyLoc) {
    return parseScaleParameter(parser, "#fp8.policy", key, keyLoc, tile,
                               haveTile, scale, round);
  };
  if (parser.parseLess() || parser.parseType(elementType) ||
      parser.parseComma() ||
      parseKeyValueList(parser, "#fp8.policy", parseValue) ||
      parser.parseGreater())
    return {};
  if (!haveTile) {
    parser.emitError(loc, "#fp8.policy needs a tile");
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    elementType, tile, scale, round);
}

void PolicyAttr::print(AsmPrinter &printer) const {
  printer << '<' << getElementType() << ", ";
  printScaleParameters(printer, getTile(), getScale(), getRound());
  printer << '>';
}

ScalingAttr PolicyAttr::getScaling(unsigned contractingDim) const {
  assert(contractingDim < 2 && "matrix dimension");
  int64_t across = getTile()[0], along = getTile()[1];
  SmallVector<int64_t, 2> tile = contractingDim == 1
                                     ? SmallVector<int64_t, 2>{across, along}
                                     : SmallVector<int64_t, 2>{along, across};
  return ScalingAttr::get(getContext(), tile, getScale(), getRound());
}

//===----------------------------------------------------------------------===//
// RecipeAttr
//===----------------------------------------------------------------------===//

LogicalResult RecipeAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 PolicyAttr activation, PolicyAttr weight,
                                 PolicyAttr gradient, int64_t amaxHistory,
                                 AmaxAlgo amaxAlgo, int64_t margin,
                                 Accumulate accumulate, int64_t hadamard,
                                 bool stochasticGradients,
                                 ArrayRef<MatmulKind> highPrecision) {
  if (!activation || !weight || !gradient)
    return emitError() << "a recipe needs an activation, weight and gradient "
                          "policy";
  if (amaxHistory < 0)
    return emitError() << "amax history length must be positive, got "
                       << amaxHistory;
  if (margin < 0)
    return emitError() << "margin must be non-negative, got " << margin;
  if (hadamard < 0 || (hadamard != 0 && !llvm::isPowerOf2_64(hadamard)))
    return emitError() << "hadamard size must be 0 or a power of two, got "
                       << hadamard;
  llvm::SmallSet<MatmulKind, 3> kinds;
  for (MatmulKind kind : highPrecision)
    if (!kinds.insert(kind).second)
      return emitError() << "matmul '" << stringifyMatmulKind(kind)
                         << "' is listed twice in high_precision";
  return success();
}

namespace {
/// The fields of a recipe, filled by presets and overrides.
struct RecipeFields {
  PolicyAttr activation, weight, gradient;
  int64_t amaxHistory = 0;
  AmaxAlgo amaxAlgo = AmaxAlgo::max;
  int64_t margin = 0;
  Accumulate accumulate = Accumulate::promoted;
  int64_t hadamard = 0;
  bool stochasticGradients = false;
  SmallVector<MatmulKind> highPrecision;

  RecipeAttr get(MLIRContext *context) const {
    return RecipeAttr::get(context, activation, weight, gradient, amaxHistory,
                           amaxAlgo, margin, accumulate, hadamard,
                           stochasticGradients, highPrecision);
  }
};
} // namespace

static constexpr int64_t kWhole = ShapedType::kDynamic;

static PolicyAttr makePolicy(MLIRContext *context, Type elementType,
                             int64_t across, int64_t along, Type scale,
                             ScaleRound round) {
  return PolicyAttr::get(context, elementType, {across, along}, scale, round);
}

/// The fields of the preset `name`, or nothing.
static std::optional<RecipeFields> getPresetFields(MLIRContext *context,
                                                   StringRef name) {
  Builder b(context);
  Type e4m3 = b.getType<Float8E4M3FNType>();
  Type e5m2 = b.getType<Float8E5M2Type>();
  Type f32 = b.getF32Type();
  Type e8m0 = b.getType<Float8E8M0FNUType>();
  auto uniform = [&](Type elementType, int64_t across, int64_t along,
                     Type scale, ScaleRound round) {
    PolicyAttr policy =
        makePolicy(context, elementType, across, along, scale, round);
    RecipeFields fields;
    fields.activation = fields.weight = fields.gradient = policy;
    return fields;
  };

  // torchao's tensorwise recipe: one f32 scale per tensor, e4m3 forward and
  // e5m2 gradients (their range matters more than their precision).
  auto tensorwise = [&] {
    RecipeFields fields = uniform(e4m3, kWhole, kWhole, f32, ScaleRound::exact);
    fields.gradient =
        makePolicy(context, e5m2, kWhole, kWhole, f32, ScaleRound::exact);
    return fields;
  };
  if (name == "tensorwise")
    return tensorwise();
  // TransformerEngine's DelayedScaling default: the same HYBRID formats, amax
  // from a 1024-step history, max.
  if (name == "delayed") {
    RecipeFields fields = tensorwise();
    fields.amaxHistory = 1024;
    fields.amaxAlgo = AmaxAlgo::max;
    return fields;
  }
  // torchao's rowwise recipe rounds scales to powers of two (multiplying by
  // them is exact); e4m3 everywhere.
  if (name == "rowwise")
    return uniform(e4m3, 1, kWhole, f32, ScaleRound::pow2_ceil);
  // torchao's rowwise_with_gw_hp: exact f32 row scales, Wgrad in bf16.
  if (name == "rowwise_gw_hp") {
    RecipeFields fields = uniform(e4m3, 1, kWhole, f32, ScaleRound::exact);
    fields.highPrecision.push_back(MatmulKind::wgrad);
    return fields;
  }
  // DeepSeek-V3: 1x128 activations and gradients, 128x128 weights (square,
  // so one quantized W serves Fprop and Dgrad), f32 scales.
  if (name == "blockwise") {
    RecipeFields fields = uniform(e4m3, 1, 128, f32, ScaleRound::exact);
    fields.weight = makePolicy(context, e4m3, 128, 128, f32, ScaleRound::exact);
    return fields;
  }
  // MXFP8: 1x32 blocks, E8M0 scales; NVIDIA's RCEIL or the OCP floor rule.
  if (name == "mxfp8")
    return uniform(e4m3, 1, 32, e8m0, ScaleRound::pow2_ceil);
  if (name == "mxfp8_ocp")
    return uniform(e4m3, 1, 32, e8m0, ScaleRound::pow2_floor);
  return std::nullopt;
}

ArrayRef<StringRef> RecipeAttr::getPresetNames() {
  static const StringRef names[] = {"tensorwise",    "delayed",   "rowwise",
                                    "rowwise_gw_hp", "blockwise", "mxfp8",
                                    "mxfp8_ocp"};
  return names;
}

RecipeAttr RecipeAttr::getPreset(MLIRContext *context, StringRef name) {
  std::optional<RecipeFields> fields = getPresetFields(context, name);
  if (!fields)
    return {};
  return fields->get(context);
}

std::optional<StringRef> RecipeAttr::getPresetName() const {
  for (StringRef name : getPresetNames())
    if (getPreset(getContext(), name) == *this)
      return name;
  return std::nullopt;
}

PolicyAttr RecipeAttr::getPolicy(Role role) const {
  switch (role) {
  case Role::activation:
    return getActivation();
  case Role::weight:
    return getWeight();
  case Role::gradient:
    return getGradient();
  }
  llvm_unreachable("unknown role");
}

bool RecipeAttr::keepsHighPrecision(MatmulKind kind) const {
  return llvm::is_contained(getHighPrecision(), kind);
}

/// Parses `current` or `delayed<history, max | most_recent>`.
static ParseResult parseAmaxMode(AsmParser &parser, RecipeFields &fields) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  if (keyword == "current") {
    fields.amaxHistory = 0;
    fields.amaxAlgo = AmaxAlgo::max;
    return success();
  }
  if (keyword != "delayed")
    return parser.emitError(loc) << "unknown amax mode '" << keyword
                                 << "', expected current or delayed<...>";
  StringRef algo;
  SMLoc algoLoc;
  if (parser.parseLess() || parser.parseInteger(fields.amaxHistory) ||
      parser.parseComma() ||
      (algoLoc = parser.getCurrentLocation(), parser.parseKeyword(&algo)) ||
      parser.parseGreater())
    return failure();
  if (fields.amaxHistory <= 0)
    return parser.emitError(loc) << "amax history length must be positive";
  std::optional<AmaxAlgo> parsed = symbolizeAmaxAlgo(algo);
  if (!parsed)
    return parser.emitError(algoLoc) << "unknown amax algorithm '" << algo
                                     << "', expected max or most_recent";
  fields.amaxAlgo = *parsed;
  return success();
}

template <typename EnumT>
static ParseResult
parseEnumKeyword(AsmParser &parser, EnumT &value, StringRef what,
                 std::optional<EnumT> (*symbolize)(StringRef)) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef keyword;
  if (parser.parseKeyword(&keyword))
    return failure();
  std::optional<EnumT> parsed = symbolize(keyword);
  if (!parsed)
    return parser.emitError(loc)
           << "unknown " << what << " '" << keyword << "'";
  value = *parsed;
  return success();
}

static ParseResult parseRecipeField(AsmParser &parser, StringRef key, SMLoc loc,
                                    RecipeFields &fields) {
  if (key == "activation" || key == "weight" || key == "gradient") {
    PolicyAttr policy;
    if (parser.parseAttribute(policy))
      return failure();
    (key == "activation" ? fields.activation
     : key == "weight"   ? fields.weight
                         : fields.gradient) = policy;
    return success();
  }
  if (key == "amax")
    return parseAmaxMode(parser, fields);
  if (key == "margin")
    return parser.parseInteger(fields.margin);
  if (key == "accumulate")
    return parseEnumKeyword(parser, fields.accumulate, "accumulation",
                            symbolizeAccumulate);
  if (key == "hadamard")
    return parser.parseInteger(fields.hadamard);
  if (key == "stochastic_gradients") {
    SMLoc valueLoc = parser.getCurrentLocation();
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    if (keyword != "true" && keyword != "false")
      return parser.emitError(valueLoc, "expected true or false");
    fields.stochasticGradients = keyword == "true";
    return success();
  }
  if (key == "high_precision") {
    fields.highPrecision.clear();
    return parser.parseCommaSeparatedList(
        AsmParser::Delimiter::Square, [&]() -> ParseResult {
          MatmulKind kind;
          if (parseEnumKeyword(parser, kind, "matmul", symbolizeMatmulKind))
            return failure();
          fields.highPrecision.push_back(kind);
          return success();
        });
  }
  return parser.emitError(loc)
         << "unknown #fp8.recipe parameter '" << key
         << "', expected activation, weight, gradient, amax, margin, "
            "accumulate, hadamard, stochastic_gradients or high_precision";
}

Attribute RecipeAttr::parse(AsmParser &parser, Type) {
  MLIRContext *context = parser.getContext();
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};

  // A leading keyword not followed by `=` names the preset to start from.
  RecipeFields fields;
  bool fromPreset = false;
  SMLoc nameLoc = parser.getCurrentLocation();
  StringRef first;
  if (failed(parser.parseOptionalKeyword(&first))) {
    parser.emitError(nameLoc, "expected a recipe preset name or a parameter");
    return {};
  }
  if (succeeded(parser.parseOptionalEqual())) {
    if (parseRecipeField(parser, first, nameLoc, fields))
      return {};
  } else {
    std::optional<RecipeFields> preset = getPresetFields(context, first);
    if (!preset) {
      parser.emitError(nameLoc)
          << "unknown recipe '" << first << "', expected one of "
          << llvm::join(getPresetNames(), ", ");
      return {};
    }
    fields = *preset;
    fromPreset = true;
  }
  if (succeeded(parser.parseOptionalComma()) &&
      parseKeyValueList(parser, "#fp8.recipe",
                        [&](StringRef key, SMLoc keyLoc) {
                          return parseRecipeField(parser, key, keyLoc, fields);
                        }))
    return {};
  if (parser.parseGreater())
    return {};
  if (!fromPreset &&
      (!fields.activation || !fields.weight || !fields.gradient)) {
    parser.emitError(loc, "a recipe without a preset needs activation, "
                          "weight and gradient policies");
    return {};
  }
  return getChecked([&] { return parser.emitError(loc); }, context,
                    fields.activation, fields.weight, fields.gradient,
                    fields.amaxHistory, fields.amaxAlgo, fields.margin,
                    fields.accumulate, fields.hadamard,
                    fields.stochasticGradients, fields.highPrecision);
}

/// Prints the `key = value` fields of `recipe` that differ from `base`
/// (every field when `base` is null), each preceded by ", " unless first.
static void printRecipeFields(AsmPrinter &printer, RecipeAttr recipe,
                              RecipeAttr base) {
  bool first = true;
  auto field = [&](StringRef key) -> AsmPrinter & {
    if (!first)
      printer << ", ";
    first = false;
    return printer << key << " = ";
  };
  auto differs = [&](auto get) { return !base || get(recipe) != get(base); };
  if (differs([](RecipeAttr r) { return r.getActivation(); }))
    field("activation") << recipe.getActivation();
  if (differs([](RecipeAttr r) { return r.getWeight(); }))
    field("weight") << recipe.getWeight();
  if (differs([](RecipeAttr r) { return r.getGradient(); }))
    field("gradient") << recipe.getGradient();
  if (differs([](RecipeAttr r) {
        return std::make_pair(r.getAmaxHistory(), r.getAmaxAlgo());
      })) {
    if (recipe.isDelayed())
      field("amax") << "delayed<" << recipe.getAmaxHistory() << ", "
                    << stringifyAmaxAlgo(recipe.getAmaxAlgo()) << '>';
    else
      field("amax") << "current";
  }
  if (differs([](RecipeAttr r) { return r.getMargin(); }))
    field("margin") << recipe.getMargin();
  if (differs([](RecipeAttr r) { return r.getAccumulate(); }))
    field("accumulate") << stringifyAccumulate(recipe.getAccumulate());
  if (differs([](RecipeAttr r) { return r.getHadamard(); }))
    field("hadamard") << recipe.getHadamard();
  if (differs([](RecipeAttr r) { return r.getStochasticGradients(); }))
    field("stochastic_gradients")
        << (recipe.getStochasticGradients() ? "true" : "false");
  if (differs([](RecipeAttr r) { return r.getHighPrecision(); })) {
    field("high_precision") << '[';
    llvm::interleaveComma(
        recipe.getHighPrecision(), printer,
        [&](MatmulKind kind) { printer << stringifyMatmulKind(kind); });
    printer << ']';
  }
}

/// The number of top-level fields in which two recipes differ.
static unsigned countDifferences(RecipeAttr a, RecipeAttr b) {
  return (a.getActivation() != b.getActivation()) +
         (a.getWeight() != b.getWeight()) +
         (a.getGradient() != b.getGradient()) +
         (a.getAmaxHistory() != b.getAmaxHistory() ||
          a.getAmaxAlgo() != b.getAmaxAlgo()) +
         (a.getMargin() != b.getMargin()) +
         (a.getAccumulate() != b.getAccumulate()) +
         (a.getHadamard() != b.getHadamard()) +
         (a.getStochasticGradients() != b.getStochasticGradients()) +
         (a.getHighPrecision() != b.getHighPrecision());
}

void RecipeAttr::print(AsmPrinter &printer) const {
  // Print as the closest preset plus overrides, so that a tweaked preset
  // reads as what it is; a recipe far from every preset prints in full.
  StringRef bestName;
  RecipeAttr best;
  unsigned bestCount = ~0u;
  for (StringRef name : getPresetNames()) {
    RecipeAttr preset = getPreset(getContext(), name);
    unsigned count = countDifferences(*this, preset);
    if (count < bestCount) {
      bestName = name;
      best = preset;
      bestCount = count;
    }
  }
  printer << '<';
  if (bestCount == 0) {
    printer << bestName << '>';
    return;
  }
  if (bestCount <= 3) {
    printer << bestName << ", ";
    printRecipeFields(printer, *this, best);
  } else {
    printRecipeFields(printer, *this, RecipeAttr());
  }
  printer << '>';
}
