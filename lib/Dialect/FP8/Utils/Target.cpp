//===- Target.cpp - the GPUs fp8-mlir generates code for ------------------===//
//
// Parses chip names once, with a reason for every chip that is refused, and
// answers the hardware questions of the passes and kernel builders.
//
//===----------------------------------------------------------------------===//

#include "fp8/Dialect/FP8/Utils/Target.h"

#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::fp8;

static_assert(Target::kTmaStrideAlignment == kColMajorTmaRowAlignment,
              "the col_major_tma layout is what TMA can load");

/// Why a known chip is not a target: its name without the 'a' suffix, or a
/// GPU whose FP8 path differs from Hopper's and Blackwell's.
static std::optional<StringRef> whyUnsupported(StringRef chip) {
  return llvm::StringSwitch<std::optional<StringRef>>(chip)
      .Case("sm_90", StringRef("wgmma and setmaxnreg are arch-specific "
                               "features of sm_90a; use chip=sm_90a"))
      .Cases({"sm_100", "sm_100f"},
             StringRef("tcgen05 is an arch-specific feature of sm_100a; use "
                       "chip=sm_100a"))
      .Case("sm_89",
            StringRef("Ada (sm_89) has FP8 mma.sync and cvt but no TMA, "
                      "mbarrier transactions, wgmma or tcgen05, which every "
                      "kernel here is built on"))
      .Cases({"sm_80", "sm_86", "sm_87"},
             StringRef("Ampere has no FP8 tensor cores or FP8 conversions"))
      .Cases({"sm_70", "sm_75"},
             StringRef("this GPU has no FP8 tensor cores or FP8 conversions"))
      .Cases({"sm_101a", "sm_103a", "sm_110a"},
             StringRef("only sm_100a's tcgen05 path has been checked with "
                       "ptxas here"))
      .Cases({"sm_120", "sm_120a", "sm_121a"},
             StringRef("consumer Blackwell has no tcgen05 or wgmma: its FP8 "
                       "MMA is mma.sync with block scales, which no kernel "
                       "here uses"))
      .Default(std::nullopt);
}

FailureOr<Target> Target::parse(StringRef chip,
                                function_ref<InFlightDiagnostic()> emitError) {
  if (chip == "sm_90a")
    return Target(Chip::sm_90a);
  if (chip == "sm_100a")
    return Target(Chip::sm_100a);
  InFlightDiagnostic diag = emitError();
  if (chip.empty())
    diag << "no chip given: expected one of " << kSupportedChips;
  else if (std::optional<StringRef> why = whyUnsupported(chip))
    diag << "chip '" << chip << "' is not supported (" << *why
         << "): expected one of " << kSupportedChips;
  else
    diag << "unknown chip '" << chip << "': expected one of "
         << kSupportedChips;
  return failure();
}

StringRef Target::getName() const {
  switch (chip) {
  case Chip::sm_90a:
    return "sm_90a";
  case Chip::sm_100a:
    return "sm_100a";
  }
  llvm_unreachable("unknown chip");
}

StringRef Target::getPtxFeatures() const {
  return isBlackwell() ? "+ptx88" : "+ptx80";
}

int64_t Target::getNumSMs() const { return isBlackwell() ? 148 : 132; }

bool Target::hasNativeBlockScales(ScalingAttr scaling,
                                  int64_t contractingDim) const {
  ArrayRef<int64_t> tile = scaling.getTile();
  if (tile.size() != 2 || (contractingDim != 0 && contractingDim != 1))
    return false;
  return isBlackwell() && tile[contractingDim] == 32 &&
         tile[1 - contractingDim] == 1 &&
         isa<Float8E8M0FNUType>(scaling.getScale());
}

FailureOr<Target>
fp8::resolveTarget(ModuleOp module, StringRef chip,
                   function_ref<InFlightDiagnostic()> emitError) {
  auto recorded =
      module->getAttrOfType<StringAttr>(FP8Dialect::getTargetAttrName());
  if (chip.empty())
    return Target::parse(recorded ? recorded.getValue() : "sm_90a", emitError);
  FailureOr<Target> target = Target::parse(chip, emitError);
  if (failed(target) || !recorded || recorded.getValue() == chip)
    return target;
  // The module's ops were legalized for the recorded chip (sm_90a's K-major
  // transposes and TMA scale layouts, sm_100a's tcgen05 scales): kernels for
  // another chip either fail on them or run the wrong layouts.
  emitError() << "chip=" << chip << " but the module was legalized for "
              << recorded.getValue() << " (" << FP8Dialect::getTargetAttrName()
              << " = " << recorded
              << ", set by fp8-pipeline or fp8-legalize): drop chip= to build "
                 "for "
              << recorded.getValue()
              << ", or run fp8-pipeline with chip=" << chip;
  return failure();
}
