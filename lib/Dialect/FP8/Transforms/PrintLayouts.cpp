//===- PrintLayouts.cpp - show every operand's scale layout ---------------===//
//
// fp8-print-layouts: a table per function of every scaled_matmul and
// grouped_scaled_matmul operand (storage shape, contracted dim, tile, scales,
// and how its quantization was obtained), and optionally an SVG drawing of the
// tiles over each operand, because a tile geometry is easier to check by
// looking at it.
//
//===----------------------------------------------------------------------===//

#include "FuseQuantization.h"

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8PRINTLAYOUTS
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

namespace {

/// One operand of one scaled_matmul, as printed.
struct OperandLayout {
  unsigned matmulIndex;
  StringRef kind, side, role;
  std::string source;
  SmallVector<int64_t> shape;
  int64_t contractingDim;
  SmallVector<int64_t> tile;
  SmallVector<int64_t> scaleShape;
  Type scaleType, elementType;
  // Scales in the col_major_tma layout (transposed, rows padded).
  bool tmaScales = false;
  ScaleRound round;
  StringRef decision;
};

} // namespace

/// A short name for the high-precision value a quantization reads.
static std::string describeSource(Value value) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return llvm::formatv("arg{0}", arg.getArgNumber()).str();
  Operation *def = value.getDefiningOp();
  if (auto fused = dyn_cast<QuantizeElementwiseOp>(def))
    if (Value input = fusion::getIdentityInput(fused))
      return describeSource(input);
  if (auto transpose = dyn_cast<linalg::TransposeOp>(def))
    return describeSource(transpose.getInput()) + "^T";
  // Computed by the body of the fp8.quantize_elementwise that quantizes it.
  if (isa<QuantizeElementwiseOp>(def))
    return "fused";
  // Computed values are named by the op that makes them (without dialect).
  return def->getName().stripDialect().str();
}

/// The value a quantization reads, looking through transposes: two
/// quantizations of the same root quantize the same data.
static Value getRoot(Value value) {
  while (auto transpose = value.getDefiningOp<linalg::TransposeOp>())
    value = transpose.getInput();
  return value;
}

/// How the function's quantizations were obtained: the first of each
/// high-precision value (looking through transposes) is fresh, later ones
/// requantize it with another tile. A quantization is known by its FP8
/// data: an fp8.quantize has one, a fused fp8.quantize_transpose two (its
/// input's and its transpose's).
struct QuantizationCounts {
  llvm::DenseMap<Value, StringRef> decisions;
  unsigned fresh = 0, requantized = 0, castTransposes = 0, exactTransposes = 0,
           producers = 0, transposedProducers = 0, scaleLayouts = 0,
           delayed = 0;
};

/// The value an fp8.quantize_elementwise quantizes, which exists only
/// inside it: its kept result where it has one (which later quantizations
/// read), else its data.
static Value getProduced(QuantizeElementwiseOp fused) {
  if (Value input = fusion::getIdentityInput(fused))
    return input;
  if (Value kept = fused.getKept())
    return kept;
  return fused.getQuantized();
}

static QuantizationCounts classifyQuantizations(FunctionOpInterface func) {
  QuantizationCounts counts;
  llvm::DenseSet<Value> roots;
  auto classify = [&](Value data, Value input) {
    bool first = roots.insert(getRoot(input)).second;
    counts.decisions[data] = first ? "fresh" : "requantized";
    ++(first ? counts.fresh : counts.requantized);
  };
  func->walk([&](Operation *op) {
    if (auto q = dyn_cast<QuantizeOp>(op)) {
      classify(q.getResult(), q.getInput());
    } else if (auto monitored = dyn_cast<QuantizeMonitoredOp>(op)) {
      classify(monitored.getResult(), monitored.getInput());
    } else if (auto fused = dyn_cast<QuantizeTransposeOp>(op)) {
      classify(fused.getResult(), fused.getInput());
      // One scale or square tiles: the transpose's bytes are the
      // quantization's, transposed in the same kernel, not quantized again.
      ArrayRef<int64_t> tile = fused.getScaling().getTile();
      if (tile[0] == tile[1]) {
        counts.decisions[fused.getResultT()] = "transposed";
        ++counts.exactTransposes;
      } else {
        classify(fused.getResultT(), fused.getInput());
        ++counts.castTransposes;
      }
    } else if (auto fused = dyn_cast<QuantizeElementwiseOp>(op)) {
      classify(fused.getQuantized(), getProduced(fused));
      if (fused.getTranspose())
        classify(fused.getQuantizedT(), getProduced(fused));
      // A plain quantization that stores its scales in another layout has
      // no producer.
      if (fusion::getIdentityInput(fused)) {
        ++counts.scaleLayouts;
      } else {
        ++counts.producers;
        if (fused.getTranspose())
          ++counts.transposedProducers;
      }
    } else if (auto fused = dyn_cast<QuantizeDelayedOp>(op)) {
      classify(fused.getResult(), fused.getInput());
      ++counts.delayed;
    }
  });
  return counts;
}

