//===- Emit.cpp - fp8-emit: PTX files and the kernel manifest -------------===//
//
// fp8-emit generates the module's kernels where convert-fp8-to-nvvm has not
// run, lowers a copy of them to PTX and writes DIR/<kernel>.ptx and
// DIR/manifest.json (the kernels, and each function's launch plan), so that
// the program runs without MLIR (runtime/, tools/fp8-run). Each
// PTX file starts with a comment saying where the kernel came from and what
// its parameters are, and carries .loc line info back to the MLIR op.
//
//===----------------------------------------------------------------------===//

#include "fp8/Conversion/FP8ToNVVM/FP8ToNVVM.h"

#include "LaunchPlan.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Conversion/Passes.h"
#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "fp8/Dialect/FP8/Utils/PassOptions.h"
#include "fp8/Dialect/FP8/Utils/Target.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::fp8 {
#define GEN_PASS_DEF_FP8EMIT
#include "fp8/Conversion/Passes.h.inc"
} // namespace mlir::fp8

using namespace mlir;
using namespace mlir::fp8;
namespace schema = mlir::fp8::manifest;

/// The PTX text of a serialized kernel module.
static FailureOr<StringRef> getPTX(gpu::BinaryOp binary) {
  for (Attribute object : binary.getObjects())
    if (auto gpuObject = dyn_cast<gpu::ObjectAttr>(object))
      return gpuObject.getObject().getValue();
  return binary.emitError("no PTX object in this gpu.binary");
}

/// Converts a manifest attribute to JSON.
static llvm::json::Value toJSON(Attribute attr) {
  if (auto str = dyn_cast<StringAttr>(attr))
    return str.getValue().str();
  if (auto flag = dyn_cast<BoolAttr>(attr))
    return flag.getValue();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return integer.getInt();
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    llvm::json::Array values;
    for (Attribute element : array)
      values.push_back(toJSON(element));
    return values;
  }
  if (auto dict = dyn_cast<DictionaryAttr>(attr)) {
    llvm::json::Object object;
    for (NamedAttribute entry : dict)
      object[entry.getName().getValue()] = toJSON(entry.getValue());
    return object;
  }
  return nullptr;
}

static std::string joinIntegers(const llvm::json::Array *values,
                                StringRef separator) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (!values)
    return text;
  llvm::interleave(
      *values, os, [&](const llvm::json::Value &v) { os << *v.getAsInteger(); },
      separator);
  return text;
}

/// The comment that opens a kernel's PTX: where it came from, its launch,
/// and its parameters in order, as the manifest lists them.
static std::string buildHeader(StringRef name, const llvm::json::Object &entry,
                               const Target &target) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto str = [&](StringRef key) {
    return entry.getString(key).value_or("").str();
  };
  os << "//\n// fp8-mlir kernel " << name << ": " << str(schema::kOp);
  if (std::string location = str(schema::kLocation); !location.empty())
    os << " at " << location;
  os << "\n// " << target.getName() << ", grid ["
     << joinIntegers(entry.getArray(schema::kGrid), ", ") << "], block ["
     << joinIntegers(entry.getArray(schema::kBlock), ", ") << "], "
     << entry.getInteger(schema::kSharedBytes).value_or(0)
     << " bytes of dynamic shared memory\n";
  os << "// Parameters (each a device pointer; a tensor map points to a "
        "CUtensorMap):\n";
  const llvm::json::Array *params = entry.getArray(schema::kParams);
  for (auto [index, value] :
       llvm::enumerate(params ? *params : llvm::json::Array())) {
    const llvm::json::Object *param = value.getAsObject();
    auto field = [&](StringRef key) {
      return param->getString(key).value_or("").str();
    };
    os << "//   "
       << llvm::left_justify(name.str() + "_param_" + std::to_string(index),
                             name.size() + 10)
       << llvm::left_justify(field(schema::kName), 12)
       << llvm::left_justify(field(schema::kRole), 10);
    if (field(schema::kRole) == schema::kRoleTensorMap)
      os << "of " << field(schema::kTensor) << ", box ["
         << joinIntegers(param->getArray(schema::kBox), " x ") << "], swizzle "
         << field(schema::kSwizzle);
    else
      os << llvm::left_justify(field(schema::kDType), 8) << "["
         << joinIntegers(param->getArray(schema::kShape), " x ") << "]";
    os << "\n";
  }
  os << "//\n";
  return text;
}

