/*===- RuntimeTest.c - libfp8rt's C API on the fake driver ----------------===//
 *
 *   fp8rt-test load PATH   loads a manifest and prints its functions, or the
 *                          error (exit 1): the plan-validation tests
 *   fp8rt-test run DIR     runs DIR (test/plan) through the C API and checks
 *                          results and run-time errors
 *   fp8rt-test errors DIR  the failures a process must survive: a missing
 *                          or corrupt PTX file, out of memory, a failed
 *                          launch; each names what failed, and the next
 *                          call with good inputs works
 *   fp8rt-test teardown DIR  releases the CUDA context before destroying
 *                          the program that ran in it, as fp8-run and
 *                          Python's shutdown may
 *   fp8rt-test threads DIR two threads run one program on two streams at
 *                          once and get the serial runs' bits
 *
 * Run with FakeCuda.cpp's libcuda.so.1 first on LD_LIBRARY_PATH: its device
 * memory is host memory, so this program passes host buffers as device
 * pointers and reads the results directly. Like PyTorch, it makes the
 * device's primary context current itself, through the driver (the fake's).
 * C99, as a C caller would be.
 *
 *===----------------------------------------------------------------------===*/

#define _POSIX_C_SOURCE 200112L

#include "fp8rt/fp8rt.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;

static void check(int ok, const char *what) {
  if (!ok) {
    ++failures;
    printf("FAIL: %s (last error: %s)\n", what, fp8rt_last_error());
  } else {
    printf("ok: %s\n", what);
  }
}

/* A failing call: its status and its message, exactly. */
static void checkError(fp8rt_status got, fp8rt_status status,
                       const char *message) {
  int ok = got == status && strcmp(fp8rt_last_error(), message) == 0;
  if (!ok) {
    ++failures;
    printf("FAIL: expected status %d \"%s\", got %d \"%s\"\n", (int)status,
           message, (int)got, fp8rt_last_error());
  } else {
    printf("ok: refused: %s\n", message);
  }
}

/* "Device" memory of the fake driver: 256-byte aligned host memory. */
static void *deviceAlloc(size_t bytes, int fill) {
  void *p = NULL;
  if (posix_memalign(&p, 256, bytes ? bytes : 1) != 0) {
    printf("FAIL: out of memory\n");
    exit(1);
  }
  memset(p, fill, bytes);
  return p;
}

/* The driver calls a caller makes around the library (cuda.h's types, as
 * plain C: a CUcontext is a pointer, a CUdevice and a CUresult ints), and the
 * fake driver's test hooks. */
static struct {
  int (*retain)(void **context, int device);
  int (*release)(int device);
  int (*setCurrent)(void *context);
  void (*setMemoryLimit)(size_t bytes);
  void (*failLaunches)(const char *prefix);
} driver;

static int openDriver(void) {
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    printf("FAIL: cannot open libcuda.so.1: %s\n", dlerror());
    return 0;
  }
  /* POSIX's way to a function pointer from dlsym, which C99 cannot cast. */
  *(void **)&driver.retain = dlsym(lib, "cuDevicePrimaryCtxRetain");
  *(void **)&driver.release = dlsym(lib, "cuDevicePrimaryCtxRelease_v2");
  *(void **)&driver.setCurrent = dlsym(lib, "cuCtxSetCurrent");
  *(void **)&driver.setMemoryLimit = dlsym(lib, "fakeCudaSetMemoryLimit");
  *(void **)&driver.failLaunches = dlsym(lib, "fakeCudaFailLaunches");
  if (!driver.retain || !driver.release || !driver.setCurrent ||
      !driver.setMemoryLimit || !driver.failLaunches) {
    printf("FAIL: libcuda.so.1 is not the fake driver\n");
    return 0;
  }
  return 1;
}

/* Device 0's primary context, retained and made current. */
static int contextUp(void) {
  void *context = NULL;
  return driver.retain(&context, 0) == 0 && driver.setCurrent(context) == 0;
}

/* The driver opened, device 0's primary context current and the plan in
 * `dir` loaded; NULL (having said why) otherwise. */