/// The op that quantized FP8 `data` (an fp8.quantize or a fused
/// fp8.quantize_transpose) and the high-precision value it read; null
/// where `data` comes from elsewhere (a function argument).
static std::pair<Operation *, Value> getQuantization(Value data) {
  if (auto q = data.getDefiningOp<QuantizeOp>())
    return {q, q.getInput()};
  if (auto monitored = data.getDefiningOp<QuantizeMonitoredOp>())
    return {monitored, monitored.getInput()};
  if (auto fused = data.getDefiningOp<QuantizeTransposeOp>())
    return {fused, fused.getInput()};
  if (auto fused = data.getDefiningOp<QuantizeElementwiseOp>())
    return {fused, getProduced(fused)};
  if (auto fused = data.getDefiningOp<QuantizeDelayedOp>())
    return {fused, fused.getInput()};
  return {nullptr, Value()};
}

/// The layout of one operand (`data`, its `scale` by `scaling`) of matmul
/// `index`, how its quantization was obtained included.
static OperandLayout describeOperand(unsigned index, StringRef kind,
                                     StringRef side, Value data, Value scale,
                                     ScalingAttr scaling,
                                     int64_t contractingDim, bool tmaScales,
                                     const QuantizationCounts &counts,
                                     llvm::DenseSet<Value> &seenQuantizations) {
  OperandLayout layout;
  layout.matmulIndex = index;
  layout.kind = kind;
  layout.side = side;
  auto dataType = cast<RankedTensorType>(data.getType());
  layout.shape = llvm::to_vector(dataType.getShape());
  layout.elementType = dataType.getElementType();
  layout.contractingDim = contractingDim;
  layout.tile = llvm::to_vector(scaling.getTile());
  layout.round = scaling.getRound();
  auto scaleType = cast<RankedTensorType>(scale.getType());
  layout.scaleShape = llvm::to_vector(scaleType.getShape());
  layout.scaleType = scaleType.getElementType();
  layout.tmaScales = tmaScales;

  bool transposed = false;
  if (auto t = data.getDefiningOp<TransposeOp>()) {
    transposed = true;
    data = t.getInput();
  }
  auto [q, input] = getQuantization(data);
  if (!q) {
    layout.role = "-";
    layout.source = "-";
    layout.decision = transposed ? "transposed" : "given";
    return layout;
  }
  auto role = q->getAttrOfType<StringAttr>(FP8Dialect::getRoleAttrName());
  layout.role = role ? role.getValue() : StringRef("-");
  layout.source = describeSource(input);
  // A quantization read through fp8.transpose is still executed: the
  // counts come from the quantize ops, not from the operands.
  bool seen = !seenQuantizations.insert(data).second;
  if (transposed)
    layout.decision = "transposed";
  else if (seen)
    layout.decision = "reused";
  else
    layout.decision = counts.decisions.lookup(data);
  return layout;
}

/// Every operand of the function's scaled matmuls and grouped matmuls (kind
/// "grouped" unless tagged), in program order; a grouped matmul's B is all
/// experts' weights, its A all groups' rows (or [G, rows, K] masked).
static std::vector<OperandLayout>
collectLayouts(FunctionOpInterface func, const QuantizationCounts &counts) {
  std::vector<OperandLayout> layouts;
  llvm::DenseSet<Value> seenQuantizations;
  unsigned index = 0;
  func->walk([&](Operation *op) {
    auto tag = op->getAttrOfType<StringAttr>(FP8Dialect::getMatmulAttrName());
    if (auto mm = dyn_cast<ScaledMatmulOp>(op)) {
      for (MatmulSide side : kMatmulSides)
        layouts.push_back(describeOperand(
            index, tag ? tag.getValue() : StringRef("-"),
            ScaledMatmulOp::getSideName(side), mm.getData(side),
            mm.getScale(side), mm.getScaling(side), mm.getContractingDim(side),
            mm.getScaleLayout(side) == ScaleLayout::col_major_tma, counts,
            seenQuantizations));
      ++index;
      return;
    }
    auto grouped = dyn_cast<GroupedScaledMatmulOp>(op);
    if (!grouped)
      return;
    StringRef kind = tag ? tag.getValue() : StringRef("grouped");
    layouts.push_back(
        describeOperand(index, kind, "a", grouped.getA(), grouped.getAScale(),
                        grouped.getAScaling(), /*contractingDim=*/1,
                        grouped.getAScaleLayout() == ScaleLayout::col_major_tma,
                        counts, seenQuantizations));
    layouts.push_back(
        describeOperand(index, kind, "b", grouped.getB(), grouped.getBScale(),
                        grouped.getBScaling(), /*contractingDim=*/1,
                        /*tmaScales=*/false, counts, seenQuantizations));
    ++index;
  });
  return layouts;
}

