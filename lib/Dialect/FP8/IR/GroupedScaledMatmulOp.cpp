//===- GroupedScaledMatmulOp.cpp - fp8.grouped_scaled_matmul --------------===//
//
// The verifier of the grouped matmul: the group count agrees across B, its
// scales, group_rows and (masked) A and the result; a contiguous A's scale
// tiles cannot span two groups; A's scales are col_major_tma only where
// they are per row of a contiguous A; and each group, as the scaled_matmul
// it computes, passes scaled_matmul's own checks.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/IR/FP8Ops.h"

#include "OpVerification.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"

using namespace mlir;
using namespace mlir::fp8;

/// `type` without its leading (group) dim.
static ShapedType dropGroupDim(ShapedType type) {
  return type.clone(type.getShape().drop_front());
}

LogicalResult GroupedScaledMatmulOp::verify() {
  auto a = cast<ShapedType>(getA().getType());
  auto aScale = cast<ShapedType>(getAScale().getType());
  auto b = cast<ShapedType>(getB().getType());
  auto bScale = cast<ShapedType>(getBScale().getType());
  auto rows = cast<ShapedType>(getGroupRows().getType());
  auto result = cast<ShapedType>(getResult().getType());
  bool masked = getLayout() == GroupLayout::masked;
  int64_t rank = masked ? 3 : 2;
  for (auto [type, name] : {std::pair{a, "a"}, std::pair{aScale, "a_scale"},
                            std::pair{result, "result"}})
    if (type.getRank() != rank)
      return emitOpError() << "expects " << name << " of rank " << rank
                           << " in the " << stringifyGroupLayout(getLayout())
                           << " layout, got " << type.getRank();

  // G: B's, its scales', group_rows' and (masked) A's, A's scales' and the
  // result's leading dim.
  SmallVector<std::pair<ShapedType, const char *>> grouped = {
      {bScale, "b_scale"}, {rows, "group_rows"}};
  if (masked)
    grouped.append({{a, "a"}, {aScale, "a_scale"}, {result, "result"}});
  for (auto [type, name] : grouped)
    if (failed(verifyCompatibleShape(ArrayRef<int64_t>{b.getDimSize(0)},
                                     type.getShape().take_front())))
      return emitOpError() << name << " has " << type.getDimSize(0)
                           << " groups where b has " << b.getDimSize(0);

  // A scale tile of several rows of a contiguous A could hold two groups'
  // rows.
  int64_t tileRows = getAScaling().getTile()[0];
  if (!masked && !ShapedType::isDynamic(tileRows) && tileRows != 1)
    return emitOpError() << "a_scaling tile "
                         << formatTile(getAScaling().getTile()) << " spans "
                         << tileRows
                         << " rows, which may belong to different groups; a "
                            "contiguous A takes tiles of 1 or '*' rows";

  // col_major_tma transposes the scales of all of A's rows as one matrix: a
  // masked A's are one matrix per group, and scales shared by a group's
  // rows (`*`) are one row, which TMA gains nothing from.
  ScaleLayout aLayout = getAScaleLayout();
  if (aLayout == ScaleLayout::tcgen05)
    return emitOpError() << "a_scale_layout tcgen05 is sm_100a's scale-factor "
                            "layout, which no grouped GEMM reads; expected "
                            "row_major or col_major_tma";
  if (aLayout == ScaleLayout::col_major_tma && (masked || tileRows != 1))
    return emitOpError()
           << "a_scale_layout col_major_tma needs a contiguous A with one "
              "scale per row, got the "
           << stringifyGroupLayout(getLayout()) << " layout and a_scaling tile "
           << formatTile(getAScaling().getTile());

  // Each group is a scaled_matmul of K-major operands.
  ShapedType groupA = masked ? dropGroupDim(a) : a;
  ShapedType groupAScale = masked ? dropGroupDim(aScale) : aScale;
  ShapedType groupResult = masked ? dropGroupDim(result) : result;
  return verifyScaledMatmulTypes(*this, groupA, groupAScale, dropGroupDim(b),
                                 dropGroupDim(bScale), groupResult, {1, 1},
                                 getAScaling(), getBScaling(), aLayout,
                                 ScaleLayout::row_major);
}
