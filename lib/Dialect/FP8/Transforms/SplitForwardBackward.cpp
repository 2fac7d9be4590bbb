//===- SplitForwardBackward.cpp - forward's FP8 kept for backward ---------===//
//
// fp8-split-forward-backward: a layer's forward and backward written as one
// joint function, quantized and fused by fp8-pipeline, is split into
// `<name>_fwd` and `<name>_bwd`. Every quantization of an input reads that
// input only, so forward computes the FP8 operands (and scales) that Dgrad
// and Wgrad need from the same read of X and W as Fprop's, and returns them
// for backward: backward reads no high-precision input again, and autograd
// keeps one byte per element between the two instead of two.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8SPLITFORWARDBACKWARD
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// The argument and result attribute that names a value passed from forward
/// to backward.
static constexpr StringLiteral kSavedAttrName = "fp8.saved";

namespace {

/// Where an op of the joint function goes.
enum class Side {
  /// Reads no argument: cloned into each half that uses it.
  free,
  forward,
  backward,
};

/// One joint function and the partition of its body.
struct Partition {
  func::FuncOp joint;
  Block *body = nullptr;
  llvm::DenseMap<Operation *, Side> side;
  /// Top-level values (arguments and results of the body's ops) that depend
  /// on a gradient argument, and on any argument.
  llvm::DenseSet<Value> onGradient, onArgument;
  SmallVector<bool> isGradient;
  /// Arguments whose role the `recompute` option names: ops that read only
  /// them are cloned like constants.
  SmallVector<bool> isRecomputed;

  /// The body's values `op` reads, its regions' captures included.
  SmallVector<Value> inputs(Operation *op) const {
    llvm::SetVector<Value> found;
    op->walk([&](Operation *nested) {
      for (Value v : nested->getOperands())
        if (isTopLevel(v))
          found.insert(v);
    });
    return found.takeVector();
  }

  bool isTopLevel(Value v) const {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return arg.getOwner() == body;
    return v.getDefiningOp()->getBlock() == body;
  }

  /// The ops of the body that read `v` (the terminator included).
  SmallVector<Operation *> readers(Value v) const {
    SmallVector<Operation *> out;
    for (Operation *user : v.getUsers())
      if (Operation *top = body->findAncestorOpInBlock(*user))
        if (!llvm::is_contained(out, top))
          out.push_back(top);
    return out;
  }

  Side sideOf(Operation *op) const { return side.lookup(op); }
};

} // namespace

/// Bytes of a value passed between the halves; huge where unknown, so that
/// nothing unknown is chosen to cross.
static int64_t getBytes(Value v) {
  constexpr int64_t kUnknown = int64_t(1) << 50;
  Type type = v.getType();
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    if (!tensor.hasStaticShape() || !tensor.getElementType().isIntOrFloat())
      return kUnknown;
    return tensor.getNumElements() *
           llvm::divideCeil(tensor.getElementType().getIntOrFloatBitWidth(), 8);
  }
  if (type.isIntOrFloat())
    return llvm::divideCeil(type.getIntOrFloatBitWidth(), 8);
  return kUnknown;
}

/// `arg<N>`, `arg<N>.T` (through transposes), or `op<K>`.
static std::string getSourceName(Value v, const Partition &p,
                                 llvm::DenseMap<Operation *, unsigned> &index) {
  if (auto arg = dyn_cast<BlockArgument>(v))
    return ("arg" + Twine(arg.getArgNumber())).str();
  Operation *op = v.getDefiningOp();
  auto transposed = [](std::string name) {
    StringRef ref(name);
    if (ref.consume_back(".T"))
      return ref.str();
    return name + ".T";
  };
  if (auto transpose = dyn_cast<linalg::TransposeOp>(op);
      transpose && transpose.getPermutation() == ArrayRef<int64_t>{1, 0})
    return transposed(getSourceName(transpose.getInput(), p, index));
  if (isa<fp8::TransposeOp>(op))
    return transposed(getSourceName(op->getOperand(0), p, index));
  // A quantization names what it quantizes; a fused elementwise one
  // quantizes what its body computes, which is its own.
  if (op->getName().getDialectNamespace() == "fp8" &&
      op->getName().stripDialect().starts_with("quantize") &&
      !isa<QuantizeElementwiseOp>(op) && op->getNumOperands() > 0 &&
      p.isTopLevel(op->getOperand(0)))
    return getSourceName(op->getOperand(0), p, index);
  return ("op" + Twine(index.lookup(op))).str();
}

