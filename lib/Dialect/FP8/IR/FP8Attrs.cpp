//===- FP8Attrs.cpp - FP8 dialect attributes ------------------------------===//
//
// Parsing, printing and verification of #fp8.tile, #fp8.scaling and
// #fp8.policy, and the shape helpers that derive scale shapes from a tile
// (#fp8.recipe is in RecipeAttr.cpp). Tiles use `*` for "the whole extent"
// because a tensorwise or rowwise scale covers a dimension whatever its
// size, so a number would tie the attribute to one shape.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"

#include "AttrParsing.h"
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

/// Writes `extents` as a tile, `[a, *, b]`, `*` for a dynamic extent.
static void writeTileExtents(raw_ostream &os, ArrayRef<int64_t> extents) {
  os << '[';
  llvm::interleaveComma(extents, os, [&](int64_t extent) {
    if (ShapedType::isDynamic(extent))
      os << '*';
    else
      os << extent;
  });
  os << ']';
}

void fp8::printTileExtents(AsmPrinter &printer, ArrayRef<int64_t> extents) {
  writeTileExtents(printer.getStream(), extents);
}

std::string fp8::formatTile(ArrayRef<int64_t> tile) {
  std::string str;
  llvm::raw_string_ostream os(str);
  writeTileExtents(os, tile);
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

ParseResult
fp8::parseKeyValueList(AsmParser &parser, StringRef attrName,
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
    return parseEnumKeyword(parser, round, "scale rounding",
                            symbolizeScaleRound,
                            "exact, pow2_ceil or pow2_floor");
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
      kColMajorTmaRowAlignment / (elementType.getIntOrFloatBitWidth() / 8);
  if (ShapedType::isDynamic(rows))
    return {cols, ShapedType::kDynamic};
  return {cols, static_cast<int64_t>(llvm::alignTo(rows, perRow))};
}

SmallVector<int64_t>
fp8::getTcgen05ScaleShape(ArrayRef<int64_t> rowMajorShape) {
  assert(rowMajorShape.size() == 2 && "a matrix of scales");
  int64_t rows = rowMajorShape[0], kBlocks = rowMajorShape[1];
  if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(kBlocks))
    return {ShapedType::kDynamic, kTcgen05ScaleChunkBytes};
  auto chunks =
      static_cast<int64_t>(llvm::divideCeil(rows, kTcgen05ScaleRows) *
                           llvm::divideCeil(kBlocks, kTcgen05ScaleKBlocks));
  return {chunks, kTcgen05ScaleChunkBytes};
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