static fp8rt_program *openPlan(const char *dir) {
  fp8rt_program *p = NULL;
  if (!openDriver() || !contextUp())
    return NULL;
  if (fp8rt_load(dir, &p) != FP8RT_SUCCESS) {
    printf("FAIL: cannot load plan: %s\n", fp8rt_last_error());
    return NULL;
  }
  return p;
}

/* Destroys `p`, releases the context and reports: the exit code. */
static int finish(fp8rt_program *p) {
  fp8rt_destroy(p);
  driver.release(0);
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}

static int load(const char *path) {
  fp8rt_program *program = NULL;
  int f, i;
  if (fp8rt_load(path, &program) != FP8RT_SUCCESS) {
    printf("error: %s\n", fp8rt_last_error());
    return 1;
  }
  for (f = 0; f < fp8rt_num_functions(program); ++f) {
    const char *name = fp8rt_function_name(program, f);
    fp8rt_signature info;
    if (fp8rt_function_info(program, name, &info) != FP8RT_SUCCESS)
      return 1;
    printf("function %s: %d inputs, %d outputs, %d launches, workspace %zu, "
           "zeroed %zu\n",
           info.name, info.num_inputs, info.num_outputs, info.num_launches,
           info.workspace_bytes, info.zeroed_bytes);
    for (i = 0; i < info.num_inputs + info.num_outputs; ++i) {
      fp8rt_tensor_info t;
      int output = i >= info.num_inputs;
      int index = output ? i - info.num_inputs : i;
      int d;
      if ((output ? fp8rt_function_output : fp8rt_function_input)(
              program, name, index, &t) != FP8RT_SUCCESS)
        return 1;
      printf("  %s %d %s %s [", output ? "output" : "input", index, t.name,
             fp8rt_dtype_name(t.dtype));
      for (d = 0; d < t.rank; ++d)
        printf("%s%lld", d ? ", " : "", (long long)t.shape[d]);
      printf("] %zu bytes\n", t.bytes);
    }
  }
  fp8rt_destroy(program);
  return 0;
}

static const int64_t vec[2] = {4, 256};
static const int64_t mat[2] = {200, 320};

static fp8rt_tensor tensor(void *data, fp8rt_dtype dtype, int rank,
                           const int64_t *shape) {
  fp8rt_tensor t;
  t.data = data;
  t.dtype = dtype;
  t.rank = rank;
  t.shape = shape;
  return t;
}

/* chain: result0 = 2x + y + 1 (+ its zeroed workspace), result1 = 4x + 2y. */
static void runChain(fp8rt_program *p, int seed, void *workspace,
                     size_t workspaceBytes, void *stream, const char *what) {
  float *x = deviceAlloc(4096, 0), *y = deviceAlloc(4096, 0);
  float *r0 = deviceAlloc(4096, 0xCD), *r1 = deviceAlloc(4096, 0xCD);
  fp8rt_tensor in[2], out[2];
  int i, good = 1;
  for (i = 0; i < 1024; ++i) {
    x[i] = (float)((i + seed) % 7);
    y[i] = (float)(i % 5 - 2);
  }
  in[0] = tensor(x, FP8RT_F32, 2, vec);
  in[1] = tensor(y, FP8RT_F32, 2, vec);
  out[0] = tensor(r0, FP8RT_F32, 2, vec);
  out[1] = tensor(r1, FP8RT_F32, 2, vec);
  good = fp8rt_run(p, "chain", in, 2, out, 2, workspace, workspaceBytes,
                   stream) == FP8RT_SUCCESS;
  for (i = 0; good && i < 1024; ++i)
    good = r0[i] == 2 * x[i] + y[i] + 1 && r1[i] == 4 * x[i] + 2 * y[i];
  check(good, what);
  free(x);
  free(y);
  free(r0);
  free(r1);
}

