//===- ExplainFusion.cpp - why each quantization fused or did not ---------===//
//
// fp8-fuse-quantization{explain=true} (the pipeline's `explain=true`): after
// the fusions, a remark at every quantization, FP8 transpose and
// elementwise op or row sum left on its own, saying what it fused or which
// rule kept it a kernel of its own. The rules are the fusions' own
// (FuseQuantization.h), asked again of the IR they left, so that the
// explanation cannot drift from what fused.
//
//===----------------------------------------------------------------------===//

#include "FuseQuantization.h"

#include "fp8/Dialect/FP8/Utils/CastTransposeShapes.h"
#include "fp8/Dialect/FP8/Utils/RowSum.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::fusion;

static constexpr StringLiteral kPrefix = "fp8-fuse-quantization: ";

//===----------------------------------------------------------------------===//
// Describing values
//===----------------------------------------------------------------------===//

/// "1000x4096xbf16" for a tensor type (formatShape's shape, then the
/// element type).
static std::string describeType(Type type) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return "";
  std::string text = formatShape(tensor.getShape()) + "x";
  llvm::raw_string_ostream os(text);
  os << tensor.getElementType();
  return text;
}

/// The names of the ops that read `value`, for "read by ..." (at most 3).
static std::string describeReaders(Value value) {
  std::string text;
  llvm::raw_string_ostream os(text);
  llvm::SetVector<StringRef> names;
  for (Operation *user : value.getUsers())
    names.insert(user->getName().getStringRef());
  llvm::interleaveComma(ArrayRef(names.getArrayRef()).take_front(3), os);
  if (names.size() > 3)
    os << ", ...";
  return text;
}

/// What `quantize` quantizes, for the remark's subject: "[activation
/// 256x512xbf16, argument #0] " (a fused op: its first input, "+ 2 more").
static std::string describeQuantized(Operation *quantize) {
  std::string text;
  llvm::raw_string_ostream os(text);
  Value input = quantize->getOperand(0);
  os << "[";
  if (auto role =
          quantize->getAttrOfType<StringAttr>(FP8Dialect::getRoleAttrName()))
    os << role.getValue() << " ";
  os << describeType(input.getType());
  if (auto arg = dyn_cast<BlockArgument>(input))
    os << ", argument #" << arg.getArgNumber();
  else
    os << ", from '" << input.getDefiningOp()->getName() << "'";
  if (auto fused = dyn_cast<QuantizeElementwiseOp>(quantize);
      fused && fused.getInputs().size() > 1)
    os << ", + " << fused.getInputs().size() - 1 << " more";
  os << "] ";
  return text;
}

static bool isQuantization(Operation *op) {
  return isa_and_nonnull<QuantizeOp, QuantizeTransposeOp, QuantizeElementwiseOp,
                         QuantizeDelayedOp, QuantizeMonitoredOp>(op);
}

/// An elementwise arith/math op on tensors, as fusion takes them.
static bool isTensorElementwise(Operation *op) {
  return op->hasTrait<OpTrait::Elementwise>() &&
         isa_and_nonnull<arith::ArithDialect, math::MathDialect>(
             op->getDialect()) &&
         op->getNumResults() == 1 &&
         isa<RankedTensorType>(op->getResult(0).getType());
}

/// Whether `op` is elementwise on tensors: an all-parallel linalg.generic
/// or an elementwise arith/math op.
static bool isElementwiseOnTensors(Operation *op) {
  if (auto generic = dyn_cast<linalg::GenericOp>(op))
    return generic.getNumReductionLoops() == 0 && generic.getNumResults() == 1;
  return isTensorElementwise(op);
}

/// Whether `value` reaches a quantization through elementwise ops, whose
/// remark then says why they did not fuse.
static bool feedsQuantization(Value value) {
  SmallVector<Value> frontier = {value};
  for (unsigned i = 0; i < frontier.size() && i < 64; ++i)
    for (Operation *user : frontier[i].getUsers()) {
      if (isQuantization(user))
        return true;
      if (isElementwiseOnTensors(user))
        frontier.push_back(user->getResult(0));
    }
  return false;
}

//===----------------------------------------------------------------------===//
// Why a producer stays
//===----------------------------------------------------------------------===//

