//===- LaunchPlan.cpp - a function's kernels as a program -----------------===//
//
// Walks a function in program order: an op tagged with a kernel becomes a
// launch at its kernel's first op, each kernel parameter bound (through
// `fp8.kernel_args`) to the buffer of a value; reshapes become views; ops
// whose values no launch reads need nothing. Intermediates are then packed
// into one workspace, a buffer's bytes reused once its last reader has run.
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

#include "KernelUtils.h"
#include "fp8/Conversion/FP8ToNVVM/ManifestSchema.h"
#include "fp8/Dialect/FP8/IR/FP8Dialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::fp8;
namespace schema = mlir::fp8::manifest;
namespace json = llvm::json;

/// The label fp8-split-forward-backward gives what crosses between a
/// training function's forward and backward.
static constexpr StringLiteral kSavedAttr = "fp8.saved";

std::string fp8::formatLocation(Location loc) {
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc))
    return (fileLoc.getFilename().getValue() + ":" + Twine(fileLoc.getLine()) +
            ":" + Twine(fileLoc.getColumn()))
        .str();
  if (auto nameLoc = dyn_cast<NameLoc>(loc))
    return formatLocation(nameLoc.getChildLoc());
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return formatLocation(callSite.getCallee());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (std::string text = formatLocation(inner); !text.empty())
        return text;
  return "";
}

namespace {
enum class Kind { argument, result, intermediate, zeroed, view };

StringRef kindName(Kind kind) {
  switch (kind) {
  case Kind::argument:
    return schema::kKindArgument;
  case Kind::result:
    return schema::kKindResult;
  case Kind::intermediate:
    return schema::kKindIntermediate;
  case Kind::zeroed:
    return schema::kKindZeroed;
  case Kind::view:
    return schema::kKindView;
  }
  llvm_unreachable("unknown buffer kind");
}

struct Buffer {
  Kind kind;
  std::string name;
  std::string dtype;
  SmallVector<int64_t> shape;
  int64_t bytes = 0;
  int64_t index = -1;   // Arguments and results.
  int64_t offset = 0;   // Intermediates and zeroed buffers.
  int64_t of = -1;      // Views.
  int64_t written = 0;  // Intermediates: the launch that writes it,
  int64_t lastRead = 0; // and the last that reads it.
  std::string monitor;  // Results: the statistic's `fp8.monitor` label.
  std::string saved;    // Arguments and results: the `fp8.saved` label.
};

struct Launch {
  std::string kernel, op, location;
  SmallVector<int64_t> args;
};

int64_t numElements(ArrayRef<int64_t> shape) {
  int64_t count = 1;
  for (int64_t extent : shape)
    count *= extent;
  return count;
}

/// The bytes of one element of a manifest dtype.
int64_t dtypeBytes(StringRef dtype) {
  return llvm::StringSwitch<int64_t>(dtype)
      .Cases({"f64", "i64"}, 8)
      .Cases({"f32", "i32"}, 4)
      .Cases({"bf16", "f16"}, 2)
      .Default(1);
}

class PlanBuilder {
public:
  PlanBuilder(func::FuncOp func, const llvm::StringMap<json::Object> &kernels)
      : func(func), kernels(kernels) {}

  FailureOr<json::Object> build();

private:
  int64_t addBuffer(Kind kind, std::string name, Type type);
  int64_t addBuffer(Kind kind, std::string name, StringRef dtype,
                    ArrayRef<int64_t> shape, int64_t bytes);
  int64_t getRoot(int64_t id) const {
    return buffers[id].kind == Kind::view ? buffers[id].of : id;
  }
  /// A view of `id` with `shape` (or `id` itself where it has that shape).
  int64_t getView(int64_t id, ArrayRef<int64_t> shape);
  /// The buffer holding `value`, which a launch or the return reads.
  FailureOr<int64_t> lookup(Value value, Operation *reader);
  /// The value that parameter `param` of the kernel of `ops` carries.
  FailureOr<Value> getBoundValue(ArrayRef<Operation *> ops, StringRef kernel,
                                 StringRef param);
  LogicalResult addLaunch(StringRef kernel, ArrayRef<Operation *> ops);
  LogicalResult addResults(func::ReturnOp op);
  void packIntermediates();
  json::Object toJSON();

  func::FuncOp func;
  const llvm::StringMap<json::Object> &kernels;
  DenseMap<Value, int64_t> valueBuffers;
  /// The result of each reshape of a buffer's value, and that buffer: its
  /// view is made where a launch or the return reads it.
  DenseMap<Value, int64_t> reshapes;
  SmallVector<Buffer> buffers;
  SmallVector<Launch> launches;
  SmallVector<int64_t> arguments, results;
  int64_t workspaceBytes = 0, zeroedBytes = 0;
};
} // namespace