/* tma: result0 = ~~x, through a tensor map of an intermediate. */
static void runTma(fp8rt_program *p, int seed, const char *what) {
  unsigned char *x = deviceAlloc(64000, 0), *r = deviceAlloc(64000, 0xCD);
  fp8rt_tensor in = tensor(x, FP8RT_F8E4M3, 2, mat);
  fp8rt_tensor out = tensor(r, FP8RT_F8E4M3, 2, mat);
  int i;
  for (i = 0; i < 64000; ++i)
    x[i] = (unsigned char)(i * 31 + seed);
  check(fp8rt_run(p, "tma", &in, 1, &out, 1, NULL, 0, NULL) == FP8RT_SUCCESS &&
            memcmp(x, r, 64000) == 0,
        what);
  free(x);
  free(r);
}

static void signature(fp8rt_program *p) {
  fp8rt_signature info;
  fp8rt_tensor_info t;
  check(fp8rt_num_functions(p) == 3 &&
            strcmp(fp8rt_function_name(p, 0), "chain") == 0 &&
            fp8rt_function_name(p, 3) == NULL,
        "three functions, chain first");
  check(fp8rt_function_info(p, "chain", &info) == FP8RT_SUCCESS &&
            info.num_inputs == 2 && info.num_outputs == 2 &&
            info.num_launches == 5 && info.workspace_bytes == 8192 &&
            info.zeroed_bytes == 16 &&
            strcmp(info.location, "plan.mlir:3:1") == 0,
        "chain's counts and sizes");
  check(fp8rt_function_input(p, "chain", 1, &t) == FP8RT_SUCCESS &&
            strcmp(t.name, "y") == 0 && t.dtype == FP8RT_F32 && t.rank == 2 &&
            t.shape[0] == 4 && t.shape[1] == 256 && t.bytes == 4096,
        "chain's input 1");
  check(fp8rt_function_output(p, "dtypes", 0, &t) == FP8RT_SUCCESS &&
            t.dtype == FP8RT_I1 && t.rank == 1 && t.shape[0] == 16 &&
            t.bytes == 16,
        "dtypes' i1 output");
  check(fp8rt_function_input(p, "dtypes", 0, &t) == FP8RT_SUCCESS &&
            t.dtype == FP8RT_F64 && t.bytes == 16,
        "dtypes' f64 input");
  checkError(fp8rt_function_input(p, "chain", 2, &t), FP8RT_ERROR_NOT_FOUND,
             "chain: no input 2 (it has 2)");
  checkError(fp8rt_function_info(p, "nope", &info), FP8RT_ERROR_NOT_FOUND,
             "no function \"nope\"");
}

static void dtypes(void) {
  fp8rt_dtype d = FP8RT_F32;
  check(strcmp(fp8rt_dtype_name(FP8RT_F8E4M3), "f8e4m3") == 0 &&
            fp8rt_dtype_size(FP8RT_I1) == 1 &&
            fp8rt_dtype_size(FP8RT_F64) == 8 &&
            fp8rt_dtype_size(FP8RT_I32) == 4 &&
            fp8rt_dtype_name((fp8rt_dtype)11) == NULL,
        "dtype names and sizes");
  check(fp8rt_dtype_from_name("i8", &d) == FP8RT_SUCCESS && d == FP8RT_I8,
        "dtype from its name");
  checkError(fp8rt_dtype_from_name("f8", &d), FP8RT_ERROR_INVALID_ARGUMENT,
             "unknown dtype \"f8\"");
}

/* Every tensor mismatch is refused before anything is launched. */
static void mismatches(fp8rt_program *p) {
  static const int64_t transposed[2] = {256, 4}, flat[1] = {1024};
  float *a = deviceAlloc(4096, 0), *b = deviceAlloc(4096, 0);
  float *c = deviceAlloc(4096, 0), *d = deviceAlloc(4096, 0);
  fp8rt_tensor in[2], out[2];
  in[0] = tensor(a, FP8RT_F32, 2, vec);
  out[0] = tensor(c, FP8RT_F32, 2, vec);
  out[1] = tensor(d, FP8RT_F32, 2, vec);

  in[1] = tensor(b, FP8RT_F16, 2, vec);
  checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: input 1 (y): expected f32 [4, 256], got f16 [4, 256]");
  in[1] = tensor(b, FP8RT_F32, 2, transposed);
  checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: input 1 (y): expected f32 [4, 256], got f32 [256, 4]");
  in[1] = tensor(b, FP8RT_F32, 1, flat);
  checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: input 1 (y): expected f32 [4, 256], got f32 [1024]");
  in[1] = tensor(b, FP8RT_F32, 2, vec);
  checkError(fp8rt_run(p, "chain", in, 1, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: 1 inputs given, the function has 2");
  checkError(fp8rt_run(p, "chain", in, 2, out, 3, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: 3 outputs given, the function has 2");
  out[0].data = NULL;
  checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: output 0 (result0): null data pointer");
  out[0].data = (char *)c + 4;
  checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: output 0 (result0): data is not 16-byte aligned");
  out[0].data = (char *)a + 1024;
  checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: output 0 (result0) overlaps input 0 (x)");
  out[0].data = c;
  checkError(fp8rt_run(p, "chain", in, 2, out, 2, d, 100, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "chain: a workspace of 100 bytes, but the plan needs 8192");
  checkError(fp8rt_run(p, "nope", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_NOT_FOUND,
             "no function \"nope\" in plan/manifest.json (it has chain, tma, "
             "dtypes)");
  checkError(fp8rt_run(NULL, "chain", in, 2, out, 2, NULL, 0, NULL),
             FP8RT_ERROR_INVALID_ARGUMENT,
             "fp8rt_run: null program or function name");
  free(a);
  free(b);
  free(c);
  free(d);
}

static int run(const char *dir) {
  fp8rt_program *p = NULL;
  void *workspace = deviceAlloc(8192, 0xEE);
  if (!openDriver())
    return 1;
  checkError(fp8rt_load("no-such-dir", &p), FP8RT_ERROR_MANIFEST,
             "no-such-dir: No such file or directory");
  if (fp8rt_load(dir, &p) != FP8RT_SUCCESS) {
    printf("FAIL: cannot load plan: %s\n", fp8rt_last_error());
    return 1;
  }
  check(strcmp(fp8rt_last_error(), "") == 0, "a success clears the error");
  {
    float *x = deviceAlloc(4096, 0), *r = deviceAlloc(4096, 0);
    fp8rt_tensor in[2], out[2];
    in[0] = in[1] = tensor(x, FP8RT_F32, 2, vec);
    out[0] = tensor(r, FP8RT_F32, 2, vec);
    out[1] = tensor((char *)r + 4096, FP8RT_F32, 2, vec);
    checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
               FP8RT_ERROR_CUDA,
               "chain: no current CUDA context (make one current first, e.g. "
               "cuCtxSetCurrent or any CUDA runtime call)");
    free(x);
    free(r);
  }
  if (!contextUp()) {
    printf("FAIL: cannot make the primary context current\n");
    return 1;
  }
  dtypes();
  signature(p);
  /* The fake driver fills new memory with 0xCD: an unzeroed workspace
   * region would add about 2^63 to result0. */
  runChain(p, 0, NULL, 0, NULL, "chain: launches in order, zeroed region");
  runChain(p, 3, NULL, 0, NULL, "chain again: cached modules and workspace");
  runChain(p, 1, workspace, 8192, NULL, "chain in the caller's workspace");
  runChain(p, 2, NULL, 0, (void *)16, "chain on another stream");
  runTma(p, 0, "tma: tensor map of the intermediate");
  runTma(p, 7, "tma: new buffers get new tensor maps");
  mismatches(p);
  runChain(p, 4, NULL, 0, NULL, "chain after the refusals");
  fp8rt_destroy(p);
  driver.release(0);
  free(workspace);
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}

/* The chain with programmatic launch turned off: no kernel reaches the fake
 * driver with the attribute (it would say so on stderr, after "all
 * passed"). */
static int plain(const char *dir) {
  fp8rt_program *p = NULL;
  if (!(p = openPlan(dir)))
    return 1;
  fp8rt_set_programmatic_launch(NULL, 0);
  fp8rt_set_programmatic_launch(p, 0);
  runChain(p, 0, NULL, 0, NULL, "chain launched plainly");
  return finish(p);
}

/* DIR is runtime/test: its missing-ptx.json and corrupt-ptx.json break
 * add_f32, which chain launches and tma does not. */
static int errors(const char *dir) {
  fp8rt_program *p = NULL;
  char path[4096];
  if (!openDriver() || !contextUp())
    return 1;
  snprintf(path, sizeof path, "%s/missing-ptx.json", dir);
  checkError(fp8rt_load(path, &p), FP8RT_ERROR_MANIFEST,
             "kernel add_f32: cannot read its PTX: ./plan/no-such.ptx: No such "
             "file or directory");
  check(p == NULL, "no program from a missing PTX file");

  snprintf(path, sizeof path, "%s/corrupt-ptx.json", dir);
  if (fp8rt_load(path, &p) != FP8RT_SUCCESS) {
    printf("FAIL: cannot load %s: %s\n", path, fp8rt_last_error());
    return 1;
  }
  runTma(p, 1, "tma before chain's broken kernel");
  /* Twice: a module that failed to load is not taken as loaded. */
  {
    int n;
    for (n = 0; n < 2; ++n) {
      float *x = deviceAlloc(4096, 0), *y = deviceAlloc(4096, 0);
      float *r0 = deviceAlloc(4096, 0), *r1 = deviceAlloc(4096, 0);
      fp8rt_tensor in[2], out[2];
      in[0] = tensor(x, FP8RT_F32, 2, vec);
      in[1] = tensor(y, FP8RT_F32, 2, vec);
      out[0] = tensor(r0, FP8RT_F32, 2, vec);
      out[1] = tensor(r1, FP8RT_F32, 2, vec);
      checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
                 FP8RT_ERROR_CUDA,
                 "chain: kernel add_f32: cannot load ./plan/corrupt.ptx.bin: "
                 "CUDA_ERROR_INVALID_PTX (fp8-run's fake CUDA driver)\n"
                 "JIT error log:\nfake ptxas: no .entry in this PTX");
      free(x);
      free(y);
      free(r0);
      free(r1);
    }
  }
  runTma(p, 2, "tma after chain's broken kernel");
  fp8rt_destroy(p);

  snprintf(path, sizeof path, "%s/plan", dir);
  if (fp8rt_load(path, &p) != FP8RT_SUCCESS) {
    printf("FAIL: cannot load %s: %s\n", path, fp8rt_last_error());
    return 1;
  }
  /* The zeroed region (16 bytes) fits, the workspace (8192) does not. */
  driver.setMemoryLimit(1024);
  {
    float *x = deviceAlloc(4096, 0), *r = deviceAlloc(8192, 0);
    fp8rt_tensor in[2], out[2];
    in[0] = in[1] = tensor(x, FP8RT_F32, 2, vec);
    out[0] = tensor(r, FP8RT_F32, 2, vec);
    out[1] = tensor((char *)r + 4096, FP8RT_F32, 2, vec);
    checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
               FP8RT_ERROR_CUDA,
               "chain: allocating the workspace (8192 bytes): "
               "CUDA_ERROR_OUT_OF_MEMORY (fp8-run's fake CUDA driver)");
    driver.setMemoryLimit((size_t)-1);
    runChain(p, 5, NULL, 0, NULL, "chain once memory is back");

    driver.failLaunches("add_f32");
    checkError(fp8rt_run(p, "chain", in, 2, out, 2, NULL, 0, NULL),
               FP8RT_ERROR_CUDA,
               "chain: launch 1 (kernel add_f32 at plan.mlir:1:1): "
               "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (fp8-run's fake CUDA "
               "driver)");
    driver.failLaunches(NULL);
    runChain(p, 6, NULL, 0, NULL, "chain after a failed launch");
    free(x);
    free(r);
  }
  return finish(p);
}

/* The caller lets go of its context before it destroys the program: the
 * program must still unload its modules and free its memory in that
 * context, which it holds (the fake driver fails the process otherwise). */
static int teardown(const char *dir) {
  fp8rt_program *p = NULL;
  if (!(p = openPlan(dir)))
    return 1;
  runChain(p, 0, NULL, 0, NULL, "chain");
  runTma(p, 0, "tma");
  check(driver.release(0) == 0, "the caller releases its context");
  fp8rt_destroy(p);
  printf("%s\n", failures ? "FAILED" : "all passed");
  return failures ? 1 : 0;
}

/* One thread's runs: chain with seeds seed, seed + 2, ... on its own
 * stream, each result compared with 2x + y + 1 and 4x + 2y. */
struct ThreadRuns {
  fp8rt_program *program;
  void *stream;
  int seed;
  int bad;
};

enum { kThreadRuns = 200 };

static void *threadRuns(void *arg) {
  struct ThreadRuns *t = arg;
  float *x = deviceAlloc(4096, 0), *y = deviceAlloc(4096, 0);
  float *r0 = deviceAlloc(4096, 0), *r1 = deviceAlloc(4096, 0);
  fp8rt_tensor in[2], out[2];
  int n, i;
  /* The current context is per thread, as the driver's. */
  if (!contextUp()) {
    t->bad = -1;
    return NULL;
  }
  in[0] = tensor(x, FP8RT_F32, 2, vec);
  in[1] = tensor(y, FP8RT_F32, 2, vec);
  out[0] = tensor(r0, FP8RT_F32, 2, vec);
  out[1] = tensor(r1, FP8RT_F32, 2, vec);
  for (n = 0; n < kThreadRuns; ++n) {
    int seed = t->seed + 2 * n;
    for (i = 0; i < 1024; ++i) {
      x[i] = (float)((i + seed) % 7);
      y[i] = (float)((i * seed) % 5 - 2);
    }
    if (fp8rt_run(t->program, "chain", in, 2, out, 2, NULL, 0, t->stream) !=
        FP8RT_SUCCESS) {
      ++t->bad;
      continue;
    }
    for (i = 0; i < 1024; ++i)
      if (r0[i] != 2 * x[i] + y[i] + 1 || r1[i] != 4 * x[i] + 2 * y[i]) {
        ++t->bad;
        break;
      }
  }
  driver.release(0);
  free(x);
  free(y);
  free(r0);
  free(r1);
  return NULL;
}

static int threads(const char *dir) {
  fp8rt_program *p = NULL;
  struct ThreadRuns runs[2];
  pthread_t ids[2];
  int n;
  if (!(p = openPlan(dir)))
    return 1;
  for (n = 0; n < 2; ++n) {
    runs[n].program = p;
    runs[n].stream = (void *)(uintptr_t)(16 * (n + 1));
    runs[n].seed = n;
    runs[n].bad = 0;
    if (pthread_create(&ids[n], NULL, threadRuns, &runs[n]) != 0) {
      printf("FAIL: pthread_create\n");
      return 1;
    }
  }
  for (n = 0; n < 2; ++n)
    pthread_join(ids[n], NULL);
  for (n = 0; n < 2; ++n) {
    char what[96];
    snprintf(what, sizeof what, "thread %d: %d runs of chain on stream %d", n,
             kThreadRuns, 16 * (n + 1));
    check(runs[n].bad == 0, what);
  }
  return finish(p);
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "load") == 0)
    return load(argv[2]);
  if (argc == 3 && strcmp(argv[1], "run") == 0)
    return run(argv[2]);
  if (argc == 3 && strcmp(argv[1], "plain") == 0)
    return plain(argv[2]);
  if (argc == 3 && strcmp(argv[1], "errors") == 0)
    return errors(argv[2]);
  if (argc == 3 && strcmp(argv[1], "teardown") == 0)
    return teardown(argv[2]);
  if (argc == 3 && strcmp(argv[1], "threads") == 0)
    return threads(argv[2]);
  fprintf(stderr,
          "usage: fp8rt-test load PATH | run DIR | errors DIR | teardown DIR | "
          "threads DIR\n");
  return 2;
}
