//===- KernelBuilder.h - the builder every kernel file uses -----*- C++ -*-===//
//
// An ImplicitLocOpBuilder with the scalar arithmetic, comparisons and
// pointer types the kernel builders write all the time. Integer helpers
// take the type of their first operand: an int64_t operand becomes a
// constant of that type (i32 in the GEMM, index in the streaming kernels),
// so `mul(row, 16)` reads as it computes.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELBUILDER_H
#define FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELBUILDER_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/ImplicitLocOpBuilder.h"

namespace mlir::fp8::kernels {

class KernelBuilder : public ImplicitLocOpBuilder {
public:
  using ImplicitLocOpBuilder::ImplicitLocOpBuilder;

  // Constants.
  Value i32(int64_t value) {
    return arith::ConstantIntOp::create(*this, value, 32).getResult();
  }
  Value i64(int64_t value) {
    return arith::ConstantIntOp::create(*this, value, 64).getResult();
  }
  Value index(int64_t value) {
    return arith::ConstantIndexOp::create(*this, value).getResult();
  }
  Value f32(double value) {
    return arith::ConstantFloatOp::create(*this, getF32Type(),
                                          APFloat(float(value)))
        .getResult();
  }
  /// An integer or index constant of `type`.
  Value constant(Type type, int64_t value) {
    if (type.isIndex())
      return index(value);
    return arith::ConstantIntOp::create(*this, type, value).getResult();
  }

  // Integer arithmetic; division, remainder and minimum are unsigned.
  Value add(Value x, Value y) { return arith::AddIOp::create(*this, x, y); }
  Value add(Value x, int64_t y) { return add(x, like(x, y)); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(*this, x, y); }
  Value sub(Value x, int64_t y) { return sub(x, like(x, y)); }
  Value mul(Value x, Value y) { return arith::MulIOp::create(*this, x, y); }
  Value mul(Value x, int64_t y) { return mul(x, like(x, y)); }
  Value divU(Value x, Value y) { return arith::DivUIOp::create(*this, x, y); }
  Value divU(Value x, int64_t y) { return divU(x, like(x, y)); }
  Value remU(Value x, Value y) { return arith::RemUIOp::create(*this, x, y); }
  Value remU(Value x, int64_t y) { return remU(x, like(x, y)); }
  Value minU(Value x, Value y) { return arith::MinUIOp::create(*this, x, y); }
  Value andI(Value x, int64_t y) {
    return arith::AndIOp::create(*this, x, like(x, y));
  }
  Value orI(Value x, Value y) { return arith::OrIOp::create(*this, x, y); }
  Value orI(Value x, int64_t y) { return orI(x, like(x, y)); }
  Value xorI(Value x, Value y) { return arith::XOrIOp::create(*this, x, y); }
  Value xorI(Value x, int64_t y) { return xorI(x, like(x, y)); }
  Value shrU(Value x, int64_t y) {
    return arith::ShRUIOp::create(*this, x, like(x, y));
  }
  Value shl(Value x, int64_t y) {
    return arith::ShLIOp::create(*this, x, like(x, y));
  }

  // Comparisons (unsigned).
  Value cmp(arith::CmpIPredicate predicate, Value x, Value y) {
    return arith::CmpIOp::create(*this, predicate, x, y);
  }
  Value ult(Value x, Value y) { return cmp(arith::CmpIPredicate::ult, x, y); }
  Value ult(Value x, int64_t y) { return ult(x, like(x, y)); }
  Value ugt(Value x, Value y) { return cmp(arith::CmpIPredicate::ugt, x, y); }
  Value ugt(Value x, int64_t y) { return ugt(x, like(x, y)); }
  Value eq(Value x, Value y) { return cmp(arith::CmpIPredicate::eq, x, y); }
  Value eq(Value x, int64_t y) { return eq(x, like(x, y)); }
  Value ne(Value x, Value y) { return cmp(arith::CmpIPredicate::ne, x, y); }
  Value ne(Value x, int64_t y) { return ne(x, like(x, y)); }

  // Conversions.
  /// An index as i32 (zero-extended where narrower; kernel indices fit).
  Value toI32(Value indexValue) {
    return arith::IndexCastUIOp::create(*this, getI32Type(), indexValue);
  }
  Value extUI64(Value x) {
    return arith::ExtUIOp::create(*this, getI64Type(), x);
  }

  // Pointers.
  LLVM::LLVMPointerType ptrType(NVVM::NVVMMemorySpace space) {
    return LLVM::LLVMPointerType::get(getContext(), unsigned(space));
  }
  /// `pointer` in address space `space`.
  Value castTo(NVVM::NVVMMemorySpace space, Value pointer) {
    return LLVM::AddrSpaceCastOp::create(*this, ptrType(space), pointer);
  }
  /// &base[offset] for elements of `elementType` in `space`.
  Value gep(NVVM::NVVMMemorySpace space, Type elementType, Value base,
            Value offset) {
    return LLVM::GEPOp::create(*this, ptrType(space), elementType, base,
                               ValueRange{offset});
  }

  //===--------------------------------------------------------------------===//
  // Added for the streaming kernels (quantize, dequantize, transpose,
  // cast-transpose, Hadamard, scale alignment).
  //===--------------------------------------------------------------------===//

  Value andI(Value x, Value y) { return arith::AndIOp::create(*this, x, y); }
  Value bitcast(Type type, Value x) {
    return arith::BitcastOp::create(*this, type, x);
  }

  // Floating-point arithmetic.
  Value mulF(Value x, Value y) { return arith::MulFOp::create(*this, x, y); }
  /// The NaN-propagating maximum.
  Value maxF(Value x, Value y) {
    return arith::MaximumFOp::create(*this, x, y);
  }
  /// |x| as max(x, -x): NaN-propagating, and no libdevice call.
  Value absF(Value x) {
    Value negated = arith::NegFOp::create(*this, x);
    return maxF(x, negated);
  }

  // The x coordinates of the launch.
  Value threadIdX() {
    return gpu::ThreadIdOp::create(*this, gpu::Dimension::x);
  }
  Value blockIdX() { return gpu::BlockIdOp::create(*this, gpu::Dimension::x); }
  Value globalIdX() {
    return gpu::GlobalIdOp::create(*this, gpu::Dimension::x);
  }

  /// A shared-memory buffer type for a gpu.func workgroup attribution. It
  /// names the GPU dialect's workgroup space, not NVVMMemorySpace::Shared:
  /// gpu.func's verifier wants that attribute, and the lowering to NVVM maps
  /// it to the shared space.
  MemRefType workgroupMemRef(ArrayRef<int64_t> shape, Type elementType) {
    auto workgroup = gpu::AddressSpaceAttr::get(
        getContext(), gpu::GPUDialect::getWorkgroupAddressSpace());
    return MemRefType::get(shape, elementType, nullptr, workgroup);
  }

private:
  /// A constant of `x`'s type.
  Value like(Value x, int64_t value) { return constant(x.getType(), value); }
};

} // namespace mlir::fp8::kernels

#endif // FP8_LIB_CONVERSION_FP8TONVVM_PROGRAM_KERNELBUILDER_H
