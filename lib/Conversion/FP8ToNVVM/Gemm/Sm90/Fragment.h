//===- Fragment.h - a consumer thread's part of the accumulator -*- C++ -*-===//
//
// Where a consumer thread's accumulator elements lie in C, and the scales
// that go with them. The MMA defines the layout (HopperMainLoop builds the
// fragment of a wgmma m64nN accumulator); the scales and the epilogue read
// it from here and know nothing else of the MMA.
//
// The layout: a thread holds rows r and r + 8 of its consumer's 64-row
// group (r = 16 * warp + lane / 4) and columns 8j + c + {0, 1} of the tile
// (c = 2 * (lane % 4)); element i is at row r + 8 * ((i / 2) % 2) and column
// 8 * (i / 4) + c + i % 2.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_FRAGMENT_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_FRAGMENT_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/ScaleLoads.h"
#include "../Common/TileScheduler.h"
#include "HopperContext.h"
#include "HopperGemmConfig.h"

namespace mlir::fp8::kernels::gemm {

/// A consumer thread's fragment of the accumulator (all i32).
struct ThreadFragment {
  /// The consumer warpgroup (0-based, the same in every lane) and the lane.
  Value consumer, lane;
  /// The thread's first row in its 64-row group, and its first column in
  /// the tile.
  Value groupRow, colInTile;
  /// The tile's 64-row slice that the accumulator holds (the consumer's
  /// own, or a split tile's sub-tile), and the thread's first row in the
  /// tile.
  Value rowGroup, rowInTile;
  /// The thread's two rows and first column in C (set by atTile).
  Value row0, row1, laneCol;

  /// The same thread holding 64-row slice `group` of the tile.
  ThreadFragment forGroup(KernelBuilder &b, Value group) const;
  /// The same thread in `tile`: its rows and first column in C.
  ThreadFragment atTile(KernelBuilder &b, TileCoord tile) const;
  /// The thread's index in its warpgroup (0 to 127).
  Value localThread(KernelBuilder &b) const;

  /// Which of the thread's two rows element `element` is on (0 or 1), and
  /// which of its column pairs (columns 8 * pair + colInTile + {0, 1}).
  static int64_t rowHalf(int64_t element) { return (element / 2) % 2; }
  static int64_t columnPair(int64_t element) { return element / 4; }
};

/// The f32 scales of a thread's elements: A's (one, or one per row of the
/// thread) and B's (one, or one per column of the thread).
struct FragmentScales {
  SmallVector<Value> a, b;

  /// A's scale of row `half` and B's of column 2 * `pair` + `column` (null
  /// when there is none).
  Value aScale(int64_t half) const {
    return a.empty() ? Value() : a.size() == 1 ? a[0] : a[half];
  }
  Value bScale(int64_t pair, int64_t column) const {
    return b.empty() ? Value() : b.size() == 1 ? b[0] : b[2 * pair + column];
  }
};

/// Reads the scales of a thread's elements from global memory (L2
/// resident) or from the stage that TMA brought them with.
class ScaleReader : HopperContext {
public:
  explicit ScaleReader(const HopperContext &context) : HopperContext(context) {}

  /// The scales that vary along K of the K-slice at `kIndex`, but those
  /// that TMA brings with the stage (readFromStage adds these).
  FragmentScales loadBlockScales(Value kIndex, const ThreadFragment &fragment,
                                 TileCoord tile);
  /// The scales that span K, which the epilogue applies.
  FragmentScales loadEpilogueScales(const ThreadFragment &fragment,
                                    TileCoord tile);
  /// Completes loadBlockScales' `scales` of the K-block at `kIndex` of
  /// `tile`: adds those that TMA brought with `stage`, and gives each
  /// column of a tile that straddles two of B's row blocks its block's.
  void readFromStage(Value stage, Value kIndex, const ThreadFragment &fragment,
                     TileCoord tile, FragmentScales &scales);

private:
  /// Whether the tile straddles two of B's row blocks, whose scales
  /// loadBlockScales loads as two and readFromStage spreads over the
  /// columns.
  bool straddlesBScales() const {
    return config.bScalePerColumn && problem.bScaling.rowBlock != 1;
  }
  FragmentScales load(Value kIndex, const ThreadFragment &fragment,
                      TileCoord tile, bool kBlockOnly);
  /// scale[min(row, rows - 1) / rowBlock][k / kBlock] as f32.
  Value loadScale(Value scales, const OperandScaling &scaling, Value row,
                  Value kIndex, int64_t rows);
  /// `width` f32 scales at index `index` of `stage`'s scales, which start at
  /// `regionOffset` and take `bytes` per stage.
  SmallVector<Value> readStage(Value stage, int64_t regionOffset, int64_t bytes,
                               Value index, int64_t width);
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM90_FRAGMENT_H