FailureOr<EmittedProgram>
fp8::emitProgram(ModuleOp module, const Target &target, bool lineInfo) {
  // Manifests live on the kernels, which serialization replaces: collect
  // them (with the kernel's source location) first, then serialize a copy.
  llvm::StringMap<llvm::json::Object> entries;
  SmallVector<std::string> order;
  module.walk([&](gpu::GPUFuncOp func) {
    auto manifest = func->getAttrOfType<DictionaryAttr>(kManifestAttrName);
    if (!manifest)
      return;
    llvm::json::Object entry = *toJSON(manifest).getAsObject();
    if (std::string location = formatLocation(func.getLoc()); !location.empty())
      entry[schema::kLocation] = location;
    entries[func.getName()] = std::move(entry);
    order.push_back(func.getName().str());
  });
  if (entries.empty())
    return emitError(module.getLoc(),
                     "no kernels to emit: the module has no ops to run");
  // The program of every function that launches kernels.
  llvm::json::Array functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    bool launches = false;
    func.walk([&](Operation *op) { launches |= op->hasAttr(kKernelAttrName); });
    if (!launches)
      continue;
    FailureOr<llvm::json::Object> plan = buildLaunchPlan(func, entries);
    if (failed(plan))
      return failure();
    functions.push_back(std::move(*plan));
  }

  OwningOpRef<ModuleOp> copy = module.clone();
  PassManager pm(module.getContext());
  buildKernelToPTXPipeline(pm, lineInfo);
  if (failed(pm.run(*copy)))
    return failure();
  llvm::StringMap<std::string> ptxByKernel;
  WalkResult walk = copy->walk([&](gpu::BinaryOp binary) {
    FailureOr<StringRef> ptx = getPTX(binary);
    if (failed(ptx))
      return WalkResult::interrupt();
    ptxByKernel[binary.getName()] = ptx->str();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  EmittedProgram program;
  llvm::json::Array kernels;
  for (const std::string &name : order) {
    llvm::json::Object entry = std::move(entries[name]);
    entry[schema::kName] = name;
    entry[schema::kPtx] = name + ".ptx";
    auto ptx = ptxByKernel.find(name);
    if (ptx == ptxByKernel.end())
      return emitError(module.getLoc()) << "kernel " << name << " has no PTX";
    program.ptx.push_back(
        {name + ".ptx", buildHeader(name, entry, target) + ptx->second});
    kernels.push_back(std::move(entry));
  }
  llvm::json::Object manifest;
  manifest[schema::kVersionKey] = schema::kVersion;
  manifest[schema::kChip] = target.getName().str();
  manifest[schema::kKernels] = std::move(kernels);
  manifest[schema::kFunctions] = std::move(functions);
  llvm::raw_string_ostream os(program.manifest);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(manifest))) << "\n";
  return program;
}

void fp8::remarkIfNeverRun(Location loc, const Target &target) {
  // No Blackwell GPU has been available: the sm_100a kernels are checked
  // by ptxas and by reading their SASS, never by running them.
  if (target.isBlackwell())
    emitRemark(loc) << "fp8-emit: " << target.getName()
                    << " kernels are checked with ptxas only: this project "
                       "has not run them on a Blackwell GPU";
}

