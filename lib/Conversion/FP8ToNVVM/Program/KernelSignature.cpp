//===- KernelSignature.cpp - a kernel's parameters, declared once ---------===//
//
// The argument types and manifest `params` of a kernel, from one list.
//
//===----------------------------------------------------------------------===//

#include "KernelSignature.h"

#include "KernelUtils.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;
namespace schema = mlir::fp8::manifest;

unsigned KernelSignature::addBuffer(StringRef name, ParamRole role,
                                    Type elementType, ArrayRef<int64_t> shape,
                                    Type argumentType) {
  assert(!has(name) && "parameter declared twice");
  Param param;
  param.name = name.str();
  param.argumentType = argumentType;
  param.role = role;
  param.elementType = elementType;
  param.shape.assign(shape.begin(), shape.end());
  params.push_back(std::move(param));
  return params.size() - 1;
}

unsigned KernelSignature::addTensorMap(StringRef name, StringRef tensor,
                                       ArrayRef<int64_t> box, Swizzle swizzle,
                                       Type argumentType) {
  assert(!has(name) && "parameter declared twice");
  assert(has(tensor) && "a tensor map maps a declared buffer");
  assert(box.size() == 2 && "a tensor map copies 2-D boxes");
  Param param;
  param.name = name.str();
  param.argumentType = argumentType;
  param.isTensorMap = true;
  param.tensor = tensor.str();
  param.box.assign(box.begin(), box.end());
  param.swizzle = swizzle;
  params.push_back(std::move(param));
  return params.size() - 1;
}

void KernelSignature::bindOperand(StringRef name, OpOperand &operand) {
  Param &param = params[getIndex(name)];
  assert(!param.isTensorMap);
  param.owner = operand.getOwner();
  param.isResult = false;
  param.index = operand.getOperandNumber();
}

void KernelSignature::bindResult(StringRef name, OpResult result) {
  Param &param = params[getIndex(name)];
  assert(!param.isTensorMap);
  param.owner = result.getOwner();
  param.isResult = true;
  param.index = result.getResultNumber();
}

void KernelSignature::writeBindings(OpBuilder &b) const {
  llvm::MapVector<Operation *, NamedAttrList> bindings;
  for (const Param &p : params)
    if (p.owner)
      bindings[p.owner].append(
          p.name, b.getStringAttr((Twine(p.isResult ? "result " : "operand ") +
                                   Twine(p.index))
                                      .str()));
  for (auto &[op, list] : bindings)
    op->setAttr(kKernelArgsAttrName, list.getDictionary(b.getContext()));
}

SmallVector<Type> KernelSignature::getArgumentTypes() const {
  return llvm::map_to_vector(params,
                             [](const Param &p) { return p.argumentType; });
}

bool KernelSignature::has(StringRef name) const {
  return llvm::any_of(params, [&](const Param &p) { return p.name == name; });
}

unsigned KernelSignature::getIndex(StringRef name) const {
  auto it =
      llvm::find_if(params, [&](const Param &p) { return p.name == name; });
  assert(it != params.end() && "no such parameter");
  return it - params.begin();
}

BlockArgument KernelSignature::getArgument(gpu::GPUFuncOp kernel,
                                           StringRef name) const {
  return kernel.getArgument(getIndex(name));
}

static StringRef roleName(ParamRole role) {
  switch (role) {
  case ParamRole::input:
    return schema::kRoleInput;
  case ParamRole::output:
    return schema::kRoleOutput;
  case ParamRole::workspace:
    return schema::kRoleWorkspace;
  }
  llvm_unreachable("unknown parameter role");
}

static StringRef swizzleName(Swizzle swizzle) {
  return swizzle == Swizzle::b128 ? "128B" : "none";
}

void KernelSignature::addManifestKey(StringRef name, NamedAttribute key) {
  auto param = llvm::find_if(
      params, [&](const Param &p) { return p.name == name && !p.isTensorMap; });
  assert(param != params.end() && "a manifest key of an undeclared buffer");
  param->manifestKeys.push_back(key);
}

ArrayAttr KernelSignature::getManifestParams(OpBuilder &b) const {
  SmallVector<Attribute> entries;
  for (const Param &p : params) {
    if (p.isTensorMap) {
      entries.push_back(b.getDictionaryAttr(
          {b.getNamedAttr(schema::kName, b.getStringAttr(p.name)),
           b.getNamedAttr(schema::kRole,
                          b.getStringAttr(schema::kRoleTensorMap)),
           b.getNamedAttr(schema::kTensor, b.getStringAttr(p.tensor)),
           b.getNamedAttr(schema::kBox, b.getI64ArrayAttr(p.box)),
           b.getNamedAttr(schema::kSwizzle,
                          b.getStringAttr(swizzleName(p.swizzle)))}));
      continue;
    }
    DictionaryAttr entry = manifestParam(b, p.name, roleName(p.role),
                                         dtypeName(p.elementType), p.shape);
    if (!p.manifestKeys.empty()) {
      SmallVector<NamedAttribute> keys(entry.getValue());
      keys.append(p.manifestKeys.begin(), p.manifestKeys.end());
      entry = b.getDictionaryAttr(keys);
    }
    entries.push_back(entry);
  }
  return b.getArrayAttr(entries);
}
