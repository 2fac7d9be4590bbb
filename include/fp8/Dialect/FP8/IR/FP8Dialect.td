//===- FP8Dialect.td - FP8 dialect definition --------------*- tablegen -*-===//
//
// The fp8 dialect: scaled FP8 quantization and matrix multiplication for LLM
// training.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_IR_FP8DIALECT_TD
#define FP8_DIALECT_FP8_IR_FP8DIALECT_TD

include "mlir/IR/OpBase.td"

def FP8_Dialect : Dialect {
  let name = "fp8";
  let cppNamespace = "::mlir::fp8";
  let summary = "FP8 scaled quantization and matrix multiplication";
  let description = [{
    The `fp8` dialect describes FP8 *scaled* tensors and the matrix
    multiplications that consume them, at the level a training compiler
    reasons about them: every FP8 tensor travels with a tensor of
    dequantization scales, and an attribute (`#fp8.scaling`) says which tile
    of the data each scale covers.

    One rule fixes every tile geometry: **a scale must stay constant along
    the contracted dimension of the matmul that consumes it** (within one
    K-block). The verifiers of this dialect enforce that rule; the passes
    derive tiles from it and from a training `#fp8.recipe`.

    ## What goes here?

    * Ops whose semantics involve FP8 scales: quantization, dequantization,
      per-tile amax, lossless transposes of scaled tensors, conversion between
      scaling formats, scaled matrix multiplication, the memory layouts of
      scale tensors that GEMM kernels load (`fp8.tma_align_scales`), and the
      Hadamard rotation used to flatten outliers before quantizing.
    * Attributes describing scale layouts (`#fp8.scaling`,
      `#fp8.scale_layout`) and training policies (`#fp8.recipe`,
      `#fp8.policy`).

    ## What does not go here?

    * Hardware instructions (`wgmma`, `tcgen05`, TMA): they belong to the
      upstream `nvvm` and `nvgpu` dialects, which the conversions target.
    * Generic tensor algebra: plain matmuls, elementwise ops and reshapes stay
      in `linalg`, `tensor` and `arith`.
    * New element types: FP8 types are the builtin `f8E4M3FN`, `f8E5M2` and
      `f8E8M0FNU`.

    Ops have tensor semantics and no side effects; memref forms appear only
    after bufferization.
  }];
  let useDefaultAttributePrinterParser = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let extraClassDeclaration = [{
    void registerAttributes();

    /// `fp8.role = "activation" | "weight" | "gradient"`: the training role of
    /// a function argument, or of the value an `fp8.quantize` quantizes.
    static constexpr ::llvm::StringLiteral getRoleAttrName() {
      return ::llvm::StringLiteral("fp8.role");
    }
    /// `fp8.matmul = "fprop" | "dgrad" | "wgrad"` on an `fp8.scaled_matmul`.
    static constexpr ::llvm::StringLiteral getMatmulAttrName() {
      return ::llvm::StringLiteral("fp8.matmul");
    }
    /// `fp8.recipe = #fp8.recipe<...>` on a function: the recipe its matmuls
    /// were quantized with.
    static constexpr ::llvm::StringLiteral getRecipeAttrName() {
      return ::llvm::StringLiteral("fp8.recipe");
    }
    /// `fp8.amax_history` (unit) on a tensor<H x scales x f32> function
    /// argument: the amax history of delayed scaling, oldest first.
    static constexpr ::llvm::StringLiteral getAmaxHistoryAttrName() {
      return ::llvm::StringLiteral("fp8.amax_history");
    }
    /// `fp8.seed` (unit) on an i64 function argument: the seed of stochastic
    /// rounding.
    static constexpr ::llvm::StringLiteral getSeedAttrName() {
      return ::llvm::StringLiteral("fp8.seed");
    }
    /// `fp8.monitor = "<role>:<source>/tile_amax" | ".../counts"` on a
    /// function result: a quantization statistic that
    /// `fp8-monitor-quantization` returned.
    static constexpr ::llvm::StringLiteral getMonitorAttrName() {
      return ::llvm::StringLiteral("fp8.monitor");
    }
    /// `fp8.target = "sm_90a" | "sm_100a"` on a builtin.module: the chip
    /// that `fp8-legalize` (and so `fp8-pipeline`) legalized the module for,
    /// which kernel generation and `fp8-emit` then build for.
    static constexpr ::llvm::StringLiteral getTargetAttrName() {
      return ::llvm::StringLiteral("fp8.target");
    }
  }];
}

class FP8_Op<string mnemonic, list<Trait> traits = []>
    : Op<FP8_Dialect, mnemonic, traits>;

#endif // FP8_DIALECT_FP8_IR_FP8DIALECT_TD
