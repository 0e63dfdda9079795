/*===- c_api.h - The tgemm runtime for C and Python (ctypes) -------------===*\
|*                                                                          *|
|* libtgemm_runtime.so: load a compiled kernel with its manifest, then      *|
|* launch it on your own device memory (tgemm_rt_launch), or run it (check  *|
|* and time it on inputs it makes) at any size the manifest allows. Every   *|
|* catches all errors; on failure it returns NULL or a non-zero status and  *|
|* tgemm_rt_last_error() says why (per thread).                             *|
|*                                                                          *|
\*===----------------------------------------------------------------------===*/

#ifndef TGEMM_RUNTIME_C_API_H
#define TGEMM_RUNTIME_C_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define TGEMM_RT_API __attribute__((visibility("default")))
#else
#define TGEMM_RT_API
#endif

/* Bumped when a signature or the layout of a struct changes (not when
 * functions are added: tgemm_rt_run_with, tgemm_rt_validate and
 * tgemm_rt_launch came later; look them up before use). 2: the epilogue
 * operands at the end of tgemm_rt_launch_args. */
#define TGEMM_RT_ABI_VERSION 2

/* Statuses: the exit codes of tgemm-run. */
enum {
  TGEMM_RT_OK = 0,
  TGEMM_RT_ERROR = 1,        /* bad input, unsupported, device error */
  TGEMM_RT_USAGE = 2,        /* bad arguments */
  TGEMM_RT_WRONG_RESULT = 3, /* the check failed; the result is filled in */
  TGEMM_RT_NO_DEVICE = 4
};

typedef struct tgemm_rt_kernel tgemm_rt_kernel;

typedef struct tgemm_rt_result {
  double kernel_ms;      /* median over the repetitions; 0 if not timed */
  double kernel_rate;    /* 2*batch*M*N*K / time in 1e12/s (TFLOP/s or
                            TOP/s) */
  double anchor_ms;      /* the reference library's GEMM, timed alike */
  double anchor_rate;
  double ratio;          /* kernel_rate / anchor_rate */
  double rel_error;      /* relative Frobenius error, if checked */
  double max_error;      /* max |C-R|/rms(R); max |C-R| for integers */
  int64_t mismatches;    /* elements outside the tolerance */
  int64_t first_mismatch; /* row-major index of the first, or -1 (over the
                             whole batch: b*M*N + i*N + j) */
  int32_t checked;       /* 1 if C was compared with the reference */
  int32_t passed;        /* 1 if checked and within tolerance */
  int32_t integer;       /* 1 if the rates are TOP/s */
  int32_t reps;
  char anchor[128];      /* e.g. "cublas f16*f16->f32 compute 32F TN" */
} tgemm_rt_result;

/* What to run, for tgemm_rt_run_with and tgemm_rt_validate. Zero means
 * "not given" in every field, so a zeroed struct (or tgemm_rt_options_init)
 * asks for the defaults. */
typedef struct tgemm_rt_options {
  int64_t m, n, k;  /* the problem size; 0 for a size the kernel has
                       statically */
  int64_t batch;    /* GEMMs of a batched kernel; 0: its static batch */
  int64_t lda, ldb, ldc; /* leading dimensions (row strides, elements) of
                            the stored A, B, C; 0: packed rows. Only for
                            arguments the manifest marks strided. */
  int64_t offset_a, offset_b, offset_c; /* elements from the start of the
                                           allocation; 0: none. Strided
                                           arguments only. */
  int32_t reps;     /* timed repetitions of the kernel and the anchor */
  int32_t check;    /* 1: one checked launch first */
} tgemm_rt_options;

TGEMM_RT_API int tgemm_rt_abi_version(void);
/* tgemm's version, "MAJOR.MINOR.PATCH" (tgemm/Version.h): the same string as
 * every tool's --version and the Python package's tgemm.__version__. */
TGEMM_RT_API const char *tgemm_rt_version(void);
/* sizeof(tgemm_rt_result), so a binding can check its layout. */
TGEMM_RT_API size_t tgemm_rt_result_size(void);
/* sizeof(tgemm_rt_options), likewise. */
TGEMM_RT_API size_t tgemm_rt_options_size(void);
/* Zeroes `options` (all defaults, no timed repetitions, no check). */
TGEMM_RT_API void tgemm_rt_options_init(tgemm_rt_options *options);

/* Loads `kernel_path` (PTX, cubin or fatbin; NULL to time only the
 * reference library) for the manifest entry `kernel_name` (NULL if the
 * manifest has one kernel) on CUDA device `device`. NULL on failure. */
TGEMM_RT_API tgemm_rt_kernel *tgemm_rt_load(const char *kernel_path,
                                            const char *manifest_path,
                                            const char *kernel_name,
                                            int device);

/* Runs at M x N x K (0 for a size the kernel has statically): one checked
 * launch if `check`, then `reps` timed launches and `reps` of the anchor
 * (5 warm-up launches each). Returns a status; `result` is filled in for
 * TGEMM_RT_OK and TGEMM_RT_WRONG_RESULT. */
