//===- RecipeAttr.cpp - the #fp8.recipe attribute -------------------------===//
//
// #fp8.recipe: verification, the named presets (torchao's tensorwise and
// rowwise recipes, TransformerEngine's delayed scaling, DeepSeek-V3's
// blockwise scaling, MXFP8), the parser of a preset with overrides, and the
// printer, which writes a recipe as its closest preset plus the fields that
// differ, or in full when it is far from every preset.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"

#include "AttrParsing.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::fp8;

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

static ParseResult parseRecipeField(AsmParser &parser, StringRef key, SMLoc loc,
                                    RecipeFields &fields) {
  if (key == "activation" || key == "weight" || key == "gradient") {
    PolicyAttr &slot = key == "activation" ? fields.activation
                       : key == "weight"   ? fields.weight
                                           : fields.gradient;
    // `gradient = e5m2`: the base preset's policy in another FP8 format
    // (its tile, scale and rounding kept), e.g. blockwise with e5m2
    // gradients for their range.
    SMLoc valueLoc = parser.getCurrentLocation();
    StringRef format;
    if (succeeded(parser.parseOptionalKeyword(&format))) {
      MLIRContext *context = parser.getContext();
      Type element = format == "e4m3"   ? Type(Float8E4M3FNType::get(context))
                     : format == "e5m2" ? Type(Float8E5M2Type::get(context))
                                        : Type();
      if (!element)
        return parser.emitError(valueLoc)
               << "unknown FP8 format '" << format
               << "', expected e4m3, e5m2 or a #fp8.policy<...>";
      if (!slot)
        return parser.emitError(valueLoc)
               << "'" << key << " = " << format
               << "' changes a preset's format: start from a preset "
                  "(#fp8.recipe<blockwise, "
               << key << " = " << format << ">)";
      slot = PolicyAttr::get(context, element, slot.getTile(), slot.getScale(),
                             slot.getRound());
      return success();
    }
    PolicyAttr policy;
    if (parser.parseAttribute(policy))
      return failure();
    slot = policy;
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
  static const StringRef keys[] = {
      "activation",    "weight",     "gradient", "amax",
      "margin",        "accumulate", "hadamard", "stochastic_gradients",
      "high_precision"};
  InFlightDiagnostic diag = parser.emitError(loc)
                            << "unknown #fp8.recipe parameter '" << key << "'";
  if (std::optional<StringRef> near = findClosestName(key, keys))
    diag << " (did you mean '" << *near << "'?)";
  return diag << ", expected activation, weight, gradient, amax, margin, "
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
      InFlightDiagnostic diag = parser.emitError(nameLoc)
                                << "unknown recipe '" << first << "'";
      if (std::optional<StringRef> near =
              findClosestName(first, getPresetNames()))
        diag << " (did you mean '" << *near << "'?)";
      diag << ", expected one of " << llvm::join(getPresetNames(), ", ");
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
  // highPrecision as an ArrayRef selects the generated getChecked: the
  // generic one it would otherwise match needs the storage class, which only
  // FP8Attrs.cpp (with the generated definitions) sees.
  return getChecked(
      [&] { return parser.emitError(loc); }, context, fields.activation,
      fields.weight, fields.gradient, fields.amaxHistory, fields.amaxAlgo,
      fields.margin, fields.accumulate, fields.hadamard,
      fields.stochasticGradients, ArrayRef<MatmulKind>(fields.highPrecision));
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
