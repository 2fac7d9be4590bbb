//===- GridBarrier.cpp - resident CTAs meeting through a workspace --------===//

#include "GridBarrier.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::fp8;
using namespace mlir::fp8::kernels;

Value kernels::scratchAtomic(KernelBuilder &b, Value scratch,
                             arith::AtomicRMWKind kind, Value value,
                             Value index) {
  return memref::AtomicRMWOp::create(b, kind, value, scratch, ValueRange{index})
      .getResult();
}

void kernels::fenceGpu(KernelBuilder &b) {
  NVVM::MembarOp::create(
      b, NVVM::MemScopeKindAttr::get(b.getContext(), NVVM::MemScopeKind::GPU));
}

void kernels::arriveAndWait(KernelBuilder &b, Value scratch, int64_t slot,
                            int64_t numBlocks) {
  scratchAtomic(b, scratch, arith::AtomicRMWKind::addi, b.i32(1),
                b.index(slot));
  auto spin = scf::WhileOp::create(b, TypeRange{}, ValueRange{});
  {
    OpBuilder::InsertionGuard guard(b);
    Block *before = b.createBlock(&spin.getBefore());
    b.setInsertionPointToStart(before);
    Value arrived = scratchAtomic(b, scratch, arith::AtomicRMWKind::addi,
                                  b.i32(0), b.index(slot));
    Value waiting = b.ult(arrived, numBlocks);
    scf::ConditionOp::create(b, waiting, ValueRange{});
    Block *after = b.createBlock(&spin.getAfter());
    b.setInsertionPointToStart(after);
    scf::YieldOp::create(b);
  }
  b.setInsertionPointAfter(spin);
  fenceGpu(b);
}