/// Why the Hadamard rotation `rotation` did not fuse into `quantize`
/// (fuseRotation's checks, in its order).
static std::string whyRotationStays(Operation *quantize, HadamardOp rotation,
                                    ScalingAttr scaling) {
  auto q = dyn_cast<QuantizeOp>(quantize);
  if (!q)
    return "a Hadamard rotation fuses into a plain fp8.quantize only";
  auto type = dyn_cast<RankedTensorType>(rotation.getInput().getType());
  if (!rotation->hasOneUse())
    return "its Hadamard rotation is also read by another op";
  if (rotation.getDim() != 1)
    return "its Hadamard rotation runs along dim " +
           std::to_string(rotation.getDim()) +
           "; the row-tile kernel rotates along the rows (dim 1)";
  if (rotation->getBlock() != q->getBlock())
    return "its Hadamard rotation is in another block";
  if (!type || !isStaticMatrixOfLoadable(type))
    return "the rotated tensor is not a static matrix of f32, bf16 or f16";
  if (!fitsRotatedRowTiles(type, scaling, rotation.getSize()))
    return "the row-tile kernel rotates tiles of one row and 16 to 512 "
           "columns in blocks of 16 to 256 that divide the row; this is " +
           describeType(type) + " with tiles " + formatTile(scaling.getTile()) +
           ", rotation " + std::to_string(rotation.getSize());
  if (q.getRounding() != Rounding::nearest || q.getAmax() || q.getSeed())
    return "it rounds stochastically or has a given amax; a rotation fuses "
           "into a round-to-nearest quantization with its own amax";
  return "its Hadamard rotation did not fuse";
}

/// Why `quantize` (an fp8.quantize, or an fp8.quantize_transpose that took
/// no producer) kept its producer apart; empty where it has none.
static std::string whyProducerStays(Operation *quantize, ScalingAttr scaling,
                                    bool producers) {
  Value input = quantize->getOperand(0);
  Operation *producer = input.getDefiningOp();
  if (!producer)
    return "";
  if (!producers)
    return "producer fusion is off (producers=false, or the pipeline's "
           "fuse-producers=false)";
  if (quantize->hasAttr(kKernelAttrName))
    return "its kernel is chosen by hand (fp8.kernel)";
  auto q = dyn_cast<QuantizeOp>(quantize);
  if (auto rotation = dyn_cast<HadamardOp>(producer))
    return whyRotationStays(quantize, rotation, scaling);
  // A producer that fused into another quantization of the same value,
  // which keeps its result for this one.
  if (auto fused = dyn_cast<QuantizeElementwiseOp>(producer);
      fused && input == fused.getKept()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << "its producer fused into the quantization at " << fused.getLoc()
       << ", which keeps the result for this one";
    return text;
  }
  StringRef refusal = producerRefusal(producer);
  if (!refusal.empty())
    return ("'" + producer->getName().getStringRef() + "': " + refusal).str();
  if (producer->getBlock() != quantize->getBlock())
    return "its producer is in another block";
  if (q && q.getRounding() != Rounding::nearest)
    return "it rounds stochastically; producers fuse into round-to-nearest "
           "quantizations only";
  if (q && q.getAmax())
    return "its amax is given (delayed scaling); producers fuse only into "
           "quantizations that take their own amax";
  if (q && q.getSeed())
    return "it has a seed (stochastic rounding); producers fuse into "
           "round-to-nearest quantizations only";
  SmallVector<Operation *> chain;
  collectInlinedProducers(producer, chain);
  if (scaling.isTensorwise() && llvm::any_of(chain, computesPolynomialMath))
    return "its scale is one for the whole tensor, so a fused kernel would "
           "compute the producer's polynomial math (exp, erf, tanh, log) "
           "twice: once for the amax, once to quantize";
  return "its producer did not fuse";
}

