//===- fp8-embed-c.c - fp8-mlir embedded through its C API --------*- C -*-===//
//
// Built outside fp8-mlir against its installed CMake package, from C only.
// Registers the fp8 pipelines' dialects into a registry, loads the fp8
// dialect through its handle, parses a module with fp8 ops, runs a textual
// pass pipeline (which can name passes only once fp8RegisterAllPasses has
// registered them) and prints the result.
//
// `make check-embed` matches the output against the FileCheck directives at
// the end of this file.
//
//===----------------------------------------------------------------------===//

#include "fp8-c/Registration.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"

#include <stdio.h>

// Tensorwise and 1x128 quantizations of one activation; only the second is
// used, so canonicalization erases the first (fp8 ops have no side effects).
static const char *const kModule =
    "func.func @quantize(%x: tensor<256x512xbf16>)\n"
    "    -> (tensor<256x512xf8E4M3FN>, tensor<256x4xf32>) {\n"
    "  %t:2 = fp8.quantize %x {\n"
    "        scaling = #fp8.scaling<tile = [*, *], scale = f32>}\n"
    "      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>,\n"
    "        tensor<1x1xf32>\n"
    "  %q, %s = fp8.quantize %x {\n"
    "        scaling = #fp8.scaling<tile = [1, 128], scale = f32>}\n"
    "      : tensor<256x512xbf16> -> tensor<256x512xf8E4M3FN>,\n"
    "        tensor<256x4xf32>\n"
    "  return %q, %s : tensor<256x512xf8E4M3FN>, tensor<256x4xf32>\n"
    "}\n";

static void printTo(MlirStringRef text, void *stream) {
  fwrite(text.data, 1, text.length, (FILE *)stream);
}

/// Runs canonicalization on `module`, named in a textual pipeline, and
/// prints the result. Returns the process exit status.
static int canonicalizeAndPrint(MlirContext context, MlirModule module) {
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirStringRef pipeline =
      mlirStringRefCreateFromCString("builtin.module(func.func(canonicalize))");
  MlirOperation op = mlirModuleGetOperation(module);
  int status = 1;
  if (mlirLogicalResultIsFailure(mlirParsePassPipeline(
          mlirPassManagerGetAsOpPassManager(pm), pipeline, printTo, stderr))) {
    fprintf(stderr, "\nerror: cannot parse the pass pipeline\n");
  } else if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op))) {
    fprintf(stderr, "error: the pass pipeline failed\n");
  } else {
    mlirOperationPrint(op, printTo, stdout);
    printf("\n");
    status = 0;
  }
  mlirPassManagerDestroy(pm);
  return status;
}

int main(void) {
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  fp8RegisterAllDialects(registry);
  // One small module: no thread pool needed.
  MlirContext context =
      mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/false);
  // The context holds its own copy of the registry.
  mlirDialectRegistryDestroy(registry);
  fp8RegisterAllPasses();

  MlirDialect fp8 =
      mlirDialectHandleLoadDialect(mlirGetDialectHandle__fp8__(), context);
  MlirStringRef name = mlirDialectGetNamespace(fp8);
  printf("loaded dialect: %.*s\n", (int)name.length, name.data);

  int status = 1;
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "error: cannot parse the module\n");
  } else {
    status = canonicalizeAndPrint(context, module);
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(context);
  return status;
}

// CHECK: loaded dialect: fp8
// CHECK-LABEL: func.func @quantize
// CHECK-NOT: tile = [*, *]
// CHECK: fp8.quantize
// CHECK-SAME: scaling = #fp8.scaling<tile = [1, 128], scale = f32>
// CHECK-NOT: fp8.quantize
// CHECK: return
