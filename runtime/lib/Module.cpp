//===- Module.cpp - Loading a kernel's PTX --------------------------------===//
//
// The JIT's error log is the only place a PTX syntax or resource error is
// explained, so it goes into the error message. Launching is here too: both
// the runtime and fp8-run launch a manifest's kernel the same way, with
// programmatic dependent launch only where the manifest allows it.
//
//===----------------------------------------------------------------------===//

#include "Module.h"

#include <vector>

using namespace fp8rt;

bool fp8rt::loadKernel(const CudaDriver &drv, const Kernel &kernel,
                       const std::string &ptx, LoadedKernel &out,
                       std::string &error, std::string *infoLog, bool verbose) {
  std::string where = "kernel " + kernel.name;
  std::vector<char> errorLog(1 << 16, 0), info(1 << 16, 0);
  CUjit_option options[] = {
      CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
      CU_JIT_LOG_VERBOSE};
  void *values[] = {errorLog.data(),
                    reinterpret_cast<void *>(errorLog.size() - 1), info.data(),
                    reinterpret_cast<void *>(info.size() - 1),
                    reinterpret_cast<void *>(uintptr_t(verbose ? 1 : 0))};
  CUmodule module = nullptr;
  CUresult loaded =
      drv.cuModuleLoadDataEx(&module, ptx.c_str(), 5, options, values);
  if (loaded != CUDA_SUCCESS) {
    error =
        where + ": cannot load " + kernel.ptxPath + ": " + drv.describe(loaded);
    if (errorLog[0])
      error += std::string("\nJIT error log:\n") + errorLog.data();
    return false;
  }
  if (infoLog)
    *infoLog = info.data();
  CUfunction function = nullptr;
  CUresult found =
      drv.cuModuleGetFunction(&function, module, kernel.name.c_str());
  if (found != CUDA_SUCCESS) {
    error = where + ": no .entry " + kernel.name + " in " + kernel.ptxPath +
            " (the manifest's name must be the PTX entry name): " +
            drv.describe(found);
    drv.cuModuleUnload(module);
    return false;
  }
  // Above 48 KiB, dynamic shared memory must be opted into per function.
  if (kernel.sharedBytes > 48 * 1024) {
    CUresult set = drv.cuFuncSetAttribute(
        function, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
        int(kernel.sharedBytes));
    if (set != CUDA_SUCCESS) {
      error = where + ": " + std::to_string(kernel.sharedBytes) +
              " B of dynamic shared memory: " + drv.describe(set);
      drv.cuModuleUnload(module);
      return false;
    }
  }
  out.module = module;
  out.function = function;
  return true;
}

bool fp8rt::checkKernelPtx(const Kernel &kernel, const std::string &ptx,
                           std::string &error) {
  if (kernel.pdl && ptx.find("griddepcontrol.wait") == std::string::npos) {
    error = "kernel " + kernel.name + ": \"pdl\" is true but " +
            kernel.ptxPath +
            " has no griddepcontrol.wait: a programmatic launch could read "
            "what the previous kernel is still writing";
    return false;
  }
  return true;
}

CUresult fp8rt::launchKernel(const CudaDriver &drv, const Kernel &kernel,
                             CUfunction function, CUstream stream,
                             void **params, bool allowPdl) {
  if (!kernel.pdl || !allowPdl)
    return drv.cuLaunchKernel(function, kernel.grid[0], kernel.grid[1],
                              kernel.grid[2], kernel.block[0], kernel.block[1],
                              kernel.block[2], kernel.sharedBytes, stream,
                              params, nullptr);
  CUlaunchAttribute attribute = {};
  attribute.id = CU_LAUNCH_ATTRIBUTE_PROGRAMMATIC_STREAM_SERIALIZATION;
  attribute.value.programmaticStreamSerializationAllowed = 1;
  CUlaunchConfig config = {};
  config.gridDimX = kernel.grid[0];
  config.gridDimY = kernel.grid[1];
  config.gridDimZ = kernel.grid[2];
  config.blockDimX = kernel.block[0];
  config.blockDimY = kernel.block[1];
  config.blockDimZ = kernel.block[2];
  config.sharedMemBytes = kernel.sharedBytes;
  config.hStream = stream;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return drv.cuLaunchKernelEx(&config, function, params, nullptr);
}
