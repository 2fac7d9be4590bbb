//===- ProgrammaticLaunch.cpp - kernels that may start early --------------===//
//
// A program is a chain of launches, each waiting for the one before it; the
// gap between two (the launch, the CTAs' start, the previous grid's drain)
// is a few microseconds, which short kernels feel. With PDL the next kernel
// is launched while this one drains: its CTAs take the SMs this grid frees
// and wait there (griddepcontrol.wait) until this grid has completed.
//
// Every kernel but the GEMMs waits first of all, before any global access,
// so it is correct whatever it reads or writes; the sm_90a GEMMs place
// their own wait after their setup (Gemm/Sm90/HopperKernel.cpp), and the
// sm_100a GEMM takes no PDL (a waiting CTA would hold tensor memory on an SM
// this grid still uses). `launch_dependents` at entry lets the next grid launch
// once every CTA of this one has started; it cannot hold this grid up, since
// the next grid's CTAs only take what this grid leaves free and wait for
// it to complete. Launched plainly, both instructions do nothing.
//
//===----------------------------------------------------------------------===//

#include "ProgrammaticLaunch.h"

#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/IR/FP8Dialect.h"

#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::fp8;

void kernels::waitForPreviousGridAtEntry(gpu::GPUModuleOp module) {
  for (auto func : module.getOps<gpu::GPUFuncOp>()) {
    auto manifest = func->getAttrOfType<DictionaryAttr>(kManifestAttrName);
    if (!manifest || func.getBody().empty())
      continue;
    OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
    NVVM::GriddepcontrolOp::create(b, func.getLoc(),
                                   NVVM::GridDepActionKind::wait);
    NVVM::GriddepcontrolOp::create(b, func.getLoc(),
                                   NVVM::GridDepActionKind::launch_dependents);
    NamedAttrList entries(manifest);
    entries.set(manifest::kPdl, b.getBoolAttr(true));
    func->setAttr(kManifestAttrName, entries.getDictionary(func.getContext()));
  }
}
