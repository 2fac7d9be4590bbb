//===- SharedMemory.cpp - the GEMM's dynamic shared memory ----------------===//

#include "SharedMemory.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

using namespace mlir;
using namespace mlir::fp8::kernels;
using namespace mlir::fp8::kernels::gemm;

/// The dynamic shared memory's symbol.
static constexpr StringLiteral kSharedSymbol = "fp8_gemm_shared";

void SharedMemory::declare(KernelBuilder &b, gpu::GPUFuncOp kernel) {
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(kernel);
  LLVM::GlobalOp::create(b, LLVM::LLVMArrayType::get(b.getI8Type(), 0),
                         /*isConstant=*/false, LLVM::Linkage::External,
                         kSharedSymbol, Attribute(), /*alignment=*/kSwizzleAtom,
                         /*addrSpace=*/unsigned(NVVM::NVVMMemorySpace::Shared));
}

SharedMemory SharedMemory::get(KernelBuilder &b) {
  auto ptrShared = b.ptrType(NVVM::NVVMMemorySpace::Shared);
  Value raw = LLVM::AddressOfOp::create(b, ptrShared, kSharedSymbol);
  Value rawAddress =
      LLVM::PtrToIntOp::create(b, b.getI32Type(), raw).getResult();
  Value padding = b.andI(b.sub(b.i32(0), rawAddress), kSwizzleAtom - 1);
  Value base =
      b.gep(NVVM::NVVMMemorySpace::Shared, b.getI8Type(), raw, padding);
  return {base, b.add(rawAddress, padding)};
}

Value SharedMemory::ptr(KernelBuilder &b, Value offset) const {
  return b.gep(NVVM::NVVMMemorySpace::Shared, b.getI8Type(), base, offset);
}