/// The name the op's assembly gives `v` (`q`, `scale`, `qt`, ...), else
/// `r<i>`.
static std::string getResultName(OpResult v) {
  std::string name;
  if (auto asmOp = dyn_cast<OpAsmOpInterface>(v.getOwner()))
    asmOp.getAsmResultNames([&](Value value, StringRef n) {
      if (value == v)
        name = n.str();
    });
  if (name.empty())
    name = ("r" + Twine(v.getResultNumber())).str();
  return name;
}

/// Marks the ops of the body and the values that depend on a gradient.
static LogicalResult classify(Partition &p) {
  for (BlockArgument arg : p.body->getArguments()) {
    if (!p.isRecomputed[arg.getArgNumber()])
      p.onArgument.insert(arg);
    if (p.isGradient[arg.getArgNumber()])
      p.onGradient.insert(arg);
  }
  for (Operation &op : p.body->without_terminator()) {
    bool gradient = false, argument = false;
    for (Value v : p.inputs(&op)) {
      gradient |= p.onGradient.contains(v);
      argument |= p.onArgument.contains(v);
    }
    Side s = gradient                                 ? Side::backward
             : (!argument && isMemoryEffectFree(&op)) ? Side::free
                                                      : Side::forward;
    p.side[&op] = s;
    for (Value r : op.getResults()) {
      if (gradient)
        p.onGradient.insert(r);
      if (argument)
        p.onArgument.insert(r);
    }
  }
  return success();
}

/// Moves to backward each pure forward op that only backward reads and
/// whose inputs are fewer bytes to pass than its results (e.g. the slice of
/// a gradient's amax history that its roll keeps): the cut between the
/// halves then never carries more than it must. A quantization of an input
/// stays in forward (its bf16 input is larger than its FP8 results).
static void sinkIntoBackward(Partition &p, func::ReturnOp ret,
                             ArrayRef<bool> resultIsForward) {
  auto readByForward = [&](Value v, Operation *except) {
    for (Operation *reader : p.readers(v)) {
      if (reader == except)
        continue;
      if (reader == ret.getOperation()) {
        for (OpOperand &use : ret->getOpOperands())
          if (use.get() == v && resultIsForward[use.getOperandNumber()])
            return true;
        continue;
      }
      Side s = p.sideOf(reader);
      if (s == Side::forward || s == Side::free)
        return true;
    }
    return false;
  };
  auto readByBackward = [&](Value v, Operation *except) {
    return llvm::any_of(p.readers(v), [&](Operation *reader) {
      return reader != except && reader != ret.getOperation() &&
             p.sideOf(reader) == Side::backward;
    });
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (Operation &op : llvm::reverse(p.body->without_terminator())) {
      if (p.sideOf(&op) != Side::forward || !isMemoryEffectFree(&op))
        continue;
      int64_t passedNow = 0;
      bool onlyBackward = true, used = false;
      for (Value r : op.getResults()) {
        if (readByForward(r, nullptr))
          onlyBackward = false;
        if (readByBackward(r, nullptr)) {
          used = true;
          passedNow += getBytes(r);
        }
      }
      if (!onlyBackward || !used)
        continue;
      int64_t passedAfter = 0;
      for (Value v : p.inputs(&op)) {
        if (!p.onArgument.contains(v))
          continue; // A free value: cloned.
        if (readByBackward(v, &op))
          continue; // Passed already.
        if (isa<BlockArgument>(v) && !readByForward(v, &op))
          continue; // An input of backward only.
        passedAfter += getBytes(v);
      }
      if (passedAfter < passedNow) {
        p.side[&op] = Side::backward;
        changed = true;
      }
    }
  }
}

/// The free ops `side` needs: those an op of `side`, a needed free op or a
/// root reads.
static llvm::DenseSet<Operation *>
getNeededFreeOps(const Partition &p, Side side, ArrayRef<Value> roots) {
  llvm::DenseSet<Operation *> needed;
  llvm::DenseSet<Value> rootSet(roots.begin(), roots.end());
  for (Operation &op : llvm::reverse(p.body->without_terminator())) {
    if (p.sideOf(&op) != Side::free)
      continue;
    bool need = llvm::any_of(op.getResults(), [&](Value r) {
      if (rootSet.contains(r))
        return true;
      return llvm::any_of(p.readers(r), [&](Operation *reader) {
        Side s = p.sideOf(reader);
        return reader != p.body->getTerminator() &&
               ((s == side) || (s == Side::free && needed.contains(reader)));
      });
    });
    if (need)
      needed.insert(&op);
  }
  return needed;
}