/// Why `transposed`, a quantization of a transpose, found no quantization
/// of the transpose's input to share a cast-transpose with (findRowsPartner
/// and isPlainRowQuantization's checks, in their order).
static std::string whyNoCastTranspose(QuantizeOp transposed,
                                      linalg::TransposeOp transpose) {
  if (transpose.getPermutation() != ArrayRef<int64_t>{1, 0})
    return "its linalg.transpose is not the [1, 0] transpose of a matrix";
  if (transposed.getRounding() != Rounding::nearest || transposed.getAmax() ||
      transposed.getSeed())
    return "it rounds stochastically or has a given amax; the cast-transposes "
           "take round-to-nearest quantizations with their own amax";
  if (transposed->hasAttr(kKernelAttrName))
    return "its kernel is chosen by hand (fp8.kernel)";
  Type type = transpose.getInput().getType();
  ScalingAttr scaling = transposed.getScaling();
  if (scaling.getTile() == ArrayRef<int64_t>{1, kCastTransposeTile} &&
      !fitsCastTranspose(type, scaling))
    return "the 1x128 cast-transpose takes static 16-bit matrices whose dims "
           "are multiples of 128; this is " +
           describeType(type);
  if (scaling.getTile()[0] == 1 &&
      ShapedType::isDynamic(scaling.getTile()[1]) &&
      !fitsRowwiseCastTranspose(type, scaling))
    return "the rowwise cast-transpose takes static 16-bit matrices whose "
           "dims are multiples of 64; this is " +
           describeType(type);
  if (!fitsCastTranspose(type, scaling) &&
      !fitsRowwiseCastTranspose(type, scaling))
    return "no cast-transpose kernel quantizes tiles of " +
           formatTile(scaling.getTile()) +
           " (they take [1, 128] and, with a scale per row, [1, *])";
  return "no round-to-nearest quantization of the transpose's input with the "
         "same scaling, format and margin in this block (a quantization "
         "that took a producer first is not a partner)";
}

/// Why an fp8.transpose of a quantization stays a kernel that re-reads the
/// FP8 data instead of one cast-transpose (fuseExactTranspose's checks).
static std::string whyTransposeStays(TransposeOp t) {
  Operation *def = t.getInput().getDefiningOp();
  if (!def)
    return "it transposes a function argument (FP8 already), so there is "
           "no quantization to compute it with";
  if (isa<QuantizeDelayedOp>(def))
    return "its quantization has a given amax (delayed scaling), which the "
           "exact cast-transposes do not take";
  if (auto fused = dyn_cast<QuantizeElementwiseOp>(def)) {
    Value input = fused.getInputs()[0];
    if (!getIdentityInput(fused))
      return "its quantization fused a producer first, and one kernel does "
             "not also write the exact transpose";
    if (!fitsTensorwiseCastTranspose(input.getType(), fused.getScaling()) &&
        !fitsBlockCastTranspose(input.getType(), fused.getScaling()))
      return "the exact cast-transposes take one scale for a static 16-bit "
             "matrix with dims that are multiples of 64, or square tiles of "
             "64 or 128 that divide the dims; this is " +
             describeType(input.getType());
    return "its quantization stores its scales in another layout (fused "
           "after the transposes)";
  }
  if (isa<QuantizeMonitoredOp>(def))
    return "its quantization is monitored (monitor=true), and monitored "
           "quantizations are left unfused";
  auto q = dyn_cast<QuantizeOp>(def);
  if (!q)
    return "it does not transpose the result of a quantization";
  Type type = q.getInput().getType();
  ScalingAttr scaling = q.getScaling();
  if (t.getScaling() != scaling || t.getScale() != q.getScale())
    return "it does not keep the quantization's scales";
  if (!fitsTensorwiseCastTranspose(type, scaling) &&
      !fitsBlockCastTranspose(type, scaling))
    return "the exact cast-transposes take one scale for a static 16-bit "
           "matrix with dims that are multiples of 64, or square tiles of "
           "64 or 128 that divide the dims; this is " +
           describeType(type) + " with tiles " + formatTile(scaling.getTile());
  if (q.getRounding() != Rounding::nearest || q.getAmax() || q.getSeed())
    return "its quantization rounds stochastically or has a given amax";
  if (q->hasAttr(kKernelAttrName) || t->hasAttr(kKernelAttrName))
    return "a kernel is chosen by hand (fp8.kernel)";
  return "its quantization is in another block";
}

//===----------------------------------------------------------------------===//
// Why a row sum stays
//===----------------------------------------------------------------------===//