static void printTable(raw_ostream &os, FunctionOpInterface func,
                       ArrayRef<OperandLayout> layouts,
                       const QuantizationCounts &quantizations) {
  os << "// fp8 layouts of @" << func.getName();
  if (auto recipe =
          func->getAttrOfType<RecipeAttr>(FP8Dialect::getRecipeAttrName()))
    os << " under " << recipe;
  os << "\n";
  const char *format = "// {0,-2} {1,-6} {2,-2} {3,-11} {4,-9} {5,-20} {6,-8} "
                       "{7,-11} {8,-18} {9,-11} {10}\n";
  os << llvm::formatv(format, "#", "matmul", "op", "role", "source", "storage",
                      "contract", "tile", "scales", "round", "decision");
  for (const OperandLayout &l : layouts) {
    std::string elementType, scaleType;
    llvm::raw_string_ostream(elementType) << l.elementType;
    llvm::raw_string_ostream(scaleType) << l.scaleType;
    os << llvm::formatv(format, l.matmulIndex, l.kind, l.side, l.role, l.source,
                        formatShape(l.shape) + "x" + elementType,
                        llvm::formatv("dim {0}", l.contractingDim),
                        formatTile(l.tile),
                        formatShape(l.scaleShape) + "x" + scaleType +
                            (l.tmaScales ? " tma" : ""),
                        stringifyScaleRound(l.round), l.decision);
  }
  // Quantizations are the fp8.quantize ops the function executes; reused
  // and transposed count operands.
  llvm::StringMap<unsigned> counts;
  for (const OperandLayout &l : layouts)
    ++counts[l.decision];
  os << llvm::formatv("// {0} quantizations ({1} fresh, {2} requantized), {3} "
                      "reused, {4} transposed\n",
                      quantizations.fresh + quantizations.requantized,
                      quantizations.fresh, quantizations.requantized,
                      counts["reused"], counts["transposed"]);
  if (quantizations.castTransposes)
    os << llvm::formatv("// fused: {0} cast-transposes "
                        "(fp8.quantize_transpose, 2 quantizations each)\n",
                        quantizations.castTransposes);
  if (quantizations.exactTransposes)
    os << llvm::formatv("// fused: {0} exact transposes "
                        "(fp8.quantize_transpose: a quantization and its "
                        "transpose)\n",
                        quantizations.exactTransposes);
  if (quantizations.producers)
    os << llvm::formatv("// fused: {0} elementwise producers "
                        "(fp8.quantize_elementwise, {1} with the "
                        "cast-transpose)\n",
                        quantizations.producers,
                        quantizations.transposedProducers);
  if (quantizations.scaleLayouts)
    os << llvm::formatv("// fused: {0} scale re-layouts into their "
                        "quantizations (fp8.quantize_elementwise of the "
                        "input)\n",
                        quantizations.scaleLayouts);
  if (quantizations.delayed)
    os << llvm::formatv("// fused: {0} delayed amaxes (fp8.quantize_delayed)\n",
                        quantizations.delayed);
  os << "\n";
}

