//===- Target.h - the GPUs fp8-mlir generates code for ----------*- C++ -*-===//
//
// One description per supported chip: every fact a pass or a kernel builder
// needs about the hardware (operand majorness, MMA shapes, TMA alignment,
// native scale formats, PTX version) lives here, and the chip name is
// parsed in one place. Unsupported chips get a diagnostic that says why.
// What this compiler's kernels choose to take (tiles, which scales a GEMM
// loads by TMA) is kernel policy and lives beside them: GemmShapes.h,
// CastTransposeShapes.h.
//
//===----------------------------------------------------------------------===//

#ifndef FP8_DIALECT_FP8_UTILS_TARGET_H
#define FP8_DIALECT_FP8_UTILS_TARGET_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
class ModuleOp;
namespace fp8 {
class ScalingAttr;

/// The architectures with FP8 code generation.
enum class Chip {
  /// Hopper (H100, H200): wgmma, TMA, mbarriers.
  sm_90a,
  /// Blackwell datacenter (B200, GB200): tcgen05 with block-scaled MMA.
  sm_100a,
};

/// What the passes and kernel builders may assume about one chip.
class Target {
public:
  /// The target named `chip` ("sm_90a", "sm_100a"); otherwise an error,
  /// reported through `emitError`, that names the supported chips and, for
  /// known GPUs, why they are not among them.
  static FailureOr<Target> parse(StringRef chip,
                                 function_ref<InFlightDiagnostic()> emitError);
  /// The chip names `parse` accepts, for option help and diagnostics.
  static constexpr StringLiteral kSupportedChips = "sm_90a, sm_100a";

  explicit Target(Chip chip) : chip(chip) {}

  Chip getChip() const { return chip; }
  /// The name PTX and the NVVM target attribute use ("sm_90a").
  StringRef getName() const;
  bool isHopper() const { return chip == Chip::sm_90a; }
  bool isBlackwell() const { return chip == Chip::sm_100a; }

  /// The NVVM target features: the PTX ISA version the generated code
  /// needs. sm_90a's FP8 conversions and wgmma are in PTX 8.0; sm_100a's
  /// tcgen05 block-scaled MMA (block32) needs PTX 8.8 (LLVM 22 aborts on
  /// 8.6 and 8.7).
  StringRef getPtxFeatures() const;

  /// Whether the MMA reads FP8 operands only K-major (wgmma: both operands
  /// from shared memory with K contiguous). tcgen05 reads either major for
  /// 8-bit types (the instruction descriptor's transpose bits 15/16; only
  /// the 6- and 4-bit formats are K-major only, PTX ISA Table 43).
  bool needsKMajorOperands() const { return isHopper(); }

  /// The K of one FP8 MMA instruction (wgmma m64nNk32; tcgen05 kind::f8f6f4
  /// K = 32): the finest step at which a scale can change between
  /// tensor-core products.
  int64_t getMmaK() const { return 32; }

  /// Whether the MMA applies scales of `scaling`, on an operand that
  /// contracts its matrix dim `contractingDim`, itself (tcgen05's
  /// block-scaled kind::mxf8f6f4: one E8M0 scale per row and 32 of K, tile
  /// [1, 32] on a K-major operand, [32, 1] on an MN-major one). Elsewhere
  /// the kernel promotes partial sums in registers. fp8-legalize puts
  /// exactly these in the tcgen05 scale layout.
  bool hasNativeBlockScales(ScalingAttr scaling, int64_t contractingDim) const;

  /// Whether the chip has a scaled_matmul kernel in this compiler: the
  /// sm_90a wgmma GEMM and the sm_100a tcgen05 GEMM.
  bool hasGemmKernel() const { return isHopper() || isBlackwell(); }

  /// Streaming multiprocessors of the reference part (H100 SXM: 132; B200:
  /// 148), for grid sizes and tile heuristics.
  int64_t getNumSMs() const;

  /// Shared memory one CTA may use (227 KiB on both).
  int64_t getSharedMemoryPerBlock() const { return 227 * 1024; }

  /// TMA (cp.async.bulk.tensor) needs every row stride of a global tensor
  /// to be a multiple of this many bytes.
  static constexpr int64_t kTmaStrideAlignment = 16;

  bool operator==(const Target &other) const { return chip == other.chip; }

private:
  Chip chip;
};

/// The chip that kernel generation and emission (convert-fp8-to-nvvm,
/// fp8-emit, fp8EmitProgram) build `module` for: `chip` where one is given
/// (non-empty), which must agree with the chip the module was legalized
/// for (its `fp8.target`, set by fp8-legalize) where it has one; otherwise
/// the module's `fp8.target`; otherwise sm_90a. Errors go through
/// `emitError`, which starts the message (e.g. with "fp8-emit: ").
FailureOr<Target> resolveTarget(ModuleOp module, StringRef chip,
                                function_ref<InFlightDiagnostic()> emitError);

} // namespace fp8
} // namespace mlir

#endif // FP8_DIALECT_FP8_UTILS_TARGET_H