int64_t PlanBuilder::addBuffer(Kind kind, std::string name, StringRef dtype,
                               ArrayRef<int64_t> shape, int64_t bytes) {
  Buffer buffer;
  buffer.kind = kind;
  buffer.name = std::move(name);
  buffer.dtype = dtype.str();
  buffer.shape.assign(shape.begin(), shape.end());
  buffer.bytes = bytes;
  buffers.push_back(std::move(buffer));
  return buffers.size() - 1;
}

int64_t PlanBuilder::addBuffer(Kind kind, std::string name, Type type) {
  Type element = type;
  SmallVector<int64_t> shape;
  if (auto tensor = dyn_cast<RankedTensorType>(type)) {
    element = tensor.getElementType();
    shape.assign(tensor.getShape().begin(), tensor.getShape().end());
  }
  int64_t elementBytes = llvm::divideCeil(element.getIntOrFloatBitWidth(), 8);
  return addBuffer(kind, std::move(name), kernels::dtypeName(element), shape,
                   numElements(shape) * elementBytes);
}

int64_t PlanBuilder::getView(int64_t id, ArrayRef<int64_t> shape) {
  if (ArrayRef<int64_t>(buffers[id].shape) == shape)
    return id;
  int64_t root = getRoot(id);
  for (auto [index, buffer] : llvm::enumerate(buffers))
    if (buffer.kind == Kind::view && buffer.of == root &&
        ArrayRef<int64_t>(buffer.shape) == shape)
      return index;
  std::string name = buffers[root].name + ".view";
  int64_t view = addBuffer(Kind::view, name, buffers[root].dtype, shape,
                           buffers[root].bytes);
  buffers[view].of = root;
  return view;
}

FailureOr<int64_t> PlanBuilder::lookup(Value value, Operation *reader) {
  auto it = valueBuffers.find(value);
  if (it != valueBuffers.end())
    return it->second;
  if (auto reshaped = reshapes.find(value); reshaped != reshapes.end())
    return getView(reshaped->second,
                   cast<RankedTensorType>(value.getType()).getShape());
  Operation *producer = value.getDefiningOp();
  if (!producer)
    return reader->emitOpError("fp8-emit: reads a value that no buffer holds");
  InFlightDiagnostic diag =
      producer->emitOpError("fp8-emit: has no GPU kernel, and ");
  if (isa<func::ReturnOp>(reader))
    diag << "the function returns its result";
  else
    diag << "'" << reader->getName() << "' reads its result";
  diag.attachNote(reader->getLoc()) << "read here";
  return diag;
}

FailureOr<Value> PlanBuilder::getBoundValue(ArrayRef<Operation *> ops,
                                            StringRef kernel, StringRef param) {
  for (Operation *op : ops) {
    auto bindings = op->getAttrOfType<DictionaryAttr>(kKernelArgsAttrName);
    auto binding = bindings ? bindings.getAs<StringAttr>(param) : nullptr;
    if (!binding)
      continue;
    auto [what, number] = binding.getValue().split(' ');
    unsigned index;
    if (number.getAsInteger(10, index))
      break;
    if (what == "operand" && index < op->getNumOperands())
      return op->getOperand(index);
    if (what == "result" && index < op->getNumResults())
      return Value(op->getResult(index));
    break;
  }
  return ops.front()->emitOpError("fp8-emit: parameter '")
         << param << "' of kernel " << kernel
         << " is bound to no operand or result (" << kKernelArgsAttrName << ")";
}

