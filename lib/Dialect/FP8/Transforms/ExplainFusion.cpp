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
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/BuiltinOps.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::fusion;

static constexpr StringLiteral kPrefix = "fp8-fuse-quantization: ";

/// "1000x4096xbf16" for a tensor type.
static std::string describeType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    for (int64_t dim : tensor.getShape()) {
      if (ShapedType::isDynamic(dim))
        os << "?";
      else
        os << dim;
      os << "x";
    }
    os << tensor.getElementType();
  } else {
    os << type;
  }
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
/// 256x512xbf16, argument #0] ".
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
  os << "] ";
  return text;
}

static bool isQuantization(Operation *op) {
  return isa<QuantizeOp, QuantizeTransposeOp, QuantizeElementwiseOp,
             QuantizeDelayedOp>(op);
}

//===----------------------------------------------------------------------===//
// What fused
//===----------------------------------------------------------------------===//

static void explainFused(QuantizeElementwiseOp q) {
  SmallVector<std::string> parts;
  bool identityBody = q.getBody().front().getOperations().size() == 1 &&
                      q.getBody().front().getTerminator()->getOperand(0) ==
                          q.getBody().front().getArgument(0);
  if (!identityBody)
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

//===----------------------------------------------------------------------===//
// What did not
//===----------------------------------------------------------------------===//

/// Why `quantize` (an fp8.quantize, or an fp8.quantize_transpose that took
/// no producer) kept its producer apart; empty where it has none.
static std::string whyProducerStays(Operation *quantize, ScalingAttr scaling) {
  Operation *producer = quantize->getOperand(0).getDefiningOp();
  if (!producer)
    return "";
  if (quantize->hasAttr(kKernelAttrName))
    return "its kernel is chosen by hand (fp8.kernel)";
  auto q = dyn_cast<QuantizeOp>(quantize);
  if (auto rotation = dyn_cast<HadamardOp>(producer)) {
    if (!q)
      return "a Hadamard rotation fuses into a plain quantization only";
    auto type = cast<RankedTensorType>(rotation.getInput().getType());
    if (!rotation->hasOneUse())
      return "its Hadamard rotation is also read by another op";
    if (rotation.getDim() != 1)
      return "its Hadamard rotation runs along dim 0; the row-tile kernel "
             "rotates along the rows";
    if (!fitsRotatedRowTiles(type, scaling, rotation.getSize()))
      return "the row-tile kernel rotates tiles of one row and 16 to 512 "
             "columns in blocks of 16 to 256 that divide the row; this is a " +
             describeType(type) + " matrix, rotation " +
             std::to_string(rotation.getSize());
    return "";
  }
  if (isa<linalg::TransposeOp>(producer))
    return "";
  StringRef refusal = producerRefusal(producer);
  if (!refusal.empty())
    return ("'" + producer->getName().getStringRef() + "': " + refusal).str();
  if (producer->getBlock() != quantize->getBlock())
    return "its producer is in another block";
  if (q && q.getRounding() != Rounding::nearest)
    return "it rounds stochastically; producers fuse into round-to-nearest "
           "quantizations only";
  if (q && q.getAmax())
    return "its amax is given (delayed scaling): it fuses with the amax "
           "instead";
  if (scaling.isTensorwise() && computesPolynomialMath(producer))
    return "its scale is one for the whole tensor, so a fused kernel would "
           "compute the producer's polynomial math (exp, erf, tanh, log) "
           "twice: once for the amax, once to quantize";
  if (!producer->getResult(0).hasOneUse())
    return "its producer fused into another quantization of the same value, "
           "which keeps the result for this one";
  return "its producer did not fuse";
}

/// Why `transposed`, a quantization of a transpose, found no quantization
/// of the transpose's input to share a cast-transpose with.
static std::string whyNoCastTranspose(QuantizeOp transposed,
                                      linalg::TransposeOp transpose) {
  Type type = transpose.getInput().getType();
  ScalingAttr scaling = transposed.getScaling();
  bool rowTiles = scaling.getTile()[0] == 1;
  if (scaling.getTile() == ArrayRef<int64_t>{1, kCastTransposeTile} &&
      !fitsCastTranspose(type, scaling))
    return "the 1x128 cast-transpose takes static 16-bit matrices whose dims "
           "are multiples of 128; this is " +
           describeType(type);
  if (rowTiles && ShapedType::isDynamic(scaling.getTile()[1]) &&
      !fitsRowwiseCastTranspose(type, scaling))
    return "the rowwise cast-transpose takes static 16-bit matrices whose "
           "dims are multiples of 64; this is " +
           describeType(type);
  if (!fitsCastTranspose(type, scaling) &&
      !fitsRowwiseCastTranspose(type, scaling))
    return "no cast-transpose kernel takes tiles of " +
           describeType(RankedTensorType::get(
               scaling.getTile(),
               IntegerType::get(transposed.getContext(), 1))) +
           " elements";
  return "no quantization of the transpose's input with the same scaling, "
         "format and margin in this block (or it took a producer first)";
}

static void explainUnfused(QuantizeOp q) {
  Operation *producer = q.getInput().getDefiningOp();
  if (auto transpose = dyn_cast_or_null<linalg::TransposeOp>(producer)) {
    mlir::emitRemark(q.getLoc(), kPrefix)
        << describeQuantized(q) << "quantizes a linalg.transpose on its own: "
        << whyNoCastTranspose(q, transpose);
    return;
  }
  if (!producer) {
    mlir::emitRemark(q.getLoc(), kPrefix)
        << describeQuantized(q)
        << "nothing to fuse: it quantizes a function "
           "argument";
    return;
  }
  mlir::emitRemark(q.getLoc(), kPrefix)
      << describeQuantized(q)
      << "did not fuse its producer: " << whyProducerStays(q, q.getScaling());
}

/// Why an fp8.transpose of a quantization stays a kernel that re-reads the
/// FP8 data instead of one cast-transpose.
static std::string whyTransposeStays(TransposeOp t) {
  auto q = t.getInput().getDefiningOp<QuantizeOp>();
  if (!q) {
    if (isQuantization(t.getInput().getDefiningOp()))
      return "the quantization it transposes already fused other ops (a "
             "producer, a scale re-layout), and one kernel does not do both";
    return "it does not transpose the result of an fp8.quantize";
  }
  Type type = q.getInput().getType();
  ScalingAttr scaling = q.getScaling();
  if (t.getScaling() != scaling || t.getScale() != q.getScale())
    return "it does not keep the quantization's scales";
  if (!fitsTensorwiseCastTranspose(type, scaling) &&
      !fitsBlockCastTranspose(type, scaling))
    return "the exact cast-transposes take one scale for a static 16-bit "
           "matrix with dims that are multiples of 64, or square tiles of "
           "64 or 128 that divide the dims; this is " +
           describeType(type);
  if (q.getRounding() != Rounding::nearest || q.getAmax() || q.getSeed())
    return "its quantization rounds stochastically or has a given amax";
  if (q->hasAttr(kKernelAttrName) || t->hasAttr(kKernelAttrName))
    return "a kernel is chosen by hand (fp8.kernel)";
  return "its quantization is in another block";
}

/// "[1, 128]", "[*, *]": a scaling's tile.
static std::string describeTile(ScalingAttr scaling) {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "[";
  llvm::interleaveComma(scaling.getTile(), os, [&](int64_t t) {
    if (ShapedType::isDynamic(t))
      os << "*";
    else
      os << t;
  });
  os << "]";
  return text;
}

/// Why `quantize`, which reads a norm, did not take its row sums over.
static std::string whyRowKernelRefuses(Operation *quantize) {
  auto scaling = quantize->getAttrOfType<ScalingAttr>("scaling");
  auto type = dyn_cast<RankedTensorType>(quantize->getResult(0).getType());
  if (!scaling || !type)
    return "the quantization that reads it is not one the norm kernel runs";
  if (scaling.getTile()[0] != 1)
    return "the norm kernel (a warp per row) quantizes tiles of one row; the "
           "quantization that reads this norm has tiles " +
           describeTile(scaling) +
           (scaling.isTensorwise() ? " (one scale for the tensor)" : "");
  if (!fitsRowKernel(type, scaling))
    return "the norm kernel takes rows of whole 16-element chunks, tiles of "
           "16 to 512 columns that divide the row (or the whole row), and "
           "holds the chunk sums in its shared memory; the quantization "
           "that reads this norm is " +
           describeType(type) + " with tiles " + describeTile(scaling);
  return "the norm kernel cannot hold all the row sums this quantization "
         "reads in its shared memory";
}

/// A row sum left on its own: why the quantization of the norm did not
/// take it.
static std::string whyRowSumStays(linalg::GenericOp sum) {
  if (!isFusibleRowSum(sum))
    return "it is not a row sum a quantize kernel computes (f32 sums from "
           "+0.0 of scalar arith and math over elementwise-read inputs)";
  // Follow the values per row made from it to the quantization: a reader
  // outside it keeps the sums apart; else the quantization's kernel
  // refused them (one that fused the norm's elementwise part reads the
  // sums, or values per row, as an input).
  SmallVector<Value> frontier = {sum->getResult(0)};
  Operation *outside = nullptr, *quantization = nullptr;
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
      if (auto generic = dyn_cast<linalg::GenericOp>(user);
          generic && generic.getNumReductionLoops() == 0 &&
          !generic->getResult(0).use_empty() &&
          llvm::all_of(generic->getResult(0).getUsers(), isQuantization)) {
        quantization = *generic->getResult(0).user_begin();
        continue;
      }
      if (!outside)
        outside = user;
    }
  if (outside)
    return ("its sums (or the values per row made from them) are also read "
            "by '" +
            outside->getName().getStringRef() +
            "' (the backward saves them?), so the quantization cannot take "
            "them over")
        .str();
  if (quantization)
    return whyRowKernelRefuses(quantization);
  return "no quantization reads the norm it feeds";
}

