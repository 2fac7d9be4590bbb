//===- MonitorQuantization.cpp - return quantization statistics -----------===//
//
// fp8-monitor-quantization: every rank-2 fp8.quantize of a function becomes
// fp8.quantize_monitored, whose per-tile data amax and saturation/flush
// counts the function returns as extra results labelled `fp8.monitor`. The
// kernels compute them while they quantize, so a step's FP8 health costs no
// second pass over memory; without this pass nothing changes.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"
#include "fp8/Dialect/FP8/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8MONITORQUANTIZATION
#include "fp8/Dialect/FP8/Transforms/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;

/// The role of the quantization, or of the function argument it reads.
static std::string getRoleName(QuantizeOp op, func::FuncOp func) {
  StringRef roleAttr = FP8Dialect::getRoleAttrName();
  if (auto role = op->getAttrOfType<StringAttr>(roleAttr))
    return role.str();
  Value input = op.getInput();
  if (auto transpose = input.getDefiningOp<linalg::TransposeOp>())
    input = transpose.getInput();
  auto argument = dyn_cast<BlockArgument>(input);
  if (argument && argument.getOwner() == &func.getBody().front())
    if (auto role = func.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                      roleAttr))
      return role.str();
  return "tensor";
}

/// `arg<N>`, `arg<N>.T` or `op<index>`.
static std::string getSourceName(QuantizeOp op, func::FuncOp func,
                                 unsigned index) {
  Value input = op.getInput();
  std::string suffix;
  if (auto transpose = input.getDefiningOp<linalg::TransposeOp>();
      transpose && transpose.getPermutation() == ArrayRef<int64_t>{1, 0}) {
    input = transpose.getInput();
    suffix = ".T";
  }
  auto argument = dyn_cast<BlockArgument>(input);
  if (argument && argument.getOwner() == &func.getBody().front())
    return ("arg" + Twine(argument.getArgNumber()) + suffix).str();
  return ("op" + Twine(index)).str();
}

namespace {

struct FP8MonitorQuantizationPass
    : fp8::impl::FP8MonitorQuantizationBase<FP8MonitorQuantizationPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto func : module.getOps<func::FuncOp>())
      if (failed(monitor(func, module)))
        return signalPassFailure();
  }

  static LogicalResult monitor(func::FuncOp func, ModuleOp module) {
    if (func.isExternal())
      return success();
    SmallVector<QuantizeOp> quantizes;
    func.walk([&](QuantizeOp op) { quantizes.push_back(op); });
    if (llvm::none_of(quantizes, [](QuantizeOp op) {
          return op.getInput().getType().getRank() == 2;
        }))
      return success();
    if (std::optional<SymbolTable::UseRange> uses =
            SymbolTable::getSymbolUses(func, module);
        !uses || !uses->empty())
      return func.emitOpError("fp8-monitor-quantization: @")
             << func.getName()
             << " is called in the module; its callers would need the "
                "statistics it returns (monitor a function that nothing "
                "calls)";
    if (!func.getBody().hasOneBlock())
      return func.emitOpError("fp8-monitor-quantization: @")
             << func.getName() << " has more than one block";
    Block &body = func.getBody().front();
    auto ret = dyn_cast<func::ReturnOp>(body.getTerminator());
    if (!ret)
      return func.emitOpError("fp8-monitor-quantization: @")
             << func.getName() << " does not end in func.return";

    MLIRContext *ctx = func.getContext();
    SmallVector<Value> extraResults;
    SmallVector<std::string> labels;
    for (auto [index, op] : llvm::enumerate(quantizes)) {
      if (op.getInput().getType().getRank() != 2)
        continue;
      if (op->getBlock() != &body)
        return op.emitOpError("fp8-monitor-quantization: a quantization "
                              "nested in a region cannot return its "
                              "statistics; move it to the function's body");
      std::string label =
          getRoleName(op, func) + ":" + getSourceName(op, func, index);
      OpBuilder b(op);
      auto scaleType = op.getScale().getType();
      auto tileAmaxType =
          RankedTensorType::get(scaleType.getShape(), Float32Type::get(ctx));
      auto countsType = RankedTensorType::get({2}, IntegerType::get(ctx, 64));
      auto monitored = QuantizeMonitoredOp::create(
          b, op.getLoc(),
          TypeRange{op.getResult().getType(), scaleType, tileAmaxType,
                    countsType},
          op->getOperands(), op->getAttrs());
      op.getResult().replaceAllUsesWith(monitored.getResult());
      op.getScale().replaceAllUsesWith(monitored.getScale());
      op.erase();
      extraResults.push_back(monitored.getTileAmax());
      labels.push_back(label + "/tile_amax");
      extraResults.push_back(monitored.getCounts());
      labels.push_back(label + "/counts");
    }

    ret->insertOperands(ret->getNumOperands(), extraResults);
    for (auto [value, label] : llvm::zip(extraResults, labels)) {
      // A func.func's type takes any result type (FunctionType never fails
      // to rebuild), so this cannot fail here.
      [[maybe_unused]] LogicalResult added = func.insertResult(
          func.getNumResults(), value.getType(),
          DictionaryAttr::get(
              ctx, {NamedAttribute(
                       StringAttr::get(ctx, FP8Dialect::getMonitorAttrName()),
                       StringAttr::get(ctx, label))}));
      assert(succeeded(added) && "func.func rejected a result type");
    }
    return success();
  }
};

} // namespace