/// Clones into `b` the ops of `side`, and the free ops it needs, in order.
static void cloneSide(OpBuilder &b, const Partition &p, Side side,
                      const llvm::DenseSet<Operation *> &needed,
                      IRMapping &map) {
  for (Operation &op : p.body->without_terminator())
    if (p.sideOf(&op) == side || needed.contains(&op))
      b.clone(op, map);
}

static DictionaryAttr withSaved(MLIRContext *ctx, DictionaryAttr attrs,
                                StringRef label) {
  NamedAttrList list(attrs);
  list.set(kSavedAttrName, StringAttr::get(ctx, label));
  return list.getDictionary(ctx);
}

static LogicalResult split(func::FuncOp joint, ModuleOp module,
                           ArrayRef<std::string> recompute) {
  MLIRContext *ctx = joint.getContext();
  StringRef name = joint.getName();
  auto error = [&]() {
    return joint.emitOpError("fp8-split-forward-backward: @") << name << " ";
  };
  if (!joint.getBody().hasOneBlock())
    return error() << "has more than one block";
  SymbolTable symbols(module);
  std::string fwdName = (name + "_fwd").str(), bwdName = (name + "_bwd").str();
  for (StringRef n : {StringRef(fwdName), StringRef(bwdName)})
    if (symbols.lookup(n))
      return error() << "cannot be split: @" << n << " exists";
  Partition p;
  p.joint = joint;
  p.body = &joint.getBody().front();
  auto ret = dyn_cast<func::ReturnOp>(p.body->getTerminator());
  if (!ret)
    return error() << "does not end in func.return";
  for (unsigned i = 0, e = joint.getNumArguments(); i < e; ++i) {
    auto role =
        joint.getArgAttrOfType<StringAttr>(i, FP8Dialect::getRoleAttrName());
    p.isGradient.push_back(role && role.getValue() == "gradient");
    p.isRecomputed.push_back(role &&
                             llvm::is_contained(recompute, role.getValue()));
  }
  if (failed(classify(p)))
    return failure();

  SmallVector<bool> resultIsForward;
  for (auto [i, v] : llvm::enumerate(ret.getOperands())) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return error() << "returns argument #" << arg.getArgNumber()
                     << " as result #" << i
                     << "; a split half returns what it computes";
    resultIsForward.push_back(!p.onGradient.contains(v));
  }
  if (llvm::none_of(resultIsForward, [](bool f) { return f; }))
    return error() << "has no result that depends on no gradient argument; "
                      "forward would compute nothing";
  if (llvm::all_of(resultIsForward, [](bool f) { return f; }))
    return error() << "has no result that depends on a gradient argument; "
                      "backward would compute nothing";
  sinkIntoBackward(p, ret, resultIsForward);

  // What crosses: arguments backward reads, and values forward computes
  // that backward reads.
  auto readBy = [&](Value v, Side side) {
    return llvm::any_of(p.readers(v), [&](Operation *reader) {
      return reader != ret.getOperation() && p.sideOf(reader) == side;
    });
  };
  llvm::DenseMap<Operation *, unsigned> index;
  for (auto [k, op] : llvm::enumerate(p.body->without_terminator()))
    index[&op] = k;
  SmallVector<Value> saved;
  SmallVector<std::string> labels;
  llvm::StringMap<unsigned> labelCount;
  for (Operation &op : p.body->without_terminator()) {
    if (p.sideOf(&op) != Side::forward)
      continue;
    for (OpResult r : op.getResults()) {
      if (!readBy(r, Side::backward))
        continue;
      std::string label = getSourceName(r, p, index) + ":" + getResultName(r);
      unsigned seen = labelCount[label]++;
      if (seen)
        label += "#" + std::to_string(seen);
      saved.push_back(r);
      labels.push_back(label);
    }
  }

  SmallVector<Value> fwdRoots, bwdRoots;
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    (resultIsForward[i] ? fwdRoots : bwdRoots).push_back(v);
  llvm::append_range(fwdRoots, saved);
  llvm::DenseSet<Operation *> fwdFree =
      getNeededFreeOps(p, Side::forward, fwdRoots);
  llvm::DenseSet<Operation *> bwdFree =
      getNeededFreeOps(p, Side::backward, bwdRoots);
  // An argument is read by a half where an op of it, or a free op it
  // clones, reads it.
  auto argReadBy = [&](Value v, Side side,
                       const llvm::DenseSet<Operation *> &free) {
    return readBy(v, side) ||
           llvm::any_of(p.readers(v), [&](Operation *reader) {
             return free.contains(reader);
           });
  };
  SmallVector<unsigned> fwdArgs, gradArgs, crossArgs;
  for (BlockArgument arg : p.body->getArguments()) {
    unsigned n = arg.getArgNumber();
    if (p.isGradient[n]) {
      gradArgs.push_back(n);
      continue;
    }
    bool forward = argReadBy(arg, Side::forward, fwdFree), backward = false;
    for (OpOperand &use : ret->getOpOperands())
      forward |= use.get() == arg && resultIsForward[use.getOperandNumber()];
    backward = argReadBy(arg, Side::backward, bwdFree);
    if (forward)
      fwdArgs.push_back(n);
    if (backward) {
      crossArgs.push_back(n);
      if (forward)
        emitRemark(arg.getLoc())
            << "fp8-split-forward-backward: argument #" << n << " of @" << name
            << " (" << arg.getType()
            << ") is read by forward and backward: autograd keeps it for "
               "backward as it is";
    }
  }
  // Function attributes other than the signature's carry over (the recipe).
  SmallVector<NamedAttribute> funcAttrs;
  for (NamedAttribute attr : joint->getAttrs()) {
    StringRef n = attr.getName().getValue();
    if (n == SymbolTable::getSymbolAttrName() ||
        n == joint.getFunctionTypeAttrName() ||
        n == joint.getArgAttrsAttrName() || n == joint.getResAttrsAttrName())
      continue;
    funcAttrs.push_back(attr);
  }
  auto argAttrs = [&](unsigned n) {
    DictionaryAttr attrs = joint.getArgAttrDict(n);
    return attrs ? attrs : DictionaryAttr::get(ctx);
  };
  auto resultAttrs = [&](unsigned n) {
    DictionaryAttr attrs = joint.getResultAttrDict(n);
    return attrs ? attrs : DictionaryAttr::get(ctx);
  };

  OpBuilder b(ctx);
  b.setInsertionPointAfter(joint);
  Location loc = joint.getLoc();

  // Forward: its arguments, its results, then the saved values.
  SmallVector<Type> fwdIn, fwdOut;
  SmallVector<Attribute> fwdInAttrs, fwdOutAttrs;
  for (unsigned n : fwdArgs) {
    fwdIn.push_back(joint.getArgument(n).getType());
    fwdInAttrs.push_back(argAttrs(n));
  }
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    if (resultIsForward[i]) {
      fwdOut.push_back(v.getType());
      fwdOutAttrs.push_back(resultAttrs(i));
    }
  for (auto [v, label] : llvm::zip(saved, labels)) {
    fwdOut.push_back(v.getType());
    fwdOutAttrs.push_back(withSaved(ctx, DictionaryAttr::get(ctx), label));
  }
  auto fwd = func::FuncOp::create(b, loc, fwdName,
                                  FunctionType::get(ctx, fwdIn, fwdOut));
  for (NamedAttribute attr : funcAttrs)
    fwd->setAttr(attr.getName(), attr.getValue());
  fwd.setAllArgAttrs(fwdInAttrs);
  fwd.setAllResultAttrs(fwdOutAttrs);
  fwd.setVisibility(joint.getVisibility());
  {
    Block *block = fwd.addEntryBlock();
    OpBuilder fb = OpBuilder::atBlockEnd(block);
    IRMapping map;
    for (auto [k, n] : llvm::enumerate(fwdArgs))
      map.map(joint.getArgument(n), block->getArgument(k));
    cloneSide(fb, p, Side::forward, fwdFree, map);
    SmallVector<Value> results;
    for (Value v : fwdRoots)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(fb, ret.getLoc(), results);
  }

  // Backward: gradients, arguments it reads, saved values.
  SmallVector<Type> bwdIn, bwdOut;
  SmallVector<Attribute> bwdInAttrs, bwdOutAttrs;
  for (unsigned n : gradArgs) {
    bwdIn.push_back(joint.getArgument(n).getType());
    bwdInAttrs.push_back(argAttrs(n));
  }
  for (unsigned n : crossArgs) {
    bwdIn.push_back(joint.getArgument(n).getType());
    bwdInAttrs.push_back(
        withSaved(ctx, argAttrs(n), "arg" + std::to_string(n)));
  }
  for (auto [v, label] : llvm::zip(saved, labels)) {
    bwdIn.push_back(v.getType());
    bwdInAttrs.push_back(withSaved(ctx, DictionaryAttr::get(ctx), label));
  }
  for (auto [i, v] : llvm::enumerate(ret.getOperands()))
    if (!resultIsForward[i]) {
      bwdOut.push_back(v.getType());
      bwdOutAttrs.push_back(resultAttrs(i));
    }
  auto bwd = func::FuncOp::create(b, loc, bwdName,
                                  FunctionType::get(ctx, bwdIn, bwdOut));
  for (NamedAttribute attr : funcAttrs)
    bwd->setAttr(attr.getName(), attr.getValue());
  bwd.setAllArgAttrs(bwdInAttrs);
  bwd.setAllResultAttrs(bwdOutAttrs);
  bwd.setVisibility(joint.getVisibility());
  {
    Block *block = bwd.addEntryBlock();
    OpBuilder bb = OpBuilder::atBlockEnd(block);
    IRMapping map;
    unsigned k = 0;
    for (unsigned n : gradArgs)
      map.map(joint.getArgument(n), block->getArgument(k++));
    for (unsigned n : crossArgs)
      map.map(joint.getArgument(n), block->getArgument(k++));
    for (Value v : saved)
      map.map(v, block->getArgument(k++));
    cloneSide(bb, p, Side::backward, bwdFree, map);
    SmallVector<Value> results;
    for (Value v : bwdRoots)
      results.push_back(map.lookup(v));
    func::ReturnOp::create(bb, ret.getLoc(), results);
  }

  // Each call of the joint function becomes a call of each half.
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(joint, module)) {
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = dyn_cast<func::CallOp>(use.getUser());
      if (!call)
        return use.getUser()->emitOpError("fp8-split-forward-backward: "
                                          "uses @")
               << name << " other than by func.call";
      OpBuilder cb(call);
      SmallVector<Value> fwdOperands;
      for (unsigned n : fwdArgs)
        fwdOperands.push_back(call.getOperand(n));
      auto fwdCall = func::CallOp::create(cb, call.getLoc(), fwd, fwdOperands);
      SmallVector<Value> bwdOperands;
      for (unsigned n : gradArgs)
        bwdOperands.push_back(call.getOperand(n));
      for (unsigned n : crossArgs)
        bwdOperands.push_back(call.getOperand(n));
      unsigned numFwdResults = fwdOut.size() - saved.size();
      llvm::append_range(bwdOperands,
                         fwdCall.getResults().drop_front(numFwdResults));
      auto bwdCall = func::CallOp::create(cb, call.getLoc(), bwd, bwdOperands);
      unsigned f = 0, g = 0;
      for (auto [i, r] : llvm::enumerate(call.getResults()))
        r.replaceAllUsesWith(resultIsForward[i] ? fwdCall.getResult(f++)
                                                : bwdCall.getResult(g++));
      call.erase();
    }
  }
  joint.erase();
  return success();
}

namespace {

struct FP8SplitForwardBackwardPass
    : fp8::impl::FP8SplitForwardBackwardBase<FP8SplitForwardBackwardPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<func::FuncOp> joints;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i) {
        auto role =
            func.getArgAttrOfType<StringAttr>(i, FP8Dialect::getRoleAttrName());
        if (role && role.getValue() == "gradient") {
          joints.push_back(func);
          break;
        }
      }
    }
    for (const std::string &role : recompute)
      if (role != "activation" && role != "weight") {
        module.emitError("fp8-split-forward-backward: recompute=")
            << role << ": expected activation or weight (a gradient is "
            << "backward's own input)";
        return signalPassFailure();
      }
    for (func::FuncOp joint : joints)
      if (failed(split(joint, module, recompute)))
        return signalPassFailure();
  }
};

} // namespace
