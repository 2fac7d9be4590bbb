//===- FP8Enums.td - FP8 dialect enumerations --------------*- tablegen -*-===//
//
// Enumerations used by fp8 attributes and ops.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_IR_FP8ENUMS_TD
#define FP8_DIALECT_FP8_IR_FP8ENUMS_TD

include "fp8/Dialect/FP8/IR/FP8Dialect.td"
include "mlir/IR/EnumAttr.td"

def FP8_ScaleRound : I32EnumAttr<"ScaleRound",
    "how a scale is rounded", [
      I32EnumAttrCase<"exact", 0>,
      // NVIDIA's RCEIL: the dequantization scale rounded up to a power of two.
      I32EnumAttrCase<"pow2_ceil", 1>,
      // The OCP MX rule: floor(log2(amax)) - emax of the element type.
      I32EnumAttrCase<"pow2_floor", 2>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_Rounding : I32EnumAttr<"Rounding",
    "how a value is rounded to FP8", [
      I32EnumAttrCase<"nearest", 0>,
      I32EnumAttrCase<"stochastic", 1>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_Accumulate : I32EnumAttr<"Accumulate",
    "how scaled_matmul accumulates across K-blocks", [
      // Each K-block is accumulated on its own, then scaled and added to f32.
      I32EnumAttrCase<"promoted", 0>,
      // The tensor core's own accumulator runs across blocks (Hopper fast acc).
      I32EnumAttrCase<"fast", 1>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_ScaleLayout : I32EnumAttr<"ScaleLayout",
    "how a matmul operand's scale tensor is laid out in memory", [
      // scale[i / r][k / c]: the operand's own storage order.
      I32EnumAttrCase<"row_major", 0>,
      // The transpose of row_major, each of its rows padded with zeros to a
      // multiple of 16 bytes (TMA's global stride alignment): a Hopper GEMM
      // loads one K-block's scales of consecutive rows with one TMA copy.
      I32EnumAttrCase<"col_major_tma", 1>,
      // sm_100a's scale-factor layout (fp8.tcgen05_scales) of the operand's
      // [rows, K-blocks] E8M0 scales, whichever dim it contracts: 512-byte
      // chunks of 128 rows x 4 K-blocks that tcgen05.cp copies into tensor
      // memory for the block-scaled MMA.
      I32EnumAttrCase<"tcgen05", 2>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_GroupLayout : I32EnumAttr<"GroupLayout",
    "how grouped_scaled_matmul's rows of A are divided into groups", [
      // A is [M, K] with the groups' rows one after another; group g has
      // rows [group_rows[g - 1], group_rows[g]) (from 0 for g = 0).
      I32EnumAttrCase<"contiguous", 0>,
      // A is [G, M, K]; group g has the first group_rows[g] rows of A[g]
      // (decoding: a fixed capacity per expert, a run-time count).
      I32EnumAttrCase<"masked", 1>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_AmaxAlgo : I32EnumAttr<"AmaxAlgo",
    "how delayed scaling reduces its amax history", [
      I32EnumAttrCase<"max", 0>,
      I32EnumAttrCase<"most_recent", 1>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_Role : I32EnumAttr<"Role",
    "the role of a matmul operand in training", [
      I32EnumAttrCase<"activation", 0>,
      I32EnumAttrCase<"weight", 1>,
      I32EnumAttrCase<"gradient", 2>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_MatmulKind : I32EnumAttr<"MatmulKind",
    "which of a linear layer's three training matmuls", [
      I32EnumAttrCase<"fprop", 0>,
      I32EnumAttrCase<"dgrad", 1>,
      I32EnumAttrCase<"wgrad", 2>
    ]> {
  let cppNamespace = "::mlir::fp8";
  let genSpecializedAttr = 0;
}

def FP8_RoundingAttr : EnumAttr<FP8_Dialect, FP8_Rounding, "rounding"> {
  let assemblyFormat = "`<` $value `>`";
}
def FP8_AccumulateAttr : EnumAttr<FP8_Dialect, FP8_Accumulate, "accumulate"> {
  let assemblyFormat = "`<` $value `>`";
}
def FP8_ScaleLayoutAttr : EnumAttr<FP8_Dialect, FP8_ScaleLayout, "scale_layout"> {
  let assemblyFormat = "`<` $value `>`";
}
def FP8_GroupLayoutAttr : EnumAttr<FP8_Dialect, FP8_GroupLayout, "group_layout"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // FP8_DIALECT_FP8_IR_FP8ENUMS_TD