LogicalResult PlanBuilder::addLaunch(StringRef kernel,
                                     ArrayRef<Operation *> ops) {
  auto entry = kernels.find(kernel);
  if (entry == kernels.end())
    return ops.front()->emitOpError("fp8-emit: kernel ")
           << kernel << " is not in the module";
  const json::Array *params = entry->second.getArray(schema::kParams);
  Launch launch;
  launch.kernel = kernel.str();
  launch.op = entry->second.getString(schema::kOp).value_or("").str();
  launch.location = formatLocation(ops.front()->getLoc());
  int64_t current = launches.size();
  SmallVector<StringRef> names;
  SmallVector<int64_t> reads;
  // A kernel's workspaces lie side by side in the zeroed region; those of
  // different launches share it (each launch leaves it zero).
  int64_t zeroedOffset = 0;
  for (const json::Value &value : *params) {
    const json::Object &param = *value.getAsObject();
    StringRef name = *param.getString(schema::kName);
    StringRef role = *param.getString(schema::kRole);
    names.push_back(name);
    if (role == schema::kRoleTensorMap) {
      // Resolved below, once every buffer parameter has its buffer.
      launch.args.push_back(-1);
      continue;
    }
    SmallVector<int64_t> shape;
    for (const json::Value &extent : *param.getArray(schema::kShape))
      shape.push_back(*extent.getAsInteger());
    StringRef dtype = *param.getString(schema::kDType);
    int64_t bytes = numElements(shape) * dtypeBytes(dtype);
    if (role == schema::kRoleWorkspace) {
      int64_t id = addBuffer(Kind::zeroed, (kernel + "." + name).str(), dtype,
                             shape, bytes);
      buffers[id].offset = zeroedOffset;
      zeroedOffset += llvm::alignTo(bytes, schema::kBufferAlignment);
      zeroedBytes = std::max(zeroedBytes, zeroedOffset);
      launch.args.push_back(id);
      continue;
    }
    FailureOr<Value> bound = getBoundValue(ops, kernel, name);
    if (failed(bound))
      return failure();
    int64_t id;
    if (role == schema::kRoleOutput) {
      if (valueBuffers.count(*bound))
        return ops.front()->emitOpError("fp8-emit: kernel ")
               << kernel << " writes a value that already has a buffer";
      id = addBuffer(Kind::intermediate, (kernel + "." + name).str(),
                     bound->getType());
      buffers[id].written = current;
      buffers[id].lastRead = current;
      valueBuffers[*bound] = id;
    } else {
      FailureOr<int64_t> found = lookup(*bound, ops.front());
      if (failed(found))
        return failure();
      id = *found;
      reads.push_back(id);
    }
    if (buffers[id].dtype != dtype || buffers[id].bytes != bytes)
      return ops.front()->emitOpError("fp8-emit: parameter '")
             << name << "' of kernel " << kernel << " (" << dtype << ", "
             << bytes << " bytes) does not match its value's buffer ("
             << buffers[id].dtype << ", " << buffers[id].bytes << " bytes)";
    launch.args.push_back(getView(id, shape));
  }
  for (auto [index, value] : llvm::enumerate(*params)) {
    const json::Object &param = *value.getAsObject();
    if (param.getString(schema::kRole) != schema::kRoleTensorMap)
      continue;
    StringRef tensor = *param.getString(schema::kTensor);
    auto mapped = llvm::find(names, tensor);
    if (mapped == names.end() || launch.args[mapped - names.begin()] < 0)
      return ops.front()->emitOpError("fp8-emit: tensor map of kernel ")
             << kernel << " maps unknown parameter '" << tensor << "'";
    launch.args[index] = launch.args[mapped - names.begin()];
  }
  for (int64_t id : reads) {
    Buffer &root = buffers[getRoot(id)];
    root.lastRead = std::max(root.lastRead, current);
  }
  launches.push_back(std::move(launch));
  return success();
}

LogicalResult PlanBuilder::addResults(func::ReturnOp op) {
  for (auto [index, value] : llvm::enumerate(op.getOperands())) {
    FailureOr<int64_t> found = lookup(value, op);
    if (failed(found))
      return failure();
    int64_t id = *found, root = getRoot(id);
    Buffer &storage = buffers[root];
    if (storage.kind == Kind::argument)
      return op.emitOpError("fp8-emit: result #")
             << index << " is argument #" << storage.index
             << " unchanged; a program's results are buffers it writes";
    if (storage.kind == Kind::result)
      return op.emitOpError("fp8-emit: results #")
             << storage.index << " and #" << index
             << " are one value; a program's results are distinct buffers";
    if (id != root) {
      // The result is a view: it becomes the storage, and the buffer the
      // kernel wrote (and its other views) views of it.
      for (Buffer &buffer : buffers)
        if (buffer.kind == Kind::view && buffer.of == root)
          buffer.of = id;
      buffers[root].kind = Kind::view;
      buffers[root].of = id;
    }
    buffers[id].kind = Kind::result;
    buffers[id].of = -1;
    buffers[id].index = index;
    buffers[id].name = ("result" + Twine(index)).str();
    if (auto label = func.getResultAttrOfType<StringAttr>(
            index, FP8Dialect::getMonitorAttrName()))
      buffers[id].monitor = label.str();
    if (auto label = func.getResultAttrOfType<StringAttr>(index, kSavedAttr))
      buffers[id].saved = label.str();
    results.push_back(id);
  }
  return success();
}

void PlanBuilder::packIntermediates() {
  // Greedy first fit in launch order: a buffer's bytes are free again once
  // the last launch reading them has run (a launch never writes over what
  // it reads: a read in launch t keeps the bytes until after t).
  struct Live {
    int64_t offset, size, lastRead;
  };
  SmallVector<Live> live;
  for (Buffer &buffer : buffers) {
    if (buffer.kind != Kind::intermediate)
      continue;
    llvm::erase_if(live,
                   [&](const Live &l) { return l.lastRead < buffer.written; });
    llvm::sort(
        live, [](const Live &a, const Live &b) { return a.offset < b.offset; });
    int64_t size = llvm::alignTo(std::max<int64_t>(buffer.bytes, 1),
                                 schema::kBufferAlignment);
    int64_t offset = 0;
    for (const Live &l : live) {
      if (offset + size <= l.offset)
        break;
      offset = std::max(offset, l.offset + l.size);
    }
    buffer.offset = offset;
    live.push_back({offset, size, buffer.lastRead});
    workspaceBytes = std::max(workspaceBytes, offset + size);
  }
}

