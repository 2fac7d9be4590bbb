/*===- fp8rt.h - libfp8rt's C API ------------------------------*- C -*-===//
 *
 * libfp8rt runs the functions that `fp8-opt --fp8-emit=dir=DIR` compiled:
 * it reads DIR/manifest.json (docs/Manifest.md) and the PTX it names, and
 * launches a function's kernels in its plan's order on a CUDA stream, on
 * device buffers the caller owns. C99, for C programs and Python's ctypes.
 *
 * Every function that can fail returns an fp8rt_status; on failure
 * fp8rt_last_error() says why, in a message of this thread that stays
 * valid until the thread's next libfp8rt call. Nothing throws.
 *
 * The CUDA driver (libcuda.so.1) is opened at the first fp8rt_run, not
 * linked: loading and querying a program need no GPU.
 *
 *===----------------------------------------------------------------------===*/

#ifndef FP8RT_FP8RT_H
#define FP8RT_FP8RT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum fp8rt_status {
  FP8RT_SUCCESS = 0,
  /* A bad argument: a null pointer, a tensor that does not match the plan,
   * a too-small workspace. */
  FP8RT_ERROR_INVALID_ARGUMENT = 1,
  /* No function of that name (or index) in the program. */
  FP8RT_ERROR_NOT_FOUND = 2,
  /* The manifest or a PTX file cannot be read, or is invalid. */
  FP8RT_ERROR_MANIFEST = 3,
  /* The CUDA driver failed (no driver, no context, JIT, launch, memory). */
  FP8RT_ERROR_CUDA = 4
} fp8rt_status;

/* Element types, as the manifest names them (fp8rt_dtype_name). */
typedef enum fp8rt_dtype {
  FP8RT_BF16 = 0,
  FP8RT_F16 = 1,
  FP8RT_F32 = 2,
  FP8RT_F64 = 3,
  FP8RT_F8E4M3 = 4,
  FP8RT_F8E5M2 = 5,
  FP8RT_E8M0 = 6,
  FP8RT_I1 = 7, /* one byte per element, 0 or 1 */
  FP8RT_I8 = 8,
  FP8RT_I32 = 9,
  FP8RT_I64 = 10
} fp8rt_dtype;

/* "bf16", "f8e4m3", ...; NULL for a value outside the enum. */
const char *fp8rt_dtype_name(fp8rt_dtype dtype);
/* Bytes per element; 0 for a value outside the enum. */
size_t fp8rt_dtype_size(fp8rt_dtype dtype);
/* The dtype of a manifest name; FP8RT_ERROR_INVALID_ARGUMENT if none. */
fp8rt_status fp8rt_dtype_from_name(const char *name, fp8rt_dtype *out);

/* A dense row-major tensor in device memory, owned by the caller. `shape`
 * has `rank` extents (it may be NULL when rank is 0). `data` must be
 * 16-byte aligned, and not NULL unless the tensor has no elements. */
typedef struct fp8rt_tensor {
  void *data; /* a CUdeviceptr */
  fp8rt_dtype dtype;
  int rank;
  const int64_t *shape;
} fp8rt_tensor;

/* What a function takes or returns; the strings and the shape belong to
 * the program and live as long as it. */
typedef struct fp8rt_tensor_info {
  const char *name;
  fp8rt_dtype dtype;
  int rank;
  const int64_t *shape;
  size_t bytes;
} fp8rt_tensor_info;

typedef struct fp8rt_signature {
  const char *name;
  const char *location; /* "file:line:col", or "" */
  int num_inputs;
  int num_outputs;
  int num_launches;
  /* The intermediates' workspace a caller may pass to fp8rt_run. */
  size_t workspace_bytes;
  /* The zero-filled region the program allocates itself. */
  size_t zeroed_bytes;
} fp8rt_signature;

typedef struct fp8rt_program fp8rt_program;

/* Loads `path`: a directory holding manifest.json, or a manifest file.
 * Reads and validates the manifest and reads every kernel's PTX; touches no
 * GPU. On success *out is a program to pass to fp8rt_destroy. */
fp8rt_status fp8rt_load(const char *path, fp8rt_program **out);

/* Frees the program and the device memory it allocated (its workspaces,
 * zeroed regions and tensor maps) and unloads its modules. No run of it may
 * still be in flight. The program holds each primary context it ran in until
 * this call, so it may come after the caller released that context; a
 * context made with cuCtxCreate must still exist. NULL is ignored. */
void fp8rt_destroy(fp8rt_program *program);

/* The functions with a launch plan, in manifest order. */
int fp8rt_num_functions(const fp8rt_program *program);
/* The name of function `index`, or NULL if out of range. */
const char *fp8rt_function_name(const fp8rt_program *program, int index);

/* The signature of `function`: counts and workspace sizes, then each input
 * and output by index. */
fp8rt_status fp8rt_function_info(const fp8rt_program *program,
                                 const char *function, fp8rt_signature *out);
fp8rt_status fp8rt_function_input(const fp8rt_program *program,
                                  const char *function, int index,
                                  fp8rt_tensor_info *out);
fp8rt_status fp8rt_function_output(const fp8rt_program *program,
                                   const char *function, int index,
                                   fp8rt_tensor_info *out);

/* Enqueues `function` on `stream` (a CUstream; NULL is the legacy default
 * stream) in the CUDA context current on this thread: every launch of its
 * plan, in order. Returns once they are enqueued; the outputs are ready
 * when the stream reaches that point. Each input and output must match the
 * plan's dtype and shape exactly; outputs may not overlap each other or an
 * input.
 *
 * Intermediates live in `workspace` (device memory of `workspace_bytes`, at
 * least the function's workspace_bytes, 256-byte aligned) when it is not
 * NULL; otherwise in a workspace the program allocates and keeps, one per
 * (context, stream), so runs on different streams do not share one. The
 * zeroed region is likewise per (context, stream, function), zero-filled
 * on the stream before its first run. */
fp8rt_status fp8rt_run(fp8rt_program *program, const char *function,
                       const fp8rt_tensor *inputs, int num_inputs,
                       const fp8rt_tensor *outputs, int num_outputs,
                       void *workspace, size_t workspace_bytes, void *stream);

/* Programmatic dependent launch (on by default): kernels whose plan entry
 * says "pdl" are launched with programmatic stream serialization, so each
 * may start while the launch before it drains. 0 launches every kernel
 * plainly (e.g. to time kernels one by one, or to see what the overlap
 * gives); it applies to the runs enqueued after the call. NULL is ignored. */
void fp8rt_set_programmatic_launch(fp8rt_program *program, int enabled);

/* Why this thread's last failing call failed ("" if none did). */
const char *fp8rt_last_error(void);

#ifdef __cplusplus
}
#endif

#endif /* FP8RT_FP8RT_H */
