//===- Passes.h - fp8-mlir conversion passes --------------------*- C++ -*-===//
//
// Declarations and registration of the passes that lower out of fp8.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_CONVERSION_PASSES_H
#define FP8_CONVERSION_PASSES_H

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"
#include "fp8/Conversion/FP8ToReference/FP8ToReference.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::fp8 {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "fp8/Conversion/Passes.h.inc"

} // namespace mlir::fp8

#endif // FP8_CONVERSION_PASSES_H