json::Object PlanBuilder::toJSON() {
  json::Array bufferList;
  for (auto [id, buffer] : llvm::enumerate(buffers)) {
    json::Object entry{{schema::kId, int64_t(id)},
                       {schema::kName, buffer.name},
                       {schema::kKind, kindName(buffer.kind)},
                       {schema::kDType, buffer.dtype},
                       {schema::kShape, json::Array(buffer.shape)},
                       {schema::kBytes, buffer.bytes}};
    switch (buffer.kind) {
    case Kind::argument:
    case Kind::result:
      entry[schema::kIndex] = buffer.index;
      if (!buffer.monitor.empty())
        entry[schema::kMonitor] = buffer.monitor;
      if (!buffer.saved.empty())
        entry[schema::kSaved] = buffer.saved;
      break;
    case Kind::intermediate:
    case Kind::zeroed:
      entry[schema::kOffset] = buffer.offset;
      break;
    case Kind::view:
      entry[schema::kOf] = buffer.of;
      break;
    }
    bufferList.push_back(std::move(entry));
  }
  json::Array launchList;
  for (const Launch &launch : launches)
    launchList.push_back(
        json::Object{{schema::kKernel, launch.kernel},
                     {schema::kOp, launch.op},
                     {schema::kLocation, launch.location},
                     {schema::kArgs, json::Array(launch.args)}});
  return json::Object{{schema::kName, func.getName().str()},
                      {schema::kLocation, formatLocation(func.getLoc())},
                      {schema::kArguments, json::Array(arguments)},
                      {schema::kResults, json::Array(results)},
                      {schema::kWorkspaceBytes, workspaceBytes},
                      {schema::kZeroedBytes, zeroedBytes},
                      {schema::kBuffers, std::move(bufferList)},
                      {schema::kLaunches, std::move(launchList)}};
}

FailureOr<json::Object> PlanBuilder::build() {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError("fp8-emit: a program is one block of ops");
  for (BlockArgument argument : func.getArguments()) {
    Type type = argument.getType();
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (tensor ? !tensor.hasStaticShape() : !type.isIntOrFloat())
      return func.emitOpError("fp8-emit: argument #")
             << argument.getArgNumber() << " (" << type
             << ") is not a static tensor or a scalar";
    int64_t id = addBuffer(
        Kind::argument, ("arg" + Twine(argument.getArgNumber())).str(), type);
    buffers[id].index = argument.getArgNumber();
    if (auto label = func.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                       kSavedAttr))
      buffers[id].saved = label.str();
    valueBuffers[argument] = id;
    arguments.push_back(id);
  }
  // The ops of each kernel, in program order; the launch goes where the
  // first of them is.
  llvm::MapVector<StringRef, SmallVector<Operation *>> kernelOps;
  func.walk([&](Operation *op) {
    if (auto kernel = op->getAttrOfType<SymbolRefAttr>(kKernelAttrName))
      kernelOps[kernel.getLeafReference().getValue()].push_back(op);
  });
  llvm::DenseSet<StringRef> launched;
  for (Operation &op : func.getBody().front()) {
    if (auto kernel = op.getAttrOfType<SymbolRefAttr>(kKernelAttrName)) {
      StringRef name = kernel.getLeafReference().getValue();
      if (launched.insert(name).second &&
          failed(addLaunch(name, kernelOps[name])))
        return failure();
      continue;
    }
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      if (failed(addResults(ret)))
        return failure();
      continue;
    }
    // A reshape of a dense row-major tensor is the same bytes. Its view
    // is made when something reads it (a reshape of a reshape makes none).
    if (isa<tensor::CollapseShapeOp, tensor::ExpandShapeOp>(op)) {
      Value source = op.getOperand(0);
      if (auto found = valueBuffers.find(source); found != valueBuffers.end())
        reshapes[op.getResult(0)] = getRoot(found->second);
      else if (auto found = reshapes.find(source); found != reshapes.end())
        reshapes[op.getResult(0)] = found->second;
      continue;
    }
    // Any other op needs no launch: tensor.empty, scalar constants, and ops
    // whose values a kernel of another op absorbed. An op whose value a
    // launch or the return reads has no buffer, and lookup says so.
  }
  packIntermediates();
  return toJSON();
}

FailureOr<json::Object>
fp8::buildLaunchPlan(func::FuncOp func,
                     const llvm::StringMap<json::Object> &kernels) {
  return PlanBuilder(func, kernels).build();
}
