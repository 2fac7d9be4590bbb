//===- fp8-embed-c.c - fp8-mlir embedded through its C API --------*- C -*-===//
//
// Built outside fp8-mlir against its installed CMake package, from C only.
// Registers the fp8 pipelines' dialects into a registry, loads the fp8
// dialect through its handle, parses a module with fp8 ops, runs a textual
// pass pipeline (which can name passes only once fp8RegisterAllPasses has
// registered them) and prints the result. Then quantizes a bf16 Fprop with
// the one-call pipeline built by fp8BuildPipeline, which needs no
// registration.
//
// `make check-embed` matches the output against the FileCheck directives at
// the end of this file.
//
//===----------------------------------------------------------------------===//

#include "fp8-c/Emit.h"
#include "fp8-c/Pipeline.h"
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

// One bf16 Fprop, Y = X * W^T, with the roles the recipe needs.
static const char *const kFprop =
    "func.func @fprop(%x: tensor<256x512xbf16> {fp8.role = \"activation\"},\n"
    "                 %w: tensor<1024x512xbf16> {fp8.role = \"weight\"})\n"
    "    -> tensor<256x1024xf32> {\n"
    "  %zero = arith.constant 0.0 : f32\n"
    "  %empty = tensor.empty() : tensor<256x1024xf32>\n"
    "  %init = linalg.fill ins(%zero : f32)\n"
    "      outs(%empty : tensor<256x1024xf32>) -> tensor<256x1024xf32>\n"
    "  %y = linalg.matmul indexing_maps = [\n"
    "        affine_map<(m, n, k) -> (m, k)>,\n"
    "        affine_map<(m, n, k) -> (n, k)>,\n"
    "        affine_map<(m, n, k) -> (m, n)>]\n"
    "      ins(%x, %w : tensor<256x512xbf16>, tensor<1024x512xbf16>)\n"
    "      outs(%init : tensor<256x1024xf32>) -> tensor<256x1024xf32>\n"
    "  return %y : tensor<256x1024xf32>\n"
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

/// Prints the name and size of one emitted file, and the manifest's opening.
static void printEmitted(MlirStringRef file, MlirStringRef contents,
                         void *userData) {
  (void)userData;
  printf("emitted %.*s (%zu bytes)\n", (int)file.length, file.data,
         contents.length);
}

/// Runs fp8-pipeline{recipe=blockwise chip=sm_90a} on `module`, prints the
/// result, and emits it as a program in memory. Returns the process exit
/// status.
static int quantizeAndPrint(MlirContext context, MlirModule module) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(
      context, mlirStringRefCreateFromCString("builtin.module"));
  MlirOperation op = mlirModuleGetOperation(module);
  int status = 1;
  if (mlirLogicalResultIsFailure(
          fp8BuildPipeline(mlirPassManagerGetAsOpPassManager(pm),
                           mlirStringRefCreateFromCString("blockwise"),
                           mlirStringRefCreateFromCString("sm_90a")))) {
    fprintf(stderr, "error: cannot build the fp8 pipeline\n");
  } else if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op))) {
    fprintf(stderr, "error: the fp8 pipeline failed\n");
  } else {
    mlirOperationPrint(op, printTo, stdout);
    printf("\n");
    status = 0;
  }
  mlirPassManagerDestroy(pm);
  // The program in memory: the manifest with the launch plan, and the PTX.
  if (status == 0 && mlirLogicalResultIsFailure(fp8EmitProgram(
                         module, mlirStringRefCreateFromCString("sm_90a"),
                         /*lineInfo=*/false, printEmitted, NULL))) {
    fprintf(stderr, "error: fp8EmitProgram failed\n");
    status = 1;
  }
  return status;
}

/// Parses `text` and runs `process` on it. Returns the process exit status.
static int parseAnd(MlirContext context, const char *text,
                    int (*process)(MlirContext, MlirModule)) {
  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(module)) {
    fprintf(stderr, "error: cannot parse the module\n");
    return 1;
  }
  int status = process(context, module);
  mlirModuleDestroy(module);
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

  int status = parseAnd(context, kModule, canonicalizeAndPrint);
  if (status == 0)
    status = parseAnd(context, kFprop, quantizeAndPrint);
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

// The Fprop under blockwise for sm_90a: 1x128 X and 128x128 W. As in the
// C++ embedding (input.mlir), fp8-fuse-quantization has the quantization of
// X store its scales in the TMA layout itself (fp8.quantize_elementwise with
// its fp8.yield terminator, which MLIR's verifier must recognize as one), so
// no fp8.tma_align_scales remains.
// CHECK-LABEL: func.func @fprop
// CHECK-SAME: fp8.recipe = #fp8.recipe<blockwise>
// CHECK-DAG: fp8.quantize_elementwise %arg0 {{.*}}<col_major_tma>, scaling =
// CHECK-DAG: fp8.yield
// CHECK-DAG: fp8.quantize %arg1 {{.*}}tile = [128, 128]
// CHECK-NOT: fp8.tma_align_scales
// CHECK: fp8.scaled_matmul {{.*}}a_scale_layout = {{.*}}<col_major_tma>
// CHECK-SAME: fp8.matmul = "fprop"
// CHECK-NOT: linalg.matmul
// CHECK-NOT: fp8.tma_align_scales
// CHECK: emitted manifest.json
// CHECK: emitted fprop_quantize_elementwise_{{[0-9]+}}.ptx
// CHECK: emitted fprop_{{.*}}.ptx
