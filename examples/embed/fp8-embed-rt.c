// fp8-embed-rt: loads a compiled program through the installed libfp8rt
// (find_package(fp8rt), its C API) and prints each function's signature.
// Loading reads the manifest and the PTX only: no GPU, no driver needed.
//
//   fp8-embed-rt DIR      (what fp8-opt --fp8-emit=dir=DIR wrote)
//
// `make check-embed` runs it on runtime/test/plan where libfp8rt was
// installed (CUDA's headers were there to build it).

#include "fp8rt/fp8rt.h"

#include <stdio.h>

static void printTensor(const char *what, const fp8rt_tensor_info *t) {
  printf("  %s %s: %s[", what, t->name, fp8rt_dtype_name(t->dtype));
  for (int d = 0; d < t->rank; ++d)
    printf("%s%lld", d ? ", " : "", (long long)t->shape[d]);
  printf("]\n");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: fp8-embed-rt DIR\n");
    return 2;
  }
  fp8rt_program *program;
  if (fp8rt_load(argv[1], &program) != FP8RT_SUCCESS) {
    fprintf(stderr, "error: %s\n", fp8rt_last_error());
    return 1;
  }
  for (int f = 0; f < fp8rt_num_functions(program); ++f) {
    const char *name = fp8rt_function_name(program, f);
    fp8rt_signature sig;
    if (fp8rt_function_info(program, name, &sig) != FP8RT_SUCCESS) {
      fprintf(stderr, "error: %s\n", fp8rt_last_error());
      fp8rt_destroy(program);
      return 1;
    }
    printf("function %s: %d launches, %zu workspace bytes\n", name,
           sig.num_launches, sig.workspace_bytes);
    fp8rt_tensor_info t;
    for (int i = 0; i < sig.num_inputs; ++i)
      if (fp8rt_function_input(program, name, i, &t) == FP8RT_SUCCESS)
        printTensor("input", &t);
    for (int i = 0; i < sig.num_outputs; ++i)
      if (fp8rt_function_output(program, name, i, &t) == FP8RT_SUCCESS)
        printTensor("output", &t);
  }
  fp8rt_destroy(program);
  return 0;
}

// CHECK: function chain: 5 launches, 8192 workspace bytes
// CHECK-NEXT: input x: f32[4, 256]
// CHECK-NEXT: input y: f32[4, 256]
// CHECK-NEXT: output result0: f32[4, 256]
// CHECK: function tma:
