//===- Tcgen05Epilogue.h - the sm_100a GEMM's epilogue warps ----*- C++ -*-===//
//
// The epilogue warps of the sm_100a GEMM: warp w reads lane quarter w % 4
// of an accumulator in tensor memory (tcgen05.ld.32x32b.x32, a row of the
// tile per thread, 32 columns at a time; where promoted, two warps share a
// quarter, each half of the columns), hands the accumulator back
// to the MMA issuer, applies the scales and stores the row to C, masking
// rows and columns past the matrix; or, where the configuration stores
// through TMA, stages 128 bytes of its row in its warp's swizzled buffer and
// one lane stores the warp's 32 rows (TMA clips what lies past the matrix).
// Where promoted, it adds each K-block's
// partial sum times sa * sb to f32 registers first (the sm_90a kernel's and
// the CPU reference's promotion).
//
//===----------------------------------------------------------------------===//

#ifndef FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05EPILOGUE_H
#define FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05EPILOGUE_H

#include "../../Program/KernelBuilder.h"
#include "../Common/GemmProblem.h"
#include "../Common/TileScheduler.h"
#include "Tcgen05Context.h"
#include "Tcgen05GemmConfig.h"
#include "Tcgen05Pipeline.h"

namespace mlir::fp8::kernels::gemm {

/// An epilogue thread: its lane quarter of tensor memory (warp % 4), its
/// row in the tile (32 * quarter + lane) and its first column in the tile
/// (its warp's column group), i32.
struct EpilogueThread {
  Value quarter, rowInTile, colInTile;
  /// The lane, and the warp's index among the epilogue warps.
  Value lane, epilogueWarp;
};

class Tcgen05Epilogue : Tcgen05Context {
public:
  Tcgen05Epilogue(const Tcgen05Context &context, Tcgen05Pipeline &pipeline)
      : Tcgen05Context(context), pipeline(pipeline) {}

  /// `thread` is the CTA's thread index (an epilogue warp's).
  EpilogueThread buildThread(Value thread);
  /// Reads, scales and stores `tile` from accumulator counter `counter`;
  /// returns the counter after the tile's accumulators.
  Value buildTile(Value tmemBase, const EpilogueThread &thread, TileCoord tile,
                  Value counter);
  /// After the last tile: the warp's last TMA store has completed.
  void buildFinish(const EpilogueThread &thread);

private:
  /// Waits for accumulator `counter`; returns the tensor-memory address of
  /// the thread's lane quarter at its first column.
  Value acquire(Value tmemBase, const EpilogueThread &thread, Value counter);
  /// Hands accumulator `counter` back to the MMA issuer once this thread's
  /// loads are done.
  void release(Value counter);
  /// The `count` (32 or 64) f32 columns at `column` of the accumulator at
  /// `address` (tcgen05.ld.32x32b.x32 or .x64).
  SmallVector<Value> loadColumns(Value address, int64_t column, int64_t count);
  /// B's scale of each of the 32 columns from `col` (one value for all where
  /// it is constant over the tile), for K index `k`.
  SmallVector<Value> bScales(Value col, Value k);
  /// Stores the 32 values of a row from column `col` (row < M checked by
  /// the caller), converted to the output type.
  void storeColumns(Value rowOffset, Value col, ArrayRef<Value> values);
  /// `values` of a row converted to C's type in 16-byte vectors (8 bf16
  /// or 4 f32 each).
  SmallVector<Value> packChunks(ArrayRef<Value> values);
  /// Stores the thread's row's 128-byte segment from column `column` of its
  /// group, as eight 16-byte `chunks` (packChunks), through the warp's
  /// staging buffer and a TMA store of the warp's 32 rows.
  void storeSegment(const EpilogueThread &thread, TileCoord tile,
                    int64_t column, ArrayRef<Value> chunks,
                    bool waitFirst = true);
  /// Waits until the warp's last TMA store has read its staging buffer.
  void waitForStaging();
  /// Stores `values`, the row's columns from `column` of its group, as the
  /// configuration says: segments through TMA, or direct stores.
  void storeRow(const EpilogueThread &thread, TileCoord tile, int64_t column,
                ArrayRef<Value> values);

  Tcgen05Pipeline &pipeline;
};

} // namespace mlir::fp8::kernels::gemm

#endif // FP8_LIB_CONVERSION_FP8TONVVM_GEMM_SM100_TCGEN05EPILOGUE_H