static void explainGeneric(linalg::GenericOp generic) {
  if (isRowSum(generic)) {
    mlir::emitRemark(generic.getLoc(), kPrefix)
        << "this row sum stays a kernel of its own: "
        << whyRowSumStays(generic);
    return;
  }
  if (generic.getNumReductionLoops() != 0 || generic.getNumResults() != 1)
    return;
  Value result = generic->getResult(0);
  if (llvm::any_of(result.getUsers(), isQuantization))
    return; // The quantization says why.
  mlir::emitRemark(generic.getLoc(), kPrefix)
      << "this elementwise op stays a kernel of its own: no quantization "
         "reads its result (read by "
      << describeReaders(result) << ")";
}

void fusion::explainFusions(ModuleOp module) {
  module.walk([](Operation *op) {
    if (auto q = dyn_cast<QuantizeElementwiseOp>(op))
      return explainFused(q);
    if (auto q = dyn_cast<QuantizeTransposeOp>(op)) {
      InFlightDiagnostic remark =
          mlir::emitRemark(q.getLoc(), kPrefix)
          << describeQuantized(q)
          << "fused with the quantization of its transpose (one "
             "cast-transpose kernel reads the input once)";
      if (std::string why = whyProducerStays(q, q.getScaling()); !why.empty())
        remark << "; did not fuse its producer: " << why;
      return;
    }
    if (auto q = dyn_cast<QuantizeDelayedOp>(op)) {
      mlir::emitRemark(q.getLoc(), kPrefix)
          << describeQuantized(q)
          << "fused with the data's amax and its history "
             "(delayed scaling)";
      return;
    }
    if (auto q = dyn_cast<QuantizeOp>(op))
      return explainUnfused(q);
    if (auto t = dyn_cast<TransposeOp>(op)) {
      mlir::emitRemark(t.getLoc(), kPrefix)
          << "this fp8.transpose stays a kernel that "
             "re-reads the FP8 data: "
          << whyTransposeStays(t);
      return;
    }
    if (auto generic = dyn_cast<linalg::GenericOp>(op))
      return explainGeneric(generic);
  });
}