/// Why `quantize`, which read a norm's elementwise part, did not take its
/// row sums over too.
static std::string whyRowKernelRefuses(Operation *quantize, bool producers) {
  // A plain quantization did not fuse the norm at all.
  if (isa<QuantizeOp, QuantizeTransposeOp>(quantize)) {
    ScalingAttr scaling =
        isa<QuantizeOp>(quantize)
            ? cast<QuantizeOp>(quantize).getScaling()
            : cast<QuantizeTransposeOp>(quantize).getScaling();
    std::string why = whyProducerStays(quantize, scaling, producers);
    if (isa<QuantizeTransposeOp>(quantize) && why.empty())
      why = "it also writes the transpose's quantization, and the norm "
            "kernel does not";
    return "the quantization of the norm did not fuse it: " + why;
  }
  if (auto fused = dyn_cast<QuantizeElementwiseOp>(quantize);
      fused && fused.getTranspose())
    return "the quantization that reads this norm also writes its "
           "transpose's, and the norm kernel (a warp per row) does not";
  if (isa<QuantizeDelayedOp, QuantizeMonitoredOp>(quantize))
    return "the quantization that reads this norm is delayed or monitored, "
           "and takes no producer";
  auto scaling = quantize->getAttrOfType<ScalingAttr>("scaling");
  auto type = dyn_cast<RankedTensorType>(quantize->getResult(0).getType());
  if (!scaling || !type || type.getRank() != 2 || scaling.getTile().size() != 2)
    return "the quantization that reads it is not one the norm kernel runs";
  if (scaling.getTile()[0] != 1)
    return "the norm kernel (a warp per row) quantizes tiles of one row; the "
           "quantization that reads this norm has tiles " +
           formatTile(scaling.getTile()) +
           (scaling.isTensorwise() ? " (one scale for the tensor)" : "");
  if (!fitsRowKernel(type, scaling))
    return "the norm kernel takes rows of whole 16-element chunks, tiles of "
           "16 to 512 columns that divide the row (or the whole row), and "
           "holds the chunk sums in its shared memory; the quantization "
           "that reads this norm is of a " +
           formatShape(type.getShape()) + " matrix with tiles " +
           formatTile(scaling.getTile());
  return "the norm kernel cannot hold all the row sums this quantization "
         "reads in its shared memory";
}

/// A row sum left on its own: why the quantization of the norm did not
/// take it.
static std::string whyRowSumStays(linalg::GenericOp sum, bool producers) {
  if (!isFusibleRowSum(sum))
    return "it is not a row sum a quantize kernel computes (f32 sums from "
           "+0.0 of scalar arith and math over elementwise-read inputs)";
  // Follow the values per row made from it to the norm's elementwise part
  // and to the quantization: a reader elsewhere keeps the sums apart; else
  // the quantization did not take them (one that fused the elementwise part
  // reads the sums, or values per row, as an input).
  SmallVector<Value> frontier = {sum->getResult(0)};
  Operation *outside = nullptr, *quantization = nullptr, *partReader = nullptr;
  for (unsigned i = 0; i < frontier.size(); ++i)
    for (Operation *user : frontier[i].getUsers()) {
      if (isQuantization(user)) {
        quantization = user;
        continue;
      }
      if (user->getNumResults() == 1) {
        auto type = dyn_cast<RankedTensorType>(user->getResult(0).getType());
        if (type && type.getRank() == 1) {
          frontier.push_back(user->getResult(0));
          continue;
        }
      }
      // The norm's elementwise part: the quantization that reads it, else
      // its first other reader.
      if (auto generic = dyn_cast<linalg::GenericOp>(user);
          generic && generic.getNumReductionLoops() == 0 &&
          generic.getNumResults() == 1) {
        Value part = generic->getResult(0);
        auto readers = llvm::to_vector(part.getUsers());
        auto q = llvm::find_if(readers, isQuantization);
        if (q != readers.end())
          quantization = *q;
        else if (!readers.empty() && !partReader)
          partReader = readers.front();
        continue;
      }
      if (!outside)
        outside = user;
    }
  if (outside)
    return ("its sums (or what is computed from them) are also read by '" +
            outside->getName().getStringRef() +
            "' (the backward saves them?), so the quantization cannot take "
            "them over")
        .str();
  if (quantization)
    return whyRowKernelRefuses(quantization, producers);
  if (partReader)
    return ("no quantization reads the norm it feeds (read by '" +
            partReader->getName().getStringRef() + "')")
        .str();
  return "no quantization reads the norm it feeds";
}

//===----------------------------------------------------------------------===//
// The remarks
//===----------------------------------------------------------------------===//