TGEMM_RT_API int tgemm_rt_run(tgemm_rt_kernel *kernel, int64_t m, int64_t n,
                              int64_t k, int reps, int check,
                              tgemm_rt_result *result);

/* tgemm_rt_run with every knob: sizes, batch, leading dimensions and
 * offsets (see tgemm_rt_options and docs/runtime.md). */
TGEMM_RT_API int tgemm_rt_run_with(tgemm_rt_kernel *kernel,
                                   const tgemm_rt_options *options,
                                   tgemm_rt_result *result);

/* Checks `options` against the manifest entry `kernel_name` (NULL: the
 * only one) of `manifest_path` as tgemm_rt_run_with would, without a
 * device: sizes, batch, requirements, grid, leading dimensions and
 * offsets. Returns a status (TGEMM_RT_OK if a run could start). */
TGEMM_RT_API int tgemm_rt_validate(const char *manifest_path,
                                   const char *kernel_name,
                                   const tgemm_rt_options *options);

/* One operand of tgemm_rt_launch, as the caller holds it on the device. */
typedef struct tgemm_rt_matrix {
  uint64_t data;        /* device address of its first element: row 0,
                           column 0 of matrix 0 of the stored matrix (A is
                           M x K row-major or K x M column-major, B K x N or
                           N x K, C M x N) */
  int64_t ld;           /* elements between rows; 0: packed rows */
  int64_t batch_stride; /* elements between the matrices of a batch; 0:
                           rows x ld. Batched kernels only. */
} tgemm_rt_matrix;

/* A launch on the caller's memory. Zero means "not given" in the sizes. */
typedef struct tgemm_rt_launch_args {
  int64_t m, n, k;  /* the problem size; 0 for a size the kernel has
                       statically */
  int64_t batch;    /* GEMMs of a batched kernel; 0: its static batch */
  tgemm_rt_matrix a, b, c;
  void *stream;     /* a CUstream of the handle's device; NULL: the
                       default stream */
  uint64_t workspace;      /* the workspace of a kernel that splits K or
                              reads a transposed copy of an operand (device
                              address, 256-byte aligned, zeroed before its
                              first launch, one per stream): see
                              tgemm_rt_workspace_bytes; 0 otherwise */
  int64_t workspace_bytes; /* its size in bytes */
  const uint64_t *epilogue; /* the fused epilogue's operands (ABI 2): one
                               device address per epilogue argument of the
                               manifest, in args order (epilogue0,
                               epilogue1, ...), each packed: a bias or scale
                               vector of M, N or 1 elements, a residual of
                               C's shape; NULL when num_epilogue is 0 */
  int64_t num_epilogue;     /* how many; the kernel's count exactly */
} tgemm_rt_launch_args;

/* The workspace `args` needs with the handle's kernel, in `*bytes`: 0 unless
 * the kernel splits K (config.split_k > 1) or reads an operand from a
 * transposed copy ("transposes"; docs/manifest.md gives the layout). The
 * sizes are checked as tgemm_rt_launch checks them. */
TGEMM_RT_API int tgemm_rt_workspace_bytes(tgemm_rt_kernel *kernel,
                                          const tgemm_rt_launch_args *args,
                                          int64_t *bytes);

/* sizeof(tgemm_rt_launch_args), so a binding can check its layout. */
TGEMM_RT_API size_t tgemm_rt_launch_args_size(void);

/* Launches the handle's kernel on `args` (C = alpha * A * B + beta * C with
 * the manifest's alpha and beta, then its epilogue steps) on `args->stream`,
 * asynchronously: it allocates nothing, times nothing and does not wait for the
 * kernel, so it may be captured in a CUDA graph. Every argument is checked
 * first (sizes, requirements, alignment, strides, the epilogue operands' count,
 * that each address is memory CUDA knows); a mistake is TGEMM_RT_USAGE or
 * TGEMM_RT_ERROR with tgemm_rt_last_error() naming the argument. Safe to call
 * from several threads at once on one handle. */
TGEMM_RT_API int tgemm_rt_launch(tgemm_rt_kernel *kernel,
                                 const tgemm_rt_launch_args *args);

/* Checks `args` against the manifest entry `kernel_name` (NULL: the only
 * one) of `manifest_path` as tgemm_rt_launch does, without a device (the
 * addresses only for null and alignment). */
TGEMM_RT_API int tgemm_rt_check_launch(const char *manifest_path,
                                       const char *kernel_name,
                                       const tgemm_rt_launch_args *args);

/* tgemm's element types as JSON text (one object per type: name, mlir,
 * bits, integer, float8, operand, result; see ElementTypes.def), so that a
 * binding speaks the same vocabulary as the compiler and the runtime. The
 * string is static. */
TGEMM_RT_API const char *tgemm_rt_element_types(void);

/* Why the last failing call on this thread failed ("" if none did). */
TGEMM_RT_API const char *tgemm_rt_last_error(void);

TGEMM_RT_API void tgemm_rt_free(tgemm_rt_kernel *kernel);

#ifdef __cplusplus
}
#endif

#endif /* TGEMM_RUNTIME_C_API_H */
