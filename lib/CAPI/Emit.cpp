//===- Emit.cpp - the compiled program in memory, from C ------------------===//
//
// fp8EmitProgram: convert-fp8-to-nvvm, then fp8::emitProgram, behind the C
// API.
//
//===----------------------------------------------------------------------===//

#include "fp8-c/Emit.h"

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Support.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

MlirLogicalResult fp8EmitProgram(MlirModule module, MlirStringRef chip,
                                 bool lineInfo, Fp8EmitCallback callback,
                                 void *userData) {
  ModuleOp op = unwrap(module);
  FailureOr<fp8::Target> target = fp8::resolveTarget(
      op, unwrap(chip), [&] { return emitError(op.getLoc(), "fp8-emit: "); });
  if (failed(target))
    return mlirLogicalResultFailure();
  fp8::remarkIfNeverRun(op.getLoc(), *target);
  PassManager pm(op.getContext());
  fp8::ConvertFP8ToNVVMOptions options;
  options.chip = target->getName().str();
  pm.addPass(fp8::createConvertFP8ToNVVM(options));
  if (failed(pm.run(op)))
    return mlirLogicalResultFailure();
  FailureOr<fp8::EmittedProgram> program =
      fp8::emitProgram(op, *target, lineInfo);
  if (failed(program))
    return mlirLogicalResultFailure();
  callback(
      mlirStringRefCreateFromCString("manifest.json"),
      mlirStringRefCreate(program->manifest.data(), program->manifest.size()),
      userData);
  for (const auto &[file, text] : program->ptx)
    callback(mlirStringRefCreate(file.data(), file.size()),
             mlirStringRefCreate(text.data(), text.size()), userData);
  return mlirLogicalResultSuccess();
}