static void explainFused(QuantizeElementwiseOp q) {
  SmallVector<std::string> parts;
  bool plain = bool(getIdentityInput(q));
  if (!plain)
    parts.push_back("its elementwise producers (one body)");
  if (int64_t sums = q.getReductions().size())
    parts.push_back(std::to_string(sums) + " row sum" + (sums > 1 ? "s" : "") +
                    " (a norm)");
  if (q.getHadamardSize())
    parts.push_back("a Hadamard rotation of " +
                    std::to_string(*q.getHadamardSize()));
  if (q.getTranspose())
    parts.push_back("the quantization of its transpose");
  if (q.getScaleLayout() != ScaleLayout::row_major)
    parts.push_back(("the re-layout of its scales (" +
                     stringifyScaleLayout(q.getScaleLayout()) + ")")
                        .str());
  if (parts.empty())
    parts.push_back("nothing (a quantization of its input as it is)");
  InFlightDiagnostic remark = mlir::emitRemark(q.getLoc(), kPrefix)
                              << describeQuantized(q) << "fused ";
  llvm::interleave(
      parts, [&](const std::string &p) { remark << p; },
      [&] { remark << ", "; });
  if (q.getKept())
    remark << "; the producer's result stays a result, as another op "
              "reads it";
}

static void explainQuantize(QuantizeOp q, bool producers) {
  Operation *producer = q.getInput().getDefiningOp();
  InFlightDiagnostic remark = mlir::emitRemark(q.getLoc(), kPrefix)
                              << describeQuantized(q);
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(producer)) {
    remark << "quantizes a linalg.transpose on its own: "
           << whyNoCastTranspose(q, transpose);
    return;
  }
  if (!producer) {
    remark << "nothing to fuse: it quantizes a function argument";
    if (q.getAmax())
      remark << " (its amax is given, and the delayed-amax fusion did not "
                "match it)";
    return;
  }
  remark << "did not fuse its producer: "
         << whyProducerStays(q, q.getScaling(), producers);
}

static void explainGeneric(linalg::GenericOp generic, bool producers) {
  if (isRowSum(generic)) {
    mlir::emitRemark(generic.getLoc(), kPrefix)
        << "this row sum stays a kernel of its own: "
        << whyRowSumStays(generic, producers);
    return;
  }
  if (generic.getNumReductionLoops() != 0 || generic.getNumResults() != 1)
    return;
  Value result = generic->getResult(0);
  if (feedsQuantization(result))
    return; // The quantization says why.
  mlir::emitRemark(generic.getLoc(), kPrefix)
      << "this elementwise op stays a kernel of its own: no quantization "
         "reads its result (read by "
      << describeReaders(result) << ")";
}

void fusion::explainFusions(ModuleOp module, bool producers) {
  module.walk([&](Operation *op) {
    if (auto q = dyn_cast<QuantizeElementwiseOp>(op))
      return explainFused(q);
    if (auto q = dyn_cast<QuantizeTransposeOp>(op)) {
      InFlightDiagnostic remark =
          mlir::emitRemark(q.getLoc(), kPrefix)
          << describeQuantized(q)
          << "fused with the quantization of its transpose (one "
             "cast-transpose kernel reads the input once)";
      if (std::string why = whyProducerStays(q, q.getScaling(), producers);
          !why.empty())
        remark << "; did not fuse its producer: " << why;
      return;
    }
    if (auto q = dyn_cast<QuantizeDelayedOp>(op)) {
      InFlightDiagnostic remark =
          mlir::emitRemark(q.getLoc(), kPrefix)
          << describeQuantized(q)
          << "fused with the data's amax and its history (delayed scaling)";
      if (q.getInput().getDefiningOp())
        remark << "; its producer stays: a quantization with a given amax "
                  "takes no producer";
      return;
    }
    if (auto q = dyn_cast<QuantizeMonitoredOp>(op)) {
      mlir::emitRemark(q.getLoc(), kPrefix)
          << describeQuantized(q)
          << "monitored (monitor=true): fp8-fuse-quantization leaves "
             "monitored quantizations unfused";
      return;
    }
    if (auto q = dyn_cast<QuantizeOp>(op))
      return explainQuantize(q, producers);
    if (auto t = dyn_cast<TransposeOp>(op)) {
      mlir::emitRemark(t.getLoc(), kPrefix)
          << "this fp8.transpose stays a kernel that re-reads the FP8 data: "
          << whyTransposeStays(t);
      return;
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      return explainGeneric(generic, producers);
    // An elementwise op on tensors that no quantization reads.
    if (isTensorElementwise(op) && !feedsQuantization(op->getResult(0)))
      mlir::emitRemark(op->getLoc(), kPrefix)
          << "this elementwise '" << op->getName()
          << "' stays a kernel of its own: no quantization reads its result "
             "(read by "
          << describeReaders(op->getResult(0)) << ")";
  });
}