/// Writes `program` into `dir` (its PTX files and manifest.json) so that a
/// failure leaves the directory as it was: every file is written to a
/// temporary beside its place, and only when all are written are they
/// renamed into place, the PTX files before the manifest that names them;
/// then the PTX files of an earlier emission that this one lacks go.
static LogicalResult writeProgram(Location loc, const EmittedProgram &program,
                                  StringRef dir) {
  std::error_code error = llvm::sys::fs::create_directories(dir);
  if (!error && !llvm::sys::fs::is_directory(dir))
    error = std::make_error_code(std::errc::not_a_directory);
  if (error)
    return emitError(loc) << "cannot create " << dir << ": " << error.message();
  struct File {
    std::string path, temporary;
    StringRef contents;
  };
  SmallVector<File> files;
  auto add = [&](StringRef name, StringRef contents) {
    SmallString<128> path(dir);
    llvm::sys::path::append(path, name);
    files.push_back({path.str().str(), (path + ".tmp").str(), contents});
  };
  for (const auto &[name, text] : program.ptx)
    add(name, text);
  add("manifest.json", program.manifest);

  // A directory (or anything but a file) in a file's place would fail its
  // rename after others had been renamed: refuse before writing.
  for (const File &file : files) {
    llvm::sys::fs::file_status status;
    if (!llvm::sys::fs::status(file.path, status) &&
        llvm::sys::fs::exists(status) &&
        !llvm::sys::fs::is_regular_file(status))
      return emitError(loc) << "cannot write " << file.path
                            << ": something other than a file is there";
  }
  auto removeTemporaries = [&](size_t from) {
    for (size_t n = from; n < files.size(); ++n)
      llvm::sys::fs::remove(files[n].temporary);
  };
  for (size_t n = 0; n < files.size(); ++n) {
    const File &file = files[n];
    std::error_code writeError;
    {
      llvm::raw_fd_ostream os(file.temporary, writeError);
      if (!writeError) {
        os << file.contents;
        os.close();
        // Taken, so that the stream's destructor does not abort on it.
        writeError = os.error();
        os.clear_error();
      }
    }
    if (writeError) {
      removeTemporaries(0);
      return emitError(loc)
             << "cannot write " << file.path << ": " << writeError.message();
    }
  }
  for (size_t n = 0; n < files.size(); ++n) {
    if (std::error_code renameError =
            llvm::sys::fs::rename(files[n].temporary, files[n].path)) {
      removeTemporaries(n);
      return emitError(loc) << "cannot write " << files[n].path << ": "
                            << renameError.message();
    }
  }

  llvm::StringSet<> written;
  for (const auto &[name, text] : program.ptx)
    written.insert(name);
  for (llvm::sys::fs::directory_iterator it(dir, error), end;
       it != end && !error; it.increment(error)) {
    StringRef name = llvm::sys::path::filename(it->path());
    if (name.ends_with(".ptx") && !written.contains(name))
      llvm::sys::fs::remove(it->path());
  }
  return success();
}

namespace {
struct FP8EmitPass : fp8::impl::FP8EmitBase<FP8EmitPass> {
  using Base::Base;

  LogicalResult initializeOptions(
      StringRef options,
      function_ref<LogicalResult(const Twine &)> errorHandler) override {
    // The old positional form, --fp8-emit=DIR.
    StringRef word = options.trim();
    if (!word.empty() && !word.contains('=') && !word.contains(' ') &&
        failed(checkOptionNames(*this, word,
                                [](const Twine &) { return failure(); })))
      return errorHandler("fp8-emit: '" + word +
                          "' is not an option: the directory is given as "
                          "dir=, --fp8-emit=dir=" +
                          word);
    if (failed(checkOptionNames(*this, options, errorHandler)))
      return failure();
    return Base::initializeOptions(options, errorHandler);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Option errors point at the first op that needs a kernel.
    Location optionLoc = getOptionLoc(module, needsKernel);
    if (dir.empty()) {
      emitError(optionLoc, "fp8-emit needs a directory: "
                           "--fp8-emit=\"dir=DIR chip=CHIP\"");
      return signalPassFailure();
    }
    FailureOr<Target> target = resolveTarget(
        module, chip, [&] { return emitError(optionLoc, "fp8-emit: "); });
    if (failed(target))
      return signalPassFailure();
    remarkIfNeverRun(optionLoc, *target);
    // Kernels for the ops that have none yet.
    OpPassManager convert(ModuleOp::getOperationName());
    ConvertFP8ToNVVMOptions options;
    options.chip = target->getName().str();
    convert.addPass(createConvertFP8ToNVVM(options));
    if (failed(runPipeline(convert, module)))
      return signalPassFailure();
    FailureOr<EmittedProgram> program = emitProgram(module, *target, lineInfo);
    if (failed(program) || failed(writeProgram(optionLoc, *program, dir)))
      return signalPassFailure();
    markAllAnalysesPreserved();
  }
};
} // namespace