/// Draws each operand as a rectangle (rows down, cols across) with its tile
/// grid and an arrow along the contracted dim.
static void writeSvg(raw_ostream &os, FunctionOpInterface func,
                     ArrayRef<OperandLayout> layouts) {
  constexpr double cellWidth = 330, cellHeight = 270, maxSide = 170;
  constexpr int maxLines = 48;
  unsigned numMatmuls = layouts.empty() ? 0 : layouts.back().matmulIndex + 1;
  double width = 2 * cellWidth + 40, height = numMatmuls * cellHeight + 60;
  os << llvm::formatv("<svg xmlns=\"http://www.w3.org/2000/svg\" "
                      "width=\"{0}\" height=\"{1}\" font-family=\"monospace\" "
                      "font-size=\"11\">\n",
                      width, height);
  os << llvm::formatv("<text x=\"20\" y=\"24\" font-size=\"14\">@{0}</text>\n",
                      func.getName());
  for (const OperandLayout &l : layouts) {
    if (l.shape.size() < 2)
      continue;
    int64_t rows = l.shape[l.shape.size() - 2];
    int64_t cols = l.shape[l.shape.size() - 1];
    if (ShapedType::isDynamic(rows) || ShapedType::isDynamic(cols))
      continue;
    double scale = maxSide / std::max(rows, cols);
    double w = std::max(cols * scale, 4.0), h = std::max(rows * scale, 4.0);
    double x0 = 20 + (l.side == "a" ? 0 : cellWidth);
    double y0 = 60 + l.matmulIndex * cellHeight;
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\">{2} {3}: {4} ({5})</text>\n",
                        x0, y0 - 8, l.kind, l.side, l.source, l.role);
    os << llvm::formatv(
        "<rect x=\"{0}\" y=\"{1}\" width=\"{2}\" "
        "height=\"{3}\" fill=\"#eef3fb\" stroke=\"#1f3b70\"/>\n",
        x0, y0, w, h);
    // Tile boundaries; dense grids are thinned but keep their spacing
    // visible.
    auto drawLines = [&](int64_t extent, int64_t tile, bool vertical) {
      if (ShapedType::isDynamic(tile) || tile >= extent)
        return;
      int64_t count = llvm::divideCeil(extent, tile) - 1;
      int64_t step = std::max<int64_t>(1, count / maxLines);
      for (int64_t i = 1; i <= count; i += step) {
        double p = i * tile * scale;
        if (vertical)
          os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" "
                              "y2=\"{2}\" stroke=\"#6b8fd6\" "
                              "stroke-width=\"0.6\"/>\n",
                              x0 + p, y0, y0 + h);
        else
          os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" "
                              "y2=\"{1}\" stroke=\"#6b8fd6\" "
                              "stroke-width=\"0.6\"/>\n",
                              x0, y0 + p, x0 + w);
      }
    };
    drawLines(rows, l.tile[0], /*vertical=*/false);
    drawLines(cols, l.tile[1], /*vertical=*/true);
    // The contracted dim: an arrow along the columns (dim 1) or rows (0).
    if (l.contractingDim == 1)
      os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{2}\" y2=\"{1}\" "
                          "stroke=\"#c0392b\" stroke-width=\"2\" "
                          "marker-end=\"url(#k)\"/>\n",
                          x0, y0 + h + 10, x0 + w);
    else
      os << llvm::formatv("<line x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" "
                          "stroke=\"#c0392b\" stroke-width=\"2\" "
                          "marker-end=\"url(#k)\"/>\n",
                          x0 + w + 10, y0, y0 + h);
    os << llvm::formatv("<text x=\"{0}\" y=\"{1}\">{2}, tile {3}</text>\n", x0,
                        y0 + h + 28, formatShape(l.shape), formatTile(l.tile));
    os << llvm::formatv(
        "<text x=\"{0}\" y=\"{1}\">K along dim {2}: {3}</text>\n", x0,
        y0 + h + 42, l.contractingDim, l.decision);
  }
  os << "<defs><marker id=\"k\" markerWidth=\"8\" markerHeight=\"8\" "
        "refX=\"6\" refY=\"3\" orient=\"auto\"><path d=\"M0,0 L6,3 L0,6 z\" "
        "fill=\"#c0392b\"/></marker></defs>\n</svg>\n";
}

namespace {
struct FP8PrintLayoutsPass
    : fp8::impl::FP8PrintLayoutsBase<FP8PrintLayoutsPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<FunctionOpInterface>()) {
      QuantizationCounts quantizations = classifyQuantizations(func);
      std::vector<OperandLayout> layouts = collectLayouts(func, quantizations);
      if (layouts.empty())
        continue;
      printTable(llvm::outs(), func, layouts, quantizations);
      if (svgDir.empty())
        continue;
      SmallString<128> path(svgDir);
      std::error_code error = llvm::sys::fs::create_directories(path);
      if (error) {
        func.emitError() << "cannot create " << path << ": " << error.message();
        return signalPassFailure();
      }
      llvm::sys::path::append(path, func.getName() + ".svg");
      llvm::raw_fd_ostream file(path, error);
      if (error) {
        func.emitError() << "cannot write " << path << ": " << error.message();
        return signalPassFailure();
      }
      writeSvg(file, func, layouts);
    }
    markAllAnalysesPreserved();
  }
};
} // namespace
